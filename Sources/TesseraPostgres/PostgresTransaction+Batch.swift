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
                        SELECT \(playerColumns) FROM player WHERE id IN (SELECT id FROM wanted)) x),
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
                        SELECT w.platform, w.account, c.address, t.period, t.points, t.played, t.wins,
                            t.winning_guesses, t.streak, t.last_puzzle
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
                INSERT INTO player (\(playerColumns))
                -- The rows take the table's own column types: a new column needs no list here.
                SELECT \(playerColumns) FROM jsonb_populate_recordset(NULL::player, $1::jsonb -> 'players')
                ON CONFLICT (platform, account) DO UPDATE SET \(updates(of: playerColumns, keys: 2))
                RETURNING id, platform, account)
            """
        static let newGames = """
            new_games AS (
                INSERT INTO game (player_id, language, puzzle, hard_mode, guesses, won_in, lost, finished_at,
                    analysis_state)
                SELECT coalesce(n.id, p.id), x.language, x.puzzle, x.hard_mode, x.guesses, x.won_in, x.lost,
                    x.finished_at, x.analysis_state
                FROM jsonb_to_recordset($1::jsonb -> 'games') AS x (
                    platform text, account text, language text, puzzle int, hard_mode bool, guesses text,
                    won_in int, lost bool, finished_at float8, analysis_state smallint)
                LEFT JOIN new_players n ON n.platform = x.platform AND n.account = x.account
                LEFT JOIN player p ON p.platform = x.platform AND p.account = x.account
                ON CONFLICT (player_id, language, puzzle) DO UPDATE SET hard_mode = excluded.hard_mode,
                    guesses = excluded.guesses, won_in = excluded.won_in, lost = excluded.lost,
                    finished_at = excluded.finished_at,
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
                FROM jsonb_to_recordset($1::jsonb -> 'groups') AS x (platform text, address text)
                ON CONFLICT (platform, address) DO NOTHING
                RETURNING id, platform, address)
            """
        static let newGroups = """
            new_groups AS (
                INSERT INTO chat_group (id, \(groupSettings))
                SELECT coalesce(n.id, c.id), \(groupSettings)
                FROM jsonb_to_recordset($1::jsonb -> 'groups') AS x (
                    platform text, address text, time_zone text, rollover_hour int, language text,
                    hard_mode_required bool, summary_enabled bool, summary_hour int, topic text,
                    last_closed_puzzle int, last_revealed_puzzle int, pending_time_zone text,
                    pending_rollover_hour int, pending_language text, pending_from int, last_closed_language text,
                    deletion_explained bool, practice_shares_explained bool, team text)
                LEFT JOIN new_chats n ON n.platform = x.platform AND n.address = x.address
                LEFT JOIN chat c ON c.platform = x.platform AND c.address = x.address
                ON CONFLICT (id) DO UPDATE SET \(updates(of: groupSettings, keys: 0))
                RETURNING 1)
            """
        static let newResults = """
            -- Results on groups' own boards, and the totals they make where they were new: of members, whose
            -- groups and players are stored already.
            new_results AS (
                INSERT INTO board_result (chat_id, board, puzzle, player_id, language, guesses, hard_mode, finished_at,
                    streak_before)
                SELECT c.id, x.board, x.puzzle, coalesce(n.id, p.id), x.language, x.guesses, x.hard_mode,
                    x.finished_at, x.streak_before
                FROM jsonb_to_recordset($1::jsonb -> 'results') AS x (
                    platform text, account text, address text, board text, puzzle int, language text, guesses int,
                    hard_mode bool, finished_at float8, streak_before int)
                JOIN chat c ON c.platform = x.platform AND c.address = x.address
                LEFT JOIN new_players n ON n.platform = x.platform AND n.account = x.account
                LEFT JOIN player p ON p.platform = x.platform AND p.account = x.account
                ON CONFLICT DO NOTHING
                RETURNING chat_id, board, puzzle, player_id)
            """
        static let newTotals = """
            new_totals AS (
                INSERT INTO board_total (chat_id, board, period, player_id, points, played, wins, winning_guesses,
                    streak, last_puzzle)
                SELECT r.chat_id, r.board, x.period, r.player_id, x.points, x.played, x.wins, x.winning_guesses,
                    x.streak, coalesce(x.last_puzzle, x.puzzle)
                FROM jsonb_to_recordset($1::jsonb -> 'totals') AS x (
                    platform text, account text, address text, board text, puzzle int, period text, points int,
                    played int, wins int, winning_guesses int, streak int, last_puzzle int)
                JOIN chat c ON c.platform = x.platform AND c.address = x.address
                LEFT JOIN new_players n ON n.platform = x.platform AND n.account = x.account
                LEFT JOIN player p ON p.platform = x.platform AND p.account = x.account
                JOIN new_results r ON r.chat_id = c.id AND r.board = x.board AND r.puzzle = x.puzzle
                    AND r.player_id = coalesce(n.id, p.id)
                ON CONFLICT (chat_id, board, period, player_id) DO UPDATE SET points = excluded.points,
                    played = excluded.played, wins = excluded.wins, winning_guesses = excluded.winning_guesses,
                    streak = excluded.streak, last_puzzle = excluded.last_puzzle
                RETURNING 1)
            """
        static let activity = """
            -- Existing chats only, which no other part of the statement changes.
            activity AS (
                UPDATE chat SET active = true
                FROM jsonb_to_recordset($1::jsonb -> 'active') AS x (platform text, address text)
                WHERE chat.platform = x.platform AND chat.address = x.address AND NOT chat.active
                RETURNING 1)
            """
        static let newMessages = """
            messages AS (
                INSERT INTO outbox (platform, address, chat_kind, html, reply_to, thread, buttons, document_name,
                    document, at_most_once, silent, action, live, reposts_live, effect, rich)
                SELECT x.platform, x.address, x.chat_kind, x.html, x.reply_to, x.thread, x.buttons,
                    x.document_name, decode(x.document, 'base64'), x.at_most_once, x.silent, x.action, x.live,
                    x.reposts_live, x.effect, x.rich
                FROM jsonb_to_recordset($1::jsonb -> 'messages') AS x (
                    place int, platform text, address text, chat_kind text, html text, reply_to text,
                    thread text, buttons text, document_name text, document text, at_most_once bool,
                    silent bool, action text, live text, reposts_live bool, effect text, rich text)
                -- Ids in the order the replies were queued: a chat's messages go out in that order.
                ORDER BY x.place
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

        /// `column = excluded.column` for each of `columns` but the first `keys`.
        static func updates(of columns: String, keys: Int) -> String {
            columns.split(separator: ",").dropFirst(keys).map {
                let column = $0.trimmingCharacters(in: .whitespacesAndNewlines)
                return "\(column) = excluded.\(column)"
            }.joined(separator: ", ")
        }

        /// The columns of `chat_group` but its id, as ``BatchRows/Group`` names them.
        static let groupSettings = """
            time_zone, rollover_hour, language, hard_mode_required, summary_enabled, summary_hour, topic,
            last_closed_puzzle, last_revealed_puzzle, pending_time_zone, pending_rollover_hour, pending_language,
            pending_from, last_closed_language, deletion_explained, practice_shares_explained, team
            """
    }

    /// A batch's changes as the JSON rows of ``PostgresTransaction/writing(_:)``: the rows every store keeps
    /// (``PlayerColumns``, ``GameColumns``, ``GroupColumns``, ``MessageColumns``), named in snake case as the
    /// columns they go to.
    struct BatchRows: Encodable {
        /// A row with more fields than its columns' type: the game's analysis asked for, the message's place.
        struct With<Row: Encodable, Extra: Encodable>: Encodable {
            let row: Row
            let extra: Extra

            func encode(to encoder: any Encoder) throws {
                try row.encode(to: encoder)
                try extra.encode(to: encoder)
            }
        }

        struct Analysis: Encodable {
            let analysisState: Int?
        }

        struct Place: Encodable {
            let place: Int
        }

        struct Chat: Encodable {
            let platform, address: String
        }

        /// A result on a group's board, its player and chat by their platform's ids.
        struct Result: Encodable {
            let platform, account, address, board: String
            let puzzle: Int
            let language: String
            let guesses: Int?
            let hardMode: Bool
            let finishedAt: Double
            let streakBefore: Int
        }

        /// The totals a result makes over a period, with the result's puzzle, to be stored where it was new.
        struct Totals: Encodable {
            let platform, account, address, board: String
            let puzzle: Int
            let period: String
            let points, played, wins, winningGuesses, streak: Int
            let lastPuzzle: Int?
        }

        let players: [PlayerColumns]
        let games: [With<GameColumns, Analysis>]
        let groups: [GroupColumns]
        let active: [Chat]
        let messages: [With<MessageColumns, Place>]
        let results: [Result]
        /// One row a member's totals over a period, the last counted: one statement changes a row once.
        let totals: [Totals]

        /// The rows as one JSON text.
        func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }

        init(_ changes: BatchChanges) throws {
            players = changes.players.values.map(PlayerColumns.init)
            games = changes.games.values.map { game in
                With(
                    row: GameColumns(game),
                    extra: Analysis(
                        analysisState: changes.analyses[game.key].map { AnalysisState.requested(show: $0).rawValue }))
            }
            groups = changes.groups.values.map(GroupColumns.init)
            active = changes.activeChats.map { Chat(platform: $0.platform.rawValue, address: $0.value) }
            results = changes.results.map { counted in
                let result = counted.result
                return Result(
                    platform: result.player.platform.rawValue, account: result.player.value, address: result.chat.value,
                    board: result.board.rawValue, puzzle: result.puzzle.rawValue, language: result.language.rawValue,
                    guesses: result.guesses, hardMode: result.hardMode,
                    finishedAt: result.finishedAt.timeIntervalSince1970, streakBefore: result.streakBefore)
            }
            var totals: [TotalsKey: Totals] = [:]
            for (result, periods) in changes.results {
                for (period, total) in periods {
                    totals[TotalsKey(player: result.player, chat: result.chat, period: period)] = Totals(
                        platform: result.player.platform.rawValue, account: result.player.value,
                        address: result.chat.value, board: result.board.rawValue, puzzle: result.puzzle.rawValue,
                        period: period.rawValue, points: total.points, played: total.played, wins: total.wins,
                        winningGuesses: total.winningGuesses, streak: total.streak,
                        lastPuzzle: total.lastPuzzle?.rawValue)
                }
            }
            self.totals = Array(totals.values)
            messages = try changes.messages.enumerated().map {
                With(row: try MessageColumns($1), extra: Place(place: $0))
            }
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

        struct Totals: Decodable {
            let platform, account, address, period: String
            let points, played, wins, winningGuesses, streak: Int
            let lastPuzzle: Int?
        }

        // An aggregate of no rows is NULL: nil, none.
        let players: [PlayerColumns]?
        let games: [GameColumns]?
        let groups: [GroupColumns]?
        let memberships: [Membership]?
        let waiting: [Waiting]?
        let guarded: [String]?
        let totals: [Totals]?

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
                guard let platform = Platform(rawValue: row.platform) else { throw DamagedColumn("platform") }
                let key = TotalsKey(
                    player: UserID(platform, row.account), chat: ChatID(platform, row.address),
                    period: PeriodKey(rawValue: row.period))
                values.totals[key] = BoardTotals(
                    points: row.points, played: row.played, wins: row.wins, winningGuesses: row.winningGuesses,
                    streak: row.streak, lastPuzzle: row.lastPuzzle.map(PuzzleNumber.init))
            }
            return values
        }
    }
#endif
