/// The parts of the Matrix Client-Server API (v3) the bot reads.
enum MatrixAPI {
    /// `GET /sync`: what happened since the position (`since`), and the next position.
    struct Sync: Decodable {
        let nextBatch: String
        let rooms: Rooms?

        enum CodingKeys: String, CodingKey {
            case nextBatch = "next_batch"
            case rooms
        }

        struct Rooms: Decodable {
            let join: [String: JoinedRoom]?
            let invite: [String: InvitedRoom]?
            let leave: [String: JSON]?
        }

        struct JoinedRoom: Decodable {
            /// State before the timeline's first event.
            let state: Events?
            let timeline: Events?
        }

        struct InvitedRoom: Decodable {
            let inviteState: Events?

            enum CodingKeys: String, CodingKey {
                case inviteState = "invite_state"
            }
        }

        /// Events kept as JSON, read one by one: a malformed event is skipped, not the sync.
        struct Events: Decodable {
            let events: [JSON]?
            /// For a timeline: the homeserver left out older events (more than the filter's limit).
            let limited: Bool?

            var parsed: [Event] { (events ?? []).compactMap(Event.init) }
        }
    }

    /// A room event, or a state event when it has a state key.
    struct Event: Sendable {
        let type: String
        let id: String?
        let sender: String?
        let stateKey: String?
        let content: JSON

        init?(_ json: JSON) {
            guard let type = json["type"]?.string else { return nil }
            self.type = type
            id = json["event_id"]?.string
            sender = json["sender"]?.string
            stateKey = json["state_key"]?.string
            content = json["content"] ?? [:]
        }
    }

    /// An error: `{"errcode": "M_FORBIDDEN", "error": "…"}`, with `retry_after_ms` for M_LIMIT_EXCEEDED.
    struct Failure: Decodable {
        let errcode: String?
        let error: String?
        let retryAfterMilliseconds: Int?

        enum CodingKeys: String, CodingKey {
            case errcode, error
            case retryAfterMilliseconds = "retry_after_ms"
        }
    }

    struct EventSent: Decodable {
        let eventID: String

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id"
        }
    }

    struct WhoAmI: Decodable {
        let userID: String

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
        }
    }

    struct LoggedIn: Decodable {
        let accessToken: String
        let userID: String
        let deviceID: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case userID = "user_id"
            case deviceID = "device_id"
        }
    }

    struct RoomCreated: Decodable {
        let roomID: String

        enum CodingKeys: String, CodingKey {
            case roomID = "room_id"
        }
    }

    struct Uploaded: Decodable {
        let contentURI: String

        enum CodingKeys: String, CodingKey {
            case contentURI = "content_uri"
        }
    }

    /// `GET /rooms/{room}/joined_members`.
    struct JoinedMembers: Decodable {
        let joined: [String: Member]

        struct Member: Decodable {
            let displayName: String?

            enum CodingKeys: String, CodingKey {
                case displayName = "display_name"
            }
        }
    }

    /// What the power levels of a room say about a user (`m.room.power_levels`; the spec's defaults). From
    /// room version 12 on, the room's creators (`m.room.create`'s sender and `additional_creators`) rank above
    /// every level and are not listed.
    struct PowerLevels: Sendable {
        let content: JSON
        var creators: Set<String> = []

        func level(of user: String) -> Int {
            if creators.contains(user) { return .max }
            return content["users"]?[user]?.int ?? content["users_default"]?.int ?? 0
        }

        /// The creators who rank above every level, by the room's `m.room.create` event.
        static func privilegedCreators(of create: JSON, sender: String?) -> Set<String> {
            // Room versions are strings; those from 12 on (and their unstable forerunner) give creators this rank.
            let version = create["room_version"]?.string ?? "1"
            guard (Int(version) ?? 0) >= 12 || version == "org.matrix.hydra.11" else { return [] }
            let additional = create["additional_creators"]?.array?.compactMap(\.string) ?? []
            return Set(additional + (sender.map { [$0] } ?? []))
        }

        /// The level to change a room's state: its settings, what makes an administrator.
        var stateDefault: Int { content["state_default"]?.int ?? 50 }
        /// The level to redact other members' events.
        var redact: Int { content["redact"]?.int ?? 50 }
    }
}
