import Foundation

/// Files the bot keeps (the database, its lock) are created readable by their owner only: the folders
/// leading to them 0700, the file 0600. An existing file keeps its mode.
enum OwnerOnlyFile {
    /// Opens a file for reading and writing, creating it and its folders owner-only when missing; returns its
    /// descriptor, which the caller closes. The caller says which file failed: errors carry only the cause.
    static func open(_ path: String) throws -> Int32 {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }
}
