public import TesseraEngine

extension Platform {
    /// The platform a ``ScriptedTransport`` plays.
    public static let scripted = Platform("scripted")
}

extension PlatformID {
    /// An id on the scripted platform, numbered as tests like to: `ChatID(7)`, `UserID(5)`, a group `ChatID(-1)`.
    public init(_ number: Int64) { self.init(.scripted, String(number)) }
}

extension MessageID {
    /// A message numbered as tests like to.
    public init(_ number: Int64) { self.init(String(number)) }
}
