import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on loopback that holds every chunk for `delay` before passing it on, each way: a database
/// `2 × delay` of round trip away. It counts the round trips it carries (``turns``): each time a connection's
/// client speaks again after the server answered, whatever build of Tessera is the client.
final class DelayingProxy: Sendable {
    let port: Int
    private let target: Int
    private let delay: Duration
    private let listener: Int32
    private let counted = Atomic<Int>(0)

    /// The round trips carried so far, over every connection.
    var turns: Int { counted.load(ordering: .relaxed) }

    init(forwardingTo target: Int, delay: Duration) throws {
        self.target = target
        self.delay = delay
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw ProxyError("cannot listen: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in accepting() }
    }

    struct ProxyError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func accepting() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            for socket in [client, server] {
                var one: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            // Who spoke last on this connection: the client speaking after the server is a new round trip.
            let clientSpokeLast = Atomic<Bool>(false)
            Thread.detachNewThread { [self] in
                pump(from: client, to: server) {
                    if !clientSpokeLast.exchange(true, ordering: .relaxed) { counted.add(1, ordering: .relaxed) }
                }
            }
            Thread.detachNewThread { [self] in
                pump(from: server, to: client) { clientSpokeLast.store(false, ordering: .relaxed) }
            }
        }
    }

    /// Passes what `source` sends on to `destination`, each chunk `delay` after it arrived.
    private func pump(from source: Int32, to destination: Int32, onChunk: () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            onChunk()
            if nanoseconds > 0 {
                var arrived = timespec()
                clock_gettime(CLOCK_MONOTONIC, &arrived)
                var due = arrived
                due.tv_nsec += Int(nanoseconds)
                while due.tv_nsec >= 1_000_000_000 {
                    due.tv_nsec -= 1_000_000_000
                    due.tv_sec += 1
                }
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
            }
            var sent = 0
            while sent < read {
                let wrote = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, read - sent, 0) }
                guard wrote > 0 else { break }
                sent += wrote
            }
        }
        shutdown(destination, Int32(SHUT_WR))
        close(source)
    }
}
