import CoreMetrics
import Metrics
import TesseraCore
import TesseraEngine

/// One platform's metrics, named as docs/operating.md, "Metrics and health", lists them. Every label value is a fixed word (the
/// platform, a language code, a kind, a cause), never anything a user, a chat or a word says. All series are
/// made at start, so each shows from the first scrape, at zero, and `rate()` sees its first increase.
struct PlatformMetrics: Sendable {
    /// Updates a poll brought: messages, button presses, queries and chat moves.
    let updatesReceived: Counter
    /// Messages the engine could not handle and gave up on (``MessageOutcome/givenUp``).
    let messagesGivenUp: Counter
    /// Long polls, from the request to its answer (up to the platform's poll timeout when all is quiet).
    let pollDuration: Timer
    /// When the last poll came back, in Unix seconds.
    let lastPoll: Gauge
    /// 1 while this process leads the platform (receives and closes its days), 0 while it stands by.
    let leader: Gauge
    /// Messages of this platform's chats waiting in the outbox: set when metrics are read.
    let outbox: Gauge
    private let guesses: [Language: Counter]
    private let sent: [SentKind: Counter]
    private let failures: [SendFailureCause: Counter]

    /// What a sent message did on the platform.
    enum SentKind: String, CaseIterable {
        case post, picture, edit, reaction, delete, tag

        /// A message sent anew: a reaction, a deletion or a member's tag when that is what it does, a picture
        /// when it went with one, otherwise a post (a query's answer and a direct chat opened are posts too).
        init(_ message: OutgoingMessage) {
            self =
                switch message.action {
                case .react: .reaction
                case .delete: .delete
                case .tagMember: .tag
                case .post, .answerQuery, .openDirectChat, .postPlayerData: message.picture == nil ? .post : .picture
                }
        }
    }

    /// A failed send, by the ``TransportError`` case that said why.
    enum SendFailureCause: String, CaseIterable {
        case transient, rateLimited, chatUnavailable, chatMigrated, messageRejected, pictureRefused, editRefused, fatal

        init(_ error: TransportError) {
            self =
                switch error {
                case .transient: .transient
                case .rateLimited: .rateLimited
                case .chatUnavailable: .chatUnavailable
                case .chatMigrated: .chatMigrated
                case .messageRejected: .messageRejected
                case .pictureRefused: .pictureRefused
                case .editRefused: .editRefused
                case .fatal: .fatal
                }
        }
    }

    init(platform: Platform, factory: any MetricsFactory) {
        let name = ("platform", platform.rawValue)
        updatesReceived = Counter(label: "tessera_updates_received_total", dimensions: [name], factory: factory)
        messagesGivenUp = Counter(label: "tessera_messages_given_up_total", dimensions: [name], factory: factory)
        pollDuration = Timer(label: "tessera_poll_duration_seconds", dimensions: [name], factory: factory)
        lastPoll = Gauge(label: "tessera_last_poll_timestamp_seconds", dimensions: [name], factory: factory)
        leader = Gauge(label: "tessera_leader", dimensions: [name], factory: factory)
        outbox = Gauge(label: "tessera_outbox_messages", dimensions: [name], factory: factory)
        guesses = Dictionary(
            uniqueKeysWithValues: Language.allCases.map { language in
                let labels = [name, ("language", language.rawValue)]
                return (language, Counter(label: "tessera_guesses_total", dimensions: labels, factory: factory))
            })
        sent = Dictionary(
            uniqueKeysWithValues: SentKind.allCases.map { kind in
                let labels = [name, ("kind", kind.rawValue)]
                return (kind, Counter(label: "tessera_messages_sent_total", dimensions: labels, factory: factory))
            })
        failures = Dictionary(
            uniqueKeysWithValues: SendFailureCause.allCases.map { cause in
                let labels = [name, ("cause", cause.rawValue)]
                return (cause, Counter(label: "tessera_send_failures_total", dimensions: labels, factory: factory))
            })
        leader.record(0)
        outbox.record(0)
    }

    func countGuesses(_ counts: [Language: Int]) {
        for (language, count) in counts where count > 0 { guesses[language]?.increment(by: count) }
    }

    func countSent(_ kind: SentKind) { sent[kind]?.increment() }

    func countFailure(_ error: TransportError) { failures[SendFailureCause(error)]?.increment() }
}

/// The time a store's batch transaction takes, from its start until it is on disk: one series for the process.
struct CommitMetrics: Sendable {
    let duration: Timer

    init(factory: any MetricsFactory) {
        duration = Timer(label: "tessera_commit_duration_seconds", factory: factory)
    }
}
