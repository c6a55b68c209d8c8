import Foundation
import Logging
import ServiceLifecycle
import TesseraConsole
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraMatrix
import TesseraRuntime
import TesseraTelegram

/// The first service of the bot's group after the store's: prepares the store, reads the schedule secret,
/// connects to every configured platform (or opens the terminal chat), and adds the bot's services to the group.
/// It runs inside the group so that a SIGTERM while a platform cannot be reached yet ends it like any other.
struct BotStartup: Service, CustomStringConvertible {
    let settings: RunSettings
    let opened: DatabaseOpening.OpenedStore
    let runtime: BotRuntime
    let group: ServiceGroup
    let logger: Logger

    var description: String { "BotStartup" }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await start() }
        } catch is CancellationError {
            // Shut down before the bot started: nothing to finish.
        }
    }

    private func start() async throws {
        let store = opened.store
        try await opened.prepare()
        var engineConfiguration = EngineConfiguration()
        engineConfiguration.gameName = settings.gameName
        engineConfiguration.defaultLanguage = settings.defaultLanguage
        engineConfiguration.defaultTimeZone = settings.defaultTimeZone
        engineConfiguration.defaultRolloverHour = settings.defaultRolloverHour
        engineConfiguration.practiceGamesPerDay = settings.practiceGamesPerDay
        engineConfiguration.analysisBudget = settings.analysisBudget
        engineConfiguration.extraGuesses = settings.extraGuesses

        var transports: [any ChatTransport] = []
        var console: ConsoleTransport?
        if let token = settings.telegramToken {
            let telegram = TelegramTransport(
                configuration: TelegramTransport.Configuration(
                    token: token, apiURL: settings.telegramAPIURL, pollSeconds: settings.telegramPollSeconds),
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
        if settings.servesTerminalChat {
            // Straight to standard output, unbuffered, whatever it is: flushing every stdio stream (fflush(nil))
            // waited for the lock of standard input, held while the reader waits for the next line, so a reply
            // showed only after the next line was typed.
            let write: @Sendable (String) -> Void = { text in FileHandle.standardOutput.write(Data(text.utf8)) }
            write(ConsoleTransport.help + "\n\n")
            console = ConsoleTransport(write: write, pictures: Self.picturesFolder(beside: settings.databasePath))
            transports.append(console!)
        }
        let secret = try await scheduleSecret(store: store)
        // Each platform with its own services on one store; each engine adapts to what its platform can do.
        let platforms = transports.map { transport in
            var configuration = engineConfiguration
            configuration.platform = transport.traits
            // An operator who turned pictures off (`pictures = off`): every platform sends the text alone.
            if !settings.pictures { configuration.platform.pictures = false }
            return (transport, BotEngine(configuration: configuration, secret: secret, logger: logger))
        }
        var services = runtime.services(platforms: platforms)
        // The terminal chat's end (Ctrl-D) shuts the bot down.
        if let console {
            services.append(.init(service: console, successTerminationBehavior: .gracefullyShutdownGroup))
        }
        for service in services { await group.addServiceUnlessShutdown(service) }
    }

    /// Connects to a platform, retrying with backoff while the network or the server is down; a refused token
    /// ends the run with a message that says so.
    @discardableResult
    private static func connect<Result>(
        _ platform: String, logger: Logger, _ body: () async throws -> Result
    ) async throws -> Result {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        while true {
            do {
                return try await body()
            } catch TransportError.fatal(let reason) {
                throw CommandError(reason)
            } catch let error as TransportError {
                let first = backoff.failures == 0
                let delay = backoff.next()
                let metadata: Logger.Metadata = ["error": "\(error)", "retry.after": "\(delay)"]
                if first {
                    logger.warning("Cannot reach \(platform) yet; retrying until it works", metadata: metadata)
                } else {
                    logger.debug("Cannot reach \(platform) yet", metadata: metadata)
                }
                try await Task.sleep(for: delay)
            }
        }
    }

    /// Where the terminal chat writes its pictures: `pictures` beside an SQLite database, or in the working
    /// directory when the database is PostgreSQL's.
    static func picturesFolder(beside database: String) -> URL {
        guard !DatabaseOpening.isPostgresURL(database) else {
            return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("pictures")
        }
        return URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("pictures")
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
    private func scheduleSecret(store: any GameStore) async throws -> ScheduleSecret {
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
