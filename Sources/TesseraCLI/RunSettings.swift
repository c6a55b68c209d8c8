import Configuration
import Foundation
import SystemPackage
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraMatrix

/// Everything `tessera run` is configured with, read in layers: command-line options over `TESSERA_*`
/// environment variables over a JSON file (`--config`, or `TESSERA_CONFIG`) over defaults.
///
/// Keys (environment names in brackets): `telegram.token` [TESSERA_TELEGRAM_TOKEN], `telegram.token.file`
/// [TESSERA_TELEGRAM_TOKEN_FILE], `telegram.api.url` [TESSERA_TELEGRAM_API_URL], `matrix.homeserver`,
/// `matrix.user`, `matrix.access.token` (`.file`), `matrix.password` (`.file`), `database` [TESSERA_DATABASE],
/// `database.password` (`.file`) [TESSERA_DATABASE_PASSWORD, PGPASSWORD],
/// `secret` [TESSERA_SECRET], `game.name`, `default.language`, `default.time.zone`, `default.rollover.hour`,
/// `log.level`, `log.format`, `telegram.rate.limits`, `matrix.rate.limits`, `telegram.poll.seconds`,
/// `metrics.listen`, `metrics.stale.after`, `practice.games.per.day`, `analysis.steps`,
/// `analysis.first.guess.steps`, `guesses.extra.file.en`, `guesses.extra.file.es`. `config/README.md` documents
/// each.
struct RunSettings {
    var telegramToken: String?
    var telegramAPIURL: String
    var matrix: MatrixSettings?
    /// With no platform configured, the bot is the terminal chat.
    var servesTerminalChat: Bool { telegramToken == nil && matrix == nil }
    /// An SQLite file's path, or a PostgreSQL URL (``DatabaseOpening``).
    var databasePath: String
    /// PostgreSQL's password: `database.password` [TESSERA_DATABASE_PASSWORD] or its `.file`, else PGPASSWORD.
    var databasePassword: String?
    var scheduleSecret: String?
    var gameName: String
    var defaultLanguage: Language
    var defaultTimeZone: String
    var defaultRolloverHour: Int
    /// How many practice and archive games a player may start in a day (`practice.games.per.day`).
    var practiceGamesPerDay: Int
    /// What one game's analysis may spend (`analysis.steps`, `analysis.first.guess.steps`).
    var analysisBudget: Solver.Budget
    /// Each language's extra allowed guesses, from the file `guesses.extra.file.LANGUAGE` names.
    var extraGuesses: [Language: [Word]]
    /// Whether the bot sends pictures where its platforms show them (`pictures`: on or off).
    var pictures: Bool
    var logLevel: String?
    /// `text` or `json` (`log.format` [TESSERA_LOG_FORMAT]); checked where the log is set up.
    var logFormat: String?
    /// The platforms whose outgoing limits are off (`telegram.rate.limits`, `matrix.rate.limits`): only for load
    /// tests against a fake API or a test homeserver.
    var unlimited: Set<Platform>
    /// For tests: a file holding the time as Unix seconds, read instead of the system clock.
    var clockFile: String?
    /// How long Telegram's long polls wait for updates (`telegram.poll.seconds`).
    var telegramPollSeconds: Int
    /// Where `/metrics` and `/healthz` are served (`metrics.listen`); nil: nowhere.
    var metricsListen: ListenAddress?
    /// How long a platform may go without a poll coming back before `/healthz` calls it stalled.
    var staleAfter: Int
    /// What the log should say of the settings: platforms configured without credentials, each skipped with
    /// what to give; deprecated settings, with what to set instead.
    var warnings: [String] = []

    static let defaultTelegramAPIURL = "https://api.telegram.org"

    static func load(
        commandLine: [String: String],
        configFile: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> RunSettings {
        let config = try await reader(commandLine: commandLine, configFile: configFile, environment: environment)
        let token = try secret("telegram.token", in: config, what: "Telegram token")
        let (language, zone) = try defaults(config)
        let apiURL = try telegramAPIURL(config)
        let pollSeconds = try whole(
            "telegram.poll.seconds", in: config, default: 50, 1...50, "a whole number of seconds from 1 to 50")
        var warnings: [String] = []
        let unlimited = try unlimitedPlatforms(config, warnings: &warnings)
        let listen = try metricsListen(config)
        let matrix = try MatrixSettings(config, warnings: &warnings)
        // The longest a quiet poll may take: Telegram's or Matrix's, and libcurl's margin past it.
        let longestPoll =
            max(token == nil ? 0 : pollSeconds, matrix == nil ? 0 : MatrixTransport.Configuration.defaultPollSeconds)
            + PollingTimes.pollMargin
        let staleAfter = try whole(
            "metrics.stale.after", in: config, default: 120, (longestPoll + 1)...Int.max,
            "a whole number of seconds over \(longestPoll) (the longest a quiet poll takes)",
            because: "a shorter one would call a quiet platform stalled")
        if token == nil, config.string(forKey: "telegram.api.url") != nil {
            warnings.append(
                "Telegram is configured (telegram.api.url) but has no token, so it is skipped: give the token from "
                    + "@BotFather in TESSERA_TELEGRAM_TOKEN_FILE or telegram.token.file (config/README.md).")
        }
        return RunSettings(
            telegramToken: token,
            telegramAPIURL: apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL,
            matrix: matrix,
            databasePath: config.string(forKey: "database") ?? defaultDatabasePath(environment),
            databasePassword: try secret("database.password", in: config, what: "database password")
                ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 },
            scheduleSecret: try SecretText.checked(
                config.string(forKey: "secret", isSecret: true).flatMap { $0.isEmpty ? nil : $0 },
                from: "TESSERA_SECRET (or secret in the configuration file)"),
            gameName: config.string(forKey: "game.name", default: "Tessera"),
            defaultLanguage: language,
            defaultTimeZone: zone,
            defaultRolloverHour: try whole(
                "default.rollover.hour", in: config, default: 0, 0...23, "a whole hour from 0 to 23"),
            practiceGamesPerDay: try whole(
                "practice.games.per.day", in: config, default: 50, 0...10_000,
                "a whole number from 0 (no practice games) to 10000"),
            analysisBudget: try analysisBudget(config),
            extraGuesses: try extraGuesses(config),
            pictures: try onOff("pictures", in: config, default: true),
            logLevel: config.string(forKey: "log.level"),
            logFormat: config.string(forKey: "log.format"),
            unlimited: unlimited,
            clockFile: config.string(forKey: "clock.file").flatMap { $0.isEmpty ? nil : $0 },
            telegramPollSeconds: pollSeconds,
            metricsListen: listen,
            staleAfter: staleAfter,
            warnings: warnings
        )
    }

    /// New players' and groups' language and time zone.
    private static func defaults(_ config: ConfigReader) throws -> (Language, String) {
        let languageCode = config.string(forKey: "default.language", default: Language.english.rawValue)
        guard let language = Language(rawValue: languageCode.lowercased()) else {
            let known = Language.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandError("default.language '\(languageCode)' is not one of \(known).")
        }
        let zone = config.string(forKey: "default.time.zone", default: "UTC")
        guard TimeZone(identifier: zone) != nil else {
            throw CommandError("default.time.zone '\(zone)' is not an IANA time zone such as Europe/Madrid.")
        }
        return (language, zone)
    }

    /// The Bot API server, checked to be an http(s) URL.
    private static func telegramAPIURL(_ config: ConfigReader) throws -> String {
        let apiURL = config.string(forKey: "telegram.api.url", default: defaultTelegramAPIURL)
        guard let url = URL(string: apiURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw CommandError("telegram.api.url '\(apiURL)' is not an http(s) URL such as \(defaultTelegramAPIURL).")
        }
        return apiURL
    }

    /// Where the operator's listener listens, if anywhere.
    private static func metricsListen(_ config: ConfigReader) throws -> ListenAddress? {
        try config.string(forKey: "metrics.listen").flatMap { $0.isEmpty ? nil : $0 }.map { text in
            guard let address = ListenAddress(text) else {
                throw CommandError(
                    "metrics.listen '\(text)' is not HOST:PORT, such as 127.0.0.1:9464 or [::1]:9464 "
                        + "(TESSERA_METRICS_LISTEN).")
            }
            return address
        }
    }

    /// The settings in order of precedence: the command line, then `TESSERA_*` variables, then the file.
    private static func reader(commandLine: [String: String], configFile: String?, environment: [String: String])
        async throws -> ConfigReader
    {
        var providers: [any ConfigProvider] = [
            InMemoryProvider(
                name: "command line",
                values: Dictionary(
                    uniqueKeysWithValues: commandLine.map { key, value in
                        (
                            AbsoluteConfigKey(key.split(separator: ".").map(String.init)),
                            ConfigValue(.string(value), isSecret: false)
                        )
                    }
                )
            ),
            EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .specific([
                    "TESSERA_TELEGRAM_TOKEN", "TESSERA_SECRET", "TESSERA_MATRIX_ACCESS_TOKEN",
                    "TESSERA_MATRIX_PASSWORD", "TESSERA_DATABASE_PASSWORD",
                ])
            ).prefixKeys(with: "tessera"),
        ]
        if let path = configFile ?? environment["TESSERA_CONFIG"] {
            let text = try readFile(path, what: "configuration file", hint: "Check --config or TESSERA_CONFIG.")
            try ConfigurationFile.check(text, path: path)
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
            } catch {
                throw CommandError(
                    "The configuration file \(path) cannot be used: \(error). See config/tessera.example.json.")
            }
        }
        return ConfigReader(providers: providers)
    }

    /// A whole-number setting, or its default; out of `allowed`, an error that says what it takes
    /// ("… must be \(takes), not '…'", and why when `because` says).
    static func whole(
        _ key: String, in config: ConfigReader, default value: Int, _ allowed: ClosedRange<Int>, _ takes: String,
        because: String? = nil
    ) throws -> Int {
        let text = number(ConfigKey(key), in: config) ?? String(value)
        guard let number = Int(text), allowed.contains(number) else {
            throw CommandError(
                "\(key) must be \(takes), not '\(text)'" + (because.map { ": \($0)." } ?? "."))
        }
        return number
    }

    /// A switch written `on` or `off`.
    private static func onOff(_ key: ConfigKey, in config: ConfigReader, default: Bool) throws -> Bool {
        switch config.string(forKey: key)?.lowercased() {
        case nil: `default`
        case "on": true
        case "off": false
        case let other?: throw CommandError("\(key) must be on or off, not '\(other)'.")
        }
    }

    /// The platforms whose rate limits are off (`telegram.rate.limits`, `matrix.rate.limits`: on or off).
    private static func unlimitedPlatforms(_ config: ConfigReader, warnings: inout [String]) throws -> Set<Platform> {
        var unlimited: Set<Platform> = []
        let keys: [(Platform, ConfigKey)] = [(.telegram, "telegram.rate.limits"), (.matrix, "matrix.rate.limits")]
        for (platform, key) in keys where try !onOff(key, in: config, default: true) {
            unlimited.insert(platform)
        }
        if unlimited.contains(.telegram), config.string(forKey: "matrix.rate.limits") == nil,
            config.string(forKey: "matrix.homeserver") != nil
        {
            // It used to govern every platform: read so still, for now.
            unlimited.insert(.matrix)
            warnings.append(
                "telegram.rate.limits = off turns Matrix's limits off too, as it used to; that is deprecated and "
                    + "will govern Telegram alone: set matrix.rate.limits = off (TESSERA_MATRIX_RATE_LIMITS) for Matrix."
            )
        }
        return unlimited
    }

    /// The analysis's search budget (`analysis.steps`, `analysis.first.guess.steps`).
    private static func analysisBudget(_ config: ConfigReader) throws -> Solver.Budget {
        let standard = Solver.Budget.standard
        let steps = try whole(
            "analysis.steps", in: config, default: standard.steps, 1_000_000...Int.max,
            "a whole number of steps, at least 1000000 (the default is \(standard.steps))")
        let firstSteps = try whole(
            "analysis.first.guess.steps", in: config, default: standard.firstGuessSteps, steps...Int.max,
            "a whole number of steps, at least analysis.steps (\(steps))")
        return Solver.Budget(steps: steps, firstGuessSteps: firstSteps)
    }

    /// Each language's extra guesses file (`guesses.extra.file.en`, `.es`), read and checked.
    private static func extraGuesses(_ config: ConfigReader) throws -> [Language: [Word]] {
        var extraGuesses: [Language: [Word]] = [:]
        for language in Language.allCases {
            let key = "guesses.extra.file.\(language.rawValue)"
            guard let path = config.string(forKey: ConfigKey(key)), !path.isEmpty else { continue }
            extraGuesses[language] = try Self.extraGuesses(
                try readFile(path, what: "extra guesses file", hint: "Check \(key)."), path: path, language: language)
        }
        return extraGuesses
    }

    /// The words of an extra guesses file, or an error naming the first line that is not a word of the language.
    static func extraGuesses(_ text: String, path: String, language: Language) throws -> [Word] {
        let list = language.wordList
        switch list.extraGuesses(from: text) {
        case .success(let words): return words
        case .failure(let error):
            throw CommandError(
                "The extra guesses file \(path), line \(error.line): '\(error.text)' is not a word of "
                    + "\(list.wordLength) letters of the \(language.rawValue) alphabet (\(error.rejection)). Write one "
                    + "word a line; lines starting with # are comments.")
        }
    }

    /// A number setting as text, written as a JSON number in the file (`"hour": 6`) or as text (`"6"`, and
    /// always in the environment): read as text alone, a JSON number would be passed over for the default.
    static func number(_ key: ConfigKey, in config: ConfigReader) -> String? {
        config.string(forKey: key) ?? config.int(forKey: key).map(String.init)
            ?? config.double(forKey: key).map { String($0) }
    }

    /// The text of a file the operator named, or an error that says why it cannot be had: it does not exist, or
    /// the user tessera runs as (a service's dynamic user, say) may not read it or its directory.
    static func readFile(_ path: String, what: String, hint: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            var status = stat()
            let found = stat(path, &status) == 0
            let cause = found ? (access(path, R_OK) == 0 ? 0 : errno) : errno
            switch cause {
            case ENOENT, ENOTDIR:
                throw CommandError("The \(what) \(path) does not exist. \(hint)")
            case EACCES, EPERM:
                throw CommandError(
                    "Permission denied: the \(what) \(path) cannot be read by \(currentUser()). Make it readable by "
                        + "that user (the file, and every directory above it), or run tessera as a user who may read it."
                )
            case 0:
                throw CommandError("The \(what) \(path) is not UTF-8 text.")
            default:
                throw CommandError("The \(what) \(path) cannot be read: \(String(cString: strerror(cause))).")
            }
        }
    }

    /// The user this process runs as, by name where the system has one: `tessera (uid 61234)`.
    static func currentUser() -> String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "user id \(uid)" }
        return "user \(String(cString: name)) (uid \(uid))"
    }

    /// A secret from `key`, or from the file named by `key.file` (systemd credentials, container secrets); nil
    /// when neither is set or the value is empty. A file that is named but empty is an error: it is a secret
    /// someone meant to give and did not (an unfilled credential), not a choice to go without.
    static func secret(_ key: String, in config: ConfigReader, what: String) throws -> String? {
        if let value = config.string(forKey: ConfigKey(key), isSecret: true) { return value.isEmpty ? nil : value }
        guard let file = config.string(forKey: ConfigKey(key + ".file")) else { return nil }
        let value = try readFile(file, what: "\(what) file", hint: "Check \(key).file.")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else {
            throw CommandError(
                "The \(what) file \(file) is empty: write the \(what) into it, or stop naming the file in "
                    + "\(key).file.")
        }
        return value
    }

    /// `$STATE_DIRECTORY` (systemd's StateDirectory=), else `$XDG_STATE_HOME/tessera`, else
    /// `~/.local/state/tessera`.
    static func defaultDatabasePath(_ environment: [String: String]) -> String {
        if let directory = environment["STATE_DIRECTORY"], !directory.isEmpty {
            return directory + "/tessera.sqlite"
        }
        let stateHome =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? ".") + "/.local/state")
        return stateHome + "/tessera/tessera.sqlite"
    }
}

/// The time from a file (Unix seconds), so tests can move the bot's day forward; it falls back to the system
/// clock while the file cannot be read.
struct FileClock: Sendable {
    let path: String
    /// How often the days are checked on a file's time, instead of every 5 s: a test moves it by hours at once.
    static let checkInterval = Duration.milliseconds(200)

    func now() -> Date {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return Date() }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension RunSettings: CustomStringConvertible, CustomReflectable {
    // The token and the schedule secret are never described, logged or dumped.
    var description: String {
        "RunSettings(telegram: \(telegramToken == nil ? "off" : "on"), matrix: \(matrix == nil ? "off" : "on"), "
            + "database: \(databasePath))"
    }
    var customMirror: Mirror { Mirror(self, children: ["databasePath": databasePath]) }
}

/// The Matrix account the bot uses: `matrix.homeserver`, `matrix.user`, and `matrix.access.token` or
/// `matrix.password` (each also from a `.file`).
struct MatrixSettings {
    var homeserver: String
    var userID: String
    var accessToken: String?
    /// Logs in once; the device's token is kept in the database.
    var password: String?

    /// Nil when no Matrix key is set, or when no credential is (skipped, with a line in `warnings`); an error that
    /// says what is wrong when the homeserver or the user is.
    init?(_ config: ConfigReader, warnings: inout [String]) throws {
        let homeserver = config.string(forKey: "matrix.homeserver")
        let user = config.string(forKey: "matrix.user")
        let token = try RunSettings.secret("matrix.access.token", in: config, what: "Matrix access token")
        let password = try RunSettings.secret("matrix.password", in: config, what: "Matrix password")
        guard homeserver != nil || user != nil || token != nil || password != nil else { return nil }
        guard let homeserver, let url = URL(string: homeserver), url.scheme == "http" || url.scheme == "https",
            url.host != nil
        else {
            throw CommandError(
                "matrix.homeserver (TESSERA_MATRIX_HOMESERVER) must be the homeserver's http(s) URL, such as "
                    + "https://matrix.example.org, not '\(homeserver ?? "")'.")
        }
        guard let user, user.hasPrefix("@"), user.dropFirst().contains(":") else {
            throw CommandError(
                "matrix.user (TESSERA_MATRIX_USER) must be the bot's full user id, such as @tessera:example.org, "
                    + "not '\(user ?? "")'.")
        }
        guard token != nil || password != nil else {
            warnings.append(
                "Matrix is configured (\(user) on \(homeserver)) but has no access token or password, so it is "
                    + "skipped: give TESSERA_MATRIX_ACCESS_TOKEN_FILE, or TESSERA_MATRIX_PASSWORD_FILE to log in once "
                    + "and keep the token in the database.")
            return nil
        }
        self.homeserver = homeserver.hasSuffix("/") ? String(homeserver.dropLast()) : homeserver
        self.userID = user
        self.accessToken = token
        self.password = password
    }
}
