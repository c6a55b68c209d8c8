public import Synchronization
public import TesseraPictures

/// The pictures a transport has uploaded and the platform's name for each (Telegram's `file_id`, a Matrix
/// content URI with what an event says of the file), so that the same picture going out again (an edited post,
/// an inline answer) is named rather than drawn and uploaded anew. At most ``capacity`` are kept, the oldest
/// forgotten first: a forgotten picture is only uploaded again.
public final class UploadedPictures<Name: Sendable>: Sendable {
    public static var capacity: Int { 512 }
    private struct Kept {
        var names: [Picture: Name] = [:]
        var order: [Picture] = []
    }
    private let kept = Mutex(Kept())

    public init() {}

    public func name(of picture: Picture) -> Name? { kept.withLock { $0.names[picture] } }

    public func remember(_ name: Name, for picture: Picture) {
        kept.withLock { kept in
            if kept.names.updateValue(name, forKey: picture) == nil { kept.order.append(picture) }
            if kept.order.count > Self.capacity { kept.names[kept.order.removeFirst()] = nil }
        }
    }
}
