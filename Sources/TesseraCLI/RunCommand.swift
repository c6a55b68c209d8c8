import ArgumentParser
import CMalloc
import Foundation
import Logging
import ServiceLifecycle
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraMatrix
import TesseraRuntime
import TesseraSQLite
import TesseraTelegram
import UnixSignals

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

    func run() async throws {
        var commandLine: [String: String] = [:]
        commandLine["database"] = database
        commandLine["telegram.api.url"] = telegramAPIURL
        commandLine["default.time.zone"] = timeZone
        commandLine["default.rollover.hour"] = rolloverHour.map(String.init)
        commandLine["default.language"] = language
        commandLine["log.level"] = logLevel
        let settings = try await RunSettings.load(commandLine: commandLine, configFile: config)

        let isConsole = settings.telegramToken == nil && settings.matrix == nil
        let levelName = settings.logLevel ?? (isConsole ? "warning" : "info")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw CommandError(
                "log.level '\(levelName)' is not one of trace, debug, info, notice, warning, error, critical.")
        }
        LoggingSystem.bootstrap { label in
            var handler = EscapingLogHandler(base: StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "tessera")
        for line in settings.skipped { logger.warning("\(line)") }
        // Set before main by CMalloc: the daemon's memory depends on it.
        logger.debug("Heap arenas", metadata: ["malloc.arena.max": "\(tessera_heap_arena_limit())"])

        try await DatabaseOpening.withStore(settings, logger: logger) { store, leadership in
            try await serve(settings, store: store, leadership: leadership, logger: logger)
        }
    }

    /// Serves every configured platform (or the terminal chat) on an open store until shut down.
    private func serve(
        _ settings: RunSettings, store: any GameStore, leadership: any Leadership, logger: Logger
    ) async throws {
        var engineConfiguration = BotEngine.Configuration()
        engineConfiguration.gameName = settings.gameName
        engineConfiguration.defaultLanguage = settings.defaultLanguage
        engineConfiguration.defaultTimeZone = settings.defaultTimeZone
        engineConfiguration.defaultRolloverHour = settings.defaultRolloverHour

        var transports: [any ChatTransport] = []
        var console: ConsoleTransport?
        if let token = settings.telegramToken {
            let telegram = TelegramTransport(
                configuration: TelegramTransport.Configuration(token: token, apiURL: settings.telegramAPIURL),
                client: CurlHTTPClient(),
                logger: logger
            )
            let menus = BotEngine.commandMenus(defaultLanguage: settings.defaultLanguage)
            try await Self.connect("Telegram", logger: logger) { try await telegram.prepare(commandMenus: menus) }
            transports.append(telegram)
        }
        if let matrix = settings.matrix {
            transports.append(try await Self.matrixTransport(matrix, store: store, logger: logger))
        }
        if transports.isEmpty {
            // Straight to standard output, unbuffered, whatever it is: flushing every stdio stream (fflush(nil))
            // waited for the lock of standard input, held while the reader waits for the next line, so a reply
            // showed only after the next line was typed.
            let write: @Sendable (String) -> Void = { text in FileHandle.standardOutput.write(Data(text.utf8)) }
            write(ConsoleTransport.help + "\n\n")
            console = ConsoleTransport(write: write)
            transports.append(console!)
        }
        let secret = try await scheduleSecret(settings, store: store, logger: logger)
        var runtimeConfiguration = BotRuntime<ContinuousClock>.Configuration()
        runtimeConfiguration.leadership = leadership
        if !settings.rateLimits {
            // On every platform served; otherwise each keeps its own (PlatformTraits.rateLimits).
            logger.warning("Outgoing rate limits are off (telegram.rate.limits = off): only for load tests")
            for transport in transports { runtimeConfiguration.rateLimits[transport.platform] = .unlimited }
        }
        var now: @Sendable () -> Date = { Date() }
        if let path = settings.clockFile {
            logger.warning("Reading the time from a file (clock.file): only for tests", metadata: ["path": "\(path)"])
            now = FileClock(path: path).now
        }
        // Each platform with its own services on one store; each engine adapts to what its platform can do.
        let platforms = transports.map { transport in
            var configuration = engineConfiguration
            configuration.platform = transport.traits
            return (transport, BotEngine(configuration: configuration, secret: secret, logger: logger))
        }
        let runtime = BotRuntime(
            store: store, configuration: runtimeConfiguration, clock: ContinuousClock(), now: now,
            jitter: { Double.random(in: 0...1) }, logger: logger)
        // The terminal chat's end (Ctrl-D) shuts the bot down.
        let after = console.map {
            [
                ServiceGroupConfiguration.ServiceConfiguration(
                    service: $0, successTerminationBehavior: .gracefullyShutdownGroup)
            ]
        }
        let group = runtime.serviceGroup(platforms: platforms, after: after ?? [], signals: true)
        do {
            try await group.run()
        } catch let error as TransportError {
            throw CommandError(error.description)
        }
    }

    /// Connects to a platform, retrying with backoff while the network or the server is down; a refused token
    /// ends the run with a message that says so.
    @discardableResult
    private static func connect<Result>(
        _ platform: String, logger: Logger, _ body: () async throws -> Result
    ) async throws -> Result {
        var delay = Duration.seconds(1)
        while true {
            do {
                return try await body()
            } catch TransportError.fatal(let reason) {
                throw CommandError(reason)
            } catch let error as TransportError {
                logger.warning(
                    "Cannot reach \(platform) yet; retrying",
                    metadata: ["error": "\(error)", "retry.after": "\(delay)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
        }
    }

    /// The Matrix transport, connected. With a password instead of a token, the bot logs in once and keeps the
    /// device's token in the database (readable by its owner only); a kept token the homeserver no longer
    /// accepts is replaced by logging in again.
    private static func matrixTransport(_ settings: MatrixSettings, store: any GameStore, logger: Logger)
        async throws -> MatrixTransport
    {
        let client = CurlHTTPClient()
        func transport(_ token: String) -> MatrixTransport {
            MatrixTransport(
                configuration: .init(homeserver: settings.homeserver, userID: settings.userID, accessToken: token),
                client: client, logger: logger)
        }
        if let token = settings.accessToken {
            let matrix = transport(token)
            try await connect("Matrix", logger: logger) { try await matrix.prepare() }
            return matrix
        }
        guard let password = settings.password else {
            throw CommandError("Matrix needs an access token or a password (see config/README.md).")
        }
        let key = "matrix.access.token \(settings.userID) \(settings.homeserver)"
        if let kept = try await store.setting(key), !kept.isEmpty {
            let matrix = transport(kept)
            do {
                try await connect("Matrix", logger: logger) { try await matrix.prepare() }
                return matrix
            } catch is CommandError {
                logger.notice("The homeserver no longer accepts the kept Matrix token; logging in again")
            }
        }
        let token = try await connect("Matrix", logger: logger) {
            try await MatrixTransport.logIn(
                homeserver: settings.homeserver, userID: settings.userID, password: password, client: client,
                logger: logger)
        }
        try await store.setSetting(key, token)
        let matrix = transport(token)
        try await connect("Matrix", logger: logger) { try await matrix.prepare() }
        return matrix
    }

    /// TESSERA_SECRET (or `secret` in the file), else the one kept in the database, else a new one kept there:
    /// the schedule must survive restarts.
    private func scheduleSecret(_ settings: RunSettings, store: any GameStore, logger: Logger) async throws
        -> ScheduleSecret
    {
        let key = "schedule.secret"
        let text: String
        if let configured = settings.scheduleSecret {
            text = configured
        } else if let kept = try await store.setting(key) {
            text = kept
        } else {
            // Kept only if no other process starting at the same time kept one first: all must draw the same words.
            let generated = SecretText.random()
            text = try await store.setting(key, keepingIfAbsent: generated)
            if text == generated { logger.notice("Generated a schedule secret and kept it in the database") }
        }
        guard let secret = ScheduleSecret(text) else {
            throw CommandError("The schedule secret is empty: set TESSERA_SECRET to a long random text, or unset it.")
        }
        return secret
    }
}
