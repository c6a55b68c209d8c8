public import Foundation
import TesseraHTTP

/// A real Synapse homeserver on loopback (`Tests/Servers/synapse_server.py`), and what the people in a test do
/// on it: register, create rooms, invite, talk, read. Plain HTTP, as any Matrix client.
///
/// Synapse is installed by `scripts/install-synapse` (which `scripts/test` runs); its python is
/// `TESSERA_SYNAPSE_PYTHON`, or the one that script installs by default.
public struct Synapse: Sendable {
    public let server: LoopbackServer
    public let sharedSecret: String
    private let python: String
    /// Synapse's configuration, database and log; removed when it stops.
    public let directory: URL
    private let client = CurlHTTPClient()

    public var url: String { server.baseURL }

    public static func start() async throws -> Synapse {
        let python = try pythonPath()
        let secret = "tessera-test-\(UInt64.random(in: 0...UInt64.max))"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tessera-synapse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let server = try await LoopbackServer.start(
                "synapse_server.py", arguments: [python, secret, directory.path])
            return Synapse(server: server, sharedSecret: secret, python: python, directory: directory)
        } catch {
            throw LoggedServerDidNotStart(
                "Synapse", log: directory.appendingPathComponent("synapse.log"), underlying: error)
        }
    }

    /// Stops Synapse (it dies with its launcher) and removes its directory.
    public func stop() async {
        await server.stop()
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            print("Could not remove Synapse's directory \(directory.path): \(error)")
        }
    }

    /// Runs `body` with a homeserver, stopping it afterwards whatever happens.
    @discardableResult
    public static func with<T>(_ body: (Synapse) async throws -> T) async throws -> T {
        let synapse = try await start()
        do {
            let result = try await body(synapse)
            await synapse.stop()
            return result
        } catch {
            await synapse.stop()
            throw error
        }
    }

    /// The python of Synapse's virtual environment.
    static func pythonPath() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let python = environment["TESSERA_SYNAPSE_PYTHON"] { return python }
        let cache = environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        let python = cache + "/tessera/synapse-1.163.2/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw NotInstalled(looked: python) }
        return python
    }

    public struct NotInstalled: Error, CustomStringConvertible {
        let looked: String
        public var description: String {
            "Synapse is not installed (no \(looked)). Run scripts/install-synapse, which scripts/test runs, or set "
                + "TESSERA_SYNAPSE_PYTHON to the python of an environment with matrix-synapse."
        }
    }

    // MARK: - People

    /// A user and their access token.
    public struct Account: Sendable {
        public let userID: String
        public let accessToken: String
    }

    /// Registers a user `@localpart:localhost`, with a password equal to the localpart.
    public func register(_ localpart: String) async throws -> Account {
        let body: [String: Any] = [
            "username": localpart, "password": "password-\(localpart)", "auth": ["type": "m.login.dummy"],
            "inhibit_login": false,
        ]
        let registered = try await call("POST", "/_matrix/client/v3/register", body: body, token: nil)
        guard let user = registered["user_id"] as? String, let token = registered["access_token"] as? String else {
            throw Unexpected(call: "register", response: registered)
        }
        return Account(userID: user, accessToken: token)
    }

    /// Registers an administrator of the homeserver, with the shared secret (Synapse's own script).
    public func registerAdministrator(_ localpart: String) async throws -> Account {
        let script = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent(
            "register_new_matrix_user")
        try await run(
            script.path,
            ["-u", localpart, "-p", "password-\(localpart)", "--admin", "-k", sharedSecret, url])
        let loggedIn = try await call(
            "POST", "/_matrix/client/v3/login",
            body: [
                "type": "m.login.password", "identifier": ["type": "m.id.user", "user": localpart],
                "password": "password-\(localpart)",
            ], token: nil)
        guard let user = loggedIn["user_id"] as? String, let token = loggedIn["access_token"] as? String else {
            throw Unexpected(call: "login", response: loggedIn)
        }
        return Account(userID: user, accessToken: token)
    }

    /// Creates a room, inviting people; a direct one is marked so (`is_direct`), as clients do for DMs.
    public func createRoom(
        as account: Account, inviting invited: [String] = [], direct: Bool = false, encrypted: Bool = false
    ) async throws -> String {
        var body: [String: Any] = ["invite": invited, "is_direct": direct, "preset": "private_chat"]
        if encrypted {
            body["initial_state"] = [
                ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
            ]
        }
        let created = try await call("POST", "/_matrix/client/v3/createRoom", body: body, token: account.accessToken)
        guard let room = created["room_id"] as? String else { throw Unexpected(call: "createRoom", response: created) }
        return room
    }

    /// People in a group room the bot is invited to: the first creates it, the others join. Returns their
    /// accounts, in order, and the room.
    public func group(of names: [String], inviting bot: Account) async throws -> (people: [Account], room: String) {
        var people: [Account] = []
        for name in names { people.append(try await register(name)) }
        let room = try await createRoom(as: people[0], inviting: [bot.userID] + people.dropFirst().map(\.userID))
        for person in people.dropFirst() { try await join(room, as: person) }
        return (people, room)
    }

    public func invite(_ user: String, to room: String, as account: Account) async throws {
        _ = try await call(
            "POST", "/_matrix/client/v3/rooms/\(escaped(room))/invite", body: ["user_id": user],
            token: account.accessToken)
    }

    /// Removes a member from a room.
    public func kick(_ user: String, from room: String, as account: Account) async throws {
        _ = try await call(
            "POST", "/_matrix/client/v3/rooms/\(escaped(room))/kick", body: ["user_id": user, "reason": "test"],
            token: account.accessToken)
    }

    public func join(_ room: String, as account: Account) async throws {
        _ = try await call("POST", "/_matrix/client/v3/join/\(escaped(room))", body: [:], token: account.accessToken)
    }

    /// Sends a text message; returns its event id.
    @discardableResult
    public func say(_ text: String, in room: String, as account: Account) async throws -> String {
        try await send("m.room.message", ["msgtype": "m.text", "body": text], in: room, as: account)
    }

    /// Sends an event of any type (an encrypted message's shape, say); returns its event id.
    @discardableResult
    public func send(_ type: String, _ content: [String: Any], in room: String, as account: Account) async throws
        -> String
    {
        let sent = try await call(
            "PUT", "/_matrix/client/v3/rooms/\(escaped(room))/send/\(type)/\(UUID().uuidString)", body: content,
            token: account.accessToken)
        guard let event = sent["event_id"] as? String else { throw Unexpected(call: "send", response: sent) }
        return event
    }

    /// A room's events, oldest first, as one of its members reads them.
    public func events(in room: String, as account: Account) async throws -> [[String: Any]] {
        let page = try await call(
            "GET", "/_matrix/client/v3/rooms/\(escaped(room))/messages?dir=b&limit=1000", body: nil,
            token: account.accessToken)
        return ((page["chunk"] as? [[String: Any]]) ?? []).reversed()
    }

    /// Waits, on the homeserver's own long poll (`/sync`), until `account` sees an event in `room` for which
    /// `matches` holds, among those already there and those to come; returns it.
    /// The default bound outlasts one of the bot's long polls (30 s): a homeserver on a loaded machine that wakes
    /// the bot's poll late makes a slow reply, not a lost one.
    public func waitForEvent(
        in room: String, as account: Account, timeout: Duration = .seconds(60), describing what: String = "an event",
        where matches: @Sendable ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        let filter = #"{"room":{"rooms":["\#(room)"],"timeline":{"limit":100}},"presence":{"not_types":["*"]}}"#
        return try await sync(as: account, filter: filter, timeout: timeout, waitingFor: "\(what) in \(room)") {
            rooms in
            let timeline = ((rooms["join"] as? [String: Any])?[room] as? [String: Any])?["timeline"]
            return ((timeline as? [String: Any])?["events"] as? [[String: Any]] ?? []).first(where: matches)
        }
    }

    /// Waits, on the homeserver's long poll, for an invite to `account` from `inviter`; returns the room and
    /// whether the invite marks it direct.
    public func waitForInvite(to account: Account, from inviter: String, timeout: Duration = .seconds(30))
        async throws -> (room: String, isDirect: Bool)
    {
        try await sync(as: account, filter: nil, timeout: timeout, waitingFor: "an invite from \(inviter)") { rooms in
            for (room, invited) in (rooms["invite"] as? [String: Any]) ?? [:] {
                let state = (invited as? [String: Any])?["invite_state"] as? [String: Any]
                let own = (state?["events"] as? [[String: Any]])?.first {
                    $0["type"] as? String == "m.room.member" && $0["state_key"] as? String == account.userID
                }
                if own?["sender"] as? String == inviter {
                    return (room, (own?["content"] as? [String: Any])?["is_direct"] as? Bool == true)
                }
            }
            return nil
        }
    }

    /// Syncs as `account` until `find` finds something in a sync's `rooms`: first what is there, then each
    /// long poll's news.
    private func sync<Found>(
        as account: Account, filter: String?, timeout: Duration, waitingFor what: String,
        find: ([String: Any]) -> Found?
    ) async throws -> Found {
        let deadline = ContinuousClock.now + timeout
        var since: String?
        repeat {
            // Each long poll ends by the deadline at the latest.
            let left = deadline - ContinuousClock.now
            let milliseconds = since == nil ? 0 : max(0, min(5000, Int(left.components.seconds * 1000)))
            var path = "/_matrix/client/v3/sync?timeout=\(milliseconds)"
            if let filter { path += "&filter=\(escaped(filter))" }
            if let since { path += "&since=\(escaped(since))" }
            let sync = try await call("GET", path, body: nil, token: account.accessToken)
            since = sync["next_batch"] as? String
            if let found = find(sync["rooms"] as? [String: Any] ?? [:]) { return found }
        } while ContinuousClock.now < deadline
        throw NotSeen(what: what, timeout: timeout)
    }

    /// Upgrades a room to a new room version (`m.room.tombstone` in the old one); returns the new room's id.
    public func upgrade(_ room: String, to version: String, as account: Account) async throws -> String {
        let upgraded = try await call(
            "POST", "/_matrix/client/v3/rooms/\(escaped(room))/upgrade", body: ["new_version": version],
            token: account.accessToken)
        guard let new = upgraded["replacement_room"] as? String else {
            throw Unexpected(call: "upgrade", response: upgraded)
        }
        return new
    }

    /// Sets a member's power level in a room.
    public func setPowerLevel(_ level: Int, of user: String, in room: String, as account: Account) async throws {
        var levels = try await call(
            "GET", "/_matrix/client/v3/rooms/\(escaped(room))/state/m.room.power_levels/", body: nil,
            token: account.accessToken)
        var users = levels["users"] as? [String: Any] ?? [:]
        users[user] = level
        levels["users"] = users
        _ = try await call(
            "PUT", "/_matrix/client/v3/rooms/\(escaped(room))/state/m.room.power_levels/", body: levels,
            token: account.accessToken)
    }

    /// Overrides a user's message rate limit (Synapse's admin API); nil removes the override.
    public func overrideRateLimit(of user: String, perSecond: Int?, burst: Int?, as admin: Account) async throws {
        let path = "/_synapse/admin/v1/users/\(escaped(user))/override_ratelimit"
        if let perSecond, let burst {
            _ = try await call(
                "POST", path, body: ["messages_per_second": perSecond, "burst_count": burst],
                token: admin.accessToken)
        } else {
            _ = try await call("DELETE", path, body: nil, token: admin.accessToken)
        }
    }

    // MARK: - Calls

    /// What a wait on the homeserver's long poll did not see in time.
    public struct NotSeen: Error, CustomStringConvertible {
        let what: String
        let timeout: Duration

        public var description: String { "Waited \(timeout) for \(what); Synapse did not show it" }
    }

    public struct Unexpected: Error, CustomStringConvertible {
        let call: String
        /// The answer as read, in words: JSON objects are not `Sendable`.
        let response: String

        init(call: String, response: [String: Any]) {
            self.call = call
            self.response = "\(response)"
        }

        public var description: String { "Synapse answered \(call) unexpectedly: \(response)" }
    }

    /// The bytes of an upload (`mxc://server/id`), as an account downloads them (authenticated media).
    public func download(_ contentURI: String, as account: Account) async throws -> [UInt8] {
        let path = contentURI.replacingOccurrences(of: "mxc://", with: "")
        let response = try await client.send(
            HTTPRequest(
                method: "GET", url: url + "/_matrix/client/v1/media/download/" + path,
                headers: ["Authorization": "Bearer \(account.accessToken)"]))
        guard response.status == 200 else {
            throw Unexpected(call: "GET media \(contentURI) (HTTP \(response.status))", response: [:])
        }
        return response.body
    }

    private func call(_ method: String, _ path: String, body: [String: Any]?, token: String?) async throws
        -> [String: Any]
    {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let response = try await client.send(
            HTTPRequest(
                method: method, url: url + path, headers: headers,
                body: try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) }))
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        guard (200..<300).contains(response.status) else {
            throw Unexpected(call: "\(method) \(path) (HTTP \(response.status))", response: object)
        }
        return object
    }

    private func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }

    /// Runs a program to its end, off the cooperative pool; throws when it fails.
    private func run(_ program: String, _ arguments: [String]) async throws {
        let output = try await ChildProcess.run(program, arguments)
        guard output.status == 0 else {
            throw Unexpected(call: program, response: ["output": output.standardOutput + output.standardError])
        }
    }
}
