#if PostgreSQL
    import Logging
    import PostgresNIO
    import TesseraSQL

    /// The store's tables on PostgreSQL, in versioned migrations as SQLite's are: each runs once, in a transaction
    /// with its name recorded, and a database that names a migration this build does not know is refused before
    /// anything is touched.
    enum PostgresSchema {
        /// A session-level advisory lock's key for migrating: processes starting together migrate one at a time.
        static let migrationLock: Int64 = 0x7465_7373_6d69_6772

        struct Migration {
            let name: String
            let sql: [String]
        }

        /// PostgreSQL's migrations, in the order of ``SchemaStep``, under the names its databases recorded.
        static let migrations: [Migration] = SchemaStep.allCases.compactMap(migration)

        /// PostgreSQL's migration for a step, or nil when PostgreSQL needs none (the reason is beside it).
        static func migration(_ step: SchemaStep) -> Migration? {
            switch step {
            case .firstTables:
                Migration(
                    name: "v1: players, chats, games, boards, outbox",
                    sql: [
                        "CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                        "CREATE TABLE transport_position (transport TEXT PRIMARY KEY, next TEXT NOT NULL)",
                        """
                        CREATE TABLE player (
                            id BIGSERIAL PRIMARY KEY,
                            platform TEXT NOT NULL,
                            account TEXT NOT NULL,
                            display_name TEXT NOT NULL,
                            language TEXT NOT NULL,
                            time_zone TEXT NOT NULL,
                            rollover_hour INTEGER NOT NULL,
                            pending_time_zone TEXT,
                            pending_from INTEGER,
                            prefers_hard_mode BOOLEAN NOT NULL,
                            reminders BOOLEAN NOT NULL DEFAULT false,
                            reminded_puzzle INTEGER,
                            direct_chat TEXT,
                            UNIQUE (platform, account)
                        )
                        """,
                        "CREATE INDEX player_reminders ON player (id) WHERE reminders",
                        """
                        CREATE TABLE game (
                            player_id BIGINT NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                            language TEXT NOT NULL,
                            puzzle INTEGER NOT NULL,
                            hard_mode BOOLEAN NOT NULL,
                            guesses TEXT NOT NULL,
                            won_in INTEGER,
                            lost BOOLEAN NOT NULL DEFAULT false,
                            finished_at DOUBLE PRECISION,
                            PRIMARY KEY (player_id, language, puzzle)
                        )
                        """,
                        "CREATE INDEX game_unfinished ON game (puzzle, language) WHERE won_in IS NULL AND NOT lost",
                        """
                        CREATE TABLE chat (
                            id BIGSERIAL PRIMARY KEY,
                            platform TEXT NOT NULL,
                            address TEXT NOT NULL,
                            active BOOLEAN NOT NULL DEFAULT true,
                            UNIQUE (platform, address)
                        )
                        """,
                        """
                        CREATE TABLE chat_group (
                            id BIGINT PRIMARY KEY REFERENCES chat (id) ON DELETE CASCADE,
                            time_zone TEXT NOT NULL,
                            rollover_hour INTEGER NOT NULL,
                            language TEXT NOT NULL,
                            hard_mode_required BOOLEAN NOT NULL,
                            summary_enabled BOOLEAN NOT NULL,
                            summary_hour INTEGER,
                            topic TEXT,
                            last_closed_puzzle INTEGER NOT NULL,
                            last_revealed_puzzle INTEGER NOT NULL,
                            pending_time_zone TEXT,
                            pending_rollover_hour INTEGER,
                            pending_language TEXT,
                            pending_from INTEGER,
                            last_closed_language TEXT,
                            deletion_explained BOOLEAN NOT NULL DEFAULT false
                        )
                        """,
                        """
                        CREATE TABLE chat_member (
                            chat_id BIGINT NOT NULL REFERENCES chat (id) ON DELETE CASCADE,
                            player_id BIGINT NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                            joined_puzzle INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, player_id)
                        )
                        """,
                        "CREATE INDEX chat_member_by_player ON chat_member (player_id)",
                        """
                        CREATE TABLE board_result (
                            chat_id BIGINT NOT NULL REFERENCES chat (id) ON DELETE CASCADE,
                            board TEXT NOT NULL,
                            puzzle INTEGER NOT NULL,
                            player_id BIGINT NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                            language TEXT NOT NULL,
                            guesses INTEGER,
                            hard_mode BOOLEAN NOT NULL,
                            finished_at DOUBLE PRECISION NOT NULL,
                            streak_before INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, board, puzzle, player_id)
                        )
                        """,
                        "CREATE INDEX board_result_by_player ON board_result (player_id)",
                        """
                        CREATE TABLE board_total (
                            chat_id BIGINT NOT NULL REFERENCES chat (id) ON DELETE CASCADE,
                            board TEXT NOT NULL,
                            period TEXT NOT NULL,
                            player_id BIGINT NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                            points INTEGER NOT NULL,
                            played INTEGER NOT NULL,
                            wins INTEGER NOT NULL,
                            winning_guesses INTEGER NOT NULL,
                            streak INTEGER NOT NULL,
                            last_puzzle INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, board, period, player_id)
                        )
                        """,
                        "CREATE INDEX board_total_by_player ON board_total (player_id)",
                        "CREATE TABLE replay_guard (key TEXT PRIMARY KEY, puzzle INTEGER NOT NULL)",
                        "CREATE INDEX replay_guard_puzzle ON replay_guard (puzzle)",
                        """
                        CREATE TABLE live_message (
                            platform TEXT NOT NULL,
                            address TEXT NOT NULL,
                            key TEXT NOT NULL,
                            message_id TEXT NOT NULL,
                            PRIMARY KEY (platform, address)
                        )
                        """,
                        """
                        CREATE TABLE outbox (
                            id BIGSERIAL PRIMARY KEY,
                            platform TEXT NOT NULL,
                            address TEXT NOT NULL,
                            chat_kind TEXT NOT NULL,
                            html TEXT NOT NULL,
                            reply_to TEXT,
                            thread TEXT,
                            buttons TEXT,
                            document_name TEXT,
                            document BYTEA,
                            not_before DOUBLE PRECISION NOT NULL DEFAULT 0,
                            attempts INTEGER NOT NULL DEFAULT 0,
                            at_most_once BOOLEAN NOT NULL DEFAULT false,
                            claimed BOOLEAN NOT NULL DEFAULT false,
                            silent BOOLEAN NOT NULL DEFAULT false,
                            action TEXT,
                            live TEXT,
                            reposts_live BOOLEAN NOT NULL DEFAULT false,
                            -- While a sender holds a message, between reading and marking it sent: who, and until when
                            -- by the database's clock.
                            leased_by TEXT,
                            leased_until TIMESTAMPTZ
                        )
                        """,
                        "CREATE INDEX outbox_in_order ON outbox (claimed, id) INCLUDE (platform, address, not_before)",
                        "CREATE INDEX outbox_by_chat ON outbox (platform, address, id)",
                        "INSERT INTO setting (key, value) VALUES ('outbox.key', md5(random()::text || clock_timestamp()::text))",
                    ])
            // A board of thousands reads its members from one range of chat_member. Joined to player for their
            // names instead, it read the whole player table on every board (a hash join), or probed it once a
            // member: 10 ms for 10,000 members of 110,000 players, and more as the players grow. Members carry
            // copies of what boards show of their player; addMember writes them, and a trigger keeps them.
            case .membersCarryTheirDay:
                Migration(
                    name: "v2: members carry their player's name and day",
                    sql: [
                        """
                        ALTER TABLE chat_member ADD COLUMN account TEXT, ADD COLUMN display_name TEXT,
                            ADD COLUMN time_zone TEXT, ADD COLUMN rollover_hour INTEGER
                        """,
                        """
                        UPDATE chat_member m SET account = p.account, display_name = p.display_name, time_zone = p.time_zone,
                            rollover_hour = p.rollover_hour
                        FROM player p WHERE p.id = m.player_id
                        """,
                        """
                        ALTER TABLE chat_member ALTER COLUMN account SET NOT NULL, ALTER COLUMN display_name SET NOT NULL,
                            ALTER COLUMN time_zone SET NOT NULL, ALTER COLUMN rollover_hour SET NOT NULL
                        """,
                        // A player's account never changes: it is how the player row is found.
                        """
                        CREATE FUNCTION tessera_player_to_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            UPDATE chat_member SET display_name = NEW.display_name, time_zone = NEW.time_zone,
                                rollover_hour = NEW.rollover_hour
                            WHERE player_id = NEW.id;
                            RETURN NULL;
                        END
                        $$
                        """,
                        """
                        CREATE TRIGGER player_to_memberships AFTER UPDATE OF display_name, time_zone, rollover_hour ON player
                        FOR EACH ROW WHEN (
                            (OLD.display_name, OLD.time_zone, OLD.rollover_hour)
                                IS DISTINCT FROM (NEW.display_name, NEW.time_zone, NEW.rollover_hour)
                        )
                        EXECUTE FUNCTION tessera_player_to_memberships()
                        """,
                    ])
            // The word of a day waits for members who may still be playing it on a zone they are moving to.
            case .membersCarryTheirPendingZone:
                Migration(
                    name: "v3: members carry their pending zone",
                    sql: [
                        "ALTER TABLE chat_member ADD COLUMN pending_time_zone TEXT",
                        """
                        UPDATE chat_member m SET pending_time_zone = p.pending_time_zone
                        FROM player p WHERE p.id = m.player_id AND p.pending_time_zone IS NOT NULL
                        """,
                        """
                        CREATE OR REPLACE FUNCTION tessera_player_to_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            UPDATE chat_member SET display_name = NEW.display_name, time_zone = NEW.time_zone,
                                rollover_hour = NEW.rollover_hour, pending_time_zone = NEW.pending_time_zone
                            WHERE player_id = NEW.id;
                            RETURN NULL;
                        END
                        $$
                        """,
                        "DROP TRIGGER player_to_memberships ON player",
                        """
                        CREATE TRIGGER player_to_memberships
                        AFTER UPDATE OF display_name, time_zone, rollover_hour, pending_time_zone ON player
                        FOR EACH ROW WHEN (
                            (OLD.display_name, OLD.time_zone, OLD.rollover_hour, OLD.pending_time_zone)
                                IS DISTINCT FROM (NEW.display_name, NEW.time_zone, NEW.rollover_hour, NEW.pending_time_zone)
                        )
                        EXECUTE FUNCTION tessera_player_to_memberships()
                        """,
                    ])
            // The sender reads direct chats and groups each from its own range of this index.
            case .outboxByChatKind:
                Migration(
                    name: "v4: the outbox in order, direct chats apart from groups",
                    sql: [
                        "DROP INDEX outbox_in_order",
                        "CREATE INDEX outbox_in_order ON outbox (claimed, chat_kind, id) INCLUDE (platform, address, not_before)",
                    ])
            case .playingLanguage:
                Migration(
                    name: "v5: the daily puzzle a direct chat plays, when not the player's language",
                    sql: ["ALTER TABLE player ADD COLUMN playing_language TEXT"])
            case .gamesByPuzzle:
                Migration(
                    name: "v6: games by puzzle, for who played another language's puzzle",
                    sql: ["CREATE INDEX game_by_puzzle ON game (puzzle, language)"])
            // analysis_state: NULL none asked for, 0 pending, 1 pending and to be shown, 2 done, 3 unavailable.
            case .analyses:
                Migration(
                    name: "v7: post-game analyses",
                    sql: [
                        "ALTER TABLE game ADD COLUMN analysis_state SMALLINT",
                        "ALTER TABLE game ADD COLUMN analysis TEXT",
                        """
                        CREATE INDEX game_awaiting_analysis ON game (analysis_state, finished_at)
                            WHERE analysis_state IN (0, 1)
                        """,
                    ])
            // Nothing that reads `game` (boards, summaries, streaks, reminders, statistics) sees these.
            case .practiceGames:
                Migration(
                    name: "v8: practice and archive games, apart from the daily games",
                    sql: [
                        """
                        CREATE TABLE practice_game (
                            player_id BIGINT NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                            number INTEGER NOT NULL,
                            archive_puzzle INTEGER,
                            language TEXT NOT NULL,
                            answer TEXT NOT NULL,
                            hard_mode BOOLEAN NOT NULL,
                            guesses TEXT NOT NULL,
                            won_in INTEGER,
                            lost BOOLEAN NOT NULL DEFAULT false,
                            abandoned BOOLEAN NOT NULL DEFAULT false,
                            started_at DOUBLE PRECISION NOT NULL,
                            finished_at DOUBLE PRECISION,
                            has_focus BOOLEAN NOT NULL,
                            PRIMARY KEY (player_id, number)
                        )
                        """,
                        "ALTER TABLE chat_group ADD COLUMN practice_shares_explained BOOLEAN NOT NULL DEFAULT false",
                    ])
            // A player with any practice game starts with the flag set: it only costs a read, and the next word
            // sets it right.
            case .practiceAnalyses:
                Migration(
                    name: "v9: practice games' analyses, and whether one may take a word",
                    sql: [
                        "ALTER TABLE practice_game ADD COLUMN analysis_state SMALLINT",
                        "ALTER TABLE practice_game ADD COLUMN analysis TEXT",
                        """
                        CREATE INDEX practice_game_awaiting_analysis ON practice_game (analysis_state, finished_at)
                            WHERE analysis_state IN (0, 1)
                        """,
                        "ALTER TABLE player ADD COLUMN practice_in_play BOOLEAN NOT NULL DEFAULT false",
                        "UPDATE player SET practice_in_play = true WHERE id IN (SELECT player_id FROM practice_game)",
                    ])
            // Games started today before this version are not counted: at most one more day's worth.
            case .practiceStarts:
                Migration(
                    name: "v10: practice games started a day, by a one-way key",
                    sql: [
                        "CREATE TABLE practice_start (key TEXT PRIMARY KEY, puzzle INTEGER NOT NULL, games INTEGER NOT NULL)",
                        "CREATE INDEX practice_start_puzzle ON practice_start (puzzle)",
                    ])
            // Players met before this version keep the day they have, as if they had chosen it.
            case .followers:
                Migration(
                    name: "v11: players who follow the day of the group where they were first met",
                    sql: [
                        "ALTER TABLE player ADD COLUMN follows_group TEXT",
                        """
                        CREATE INDEX player_follows_group ON player (platform, follows_group)
                        WHERE follows_group IS NOT NULL
                        """,
                    ])
            // JSON (GroupTeam): what a team keeps grows without a migration for each field.
            case .groupTeam:
                Migration(
                    name: "v12: the group as a team: its streak of days together, its nudge",
                    sql: [
                        "ALTER TABLE chat_group ADD COLUMN team TEXT NOT NULL DEFAULT '{}'",
                        "ALTER TABLE player ADD COLUMN named_in_nudges BOOLEAN NOT NULL DEFAULT true",
                    ])
            case .celebrations:
                Migration(
                    name: "v13: a win's celebration, which players may turn off",
                    sql: [
                        "ALTER TABLE player ADD COLUMN message_effects BOOLEAN NOT NULL DEFAULT true",
                        "ALTER TABLE outbox ADD COLUMN effect TEXT",
                    ])
            case .richLayout:
                Migration(name: "v14: boards laid out with tables", sql: ["ALTER TABLE outbox ADD COLUMN rich TEXT"])
            case .dayBestIndex:
                Migration(
                    name: "v15: a day's best result found in an index, for the crowns on boards",
                    sql: ["CREATE INDEX board_result_best ON board_result (chat_id, board, puzzle, guesses)"])
            // A member moving zones is on the puzzle the player is on (MemberDay): a group needs when the move
            // takes effect, not only where to.
            case .membersCarryTheirPendingFrom:
                Migration(
                    name: "v16: members carry the puzzle their pending zone takes effect on",
                    sql: [
                        "ALTER TABLE chat_member ADD COLUMN pending_from INTEGER",
                        """
                        UPDATE chat_member m SET pending_from = p.pending_from
                        FROM player p WHERE p.id = m.player_id AND p.pending_from IS NOT NULL
                        """,
                        """
                        CREATE OR REPLACE FUNCTION tessera_player_to_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            UPDATE chat_member SET display_name = NEW.display_name, time_zone = NEW.time_zone,
                                rollover_hour = NEW.rollover_hour, pending_time_zone = NEW.pending_time_zone,
                                pending_from = NEW.pending_from
                            WHERE player_id = NEW.id;
                            RETURN NULL;
                        END
                        $$
                        """,
                        "DROP TRIGGER player_to_memberships ON player",
                        """
                        CREATE TRIGGER player_to_memberships
                        AFTER UPDATE OF display_name, time_zone, rollover_hour, pending_time_zone, pending_from ON player
                        FOR EACH ROW WHEN (
                            (OLD.display_name, OLD.time_zone, OLD.rollover_hour, OLD.pending_time_zone, OLD.pending_from)
                                IS DISTINCT FROM
                                (NEW.display_name, NEW.time_zone, NEW.rollover_hour, NEW.pending_time_zone, NEW.pending_from)
                        )
                        EXECUTE FUNCTION tessera_player_to_memberships()
                        """,
                    ])
            case .pictures:
                Migration(
                    name: "v17: pictures, which players may turn off",
                    sql: [
                        "ALTER TABLE player ADD COLUMN pictures BOOLEAN NOT NULL DEFAULT true",
                        "ALTER TABLE outbox ADD COLUMN picture TEXT",
                    ])
            // PostgreSQL's first tables were SQLite's as they stood after platform-qualified ids, with the indexes
            // of a player's results and totals.
            case .chatActivity, .groupBoards, .officialBoard, .outboxButtons, .unfinishedGamesIndex, .replayGuards,
                .outboxAttempts, .outboxInOrder, .revealsAndPendingSettings, .liveBoards, .platformIDs,
                .resultsByPlayer, .totalsByPlayer:
                nil
            }
        }

        /// Refuses a database with migrations this build does not know, or none at all, reading only.
        static func check(_ connection: PostgresConnection, database: String, logger: Logger) async throws {
            var known = false
            for try await exists in try await connection.checkedQuery(
                "SELECT to_regclass('tessera_migration') IS NOT NULL", logger: logger
            ).decode(Bool.self) {
                known = exists
            }
            guard known else { throw PostgresStoreError.notMigrated(database: database) }
            _ = try await appliedMigrations(connection, database: database, logger: logger)
        }

        /// The migrations applied to the database; throws when it has one this build does not know.
        private static func appliedMigrations(_ connection: PostgresConnection, database: String, logger: Logger)
            async throws -> Set<String>
        {
            var applied: Set<String> = []
            for try await name in try await connection.checkedQuery(
                "SELECT name FROM tessera_migration", logger: logger
            )
            .decode(String.self) {
                applied.insert(name)
            }
            let unknown = applied.subtracting(migrations.map(\.name))
            guard unknown.isEmpty else {
                throw PostgresStoreError.newerSchema(database: database, unknownMigrations: unknown.sorted())
            }
            return applied
        }

        /// Brings the schema up to date in one transaction (PostgreSQL's DDL is transactional), one process at a
        /// time; refuses a database with migrations this build does not know, changing nothing.
        static func migrate(_ connection: PostgresConnection, database: String, logger: Logger) async throws {
            try await connection.inTransaction(logger: logger) { connection in
                try await connection.checkedQuery("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
                try await connection.checkedQuery(
                    """
                    CREATE TABLE IF NOT EXISTS tessera_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)
                    """,
                    logger: logger)
                let applied = try await appliedMigrations(connection, database: database, logger: logger)
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.sql {
                        try await connection.checkedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.checkedQuery(
                        "INSERT INTO tessera_migration (name, applied_at) VALUES (\(migration.name), now())",
                        logger: logger)
                    logger.info("Migrating the database", metadata: ["migration": "\(migration.name)"])
                }
            }
        }
    }
#endif
