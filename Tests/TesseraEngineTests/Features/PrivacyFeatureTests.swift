import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Privacy``'s confirmation alone, on a ``SliceDouble``: `/forgetme`'s press decides from the player's data and
/// leaves every deletion as a write, in the order the engine applies them.
@Suite("Privacy, on its slice of the store")
struct PrivacyFeatureTests {
    typealias Setting = FeatureSetting
    let privacy = Privacy(core: Setting.core)
    let ann = Setting.player(1, "Ann")

    func press(_ button: Privacy.ForgetButton, by player: Player, on reads: SliceDouble, forged: Bool = false)
        async throws -> Reply
    {
        let message = ChatMessage(
            chat: ChatID(1), chatKind: .direct, sender: player.id, senderName: player.displayName, text: "")
        let data = forged ? button.rawValue + "~0000" : privacy.buttonData(button, for: message)
        return try await privacy.pressed(data, message: message, at: Setting.now, in: reads, reads: reads)
    }

    @Test("Confirming keeps only the open day's replay guard, takes the champion off the team, then deletes")
    func confirm() async throws {
        let open = StoredGame(
            player: ann.id, language: .english, puzzle: PuzzleNumber(326), hardMode: false, guesses: ["crane"],
            result: nil, finishedAt: nil)
        let old = StoredGame(
            player: ann.id, language: .english, puzzle: PuzzleNumber(300), hardMode: false, guesses: ["crane"],
            result: .won(guesses: 1), finishedAt: Setting.now - 30 * 86_400)
        var crowned = Setting.group()
        crowned.team.champions = [ann.id, UserID(2)]
        let reads = SliceDouble(
            players: [ann], groups: [crowned],
            data: [ann.id: PlayerData(player: ann, games: [open, old], memberships: [], results: [])])
        let reply = try await press(.confirm, by: ann, on: reads)
        var untagged = crowned
        untagged.team.champions = [UserID(2)]
        #expect(
            reply.writes == [
                .replayGuard(
                    key: Setting.core.replayKey(ann.id, language: .english, puzzle: PuzzleNumber(326)),
                    until: PuzzleNumber(326)),
                .group(untagged), .forget(ann.id),
            ], "\(reply.writes)")
        #expect(reply.messages.last?.html == Language.english.texts.forgotten)
    }

    @Test("Cancelling writes nothing and says so; a forged press writes and says nothing")
    func cancelAndForged() async throws {
        let reads = SliceDouble(players: [ann])
        let cancelled = try await press(.cancel, by: ann, on: reads)
        #expect(cancelled.writes.isEmpty)
        #expect(cancelled.messages.map(\.html) == [Language.english.texts.forgetCancelled])
        let forged = try await press(.confirm, by: ann, on: reads, forged: true)
        #expect(forged.writes.isEmpty && forged.messages.isEmpty)
    }
}
