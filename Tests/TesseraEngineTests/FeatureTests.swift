import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// The engine's features answer a ``Turn`` with a ``Reply`` and save no record themselves: the router saves
/// what a reply carries, once, after the feature has answered.
@Suite("Features answer with values", .onBothPaths)
struct FeatureTests {
    static let ann = Player(id: UserID(1), displayName: "Ann", language: .english, timeZone: "UTC", rolloverHour: 0)

    /// A direct message from Ann, as the router would hand it to a feature, on the records stored now.
    static func turn(_ text: String, player: Player, in store: any GameStoreTransaction, at now: Date) -> Turn {
        let message = ChatMessage(
            chat: ChatID(1), chatKind: .direct, sender: player.id, senderName: player.displayName, text: text,
            messageID: MessageID(7))
        return Turn(
            message: message.readingCommands(), platform: PlatformTraits(), now: now, store: store,
            storeReads: { try store.reads }, player: player,
            group: nil)
    }

    @Test("A feature's change of the player travels in its reply; the store is untouched until the router saves it")
    func replyCarriesChanges() async throws {
        let bot = try EngineHarness()
        let (now, ann, settings) = (bot.now, Self.ann, PlayerSettings(schedule: .tessera))
        let (reply, stored) = try await bot.store.write { store in
            try await store.save(ann)
            let reply = settings.timeZone("Europe/Madrid", in: Self.turn("/timezone", player: ann, in: store, at: now))
            return (reply, try await store.player(ann.id))
        }
        #expect(reply.player?.pendingTimeZone == "Europe/Madrid", "\(String(describing: reply.player))")
        #expect(stored == ann, "the feature saved nothing itself")
        #expect(reply.messages.count == 1 && reply.messages[0].replyTo == MessageID(7))
    }

    @Test("A guess's game, its boards and its analysis travel in the reply; the store has none until the router")
    func guessCarriesItsWrites() async throws {
        let bot = try EngineHarness()
        let (now, ann, puzzle, answer) = (bot.now, Self.ann, bot.puzzle, try bot.answer())
        let (engine, play) = (bot.engine, DailyPlay(core: bot.engine.core))
        func game(_ reply: Reply) -> StoredGame? {
            guard case .dailyGame(let game)? = reply.writes.first else { return nil }
            return game
        }
        let (first, before, won, after) = try await bot.store.write { store in
            try await store.save(ann)
            let turn = Self.turn("", player: ann, in: store, at: now)
            let first = try await play.guess(answer == "crane" ? "slate" : "crane", in: turn)
            let before = try await store.game(of: ann.id, language: .english, puzzle: puzzle)
            try await engine.apply(first.writes, at: now, in: store)
            let won = try await play.guess(answer, in: turn)
            return (first, before, won, try await store.game(of: ann.id, language: .english, puzzle: puzzle))
        }
        #expect(before == nil, "the feature wrote nothing itself")
        let opened = try #require(game(first))
        #expect(first.writes == [.dailyGame(opened)] && opened.guesses.count == 1 && opened.result == nil)
        let finished = try #require(game(won))
        #expect(finished.result == .won(guesses: 2) && finished.finishedAt == now)
        #expect(
            won.writes == [
                .dailyGame(finished), .countOnBoards(finished),
                .analysis(player: ann.id, language: .english, puzzle: puzzle, show: false),
            ])
        #expect(after == opened, "the win is not stored until the router writes it")
    }

    @Test("A step of a command reads the turn as the step before left it; the replies add up")
    func stepsReadTheTurnAsLeft() async throws {
        let bot = try EngineHarness()
        let (now, ann, settings) = (bot.now, Self.ann, PlayerSettings(schedule: .tessera))
        let reply = try await bot.store.write { store in
            let turn = Self.turn("/language", player: ann, in: store, at: now)
            var reply = settings.language("es", in: turn)
            // The next step speaks the language the first chose, and keeps its record.
            let after = turn.applying(reply)
            #expect(after.player.language == .spanish && after.language == .spanish)
            reply.add(after.reply(after.texts.playing(after.language)))
            return reply
        }
        #expect(reply.player?.language == .spanish)
        #expect(reply.messages.count == 2)
        #expect(reply.messages.last?.html == Language.spanish.texts.playing(.spanish), "\(reply.messages)")
    }
}
