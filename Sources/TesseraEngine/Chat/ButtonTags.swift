import Crypto
import Foundation
import TesseraCore

/// Tags that bind a button's data to the chat and the player it was offered to, so that a press of one the bot
/// did not send is ignored.
///
/// Their key is derived from the schedule secret for this use alone (HKDF-SHA256): a tag is public, since it
/// travels in the button, and no tag is made with a key that also makes the schedule, the replay guards or
/// anything else.
struct ButtonTags: Sendable {
    private let key: SymmetricKey

    init(secret: ScheduleSecret) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret.keyMaterial), salt: Data("tessera".utf8),
            info: Data("tessera button tags v1".utf8), outputByteCount: 32)
    }

    /// Sixteen hex digits: the first 64 bits of the message's HMAC-SHA256.
    func tag(for message: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key).prefix(8)
            .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

extension ButtonTags: CustomStringConvertible, CustomReflectable {
    var description: String { "ButtonTags" }
    var customMirror: Mirror { Mirror(self, children: []) }
}
