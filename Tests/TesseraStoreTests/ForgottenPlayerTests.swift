#if PostgreSQL
    import Foundation
    import GRDB
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraPostgres
    import TesseraSQLite
    import TesseraTestSupport
    import TesseraTesting
    import Testing

    /// After `/forgetme`, nothing names the person: every row of every table, JSON columns included, read back as
    /// text on both stores, holds their account nowhere (only one-way keys remain).
    @Suite("A forgotten player is in no row of any table")
    struct ForgottenPlayerTests {
        /// An account no other value in the tables contains by chance.
        static let forgotten: Int64 = 7_621_123_987
        static let kept: Int64 = 5_550_001_234

        /// A season's champion who played, joined two groups, pasted Connections and Wordle, asked for
        /// reminders, then forgot themselves through the engine, as the button's press does.
        static func play(on store: any GameStore) async throws {
            let engine = BotEngine(
                configuration: EngineConfiguration(), secret: try #require(ScheduleSecret("forgotten")),
                logger: Logger(label: "test"))
            let now = Date(timeIntervalSince1970: 1_795_348_800)
            let schedule = DailySchedule.tessera
            let list = Language.english.wordList
            let answer = AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret("forgotten")))
            let word = list.display(answer.answer(for: schedule.puzzle(at: now, rollover: .utc)))
            let connections = DailySchedule.connections.puzzle(at: now, rollover: .utc)
            let wordle = DailySchedule.wordle.puzzle(at: now, rollover: .utc)
            var sent: [OutgoingMessage] = []
            func send(_ text: String, from user: Int64, in chat: Int64? = nil, button: String? = nil) async throws {
                let message = ChatMessage(
                    chat: ChatID(chat ?? user), chatKind: chat == nil ? .direct : .group, sender: UserID(user),
                    senderName: "Person \(user)", text: text, messageID: MessageID(9), senderIsAdministrator: true,
                    button: button
                ).readingCommands()
                try await store.write { _ = try await engine.handle(message, at: now, in: $0) }
                let pending = try await store.pendingMessages(limit: 100, now: now)
                sent = pending.map(\.message)
                try await store.markSent(pending.map(\.id))
            }
            for user in [forgotten, kept] {
                try await send("/start", from: user)
                try await send("/remind on", from: user)
                for chat in [-1, -2] as [Int64] { try await send("/join", from: user, in: chat) }
                try await send(word.lowercased(), from: user)
                try await send(
                    "Connections\nPuzzle #\(connections.grouped)\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", from: user, in: -1)
                try await send("Wordle \(wordle.grouped) 3/6", from: user, in: -2)
            }
            for chat in [-1, -2] as [Int64] {
                try await store.write { transaction in
                    var group = try #require(try await transaction.group(ChatID(chat)))
                    group.team.champions = [UserID(forgotten), UserID(kept)]
                    try await transaction.save(group)
                }
            }
            try await send("/forgetme", from: forgotten)
            let confirm = try #require(sent.first?.buttons.joined().first?.data)
            try await send("", from: forgotten, button: confirm)
        }

        static func expectForgotten(in rows: [String], store: String) {
            #expect(rows.contains { $0.contains(String(kept)) }, "\(store): the scan reads the other player")
            let naming = rows.filter { $0.contains(String(forgotten)) }
            #expect(naming.isEmpty, "\(store): \(naming)")
        }

        @Test("SQLite: every table and JSON column, after /forgetme")
        func sqlite() async throws {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("tessera-forgotten-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await Self.play(on: try SQLiteGameStore(path: path, logger: Logger(label: "test")))
            let rows = try await DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map {
                        "\(table): " + $0.databaseValues.map(\.description).joined(separator: " ")
                    }
                }
            }
            Self.expectForgotten(in: rows, store: "SQLite")
        }

        @Test("PostgreSQL: every table and JSON column, after /forgetme", .enabled(if: !PostgreSQLServer.isSkipped))
        func postgres() async throws {
            let database = try await PostgreSQLServer.shared.makeDatabase()
            let configuration = try PostgresGameStore.Configuration(url: database.url, password: database.password)
            let store = PostgresGameStore(configuration: configuration, logger: Logger(label: "test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                try await Self.play(on: store)
            }
            let connection = try await configuration.connection()
            defer { Task { try await connection.close() } }
            var tables: [String] = []
            let names = try await connection.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
                logger: Logger(label: "test"))
            for try await name in names.decode(String.self) { tables.append(name) }
            var rows: [String] = []
            for table in tables {
                // A whole row as PostgreSQL writes it: every column, JSON and arrays included.
                let query = PostgresQuery(unsafeSQL: "SELECT t::text FROM \"\(table)\" t")
                for try await row in try await connection.query(query, logger: Logger(label: "test")).decode(
                    String.self)
                {
                    rows.append("\(table): \(row)")
                }
            }
            Self.expectForgotten(in: rows, store: "PostgreSQL")
        }
    }
#endif
