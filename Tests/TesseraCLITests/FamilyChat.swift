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

    /// Stops the daemon (SIGTERM) and the fake Bot API; returns the daemon's exit status.
    @discardableResult
    func stop() async -> Int32 {
        let status = await daemon.stop()
        await fake.stop()
        return status
    }
}
