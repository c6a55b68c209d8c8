/// The commands a platform shows in its menu, for people whose app is in `languageCode` (nil: everyone else).
public struct CommandMenu: Sendable, Hashable {
    public struct Command: Sendable, Hashable {
        public let name: String
        public let description: String
    }

    public let languageCode: String?
    public let commands: [Command]
}
