import Foundation

/// An exclusive lock on a database for as long as it lives: two bots on one database would each apply every
/// update. It is an advisory `flock` on `<database>.lock`, which the kernel releases when the process ends,
/// however it ends; the file names the process that holds it.
public final class DatabaseLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or throws ``SQLiteStoreError/inUse(path:holder:)`` naming the process that holds it.
    public init(databasePath: String) throws {
        let lockPath = databasePath + ".lock"
        let descriptor: Int32
        do {
            descriptor = try OwnerOnlyFile.open(lockPath)
        } catch {
            throw SQLiteStoreError.cannotOpen(path: lockPath, underlying: error)
        }
        let code = Self.take(descriptor)
        guard code == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK {
                throw SQLiteStoreError.inUse(path: databasePath, holder: holder)
            }
            throw SQLiteStoreError.cannotOpen(
                path: lockPath, underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
        let start = Date().formatted(.iso8601)
        let note = "pid \(getpid()) on \(ProcessInfo.processInfo.hostName), started \(start)\n"
        // Who holds it is advice for a second process; the lock itself is the flock.
        if ftruncate(descriptor, 0) == 0 {
            _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// How long a lock found held is tried again before it is called in use. A lock let go stays held for a
    /// moment when another thread of the process that held it is starting a child: the child holds a copy of
    /// every descriptor until it execs, when `O_CLOEXEC` closes them (a few milliseconds here, more on a busy
    /// machine). A bot that really holds it holds it for longer.
    static let grace = Duration.seconds(1)

    /// Takes the exclusive lock on `descriptor` within ``grace``: 0, or the `errno` of the last try.
    private static func take(_ descriptor: Int32) -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now + grace
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return 0 }
            let code = errno
            guard code == EWOULDBLOCK, clock.now < deadline else { return code }
            usleep(5_000)
        }
    }

    /// What the process holding a database's lock wrote about itself (`pid 4242 on host, started …`), or nil
    /// when no process holds it: for `tessera status`, which must not take it. A holder that was stopped
    /// (`kill -STOP`) still holds it.
    public static func holder(ofDatabase databasePath: String) -> String? {
        let descriptor = open(databasePath + ".lock", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK else { return nil }
        return holder(descriptor)
    }

    /// What the holder wrote about itself, if it could be read.
    private static func holder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return "another process" }
        return String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
