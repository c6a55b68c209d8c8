import ArgumentParser
import Foundation
import Logging
import TesseraConsole
import TesseraEngine
import TesseraMatrix
import TesseraRuntime
import TesseraSQLite
import TesseraTelegram

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether the bot on a database is alive: when each platform last polled and sent.",
        discussion: """
            Reads the heartbeats `tessera run` writes to its database every 30 seconds, one for each platform it \
            serves. Exits 0 when every heartbeat and last successful poll is recent (see --stale-after), 1 \
            otherwise: fit for a container health check or a monitoring probe.
            """
    )

    @OptionGroup var location: DatabaseLocation

    @Option(help: "Seconds after which a heartbeat or a poll is too old.")
    var staleAfter: Int = 120

    func run() async throws {
        let settings = try await location.resolved()
        let path = settings.databasePath
        guard DatabaseOpening.isPostgresURL(path) || FileManager.default.fileExists(atPath: path) else {
            throw CommandError("No database at \(path): tessera run has not used it yet. Is --database right?")
        }
        let (heartbeats, leaders) = try await Self.heartbeats(in: settings)
        // On SQLite, whether a process holds the database: one that is stopped or stuck still does.
        let holder = DatabaseOpening.isPostgresURL(path) ? nil : DatabaseLock.holder(ofDatabase: path)
        let now = Date()
        let limit = TimeInterval(staleAfter)
        var lines: [String] = []
        for heartbeat in heartbeats {
            let health = PlatformHealth(
                transport: heartbeat.transport, database: path, started: heartbeat.started,
                heartbeat: heartbeat.written, lastPoll: heartbeat.lastPoll, lastSend: heartbeat.lastSend, now: now,
                staleAfter: limit, heartbeatLimit: nil)
            // On PostgreSQL, the process that took the lead last (a standby takes over when it dies).
            let leader = leaders[heartbeat.transport].map { record -> String in
                let parts = record.components(separatedBy: " since ")
                let since = parts.count == 2 ? Double(parts[1]).map { Date(timeIntervalSince1970: $0) } : nil
                return
                    " Led by \(parts[0]) since \(since.map { PlatformHealth.age(now.timeIntervalSince($0)) } ?? "?") ago."
            }
            let line = health.line + (leader ?? "")
            let facts = health.facts + (leader ?? "")
            // Whether a process is there to poll, seen from outside it: on SQLite a running bot holds the
            // database's lock for its whole life, so without a holder a recent heartbeat is a bot that has just
            // ended; with one, a heartbeat too old is a process stopped or stuck.
            if !DatabaseOpening.isPostgresURL(path) && holder == nil {
                throw CommandError(
                    "Not running: no process holds the database. \(facts) \(Self.start(heartbeat.launcher))")
            }
            guard now.timeIntervalSince(heartbeat.written) <= limit else {
                if let holder {
                    let pid = Self.pid(in: holder).map { " (kill -CONT \($0) if it was stopped)" } ?? ""
                    throw CommandError(
                        "Running but stalled: \(holder) holds the database, but writes no heartbeat. \(facts) "
                            + "It is stopped or stuck\(pid): \(Self.restart(heartbeat.launcher))")
                }
                throw CommandError("Not running: \(facts) \(Self.start(heartbeat.launcher))")
            }
            guard health.verdict != .stalled else { throw CommandError(line) }
            lines.append(line)
        }
        // The listener is optional: the bot serves without it, so this is said, not a failure.
        let listener = heartbeats.compactMap(\.listener).first.map { "\nBut \($0)." } ?? ""
        print(lines.joined(separator: "\n") + listener)
    }

    /// Each platform's heartbeat and the leader it records, as the bot last wrote them to its database.
    static func heartbeats(in settings: RunSettings) async throws -> (
        heartbeats: [Heartbeat], leaders: [String: String]
    ) {
        let path = settings.databasePath
        var logger = Logger(label: "tessera")
        logger.logLevel = .error
        let keys = transports.flatMap { [LeaderRecord.settingKey(for: $0), Heartbeat.settingKey(for: $0)] }
        var stored: [String: String] = [:]
        if DatabaseOpening.isPostgresURL(path) {
            try await DatabaseOpening.withStore(settings, logger: logger, exclusive: false) { store, _ in
                for key in keys { stored[key] = try await store.setting(key) }
            }
        } else {
            // SQLite read-only: status never migrates the file nor changes its journal mode.
            do {
                stored = try SQLiteGameStore.readSettings(keys, at: path)
            } catch let error as SQLiteStoreError {
                throw CommandError(error.description)
            }
        }
        var heartbeats: [Heartbeat] = []
        var leaders: [String: String] = [:]
        for transport in transports {
            leaders[transport] = stored[LeaderRecord.settingKey(for: transport)]
            guard let text = stored[Heartbeat.settingKey(for: transport)] else { continue }
            do {
                heartbeats.append(try Heartbeat(decoding: text))
            } catch {
                throw CommandError(
                    "The \(transport) heartbeat in \(path) cannot be read (\(error)); run tessera run to write a "
                        + "new one.")
            }
        }
        guard !heartbeats.isEmpty else {
            throw CommandError("No heartbeat in \(path): tessera run has not run on it since it began writing one.")
        }
        return (heartbeats, leaders)
    }

    /// The process id in what a lock's holder wrote about itself (`pid 4242 on host, started …`).
    static func pid(in holder: String) -> Int? {
        guard holder.hasPrefix("pid ") else { return nil }
        return Int(holder.dropFirst(4).prefix { $0.isNumber })
    }

    /// The transports `tessera run` may serve, by the names their heartbeats are kept under.
    static let transports = [
        TelegramTransport.transportName, MatrixTransport.transportName, ConsoleTransport.transportName,
    ]
}

extension StatusCommand {
    /// What to do about a bot that is not running, for the way it was started.
    static func start(_ launcher: Heartbeat.Launcher?) -> String {
        switch launcher {
        case .terminal?:
            "It was the terminal chat: start it again with scripts/run (or .build/release/tessera run)."
        case .systemd?:
            "Start it (systemctl start tessera), or read its log (journalctl -u tessera) to see why it stopped."
        case .container?: "Start its container again (docker start or podman start), or read the container's log."
        case nil: "Start it again (tessera run), or read its log to see why it stopped."
        }
    }

    /// What to do about a bot that runs but is stuck, for the way it was started.
    static func restart(_ launcher: Heartbeat.Launcher?) -> String {
        switch launcher {
        case .terminal?: "press Ctrl-C in its terminal and start it again with scripts/run."
        case .systemd?: "restart it (systemctl restart tessera) and read its log (journalctl -u tessera)."
        case .container?: "restart its container (docker restart or podman restart) and read the container's log."
        case nil: "restart it (stop the process and run tessera run) and read its log."
        }
    }
}
