public import Foundation

/// What the platforms' transports need of HTTP: a request's response. ``CurlHTTPClient`` is the implementation;
/// a test may script one.
public protocol HTTPClient: Sendable {
    /// Throws ``HTTPClientError``: the transfer failed, timed out or was cancelled. Any status is a response.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension CurlHTTPClient: HTTPClient {}

/// A call to a JSON API, as every transport makes one: a cancelled transfer ends the caller's task, a failed one
/// or an answer that cannot be read is the transport's transient failure (``failure``), and the API's own
/// refusals are left to the transport, which knows what its platform means by them.
public struct JSONCall: Sendable {
    public let client: any HTTPClient
    /// The transport's transient failure, from a reason that names the call: `sendMessage: timed out`.
    public let failure: @Sendable (String) -> any Error

    public init(client: any HTTPClient, failure: @escaping @Sendable (String) -> any Error) {
        self.client = client
        self.failure = failure
    }

    /// The response to `request`, whatever its status; `name` names the call in a failure.
    public func response(to request: HTTPRequest, name: String) async throws -> HTTPResponse {
        do {
            return try await client.send(request)
        } catch HTTPClientError.cancelled {
            throw CancellationError()
        } catch let error as HTTPClientError {
            throw failure("\(name): \(error)")
        }
    }

    /// The response's body read as `Result`.
    public func decode<Result: Decodable>(
        _ type: Result.Type, from response: HTTPResponse, name: String, decoder: JSONDecoder = JSONDecoder()
    ) throws -> Result {
        do {
            return try decoder.decode(type, from: Data(response.body))
        } catch {
            throw failure("\(name): unreadable response (HTTP \(response.status))")
        }
    }
}
