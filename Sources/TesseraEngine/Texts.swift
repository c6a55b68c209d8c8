import TesseraCore

/// Every text the bot says, in one place. (Translations arrive with per-language tables.)
enum Texts {
    static func welcome(gameName: String, wordLength: Int, maximumGuesses: Int) -> String {
        """
        <b>Welcome to \(gameName.htmlEscaped)!</b> Everyone gets the same \(wordLength)-letter word each day, \
        and you have \(maximumGuesses) tries to find it.

        Send a word to guess. After each guess the squares show how close you are:
        🟩 the letter is in that spot · 🟨 it is in the word elsewhere · ⬛ it is not in the word.

        """ + help
    }

    static let help = """
        <b>Commands</b>
        /guess WORD — guess (in a group: /guess@bot WORD; only squares are shown there)
        /board — your board today
        /hard — hard mode: every hint must be used (only before your first guess); /hard off
        /stats — your statistics
        /share — post your result, without spoilers, in this chat
        /leaderboard — today's results in this group
        /timezone Europe/Madrid — when your day begins (from the next puzzle)
        /language en|es — the word list you play
        """

    static let guessHowTo = "Send one word to guess, or /help for the commands."
    static let guessNeedsWord = "Add your word: /guess CRANE"
    static let unknownCommand = "I don't know that command. /help lists the ones I do."
    static let hardModeBrokenInGroup =
        "That guess does not use every hint (hard mode). Guess here privately to see why."

    static func alreadyFinished(_ result: GameResult, maximumGuesses: Int) -> String {
        "You have finished today's puzzle (\(score(result, maximumGuesses: maximumGuesses))). "
            + "A new word comes with the next puzzle."
    }

    static func won(guesses: Int, maximumGuesses: Int) -> String {
        "<b>\(GameResult.won(guesses: guesses).praise ?? "")!</b> Solved in \(guesses)/\(maximumGuesses). "
            + "Send /share in a group to post your result."
    }

    static func lost(answer: String) -> String {
        "The word was <b>\(answer.htmlEscaped)</b>. A new word comes with the next puzzle."
    }

    static func groupProgress(name: String, squares: String, guesses: Int, maximumGuesses: Int) -> String {
        "\(name.htmlEscaped): \(squares) \(guesses)/\(maximumGuesses)"
    }

    static func groupWon(name: String, guesses: Int, maximumGuesses: Int) -> String {
        "🎉 \(name.htmlEscaped) solved today's puzzle in \(guesses)/\(maximumGuesses)!"
    }

    static func groupLost(name: String, maximumGuesses: Int) -> String {
        "\(name.htmlEscaped) did not find today's word (X/\(maximumGuesses))."
    }

    static let noGuessesYet = "No guesses yet today. Send a word to start."
    static let shareNotFinished = "Finish today's puzzle first; then /share posts your result."

    static let hardOn = "Hard mode is on: every revealed hint must be used in later guesses."
    static let hardOff = "Hard mode is off."
    static func hardLater(_ rejection: HardModeRejection) -> String {
        "\(rejection). It will be on from your next puzzle."
    }

    static func statistics(_ stats: Statistics, language: Language) -> String {
        let barWidth = 12
        let most = max(stats.guessDistribution.max() ?? 0, stats.failures, 1)
        func bar(_ label: String, _ count: Int) -> String {
            let length = count == 0 ? 0 : max(1, count * barWidth / most)
            return "\(label) \(String(repeating: "█", count: length)) \(count)"
        }
        let rows =
            stats.guessDistribution.enumerated().map { bar(String($0.offset + 1), $0.element) }
            + [bar("X", stats.failures)]
        return """
            <b>Statistics</b> (\(language.name))
            Played \(stats.played) · Win \(stats.winPercentage)% · Current streak \(stats.currentStreak) · \
            Max streak \(stats.maxStreak)
            <pre>\(rows.joined(separator: "\n"))</pre>
            """
    }

    static let leaderboardPrivate = "Leaderboards are for groups: add me to a group and play or /share there."
    static func leaderboardEmpty(puzzle: PuzzleNumber) -> String {
        "No results for puzzle \(puzzle.grouped) in this group yet. Play, then /share here."
    }
    static func leaderboard(puzzle: PuzzleNumber, lines: [String]) -> String {
        "<b>Leaderboard · puzzle \(puzzle.grouped)</b>\n" + lines.joined(separator: "\n")
    }
    static func stillPlaying(guesses: Int, maximumGuesses: Int) -> String {
        "playing (\(guesses)/\(maximumGuesses))"
    }

    static func timeZoneIs(_ zone: String, hour: Int, pending: (String, PuzzleNumber)?) -> String {
        var text = "Your day follows <b>\(zone.htmlEscaped)</b>; each new puzzle arrives at \(clock(hour))."
        if let (next, puzzle) = pending {
            text += " From puzzle \(puzzle.grouped) on it follows <b>\(next.htmlEscaped)</b>."
        }
        return text
    }
    static func timeZoneChanged(_ zone: String, from puzzle: PuzzleNumber) -> String {
        "From puzzle \(puzzle.grouped) on, your day follows <b>\(zone.htmlEscaped)</b>. "
            + "Today's puzzle stays as it is, so no day is replayed or skipped."
    }
    static func unknownTimeZone(_ text: String) -> String {
        "I don't know the time zone \"\(text.htmlEscaped)\". Use a name like Europe/Madrid or America/New_York."
    }

    static func languageIs(_ language: Language) -> String {
        "You play in <b>\(language.name)</b>. Change it with /language "
            + Language.allCases.map(\.rawValue).joined(separator: "|") + "."
    }
    static func languageChanged(_ language: Language) -> String {
        "You now play in <b>\(language.name)</b>; your next guesses use its word list."
    }
    static func unknownLanguage(_ text: String) -> String {
        "I don't know the language \"\(text.htmlEscaped)\". Choose one of: "
            + Language.allCases.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", ") + "."
    }

    static func score(_ result: GameResult, maximumGuesses: Int) -> String {
        "\(result.guesses.map(String.init) ?? "X")/\(maximumGuesses)"
    }

    static func clock(_ hour: Int) -> String {
        hour < 10 ? "0\(hour):00" : "\(hour):00"
    }
}
