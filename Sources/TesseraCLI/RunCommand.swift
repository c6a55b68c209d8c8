import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraSQLite
import TesseraTelegram
import UnixSignals

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the bot: Telegram with a token, otherwise a chat in this terminal.",
        discussion: """
            Settings come from options, then TESSERA_* environment variables, then the JSON file given with \
            --config (or TESSERA_CONFIG), then defaults; config/tessera.example.json lists them all. The bot \
            token is read only from TESSERA_TELEGRAM_TOKEN or the file named by TESSERA_TELEGRAM_TOKEN_FILE, \
            never from the command line, and never logged.

            SIGTERM or SIGINT stop it gracefully: polling stops, the batch in hand is finished, the outbox is \
            drained and the database closed.
            """
    )

    @Option(help: "JSON configuration file (see config/tessera.example.json).")
    var config: String?

    @Option(
        help: "SQLite database file (default: $STATE_DIRECTORY, $XDG_STATE_HOME/tessera or ~/.local/state/tessera).")
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

        let levelName = settings.logLevel ?? (settings.telegramToken == nil ? "warning" : "info")
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

        let store: SQLiteGameStore
        let lock: DatabaseLock
        do {
            // Held until run() returns: one bot per database.
            lock = try DatabaseLock(databasePath: settings.databasePath)
            store = try SQLiteGameStore(path: settings.databasePath, logger: logger)
        } catch let error as SQLiteStoreError {
            throw CommandError(error.description)
        }
        defer { withExtendedLifetime(lock) {} }
        var engineConfiguration = BotEngine.Configuration()
        engineConfiguration.gameName = settings.gameName
        engineConfiguration.defaultLanguage = settings.defaultLanguage
        engineConfiguration.defaultTimeZone = settings.defaultTimeZone
        engineConfiguration.defaultRolloverHour = settings.defaultRolloverHour

        let shutdown = Mutex<ServiceGroup?>(nil)
        let transport: any ChatTransport
        if let token = settings.telegramToken {
            let telegram = TelegramTransport(
                configuration: TelegramTransport.Configuration(token: token, apiURL: settings.telegramAPIURL),
                client: CurlHTTPClient(),
                logger: logger
            )
            try await Self.prepare(
                telegram, menus: BotEngine.commandMenus(defaultLanguage: settings.defaultLanguage), logger: logger)
            transport = telegram
        } else {
            print(ConsoleTransport.help + "\n")
            transport = ConsoleTransport(
                onEnd: {
                    let group = shutdown.withLock { $0 }
                    Task { await group?.triggerGracefulShutdown() }
                },
                write: { text in
                    print(text, terminator: "")
                    fflush(nil)
                }
            )
        }
        // The engine adapts to what the platform can do.
        engineConfiguration.platform = transport.traits
        let engine = BotEngine(
            configuration: engineConfiguration,
            secret: try await scheduleSecret(settings, store: store, logger: logger),
            logger: logger
        )
        var serviceConfiguration = BotService<ContinuousClock>.Configuration()
        if !settings.rateLimits {
            logger.warning("Outgoing rate limits are off (telegram.rate.limits = off): only for load tests")
            serviceConfiguration.rateLimits = .unlimited
        }
        var now: @Sendable () -> Date = { Date() }
        if let path = settings.clockFile {
            logger.warning("Reading the time from a file (clock.file): only for tests", metadata: ["path": "\(path)"])
            now = FileClock(path: path).now
        }
        let service = BotService(
            transport: transport,
            store: store,
            engine: engine,
            configuration: serviceConfiguration,
            clock: ContinuousClock(),
            now: now,
            jitter: { Double.random(in: 0...1) },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [service],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        shutdown.withLock { $0 = group }
        do {
            try await group.run()
        } catch let error as TransportError {
            throw CommandError(error.description)
        }
    }

    /// Connects to Telegram, retrying with backoff while the network or the API is down; a refused token
    /// ends the run with a message that says so.
    private static func prepare(_ telegram: TelegramTransport, menus: [CommandMenu], logger: Logger) async throws {
        var delay = Duration.seconds(1)
        while true {
            do {
                try await telegram.prepare(commandMenus: menus)
                return
            } catch TransportError.fatal(let reason) {
                throw CommandError(reason)
            } catch let error as TransportError {
                logger.warning(
                    "Cannot reach Telegram yet; retrying", metadata: ["error": "\(error)", "retry.after": "\(delay)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
        }
    }

    /// TESSERA_SECRET (or `secret` in the file), else the one kept in the database, else a new one kept there:
    /// the schedule must survive restarts.
    private func scheduleSecret(_ settings: RunSettings, store: SQLiteGameStore, logger: Logger) async throws
        -> ScheduleSecret
    {
        let key = "schedule.secret"
        let text: String
        if let configured = settings.scheduleSecret {
            text = configured
        } else if let kept = try await store.setting(key), !kept.isEmpty {
            text = kept
        } else {
            text = SecretText.random()
            try await store.setSetting(key, text)
            logger.notice("Generated a schedule secret and kept it in the database")
        }
        guard let secret = ScheduleSecret(text) else {
            throw CommandError("The schedule secret is empty: set TESSERA_SECRET to a long random text, or unset it.")
        }
        return secret
    }
}
