import Foundation

/// What `tessera play` keeps between runs: the schedule secret of this machine and every game's guesses.
struct SavedProgress: Codable, Equatable {
    static let currentVersion = 1

    struct SavedGame: Codable, Equatable {
        var hardMode: Bool
        var guesses: [String]
    }

    var version = Self.currentVersion
    var secret: String?
    /// Keyed by ``key(language:puzzle:secretFingerprint:)``.
    var games: [String: SavedGame] = [:]

    static func key(language: String, puzzle: Int, secretFingerprint: String) -> String {
        "\(language)/\(puzzle)/\(secretFingerprint)"
    }
}

/// Reads and writes the progress file: atomically, readable only by its owner (it holds the secret).
struct ProgressStore {
    let url: URL

    /// `$XDG_STATE_HOME/tessera/terminal.json`, else `~/.local/state/tessera/terminal.json`.
    static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let stateHome =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? ".").appendingPathComponent(".local/state")
        return stateHome.appendingPathComponent("tessera/terminal.json")
    }

    func load() throws -> SavedProgress {
        guard FileManager.default.fileExists(atPath: url.path) else { return SavedProgress() }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandError("Cannot read \(url.path): \(error.localizedDescription). Check its permissions.")
        }
        struct FormatVersion: Decodable { let version: Int }
        let progress: SavedProgress
        do {
            let format = try JSONDecoder().decode(FormatVersion.self, from: data)
            guard format.version <= SavedProgress.currentVersion else {
                throw CommandError(
                    "\(url.path) was written by a newer Tessera (format \(format.version)). Upgrade tessera to continue."
                )
            }
            progress = try JSONDecoder().decode(SavedProgress.self, from: data)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(
                "\(url.path) is not a Tessera progress file (\(error)). Move it aside or choose another with --state."
            )
        }
        return progress
    }

    func save(_ progress: SavedProgress) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            try encoder.encode(progress).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw CommandError("Cannot save progress to \(url.path): \(error.localizedDescription).")
        }
    }
}
