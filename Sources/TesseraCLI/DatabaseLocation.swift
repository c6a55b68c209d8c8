import ArgumentParser
import Foundation

/// Where `tessera backup`, `tessera restore` and `tessera status` find the database: the one the bot they are
/// about uses. Named (`--database`, `--config`, their environment variables) or inside the service (systemd's
/// `STATE_DIRECTORY`), it is found as `tessera run` finds it. From a shell on a machine where `deploy/install`
/// installed the service, it is the service's database, found as the unit finds it (its configuration file and
/// its state directory); when this shell would find another database that exists, nothing is guessed.
struct DatabaseLocation: ParsableArguments {
    @Option(help: "JSON configuration file, for the database (see config/tessera.example.json).")
    var config: String?

    @Option(help: "SQLite database file or PostgreSQL URL (default: the service's, or as for tessera run).")
    var database: String?

    /// What `deploy/install` installs: the unit's configuration file and its state directory.
    struct Service {
        var configuration = "/etc/tessera/tessera.json"
        var stateDirectory = "/var/lib/tessera"
    }

    /// The settings naming the database, and a note when the database was found as the service's.
    func settings(
        environment: [String: String] = ProcessInfo.processInfo.environment, service: Service = Service()
    ) async throws -> (settings: RunSettings, note: String?) {
        var commandLine: [String: String] = [:]
        commandLine["database"] = database
        let named = ["TESSERA_CONFIG", "TESSERA_DATABASE", "STATE_DIRECTORY"].contains {
            !(environment[$0] ?? "").isEmpty
        }
        guard database == nil, config == nil, !named, FileManager.default.fileExists(atPath: service.configuration)
        else {
            return (
                try await RunSettings.load(commandLine: commandLine, configFile: config, environment: environment), nil
            )
        }
        var serviceEnvironment = environment
        serviceEnvironment["STATE_DIRECTORY"] = service.stateDirectory
        let serviceSettings = try await RunSettings.load(
            commandLine: [:], configFile: service.configuration, environment: serviceEnvironment)
        let shells = RunSettings.defaultDatabasePath(environment)
        if shells != serviceSettings.databasePath && FileManager.default.fileExists(atPath: shells) {
            throw CommandError(
                "Two databases could be meant: the service's, \(serviceSettings.databasePath) (as "
                    + "\(service.configuration) and the unit say), and this shell's own, \(shells). Name one: "
                    + "--database \(serviceSettings.databasePath) for the service's, or --database \(shells).")
        }
        return (
            serviceSettings,
            "The service's database, \(serviceSettings.databasePath) (as \(service.configuration) and the unit say)."
        )
    }

    /// The settings, saying on standard error when the database was found as the service's: standard output
    /// stays the command's own (status's first line is its verdict).
    func resolved() async throws -> RunSettings {
        let (settings, note) = try await settings()
        if let note { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        return settings
    }

    /// The SQLite database the settings name; a PostgreSQL one is refused with where to look instead.
    func sqlitePath(toBe command: String) async throws -> String {
        let settings = try await resolved()
        guard !DatabaseOpening.isPostgresURL(settings.databasePath) else {
            let verb = command == "backup" ? "back up" : "restore"
            throw CommandError(
                "tessera \(command) is for SQLite; to \(verb) PostgreSQL use pg_dump and pg_restore (docs/operating.md, "
                    + "\"Backups\").")
        }
        return settings.databasePath
    }
}
