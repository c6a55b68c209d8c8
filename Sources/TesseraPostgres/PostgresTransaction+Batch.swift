#if PostgreSQL
    import Foundation
    import PostgresNIO
    import TesseraCore
    import TesseraEngine

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
            let row = try await one(PostgresQuery(unsafeSQL: Self.loading, binds: binds)) {
                try $0.decode((String?, String?, String?, String?, String?, String?, String?).self)
            }
            guard let row else { throw PostgresStoreError.damagedRow(column: "batch") }
            return (
                row.0,
                try Self.values(
                    players: row.1, games: row.2, groups: row.3, memberships: row.4,
                    pendingCounts: row.5, replayGuarded: row.6, of: needs)
            )
        }

        /// What ``loading`` read, each of its JSON columns decoded with the rows' own codecs.
        static func values(
            players: String?, games: String?, groups: String?, memberships: String?, pendingCounts: String?,
            replayGuarded: String?, of needs: BatchNeeds
        ) throws -> BatchValues {
            var values = BatchValues()
            for cells in try JSONRow.rows(players, table: "player") {
                let player = try player(
                    (
                        cells.string(0), cells.string(1), cells.string(2), cells.string(3), cells.string(4),
                        cells.int(5), cells.optionalString(6), cells.optionalInt(7), cells.bool(8), cells.bool(9),
                        cells.optionalInt(10), cells.optionalString(11), cells.optionalString(12), cells.bool(13),
                        cells.optionalString(14), cells.bool(15), cells.bool(16)
                    ))
                values.players[player.id] = player
            }
            for cells in try JSONRow.rows(games, table: "game") {
                let game = try game(
                    (
                        cells.string(2), cells.int(3), cells.bool(4), cells.string(5), cells.optionalInt(6),
                        cells.bool(7), cells.optionalDouble(8)
                    ), of: UserID(try cells.platform(0), try cells.string(1)))
                values.games[game.key] = game
            }
            for cells in try JSONRow.rows(groups, table: "chat_group") {
                let group = try group(
                    (
                        cells.string(0), cells.string(1), cells.string(2), cells.int(3), cells.string(4),
                        cells.bool(5), cells.bool(6), cells.optionalInt(7), cells.optionalString(8), cells.int(9),
                        cells.int(10), cells.optionalString(11), cells.optionalInt(12), cells.optionalString(13),
                        cells.optionalInt(14), cells.optionalString(15), cells.bool(16), cells.bool(17),
                        cells.string(18)
                    ))
                values.groups[group.chat] = group
            }
            for id in needs.players { values.memberships[id] = [] }
            for cells in try JSONRow.rows(memberships, table: "chat_member") {
                let platform = try cells.platform(0)
                values.memberships[UserID(platform, try cells.string(1)), default: []].append(
                    ChatID(platform, try cells.string(2)))
            }
            for cells in try JSONRow.rows(pendingCounts, table: "outbox") {
                values.pendingCounts[ChatID(try cells.platform(0), try cells.string(1))] = try cells.int(2)
            }
            if let keys = replayGuarded {
                do {
                    values.replayGuarded = Set(try JSONDecoder().decode([String].self, from: Data(keys.utf8)))
                } catch {
                    throw PostgresStoreError.damagedRow(column: "replay_guard.key")
                }
            }
            return values
        }

        /// The statement of ``load(_:lockingPositionOf:)``: $1, $2 the players' platforms and accounts; $3, $4 the
        /// groups'; $5 the transport whose position it locks; $6, $7 the first and last puzzle of the games; $8, $9 the
        /// chats whose messages it counts; $10 the replay guards' keys.
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
                (SELECT json_agg(json_build_array(\(playerColumns))) FROM player
                    WHERE id IN (SELECT id FROM wanted))::text,
                (SELECT json_agg(json_build_array(w.platform, w.account, \(gameColumns(of: "g"))))
                    FROM game g JOIN wanted w ON w.id = g.player_id
                    WHERE g.puzzle BETWEEN $6::int AND $7::int)::text,
                (SELECT json_agg(json_build_array(\(groupColumns)))
                    FROM chat JOIN chat_group g ON g.id = chat.id
                    WHERE chat.id IN (SELECT id FROM asked UNION SELECT chat_id FROM memberships))::text,
                (SELECT json_agg(json_build_array(w.platform, w.account, c.address))
                    FROM memberships m JOIN wanted w ON w.id = m.player_id JOIN chat c ON c.id = m.chat_id)::text,
                (SELECT json_agg(json_build_array(o.platform, o.address, o.n)) FROM (
                    SELECT outbox.platform, outbox.address, count(*) AS n FROM outbox
                    JOIN unnest($8::text[], $9::text[]) AS w (platform, address)
                        ON outbox.platform = w.platform AND outbox.address = w.address
                    GROUP BY outbox.platform, outbox.address) o)::text,
                (SELECT json_agg(key) FROM replay_guard WHERE key = ANY($10::text[]))::text
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
            let json = try BatchRows.json(changes)
            do {
                return try await write(json, moving: move)
            } catch  where !PostgresGameStore.isTransient(error) {
                throw BatchWriteFailure(error: error)
            }
        }

        private func write(_ json: String, moving move: PositionMove?) async throws -> Bool {
            var binds = PostgresBindings()
            try binds.append(json)
            for value in [move?.transport, move?.to, move?.from] {
                if let value { try binds.append(value) } else { binds.appendNull() }
            }
            let moved = try await one(PostgresQuery(unsafeSQL: Self.writing, binds: binds)) { try $0.decode(Int.self) }
            return move == nil || moved == 1
        }

        /// The statement of ``apply(_:moving:)``: $1 the changes' rows as JSON (``BatchRows``); $2, $3 the transport
        /// and its new position, or NULL; $4 its position before.
        static let writing = """
            WITH
            new_players AS (
                INSERT INTO player (\(playerColumns))
                SELECT \(playerColumns) FROM jsonb_to_recordset($1::jsonb -> 'players') AS x (
                    platform text, account text, display_name text, language text, time_zone text,
                    rollover_hour int, pending_time_zone text, pending_from int, prefers_hard_mode bool,
                    reminders bool, reminded_puzzle int, direct_chat text, playing_language text,
                    practice_in_play bool, follows_group text, named_in_nudges bool, message_effects bool)
                ON CONFLICT (platform, account) DO UPDATE SET \(updates(of: playerColumns, keys: 2))
                RETURNING id, platform, account),
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
                RETURNING 1),
            new_chats AS (
                INSERT INTO chat (platform, address)
                SELECT x.platform, x.address
                FROM jsonb_to_recordset($1::jsonb -> 'groups') AS x (platform text, address text)
                ON CONFLICT (platform, address) DO NOTHING
                RETURNING id, platform, address),
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
                RETURNING 1),
            -- Existing chats only, which no other part of the statement changes.
            activity AS (
                UPDATE chat SET active = true
                FROM jsonb_to_recordset($1::jsonb -> 'active') AS x (platform text, address text)
                WHERE chat.platform = x.platform AND chat.address = x.address AND NOT chat.active
                RETURNING 1),
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
                RETURNING 1),
            -- Compare and set: two processes that both found no position cannot both move it.
            moved AS (
                INSERT INTO transport_position (transport, next)
                SELECT $2::text, $3::text WHERE $2::text IS NOT NULL
                ON CONFLICT (transport) DO UPDATE SET next = excluded.next
                    WHERE transport_position.next IS NOT DISTINCT FROM $4::text
                RETURNING 1)
            SELECT count(*) FROM moved
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

    /// A batch's changes as the JSON rows of ``PostgresTransaction/apply(_:moving:)``: each row's fields named as
    /// the columns they go to (in snake case, ``json(_:)``).
    struct BatchRows: Encodable {
        struct Player: Encodable {
            let platform, account, displayName, language, timeZone: String
            let rolloverHour: Int
            let pendingTimeZone: String?
            let pendingFrom: Int?
            let prefersHardMode, reminders: Bool
            let remindedPuzzle: Int?
            let directChat, playingLanguage: String?
            let practiceInPlay: Bool
            let followsGroup: String?
            let namedInNudges, messageEffects: Bool
        }

        struct Game: Encodable {
            let platform, account, language: String
            let puzzle: Int
            let hardMode: Bool
            let guesses: String
            let wonIn: Int?
            let lost: Bool
            let finishedAt: Double?
            let analysisState: Int?
        }

        struct Group: Encodable {
            let platform, address, timeZone: String
            let rolloverHour: Int
            let language: String
            let hardModeRequired, summaryEnabled: Bool
            let summaryHour: Int?
            let topic: String?
            let lastClosedPuzzle, lastRevealedPuzzle: Int
            let pendingTimeZone: String?
            let pendingRolloverHour: Int?
            let pendingLanguage: String?
            let pendingFrom: Int?
            let lastClosedLanguage: String?
            let deletionExplained, practiceSharesExplained: Bool
            let team: String
        }

        struct Chat: Encodable {
            let platform, address: String
        }

        /// An outbox row (``StoredMessage``, its document in base64) and its place in the batch's order.
        struct Message: Encodable {
            let place: Int
            let stored: StoredMessage

            private enum Keys: CodingKey { case place }

            func encode(to encoder: any Encoder) throws {
                try stored.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(place, forKey: .place)
            }
        }

        let players: [Player]
        let games: [Game]
        let groups: [Group]
        let active: [Chat]
        let messages: [Message]

        /// The rows as one JSON text, field names in snake case as the columns'.
        static func json(_ changes: BatchChanges) throws -> String {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return String(decoding: try encoder.encode(BatchRows(changes)), as: UTF8.self)
        }

        init(_ changes: BatchChanges) throws {
            players = changes.players.values.map { player in
                Player(
                    platform: player.id.platform.rawValue, account: player.id.value, displayName: player.displayName,
                    language: player.language.rawValue, timeZone: player.timeZone, rolloverHour: player.rolloverHour,
                    pendingTimeZone: player.pendingTimeZone, pendingFrom: player.pendingFrom?.rawValue,
                    prefersHardMode: player.prefersHardMode, reminders: player.reminders,
                    remindedPuzzle: player.remindedPuzzle?.rawValue, directChat: player.directChat?.value,
                    playingLanguage: player.playingLanguage?.rawValue, practiceInPlay: player.practiceInPlay,
                    followsGroup: player.followsGroup?.value, namedInNudges: player.namedInNudges,
                    messageEffects: player.messageEffects)
            }
            games = changes.games.values.map { game in
                Game(
                    platform: game.player.platform.rawValue, account: game.player.value,
                    language: game.language.rawValue, puzzle: game.puzzle.rawValue, hardMode: game.hardMode,
                    guesses: game.guesses.joined(separator: " "), wonIn: game.result?.guesses,
                    lost: game.result == .lost, finishedAt: game.finishedAt?.timeIntervalSince1970,
                    analysisState: changes.analyses[game.key].map { AnalysisState.requested(show: $0).rawValue })
            }
            groups = changes.groups.values.map { group in
                Group(
                    platform: group.chat.platform.rawValue, address: group.chat.value, timeZone: group.timeZone,
                    rolloverHour: group.rolloverHour, language: group.language.rawValue,
                    hardModeRequired: group.hardModeRequired, summaryEnabled: group.summaryEnabled,
                    summaryHour: group.summaryHour, topic: group.topic?.value,
                    lastClosedPuzzle: group.lastClosedPuzzle.rawValue,
                    lastRevealedPuzzle: group.lastRevealedPuzzle.rawValue,
                    pendingTimeZone: group.pending?.timeZone, pendingRolloverHour: group.pending?.rolloverHour,
                    pendingLanguage: group.pending?.language.rawValue, pendingFrom: group.pendingFrom?.rawValue,
                    lastClosedLanguage: group.lastClosedLanguage?.rawValue,
                    deletionExplained: group.deletionExplained,
                    practiceSharesExplained: group.practiceSharesExplained, team: group.team.json)
            }
            active = changes.activeChats.map { Chat(platform: $0.platform.rawValue, address: $0.value) }
            messages = try changes.messages.enumerated().map { Message(place: $0, stored: try StoredMessage($1)) }
        }
    }

    /// One row of a JSON array of rows (`json_build_array`), its cells read by place; a cell of another type
    /// than asked for is a damaged row of its table.
    struct JSONRow {
        private enum Cell: Decodable {
            case null
            case bool(Bool)
            case number(Double)
            case string(String)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    self = .null
                } else if let bool = try? container.decode(Bool.self) {
                    self = .bool(bool)
                } else if let number = try? container.decode(Double.self) {
                    self = .number(number)
                } else {
                    self = .string(try container.decode(String.self))
                }
            }
        }

        private let cells: [Cell]
        private let table: String

        /// The rows of a JSON array of arrays; none for NULL (an aggregate of no rows).
        static func rows(_ json: String?, table: String) throws -> [JSONRow] {
            guard let json else { return [] }
            do {
                return try JSONDecoder().decode([[Cell]].self, from: Data(json.utf8)).map {
                    JSONRow(cells: $0, table: table)
                }
            } catch {
                throw PostgresStoreError.damagedRow(column: table)
            }
        }

        private func damaged() -> PostgresStoreError { .damagedRow(column: table) }

        func optionalString(_ place: Int) throws -> String? {
            guard place < cells.count else { throw damaged() }
            switch cells[place] {
            case .null: return nil
            case .string(let string): return string
            default: throw damaged()
            }
        }

        func optionalDouble(_ place: Int) throws -> Double? {
            guard place < cells.count else { throw damaged() }
            switch cells[place] {
            case .null: return nil
            case .number(let number): return number
            default: throw damaged()
            }
        }

        func optionalInt(_ place: Int) throws -> Int? {
            guard let number = try optionalDouble(place) else { return nil }
            guard let int = Int(exactly: number) else { throw damaged() }
            return int
        }

        func bool(_ place: Int) throws -> Bool {
            guard place < cells.count, case .bool(let bool) = cells[place] else { throw damaged() }
            return bool
        }

        func string(_ place: Int) throws -> String {
            guard let string = try optionalString(place) else { throw damaged() }
            return string
        }

        func int(_ place: Int) throws -> Int {
            guard let int = try optionalInt(place) else { throw damaged() }
            return int
        }

        func platform(_ place: Int) throws -> Platform {
            guard let platform = Platform(rawValue: try string(place)) else { throw damaged() }
            return platform
        }
    }
#endif
