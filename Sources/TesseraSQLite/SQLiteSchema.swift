import GRDB
import TesseraSQL

/// The store's tables on SQLite: GRDB's migrations, one for each ``SchemaStep`` that SQLite needs, under the names
/// its databases recorded.
enum SQLiteSchema {
    struct Migration {
        let name: String
        let body: @Sendable (Database) throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
            self.name = name
            self.body = body
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for case let migration? in SchemaStep.allCases.map(migration) {
            migrator.registerMigration(migration.name, migrate: migration.body)
        }
        return migrator
    }

    /// SQLite's migration for a step, or nil when SQLite needs none (the reason is beside it).
    static func migration(_ step: SchemaStep) -> Migration? {
        switch step {
        case .firstTables:
            Migration("v1: players, games, chats, outbox") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                        CREATE TABLE transport_position (transport TEXT PRIMARY KEY NOT NULL, next INTEGER NOT NULL);
                        CREATE TABLE player (
                            id INTEGER PRIMARY KEY NOT NULL,
                            display_name TEXT NOT NULL,
                            language TEXT NOT NULL,
                            time_zone TEXT NOT NULL,
                            rollover_hour INTEGER NOT NULL,
                            pending_time_zone TEXT,
                            pending_from INTEGER,
                            prefers_hard_mode INTEGER NOT NULL
                        );
                        CREATE TABLE game (
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            language TEXT NOT NULL,
                            puzzle INTEGER NOT NULL,
                            hard_mode INTEGER NOT NULL,
                            guesses TEXT NOT NULL,
                            won_in INTEGER,
                            lost INTEGER NOT NULL DEFAULT 0,
                            finished_at REAL,
                            PRIMARY KEY (player_id, language, puzzle)
                        );
                        CREATE TABLE chat_member (
                            chat_id INTEGER NOT NULL,
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            PRIMARY KEY (chat_id, player_id)
                        );
                        CREATE TABLE outbox (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            chat_id INTEGER NOT NULL,
                            html TEXT NOT NULL,
                            reply_to INTEGER,
                            not_before REAL NOT NULL DEFAULT 0
                        );
                        """
                )
            }
        case .chatActivity:
            Migration("v2: chat activity") { db in
                try db.execute(
                    sql: "CREATE TABLE chat (id INTEGER PRIMARY KEY NOT NULL, active INTEGER NOT NULL DEFAULT 1)")
            }
        case .groupBoards:
            Migration("v3: group settings and boards") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE chat_group (
                            id INTEGER PRIMARY KEY NOT NULL,
                            time_zone TEXT NOT NULL,
                            rollover_hour INTEGER NOT NULL,
                            language TEXT NOT NULL,
                            hard_mode_required INTEGER NOT NULL,
                            summary_enabled INTEGER NOT NULL,
                            summary_hour INTEGER,
                            topic INTEGER,
                            last_closed_puzzle INTEGER NOT NULL
                        );
                        ALTER TABLE chat_member ADD COLUMN joined_puzzle INTEGER NOT NULL DEFAULT 0;
                        ALTER TABLE outbox ADD COLUMN thread INTEGER;
                        CREATE INDEX chat_member_by_player ON chat_member (player_id);
                        CREATE TABLE board_result (
                            chat_id INTEGER NOT NULL,
                            puzzle INTEGER NOT NULL,
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            language TEXT NOT NULL,
                            guesses INTEGER,
                            hard_mode INTEGER NOT NULL,
                            finished_at REAL NOT NULL,
                            streak_before INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, puzzle, player_id)
                        ) WITHOUT ROWID;
                        CREATE TABLE board_total (
                            chat_id INTEGER NOT NULL,
                            period TEXT NOT NULL,
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            points INTEGER NOT NULL,
                            played INTEGER NOT NULL,
                            wins INTEGER NOT NULL,
                            winning_guesses INTEGER NOT NULL,
                            streak INTEGER NOT NULL,
                            last_puzzle INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, period, player_id)
                        ) WITHOUT ROWID;
                        """
                )
            }
        case .officialBoard:
            Migration("v4: a second board per group, for pasted official results") { db in
                // SQLite cannot change a primary key in place: the tables are rebuilt with the board in their keys.
                try db.execute(
                    sql: """
                        CREATE TABLE board_result_v4 (
                            chat_id INTEGER NOT NULL,
                            board TEXT NOT NULL,
                            puzzle INTEGER NOT NULL,
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            language TEXT NOT NULL,
                            guesses INTEGER,
                            hard_mode INTEGER NOT NULL,
                            finished_at REAL NOT NULL,
                            streak_before INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, board, puzzle, player_id)
                        ) WITHOUT ROWID;
                        INSERT INTO board_result_v4
                            SELECT chat_id, 'tessera', puzzle, player_id, language, guesses, hard_mode, finished_at,
                                streak_before
                            FROM board_result;
                        DROP TABLE board_result;
                        ALTER TABLE board_result_v4 RENAME TO board_result;
                        CREATE TABLE board_total_v4 (
                            chat_id INTEGER NOT NULL,
                            board TEXT NOT NULL,
                            period TEXT NOT NULL,
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            points INTEGER NOT NULL,
                            played INTEGER NOT NULL,
                            wins INTEGER NOT NULL,
                            winning_guesses INTEGER NOT NULL,
                            streak INTEGER NOT NULL,
                            last_puzzle INTEGER NOT NULL,
                            PRIMARY KEY (chat_id, board, period, player_id)
                        ) WITHOUT ROWID;
                        INSERT INTO board_total_v4
                            SELECT chat_id, 'tessera', period, player_id, points, played, wins, winning_guesses, streak,
                                last_puzzle
                            FROM board_total;
                        DROP TABLE board_total;
                        ALTER TABLE board_total_v4 RENAME TO board_total;
                        """
                )
            }
        case .outboxButtons:
            Migration("v5: buttons and documents in the outbox") { db in
                try db.execute(
                    sql: """
                        ALTER TABLE outbox ADD COLUMN buttons TEXT;
                        ALTER TABLE outbox ADD COLUMN document_name TEXT;
                        ALTER TABLE outbox ADD COLUMN document BLOB;
                        """
                )
            }
        case .unfinishedGamesIndex:
            Migration("v6: an index of unfinished games") { db in
                // Today's board lists the members still playing; there are few unfinished games of a day, and
                // many members in a large group.
                try db.execute(
                    sql: """
                        CREATE INDEX game_unfinished ON game (puzzle, language) WHERE won_in IS NULL AND lost = 0
                        """
                )
            }
        case .replayGuards:
            Migration("v7: what stops a forgotten player replaying an open day") { db in
                // A keyed hash of player, language and puzzle: nothing that names the player.
                try db.execute(
                    sql: """
                        CREATE TABLE replay_guard (key TEXT PRIMARY KEY NOT NULL, puzzle INTEGER NOT NULL) WITHOUT ROWID;
                        CREATE INDEX replay_guard_puzzle ON replay_guard (puzzle);
                        """
                )
            }
        case .outboxAttempts:
            Migration("v8: failed attempts and at-most-once posts in the outbox") { db in
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0")
                // What the bot posts unprompted is sent at most once: claimed durably before it is sent.
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN at_most_once INTEGER NOT NULL DEFAULT 0")
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0")
                // Each chat's backlog is counted from this index for every message it sends.
                try db.execute(sql: "CREATE INDEX outbox_due ON outbox (chat_id, id, not_before, claimed)")
            }
        case .outboxInOrder:
            Migration("v9: the outbox in the order it is sent") { db in
                // The sender scans the oldest due messages from this index alone and stops once it has enough; a
                // window over every row (v8's read) cost 15 ms a pass with 6,000 messages waiting.
                try db.execute(sql: "CREATE INDEX outbox_in_order ON outbox (claimed, id, chat_id, not_before)")
            }
        case .revealsAndPendingSettings:
            Migration("v10: words revealed once every member's day is over; settings from the next day") { db in
                // Days closed before this version had their word in their summary.
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN last_revealed_puzzle INTEGER")
                try db.execute(sql: "UPDATE chat_group SET last_revealed_puzzle = last_closed_puzzle")
                // A group's day settings changed by its administrators wait for its next puzzle.
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN pending_time_zone TEXT")
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN pending_rollover_hour INTEGER")
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN pending_language TEXT")
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN pending_from INTEGER")
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN last_closed_language TEXT")
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN silent INTEGER NOT NULL DEFAULT 0")
                // Acknowledgements by reaction instead of a reply.
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN reaction TEXT")
            }
        case .liveBoards:
            Migration("v11: live boards, reactions and deletions as actions, reminders") { db in
                // Reactions, deletions and answers to queries besides posts (JSON; NULL: a post). A reaction
                // still queued becomes the same action.
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN action TEXT")
                try db.execute(
                    sql: """
                        UPDATE outbox SET action = json_object('react', json_object('_0', reaction))
                        WHERE reaction IS NOT NULL
                        """)
                try db.execute(sql: "ALTER TABLE outbox DROP COLUMN reaction")
                // Direct chat or group travels with each message. Rows queued before came from Telegram, whose
                // groups have negative ids.
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN chat_kind TEXT NOT NULL DEFAULT 'direct'")
                try db.execute(sql: "UPDATE outbox SET chat_kind = 'group' WHERE chat_id < 0")
                // One live board per game: the key of a live message, and the post that shows each chat's.
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN live TEXT")
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN reposts_live INTEGER NOT NULL DEFAULT 0")
                try db.execute(
                    sql: """
                        CREATE TABLE live_message (
                            chat_id INTEGER PRIMARY KEY, key TEXT NOT NULL, message_id INTEGER NOT NULL
                        )
                        """)
                // Whether the bot has told a group why it deletes guesses posted there.
                try db.execute(sql: "ALTER TABLE chat_group ADD COLUMN deletion_explained INTEGER NOT NULL DEFAULT 0")
                // Streak reminders, opted into; the last puzzle one was considered for.
                try db.execute(sql: "ALTER TABLE player ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0")
                try db.execute(sql: "ALTER TABLE player ADD COLUMN reminded_puzzle INTEGER")
                try db.execute(sql: "CREATE INDEX player_reminders ON player (id) WHERE reminders = 1")
                // The player's direct chat, recorded when they write there. Players from before are Telegram's,
                // whose direct chat has the user's id.
                try db.execute(sql: "ALTER TABLE player ADD COLUMN direct_chat_id INTEGER")
                try db.execute(sql: "UPDATE player SET direct_chat_id = id")
            }
        case .platformIDs:
            Migration("v12: platform-qualified ids") { db in
                try migrateToPlatformIDs(db)
            }
        case .outboxByChatKind:
            Migration("v13: the outbox in order, direct chats apart from groups") { db in
                // The sender reads direct chats and groups each from its own range of this index.
                try db.execute(
                    sql: """
                        DROP INDEX outbox_in_order;
                        CREATE INDEX outbox_in_order ON outbox (claimed, chat_kind, id, platform, address, not_before);
                        """)
            }
        case .playingLanguage:
            Migration("v14: the daily puzzle a direct chat plays, when not the player's language") { db in
                try db.execute(sql: "ALTER TABLE player ADD COLUMN playing_language TEXT")
            }
        case .gamesByPuzzle:
            Migration("v15: games by puzzle, for who played another language's puzzle") { db in
                try db.execute(sql: "CREATE INDEX game_by_puzzle ON game (puzzle, language)")
            }
        case .analyses:
            Migration("v16: post-game analyses") { db in
                // analysis_state: NULL none asked for, 0 pending, 1 pending and to be shown, 2 done, 3 unavailable.
                try db.execute(
                    sql: """
                        ALTER TABLE game ADD COLUMN analysis_state INTEGER;
                        ALTER TABLE game ADD COLUMN analysis TEXT;
                        CREATE INDEX game_awaiting_analysis ON game (analysis_state, finished_at)
                            WHERE analysis_state IN (0, 1);
                        """)
            }
        case .practiceGames:
            Migration("v17: practice and archive games, apart from the daily games") { db in
                // Nothing that reads `game` (boards, summaries, streaks, reminders, statistics) sees these.
                try db.execute(
                    sql: """
                        CREATE TABLE practice_game (
                            player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                            number INTEGER NOT NULL,
                            archive_puzzle INTEGER,
                            language TEXT NOT NULL,
                            answer TEXT NOT NULL,
                            hard_mode INTEGER NOT NULL,
                            guesses TEXT NOT NULL,
                            won_in INTEGER,
                            lost INTEGER NOT NULL DEFAULT 0,
                            abandoned INTEGER NOT NULL DEFAULT 0,
                            started_at REAL NOT NULL,
                            finished_at REAL,
                            has_focus INTEGER NOT NULL,
                            PRIMARY KEY (player_id, number)
                        );
                        ALTER TABLE chat_group ADD COLUMN practice_shares_explained INTEGER NOT NULL DEFAULT 0;
                        """)
            }
        case .practiceAnalyses:
            Migration("v18: practice games' analyses, and whether one may take a word") { db in
                // A player with any practice game starts with the flag set: it only costs a read, and the next word
                // sets it right.
                try db.execute(
                    sql: """
                        ALTER TABLE practice_game ADD COLUMN analysis_state INTEGER;
                        ALTER TABLE practice_game ADD COLUMN analysis TEXT;
                        CREATE INDEX practice_game_awaiting_analysis ON practice_game (analysis_state, finished_at)
                            WHERE analysis_state IN (0, 1);
                        ALTER TABLE player ADD COLUMN practice_in_play INTEGER NOT NULL DEFAULT 0;
                        UPDATE player SET practice_in_play = 1
                            WHERE id IN (SELECT player_id FROM practice_game);
                        """)
            }
        case .practiceStarts:
            Migration("v19: practice games started a day, by a one-way key") { db in
                // Games started today before this version are not counted: at most one more day's worth.
                try db.execute(
                    sql: """
                        CREATE TABLE practice_start (
                            key TEXT PRIMARY KEY NOT NULL, puzzle INTEGER NOT NULL, games INTEGER NOT NULL
                        ) WITHOUT ROWID;
                        CREATE INDEX practice_start_puzzle ON practice_start (puzzle);
                        """)
            }
        case .resultsByPlayer:
            Migration("v20: a player's results on every board, for their pasted results in /stats") { db in
                // As on PostgreSQL (board_result_by_player).
                try db.execute(sql: "CREATE INDEX board_result_by_player ON board_result (player_id)")
            }
        case .followers:
            Migration("v21: players who follow the day of the group where they were first met") { db in
                // Players met before this version keep the day they have, as if they had chosen it.
                try db.execute(
                    sql: """
                        ALTER TABLE player ADD COLUMN follows_group TEXT;
                        CREATE INDEX player_follows_group ON player (platform, follows_group)
                            WHERE follows_group IS NOT NULL;
                        """)
            }
        case .groupTeam:
            Migration("v22: the group as a team: its streak of days together, its nudge") { db in
                // JSON (GroupTeam): what a team keeps grows without a migration for each field.
                try db.execute(
                    sql: """
                        ALTER TABLE chat_group ADD COLUMN team TEXT NOT NULL DEFAULT '{}';
                        ALTER TABLE player ADD COLUMN named_in_nudges INTEGER NOT NULL DEFAULT 1;
                        """)
            }
        case .celebrations:
            Migration("v23: a win's celebration, which players may turn off") { db in
                try db.execute(
                    sql: """
                        ALTER TABLE player ADD COLUMN message_effects INTEGER NOT NULL DEFAULT 1;
                        ALTER TABLE outbox ADD COLUMN effect TEXT;
                        """)
            }
        case .richLayout:
            Migration("v24: boards laid out with tables") { db in
                try db.execute(sql: "ALTER TABLE outbox ADD COLUMN rich TEXT")
            }
        case .dayBestIndex:
            Migration("v25: a day's best result found in an index, for the crowns on boards") { db in
                try db.execute(sql: "CREATE INDEX board_result_best ON board_result (chat_id, board, puzzle, guesses)")
            }
        // `/forgetme` deletes a player's totals: found by the player, not by reading every board's (PostgreSQL has
        // had it from its first version; the schema test found it missing here).
        case .totalsByPlayer:
            Migration("v26: board totals found by their player") { db in
                try db.execute(sql: "CREATE INDEX board_total_by_player ON board_total (player_id)")
            }
        case .pictures:
            Migration("v27: pictures, which players may turn off") { db in
                try db.execute(
                    sql: """
                        ALTER TABLE player ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
                        ALTER TABLE outbox ADD COLUMN picture TEXT;
                        """)
            }
        // PostgreSQL's members carry copies of their player's day for its boards' reads; SQLite joins the player.
        case .membersCarryTheirDay, .membersCarryTheirPendingZone, .membersCarryTheirPendingFrom: nil
        }
    }

    /// Every id becomes a platform's name for something, opaque to Tessera: players and chats keep their
    /// integer row ids, which every table joins on, and gain their platform and its id for them; messages,
    /// threads and transport positions become text. Everything stored before came from Telegram, whose ids
    /// were the row ids. A player's `account` has no type: an id spelled as a number is kept as an integer
    /// (``SQLiteTransaction/account(_:)``), which large boards read without making a string. The outbox also gets the random start of its messages' keys (``OutboxEntry/key``).
    static func migrateToPlatformIDs(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE player ADD COLUMN platform TEXT NOT NULL DEFAULT 'telegram';
                ALTER TABLE player ADD COLUMN account NOT NULL DEFAULT '';
                UPDATE player SET account = id;
                CREATE UNIQUE INDEX player_by_account ON player (platform, account);
                ALTER TABLE player ADD COLUMN direct_chat TEXT;
                UPDATE player SET direct_chat = CAST(direct_chat_id AS TEXT);
                ALTER TABLE player DROP COLUMN direct_chat_id;

                ALTER TABLE chat ADD COLUMN platform TEXT NOT NULL DEFAULT 'telegram';
                ALTER TABLE chat ADD COLUMN address TEXT NOT NULL DEFAULT '';
                INSERT OR IGNORE INTO chat (id)
                    SELECT chat_id FROM chat_member UNION SELECT id FROM chat_group
                    UNION SELECT chat_id FROM board_result UNION SELECT chat_id FROM board_total;
                UPDATE chat SET address = CAST(id AS TEXT);
                CREATE UNIQUE INDEX chat_by_address ON chat (platform, address);

                ALTER TABLE chat_group ADD COLUMN topic_message TEXT;
                UPDATE chat_group SET topic_message = CAST(topic AS TEXT);
                ALTER TABLE chat_group DROP COLUMN topic;
                ALTER TABLE chat_group RENAME COLUMN topic_message TO topic;

                CREATE TABLE transport_position_v12 (transport TEXT PRIMARY KEY NOT NULL, next TEXT NOT NULL);
                INSERT INTO transport_position_v12 SELECT transport, CAST(next AS TEXT) FROM transport_position;
                DROP TABLE transport_position;
                ALTER TABLE transport_position_v12 RENAME TO transport_position;

                CREATE TABLE live_message_v12 (
                    platform TEXT NOT NULL, address TEXT NOT NULL, key TEXT NOT NULL, message_id TEXT NOT NULL,
                    PRIMARY KEY (platform, address)
                ) WITHOUT ROWID;
                INSERT INTO live_message_v12
                    SELECT 'telegram', CAST(chat_id AS TEXT), key, CAST(message_id AS TEXT) FROM live_message;
                DROP TABLE live_message;
                ALTER TABLE live_message_v12 RENAME TO live_message;
                """)
        // The outbox names each chat as its platform does, so a message needs no chat row (a forgotten player's
        // last reply leaves none behind). Rebuilt in its order, so messages keep their ids and go out as queued.
        try db.execute(
            sql: """
                CREATE TABLE outbox_v12 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    platform TEXT NOT NULL,
                    address TEXT NOT NULL,
                    chat_kind TEXT NOT NULL,
                    html TEXT NOT NULL,
                    reply_to TEXT,
                    thread TEXT,
                    buttons TEXT,
                    document_name TEXT,
                    document BLOB,
                    not_before REAL NOT NULL DEFAULT 0,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    at_most_once INTEGER NOT NULL DEFAULT 0,
                    claimed INTEGER NOT NULL DEFAULT 0,
                    silent INTEGER NOT NULL DEFAULT 0,
                    action TEXT,
                    live TEXT,
                    reposts_live INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO outbox_v12 (id, platform, address, chat_kind, html, reply_to, thread, buttons,
                    document_name, document, not_before, attempts, at_most_once, claimed, silent, action, live,
                    reposts_live)
                SELECT id, 'telegram', CAST(chat_id AS TEXT), chat_kind, html, CAST(reply_to AS TEXT),
                    CAST(thread AS TEXT), buttons, document_name, document, not_before, attempts, at_most_once,
                    claimed, silent, action, live, reposts_live
                FROM outbox ORDER BY id;
                DROP TABLE outbox;
                ALTER TABLE outbox_v12 RENAME TO outbox;
                CREATE INDEX outbox_in_order ON outbox (claimed, id, platform, address, not_before);
                CREATE INDEX outbox_due ON outbox (platform, address, id, not_before, claimed);
                """)
        try db.execute(
            sql: "INSERT INTO setting (key, value) VALUES (?, lower(hex(randomblob(8))))",
            arguments: [SQLiteGameStore.outboxKeySetting]
        )
    }
}
