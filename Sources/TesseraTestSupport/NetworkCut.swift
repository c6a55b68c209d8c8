import Foundation

/// A network cut on loopback: every packet to or from one loopback address (``address``, 127.0.0.2) is dropped
/// by an nftables rule, both ways, while the rest of loopback works. A process that reaches a server through
/// that address loses it as over a real cut: nothing it sends arrives, nothing comes back, no connection is
/// reset, and only timeouts and keepalives can tell.
///
/// Needs root and `nft` (Debian's nftables, which `scripts/test` installs). The rules live in a table of their
/// own, removed by ``restore()`` and before each cut, so a test that crashed leaves nothing behind for long.
public enum NetworkCut {
    /// The loopback address a test sends the traffic to be cut through; servers that take it listen on it too.
    public static let address = "127.0.0.2"
    static let table = "tessera_network_cut"

    public struct Unavailable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String {
            "Cannot cut the network for the test (\(reason)). It needs root and nftables: scripts/test installs "
                + "them (apt-get install nftables)."
        }
    }

    /// Drops every packet to and from ``address``.
    public static func cut() throws {
        try restore()
        try nft(["add", "table", "inet", table])
        try nft(["add", "chain", "inet", table, "output", "{ type filter hook output priority 0; }"])
        try nft(["add", "rule", "inet", table, "output", "ip", "daddr", address, "drop"])
        try nft(["add", "rule", "inet", table, "output", "ip", "saddr", address, "drop"])
    }

    /// Lets packets through again.
    public static func restore() throws {
        do {
            try nft(["delete", "table", "inet", table])
        } catch let error as Unavailable where error.reason.contains("No such file or directory") {
            // No cut to restore.
        }
    }

    private static func nft(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nft")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Unavailable(reason: "nft cannot be run: \(error)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Unavailable(
                reason: "nft \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
