import TesseraSQL
import Testing

@Suite("Statements written from a row type's columns")
struct SQLColumnsTests {
    struct Narrow: Encodable {
        let points: Int
    }
    struct Wide: Encodable {
        let points: Int
        let lastPuzzle: Int?
    }

    @Test("Each write names its own columns, however the table was last written: a column list is kept, never misused")
    func eachWriteItsColumns() {
        func sql(_ query: SQLQuery) -> String { query.sql }
        let key: [(String, SQLValue)] = [("id", .integer(1))]
        for _ in 0..<2 {
            #expect(
                sql(SQLColumns(Narrow(points: 3), leading: key).upsert(into: "t", keys: ["id"]))
                    == "INSERT INTO t (id, points) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET points = excluded.points"
            )
            #expect(
                sql(SQLColumns(Wide(points: 3, lastPuzzle: nil), leading: key).upsert(into: "t", keys: ["id"]))
                    == """
                    INSERT INTO t (id, points, last_puzzle) VALUES (?, ?, ?) ON CONFLICT (id) \
                    DO UPDATE SET points = excluded.points, last_puzzle = excluded.last_puzzle
                    """)
            #expect(
                sql(SQLColumns(Narrow(points: 3), leading: key).insert(into: "t"))
                    == "INSERT INTO t (id, points) VALUES (?, ?)")
            #expect(
                sql(SQLColumns(Wide(points: 3, lastPuzzle: 7)).upsert(into: "t", keys: ["points"]))
                    == "INSERT INTO t (points, last_puzzle) VALUES (?, ?) ON CONFLICT (points) DO UPDATE SET last_puzzle = excluded.last_puzzle"
            )
        }
    }

    @Test(
        "A query keeps its binds apart from its text, in order, into a query it is part of; PostgreSQL's are numbered")
    func bindsInOrder() {
        let inner: SQLQuery = "b = \(2) AND c IN (\(list: ["x", "y"]))"
        let query: SQLQuery = "SELECT a FROM t WHERE a = \("?") AND \(inner) AND d IN (\(list: [Int]()))"
        #expect(query.sql == "SELECT a FROM t WHERE a = ? AND b = ? AND c IN (?, ?) AND d IN (?)")
        #expect(query.numberedSQL == "SELECT a FROM t WHERE a = $1 AND b = $2 AND c IN ($3, $4) AND d IN ($5)")
        #expect(query.binds == [.text("?"), .integer(2), .text("x"), .text("y"), .null])
        let write = SQLColumns(Wide(points: 3, lastPuzzle: nil), leading: [("id", .integer(1))])
            .upsert(into: "t", keys: ["id"])
        #expect(write.binds == [.integer(1), .integer(3), .null])
        #expect(write.numberedSQL.hasPrefix("INSERT INTO t (id, points, last_puzzle) VALUES ($1, $2, $3) ON CONFLICT"))
    }
}
