import TesseraCore
import TesseraPictures

/// The bot's texts in English.
struct English: Texts {
    func welcome(gameName: String, wordLength: Int, maximumGuesses: Int) -> String {
        """
        <b>Welcome to \(gameName.htmlEscaped)!</b> Everyone gets the same \(wordLength)-letter word each day, \
        and you have \(maximumGuesses) tries to find it.

        Send a word to guess. After each guess the squares show how close you are:
        🟩 the letter is in that spot · 🟨 it is in the word elsewhere · ⬛ it is not in the word.

        /board your board · /stats your statistics · /share your result
        /hard hard mode · /timezone when your day begins · /help every command
        """
    }

    var help: String {
        """
        <b>Commands</b>
        /guess WORD — guess (or send the word alone)
        /board — your board today
        /practice [es] [hard] — a practice game on a random word, as often as you like
        /archive — past puzzles you missed; /archive 312 plays one
        /play — back to today's puzzle after practice
        /hard — hard mode: every hint must be used (only before your first guess); /hard off
        /stats — your statistics
        /analysis — how your latest game compares with optimal play
        /share — post your result, without spoilers, in this chat
        /leaderboard [today|yesterday|week|month|season|all] — this group's board
        /leaderboard official [today|week|month|all] — results pasted from the Wordle app
        /leaderboard official connections|strands|mini — the other puzzles pasted today
        /join, /leave — take part in this group's board, or stop
        /settings — this group's day, language and summary (administrators change them)
        /timezone Europe/Madrid — when your day begins (from the next puzzle)
        /remind on|off — a reminder before your day ends while your streak is 3 or more
        /settings effects on|off — confetti when you win, where your app shows it
        /settings pictures on|off — your result card and statistics chart as pictures
        /language en|es — the language you play and read in
        /export — everything I store about you, as a file; /forgetme — delete it all
        """
    }

    var groupHelp: String {
        """
        <b>Tessera in this group</b>
        Everyone plays the same word each day, privately with me, so nobody here sees letters. Results are \
        compared here, and the word is shown once every member has played or their day is over.
        /play — play today's puzzle in our private chat
        /join, /leave — take part in this group's board, or stop
        /leaderboard [today|yesterday|week|month|season|all] — this group's board
        /leaderboard official [today|week|month|all] — results pasted from the Wordle app
        /leaderboard official connections|strands|mini — the other puzzles pasted today
        /share — post your result here, without spoilers
        /board — your squares today
        /settings — this group's day, language and summary (administrators change them)
        """
    }

    func greeting(seesEveryMessage: Bool) -> String {
        var steps = """
            👋 Hello! To set me up: an administrator picks the group's day with /settings timezone \
            Europe/Madrid (and /settings language es for Spanish); then everyone who wants to compete sends /join \
            and plays with /play.
            """
        if !seesEveryMessage {
            steps += """

                ⚠️ I can only see commands here, so pasted Wordle results will not count. To fix it, make me an \
                administrator, or turn off privacy mode with @BotFather (/setprivacy, Disable) and add me again.
                """
        }
        return steps
    }

    func describe(_ command: BotCommand) -> String {
        switch command {
        case .play: "Play today's puzzle in private"
        case .start: "How to play"
        case .guess: "Guess a word: /guess CRANE"
        case .board: "Your board today"
        case .practice: "Practice on a random word: /practice es hard"
        case .archive: "Past puzzles you missed: /archive 312"
        case .hard: "Hard mode (before your first guess)"
        case .stats: "Your statistics"
        case .analysis: "How your last game compares with optimal play"
        case .share: "Post your result without spoilers"
        case .leaderboard: "This group's board: today, week, month, all, official"
        case .join: "Take part in this group's board"
        case .leave: "Leave this group's board"
        case .settings: "This group's settings"
        case .timezone: "When your day begins: /timezone Europe/Madrid"
        case .language: "Language: /language en|es"
        case .remind: "Streak reminders: /remind on|off"
        case .export: "Your data as a file"
        case .forgetme: "Delete everything stored about you"
        case .help: "Commands"
        }
    }

    func practiceTitle(_ kind: PracticeGame.Kind, guesses: Int, maximumGuesses: Int, hardMode: Bool) -> String {
        let name =
            switch kind {
            case .practice: "Practice"
            case .archive(let puzzle): "Archive \(puzzle.grouped)"
            }
        return "<b>\(name)</b> · \(guesses)/\(maximumGuesses)\(hardMode ? " · hard mode" : "")"
    }
    let practiceUsage = "Start a practice game with /practice, or /practice es hard for Spanish in hard mode."
    let archiveUsage = "/archive lists the past puzzles you missed; /archive 312 plays puzzle 312."
    func abandonQuestion(_ game: PracticeGame, typed: String?) -> String {
        let what =
            switch game.kind {
            case .practice: "your practice game"
            case .archive(let puzzle): "puzzle \(puzzle.grouped) from the archive"
            }
        // Given up with guesses, it counts as given up; with none, not at all.
        return "You are still playing \(what) (\(game.guesses.count) of 6 tries). A new game gives it up"
            + (game.guesses.isEmpty
                ? "; with no guess yet, it is not counted." : ": it counts as given up in your practice statistics.")
            + (typed.map { " To start anyway, send <code>\($0.htmlEscaped)</code>." } ?? "")
    }
    let abandonButton = "Give it up and start"
    func practiceLimit(_ limit: Int, timeLeft seconds: Double) -> String {
        "You have started \(limit) practice and archive games today, the most a day, so that everyone's games stay "
            + "quick. More in \(TextFormat.duration(seconds)); today's puzzle is always open with /play."
    }
    let practiceOff = "Practice and archive games are switched off on this server. Today's puzzle is open with /play."
    let practiceNotFinished = "Finish this game first; then /share gives its result to post."
    let practiceOver = "That game is over. /practice starts another, /archive lists past puzzles, /play is today's."
    let practiceCommands = "/practice another · /archive · /share · /analysis · /play today's puzzle"
    let practiceAgainButton = "🎯 Practice again"
    let archiveButton = "🗂 Archive"
    let practiceUnplayable = "That game's word is no longer on my lists, so it cannot go on. /practice starts another."
    func archiveList(
        _ puzzles: [(PuzzleNumber, CivilDate)], language: Language, coming: (PuzzleNumber, LocalTime)?,
        older: String?
    ) -> String {
        var lines = ["<b>The archive</b> (\(languageName(language))): past puzzles you have not played, newest first"]
        if let (puzzle, time) = coming {
            lines.append(
                "<i>Puzzle \(puzzle.grouped) is still today's somewhere in the world: it joins the archive "
                    + "\(at(time)), your time.</i>")
        }
        lines += puzzles.map { "\($0.0.grouped) · \($0.1)" }
        if let older { lines.append("Older ones: \(older)") }
        return lines.joined(separator: "\n")
            + "\n\nSend /archive NUMBER to play one. It counts only in your practice statistics."
    }
    let archiveMoreButton = "Older ▸"
    let archiveEmpty = "You have played every past puzzle. /practice plays a random word."
    func archiveStillOpen(_ puzzle: PuzzleNumber) -> String {
        "Puzzle \(puzzle.grouped) is still today's somewhere in the world, so it is not in the archive yet. "
            + "/play plays your puzzle of today; /archive lists past ones."
    }
    let archiveNoSuchPuzzle = "There is no such past puzzle. /archive lists the ones you can play."
    func archiveWithdrawn(_ puzzle: PuzzleNumber) -> String {
        "Puzzle \(puzzle.grouped)'s word has since been taken off the lists, so it is not played again. "
            + "/archive lists the ones you can play."
    }
    let practiceNothingYet =
        "Practice words are past puzzles' words, and none has ended everywhere yet. Today's puzzle is open with /play."
    func archivePlayed(_ puzzle: PuzzleNumber, result: GameResult, onItsDay: Bool) -> String {
        "You played puzzle \(puzzle.grouped) " + (onItsDay ? "on its day" : "from the archive")
            + " (\(TextFormat.score(result, maximumGuesses: 6))). /archive lists the ones you have not."
    }
    func practiceStatistics(_ stats: Statistics, givenUp: Int, scores: AverageScores?) -> String {
        """
        <b>Practice and archive</b> (not on any board)
        Played \(stats.played) · Win \(stats.winPercentage)%\(givenUp > 0 ? " · Given up \(givenUp)" : "")
        <pre>\(TextFormat.distribution(stats))</pre>
        """
            + (scores.map { "\n" + averageScores($0) } ?? "")
    }
    func officialStatistics(_ stats: Statistics) -> String {
        """
        <b>Wordle</b> (the results you pasted in groups)
        Played \(stats.played) · Win \(stats.winPercentage)% · Current streak \(stats.currentStreak) · \
        Max streak \(stats.maxStreak)
        <pre>\(TextFormat.distribution(stats))</pre>
        """
    }
    let practiceShareNotCounted = """
        That is a practice or archive result: it counts on no board here, since only the day's puzzle played on \
        its day is fair to everyone. Well played all the same!
        """
    func practiceShareAcknowledged(name: String) -> String {
        "\(TextFormat.person(name))'s practice result: not counted."
    }

    let guessHowTo = "Send one word to guess, or /help for the commands."
    let guessNeedsWord = "Add your word: /guess CRANE"
    func playPrivately(joined: Bool) -> String {
        "Guesses are made in our private chat, so nobody here sees your letters. " + counts(joined: joined)
    }
    let playPrivatelyButton = "▶️ Play privately"
    func playPrivatelyInvited(joined: Bool) -> String {
        "I've invited you to a private chat: guesses are made there, so nobody here sees your letters. "
            + counts(joined: joined)
    }

    private func counts(joined: Bool) -> String {
        joined
            ? "Your result counts on this group's board."
            : "Your result counts on this group's board once you /join it."
    }
    let unknownCommand = "I don't know that command. /help lists the ones I do."

    func rejection(_ rejection: GuessRejection) -> String {
        // The core's messages are the original game's English wording.
        rejection.description.htmlEscaped
    }

    func alreadyFinished(_ result: GameResult, maximumGuesses: Int) -> String {
        "You have finished today's puzzle (\(TextFormat.score(result, maximumGuesses: maximumGuesses))). "
            + "A new word comes with the next puzzle."
    }

    func won(guesses: Int, maximumGuesses: Int) -> String {
        "<b>\(GameResult.won(guesses: guesses).praise ?? "")!</b> Solved in \(guesses)/\(maximumGuesses)."
    }

    func lost(answer: String) -> String {
        "The word was <b>\(answer.htmlEscaped)</b>."
    }

    func boardTitle(gameName: String, puzzle: PuzzleNumber, guesses: Int, maximumGuesses: Int, hardMode: Bool)
        -> String
    {
        "<b>\(gameName.htmlEscaped) \(puzzle.grouped)</b> · \(guesses)/\(maximumGuesses)\(hardMode ? " · hard mode" : "")"
    }

    func nextPuzzle(in seconds: Double) -> String {
        "⏳ Next puzzle in \(TextFormat.duration(seconds))"
    }

    let boardCommands = "/share to post your result · /stats · /analysis"
    func forgetTyped(code: String) -> String {
        "To delete it all, send: <code>/forgetme \(code.htmlEscaped)</code>. Anything else keeps everything."
    }
    let forgetWrongCode = "That code is not the one I gave you, so nothing was deleted. /forgetme gives you the code."
    let shareButton = "📤 Share"
    let copyButton = "📋 Copy"
    let statsButton = "📊 Stats"
    func shareTitle(_ headline: String) -> String { "Share \(headline)" }
    let shareFirstPlay = "Finish today's puzzle first"
    let guessDeleted =
        "🧹 I deleted that guess: its letters would be a hint for everyone. I do the same with any guess posted here."

    func effectsAre(on: Bool) -> String {
        on
            ? "🎉 A win in our chat comes with confetti, where your app shows it. /settings effects off stops it."
            : "Wins in our chat come without confetti. /settings effects on brings it back."
    }
    func picturesAre(on: Bool) -> String {
        on
            ? "🖼 A finished game comes with its result card, and /stats with its chart. /settings pictures off stops them."
            : "No pictures in our chat: the text says it all. /settings pictures on brings them back."
    }
    func remindersAre(on: Bool, namedInNudges: Bool) -> String {
        on
            ? "🔔 Reminders are on: if your streak is 3 or more and you have not played, I remind you 4 hours before your day ends. /remind off stops them."
            : "🔕 Reminders are off\(namedInNudges ? "" : ", and groups' nudges do not name you"). "
                + "/remind on to get one before your day ends with your streak at stake."
    }

    let remindUsage = "In our private chat: /remind on or /remind off."

    func reminder(streak: Int, timeLeft seconds: Double) -> String {
        "🔥 Your streak of \(streak) ends in \(TextFormat.duration(seconds)) unless you play today's puzzle. Send a word to start."
    }

    func groupProgress(name: String, squares: String, guesses: Int, maximumGuesses: Int) -> String {
        "\(TextFormat.person(name)): \(squares) \(guesses)/\(maximumGuesses)"
    }

    func groupWon(name: String, guesses: Int, maximumGuesses: Int) -> String {
        "🎉 \(TextFormat.person(name)) solved today's puzzle in \(guesses)/\(maximumGuesses)!"
    }

    func groupLost(name: String, maximumGuesses: Int) -> String {
        "\(TextFormat.person(name)) did not find today's word (X/\(maximumGuesses))."
    }

    let noGuessesYet = "No guesses yet today. Send a word to start."
    let shareNotFinished = "Finish today's puzzle first; then /share posts your result."

    let hardOn = "Hard mode is on: every revealed hint must be used in later guesses."
    let hardOff = "Hard mode is off."
    let hardLater = "Hard mode can only be enabled at the start of a round. It will be on from your next puzzle."
    func onOffUsage(_ command: String) -> String { "Use /\(command) on or /\(command) off." }

    func statistics(_ stats: Statistics, language: Language, scores: AverageScores?) -> String {
        """
        <b>Statistics</b> (\(languageName(language)))
        Played \(stats.played) · Win \(stats.winPercentage)% · Current streak \(stats.currentStreak) · \
        Max streak \(stats.maxStreak)
        <pre>\(TextFormat.distribution(stats))</pre>
        """
            + (scores.map { "\n" + averageScores($0) } ?? "")
    }
    let statisticsChartLabels = StatisticsChart.Labels(
        played: "Played", winPercentage: "Win %", currentStreak: "Current streak", maxStreak: "Max streak",
        distribution: "Guess distribution")
    func averageScores(_ scores: AverageScores) -> String {
        "Skill \(scores.skill) · Luck \(scores.luck) on average over your last "
            + (scores.games == 1 ? "analysed game" : "\(scores.games) analysed games") + " (/analysis)"
    }

    let leaderboardPrivate = "Leaderboards are for groups: add me to a group and play or /share there."
    func leaderboardEmpty(_ board: BoardKind, puzzle: PuzzleNumber) -> String {
        switch board {
        case .tessera: "No results for puzzle \(puzzle.grouped) in this group yet. Play, then /share here."
        case .official: "No Wordle \(puzzle.grouped) results in this group yet. Paste yours from the Wordle app."
        case .connections, .strands, .mini: "No results of that puzzle in this group yet."
        }
    }
    func stillPlaying(guesses: Int, maximumGuesses: Int) -> String {
        "playing (\(guesses)/\(maximumGuesses))"
    }

    func timeZoneIs(_ zone: String, hour: Int, pending: (String, PuzzleNumber)?) -> String {
        var text = "Your day follows <b>\(zone.htmlEscaped)</b>; each new puzzle arrives at \(TextFormat.clock(hour))."
        if let (next, puzzle) = pending {
            text += " From puzzle \(puzzle.grouped) on it follows <b>\(next.htmlEscaped)</b>."
        }
        return text
    }
    func yourDay(_ zone: String, hour: Int) -> String {
        "🕰️ Your day follows <b>\(zone.htmlEscaped)</b>, with a new puzzle at \(TextFormat.clock(hour)); "
            + "another zone? Send /timezone and its name, like /timezone Europe/Madrid."
    }
    func timeZoneChanged(_ zone: String, from puzzle: PuzzleNumber) -> String {
        "From puzzle \(puzzle.grouped) on, your day follows <b>\(zone.htmlEscaped)</b>. "
            + "Today's puzzle stays as it is, so no day is replayed or skipped."
    }
    func unknownTimeZone(_ text: String) -> String {
        "I don't know the time zone \"\(TextFormat.echo(text))\". Use a name like Europe/Madrid or America/New_York."
    }

    func languageIs(_ language: Language) -> String {
        "You play in <b>\(languageName(language))</b>. Change it with /language \(TextFormat.languageCodes)."
    }
    func languageChanged(_ language: Language) -> String {
        "You now play in <b>\(languageName(language))</b>; your next guesses use its word list."
    }
    func openGames(_ games: [OpenGame]) -> String {
        let names = games.map { game in
            switch game {
            case .daily(let language): "today's \(languageName(language)) puzzle"
            case .practice(.practice, let language): "your \(languageName(language)) practice game"
            case .practice(.archive(let puzzle), let language):
                "puzzle \(puzzle.grouped) from the archive, in \(languageName(language))"
            }
        }
        return "Open now: " + names.joined(separator: " and ") + ". Each word goes to the game of its language."
    }
    func languageName(_ language: Language) -> String {
        switch language {
        case .english: "English"
        case .spanish: "Spanish"
        }
    }
    func inLanguage(_ language: Language) -> String { "in \(languageName(language))" }
    func playing(_ language: Language) -> String {
        "Your words go to today's <b>\(languageName(language))</b> puzzle, which has its own board, statistics and "
            + "streak. Send a word to guess; /play \(TextFormat.languageCodes) switches puzzle."
    }
    let playUsage =
        "Choose a puzzle by its language: /play \(TextFormat.languageCodes). To guess, send the word on its own."
    func groupPlays(_ language: Language) -> String {
        "This group plays the <b>\(languageName(language))</b> puzzle: only that one counts on its board. Play it in "
            + "our private chat with /play \(language.rawValue); your own puzzle keeps its statistics."
    }
    func unknownLanguage(_ text: String) -> String {
        "I don't know the language \"\(TextFormat.echo(text))\". Choose one of: "
            + Language.allCases.map { "\($0.rawValue) (\(languageName($0)))" }.joined(separator: ", ") + "."
    }

    // MARK: Group boards

    let groupsOnly = "That command is for groups. Add me to a group to compete there."
    func joined(name: String) -> String {
        "\(TextFormat.person(name)) joined this group's board: your results of each day count here."
    }
    func alreadyJoined(name: String) -> String { "\(TextFormat.person(name)), you are already on this group's board." }
    func left(name: String) -> String {
        "\(TextFormat.person(name)) has left this group's board; the days already played stay in its weeks and "
            + "seasons. Play or /join here to come back."
    }
    let notJoined = "You are not on this group's board. /join to take part."

    let periodNames: [BoardPeriod: String] = [:]
    func unknownPeriod(_ text: String) -> String {
        "I don't know the period \"\(TextFormat.echo(text))\". Use /leaderboard today, yesterday, week, month, season "
            + "or all, "
            + "after official for the Wordle app's results."
    }
    func leaderboardToday(
        _ board: BoardKind, puzzle: PuzzleNumber, yesterday final: Bool?, lines: [RichLayout.Row]
    ) -> RichLayout {
        var title = board == .official ? "Official Wordle \(puzzle.grouped)" : "Leaderboard · puzzle \(puzzle.grouped)"
        if let final { title += final ? " · yesterday · final" : " · yesterday · late results still count" }
        return .board(title: title, header: dayHeader, rows: lines)
    }
    func leaderboardPeriod(
        _ board: BoardKind, _ period: BoardPeriod, since: CivilDate?, ended: Bool, lines: [RichLayout.Row]
    ) -> RichLayout {
        let title: String =
            switch period {
            case .today: "today"
            case .yesterday: "yesterday"
            case .week: "this week"
            case .month: "this month"
            case .all: "all time"
            }
        let shown = ended ? "last week" : title
        let rule =
            period == .all
            ? "Ranked by points per game, counting 10 more games at 3 points each, so one lucky game cannot lead."
            : "Points: 7 − guesses for a win, +1 in hard mode, 0 for a loss or a missed day."
        let start = since.map { " (since \($0))" } ?? ""
        let name = board == .official ? "Official Wordle" : "Leaderboard"
        return .board(title: "\(name) · \(shown)\(start)", header: standingsHeader, rows: lines, note: rule)
    }
    func standingLine(
        place: String, name: String, standing: Standing, score: Double?, streak: Int, crowns: Int, missed: Int?
    ) -> RichLayout.Row {
        let total = score.map { TextFormat.decimal($0, separator: ".") + " per game" } ?? "\(standing.points) pts"
        var detail = [standing.played == 0 ? "no games" : "\(standing.wins)/\(standing.played) won"]
        if let average = standing.averageGuesses { detail.append("avg \(TextFormat.decimal(average, separator: "."))") }
        if let missed, missed > 0 { detail.append("missed \(missed)") }
        return TextFormat.standing(
            place: place, name: name, total: total, streak: streak, crowns: crowns, detail: detail)
    }
    func more(_ count: Int) -> String { "… and \(count) more" }

    // MARK: Pasted results

    let officialBoardName = "official"
    let pasteInGroup = "Results count in groups: paste it in a group I am in, where it goes on the official board."
    func officialCounted(name: String, share: SharedResult) -> String {
        "✅ \(TextFormat.person(name)): \(share.headline.htmlEscaped) is on the official board (/leaderboard official)."
    }
    func officialDuplicate(name: String, puzzle: PuzzleNumber) -> String {
        "\(TextFormat.person(name)), your Wordle \(puzzle.grouped) already counts here; the first result stands."
    }
    func officialNotOpen(puzzle: PuzzleNumber) -> String {
        "Wordle \(puzzle.grouped) is not out yet here, so it does not count."
    }
    func officialClosed(puzzle: PuzzleNumber, today: PuzzleNumber) -> String {
        "Wordle \(puzzle.grouped) is closed; only today's Wordle \(today.grouped), or one a day either side, counts."
    }
    let editIgnored = "Edits do not count: the result as first posted stands."

    func summarySoFarTitle(puzzle: PuzzleNumber) -> String { "⏳ Puzzle \(puzzle.grouped) so far" }
    func summaryWord(_ spoiler: String) -> String { "The word was \(spoiler)." }
    func summaryWord(in language: Language, _ spoiler: String) -> String { "in \(languageName(language)), \(spoiler)" }
    let and = "and"
    func weekOverTitle(since monday: CivilDate) -> String {
        "🏁 The week since \(weekdays[monday.weekday]) \(monday.day) \(months[monday.month - 1]) is over."
    }
    let weekBestStreak = "Best streak"
    func weekEveryonePlayed(_ days: Int, of total: Int) -> String {
        days == 0
            ? "No day had everyone playing: a whole group one day next week?"
            : "Everyone played on \(days) of \(total == 7 ? "7 days" : "the \(total) days since this board began")."
    }
    func seasonName(_ length: SeasonLength, first: CivilDate) -> String {
        length == .month
            ? "The \(months[first.month - 1]) season"
            : "The season of the four weeks since \(weekdays[first.weekday]) \(first.day) \(months[first.month - 1])"
    }
    func seasonOverTitle(_ season: String) -> String { "🏁 \(season) is over." }
    func seasonChampion(_ names: String) -> String { "Champion: \(names)!" }
    func seasonMostImproved(_ improvement: SeasonSummary.Improvement) -> String {
        "Most improved: \(TextFormat.person(improvement.name)) (\(TextFormat.decimal(improvement.from, separator: ".")) → "
            + "\(TextFormat.decimal(improvement.to, separator: ".")) guesses a game)"
    }
    func seasonBestStreak(_ names: String, streak: Int) -> String { "Best streak: \(names) (\(streak) wins in a row)" }
    func seasonMostSkilful(_ skill: SeasonSummary.Skill) -> String {
        "Most skilful: \(TextFormat.person(skill.name)) (skill \(skill.skill), over \(skill.games) analysed games)"
    }
    let seasonNext = "A new season has begun: everyone starts again from 0."
    let championTag = "Champion"
    let seasonBoardName = "season"
    func leaderboardSeason(_ season: String, until last: CivilDate, lines: [RichLayout.Row]) -> RichLayout {
        .board(
            title: "\(season) · until \(weekdays[last.weekday]) \(last.day) \(months[last.month - 1])",
            header: standingsHeader, rows: lines,
            note: "Points: 7 − guesses for a win, +1 in hard mode, 0 for a loss or a missed day. 👑: days with the "
                + "best result.")
    }
    let boardColumns = BoardColumns(player: "Player", result: "Result", points: "Points", games: "Games")
    let seasonsOff = "This group plays without seasons; an administrator starts them with /settings season month."
    func seasonSetting(_ length: SeasonLength) -> String {
        switch length {
        case .month: "a calendar month"
        case .fourWeeks: "four weeks from a Monday"
        case .off: "off"
        }
    }
    func summaryOfficial(puzzle: PuzzleNumber) -> String { "Wordle \(puzzle.grouped), pasted" }
    let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    func summaryWordLater(waitingFor names: String, count: Int, until: LocalTime) -> String {
        "🔒 The word follows when \(names) \(count == 1 ? "has" : "have") played, or \(at(until))."
    }
    /// `at 06:00`, `tomorrow at 06:00`, `on Thursday at 06:00`; the coming midnight is `at midnight`.
    private func at(_ time: LocalTime) -> String {
        if time.isComingMidnight { return "at midnight" }
        let day = time.daysAhead == 0 ? "" : time.daysAhead == 1 ? "tomorrow " : "on \(weekdays[time.weekday]) "
        return "\(day)at \(time.clock)"
    }
    let summaryWordNotPosted =
        "🔒 This chat cannot hide the word, so it is not posted here: each player sees it on their own board."
    func revealTitle(puzzle: PuzzleNumber) -> String { "🔓 Everyone here is done with puzzle \(puzzle.grouped)." }
    func highlights(_ highlights: DayHighlights) -> String {
        "🎯 Most skilful: \(TextFormat.person(highlights.skilful.name)) (skill \(highlights.skilful.score) of 99)"
    }

    let analysisButton = "🔍 Analysis"
    let analysisPrivateOnly = "An analysis names words, so it is in our private chat: send /analysis there."
    let analysisNoGame = "There is no finished game to analyse yet. Finish today's puzzle, then try /analysis."
    let analysisUsage = "Send /analysis for your latest game."
    func analysisComing(unstudied opener: String?) -> String {
        guard let opener else {
            return "🔍 I'm working out how your guesses compare with optimal play: the analysis comes here in a few "
                + "seconds."
        }
        return "🔍 I'm working out how your guesses compare with optimal play. I haven't studied "
            + "<code>\(opener.uppercased().htmlEscaped)</code> as a first word yet, so this one takes longer: up to a few minutes; "
            + "I'll post the analysis here when it's ready."
    }
    let analysisUnavailable =
        "This game cannot be analysed: one of its words is no longer on the word list. Your other games can."
    func analysisTitle(_ game: AnalysedGame, hardMode: Bool) -> String {
        let name =
            switch game {
            case .daily(let puzzle): "Tessera \(puzzle.grouped)"
            case .practice(.practice): "Practice"
            case .practice(.archive(let puzzle)): "Archive \(puzzle.grouped)"
            }
        return "🔍 Analysis · \(name)" + (hardMode ? " · hard mode" : "")
    }
    func wordsLeft(before: Int, after: Int) -> String {
        "\(TextFormat.grouped(before, separator: ",")) → \(TextFormat.grouped(after, separator: ",")) \(after == 1 ? "word" : "words")"
    }
    func verdict(_ turn: AnalysisReport.Turn, opener: Bool) -> String {
        if turn.wins { return "🎯 solved" }
        let bot = turn.best.map { " (bot: <code>\($0.uppercased().htmlEscaped)</code>)" } ?? ""
        if turn.givesUpSureWin { return "⚠️ risky: no sure win in six after it" + bot }
        func guesses(_ value: Double) -> String { TextFormat.guesses(value, separator: ".") }
        if opener, let best = turn.best, case .exactly(let cost)? = turn.cost, cost >= 0.005 {
            return "\(guesses(cost)) guesses behind <code>\(best.uppercased().htmlEscaped)</code> on average"
        }
        switch turn.cost {
        case .exactly(let cost)?: return cost < 0.005 ? "✅ optimal" : "cost \(guesses(cost)) guesses" + bot
        case .between(let lower, let upper)?: return "cost \(guesses(lower))–\(guesses(upper)) guesses" + bot
        case .atLeast(let lower)?: return "cost at least \(guesses(lower)) guesses" + bot
        case .atMost(let upper)?: return "cost at most \(guesses(upper)) guesses" + bot
        case .unknown?: return "⏱ cost not worked out in time" + bot
        case nil: return "no sure win in six was left"
        }
    }
    func luck(_ value: Known?) -> String {
        func guesses(_ value: Double) -> String { TextFormat.guesses(value, separator: ".", signed: true) }
        func plain(_ value: Double) -> String { TextFormat.guesses(abs(value), separator: ".") }
        switch value {
        case .exactly(let luck)? where abs(luck) < 0.005: return "luck as expected"
        case .exactly(let luck)? where luck > 0: return "lucky: \(plain(luck)) guesses better than expected"
        case .exactly(let luck)?: return "unlucky: \(plain(luck)) guesses worse than expected"
        case .between(let lower, let upper)?: return "luck \(guesses(lower)) to \(guesses(upper)) guesses vs. expected"
        case .atLeast(let lower)?: return "luck at least \(guesses(lower)) guesses vs. expected"
        case .atMost(let upper)?: return "luck at most \(guesses(upper)) guesses vs. expected"
        case .unknown?, nil: return "luck —"
        }
    }
    func analysisScores(skill: ClosedRange<Int>, luck: ClosedRange<Int>) -> String {
        "<b>Skill \(TextFormat.score(skill))/99 · Luck \(TextFormat.score(luck))/99</b>"
    }
    let analysisBounded =
        "⏱ Part of this game takes too long to work out exactly, so some values are ranges: the exact value lies "
        + "within each."
    func botPath(_ words: [String], optimal: Bool) -> String {
        "🤖 From your first word, the bot plays " + words.map { "<code>\($0)</code>" }.joined(separator: " → ")
            + (optimal ? "" : " (its later guesses are a quick strategy's, not proven best)")
    }
    let summaryStillPlaying = "Still playing"

    let summaryStreaksGoing = "Streaks going"
    let summaryStreaksBroken = "Streaks broken"
    let nudgeStillToPlay = "Still to play today"
    func otherPuzzleScore(_ game: PuzzleShare.Game, measure: Int?) -> String {
        switch (game, measure) {
        case (.connections, nil): "not solved"
        case (.connections, 1?): "1 mistake"
        case (.connections, let mistakes?): "\(mistakes) mistakes"
        case (.strands, 0?): "no hints"
        case (.strands, 1?): "1 hint"
        case (.strands, let hints): "\(hints ?? 0) hints"
        case (.mini, let seconds): TextFormat.minutesAndSeconds(seconds ?? 0)
        }
    }
    func otherPuzzleBoard(
        _ game: PuzzleShare.Game, puzzle: PuzzleNumber, yesterday: Bool, lines: [RichLayout.Row]
    ) -> RichLayout {
        let name = TextFormat.name(of: game) + (game == .mini ? "" : " \(puzzle.grouped)")
        return .board(
            title: "\(TextFormat.mark(of: game)) \(name) · \(yesterday ? "yesterday" : "today")", header: dayHeader,
            rows: lines)
    }
    func dayPuzzles(yesterday: Bool) -> String { yesterday ? "Yesterday's puzzles" : "Today's puzzles" }
    func otherPuzzleCounted(name: String, game: PuzzleShare.Game, score: String) -> String {
        "✅ \(TextFormat.person(name)): \(TextFormat.name(of: game)) \(score) counts for today here."
    }
    func otherPuzzleDuplicate(name: String, game: PuzzleShare.Game) -> String {
        "\(TextFormat.person(name)), your \(TextFormat.name(of: game)) of that day already counts here; the first result stands."
    }
    func otherPuzzleNotToday(_ game: PuzzleShare.Game) -> String {
        "That \(TextFormat.name(of: game)) is not today's here, so it does not count; today's, or one a day either side, does."
    }
    func groupStreak(_ news: GroupStreakNews) -> String {
        switch news {
        case .going(let days): "🔥 Day \(days) together"
        case .ended(let days): "🌱 The group's \(days) days together end here. Every run starts with one day."
        }
    }
    let summaryMissed = "Missed"

    // MARK: The player's data

    let privateOnly = "Send me that in our private chat: it is about your own data."
    let cannotRead = """
        🔒 I can't read encrypted messages, so I can't play here. Invite me to a room without encryption (switch \
        off end-to-end encryption when you create it), and play there.
        """
    let forgetQuestion = """
        This deletes everything I store about you: your settings, every game, your statistics and your results \
        on every group's board. It cannot be undone. Delete it all?
        """
    let forgetConfirmButton = "Yes, delete everything"
    let forgetCancelButton = "No, keep it"
    let forgotten = "Done: everything I stored about you is deleted. Send /start to play again as a new player."
    let slowDown = "Slow down, please: I am still answering your earlier messages, and will skip new ones meanwhile."
    let playedBeforeForgetting =
        "You played this puzzle before your data was deleted, so it cannot be played again. The next one is yours."
    let forgetCancelled = "Nothing was deleted."
    let exportCaption = "Everything I store about you, as JSON."

    // MARK: Group settings

    let settingsTitle = "This group's settings"
    let settingsChangedWith = "Administrators change them with:"
    func setting(_ setting: GroupSetting, of group: Group, next: NextSummary?) -> String {
        switch setting {
        case .day: "Day: \(group.timeZone.htmlEscaped), new puzzle at \(TextFormat.clock(group.rolloverHour))"
        case .language:
            "Language: \(languageName(group.language))"
                + (group.team.languageOnly
                    ? " only: games in another language do not count here"
                    : " · every member plays in their own language, and every result counts")
        case .hardMode: "Hard mode required: \(group.hardModeRequired ? "yes" : "no")"
        case .summary:
            "Daily summary: "
                + (next.map { next in
                    (group.summaryHour.map { "at \(TextFormat.clock($0))" } ?? "at the new puzzle")
                        + " · next: \(weekdays[next.day.weekday])'s puzzle, on \(weekdays[next.postedOn.weekday]) "
                        + "\(next.postedOn.day) \(months[next.postedOn.month - 1]) at \(next.clock)"
                } ?? "off")
        case .topic: "Bot posts in: \(group.topic.map { "topic \($0)" } ?? "the main chat")"
        case .nudge:
            "Nudge \(Int(GroupTeam.nudgeLead / 3600)) hours before a member's own day ends: \(group.team.nudge ? "on" : "off")"
        case .season: "Seasons: \(seasonSetting(group.team.season))"
        case .pictures:
            "Day card with the summary (everyone's colours, never a letter): \(group.team.pictures ? "on" : "off")"
        }
    }
    func dayChangeFrom(_ puzzle: PuzzleNumber) -> String { "📣 From puzzle \(puzzle.grouped), " }
    func dayChangeLanguage(_ language: Language, only: Bool) -> String {
        only
            ? "this group plays the <b>\(languageName(language))</b> puzzle"
            : "this group's posts are in <b>\(languageName(language))</b>, and everyone still plays in their own language"
    }
    func dayChangeDay(_ zone: String, hour: Int) -> String {
        "its day follows <b>\(zone.htmlEscaped)</b>, with a new puzzle at \(TextFormat.clock(hour))"
    }
    func dayChangeOldLanguage(_ language: Language) -> String {
        "On its first day, a game in \(languageName(language)) still counts too."
    }
    let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    func pendingSettings(_ group: Group) -> String {
        guard let next = group.pending, let from = group.pendingFrom else { return "" }
        return """

            From puzzle \(from.grouped) (today's keeps its day and language): \(next.timeZone.htmlEscaped), \
            new puzzle at \(TextFormat.clock(next.rolloverHour)), \(languageName(next.language))
            """
    }
    let settingsAdministratorsOnly = "Sorry, only this group's administrators can change its settings."
    let settingsCannotCheck = "I could not check whether you administer this group. Please try again in a minute."
    let settingsNoTopics = "This chat has no topics: summaries are posted in the chat itself."
    func settingsUsage(for name: String) -> String {
        "I did not understand that setting. Use:\n" + TextFormat.settingsCommands(for: name)
    }
}
