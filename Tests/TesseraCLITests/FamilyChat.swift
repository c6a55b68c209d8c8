import Foundation
import TesseraTestSupport
import Testing

/// A member of a family's group in a daemon test: a Telegram user id, a name, and the language of their app.
protocol FamilyMember {
    var rawValue: Int64 { get }
    var name: String { get }
    var appLanguage: String { get }
}

/// A family's group (chat -1) and direct chats on the fake Bot API, with the daemon reading its time from a clock
/// file: what the family tests share. Messages get ids from 101 on, in the order they are sent.
final class FamilyChat<Member: FamilyMember> {
    let fake: FakeTelegram
    let clock: ClockFile
    let daemon: Daemon
    private var lastID: Int64 = 100
    /// The group's posts as the family read them, with notes of the time between them (``at(_:_:)``).
    private(set) var transcript: [String] = []
    /// How many of the group's posts the transcript holds, and how many ``post(containing:timeout:)`` has passed.
    private var postsTranscribed = 0
    private var postsRead = 0

    /// Starts the fake Bot API and the daemon at `time` (`2026-11-22T08:00:00Z`), with `administrator` the
    /// group's administrator.
    init(at time: String, administrator: Member) async throws {
        fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        clock = ClockFile(in: directory)
        try clock.set(time)
        daemon = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path,
            environment: GroupDaemonTests.environment.merging(clock.environment) { $1 })
        try daemon.start()
        try await fake.setAdministrators(of: -1, [administrator.rawValue])
    }

    /// Sends a message, in the group or in the member's direct chat, and returns its id.
    @discardableResult
    func send(_ text: String, from member: Member, inGroup: Bool = false) async throws -> Int64 {
        lastID += 1
        try await fake.push([
            FakeTelegram.message(
                text, from: member.rawValue, name: member.name, chat: inGroup ? -1 : member.rawValue,
                messageID: lastID, languageCode: member.appLanguage)
        ])
        return lastID
    }

    /// Sends a message and waits for the bot's reply to it.
    func reply(to text: String, from member: Member, inGroup: Bool = false) async throws -> FakeTelegram.SentMessage {
        let id = try await send(text, from: member, inGroup: inGroup)
        do {
            return try #require(
                try await fake.waitForSent { $0.contains { $0.replyTo == id } }.last { $0.replyTo == id })
        } catch {
            Issue.record("no reply to \(member.name)'s \(text)")
            throw error
        }
    }

    /// Plays words in the member's direct chat and waits for the board to show them all; returns when the last
    /// word was sent (the system's time, as the fake Bot API stamps what the bot sends).
    @discardableResult
    func play(_ words: [String], as member: Member, puzzle: Int) async throws -> Date {
        for word in words.dropLast() { try await send(word, from: member) }
        let finished = Date()
        try await send(words[words.count - 1], from: member)
        let shown = ["\(words.count)/6", "X/6"].map { "<b>Tessera \(puzzle)</b> · \($0)" }
        do {
            _ = try await fake.waitForSent { sent in
                sent.contains { message in
                    message.chat == member.rawValue && shown.contains { message.text.hasPrefix($0) }
                }
            }
        } catch {
            let last = try await fake.sent().filter { $0.chat == member.rawValue }.suffix(3).map(\.text)
            Issue.record("\(member.name)'s board of \(puzzle) never showed \(words): \(last)")
            throw error
        }
        return finished
    }

    /// Moves the daemon's clock to an ISO 8601 instant, noting it in the transcript after the posts so far; returns
    /// the instant.
    @discardableResult
    func at(_ utc: String, _ note: String) async throws -> Date {
        let posts = try await fake.sent().filter(Self.isPost)
        transcribe(upTo: posts.count, of: posts)
        let instant = try clock.set(utc)
        transcript.append("—— \(note) (\(utc))")
        return instant
    }

    /// Waits for the bot's next post in the group (not a reply) containing `text`, after the one found last.
    func post(containing text: String, timeout: Duration = .seconds(30)) async throws -> FakeTelegram.SentMessage {
        let postsRead = postsRead
        let sent = try await fake.waitForSent(timeout: timeout) { sent in
            sent.filter(Self.isPost).dropFirst(postsRead).contains { $0.text.contains(text) }
        }
        let posts = sent.filter(Self.isPost)
        let found = try #require(posts.indices.dropFirst(postsRead).first { posts[$0].text.contains(text) })
        transcribe(upTo: found + 1, of: posts)
        self.postsRead = found + 1
        return posts[found]
    }

    private static func isPost(_ message: FakeTelegram.SentMessage) -> Bool {
        message.chat == -1 && message.replyTo == nil
    }

    private func transcribe(upTo end: Int, of posts: [FakeTelegram.SentMessage]) {
        guard end > postsTranscribed else { return }
        transcript += posts[postsTranscribed..<end].map(\.text)
        postsTranscribed = end
    }

    /// Adds lines to the transcript.
    func note(_ lines: String...) { transcript += lines }

    /// Writes the transcript to `name` in the directory `TESSERA_TRANSCRIPTS` names, when it is set.
    func writeTranscript(named name: String) throws {
        guard let directory = ProcessInfo.processInfo.environment["TESSERA_TRANSCRIPTS"] else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try transcript.joined(separator: "\n\n")
            .write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8)
    }

    /// Stops the daemon (SIGTERM) and the fake Bot API; returns the daemon's exit status.
    @discardableResult
    func stop() async -> Int32 {
        let status = await daemon.stop()
        await fake.stop()
        return status
    }
}
