import Synchronization
public import TesseraEngine

/// A chat platform played by a test: it hands out batches in turn, long-polling while there is none (a
/// batch pushed meanwhile ends the poll), records every message sent and edit made, and fails on demand, per
/// method and per chat. Its chats and users are on the ``Platform/scripted`` platform (`ChatID(7)`); posts get
/// ids counting up from 1000. Events name chats by their number alone: `send(7)`.
public final class ScriptedTransport: ChatTransport {
    /// The calls a failure can be injected into.
    public enum Method: Sendable, Hashable {
        case receive, send, edit, isAdministrator, mayDeleteMessages
    }

    public let name: String
    public let platform: Platform
    public let traits: PlatformTraits
    private struct State {
        var batches: [ReceivedBatch]
        var sent: [OutgoingMessage] = []
        var postIDs: [MessageID] = []
        var edits: [(post: MessageID, message: OutgoingMessage)] = []
        var sendTimes: [ManualClock.Instant] = []
        var poll: CheckedContinuation<ReceivedBatch, any Error>?
        var attempts: [OutgoingMessage] = []
        var attemptKeys: [String] = []
        var failures: [(method: Method, chat: ChatID?, error: TransportError, remaining: Int)] = []
        var administrators: Set<String> = []
        var deletingChats: Set<ChatID> = []
        var sendDuration: Duration?
    }
    private let state: Mutex<State>
    /// Every call as it happens (`receive(after: 2)`, `send(7)`, `send failed(7)`), to await one without polling.
    public let events: EventLog

    private let clock: ManualClock?

    /// - Parameter clock: the clock whose time ``sendTimes`` records.
    public init(
        name: String = "scripted", platform: Platform = .scripted, traits: PlatformTraits = .scripted,
        batches: [ReceivedBatch] = [], clock: ManualClock? = nil
    ) {
        self.name = name
        self.platform = platform
        self.traits = traits
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

    /// Makes every send take this long on the clock given at init, as over a slow network: `send started(7)`
    /// is recorded when one begins, and it ends `duration` after that.
    public func slowSends(by duration: Duration) {
        state.withLock { $0.sendDuration = duration }
    }

    /// Makes a user an administrator of a group.
    public func makeAdministrator(_ user: UserID, of chat: ChatID) {
        state.withLock { _ = $0.administrators.insert("\(chat):\(user)") }
    }

    /// Lets the bot delete members' messages in a group.
    public func allowDeleting(in chat: ChatID) {
        state.withLock { _ = $0.deletingChats.insert(chat) }
    }

    /// The messages sent successfully, in order.
    public var sent: [OutgoingMessage] { state.withLock { $0.sent } }
    /// When each message in ``sent`` was sent, by the clock given at init.
    public var sendTimes: [ManualClock.Instant] { state.withLock { $0.sendTimes } }
    /// The platform's id of each message in ``sent``.
    public var postIDs: [MessageID] { state.withLock { $0.postIDs } }
    /// The edits made, in order: the id of the post edited and what it reads now.
    public var edits: [(post: MessageID, message: OutgoingMessage)] { state.withLock { $0.edits } }
    /// Every attempt to send, failed ones included, in order.
    public var attempts: [OutgoingMessage] { state.withLock { $0.attempts } }
    /// The key of each attempt in ``attempts``.
    public var attemptKeys: [String] { state.withLock { $0.attemptKeys } }

    public func receive(after position: String?) async throws -> ReceivedBatch {
        events.record("receive(after: \(position ?? "nil"))")
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

    @discardableResult
    public func send(_ message: OutgoingMessage, key: String) async throws -> MessageID? {
        state.withLock {
            $0.attempts.append(message)
            $0.attemptKeys.append(key)
        }
        if let error = takeFailure(.send, chat: message.chat) {
            events.record("send failed(\(message.chat.value))")
            throw error
        }
        if let clock, let duration = state.withLock({ $0.sendDuration }) {
            // Due from the start, before a test that saw it start can move the clock: a task slow to go to
            // sleep still ends its send on time.
            let due = clock.now.advanced(by: duration)
            events.record("send started(\(message.chat.value))")
            try await clock.sleep(until: due)
        }
        let time = clock?.now ?? ManualClock.Instant(offset: .zero)
        let id = state.withLock { state in
            state.sent.append(message)
            state.sendTimes.append(time)
            state.postIDs.append(MessageID(Int64(1000 + state.postIDs.count)))
            return state.postIDs.last
        }
        events.record("send(\(message.chat.value))")
        return message.action == .post ? id : nil
    }

    public func edit(_ post: MessageID, toRead message: OutgoingMessage, key: String) async throws {
        if let error = takeFailure(.edit, chat: message.chat) {
            events.record("edit failed(\(message.chat.value))")
            throw error
        }
        state.withLock { $0.edits.append((post, message)) }
        events.record("edit(\(message.chat.value))")
    }

    public func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool {
        if let error = takeFailure(.isAdministrator, chat: chat) { throw error }
        return state.withLock { $0.administrators.contains("\(chat):\(user)") }
    }

    public func mayDeleteMessages(in chat: ChatID) async throws -> Bool {
        if let error = takeFailure(.mayDeleteMessages, chat: chat) { throw error }
        return state.withLock { $0.deletingChats.contains(chat) }
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

extension PlatformTraits {
    /// A platform that can do everything, with limits like Telegram's, so that the runtime's pacing and
    /// splitting are exercised.
    public static let scripted = PlatformTraits(
        maximumLength: 4096,
        rateLimits: RateLimits(
            perChat: .init(burst: 3, perSecond: 1), perGroupPerMinute: 20, overall: .init(burst: 30, perSecond: 30)))
}
