#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// Groups and their members (``GroupStorage``, but for the boards) as PostgreSQL runs them.
    extension PostgresTransaction {
        func activeGroups(on platform: Platform?) async throws -> [Group] {
            let name = platform?.rawValue
            return try await session.all(
                """
                SELECT \(unescaped: SQLColumns.groupSelection) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.active AND (\(name)::text IS NULL OR chat.platform = \(name))
                FOR UPDATE OF chat_group SKIP LOCKED
                """, table: "chat_group"
            ) { try $0.group() }
        }

        func groups(crowning player: UserID) async throws -> [Group] {
            // The team is JSON: a search for the account as JSON writes it, then the rule read from the decoded team.
            try await session.all(
                """
                SELECT \(unescaped: SQLColumns.groupSelection) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.platform = \(player.platform.rawValue)
                    AND strpos(chat_group.team, \(GroupTeam.searchKey(for: player))) > 0
                """, table: "chat_group"
            ) { try $0.group() }.filter { $0.team.champions.contains(player) }
        }

        func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) async throws -> Bool {
            let key = try await requiredRowID(of: player)
            // A group's members are people of its platform: boards read their ids on that alone.
            guard player.platform == chat.platform else {
                throw StoreMisuse.memberOfAnotherPlatform(player, chat)
            }
            let chatKey = try await storedRowID(of: chat)
            return try await one(
                """
                INSERT INTO chat_member (chat_id, player_id, joined_puzzle, account, display_name, time_zone,
                    rollover_hour, pending_time_zone, pending_from)
                SELECT \(chatKey), id, \(joinedPuzzle.rawValue), account, display_name, time_zone, rollover_hour,
                    pending_time_zone, pending_from
                FROM player WHERE id = \(key)
                ON CONFLICT DO NOTHING RETURNING 1
                """
            ) { try $0.decode(Int.self) } != nil
        }

        func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
            async throws -> [MemberDay]
        {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            return try await all(
                """
                SELECT DISTINCT m.time_zone, m.rollover_hour, m.pending_time_zone, m.pending_from FROM chat_member m
                WHERE m.chat_id = \(chatKey) AND NOT EXISTS (
                    SELECT 1 FROM board_result r WHERE r.chat_id = m.chat_id AND r.player_id = m.player_id
                    AND ((r.board = \(BoardKind.tessera.rawValue) AND r.puzzle = \(puzzle.rawValue))
                        OR (r.board = \(BoardKind.official.rawValue) AND r.puzzle = \(official.rawValue))))
                """
            ) { try $0.decode((String, Int, String?, Int?).self) }.map {
                MemberDay(
                    timeZone: $0.0, rolloverHour: $0.1, pendingTimeZone: $0.2,
                    pendingFrom: $0.3.map { PuzzleNumber($0) })
            }
        }

        func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) async throws -> [(
            name: String, guesses: Int
        )] {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            let columns = try await self.columns(
                """
                SELECT \(unescaped: Self.arrays(of: ["m.display_name", "g.guesses"])) FROM game g
                JOIN chat_member m ON m.chat_id = \(chatKey) AND m.player_id = g.player_id
                WHERE g.puzzle = \(puzzle.rawValue) AND g.language = \(language.rawValue) AND g.won_in IS NULL
                    AND NOT g.lost AND g.guesses != ''
                """)
            guard columns.count == 2 else { throw PostgresStoreError.damagedRow(column: "game") }
            try columns.requireOneCount()
            let (names, guesses) = (try columns[0].strings(), try columns[1].strings())
            return zip(names, guesses).map { (name: $0, guesses: $1.split(separator: " ").count) }
        }

        func moveChat(from old: ChatID, to new: ChatID) async throws {
            defer { ids.forgetAll() }
            // Queued and live messages name a chat as the platform does; the new chat's own live message wins.
            try await execute(
                """
                DELETE FROM live_message WHERE platform = \(old.platform.rawValue) AND address = \(old.value)
                    AND EXISTS (SELECT 1 FROM live_message n WHERE n.platform = \(new.platform.rawValue)
                        AND n.address = \(new.value))
                """)
            for table in ["outbox", "live_message"] {
                try await execute(
                    """
                    UPDATE \(unescaped: table) SET platform = \(new.platform.rawValue), address = \(new.value)
                    WHERE platform = \(old.platform.rawValue) AND address = \(old.value)
                    """)
            }
            guard let oldKey = try await rowID(of: old) else { return }
            guard let newKey = try await rowID(of: new) else {
                // Every table names the chat by its row id: giving the row the new id moves everything.
                try await execute(
                    "UPDATE chat SET platform = \(new.platform.rawValue), address = \(new.value) WHERE id = \(oldKey)")
                return
            }
            // Both ids have data: the old one's joins the new one's, which wins where both have a row.
            let keys: [(table: String, column: String, key: String)] = [
                ("chat_member", "chat_id", "player_id"), ("chat_group", "id", ""),
                ("board_result", "chat_id", "board, puzzle, player_id"),
                ("board_total", "chat_id", "board, period, player_id"),
            ]
            for (table, column, key) in keys {
                // Row ids are integers: written into the statement, which names its table.
                let clash =
                    key.isEmpty
                    ? "EXISTS (SELECT 1 FROM chat_group n WHERE n.id = \(newKey))"
                    : "(\(key)) IN (SELECT \(key) FROM \(table) n WHERE n.\(column) = \(newKey))"
                try await execute(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \(column) = \(oldKey) AND \(clash)"))
                try await execute(
                    PostgresQuery(unsafeSQL: "UPDATE \(table) SET \(column) = \(newKey) WHERE \(column) = \(oldKey)"))
            }
            try await execute("DELETE FROM chat WHERE id = \(oldKey)")
        }
    }
#endif
