public import Foundation
import Logging
import TesseraCore

extension BotEngine {
    /// Applies a received batch exactly once, as the daemon's receive service does: in one transaction of `store`
    /// that moves the transport's position from `position` to the batch's next one, its chat migrations first.
    /// `loadingAhead`: what the messages read is loaded at once and what they change written at once
    /// (``plan(for:at:)``, ``BatchWork``); otherwise each message is handled on the store, in a savepoint of its
    /// own. nil when the batch was applied already (``GameStore/processBatch(transport:from:to:loading:_:)``).
    public func apply(
        _ batch: ReceivedBatch, from transport: String, after position: String?, loadingAhead: Bool,
        at now: @escaping @Sendable () -> Date, to store: any GameStore
    ) async throws -> [MessageOutcome]? {
        let plan = loadingAhead ? plan(for: batch.messages, at: now()) : .onStore(batch.messages.count)
        return try await store.processBatch(
            transport: transport, from: position, to: batch.nextPosition, loading: plan.needs
        ) { transaction, values in
            for migration in batch.migrations {
                try await transaction.moveChat(from: migration.from, to: migration.to)
            }
            let work = BatchWork(plan, loaded: values, store: transaction)
            return (try await handle(batch.messages, at: now, in: work), work.changes)
        }
    }

    /// Handles a batch's messages in order on `work` (``BatchWork``); returns what each one did, in order.
    /// One that cannot be handled is given up on: its changes undone, logged by its ids and the reason (never its
    /// text), and marked ``MessageOutcome/givenUp``, so that it never holds back the others and is acknowledged
    /// with them. A failure of the store under the batch fails the whole batch, to be tried again.
    public func handle(_ messages: [ChatMessage], at now: @Sendable () -> Date, in work: BatchWork) async throws
        -> [MessageOutcome]
    {
        var outcomes: [MessageOutcome] = []
        for message in messages {
            do {
                try await work.run { store in outcomes.append(try await handle(message, at: now(), in: store)) }
            } catch let failure as BatchWork.StoreFailure {
                throw failure.error
            } catch {
                logger.error(
                    "Gave up on a message that could not be handled; it is acknowledged and not read again",
                    metadata: [
                        "chat.id": "\(message.chat)", "user.id": "\(message.sender)",
                        "message.id": "\(message.messageID.map { "\($0)" } ?? "none")",
                        "error.type": "\(type(of: error))", "error": "\(error)",
                    ])
                outcomes.append(MessageOutcome(givenUp: true))
            }
        }
        return outcomes
    }

    /// What a batch of messages will read (``BatchPlan``): for each message, its sender with their games of the
    /// puzzles open somewhere now, the replay guards of those games and their totals on their groups' boards over
    /// the periods of those puzzles; the group it comes from; and its chat's waiting replies.
    public func plan(for messages: [ChatMessage], at now: Date) -> BatchPlan {
        let first = core.earliestOpenPuzzle(at: now)
        // The zone that enters a day first (UTC+14) is at most three puzzles ahead of the one that leaves it last.
        let puzzles = first...PuzzleNumber(first.rawValue + 3)
        let numbers = puzzles.lowerBound.rawValue...puzzles.upperBound.rawValue
        let periods = Set(
            numbers.flatMap { BoardPeriod.keys(of: PuzzleNumber($0), schedule: configuration.schedule) })
        return BatchPlan(
            messages: messages.map { message in
                var needs = BatchNeeds()
                needs.puzzles = puzzles
                needs.periods = periods
                needs.players.insert(message.sender)
                for language in Language.allCases {
                    for number in numbers {
                        needs.replayKeys.insert(
                            core.replayKey(message.sender, language: language, puzzle: PuzzleNumber(number)))
                    }
                }
                if message.chatKind == .group { needs.groups.insert(message.chat) }
                needs.pendingCounts.insert(message.chat)
                return needs
            })
    }
}
