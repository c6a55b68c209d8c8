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
        func sql(_ query: SQLQuery) -> String { query.rendered { _ in "?" }.sql }
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
}
