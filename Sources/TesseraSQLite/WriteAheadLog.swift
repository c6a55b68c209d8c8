import Dispatch
import Foundation
import GRDB
import Logging
import Synchronization

/// The database's write-ahead log, handled off the writer's thread: flushing it to disk, and checkpoints.
///
/// **Flush.** Batches commit with `synchronous = NORMAL`, so their replies need not wait for the disk;
/// ``flush()`` then waits for one `fdatasync` of the log before the batch is acknowledged to the platform. A
/// power cut before the flush loses the batch here and in the acknowledgement alike, so the platform delivers
/// it again: no guess is lost or applied twice, though a reply may be sent twice.
///
/// **Checkpoints.** SQLite's automatic checkpoint runs inside the commit that crosses its threshold, and costs
/// that commit (and every update queued behind it) tens of milliseconds. A passive checkpoint on another
/// connection does not block the writer; once it has copied the whole log, the writer starts the log over, so
/// the log keeps its size. They run while ``runCheckpoints()`` does (the store's ``SQLiteGameStore/checkpoints``
/// service); the writer keeps a higher automatic threshold as a backstop, for commands that run none.
final class WriteAheadLog: Sendable {
    /// The outcome of the latest checkpoint: frames in the log, and how many of them are in the database file.
    struct Progress: Equatable {
        var logFrames = 0
        var copiedFrames = 0
    }

    private let path: String
    private let flushQueue = DispatchQueue(label: "tessera.sqlite.flush")
    private let checkpointQueue = DispatchQueue(label: "tessera.sqlite.checkpoint")
    private let checkpointer: Checkpointer
    private let checkpointInterval: Duration

    init(databasePath: String, checkpointInterval: Duration, logger: Logger) throws {
        path = databasePath + "-wal"
        checkpointer = try Checkpointer(databasePath: databasePath, logger: logger)
        self.checkpointInterval = checkpointInterval
    }

    /// Checkpoints every interval until cancelled, each on the checkpoint queue, off the caller's thread: the
    /// connection blocks while it copies.
    func runCheckpoints() async {
        let (checkpointer, queue) = (self.checkpointer, checkpointQueue)
        while (try? await Task.sleep(for: checkpointInterval)) != nil {
            await withCheckedContinuation { continuation in
                queue.async {
                    checkpointer.run()
                    continuation.resume()
                }
            }
        }
    }

    /// Waits until everything committed so far is on disk.
    func flush() async throws {
        let path = self.path
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            flushQueue.async {
                continuation.resume(
                    with: Result {
                        // Any descriptor of the file will do: fdatasync flushes the file, not the descriptor.
                        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                        guard descriptor >= 0 else { throw SQLiteStoreError.cannotFlush(path: path, errno: errno) }
                        defer { close(descriptor) }
                        guard fdatasync(descriptor) == 0 else {
                            throw SQLiteStoreError.cannotFlush(path: path, errno: errno)
                        }
                    })
            }
        }
    }

    var latestCheckpoint: Progress { checkpointer.latest.withLock { $0 } }

    /// Waits for the next background checkpoint to end, and returns what it did.
    func nextCheckpoint() async -> Progress {
        await withCheckedContinuation { continuation in
            checkpointer.waiting.withLock { $0.append(continuation) }
        }
    }

    /// The connection that checkpoints, and what it last did.
    private final class Checkpointer: Sendable {
        let connection: DatabaseQueue
        let latest = Mutex(Progress())
        let waiting = Mutex<[CheckedContinuation<Progress, Never>]>([])
        let failures = Mutex(FailureEpisode(activity: "Background checkpoints"))
        let logger: Logger

        init(databasePath: String, logger: Logger) throws {
            var configuration = Configuration()
            configuration.label = "tessera.checkpointer"
            configuration.busyMode = .timeout(5)
            connection = try DatabaseQueue(path: databasePath, configuration: configuration)
            self.logger = logger
        }

        func run() {
            do {
                let result = try connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
                latest.withLock {
                    $0 = Progress(logFrames: result.walFrameCount, copiedFrames: result.checkpointedFrameCount)
                }
                failures.withLock { $0.succeeded(logger: logger) }
            } catch {
                failures.withLock { $0.failed(error, logger: logger) }
            }
            let progress = latest.withLock { $0 }
            let waiters = waiting.withLock { waiting in
                defer { waiting = [] }
                return waiting
            }
            for waiter in waiters { waiter.resume(returning: progress) }
        }
    }
}

/// Failures of work retried in the background (a disk full lasts minutes, and checkpoints run five times a
/// second): the first of an episode is a warning, the rest debug lines, and a notice says when it works again.
struct FailureEpisode {
    let activity: String
    private(set) var failures = 0

    init(activity: String) { self.activity = activity }

    mutating func failed(_ error: any Error, logger: Logger) {
        failures += 1
        if failures == 1 {
            logger.warning(
                """
                \(activity) failed; retrying until they work. Nothing committed is lost meanwhile; check the \
                disk's free space and health.
                """, metadata: ["error": "\(error)"])
        } else {
            logger.debug("\(activity) failed again", metadata: ["error": "\(error)", "failures": "\(failures)"])
        }
    }

    mutating func succeeded(logger: Logger) {
        guard failures > 0 else { return }
        logger.notice("\(activity) work again", metadata: ["failures": "\(failures)"])
        failures = 0
    }
}
