import CoreMetrics
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import TesseraRuntime

/// The operator's listener (docs/operating.md, "Metrics and health"), on the address `metrics.listen` names: `GET /metrics`
/// in Prometheus's text format and `GET /healthz`, 200 or 503 with the platforms' health in words. Nothing
/// listens unless it is configured. Served by Hummingbird, whose `Application` is a `Service` of the bot's group.
///
/// It is optional, so nothing that happens to it may stop the bot: its connections are capped, and each ends
/// after ``Limits/idle`` of silence or ``Limits/lifetime`` whatever it does, so that connections held open never
/// use up the descriptors the bot's own work needs; a request's headers are small; and a listener that cannot
/// serve (the port taken) logs why, says so in `tessera status`, and leaves the bot running.
struct OperatorListener: Service, CustomStringConvertible {
    /// What one client may take of the listener.
    enum Limits {
        /// Connections open at once; more wait in the kernel's backlog, using none of the process's descriptors.
        static let connections = 64
        /// Silence after which a connection is closed.
        static let idle = TimeAmount.seconds(2)
        /// The longest a connection lives, whatever it sends: a slow header or a body trickled byte by byte ends
        /// here. A scraper that keeps its connection alive opens another at its next scrape.
        static let lifetime = TimeAmount.seconds(10)
        /// The request's headers, all together: a scraper sends a few hundred bytes.
        static let headerBytes = 8 * 1_024
    }

    let address: ListenAddress
    let registry: PrometheusCollectorRegistry
    let monitor: RuntimeMonitor
    let staleAfter: TimeInterval
    /// The store as `tessera status` names it, for `/healthz`.
    let database: String
    let now: @Sendable () -> Date
    let logger: Logger

    /// Where the runtime counts, into `registry`: poll and commit durations in buckets that fit them.
    static func factory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        // A long poll waits up to its timeout (Telegram 50 s, Matrix 30 s) when all is quiet.
        factory.durationHistogramBuckets["tessera_poll_duration_seconds"] = [
            .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(10), .seconds(30),
            .seconds(45), .seconds(55), .seconds(70),
        ]
        factory.durationHistogramBuckets["tessera_commit_duration_seconds"] = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        return factory
    }

    func run() async throws {
        let router = Router()
        let (registry, monitor, logger) = (self.registry, self.monitor, self.logger)
        let (staleAfter, database, now) = (self.staleAfter, self.database, self.now)
        router.get("metrics") { _, _ -> Response in
            do {
                try await monitor.refreshGauges()
            } catch {
                // The rest is still worth having: the gauge keeps its last value, and the log says why.
                logger.warning("Could not count the outbox for /metrics", metadata: ["error": "\(error)"])
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: Self.exposition(registry))))
        }
        router.get("healthz") { _, _ -> Response in
            let health = monitor.health(at: now(), staleAfter: staleAfter, database: database)
            return Response(
                status: health.healthy ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: health.text + "\n")))
        }
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .notice)
        let address = self.address
        let application = Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [ConnectionLifetime(Limits.lifetime)], idleTimeout: Limits.idle,
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: Limits.headerBytes, maxHeaderListSize: Limits.headerBytes,
                        maxHeaderFieldCount: 64))),
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port),
                availableConnectionsDelegate: .maximum(Limits.connections, logger: serverLogger)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                logger.notice(
                    "Metrics and health listening on http://\(address.hostForURL):\(port) (/metrics, /healthz)")
            },
            logger: serverLogger)
        do {
            try await application.run()
        } catch {
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            let problem = "\(error)"
            logger.error(
                "\(Self.cannotServe(address, problem))")
            monitor.listenerFailed(at: address.description, problem)
            do {
                try await gracefulShutdown()
            } catch is CancellationError {
                return
            }
        }
    }

    var description: String { "OperatorListener(\(address))" }

    static func cannotServe(_ address: ListenAddress, _ problem: String) -> String {
        "The metrics listener on \(address) cannot serve: \(problem). The bot goes on without /metrics and "
            + "/healthz. If the address is in use or not this machine's, choose another metrics.listen "
            + "(TESSERA_METRICS_LISTEN) and restart tessera."
    }

    /// The registry's text with a `# HELP` line before each of Tessera's metrics' `# TYPE` line.
    static func exposition(_ registry: PrometheusCollectorRegistry) -> String {
        var lines: [Substring] = []
        for line in registry.emitToString().split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first,
                let help = help[String(name)]
            {
                lines.append("# HELP \(name) \(help)")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// What each metric means, as docs/operating.md, "Metrics and health", says it.
    static let help: [String: String] = [
        "tessera_updates_received_total": "Updates a platform's polls brought (messages, presses, queries, moves).",
        "tessera_messages_given_up_total": "Messages the engine could not handle and gave up on, never read again.",
        "tessera_guesses_total": "Guesses the game accepted, by the puzzle's language, counted once committed.",
        "tessera_messages_sent_total": "Messages sent, by kind: post, edit, reaction or delete.",
        "tessera_send_failures_total": "Failed sends, by the TransportError case that said why.",
        "tessera_outbox_messages": "Messages of the platform's chats waiting in the outbox, due or postponed.",
        "tessera_poll_duration_seconds": "Long polls, from the request to its answer.",
        "tessera_commit_duration_seconds": "A received batch's transaction, from its start until it is on disk.",
        "tessera_leader": "1 while this process leads the platform (receives, closes days), 0 while it stands by.",
        "tessera_last_poll_timestamp_seconds": "When the platform's last poll came back, in Unix seconds.",
        "tessera_build_info": "Always 1; the version label says which Tessera runs.",
    ]
}

/// Closes a connection a fixed time after it was accepted, whatever it is doing.
final class ConnectionLifetime: ChannelInboundHandler, RemovableChannelHandler {
    // Reads pass through untouched.
    typealias InboundIn = Never

    private let lifetime: TimeAmount
    private var deadline: Scheduled<Void>?

    init(_ lifetime: TimeAmount) { self.lifetime = lifetime }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: lifetime) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }
}

/// A `HOST:PORT` to listen on: `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464`; port 0 takes any free port,
/// which the log names.
struct ListenAddress: Hashable, CustomStringConvertible {
    var host: String
    var port: Int

    init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: \.isWhitespace), portPart.allSatisfy(\.isASCII),
            let port = Int(portPart), (0...65_535).contains(port)
        else { return nil }
        host = String(hostPart)
        self.port = port
    }

    /// The host as a URL writes it: an IPv6 address in brackets.
    var hostForURL: String { host.contains(":") ? "[\(host)]" : host }
    var description: String { "\(hostForURL):\(port)" }
}
