import Foundation
import GRDB
import TesseraCore
import TesseraEngine
import TesseraSQL

/// A batch's reads in a few statements, whatever its size, and its writes in one pass on the writer's queue
/// (``BatchStorage``): SQLite costs no round trip, but a statement and a hop to the queue a read would.
extension SQLiteTransaction {
    func load(_ needs: BatchNeeds) throws -> BatchValues {
        var values = BatchValues()
        var players: [Int64: UserID] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT player.* FROM json_each(?) AS w JOIN player ON player.platform = json_extract(w.value, '$[0]')
                        AND player.account = json_extract(w.value, '$[1]')
                    """), arguments: [Self.pairs(needs.players.map { ($0.platform, Self.account($0)) })])
        {
            let player = try SQLRow.player(row)
            values.players[player.id] = player
            players[row["id"]] = player.id
        }
        for id in needs.players { values.memberships[id] = [] }
        let keys = Self.json(players.keys.map(String.init))
        if let puzzles = needs.puzzles {
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT player_id, \(SQLColumns.gameSelection) FROM game
                        WHERE player_id IN (SELECT value FROM json_each(?)) AND puzzle BETWEEN ? AND ?
                        """), arguments: [keys, puzzles.lowerBound.rawValue, puzzles.upperBound.rawValue])
            {
                guard let player = players[row["player_id"]] else { continue }
                let game = try Self.game(row, of: player)
                values.games[game.key] = game
            }
        }
        try loadBoards(of: players, keys: keys, needs, into: &values)
        try loadChats(needs, into: &values)
        return values
    }

    /// The groups whose boards the players are on, and their totals there over the periods asked for.
    private func loadBoards(
        of players: [Int64: UserID], keys: String, _ needs: BatchNeeds, into values: inout BatchValues
    ) throws {
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT chat_member.player_id AS member, \(SQLColumns.groupSelection) FROM chat_member
                    JOIN chat_group ON chat_group.id = chat_member.chat_id JOIN chat ON chat.id = chat_member.chat_id
                    WHERE chat_member.player_id IN (SELECT value FROM json_each(?))
                    """), arguments: [keys])
        {
            guard let player = players[row["member"]] else { continue }
            let group = try Self.group(row)
            values.groups[group.chat] = group
            values.memberships[player, default: []].append(group.chat)
        }
        // Their totals on those groups' own boards: each membership's few periods, found by the table's key.
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT chat_member.player_id AS member, chat.platform, chat.address, board_total.*
                    FROM chat_member JOIN chat ON chat.id = chat_member.chat_id
                    JOIN board_total ON board_total.chat_id = chat_member.chat_id AND board_total.board = ?1
                        AND board_total.period IN (SELECT value FROM json_each(?3))
                        AND board_total.player_id = chat_member.player_id
                    WHERE chat_member.player_id IN (SELECT value FROM json_each(?2))
                    """),
            arguments: [BoardKind.tessera.rawValue, keys, Self.jsonArray(needs.periods.map(\.rawValue))])
        {
            guard let player = players[row["member"]] else { continue }
            let period = PeriodKey(rawValue: try row.required("period", in: "board_total"))
            values.totals[TotalsKey(player: player, chat: try Self.chat(row, in: "chat"), period: period)] =
                try Self.boardTotals(row)
        }
    }

    /// The groups asked for, the chats' waiting messages and the replay guards: what `needs` asks of chats and
    /// keys rather than of players.
    private func loadChats(_ needs: BatchNeeds, into values: inout BatchValues) throws {
        let groups = Self.pairs(needs.groups.map { ($0.platform, $0.value) })
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(SQLColumns.groupSelection) FROM json_each(?) AS w JOIN chat
                        ON chat.platform = json_extract(w.value, '$[0]') AND chat.address = json_extract(w.value, '$[1]')
                    JOIN chat_group ON chat_group.id = chat.id
                    """), arguments: [groups])
        {
            let group = try Self.group(row)
            values.groups[group.chat] = group
        }
        let chats = Self.pairs(needs.pendingCounts.map { ($0.platform, $0.value) })
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT outbox.platform, outbox.address, count(*) AS waiting FROM json_each(?) AS w JOIN outbox
                        ON outbox.platform = json_extract(w.value, '$[0]') AND outbox.address = json_extract(w.value, '$[1]')
                    GROUP BY outbox.platform, outbox.address
                    """), arguments: [chats])
        {
            values.pendingCounts[try Self.chat(row, in: "outbox")] = row["waiting"]
        }
        values.replayGuarded = Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT key FROM replay_guard WHERE key IN (SELECT value FROM json_each(?))"),
                arguments: [Self.jsonArray(needs.replayKeys)]))
    }

    /// A JSON array of strings, as statements read them with `json_each`.
    static func jsonArray(_ values: some Sequence<String>) -> String { json(values.map(json)) }

    /// A JSON array the statements read with `json_each`, of values already written as JSON (written by hand:
    /// JSONEncoder took a tenth of a batch's time on SQLite).
    private static func json(_ values: some Sequence<String>) -> String {
        "[" + values.joined(separator: ",") + "]"
    }

    /// A string as JSON.
    private static func json(_ text: String) -> String {
        // Most are keys and ids, with nothing to escape.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20: json += String(format: "\\u%04x", scalar.value)
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }

    /// Platforms and their ids, as a JSON array of pairs: an account is an integer where the platform spells it
    /// as one, as `player.account` keeps it.
    private static func pairs(_ ids: [(Platform, any DatabaseValueConvertible)]) -> String {
        json(
            ids.map { platform, id in
                "[" + json(platform.rawValue) + "," + ((id as? Int64).map(String.init) ?? json("\(id)")) + "]"
            })
    }
}
