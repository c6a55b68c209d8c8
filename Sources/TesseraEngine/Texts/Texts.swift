public import TesseraCore
public import TesseraPictures

/// Everything the bot says. Each language implements it in one file (`English.swift`, `Spanish.swift`), so a
/// text missing from a translation does not compile. Arguments that come from people are raw; the texts
/// escape them for the HTML subset of chat platforms.
protocol Texts: Sendable {
    // Getting started
    func welcome(gameName: String, wordLength: Int, maximumGuesses: Int) -> String
    var help: String { get }
    /// `/start` and `/help` in a group: what the group can do there, not how to guess in private.
    var groupHelp: String { get }
    /// Posted once when the bot is added to a group: setup steps, and what to change if it cannot see pastes.
    func greeting(seesEveryMessage: Bool) -> String
    var guessHowTo: String { get }
    var guessNeedsWord: String { get }
    /// In a group, for `/guess` and `/play`: guesses are made in the direct chat, so nobody sees letters.
    /// Where guesses are made; `joined`: the asker is on the group's board already.
    func playPrivately(joined: Bool) -> String
    /// The button that opens the direct chat.
    var playPrivatelyButton: String { get }
    var unknownCommand: String { get }

    // Guessing
    func rejection(_ rejection: GuessRejection) -> String
    func alreadyFinished(_ result: GameResult, maximumGuesses: Int) -> String
    func won(guesses: Int, maximumGuesses: Int) -> String
    func lost(answer: String) -> String
    func groupProgress(name: String, squares: String, guesses: Int, maximumGuesses: Int) -> String
    func groupWon(name: String, guesses: Int, maximumGuesses: Int) -> String
    func groupLost(name: String, maximumGuesses: Int) -> String
    var noGuessesYet: String { get }
    var shareNotFinished: String { get }

    // The live board in a direct chat
    /// The board's first line: `Tessera 342 · 3/6`.
    func boardTitle(gameName: String, puzzle: PuzzleNumber, guesses: Int, maximumGuesses: Int, hardMode: Bool)
        -> String
    /// Under a finished board: when the next puzzle comes.
    func nextPuzzle(in seconds: Double) -> String
    var shareButton: String { get }
    var copyButton: String { get }
    var statsButton: String { get }
    /// The title of the result offered by the Share button's query; `headline` is `Tessera 342 3/6`.
    func shareTitle(_ headline: String) -> String
    /// The Share button's query before the game is finished: a button that opens the direct chat.
    var shareFirstPlay: String { get }
    /// Under a finished board where the platform has no buttons: the commands the buttons would be.
    var boardCommands: String { get }
    /// `/forgetme`'s question where the platform has no buttons: how to confirm by typing the code.
    func forgetTyped(code: String) -> String
    /// `/forgetme` with a code that is not the one this player was given: nothing is deleted.
    var forgetWrongCode: String { get }
    /// Said once in a group, the first time the bot deletes a guess posted there.
    var guessDeleted: String { get }

    // Practice and the archive (``BotEngine`` `+Practice`): never on a board
    /// The first line of a practice or archive game's board: `Practice · 3/6`, `Archive 312 · 3/6`.
    func practiceTitle(_ kind: PracticeGame.Kind, guesses: Int, maximumGuesses: Int, hardMode: Bool) -> String
    var practiceUsage: String { get }
    var archiveUsage: String { get }
    /// `/practice` or `/archive` while a game is unfinished: it would count as lost. `typed`: the command that
    /// confirms, where the platform has no buttons.
    func abandonQuestion(_ game: PracticeGame, typed: String?) -> String
    var abandonButton: String { get }
    /// The day's limit of new practice and archive games is reached; `seconds` until the player's next day.
    func practiceLimit(_ limit: Int, timeLeft seconds: Double) -> String
    /// The server allows no practice or archive games (`practice.games.per.day` is 0).
    var practiceOff: String { get }
    /// `/share` of a practice or archive game still being played.
    var practiceNotFinished: String { get }
    /// A word for a finished practice or archive game, with nothing else open.
    var practiceOver: String { get }
    /// Under a finished practice or archive board where the platform has no buttons.
    var practiceCommands: String { get }
    var practiceAgainButton: String { get }
    var archiveButton: String { get }
    /// A practice game whose stored answer is no longer on the lists (a list changed): it cannot go on.
    var practiceUnplayable: String { get }
    /// `/archive`: past puzzles the player did not play, newest first, each with its day.
    /// A screen of the archive's list, newest first; `coming`: the player's yesterday, still today's somewhere,
    /// and when it joins the archive; `older`: the command for older ones where there is no button.
    func archiveList(
        _ puzzles: [(PuzzleNumber, CivilDate)], language: Language, coming: (PuzzleNumber, LocalTime)?,
        older: String?
    ) -> String
    var archiveMoreButton: String { get }
    var archiveEmpty: String { get }
    /// A puzzle still open somewhere: it is the daily puzzle, not the archive's.
    func archiveStillOpen(_ puzzle: PuzzleNumber) -> String
    var archiveNoSuchPuzzle: String { get }
    /// A past puzzle whose word has since been taken off the lists (a slur or an error): kept, never dealt.
    func archiveWithdrawn(_ puzzle: PuzzleNumber) -> String
    /// `/practice` before any puzzle has closed everywhere: practice words are past puzzles' words.
    var practiceNothingYet: String { get }
    func archivePlayed(_ puzzle: PuzzleNumber, result: GameResult, onItsDay: Bool) -> String
    /// The practice section of `/stats`: games, wins and the distribution of practice and archive games, and
    /// the averages of their latest analyses.
    func practiceStatistics(_ stats: Statistics, givenUp: Int, scores: AverageScores?) -> String
    /// `/stats`: the original game's results the player pasted in groups, with their streak.
    func officialStatistics(_ stats: Statistics) -> String
    /// In a group, the first time someone shares a practice or archive result there: why it is not counted.
    var practiceShareNotCounted: String { get }
    /// In a group without reactions, after the reason was given once.
    func practiceShareAcknowledged(name: String) -> String

    // Streak reminders
    func remindersAre(on: Bool, namedInNudges: Bool) -> String
    /// `/settings effects`: whether a win comes with the platform's celebration.
    func effectsAre(on: Bool) -> String
    /// `/settings pictures` in a direct chat.
    func picturesAre(on: Bool) -> String
    var remindUsage: String { get }
    func reminder(streak: Int, timeLeft seconds: Double) -> String

    // Hard mode
    var hardOn: String { get }
    var hardOff: String { get }
    var hardLater: String { get }
    /// The values of a command that takes on or off (`/hard`, `/remind`).
    func onOffUsage(_ command: String) -> String

    // Statistics and boards
    /// `scores`: the averages of the latest analysed games, when there are any.
    func statistics(_ stats: Statistics, language: Language, scores: AverageScores?) -> String
    /// The line of `/stats` with the averages of the latest analysed games.
    func averageScores(_ scores: AverageScores) -> String
    /// The statistics chart's labels, as the statistics' text words them.
    var statisticsChartLabels: StatisticsChart.Labels { get }
    var leaderboardPrivate: String { get }
    func leaderboardEmpty(_ board: BoardKind, puzzle: PuzzleNumber) -> String
    func stillPlaying(guesses: Int, maximumGuesses: Int) -> String

    // Group boards
    var groupsOnly: String { get }
    func joined(name: String) -> String
    func alreadyJoined(name: String) -> String
    func left(name: String) -> String
    var notJoined: String { get }
    /// Words for the periods in `/leaderboard PERIOD`, besides the English ones every language accepts.
    var periodNames: [BoardPeriod: String] { get }
    func unknownPeriod(_ text: String) -> String
    /// The board of one day; `yesterday`: nil for today's, else whether no result of it can count any more.
    func leaderboardToday(
        _ board: BoardKind, puzzle: PuzzleNumber, yesterday final: Bool?, lines: [RichLayout.Row]
    ) -> RichLayout
    /// A week, month or all-time board; `ended`: the week that ended, shown until the new one has a result.
    func leaderboardPeriod(
        _ board: BoardKind, _ period: BoardPeriod, since: CivilDate?, ended: Bool, lines: [RichLayout.Row]
    ) -> RichLayout
    /// One member's line on a longer board; `score` is the all-time shrunk average, `missed` the days without a
    /// result (nil on the all-time board).
    func standingLine(
        place: String, name: String, standing: Standing, score: Double?, streak: Int, crowns: Int, missed: Int?
    ) -> RichLayout.Row
    func more(_ count: Int) -> String
    /// The titles of a board's columns where tables show.
    var boardColumns: BoardColumns { get }

    // Pasted results
    /// The word for the official board in `/leaderboard official`, besides the English one.
    var officialBoardName: String { get }
    var pasteInGroup: String { get }
    /// `headline`: `Wordle 1,234 3/6*`.
    /// A pasted official result that counts: `share`'s game, number (in this language's digits) and score.
    func officialCounted(name: String, share: SharedResult) -> String
    func officialDuplicate(name: String, puzzle: PuzzleNumber) -> String
    func officialNotOpen(puzzle: PuzzleNumber) -> String
    func officialClosed(puzzle: PuzzleNumber, today: PuzzleNumber) -> String
    var editIgnored: String { get }

    // The daily summary (laid out by ``summary(_:)``)
    /// The title of a day's post while someone may still play: `⏳ Puzzle 356 so far`.
    func summarySoFarTitle(puzzle: PuzzleNumber) -> String
    /// The word, already inside a spoiler.
    func summaryWord(_ spoiler: String) -> String
    /// Another language's word beside the group's: `in Spanish, ÁRBOL`.
    func summaryWord(in language: Language, _ spoiler: String) -> String
    /// The word waits for members who have not played and still can: `names` (escaped, listed), at the latest
    /// until their last day ends; `count` of them in all.
    func summaryWordLater(waitingFor names: String, count: Int, until: LocalTime) -> String
    /// The summary's line of the original game's results pasted in the group: `Wordle 1,983 (pasted)`.
    func summaryOfficial(puzzle: PuzzleNumber) -> String
    /// The parts of the post at the end of a group's week (laid out by ``weekOver(_:)``).
    func weekOverTitle(since monday: CivilDate) -> String
    var weekBestStreak: String { get }
    func weekEveryonePlayed(_ days: Int, of total: Int) -> String
    /// The parts of the post at the end of a group's season (laid out by ``seasonOver(_:)``): its title, `The
    /// November season`, `The season of the four weeks since Monday 2 November`.
    func seasonName(_ length: SeasonLength, first: CivilDate) -> String
    func seasonOverTitle(_ season: String) -> String
    func seasonChampion(_ names: String) -> String
    func seasonMostImproved(_ improvement: SeasonSummary.Improvement) -> String
    func seasonBestStreak(_ names: String, streak: Int) -> String
    func seasonMostSkilful(_ skill: SeasonSummary.Skill) -> String
    var seasonNext: String { get }
    /// The tag the season's champion wears beside their name: at most 16 characters and no emoji (Telegram's rule).
    var championTag: String { get }
    /// `season`, as `/leaderboard season` names it.
    var seasonBoardName: String { get }
    /// The title of `/leaderboard season`, and its rule.
    func leaderboardSeason(_ season: String, until last: CivilDate, lines: [RichLayout.Row]) -> RichLayout
    /// `/leaderboard season` in a group without seasons.
    var seasonsOff: String { get }
    /// The season's setting: `a calendar month`, `four weeks from a Monday`, `off`.
    func seasonSetting(_ length: SeasonLength) -> String
    /// The last link of a list of names: "and".
    var and: String { get }
    /// On a platform that cannot hide text (``PlatformTraits/spoilers``).
    var summaryWordNotPosted: String { get }
    /// The start of the post that reveals a closed day's word: "🔓 Everyone here is done with puzzle 327."
    func revealTitle(puzzle: PuzzleNumber) -> String
    /// Beside a revealed word: the day's most skilful and luckiest games.
    func highlights(_ highlights: DayHighlights) -> String
    var summaryStillPlaying: String { get }
    var summaryStreaksGoing: String { get }
    var summaryStreaksBroken: String { get }
    /// `🔥 Day 12 together`, or the end of a run of days together, said kindly.
    func groupStreak(_ news: GroupStreakNews) -> String
    /// `Still to play today`: the nudge's lead, before the names.
    var nudgeStillToPlay: String { get }
    /// A pasted result of another puzzle, as its players compare it: `0 mistakes`, `not solved`, `no hints`, `0:41`.
    func otherPuzzleScore(_ game: PuzzleShare.Game, measure: Int?) -> String
    /// One other puzzle's board of a day (`/leaderboard official connections`).
    func otherPuzzleBoard(
        _ game: PuzzleShare.Game, puzzle: PuzzleNumber, yesterday: Bool, lines: [RichLayout.Row]
    ) -> RichLayout
    /// `Today's puzzles`: every member's results of the day's puzzles, under the official board.
    func dayPuzzles(yesterday: Bool) -> String
    /// Said when a paste of another puzzle cannot show a reaction: counted, or counted already.
    func otherPuzzleCounted(name: String, game: PuzzleShare.Game, score: String) -> String
    func otherPuzzleDuplicate(name: String, game: PuzzleShare.Game) -> String
    /// A paste of another puzzle that is not the group's day's (one a day either side counts).
    func otherPuzzleNotToday(_ game: PuzzleShare.Game) -> String
    var summaryMissed: String { get }

    // Post-game analysis (laid out by ``analysis(_:puzzle:theme:)``)
    var analysisButton: String { get }
    /// `/analysis` in a group: an analysis names words, so it is shown in the direct chat only.
    var analysisPrivateOnly: String { get }
    /// `/analysis` before any game of this puzzle language is finished (or of the game named).
    var analysisNoGame: String { get }
    var analysisUsage: String { get }
    /// The analysis is still being worked out: it is posted when it is ready.
    /// The analysis is being worked out: in seconds for an opener the book has studied (`unstudied` nil), in
    /// minutes for one it has not, which is named.
    func analysisComing(unstudied opener: String?) -> String
    var analysisUnavailable: String { get }
    func analysisTitle(_ game: AnalysedGame, hardMode: Bool) -> String
    /// The candidates before and after a guess: `2,315 → 34 words`.
    func wordsLeft(before: Int, after: Int) -> String
    /// A guess measured against optimal play: solved (a guess that wins is never a mistake), optimal, how many
    /// guesses it cost (``AnalysisReport/Turn/cost``: exactly or within bounds), or that it gave up the sure win
    /// in six; with the bot's choice when it differs. The opener is compared with the bot's opener, on average.
    func verdict(_ turn: AnalysisReport.Turn, opener: Bool) -> String
    /// The luck of a guess's colours, in guesses better or worse than expected (``AnalysisReport/Turn/knownLuck``),
    /// in words; nil: undefined (no sure win was left).
    func luck(_ value: Known?) -> String
    /// The scores, each one number or, where the budget left bounds, a range.
    func analysisScores(skill: ClosedRange<Int>, luck: ClosedRange<Int>) -> String
    /// Under an analysis with bounds: what the ranges mean.
    var analysisBounded: String { get }
    /// Optimal play's guesses to the answer from the player's first guess, already in capitals; `optimal` false
    /// when the later ones are the quick strategy's.
    func botPath(_ words: [String], optimal: Bool) -> String

    // Group settings
    /// The group's settings; `next` is its next summary (nil when summaries are off).
    /// The parts of `/settings` (laid out by ``settings(_:next:)``): its title, one line a setting, and the
    /// line before the commands.
    var settingsTitle: String { get }
    func setting(_ setting: GroupSetting, of group: Group, next: NextSummary?) -> String
    var settingsChangedWith: String { get }
    /// A change of the group's day or language waiting for its next puzzle, on a line of its own after a
    /// newline; empty when none is.
    func pendingSettings(_ group: Group) -> String
    var settingsAdministratorsOnly: String { get }
    var settingsCannotCheck: String { get }
    /// A setting that was not understood: the usage of `name` when it is a setting, else of every one.
    func settingsUsage(for name: String) -> String
    /// `/settings topic` where the platform has no topics or threads (``PlatformTraits/threads``).
    var settingsNoTopics: String { get }

    /// A command's short description, for the platform's menu.
    func describe(_ command: BotCommand) -> String

    // The player's data
    var privateOnly: String { get }
    /// To someone whose messages the bot cannot read (end-to-end encrypted): where to play instead.
    var cannotRead: String { get }
    /// In a group, on a platform where the bot opens the direct chat itself: the player is invited to it.
    func playPrivatelyInvited(joined: Bool) -> String
    var forgetQuestion: String { get }
    var forgetConfirmButton: String { get }
    var forgetCancelButton: String { get }
    var forgotten: String { get }
    /// Sent once when a chat's queue of replies is full: what it sends meanwhile gets no reply.
    var slowDown: String { get }
    /// A forgotten player who played this puzzle before may not play it again while it is open.
    var playedBeforeForgetting: String { get }
    var forgetCancelled: String { get }
    var exportCaption: String { get }

    // The player's settings
    func timeZoneIs(_ zone: String, hour: Int, pending: (String, PuzzleNumber)?) -> String
    func timeZoneChanged(_ zone: String, from puzzle: PuzzleNumber) -> String
    /// One line under the first reply in a player's direct chat: which day they are on, and how to change it.
    func yourDay(_ zone: String, hour: Int) -> String
    func unknownTimeZone(_ text: String) -> String
    func languageIs(_ language: Language) -> String
    /// A language's name inside a sentence of this language: "Spanish", "español".
    func languageName(_ language: Language) -> String
    /// After a board's title when its puzzle is not in the reader's language: "in Spanish".
    func inLanguage(_ language: Language) -> String
    /// `/play` in a direct chat: which language's daily puzzle the player's words go to, and how to switch.
    func playing(_ language: Language) -> String
    /// `/play` with something other than a language.
    var playUsage: String { get }
    /// Said once to a member who joins a group playing another language than theirs: which puzzle counts.
    func groupPlays(_ language: Language) -> String
    func languageChanged(_ language: Language) -> String
    /// The games open in two languages, and which one a word goes to.
    func openGames(_ games: [OpenGame]) -> String
    /// The parts of the group's post when an administrator's change of its day or language takes effect (laid
    /// out by ``dayChanged(from:to:puzzle:)``).
    func dayChangeFrom(_ puzzle: PuzzleNumber) -> String
    func dayChangeLanguage(_ language: Language, only: Bool) -> String
    func dayChangeDay(_ zone: String, hour: Int) -> String
    func dayChangeOldLanguage(_ language: Language) -> String
    func unknownLanguage(_ text: String) -> String
}

extension Texts {
    /// A group's day post (``DaySummary``), the same layout in every language: one line for each part, so that
    /// a family's day reads in a dozen lines.
    func summary(_ summary: DaySummary) -> String {
        var lines = [
            "<b>\(summary.final ? revealTitle(puzzle: summary.puzzle) : summarySoFarTitle(puzzle: summary.puzzle))</b>"
        ]
        switch summary.word {
        case .shown(let words):
            let spoilers = words.map { entry in
                let spoiler = "<spoiler>\(entry.word.htmlEscaped)</spoiler>"
                return entry.language == summary.language ? spoiler : summaryWord(in: entry.language, spoiler)
            }
            lines.append(summaryWord(spoilers.joined(separator: "; ")))
            if let highlights = summary.highlights { lines.append(self.highlights(highlights)) }
        case .later(let until):
            // "Ben and Cleo", as a sentence says it; past the shortlist, "Ben, Cleo, … and 3 more".
            var names = summary.stillPlaying.shown.map(TextFormat.person)
            if summary.stillPlaying.more == 0, names.count > 1 {
                let last = names.removeLast()
                names[names.count - 1] += " \(and) \(last)"
            }
            lines.append(
                summaryWordLater(
                    waitingFor: summary.stillPlaying.more == 0
                        ? names.joined(separator: ", ") : list(summary.stillPlaying, TextFormat.person),
                    count: summary.stillPlaying.shown.count + summary.stillPlaying.more, until: until))
        case .notPosted: lines.append(summaryWordNotPosted)
        }
        lines += resultLines(summary)
        lines += summaryFooter(summary)
        return lines.joined(separator: "\n")
    }

    /// The results by score, best first, one line a score: `👑 3/6: Ann, Ben (Spanish)`; the crown only once
    /// everyone is done.
    private func resultLines(_ summary: DaySummary) -> [String] {
        summary.results.map { line in
            let names = list(line.names) {
                ($0.number.map { "\($0). " } ?? "") + TextFormat.person($0.name)
                    + languageMark($0.language, besides: summary.language)
            }
            return (line.crowned ? "👑 " : "") + "\(line.score): " + names
        }
    }

    /// A board result as boards and posts write it, `3/6*`, and `3/6 (Spanish)` when it was played in another
    /// language than `language`, the group's.
    func score(_ result: BoardResult, besides language: Language) -> String {
        TextFormat.score(result) + languageMark(result.language, besides: language)
    }

    /// ` (Spanish)` beside a result played in another language than the group's; nothing beside its own.
    func languageMark(_ played: Language, besides language: Language) -> String {
        played == language ? "" : " (\(languageName(played)))"
    }

    /// A shortlist as a line lists it: `Ann, Ben, … and 3 more`.
    func list<Element>(_ shortlist: Shortlist<Element>, _ show: (Element) -> String) -> String {
        (shortlist.shown.map(show) + (shortlist.more > 0 ? [more(shortlist.more)] : [])).joined(separator: ", ")
    }

    /// The lines under a day's results: the group's days together and the streaks, who is still playing or
    /// missed it, and what was pasted (every other puzzle on one line).
    private func summaryFooter(_ summary: DaySummary) -> [String] {
        let streak = { (entry: (String, Int)) in "\(TextFormat.person(entry.0)) (\(entry.1))" }
        let scored = { (entry: (String, String)) in "\(TextFormat.person(entry.0)) \(entry.1)" }
        var lines: [String] = []
        let kept = summary.streaksKept.isEmpty ? nil : "\(summaryStreaksGoing): " + list(summary.streaksKept, streak)
        // A run going on and the members' streaks share the line; a run ended is said on its own.
        switch summary.groupStreak {
        case let news? where kept != nil && news.isGoing: lines.append(groupStreak(news) + " · " + (kept ?? ""))
        case let news?:
            lines.append(groupStreak(news))
            if let kept { lines.append("🔥 " + kept) }
        case nil: if let kept { lines.append("🔥 " + kept) }
        }
        if !summary.streaksBroken.isEmpty {
            lines.append("💔 \(summaryStreaksBroken): " + list(summary.streaksBroken, streak))
        }
        // Named in the word's line when the word waits for them.
        if case .later = summary.word {
        } else if !summary.stillPlaying.isEmpty {
            lines.append("⏳ \(summaryStillPlaying): " + list(summary.stillPlaying, TextFormat.person))
        }
        if !summary.missed.isEmpty { lines.append("😴 \(summaryMissed): " + list(summary.missed, TextFormat.person)) }
        if !summary.official.isEmpty {
            lines.append("📋 \(summaryOfficial(puzzle: summary.officialPuzzle)): " + list(summary.official, scored))
        }
        let others = summary.otherPuzzles.filter { !$0.1.isEmpty }.map { game, results in
            "\(TextFormat.mark(of: game)) \(TextFormat.name(of: game)): " + list(results, scored)
        }
        if !others.isEmpty { lines.append(others.joined(separator: " · ")) }
        return lines
    }
}

extension Texts {
    /// `/settings`: every setting on its line, then how to change them; the same layout in every language.
    func settings(_ group: Group, next: NextSummary?) -> String {
        let lines = GroupSetting.allCases.map { line in
            setting(line, of: group, next: next) + (line == .language ? pendingSettings(group) : "")
        }
        return (["<b>\(settingsTitle)</b>"] + lines + ["", settingsChangedWith, TextFormat.settingsCommands])
            .joined(separator: "\n")
    }

    /// The answer to a change: the one line of the setting it changed, and for the group's day or language the
    /// change still waiting for its next puzzle.
    func settingSaved(_ changed: GroupSetting, of group: Group, next: NextSummary?) -> String {
        "✅ " + setting(changed, of: group, next: next)
            + (changed == .day || changed == .language ? pendingSettings(group) : "")
    }
}

extension Texts {
    /// The group's post when an administrator's change of its day or language takes effect with `puzzle`, the
    /// same layout in every language. A group kept to its language (`languageOnly`) plays the new language's
    /// puzzle; any other speaks it, each member still playing their own.
    func dayChanged(
        from before: Group.DaySettings, to after: Group.DaySettings, puzzle: PuzzleNumber, languageOnly: Bool
    ) -> String {
        var changes: [String] = []
        if after.language != before.language {
            changes.append(dayChangeLanguage(after.language, only: languageOnly))
        }
        if after.timeZone != before.timeZone || after.rolloverHour != before.rolloverHour {
            changes.append(dayChangeDay(after.timeZone, hour: after.rolloverHour))
        }
        let old =
            after.language != before.language && languageOnly ? " " + dayChangeOldLanguage(before.language) : ""
        return dayChangeFrom(puzzle) + changes.joined(separator: ", \(and) ") + "." + old
    }

    /// The group's nudge: who is still to play, the same layout in every language.
    func nudge(_ names: Shortlist<String>) -> String { "⏳ \(nudgeStillToPlay): " + list(names, TextFormat.person) }

    /// The post at the end of a group's season, the same layout in every language.
    func seasonOver(_ summary: SeasonSummary) -> RichLayout {
        var top = ["<b>\(seasonOverTitle(seasonName(summary.length, first: summary.firstDay)))</b>"]
        if let first = summary.podium.shown.first, first.points > 0 {
            let champions = summary.podium.shown.filter { $0.place == 0 }.map(\.name)
            let more = summary.champions.count - champions.count
            top.append("🏆 " + seasonChampion(list(Shortlist(champions, more: more), TextFormat.person)))
        }
        let podium =
            summary.podium.shown.map {
                TextFormat.podium(
                    place: $0.place, name: $0.name, points: $0.points, marks: $0.crowns > 0 ? "👑\($0.crowns)" : "")
            } + (summary.podium.more > 0 ? [.note(more(summary.podium.more))] : [])
        var awards: [String] = []
        if let improved = summary.mostImproved { awards.append("📈 " + seasonMostImproved(improved)) }
        if let streak = summary.bestStreak {
            awards.append("🔥 " + seasonBestStreak(list(streak.names, TextFormat.person), streak: streak.streak))
        }
        if let skilful = summary.mostSkilful { awards.append("🎯 " + seasonMostSkilful(skilful)) }
        let after = (awards.isEmpty ? [] : [""] + awards) + ["", "🌱 " + seasonNext]
        return RichLayout([
            .text(top.joined(separator: "\n") + "\n"), .table(.init(header: podiumHeader, rows: podium)),
            .text(after.joined(separator: "\n")),
        ])
    }

    /// The post at the end of a group's week, the same layout in every language.
    func weekOver(_ week: WeekSummary) -> RichLayout {
        let podium =
            week.podium.shown.map {
                TextFormat.podium(place: $0.place, name: $0.name, points: $0.points, marks: $0.place == 0 ? "🏆" : "")
            } + (week.podium.more > 0 ? [.note(more(week.podium.more))] : [])
        var after: [String] = []
        if let streak = week.bestStreak {
            after.append("🔥 \(weekBestStreak): \(list(streak.names, TextFormat.person)) (\(streak.streak))")
        }
        after.append("👪 " + weekEveryonePlayed(week.daysEveryonePlayed, of: week.days))
        return RichLayout([
            .text("<b>\(weekOverTitle(since: week.monday))</b>"), .table(.init(header: podiumHeader, rows: podium)),
            .text(after.joined(separator: "\n")),
        ])
    }

    /// The columns of a day's board: place, name, result.
    var dayHeader: [String] { ["#", boardColumns.player, boardColumns.result] }
    /// The columns of a longer board: place, name, points, games.
    var standingsHeader: [String] { ["#", boardColumns.player, boardColumns.points, boardColumns.games] }
    /// The columns of a podium: place, name, points, crowns or trophy.
    var podiumHeader: [String] { ["#", boardColumns.player, boardColumns.points, ""] }
}

extension Texts {
    /// The words a guess left, by name, when few were left and it did not win: ` (CIGAR, RIGOR)`.
    static func listed(_ turn: AnalysisReport.Turn) -> String {
        guard !turn.wins, let left = turn.left, !left.isEmpty else { return "" }
        return " (" + left.map { "<code>\($0.uppercased().htmlEscaped)</code>" }.joined(separator: ", ") + ")"
    }

    /// A finished game's analysis, compact enough for a phone: each guess on two lines, then the scores and the
    /// bot's path.
    func analysis(_ report: AnalysisReport, of game: AnalysedGame, theme: ShareTheme) -> String {
        var lines = ["<b>\(analysisTitle(game, hardMode: report.hard))</b>"]
        for (number, turn) in report.turns.enumerated() {
            let squares = turn.pattern.map { letter -> String in
                let state: LetterState = letter == "g" ? .correct : letter == "y" ? .present : .absent
                return String(theme.square(for: state))
            }.joined()
            lines.append("\(number + 1). \(squares) <code>\(turn.guess.uppercased().htmlEscaped)</code>")
            lines.append(
                "    "
                    + [
                        wordsLeft(before: turn.candidatesBefore, after: turn.candidatesAfter)
                            + Self.listed(turn),
                        verdict(turn, opener: number == 0),
                        luck(turn.knownLuck),
                    ]
                    .joined(separator: " · "))
        }
        let skill = report.bounds.map { $0.skill.atLeast...$0.skill.atMost } ?? report.skill...report.skill
        let luck =
            report.bounds.map { $0.luckScore.atLeast...$0.luckScore.atMost } ?? report.luckScore...report.luckScore
        lines += ["", analysisScores(skill: skill, luck: luck)]
        // Empty where it would name a withheld word.
        if !report.botPath.isEmpty {
            lines.append(
                botPath(report.botPath.map { $0.uppercased().htmlEscaped }, optimal: report.botPathIsOptimal ?? true))
        }
        if !report.isExact { lines.append(analysisBounded) }
        return lines.joined(separator: "\n")
    }
}

extension StatisticsChart.Labels {
    /// The chart's labels in `language`, as `/stats` words them: for the engine's charts and `tessera render`.
    public init(_ language: Language) { self = language.texts.statisticsChartLabels }
}

extension Language {
    /// The bot's texts in this language.
    var texts: any Texts {
        switch self {
        case .english: English()
        case .spanish: Spanish()
        }
    }
}

/// Pieces every language writes the same way.
enum TextFormat {
    /// A result on a board: `3/6`, `X/6`, `4/6*` in hard mode.
    static func score(_ result: BoardResult) -> String {
        score(result.guesses.map { .won(guesses: $0) } ?? .lost, maximumGuesses: Game.defaultMaximumGuesses)
            + (result.hardMode ? "*" : "")
    }

    static func score(_ result: GameResult, maximumGuesses: Int) -> String {
        "\(result.guesses.map(String.init) ?? "X")/\(maximumGuesses)"
    }

    /// A span of time to the minute, rounded up: `5 h 12 min`, `40 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = max(1, Int(bounded: (seconds / 60).rounded(.up)))
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// What someone wrote, echoed back in a reply: at most 40 characters of it, escaped. Echoing all of a
    /// long argument would post it again, in as many messages as it takes.
    static func echo(_ text: String) -> String {
        (text.count > 40 ? text.prefix(39) + "…" : text).htmlEscaped
    }

    /// A person's name as a line shows it, the one way every text writes one: cleaned of control characters
    /// and direction marks (a name stored before they were taken out), escaped, and, when it has letters written
    /// right to left, isolated (FSI … PDI) so that it cannot reorder the line around it.
    static func person(_ name: String) -> String {
        let escaped = name.cleanedName.htmlEscaped
        return escaped.hasRightToLeftLetters ? "\u{2068}\(escaped)\u{2069}" : escaped
    }

    /// Names on boards, cut so a line fits a phone screen (about 32 characters) without wrapping.
    static func boardName(_ name: String) -> String {
        let name = name.cleanedName
        return person(name.count > 16 ? name.prefix(15) + "…" : name)
    }

    /// A member's line on a longer board: place, name, total and streak; the detail on a second, indented line.
    /// `🥇 Ann — 35 pts 🔥5 👑3`, then the details: the streak going and the days with the best result.
    /// In a table: place, name, total with the marks, and the details.
    static func standing(place: String, name: String, total: String, streak: Int, crowns: Int, detail: [String])
        -> RichLayout.Row
    {
        let marks = (streak > 0 ? " 🔥\(streak)" : "") + (crowns > 0 ? " 👑\(crowns)" : "")
        let details = detail.joined(separator: " · ")
        return RichLayout.Row(
            cells: [place, boardName(name), total + marks, details],
            line: "\(place) \(boardName(name)) — \(total)\(marks)\n   " + details)
    }

    /// A podium's row (the week's, the season's): `🥇 Ann — 35 pts 🏆`.
    static func podium(place: Int, name: String, points: Int, marks: String) -> RichLayout.Row {
        let place = Ranking.place(place, medal: true)
        return RichLayout.Row(
            cells: [place, person(name), "\(points) pts", marks],
            line: "\(place) \(TextFormat.person(name)) — \(points) pts" + (marks.isEmpty ? "" : " \(marks)"))
    }

    static func clock(_ hour: Int) -> String {
        hour < 10 ? "0\(hour):00" : "\(hour):00"
    }

    /// A score, or the range the bounds allow: `62`, `40–62`.
    static func score(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }

    /// A number with one decimal.
    static func decimal(_ value: Double, separator: String) -> String {
        let tenths = Int(bounded: (value * 10).rounded())
        return "\(tenths / 10)\(separator)\(tenths % 10)"
    }

    /// The commands that change a group's settings, the same in every language.
    /// The lines of ``settingsCommands`` for one setting; all of them for a name that is none.
    static func settingsCommands(for name: String) -> String {
        let lines = settingsCommands.split(separator: "\n").filter { $0.hasPrefix("/settings \(name.lowercased()) ") }
        return lines.isEmpty ? settingsCommands : lines.joined(separator: "\n")
    }

    static let settingsCommands = """
        /settings timezone Europe/Madrid
        /settings rollover 0–23
        /settings language \(languageCodes) [only]
        /settings hard on|off
        /settings summary on|off|0–23|rollover
        /settings topic here|off
        /settings nudge on|off
        /settings season month|4weeks|off
        /settings pictures on|off
        """

    static var languageCodes: String {
        Language.allCases.map(\.rawValue).joined(separator: "|")
    }
}

extension TextFormat {
    /// The mark of another puzzle's line: its colours.
    static func mark(of game: PuzzleShare.Game) -> String {
        switch game {
        case .connections: "🟪"
        case .strands: "🔵"
        case .mini: "⏱️"
        }
    }

    /// Another puzzle's name, as its players know it in every language.
    static func name(of game: PuzzleShare.Game) -> String {
        switch game {
        case .connections: "Connections"
        case .strands: "Strands"
        case .mini: "Mini"
        }
    }

    /// `0:41`, `12:05`, `1:02:03`.
    static func minutesAndSeconds(_ seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// A whole number with its thousands grouped: `12,345`.
    static func grouped(_ value: Int, separator: Character) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(separator) }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A number of guesses with two decimals: `0.25`; `+0.25` when `signed` and not negative.
    static func guesses(_ value: Double, separator: String, signed: Bool = false) -> String {
        let hundredths = Int(bounded: (value * 100).rounded())
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        let sign = hundredths < 0 ? "−" : signed ? "+" : ""
        return "\(sign)\(magnitude / 100)\(separator)\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The guess distribution as bars, the same in every language.
    static func distribution(_ stats: Statistics) -> String {
        let barWidth = 12
        let most = max(stats.guessDistribution.max() ?? 0, stats.failures, 1)
        func bar(_ label: String, _ count: Int) -> String {
            let length = count == 0 ? 0 : max(1, count * barWidth / most)
            return "\(label) \(String(repeating: "█", count: length)) \(count)"
        }
        let rows =
            stats.guessDistribution.enumerated().map { bar(String($0.offset + 1), $0.element) }
            + [bar("X", stats.failures)]
        return rows.joined(separator: "\n")
    }
}
