import ArgumentParser
import CMalloc
import CoreMetrics
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import TesseraEngine
import TesseraRuntime

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the bot on every platform configured (Telegram, Matrix), otherwise a chat in this terminal.",
        discussion: """
            Settings come from options, then TESSERA_* environment variables, then the JSON file given with \
            --config (or TESSERA_CONFIG), then defaults; config/README.md lists them all. Tokens and passwords \
            are read only from the environment or files (TESSERA_TELEGRAM_TOKEN, TESSERA_MATRIX_ACCESS_TOKEN, \
            TESSERA_MATRIX_PASSWORD, or their _FILE), never from the command line, and never logged. Every \
            platform is served from this one process and database.

            SIGTERM or SIGINT stop it gracefully: polling stops, the batch in hand is finished, the outbox is \
            drained and the database closed.
            """
    )

    @Option(help: "JSON configuration file (see config/tessera.example.json).")
    var config: String?

    @Option(
        help: """
            SQLite database file (default: $STATE_DIRECTORY, $XDG_STATE_HOME/tessera or ~/.local/state/tessera), \
            or postgres://USER@HOST:PORT/DATABASE when built with the PostgreSQL trait.
            """)
    var database: String?

    @Option(
        name: .customLong("telegram-api-url"), help: "Bot API server, for a self-hosted one (default: the public API).")
    var telegramAPIURL: String?

    @Option(help: "Time zone of new players and groups (IANA name).")
    var timeZone: String?

    @Option(help: "Local hour (0-23) when the next puzzle arrives for new players and groups.")
    var rolloverHour: Int?

    @Option(help: "Language of new players: en or es.")
    var language: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: "Log format: text (the default), or json for one JSON object a line.")
    var logFormat: String?

    func run() async throws {
        var commandLine: [String: String] = [:]
        commandLine["database"] = database
        commandLine["telegram.api.url"] = telegramAPIURL
        commandLine["default.time.zone"] = timeZone
        commandLine["default.rollover.hour"] = rolloverHour.map(String.init)
        commandLine["default.language"] = language
        commandLine["log.level"] = logLevel
        commandLine["log.format"] = logFormat
        let settings = try await RunSettings.load(commandLine: commandLine, configFile: config)

        let isConsole = settings.telegramToken == nil && settings.matrix == nil
        let levelName = settings.logLevel ?? (isConsole ? "warning" : "info")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw CommandError(
                "log.level '\(levelName)' is not one of trace, debug, info, notice, warning, error, critical.")
        }
        let json: Bool
        switch settings.logFormat?.lowercased() ?? "text" {
        case "text": json = false
        case "json": json = true
        case let other: throw CommandError("log.format '\(other)' is not text or json.")
        }
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json
                ? JSONLogHandler(label: label) : EscapingLogHandler(base: StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "tessera")
        do {
            try await serve(settings, logger: logger)
        } catch let error where json {
            // In JSON the error that ends the bot is one more object, not a line of text among them.
            logger.critical("Error: \(error)")
            throw ExitCode.failure
        }
    }

    /// Takes every file descriptor the hard limit allows: the soft limit is often 1,024, which connections and
    /// files together can reach; the hard one is what the operator set (the unit's LimitNOFILE).
    static func raiseDescriptorLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("File descriptors", metadata: ["limit.before": "\(before)", "limit": "\(limit.rlim_cur)"])
        } else {
            logger.warning(
                "Cannot raise the file descriptor limit from \(before): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs the bot as configured, the log set up, until it is stopped or fails.
    private func serve(_ settings: RunSettings, logger: Logger) async throws {
        for line in settings.warnings { logger.warning("\(line)") }
        // Set before main by CMalloc: the daemon's memory depends on it.
        logger.debug("Heap arenas", metadata: ["malloc.arena.max": "\(tessera_heap_arena_limit())"])
        Self.raiseDescriptorLimit(logger: logger)

        let opened = try DatabaseOpening.open(settings, logger: logger)
        defer { withExtendedLifetime(opened.lock) {} }
        var configuration = BotRuntime.Configuration()
        configuration.leadership = opened.leadership
        // The terminal chat is its own launcher: `tessera status` then says to start it with scripts/run.
        configuration.launcher = settings.servesTerminalChat ? .terminal : Self.launcher()
        for platform in settings.unlimited.sorted(by: { $0.rawValue < $1.rawValue }) {
            logger.warning("Outgoing rate limits are off (\(platform).rate.limits = off): only for load tests")
            configuration.rateLimits[platform] = .unlimited
        }
        var now: @Sendable () -> Date = { Date() }
        if let path = settings.clockFile {
            logger.warning("Reading the time from a file (clock.file): only for tests", metadata: ["path": "\(path)"])
            now = FileClock(path: path).now
            // Tests move the file's time by hours at a step: days are checked as soon as it moves.
            configuration.dayCheckInterval = FileClock.checkInterval
        }
        // Counted only for a listener to serve: without one the runtime counts nowhere, at no cost.
        let registry = settings.metricsListen.map { _ in PrometheusCollectorRegistry() }
        if let registry {
            let factory = OperatorListener.factory(registry: registry)
            configuration.metrics = factory
            Gauge(label: "tessera_build_info", dimensions: [("version", Tessera.version)], factory: factory).record(1)
        }
        let runtime = BotRuntime(
            store: opened.store, configuration: configuration, clock: ContinuousClock(), now: now,
            jitter: { Double.random(in: 0...1) }, logger: logger)
        // One group from the start: the store's services first, so that they stop last, then the listener, which
        // answers from the start (a platform that cannot be reached shows as starting, then stalled) until the
        // bot's services have stopped; the startup then connects to the platforms and adds the bot's services.
        var before = opened.services
        if let address = settings.metricsListen, let registry {
            before.append(
                OperatorListener(
                    address: address, registry: registry, monitor: runtime.monitor,
                    staleAfter: TimeInterval(settings.staleAfter), database: settings.databasePath, now: now,
                    logger: logger))
        }
        let group = runtime.serviceGroup(platforms: [], before: before.map { .init(service: $0) }, signals: true)
        await group.addServiceUnlessShutdown(
            .init(
                service: BotStartup(
                    settings: settings, opened: opened, runtime: runtime, group: group, logger: logger),
                successTerminationBehavior: .ignore))
        do {
            try await group.run()
        } catch let error as TransportError {
            throw CommandError(error.description)
        }
    }
}

extension RunCommand {
    /// How this process was started, from what its starter leaves behind: systemd sets `INVOCATION_ID` for
    /// every service it runs; Docker and Podman leave a file at the root of a container, and Podman and
    /// systemd-nspawn set `container`.
    static func launcher(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> Heartbeat.Launcher? {
        if environment["INVOCATION_ID"] != nil { return .systemd }
        if environment["container"] != nil || fileExists("/.dockerenv") || fileExists("/run/.containerenv") {
            return .container
        }
        return nil
    }
}
