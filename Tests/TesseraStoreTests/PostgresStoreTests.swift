#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    @testable import TesseraPostgres
    import TesseraTestSupport
    import TesseraTesting
    import Testing

    /// What only PostgreSQL has to promise: several processes on one database, and its URL.
    @Suite("The PostgreSQL store", .disabled(if: PostgreSQLServer.isSkipped, "TESSERA_SKIP_POSTGRES=1"))
    struct PostgresStoreTests {
        @Test("Two senders on one database never take the same message, and a chat's messages stay with one of them")
        func sendersShareTheOutbox() async throws {
            try await StoreKind.postgres.withDatabase { database in
                try await database.open { first in
                    try await database.open { second in
                        try await first.write { transaction in
                            for chat in 1...10 as ClosedRange<Int64> {
                                try await transaction.enqueue(
                                    (1...3).map {
                                        OutgoingMessage(chat: ChatID(chat), chatKind: .direct, html: "\($0)")
                                    })
                            }
                        }
                        // At once: rows one sender is taking are skipped by the other, not waited for.
                        async let taken = first.pendingMessages(limit: 12, now: .distantFuture)
                        async let others = second.pendingMessages(limit: 100, now: .distantFuture)
                        let (one, two) = try await (taken, others)
                        #expect(Set(one.map(\.id)).isDisjoint(with: two.map(\.id)), "no message is sent twice")
                        #expect(Set(one.map(\.message.chat)).isDisjoint(with: two.map(\.message.chat)))
                        // Then: the second takes everything the first does not hold, never a chat the first is in.
                        let rest = try await second.pendingMessages(limit: 100, now: .distantFuture)
                        #expect(one.count + rest.count == 30, "between them, every message")
                        #expect(Set(one.map(\.message.chat)).isDisjoint(with: rest.map(\.message.chat)))
                        #expect(
                            try await first.pendingMessages(limit: 100, now: .distantFuture).map(\.id) == one.map(\.id))
                        try await first.markSent(one.map(\.id))
                        try await second.markSent(rest.map(\.id))
                        #expect(try await first.pendingMessages(limit: 100, now: .distantFuture).isEmpty)
                    }
                }
            }
        }

        @Test("A message whose lease ran out before it was sent goes to the sender that took it, never to both")
        func expiredLeaseIsNotSentTwice() async throws {
            try await StoreKind.postgres.withDatabase { database in
                guard case .postgres(let server) = database else { return }
                try await database.open { first in
                    try await database.open { second in
                        try await first.write { transaction in
                            try await transaction.enqueue(
                                (1...2).map { OutgoingMessage(chat: ChatID(7), chatKind: .direct, html: "\($0)") })
                        }
                        let read = try await first.pendingMessages(limit: 10, now: .distantFuture)
                        #expect(read.count == 2)
                        // The first sender waited past its lease (a slow network, a queue of chats before this one).
                        try await PostgreSQLServer.shared.administer(
                            "UPDATE outbox SET leased_until = now() - interval '1 second'", in: server.name)
                        let taken = try await second.pendingMessages(limit: 10, now: .distantFuture)
                        #expect(taken.map(\.id) == read.map(\.id), "the second sender took the chat over")
                        let ids = read.map(\.id)
                        #expect(try await first.hold(ids, for: .seconds(60)).isEmpty)
                        #expect(try await second.hold(ids, for: .seconds(60)) == Set(ids))
                        // Held for sending, a message stays the holder's past the read's own lease.
                        try await PostgreSQLServer.shared.administer(
                            """
                            UPDATE outbox SET leased_until = leased_until - interval '15 seconds'
                            """, in: server.name)
                        #expect(try await first.pendingMessages(limit: 10, now: .distantFuture).isEmpty)
                        #expect(try await first.hold(ids, for: .seconds(60)).isEmpty)
                    }
                }
            }
        }

        @Test("A group's day is claimed by one closer: another process's skips it, then finds it closed")
        func oneCloserPerGroup() async throws {
            try await StoreKind.postgres.withDatabase { database in
                try await database.open { first in
                    try await database.open { second in
                        let telegram = ChatID(.telegram, "-100")
                        let matrix = ChatID(.matrix, "!room:example.org")
                        try await first.write { transaction in
                            for chat in [telegram, matrix] {
                                try await transaction.save(
                                    Group(
                                        chat: chat, timeZone: "UTC", rolloverHour: 0, language: .english,
                                        lastClosedPuzzle: PuzzleNumber(325)))
                            }
                            try await transaction.save(
                                Player(
                                    id: UserID(.telegram, "7"), displayName: "Ann", language: .english,
                                    timeZone: "UTC", rolloverHour: 0, reminders: true))
                        }
                        try await first.write { transaction in
                            var mine = try await transaction.activeGroups(on: .telegram)
                            #expect(mine.map(\.chat) == [telegram])
                            #expect(try await transaction.playersWithReminders().count == 1)
                            // Meanwhile another process closes days: it skips what this one holds, at once.
                            let (groups, matrixGroups, players) = try await second.write { other in
                                (
                                    try await other.activeGroups(on: .telegram),
                                    try await other.activeGroups(on: .matrix), try await other.playersWithReminders()
                                )
                            }
                            #expect(groups.isEmpty)
                            #expect(matrixGroups.map(\.chat) == [matrix], "another platform's are not held")
                            #expect(players.isEmpty)
                            mine[0].lastClosedPuzzle = PuzzleNumber(326)
                            try await transaction.save(mine[0])
                        }
                        let after = try await second.write { try await $0.activeGroups(on: .telegram) }
                        #expect(after.map(\.lastClosedPuzzle) == [PuzzleNumber(326)], "closed, never twice")
                    }
                }
            }
        }

        @Test("What the server says is sorted into failures tried again and failures that stop the bot")
        func transientServerErrors() async throws {
            let conditions: [(name: String, transient: Bool)] = [
                ("serialization_failure", true), ("deadlock_detected", true), ("too_many_connections", true),
                ("admin_shutdown", true), ("cannot_connect_now", true), ("connection_failure", true),
                ("unique_violation", false), ("undefined_table", false), ("insufficient_privilege", false),
                ("data_corrupted", false), ("disk_full", true),
            ]
            try await StoreKind.postgres.withStore { store in
                let postgres = try #require(store as? PostgresGameStore)
                for condition in conditions {
                    // A real error from the server, with the condition's SQLSTATE.
                    let error = await #expect(throws: (any Error).self) {
                        try await postgres.client.query(
                            PostgresQuery(
                                unsafeSQL: """
                                    DO $$ BEGIN RAISE EXCEPTION 'injected' USING ERRCODE = '\(condition.name)'; END $$
                                    """))
                    }
                    #expect(error.map(postgres.isTransient) == condition.transient, "\(condition.name)")
                }
            }
        }

        @Test(
            "A connection the server ends in the middle of a transaction is a failure tried again; the store recovers",
            // The failure this guards against is a query that never answers. The limit also counts the shared
            // server's start and forty other tests' databases, which on a loaded 2-core machine took 98 s.
            .timeLimit(.minutes(5)))
        func connectionEnded() async throws {
            try await StoreKind.postgres.withDatabase { database in
                guard case .postgres(let server) = database else { return }
                try await database.open { store in
                    let error = await #expect(throws: (any Error).self) {
                        try await store.write { transaction in
                            _ = try await transaction.player(UserID(1))
                            try await PostgreSQLServer.shared.administer(
                                """
                                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(server.name)'
                                """)
                            _ = try await transaction.player(UserID(2))
                        }
                    }
                    #expect(error.map(store.isTransient) == true, "\(String(describing: error))")
                    // Every session of the user was ended, and the server ends them one by one after the call
                    // returns: a pooled connection, or one opened meanwhile, may fail once more, under a loaded
                    // machine several times. The service tries a transient failure again until it works; so does
                    // this, a hundred times at most, for the write and for the read.
                    func recovering<T>(_ body: () async throws -> T) async throws -> T {
                        var attempts = 0
                        while true {
                            do {
                                return try await body()
                            } catch  where store.isTransient(error) && attempts < 100 {
                                attempts += 1
                            }
                        }
                    }
                    try await recovering { try await store.setSetting("after", "reconnected") }
                    #expect(try await recovering { try await store.setting("after") } == "reconnected")
                }
            }
        }

        @Test("A board whose columns were changed behind Tessera's back is named as damaged, never misread")
        func changedColumns() async throws {
            try await StoreKind.postgres.withDatabase { database in
                guard case .postgres(let server) = database else { return }
                try await database.open { store in
                    try await store.write { transaction in
                        try await transaction.save(
                            Player(
                                id: UserID(1), displayName: "Ada", language: .english, timeZone: "UTC",
                                rolloverHour: 0))
                        _ = try await transaction.addMember(UserID(1), to: ChatID(-1), joinedPuzzle: PuzzleNumber(1))
                        let result = BoardResult(
                            chat: ChatID(-1), puzzle: PuzzleNumber(1), player: UserID(1), language: .english,
                            guesses: 3, hardMode: false, finishedAt: Date())
                        _ = try await transaction.record(
                            result, totals: [.all: BoardTotals(points: 4, played: 1, wins: 1, winningGuesses: 3)])
                    }
                    for change in [
                        "ALTER TABLE board_total ALTER COLUMN points TYPE numeric",
                        "ALTER TABLE chat_member ALTER COLUMN display_name TYPE bytea USING convert_to(display_name, 'UTF8')",
                    ] {
                        try await PostgreSQLServer.shared.administer(change, in: server.name)
                        let column = change.split(separator: " ")[5]
                        await #expect {
                            try await store.write { transaction in
                                _ = try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all)
                            }
                        } throws: { error in
                            guard case .damagedRow(let named) = error as? PostgresStoreError else { return false }
                            return named == column && "\(error)".contains("backup")
                        }
                    }
                }
            }
        }

        @Test("A database of the first schema gets its members' names and days, and its boards read them")
        func membersMigrated() async throws {
            try await StoreKind.postgres.withDatabase { database in
                guard case .postgres(let server) = database else { return }
                // The first schema as an older Tessera left it, in the role's own tables, with a member.
                let first = PostgresSchema.migrations[0]
                try await PostgreSQLServer.shared.administer(
                    """
                    SET ROLE \(server.name);
                    CREATE TABLE tessera_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL);
                    \(first.sql.joined(separator: ";\n"));
                    INSERT INTO tessera_migration VALUES ('\(first.name)', now());
                    INSERT INTO player (platform, account, display_name, language, time_zone, rollover_hour,
                        prefers_hard_mode) VALUES ('scripted', '1', 'Ada', 'en', 'Asia/Tokyo', 5, false);
                    INSERT INTO chat (platform, address) VALUES ('scripted', '-1');
                    INSERT INTO chat_member SELECT chat.id, player.id, 7 FROM chat, player;
                    """, in: server.name)
                try await database.open { store in
                    try await store.write { transaction in
                        let standings = try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all)
                        #expect(standings.map(\.name) == ["Ada"])
                        #expect(standings.map(\.player) == [UserID(1)])
                        #expect(standings.map(\.joinedPuzzle) == [PuzzleNumber(7)])
                        #expect(
                            try await transaction.memberDays(
                                in: ChatID(-1), withoutResultFor: PuzzleNumber(7), orOfficial: PuzzleNumber(0)
                            ).map(
                                \.timeZone) == ["Asia/Tokyo"])
                        var renamed = try #require(try await transaction.player(UserID(1)))
                        renamed.displayName = "Ada L."
                        try await transaction.save(renamed)
                        #expect(
                            try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all).map(\.name)
                                == ["Ada L."], "kept up to date from then on")
                    }
                }
            }
        }

        @Test("Processes starting together on one database keep one schedule secret: the same words for all")
        func oneScheduleSecret() async throws {
            try await StoreKind.postgres.withDatabase { database in
                try await database.open { first in
                    try await database.open { second in
                        async let one = first.setting("schedule.secret", keepingIfAbsent: "drawn by the first")
                        async let two = second.setting("schedule.secret", keepingIfAbsent: "drawn by the second")
                        let (kept, alsoKept) = try await (one, two)
                        #expect(kept == alsoKept)
                    }
                }
            }
        }

        @Test("A database from a newer Tessera is refused with advice, and left as it was")
        func newerSchema() async throws {
            try await StoreKind.postgres.withDatabase { database in
                try await database.open { try await $0.setSetting("kept", "yes") }
                guard case .postgres(let server) = database else { return }
                try await PostgreSQLServer.shared.administer(
                    "INSERT INTO tessera_migration (name, applied_at) VALUES ('v99: from the future', now())",
                    in: server.name)
                await #expect {
                    try await database.open { _ in }
                } throws: { error in
                    "\(error)".contains("written by a newer Tessera") && "\(error)".contains("v99: from the future")
                }
                try await PostgreSQLServer.shared.administer(
                    "DELETE FROM tessera_migration WHERE name = 'v99: from the future'", in: server.name)
                let kept = try await database.open { try await $0.setting("kept") }
                #expect(kept == "yes")
            }
        }

        @Test(
            "TESSERA_DATABASE as a URL: host, port, database, user and sslmode; a bad one gets advice",
            arguments: [
                (
                    "postgres://tessera@db.example:6432/boards?sslmode=require",
                    "postgres://tessera@db.example:6432/boards"
                ),
                ("postgresql://bot@localhost/tessera", "postgres://bot@localhost:5432/tessera"),
            ])
        func urls(_ url: String, _ shown: String) throws {
            let configuration = try PostgresGameStore.Configuration(url: url, password: "secret")
            #expect(configuration.description == shown)
            #expect(configuration.password == "secret")
            for bad in ["postgres://db.example/boards", "postgres://bot@db.example/", "mysql://bot@db/boards"] {
                #expect(throws: PostgresStoreError.self) {
                    try PostgresGameStore.Configuration(url: bad, password: nil)
                }
            }
            #expect {
                try PostgresGameStore.Configuration(url: "postgres://bot:hunter2@db/boards", password: nil)
            } throws: { "\($0)".contains("PGPASSWORD") && !"\($0)".contains("hunter2") }
            #expect {
                try PostgresGameStore.Configuration(url: "postgres://bot@db/b?sslmode=always", password: nil)
            } throws: {
                "\($0)".contains("sslmode=always")
            }
        }
    }
#endif
