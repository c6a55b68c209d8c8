#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// The outbox (``MessageStorage/enqueue(_:)``) as PostgreSQL writes it: through the batch's write.
    extension PostgresTransaction {
        func enqueue(_ messages: [OutgoingMessage]) async throws {
            var changes = BatchChanges()
            changes.messages = messages
            _ = try await write(changes)
        }
    }
#endif
