import CoreMetrics
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import TesseraCore
import TesseraEngine

/// Receives a platform's updates and applies them through the engine exactly once: each batch's effects and the
/// transport's new position are stored in one transaction, flushed to disk before the next poll acknowledges
/// them, and the sender is rung. On graceful shutdown the poll in flight is abandoned and the batch in hand is
/// finished. It runs while this process leads the platform (``LeadershipService``).
struct ReceiveService: PlatformService {
    let context: PlatformContext
    let heartbeat: HeartbeatService
    let commits: CommitMetrics

    func run() async throws {
        var position = try await store.position(of: transport.name)
        var backoff = retrier.backoff()
        logger.info(
            "Receiving", metadata: ["transport": "\(transport.name)", "position": "\(position ?? "start")"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let batch: ReceivedBatch
            do {
                let (transport, after) = (self.transport, position)
                let asked = clock.now
                batch = try await cancelWhenGracefulShutdown { try await transport.receive(after: after) }
                activity.metrics.pollDuration.record(duration: asked.duration(to: clock.now))
            } catch let error as TransportError {
                try await retrier.pause(after: error, backoff: &backoff, activity: "receiving")
                continue
            } catch is CancellationError {
                break
            }
            retrier.recovered(&backoff, activity: "receiving")
            // `tessera status` says the bot is receiving from its first poll on, not from the next heartbeat.
            if activity.polled(at: now()) { try await heartbeat.write() }
            activity.metrics.updatesReceived.increment(by: batch.messages.count + batch.migrations.count)
            if batch.messages.isEmpty && batch.migrations.isEmpty && batch.nextPosition == position { continue }
            let checked = await checkingPlatform(batch)
            let started = clock.now
            // A transaction that fails is rolled back, so trying it again applies the batch once.
            let tally = try await retrier.storage("storing a batch") { try await apply(checked, after: position) }
            // Replies may go out now; the next poll acknowledges the batch, so it must be on disk first.
            activity.outbox.ring()
            try await retrier.storage("flushing to disk") { try await store.flush() }
            commits.duration.record(duration: started.duration(to: clock.now))
            logger.debug(
                "Stored a batch",
                metadata: [
                    "transport": "\(transport.name)", "messages": "\(checked.messages.count)",
                    "position": "\(checked.nextPosition)",
                ])
            if let tally {
                // Counted once committed: a transaction tried again counts its guesses once.
                activity.metrics.countGuesses(tally.guesses)
                if tally.givenUp > 0 { activity.metrics.messagesGivenUp.increment(by: tally.givenUp) }
                position = checked.nextPosition
            } else {
                // Applied already (by an earlier try whose commit went through, or by another process): carry on
                // from what is stored, never applying anything twice.
                logger.notice(
                    "Skipped a batch that was applied already",
                    metadata: ["transport": "\(transport.name)", "position": "\(position ?? "start")"])
                position = try await retrier.storage("reading the position") {
                    try await store.position(of: transport.name)
                }
            }
        }
    }

    /// Asks the platform what the batch's messages need to know (``BotEngine/questions(for:)``): whether
    /// senders administer their group, whether the bot may delete there. When it cannot tell, the message says
    /// so to the engine (nil) rather than failing the batch. The questions are asked concurrently (the
    /// transport keeps each short), so a slow platform holds a batch up for one answer's time at most.
    private func checkingPlatform(_ batch: ReceivedBatch) async -> ReceivedBatch {
        var batch = batch
        let (transport, logger) = (self.transport, logger)
        let asked = batch.messages.indices.flatMap { index in
            engine.questions(for: batch.messages[index]).map { (index, $0) }
        }
        // Most batches need none; an empty task group still costs a suspension on every batch.
        guard !asked.isEmpty else { return batch }
        let answers = await withTaskGroup(of: (Int, PlatformQuestion, Bool?).self) { group in
            for (index, question) in asked {
                let message = batch.messages[index]
                group.addTask {
                    do {
                        switch question {
                        case .senderIsAdministrator:
                            return (
                                index, question, try await transport.isAdministrator(message.sender, in: message.chat)
                            )
                        case .botMayDeleteMessages:
                            return (index, question, try await transport.mayDeleteMessages(in: message.chat))
                        }
                    } catch {
                        logger.warning(
                            "Could not ask the platform about a group; the message is handled without the answer",
                            metadata: [
                                "chat.id": "\(message.chat)", "user.id": "\(message.sender)",
                                "question": "\(question.rawValue)", "error": "\(error)",
                            ])
                        return (index, question, nil)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (index, question, answer) in answers { batch.messages[index][answer: question] = answer }
        return batch
    }

    /// Applies a batch and stores the new position in one transaction; returns what it did (``BatchTally``),
    /// or nil when the stored position had moved past `position` already, and nothing was applied.
    ///
    /// What the messages read is declared first and loaded with the position, and what they change is written
    /// with the new one (``BatchWork``): against a database across a network, a batch costs a few round trips
    /// whatever its size. A chat that moved in the batch changes what it would load: then, as when writing at once
    /// failed, each message is handled on the store itself (`loadingAhead` false).
    private func apply(_ batch: ReceivedBatch, after position: String?) async throws -> BatchTally? {
        guard batch.migrations.isEmpty else { return try await apply(batch, after: position, loadingAhead: false) }
        do {
            return try await apply(batch, after: position, loadingAhead: true)
        } catch let error where !(error is CancellationError) && !store.isTransient(error) {
            // What the batch read or wrote at once was refused (a damaged row, a value the database will not
            // take): one message at a time, each in a savepoint, so that the one at fault is given up alone and
            // acknowledged with the rest. A failure of the transaction itself still stops the service.
            logger.warning(
                "A batch could not be handled at once; its messages are handled one at a time",
                metadata: [
                    "transport": "\(transport.name)", "error": "\((error as? BatchWriteFailure)?.error ?? error)",
                ])
            do {
                return try await apply(batch, after: position, loadingAhead: false)
            } catch let again as BatchWriteFailure {
                throw again.error
            }
        }
    }

    private func apply(_ batch: ReceivedBatch, after position: String?, loadingAhead: Bool) async throws
        -> BatchTally?
    {
        try await engine.apply(
            batch, from: transport.name, after: position, loadingAhead: loadingAhead, at: now, to: store
        ).map(BatchTally.init)
    }
}

/// What a stored batch did, counted for the metrics: the guesses accepted, by language, and the messages given up.
struct BatchTally: Sendable {
    var guesses: [Language: Int] = [:]
    var givenUp = 0

    init(_ outcomes: [MessageOutcome]) {
        for outcome in outcomes {
            if let language = outcome.acceptedGuess { guesses[language, default: 0] += 1 }
            if outcome.givenUp { givenUp += 1 }
        }
    }
}
