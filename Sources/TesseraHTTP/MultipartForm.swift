public import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, for uploads.
public struct MultipartForm: Sendable {
    private var parts: [(name: String, fileName: String?, contentType: String?, contents: [UInt8])] = []
    /// Never appears in the parts: it is checked when the body is built.
    private let boundary: String

    public init(boundary: String = "tessera-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    public mutating func add(_ name: String, _ value: String) {
        parts.append((name, nil, nil, Array(value.utf8)))
    }

    public mutating func addFile(_ name: String, fileName: String, contentType: String, contents: [UInt8]) {
        parts.append((name, fileName, contentType, contents))
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body; nil if the boundary occurs in a part (practically never with the default random boundary).
    public func body() -> [UInt8]? {
        let delimiter = Array("--\(boundary)".utf8)
        var body: [UInt8] = []
        for part in parts {
            guard !part.contents.contains(delimiter) else { return nil }
            var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName = part.fileName { header += "; filename=\"\(Self.quoted(fileName))\"" }
            if let contentType = part.contentType { header += "\r\nContent-Type: \(contentType)" }
            body += Array((header + "\r\n\r\n").utf8) + part.contents + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    /// Quotes and line breaks cannot appear in a quoted header value.
    private static func quoted(_ text: String) -> String {
        String(text.map { $0 == "\"" || $0.isNewline ? "_" : $0 })
    }
}
