import ArgumentParser
import Foundation
import TesseraSQLite

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database, while the bot runs, into a file: checked, owner-only, complete or absent.",
        discussion: """
            Uses SQLite's online backup API: the copy is everything committed when it began, and the bot goes on \
            answering meanwhile. It is written beside PATH first, checked with PRAGMA integrity_check, made \
            readable by its owner only, and renamed to PATH (replacing a file there). For PostgreSQL, use pg_dump \
            (docs/operating.md, "Backups").
            """
    )

    @Argument(help: "The file to write the copy to.")
    var path: String

    @OptionGroup var location: DatabaseLocation

    func run() async throws {
        let source = try await location.sqlitePath(toBe: "backup")
        let started = ContinuousClock.now
        let copied: SQLiteBackup.Copied
        do {
            copied = try SQLiteBackup.backup(database: source, to: path)
        } catch let failure as SQLiteBackup.Failure {
            throw CommandError(failure.description)
        }
        let took = started.duration(to: .now)
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        print(
            "Backed up \(source) to \(path) in \(String(format: "%.2f", seconds)) s: "
                + "\(Self.size(copied.bytes)), \(copied.players) players, \(copied.games) games; integrity_check ok.")
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1_048_576
            ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.0f kB", Double(bytes) / 1_024)
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of the SQLite database, with the bot stopped; the old one is kept.",
        discussion: """
            Refused while tessera run holds the database. The backup gets the same checks as tessera backup's \
            copies (integrity_check, a Tessera database no newer than this tessera); the database it replaces is \
            kept beside it as DATABASE.before-restore-TIME.
            """
    )

    @Argument(help: "The backup to restore, a file tessera backup made.")
    var path: String

    @OptionGroup var location: DatabaseLocation

    func run() async throws {
        let target = try await location.sqlitePath(toBe: "restore")
        let restored: (copied: SQLiteBackup.Copied, replacedKeptAt: String?)
        do {
            restored = try SQLiteBackup.restore(from: path, to: target, at: Date())
        } catch let failure as SQLiteBackup.Failure {
            throw CommandError(failure.description)
        }
        let copied = restored.copied
        print(
            "Restored \(target) from \(path): \(BackupCommand.size(copied.bytes)), \(copied.players) players, "
                + "\(copied.games) games; integrity_check ok."
                + (restored.replacedKeptAt.map { " The database it replaced is kept at \($0)." } ?? "")
                + " Start tessera again (systemctl start tessera).")
    }
}
