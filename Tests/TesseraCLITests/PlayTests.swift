import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraTestSupport
import Testing

@Suite("Playing in the terminal")
struct PlayTests {
    let secret = "a test secret 5d2c8e17a09b"
    let day = "2026-11-20"

    var answer: String {
        get throws {
            let list = Language.english.wordList
            let schedule = AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(secret)))
            let puzzle = DailySchedule.tessera.puzzle(on: try #require(CivilDate(day)))
            return list.display(schedule.answer(for: puzzle)).lowercased()
        }
    }

    func play(_ lines: [String], state: URL, extra: [String] = [], secret: String? = nil) async throws
        -> TesseraProcess.Output
    {
        try await TesseraProcess.run(
            ["play", "--date", day, "--time-zone", "UTC", "--state", state.path] + extra,
            input: lines.map { $0 + "\n" }.joined(),
            environment: ["TESSERA_SECRET": secret ?? self.secret]
        )
    }

    /// An allowed word that is not the answer.
    func wrongGuess() throws -> String {
        try answer == "crane" ? "slate" : "crane"
    }

    @Test("A whole game: rejections, a wrong guess, the win, and the share text")
    func wholeGame() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        let output = try await play(["xqzvj", "abc", try wrongGuess(), try answer], state: state)
        #expect(output.status == 0)
        let text = output.standardOutput
        #expect(text.hasPrefix("Tessera 324 · English · 2026-11-20\n"))
        #expect(text.contains("Not in word list"))
        #expect(text.contains("Not enough letters"))
        #expect(text.contains("Magnificent! Solved in 2/6."))
        let wrongRow = Feedback(
            guess: Language.english.wordList.testWord(try wrongGuess()),
            answer: Language.english.wordList.testWord(try answer)
        )
        let squares = String(wrongRow.states.map(ShareTheme.dark.square(for:)))
        #expect(text.contains("Tessera 324 2/6\n\n\(squares)\n🟩🟩🟩🟩🟩\n"))
    }

    @Test("Quitting keeps progress; the next run continues the same game")
    func resume() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        let first = try await play([try wrongGuess()], state: state)
        #expect(first.standardOutput.contains("Progress saved"))
        let second = try await play([try answer], state: state)
        #expect(second.standardOutput.contains(try wrongGuess().uppercased().map { "\($0) " }.joined()))
        #expect(second.standardOutput.contains("Guess 2/6"))
        #expect(second.standardOutput.contains("Solved in 2/6"))
        // Once finished, playing again shows the result instead of a new game.
        let third = try await play([], state: state)
        #expect(third.standardOutput.contains("Solved in 2/6"))
        #expect(!third.standardOutput.contains("Guess 3/6"))
    }

    @Test("A game saved under one secret is not replayed against another secret's word")
    func secretsAreSeparate() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        _ = try await play([try wrongGuess()], state: state)
        let other = try await play([], state: state, secret: "another secret 94be0c3371fa")
        #expect(other.standardOutput.contains("Guess 1/6"))
    }

    @Test("Without TESSERA_SECRET a secret is generated once and kept, so the word stays the same")
    func generatedSecret() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        let arguments = ["play", "--date", day, "--time-zone", "UTC", "--state", state.path]
        _ = try await TesseraProcess.run(arguments, input: "crane\n")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any]
        let secret = try #require(saved?["secret"] as? String)
        #expect(secret.count >= 16)
        let again = try await TesseraProcess.run(arguments, input: "")
        #expect(again.standardOutput.contains("Guess 2/6"), "the saved game must continue under the kept secret")
        let permissions = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test("Hard mode: the original messages, and it cannot be switched on mid-game")
    func hardMode() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        let started = try await play([try wrongGuess()], state: state)
        #expect(started.status == 0)
        let late = try await play([], state: state, extra: ["--hard"])
        #expect(late.standardOutput.contains("Hard mode can only be enabled at the start of a round"))
        #expect(!late.standardOutput.contains("· hard mode"), "the game must stay in normal mode")
    }

    @Test("A saved guess the word list no longer allows is restored, not refused (lists get regenerated)")
    func savedGuessFromAnOlderList() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        let fingerprint = try #require(ScheduleSecret(secret)).fingerprint
        let saved = #"{"version": 1, "games": {"en/324/\#(fingerprint)": {"hardMode": false, "guesses": ["xqzvj"]}}}"#
        try Data(saved.utf8).write(to: state)
        let output = try await play([], state: state)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("X Q Z V J"))
        #expect(output.standardOutput.contains("Guess 2/6"))
    }

    @Test("A damaged progress file is reported and left untouched")
    func damagedProgress() async throws {
        let state = try TesseraProcess.temporaryDirectory().appendingPathComponent("progress.json")
        for content in ["not json", #"{"version": 99, "games": {}}"#, #"{"version": 1}"#] {
            try Data(content.utf8).write(to: state)
            let output = try await play(["crane"], state: state)
            #expect(output.status != 0)
            #expect(output.standardError.hasPrefix("Error: \(state.path)"))
            #expect(output.standardError.split(separator: "\n").count == 1)
            #expect(try String(contentsOf: state, encoding: .utf8) == content)
        }
    }
}
