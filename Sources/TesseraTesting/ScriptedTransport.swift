import Synchronization
public import TesseraEngine

/// A chat platform played by a test: it hands out batches in turn (then long-polls until cancelled),
/// records every message sent, and fails on demand, per method and per chat.
public final class ScriptedTransport: ChatTransport {
    /// The calls a failure can be injected into.
    public enum Method: Sendable, Hashable {
        case receive, send, isAdministrator
    }

    public let name: String
    private struct State {
        var batches: [ReceivedBatch]
        var sent: [OutgoingMessage] = []
        var attempts: [OutgoingMessage] = []
        var failures: [(method: Method, chat: ChatID?, error: TransportError, remaining: Int)] = []
        var administrators: Set<String> = []
    }
    private let state: Mutex<State>
    /// Every call as it happens (`receive(after: 2)`, `send(7)`, `send failed(7)`), to await one without polling.
    public let events: EventLog

    public init(name: String = "scripted", batches: [ReceivedBatch] = []) {
        self.name = name
        self.state = Mutex(State(batches: batches))
        self.events = EventLog()
    }

    /// Queues batches for the next receives.
    public func push(_ batches: ReceivedBatch...) {
        state.withLock { $0.batches += batches }
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
    /// Every attempt to send, failed ones included, in order.
    public var attempts: [OutgoingMessage] { state.withLock { $0.attempts } }

    public func receive(after position: Int64?) async throws -> ReceivedBatch {
        events.record("receive(after: \(position.map(String.init) ?? "nil"))")
        if let error = takeFailure(.receive, chat: nil) { throw error }
        if let batch = state.withLock({ $0.batches.isEmpty ? nil : $0.batches.removeFirst() }) { return batch }
        // A long poll with nothing new: until the test ends it.
        try await Task.sleep(for: .seconds(3_600))
        throw CancellationError()
    }

    public func send(_ message: OutgoingMessage) async throws {
        state.withLock { $0.attempts.append(message) }
        if let error = takeFailure(.send, chat: message.chat) {
            events.record("send failed(\(message.chat))")
            throw error
        }
        state.withLock { $0.sent.append(message) }
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
