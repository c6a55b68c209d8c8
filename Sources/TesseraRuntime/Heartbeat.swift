public import Foundation

/// What a running bot last wrote about itself, every ``BotRuntime/Configuration/healthInterval``: when it
/// wrote, and when it last polled and sent successfully. `tessera status` reads it.
public struct Heartbeat: Sendable, Hashable, Codable {
    /// The setting a transport's heartbeat is stored under: each platform's service writes its own, so one
    /// that stops receiving shows beside the others.
    public static func settingKey(for transport: String) -> String { "health.heartbeat.\(transport)" }

    public var transport: String
    public var started: Date
    public var written: Date
    public var lastPoll: Date?
    public var lastSend: Date?
    /// What is wrong with the operator's listener (``RuntimeMonitor/listenerFailed(at:_:)``); nil when it serves
    /// or none is configured.
    public var listener: String?
    /// How the bot was started, for what `tessera status` advises when it is not running (``Launcher``).
    public var launcher: Launcher?

    /// How a bot was started: how to start it again.
    public enum Launcher: String, Sendable, Hashable, Codable {
        /// The terminal chat (`scripts/run` with no platform configured).
        case terminal
        /// A systemd service (`deploy/tessera.service`).
        case systemd
        /// A container.
        case container
    }

    public init(
        transport: String, started: Date, written: Date, lastPoll: Date?, lastSend: Date?, listener: String? = nil,
        launcher: Launcher? = nil
    ) {
        self.transport = transport
        self.started = started
        self.written = written
        self.lastPoll = lastPoll
        self.lastSend = lastSend
        self.listener = listener
        self.launcher = launcher
    }

    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public init(decoding text: String) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        self = try decoder.decode(Heartbeat.self, from: Data(text.utf8))
    }
}
