import CCurl
import Foundation
import Synchronization

/// An HTTP request.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: [UInt8]?
    /// The whole transfer's time limit; longer than any long poll it carries.
    public var timeout: Duration

    public init(
        method: String = "GET", url: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

extension HTTPRequest: CustomStringConvertible, CustomReflectable {
    // A URL's path may carry a secret (Telegram's bot token): descriptions show the origin only.
    public var description: String {
        let scheme = url.range(of: "://").map { url[..<$0.upperBound] } ?? ""
        let rest = url.dropFirst(scheme.count)
        return "HTTPRequest(\(method) \(scheme)\(rest.prefix { $0 != "/" })/…)"
    }
    public var customMirror: Mirror { Mirror(self, children: ["method": method]) }
}

/// An HTTP response: any status, with its headers and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// The final response's headers, by lowercase name (the last value of a repeated one).
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why no response arrived.
public enum HTTPClientError: Error, Equatable, CustomStringConvertible {
    case timedOut
    case cancelled
    /// Could not connect, or the connection broke (the message is libcurl's, without any URL secrets).
    case transfer(String)
    case responseTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .timedOut: "the request timed out"
        case .cancelled: "the request was cancelled"
        case .transfer(let message): message
        case .responseTooLarge(let limit): "the response was larger than \(limit) bytes"
        }
    }
}

/// An async HTTP client on libcurl.
///
/// Transfers block, so each runs on a lane of its own: a serial dispatch queue with a long-lived easy handle,
/// which keeps its connection alive between requests. They never run on the shared cooperative pool (two
/// threads here; one 50 s long poll would starve it). Cancelling the calling task aborts the transfer
/// through libcurl's progress callback. HTTPS uses the system's CA store.
public final class CurlHTTPClient: Sendable {
    /// Responses larger than this are refused rather than buffered.
    public static let maximumResponseSize = 32 * 1024 * 1024

    private let lanes = Mutex<[Lane]>([])

    public init() {
        _ = Self.globalSetup
    }

    /// curl_global_init is not thread-safe and must run once, before any handle exists. Ignoring SIGPIPE
    /// (with NOSIGNAL on every handle) keeps a dropped connection from killing the process.
    private static let globalSetup: Void = {
        signal(SIGPIPE, SIG_IGN)
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let lane = lanes.withLock { $0.popLast() } ?? Lane()
        defer { lanes.withLock { $0.append(lane) } }
        let transfer = Transfer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lane.queue.async {
                    continuation.resume(with: Result { try lane.perform(request, transfer) })
                }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
        }
    }
}

/// The state of one transfer that libcurl's callbacks reach through an unmanaged pointer.
private final class Transfer: Sendable {
    let cancelled = Atomic<Bool>(false)
    // Touched only on the lane's queue, inside curl_easy_perform.
    nonisolated(unsafe) var body: [UInt8] = []
    nonisolated(unsafe) var headers: [String: String] = [:]
    nonisolated(unsafe) var tooLarge = false
}

/// A serial queue and the easy handle only it uses.
private final class Lane: @unchecked Sendable {
    let queue = DispatchQueue(label: "tessera.http.lane")
    // Used only on `queue`.
    private let handle: UnsafeMutableRawPointer?

    init() {
        handle = curl_easy_init()
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
    }

    func perform(_ request: HTTPRequest, _ transfer: Transfer) throws -> HTTPResponse {
        guard let handle else { throw HTTPClientError.transfer("libcurl could not create a handle") }
        // Reset forgets the previous request's options but keeps the connection cache.
        curl_easy_reset(handle)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // Without this, libcurl sends "Expect: 100-continue" for larger bodies and waits for a reply.
        headerList = curl_slist_append(headerList, "Expect:")
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let milliseconds =
            Int(request.timeout.components.seconds) * 1000
            + Int(request.timeout.components.attoseconds / 1_000_000_000_000_000)
        var code = tessera_curl_set_string(handle, CURLOPT_URL, request.url)
        code = code == CURLE_OK ? tessera_curl_set_long(handle, CURLOPT_NOSIGNAL, 1) : code
        code = code == CURLE_OK ? tessera_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds) : code
        code =
            code == CURLE_OK
            ? tessera_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000)) : code
        code = code == CURLE_OK ? tessera_curl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1) : code
        code = code == CURLE_OK ? tessera_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method) : code
        code = code == CURLE_OK ? tessera_curl_set_headers(handle, headerList) : code
        code = code == CURLE_OK ? tessera_curl_set_write_callback(handle, writeCallback, context) : code
        code = code == CURLE_OK ? tessera_curl_set_header_callback(handle, headerCallback, context) : code
        code = code == CURLE_OK ? tessera_curl_set_progress_callback(handle, progressCallback, context) : code
        guard code == CURLE_OK else { throw HTTPClientError.transfer(String(cString: curl_easy_strerror(code))) }

        let result: CURLcode =
            if let body = request.body {
                body.withUnsafeBytes { bytes in
                    let set = tessera_curl_set_body(handle, bytes.baseAddress, bytes.count)
                    return set == CURLE_OK ? curl_easy_perform(handle) : set
                }
            } else {
                curl_easy_perform(handle)
            }
        switch result {
        case CURLE_OK:
            var status = 0
            _ = tessera_curl_response_code(handle, &status)
            return HTTPResponse(status: status, headers: transfer.headers, body: transfer.body)
        case CURLE_OPERATION_TIMEDOUT:
            throw HTTPClientError.timedOut
        case CURLE_ABORTED_BY_CALLBACK:
            throw HTTPClientError.cancelled
        case CURLE_WRITE_ERROR where transfer.tooLarge:
            throw HTTPClientError.responseTooLarge(limit: CurlHTTPClient.maximumResponseSize)
        default:
            throw HTTPClientError.transfer(String(cString: curl_easy_strerror(result)))
        }
    }
}

private let writeCallback: tessera_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if transfer.body.count + length > CurlHTTPClient.maximumResponseSize {
        transfer.tooLarge = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

/// Called once for each header line; a status line starts a new response (after a redirect or `100 Continue`).
private let headerCallback: tessera_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        transfer.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        transfer.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return length
}

/// Called often during a transfer; a non-zero return aborts it. That is how cancellation reaches libcurl.
private let progressCallback: tessera_curl_progress_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
}
