import Foundation
import TesseraHTTP
import TesseraTestSupport
import Testing

@Suite("HTTP over libcurl, against a real server on loopback")
struct CurlHTTPClientTests {
    let client = CurlHTTPClient()

    @Test("Status codes, headers and bodies come back as they are")
    func statuses() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            for status in [200, 201, 400, 401, 403, 409, 429, 500, 502] {
                let response = try await client.send(HTTPRequest(url: server.baseURL + "/status/\(status)"))
                #expect(response.status == status)
                #expect(String(decoding: response.body, as: UTF8.self) == "status \(status)")
                // By lowercase name, without the line's end; the status line is no header.
                #expect(response.headers["content-type"] == "text/plain")
                #expect(response.headers["content-length"] == String("status \(status)".utf8.count))
                #expect(!response.headers.keys.contains { $0.hasPrefix("http/") })
            }
        }
    }

    @Test("A POST carries its method, headers and body")
    func post() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            let body = Array(#"{"text": "héllo <b>"}"#.utf8)
            let response = try await client.send(
                HTTPRequest(
                    method: "POST", url: server.baseURL + "/echo", headers: ["Content-Type": "application/json"],
                    body: body)
            )
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(echo?["method"] as? String == "POST")
            #expect(echo?["body"] as? String == #"{"text": "héllo <b>"}"#)
            #expect((echo?["headers"] as? [String: String])?["Content-Type"] == "application/json")
        }
    }

    @Test("Large bodies arrive whole; oversized ones are refused")
    func largeBodies() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            let size = 5_000_000
            let response = try await client.send(HTTPRequest(url: server.baseURL + "/bytes/\(size)"))
            #expect(response.body.count == size)
            #expect(response.body.enumerated().allSatisfy { $0.element == UInt8($0.offset % 256) })
            await #expect(throws: HTTPClientError.responseTooLarge(limit: CurlHTTPClient.maximumResponseSize)) {
                try await client.send(
                    HTTPRequest(url: server.baseURL + "/bytes/\(CurlHTTPClient.maximumResponseSize + 1)"))
            }
        }
    }

    @Test("A server that does not answer hits the timeout")
    func timeout() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            await #expect(throws: HTTPClientError.timedOut) {
                try await client.send(HTTPRequest(url: server.baseURL + "/hold", timeout: .milliseconds(300)))
            }
        }
    }

    @Test("A connection dropped mid-response is an error, not a short body")
    func droppedConnection() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            await #expect {
                try await client.send(HTTPRequest(url: server.baseURL + "/drop"))
            } throws: { error in
                guard case .transfer(let message) = error as? HTTPClientError else { return false }
                return !message.isEmpty
            }
        }
    }

    @Test("Cancelling the task aborts a transfer in flight")
    func cancellation() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            let task = Task {
                try await client.send(HTTPRequest(url: server.baseURL + "/hold", timeout: .seconds(600)))
            }
            // In flight: the server has the request and is waiting.
            while String(
                decoding: try await client.send(HTTPRequest(url: server.baseURL + "/held")).body, as: UTF8.self)
                != "1"
            {
                await Task.yield()
            }
            // The server never answers and the limit is ten minutes away: only the abort ends it, as `cancelled`.
            task.cancel()
            await #expect(throws: HTTPClientError.cancelled) { try await task.value }
        }
    }

    @Test("Nothing listening is a transfer error")
    func refused() async throws {
        await #expect {
            try await client.send(HTTPRequest(url: "http://127.0.0.1:1/", timeout: .seconds(5)))
        } throws: { error in
            if case .transfer = error as? HTTPClientError { return true }
            return false
        }
    }

    @Test("Consecutive requests reuse the connection")
    func keepAlive() async throws {
        try await LoopbackServer.with("http_test_server.py") { server in
            let first = try await client.send(HTTPRequest(url: server.baseURL + "/connection"))
            let second = try await client.send(HTTPRequest(url: server.baseURL + "/connection"))
            #expect(first.body == second.body)
        }
    }
}

@Suite("Multipart form bodies")
struct MultipartFormTests {
    @Test("Fields and files are framed by the boundary; a file containing the boundary is refused")
    func framing() throws {
        var form = MultipartForm(boundary: "XYZ")
        form.add("chat_id", "7")
        form.addFile("document", fileName: "a\"b.json", contentType: "application/json", contents: Array("{}".utf8))
        #expect(form.contentType == "multipart/form-data; boundary=XYZ")
        let body = String(decoding: try #require(form.body()), as: UTF8.self)
        #expect(
            body == "--XYZ\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n7\r\n"
                + "--XYZ\r\nContent-Disposition: form-data; name=\"document\"; filename=\"a_b.json\"\r\n"
                + "Content-Type: application/json\r\n\r\n{}\r\n--XYZ--\r\n")
        form.addFile("other", fileName: "x", contentType: "text/plain", contents: Array("line\n--XYZ\n".utf8))
        #expect(form.body() == nil)
    }
}
