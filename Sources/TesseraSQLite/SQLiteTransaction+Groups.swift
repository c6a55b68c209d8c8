import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// Groups and their members (``GroupStorage``, but for the boards) as SQLite runs them.
extension SQLiteTransaction {
    func activeGroups(on platform: Platform?) throws -> [Group] {
        try db.cachedRows(
            sql: """
                SELECT \(SQLColumns.groupSelection) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.active = 1 AND (?1 IS NULL OR chat.platform = ?1)
                """,
            arguments: [platform?.rawValue]
        ).map { try Self.group($0) }
    }

    func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
        throws -> [MemberDay]
    {
        guard let chatKey = try rowID(of: chat) else { return [] }
        return try db.cachedRows(
            sql: """
                SELECT DISTINCT player.time_zone, player.rollover_hour, player.pending_time_zone, player.pending_from
                FROM chat_member
                JOIN player ON player.id = chat_member.player_id WHERE chat_member.chat_id = ?
                AND NOT EXISTS (
                    SELECT 1 FROM board_result r WHERE r.chat_id = chat_member.chat_id
                    AND r.player_id = chat_member.player_id
                    AND ((r.board = ? AND r.puzzle = ?) OR (r.board = ? AND r.puzzle = ?)))
                """,
            arguments: [
                chatKey, BoardKind.tessera.rawValue, puzzle.rawValue, BoardKind.official.rawValue, official.rawValue,
            ]
        ).map {
            MemberDay(
                timeZone: $0[0], rolloverHour: $0[1], pendingTimeZone: $0[2],
                pendingFrom: ($0[3] as Int?).map { PuzzleNumber($0) })
        }
    }

    func groups(crowning player: UserID) throws -> [Group] {
        // The team is JSON: a search for the account as JSON writes it, then the rule read from the decoded team.
        try db.cachedRows(
            sql: """
                SELECT \(SQLColumns.groupSelection) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.platform = ? AND instr(chat_group.team, ?) > 0
                """,
            arguments: [player.platform.rawValue, GroupTeam.searchKey(for: player)]
        ).map { try Self.group($0) }.filter { $0.team.champions.contains(player) }
    }

    func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) throws -> Bool {
        guard let key = try rowID(of: player) else { throw StoreMisuse.unknownPlayer(player) }
        // A group's members are people of its platform: boards read their ids on that alone.
        guard player.platform == chat.platform else { throw StoreMisuse.memberOfAnotherPlatform(player, chat) }
        try db.executeCached(
            sql: "INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [try storedRowID(of: chat), key, joinedPuzzle.rawValue]
        )
        return db.changesCount > 0
    }

    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) throws -> [(name: String, guesses: Int)]
    {
        guard let chatKey = try rowID(of: chat) else { return [] }
        // Driven by the partial index of unfinished games: few, compared with a large group's members.
        return try db.cachedRows(
            sql: """
                SELECT p.display_name, g.guesses FROM game g
                JOIN chat_member m ON m.chat_id = ? AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = ? AND g.language = ? AND g.won_in IS NULL AND g.lost = 0 AND g.guesses != ''
                """,
            arguments: [chatKey, puzzle.rawValue, language.rawValue]
        ).map { row in
            let guesses: String = try row.required("guesses", in: "game")
            return (name: try row.required("display_name", in: "player"), guesses: guesses.split(separator: " ").count)
        }
    }

    func moveChat(from old: ChatID, to new: ChatID) throws {
        // Queued and live messages name a chat as the platform does; the new chat's own live message wins.
        for table in ["outbox", "live_message"] {
            try db.execute(
                sql: "UPDATE OR IGNORE \(table) SET platform = ?, address = ? WHERE platform = ? AND address = ?",
                arguments: [new.platform.rawValue, new.value, old.platform.rawValue, old.value])
            try db.execute(
                sql: "DELETE FROM \(table) WHERE platform = ? AND address = ?",
                arguments: [old.platform.rawValue, old.value])
        }
        guard let oldKey = try rowID(of: old) else { return }
        guard let newKey = try rowID(of: new) else {
            // Every table names the chat by its row id: giving the row the new id moves everything.
            try db.execute(
                sql: "UPDATE chat SET platform = ?, address = ? WHERE id = ?",
                arguments: [new.platform.rawValue, new.value, oldKey])
            return
        }
        // Both ids have data: the old one's joins the new one's, which wins where both have a row.
        for table in ["chat_member", "chat_group", "board_result", "board_total"] {
            let column = table == "chat_group" ? "id" : "chat_id"
            try db.execute(
                sql: "UPDATE OR IGNORE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [newKey, oldKey])
            try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [oldKey])
        }
        try db.execute(sql: "DELETE FROM chat WHERE id = ?", arguments: [oldKey])
    }
}
