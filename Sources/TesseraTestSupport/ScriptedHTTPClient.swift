import Synchronization
public import TesseraHTTP

/// An HTTP client a test scripts, for a transport's tests without a server: each request is answered by the
/// latest rule whose method and URL part match, and recorded; an unscripted request gets a 404.
public final class ScriptedHTTPClient: HTTPClient {
    private struct Rule {
        let method: String
        let urlContains: String
        let response: HTTPResponse
    }
    private let state = Mutex<(rules: [Rule], requests: [HTTPRequest])>(([], []))

    public init() {}

    /// Answers requests of `method` whose URL contains `urlContains` with `status` and the JSON text `json`.
    public func answer(_ method: String, _ urlContains: String, status: Int = 200, json: String) {
        let response = HTTPResponse(
            status: status, headers: ["content-type": "application/json"], body: Array(json.utf8))
        state.withLock { $0.rules.append(Rule(method: method, urlContains: urlContains, response: response)) }
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        return state.withLock { state in
            state.requests.append(request)
            let rule = state.rules.last { $0.method == request.method && request.url.contains($0.urlContains) }
            return rule?.response ?? HTTPResponse(status: 404, body: Array(#"{"errcode":"M_UNRECOGNIZED"}"#.utf8))
        }
    }
}
