import Synchronization
public import TesseraEngine

/// A chat platform played by a test: it hands out batches in turn, long-polling while there is none (a
/// batch pushed meanwhile ends the poll), records every message sent, and fails on demand, per method and
/// per chat.
public final class ScriptedTransport: ChatTransport {
    /// The calls a failure can be injected into.
    public enum Method: Sendable, Hashable {
        case receive, send, isAdministrator
    }

    public let name: String
    private struct State {
        var batches: [ReceivedBatch]
        var sent: [OutgoingMessage] = []
        var sendTimes: [ManualClock.Instant] = []
        var poll: CheckedContinuation<ReceivedBatch, any Error>?
        var attempts: [OutgoingMessage] = []
        var failures: [(method: Method, chat: ChatID?, error: TransportError, remaining: Int)] = []
        var administrators: Set<String> = []
    }
    private let state: Mutex<State>
    /// Every call as it happens (`receive(after: 2)`, `send(7)`, `send failed(7)`), to await one without polling.
    public let events: EventLog

    private let clock: ManualClock?

    /// - Parameter clock: the clock whose time ``sendTimes`` records.
    public init(name: String = "scripted", batches: [ReceivedBatch] = [], clock: ManualClock? = nil) {
        self.name = name
        self.clock = clock
        self.state = Mutex(State(batches: batches))
        self.events = EventLog()
    }

    /// Queues batches for the next receives.
    public func push(_ batches: ReceivedBatch...) {
        let poll = state.withLock { state -> (CheckedContinuation<ReceivedBatch, any Error>, ReceivedBatch)? in
            state.batches += batches
            guard !state.batches.isEmpty, let poll = state.poll.take() else { return nil }
            return (poll, state.batches.removeFirst())
        }
        if let (continuation, batch) = poll { continuation.resume(returning: batch) }
    }

    /// Makes the next `times` calls of `method` (to `chat`, or to any chat) fail with `error`.
    public func fail(_ method: Method, chat: ChatID? = nil, with error: TransportError, times: Int = .max) {
        state.withLock { $0.failures.append((method, chat, error, times)) }
    }

    /// Makes a user an administrator of a group.
    public func makeAdministrator(_ user: UserID, of chat: ChatID) {
        state.withLock { _ = $0.administrators.insert("\(chat):\(user)") }
    }

    /// The messages sent successfully, in order.
    public var sent: [OutgoingMessage] { state.withLock { $0.sent } }
    /// When each message in ``sent`` was sent, by the clock given at init.
    public var sendTimes: [ManualClock.Instant] { state.withLock { $0.sendTimes } }
    /// Every attempt to send, failed ones included, in order.
    public var attempts: [OutgoingMessage] { state.withLock { $0.attempts } }

    public func receive(after position: Int64?) async throws -> ReceivedBatch {
        events.record("receive(after: \(position.map(String.init) ?? "nil"))")
        if let error = takeFailure(.receive, chat: nil) { throw error }
        // A long poll: until a batch is pushed, or the caller is cancelled.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let batch = state.withLock { state -> Result<ReceivedBatch, any Error>? in
                    if !state.batches.isEmpty { return .success(state.batches.removeFirst()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.poll = continuation
                    return nil
                }
                if let batch { continuation.resume(with: batch) }
            }
        } onCancel: {
            state.withLock { $0.poll.take() }?.resume(throwing: CancellationError())
        }
    }

    public func send(_ message: OutgoingMessage) async throws {
        state.withLock { $0.attempts.append(message) }
        if let error = takeFailure(.send, chat: message.chat) {
            events.record("send failed(\(message.chat))")
            throw error
        }
        let time = clock?.now ?? ManualClock.Instant(offset: .zero)
        state.withLock {
            $0.sent.append(message)
            $0.sendTimes.append(time)
        }
        events.record("send(\(message.chat))")
    }

    public func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool {
        if let error = takeFailure(.isAdministrator, chat: chat) { throw error }
        return state.withLock { $0.administrators.contains("\(chat):\(user)") }
    }

    private func takeFailure(_ method: Method, chat: ChatID?) -> TransportError? {
        state.withLock { state in
            guard
                let index = state.failures.firstIndex(where: {
                    $0.method == method && $0.remaining > 0 && ($0.chat == nil || $0.chat == chat)
                })
            else { return nil }
            state.failures[index].remaining -= 1
            return state.failures[index].error
        }
    }
}
