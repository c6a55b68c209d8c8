#if PostgreSQL
    import Foundation
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// A batch's reads in one statement and its writes in another (``BatchStorage``), each with the transport's
    /// position when the batch moves it: four round trips a batch with `BEGIN` and `COMMIT`, whatever its size.
    extension PostgresTransaction {
        func load(_ needs: BatchNeeds) async throws -> BatchValues {
            guard !needs.isEmpty else { return BatchValues() }
            return try await load(needs, lockingPositionOf: nil).values
        }

        func apply(_ changes: BatchChanges) async throws {
            guard !changes.isEmpty else { return }
            _ = try await apply(changes, moving: nil)
        }

        /// Reads `needs`, and the transport's stored position, locked until the transaction ends: the rows of
        /// each kind aggregated into one JSON array, all in one row.
        func load(_ needs: BatchNeeds, lockingPositionOf transport: String?) async throws -> (
            position: String?, values: BatchValues
        ) {
            let players = needs.players.map { ($0.platform.rawValue, $0.value) }
            let groups = needs.groups.map { ($0.platform.rawValue, $0.value) }
            let counted = needs.pendingCounts.map { ($0.platform.rawValue, $0.value) }
            // No games asked for: a range with none in it.
            let (first, last) = needs.puzzles.map { ($0.lowerBound.rawValue, $0.upperBound.rawValue) } ?? (1, 0)
            var binds = PostgresBindings()
            try binds.append(players.map(\.0))
            try binds.append(players.map(\.1))
            try binds.append(groups.map(\.0))
            try binds.append(groups.map(\.1))
            if let transport { try binds.append(transport) } else { binds.appendNull() }
            try binds.append(first)
            try binds.append(last)
            try binds.append(counted.map(\.0))
            try binds.append(counted.map(\.1))
            try binds.append(Array(needs.replayKeys))
            try binds.append(needs.periods.map(\.rawValue))
            let row = try await one(PostgresQuery(unsafeSQL: Self.loading, binds: binds)) {
                try $0.decode((String?, String).self)
            }
            guard let row else { throw PostgresStoreError.damagedRow(column: "batch") }
            return (row.0, try Self.checked("batch") { try LoadedRows.values(json: row.1, of: needs) })
        }

        /// The statement of ``load(_:lockingPositionOf:)``: $1, $2 the players' platforms and accounts; $3, $4 the
        /// groups'; $5 the transport whose position it locks; $6, $7 the first and last puzzle of the games; $8, $9 the
        /// chats whose messages it counts; $10 the replay guards' keys; $11 the periods of the members' totals on their
        /// groups' own boards.
        static let loading = """
            WITH wanted AS (
                SELECT p.id, p.platform, p.account FROM player p
                JOIN unnest($1::text[], $2::text[]) AS w (platform, account)
                    ON p.platform = w.platform AND p.account = w.account),
            memberships AS (
                SELECT m.player_id, m.chat_id FROM chat_member m JOIN chat_group g ON g.id = m.chat_id
                WHERE m.player_id IN (SELECT id FROM wanted)),
            asked AS (
                SELECT chat.id FROM chat
                JOIN unnest($3::text[], $4::text[]) AS w (platform, address)
                    ON chat.platform = w.platform AND chat.address = w.address)
            SELECT
                (SELECT next FROM transport_position WHERE transport = $5::text FOR UPDATE),
                json_build_object(
                    'players', (SELECT json_agg(x) FROM (
                        SELECT \(SQLColumns.list(SQLColumns.playerColumns)) FROM player WHERE id IN (SELECT id FROM wanted)) x),
                    'games', (SELECT json_agg(x) FROM (
                        SELECT w.platform, w.account, \(SQLColumns.gameSelection(of: "g")) FROM game g JOIN wanted w ON w.id = g.player_id
                        WHERE g.puzzle BETWEEN $6::int AND $7::int) x),
                    'groups', (SELECT json_agg(x) FROM (
                        SELECT \(SQLColumns.groupSelection) FROM chat JOIN chat_group ON chat_group.id = chat.id
                        WHERE chat.id IN (SELECT id FROM asked UNION SELECT chat_id FROM memberships)) x),
                    'memberships', (SELECT json_agg(x) FROM (
                        SELECT w.platform, w.account, c.address FROM memberships m
                        JOIN wanted w ON w.id = m.player_id JOIN chat c ON c.id = m.chat_id) x),
                    'waiting', (SELECT json_agg(x) FROM (
                        SELECT outbox.platform, outbox.address, count(*) AS messages FROM outbox
                        JOIN unnest($8::text[], $9::text[]) AS w (platform, address)
                            ON outbox.platform = w.platform AND outbox.address = w.address
                        GROUP BY outbox.platform, outbox.address) x),
                    'guarded', (SELECT json_agg(key) FROM replay_guard WHERE key = ANY($10::text[])),
                    'totals', (SELECT json_agg(x) FROM (
                        SELECT w.platform, w.account, c.address, t.period, \(SQLColumns.list(SQLColumns.totalsColumns, of: "t"))
                        FROM memberships m JOIN wanted w ON w.id = m.player_id JOIN chat c ON c.id = m.chat_id
                        JOIN board_total t ON t.chat_id = m.chat_id AND t.board = 'tessera'
                            AND t.period = ANY($11::text[]) AND t.player_id = m.player_id) x))::text
            """

        /// A transport's position moved by a batch: from where it was read to the batch's end.
        struct PositionMove {
            let transport: String
            let from: String?
            let to: String
        }

        /// Writes a batch's changes, and moves the transport's position if `move` says so, in one statement
        /// (data-modifying `WITH` queries, their rows in one JSON parameter). Returns false when the position was
        /// not where the batch read it: another process applied the batch, and the caller rolls back.
        func apply(_ changes: BatchChanges, moving move: PositionMove?) async throws -> Bool {
            do {
                return try await write(changes, moving: move)
            } catch let error where !PostgresGameStore.isTransient(error) {
                throw BatchWriteFailure(error: error)
            }
        }

        /// As ``apply(_:moving:)``, its failures as they are: for the store's own single writes.
        func write(_ changes: BatchChanges, moving move: PositionMove? = nil) async throws -> Bool {
            let rows = try BatchRows(changes)
            var binds = PostgresBindings()
            try binds.append(try rows.json())
            for value in [move?.transport, move?.to, move?.from] {
                if let value { try binds.append(value) } else { binds.appendNull() }
            }
            let statement = PostgresQuery(unsafeSQL: Self.writing(rows), binds: binds)
            let moved = try await one(statement) { try $0.decode(Int.self) }
            return move == nil || moved == 1
        }

        /// The statement of ``apply(_:moving:)``, its data-modifying `WITH` queries those of the kinds of rows there
        /// are: $1 the changes' rows as JSON (``BatchRows``); $2, $3 the transport and its new position, or NULL; $4
        /// its position before. The server plans the statement each time it gets it, so a single save plans its one
        /// query, not all nine.
        static func writing(_ rows: BatchRows) -> String {
            var parts: [String] = []
            if !rows.players.isEmpty {
                parts.append(newPlayers)
            } else if !rows.games.isEmpty || !rows.results.isEmpty {
                parts.append(noNewPlayers)
            }
            if !rows.games.isEmpty { parts.append(newGames) }
            if !rows.groups.isEmpty { parts += [newChats, newGroups] }
            if !rows.results.isEmpty { parts += [newResults, newTotals] }
            if !rows.active.isEmpty { parts.append(activity) }
            if !rows.messages.isEmpty { parts.append(newMessages) }
            // Always there, a query that inserts nothing without a transport: every parameter is used, as the
            // server requires (and $1 in the last line, for a move alone).
            parts.append(moved)
            return "WITH\n" + parts.joined(separator: ",\n")
                + "\nSELECT count(*) FROM moved WHERE $1::jsonb IS NOT NULL"
        }

        /// What the queries that join `new_players` see when the batch saves no player.
        static let noNewPlayers = """
            new_players AS (SELECT NULL::bigint AS id, NULL::text AS platform, NULL::text AS account WHERE false)
            """
        static let newPlayers = """
            new_players AS (
                INSERT INTO player (\(SQLColumns.list(SQLColumns.playerColumns)))
                -- The rows take the table's own column types: a new column needs no list here.
                SELECT \(SQLColumns.list(SQLColumns.playerColumns)) FROM jsonb_populate_recordset(NULL::player, $1::jsonb -> 'players')
                ON CONFLICT (platform, account) DO UPDATE SET \(updates(of: SQLColumns.playerColumns, keys: 2))
                RETURNING id, platform, account)
            """
        static let newGames = """
            new_games AS (
                INSERT INTO game (player_id, \(SQLColumns.gameSelection), analysis_state)
                SELECT coalesce(n.id, p.id), \(SQLColumns.gameSelection(of: "x")), x.analysis_state
                FROM \(jsonRows("games", as: "game"))
                \(playerOfRow)
                ON CONFLICT (player_id, language, puzzle) DO UPDATE SET \(updates(of: SQLColumns.gameColumns, keys: 2)),
                    -- As requestAnalysis: asked for, never back from done or unavailable.
                    analysis_state = CASE WHEN excluded.analysis_state IS NULL
                        OR game.analysis_state >= \(AnalysisState.done.rawValue)
                        THEN game.analysis_state
                        ELSE greatest(coalesce(game.analysis_state, 0), excluded.analysis_state) END
                RETURNING 1)
            """
        static let newChats = """
            new_chats AS (
                INSERT INTO chat (platform, address)
                SELECT x.platform, x.address
                FROM jsonb_populate_recordset(NULL::chat, $1::jsonb -> 'groups') AS x
                ON CONFLICT (platform, address) DO NOTHING
                RETURNING id, platform, address)
            """
        static let newGroups = """
            new_groups AS (
                INSERT INTO chat_group (id, \(SQLColumns.list(SQLColumns.groupColumns)))
                SELECT coalesce(n.id, c.id), \(SQLColumns.list(SQLColumns.groupColumns, of: "x"))
                FROM \(jsonRows("groups", as: "chat_group"))
                LEFT JOIN new_chats n ON n.platform = e.row ->> 'platform' AND n.address = e.row ->> 'address'
                LEFT JOIN chat c ON c.platform = e.row ->> 'platform' AND c.address = e.row ->> 'address'
                ON CONFLICT (id) DO UPDATE SET \(updates(of: SQLColumns.groupColumns))
                RETURNING 1)
            """
        static let newResults = """
            -- Results on groups' own boards, and the totals they make where they were new: of members, whose
            -- groups and players are stored already.
            new_results AS (
                INSERT INTO board_result (chat_id, player_id, \(SQLColumns.list(SQLColumns.resultColumns)))
                SELECT c.id, coalesce(n.id, p.id), \(SQLColumns.resultSelection(of: "x"))
                FROM \(jsonRows("results", as: "board_result"))
                JOIN chat c ON c.platform = e.row ->> 'platform' AND c.address = e.row ->> 'address'
                \(playerOfRow)
                ON CONFLICT DO NOTHING
                RETURNING chat_id, board, puzzle, player_id)
            """
        static let newTotals = """
            new_totals AS (
                INSERT INTO board_total (\(SQLColumns.list(SQLColumns.totalsKey + SQLColumns.totalsColumns)))
                SELECT r.chat_id, r.board, x.period, r.player_id, \(SQLColumns.list(SQLColumns.totalsColumns, of: "x"))
                FROM \(jsonRows("totals", as: "board_total"))
                JOIN chat c ON c.platform = e.row ->> 'platform' AND c.address = e.row ->> 'address'
                \(playerOfRow)
                JOIN new_results r ON r.chat_id = c.id AND r.board = x.board AND r.puzzle = (e.row ->> 'puzzle')::int
                    AND r.player_id = coalesce(n.id, p.id)
                ON CONFLICT (\(SQLColumns.list(SQLColumns.totalsKey))) DO UPDATE SET \(updates(of: SQLColumns.totalsColumns))
                RETURNING 1)
            """
        static let activity = """
            -- Existing chats only, which no other part of the statement changes.
            activity AS (
                UPDATE chat SET active = true
                FROM jsonb_populate_recordset(NULL::chat, $1::jsonb -> 'active') AS x
                WHERE chat.platform = x.platform AND chat.address = x.address AND NOT chat.active
                RETURNING 1)
            """
        static let newMessages = """
            messages AS (
                INSERT INTO outbox (\(SQLColumns.list(SQLColumns.messageColumns)))
                SELECT \(SQLColumns.list(SQLColumns.messageColumns, of: "x"))
                FROM jsonb_populate_recordset(NULL::outbox, $1::jsonb -> 'messages') WITH ORDINALITY AS x
                -- Ids in the order the replies were queued: a chat's messages go out in that order.
                ORDER BY x.ordinality
                RETURNING 1)
            """
        static let moved = """
            -- Compare and set: two processes that both found no position cannot both move it.
            moved AS (
                INSERT INTO transport_position (transport, next)
                SELECT $2::text, $3::text WHERE $2::text IS NOT NULL
                ON CONFLICT (transport) DO UPDATE SET next = excluded.next
                    WHERE transport_position.next IS NOT DISTINCT FROM $4::text
                RETURNING 1)
            """

        /// The rows of `kind` in $1, each as a row of `table` (`x`: the table's own column types, so a new column
        /// needs no list here) and as its JSON (`e.row`: the keys the table stores as ids, its player's `platform`
        /// and `account`, its chat's `address`).
        static func jsonRows(_ kind: String, as table: String) -> String {
            "jsonb_array_elements($1::jsonb -> '\(kind)') AS e (row) CROSS JOIN jsonb_populate_record(NULL::\(table), e.row) AS x"
        }

        /// The player a row of ``rows(_:as:)`` names, new in this batch (`n`) or stored (`p`): `coalesce(n.id, p.id)`.
        static let playerOfRow = """
            LEFT JOIN new_players n ON n.platform = e.row ->> 'platform' AND n.account = e.row ->> 'account'
                LEFT JOIN player p ON p.platform = e.row ->> 'platform' AND p.account = e.row ->> 'account'
            """

        /// `column = excluded.column` for each of `columns` but the first `keys`.
        static func updates(of columns: [String], keys: Int = 0) -> String {
            columns.dropFirst(keys).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
    }

    /// A batch's changes as the JSON rows of ``PostgresTransaction/writing(_:)``: the rows every store keeps
    /// (``PlayerColumns``, ``GameColumns``, ``GroupColumns``, ``MessageColumns``), named in snake case as the
    /// columns they go to.
    struct BatchRows: Encodable {
        struct Analysis: Encodable {
            let analysisState: Int?
        }

        struct Chat: Encodable {
            let platform, address: String
        }

        /// A result's player, by their platform's id (the platform is the chat's).
        struct Account: Encodable {
            let account: String
        }

        /// The key of the totals a result makes over a period, with the result's puzzle: they are stored only
        /// where the result was new.
        struct TotalsFor: Encodable {
            let platform, account, address, board: String
            let puzzle: Int
            let period: String
        }

        let players: [PlayerColumns]
        let games: [RowWith<GameColumns, Analysis>]
        let groups: [GroupColumns]
        let active: [Chat]
        /// In the order the replies were queued.
        let messages: [MessageColumns]
        let results: [RowWith<ResultColumns, Account>]
        /// One row a member's totals over a period, the last counted: one statement changes a row once.
        let totals: [RowWith<TotalsColumns, TotalsFor>]

        /// The rows as one JSON text: bytes in `bytea`'s hex format, which `jsonb_populate_record` reads.
        func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dataEncodingStrategy = .custom { data, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(Self.hex(data))
            }
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }

        /// Bytes as `bytea`'s input reads them in hex: `\x` and two digits a byte.
        static func hex(_ data: Data) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = Array("\\x".utf8)
            text.reserveCapacity(2 + 2 * data.count)
            for byte in data {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }

        init(_ changes: BatchChanges) throws {
            players = changes.players.values.map(PlayerColumns.init)
            games = changes.games.values.map { game in
                RowWith(
                    row: GameColumns(game),
                    extra: Analysis(
                        analysisState: changes.analyses[game.key].map { AnalysisState.requested(show: $0).rawValue }))
            }
            groups = changes.groups.values.map(GroupColumns.init)
            active = changes.activeChats.map { Chat(platform: $0.platform.rawValue, address: $0.value) }
            results = changes.results.map {
                RowWith(row: ResultColumns($0.result), extra: Account(account: $0.result.player.value))
            }
            var totals: [TotalsKey: RowWith<TotalsColumns, TotalsFor>] = [:]
            for (result, periods) in changes.results {
                for (period, total) in periods {
                    totals[TotalsKey(player: result.player, chat: result.chat, period: period)] = RowWith(
                        row: TotalsColumns(total, through: result.puzzle),
                        extra: TotalsFor(
                            platform: result.player.platform.rawValue, account: result.player.value,
                            address: result.chat.value, board: result.board.rawValue, puzzle: result.puzzle.rawValue,
                            period: period.rawValue))
                }
            }
            self.totals = Array(totals.values)
            messages = try changes.messages.map(MessageColumns.init)
        }
    }

    /// A row with more fields than its columns' type, in one JSON object: a game with its analysis asked for,
    /// a result with its player, totals with their key.
    struct RowWith<Row, Extra> {
        let row: Row
        let extra: Extra
    }

    extension RowWith: Encodable where Row: Encodable, Extra: Encodable {
        func encode(to encoder: any Encoder) throws {
            try row.encode(to: encoder)
            try extra.encode(to: encoder)
        }
    }

    extension RowWith: Decodable where Row: Decodable, Extra: Decodable {
        init(from decoder: any Decoder) throws {
            row = try Row(from: decoder)
            extra = try Extra(from: decoder)
        }
    }

    /// What ``PostgresTransaction/loading`` reads, as JSON: the rows every store keeps, in snake case.
    struct LoadedRows: Decodable {
        struct Membership: Decodable {
            let platform, account, address: String
        }

        struct Waiting: Decodable {
            let platform, address: String
            let messages: Int
        }

        struct TotalsOf: Decodable {
            let platform, account, address, period: String
        }

        // An aggregate of no rows is NULL: nil, none.
        let players: [PlayerColumns]?
        let games: [GameColumns]?
        let groups: [GroupColumns]?
        let memberships: [Membership]?
        let waiting: [Waiting]?
        let guarded: [String]?
        let totals: [RowWith<TotalsColumns, TotalsOf>]?

        /// The values read, as ``BatchWork`` takes them; throws ``DamagedColumn``.
        static func values(json: String, of needs: BatchNeeds) throws -> BatchValues {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let rows: LoadedRows
            do {
                rows = try decoder.decode(LoadedRows.self, from: Data(json.utf8))
            } catch {
                throw DamagedColumn("(JSON: \(error))")
            }
            var values = BatchValues()
            for row in rows.players ?? [] {
                let player = try row.player()
                values.players[player.id] = player
            }
            for row in rows.games ?? [] {
                let game = try row.game()
                values.games[game.key] = game
            }
            for row in rows.groups ?? [] {
                let group = try row.group()
                values.groups[group.chat] = group
            }
            for id in needs.players { values.memberships[id] = [] }
            for row in rows.memberships ?? [] {
                guard let platform = Platform(rawValue: row.platform) else { throw DamagedColumn("platform") }
                values.memberships[UserID(platform, row.account), default: []].append(ChatID(platform, row.address))
            }
            for row in rows.waiting ?? [] {
                guard let platform = Platform(rawValue: row.platform) else { throw DamagedColumn("platform") }
                values.pendingCounts[ChatID(platform, row.address)] = row.messages
            }
            values.replayGuarded = Set(rows.guarded ?? [])
            for row in rows.totals ?? [] {
                let owner = row.extra
                guard let platform = Platform(rawValue: owner.platform) else { throw DamagedColumn("platform") }
                let key = TotalsKey(
                    player: UserID(platform, owner.account), chat: ChatID(platform, owner.address),
                    period: PeriodKey(rawValue: owner.period))
                values.totals[key] = row.row.totals
            }
            return values
        }
    }
#endif
