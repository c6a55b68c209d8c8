import Foundation
import TesseraHTTP

/// A bare sendMessage client: the floor any bot's reply latency sits on.
struct TesseraHTTPBaseline {
    let apiURL: String
    let token: String
    let client = CurlHTTPClient()

    /// Sends one message and returns the round trip in seconds.
    func sendMessage(chat: Int64, text: String) async throws -> Double {
        let body = try JSONSerialization.data(withJSONObject: ["chat_id": chat, "text": text])
        let start = ContinuousClock.now
        _ = try await client.send(
            HTTPRequest(
                method: "POST", url: "\(apiURL)/bot\(token)/sendMessage", headers: ["Content-Type": "application/json"],
                body: Array(body))
        )
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
    }
}
