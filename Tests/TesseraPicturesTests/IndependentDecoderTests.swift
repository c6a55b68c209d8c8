import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraPictures

/// Every picture the renderer makes, read by a decoder written apart from it (`Tests/Servers/png_pixels.py`, on
/// Python's standard library and its zlib): each tile's colour at its centre region against the scorer's
/// pattern.
@Suite("Pictures read by an independent decoder")
struct IndependentDecoderTests {
    struct Decoded: Decodable {
        let width: Int
        let height: Int
        let points: [String]
    }

    static func decode(_ png: [UInt8], points: [(Int, Int)]) async throws -> Decoded {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/png_pixels.py").path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("picture-\(UUID()).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await ChildProcess.run(
            "/usr/bin/env", ["python3", script, file.path] + points.map { "\($0),\($1)" })
        guard output.status == 0 else { throw DecodedPNG.Invalid(description: output.standardError) }
        return try JSONDecoder().decode(Decoded.self, from: Data(output.standardOutput.utf8))
    }

    static func hex(_ colour: RGB) -> String {
        String(format: "%02x%02x%02x", colour.red, colour.green, colour.blue)
    }

    @Test("The result card: its size, and each played tile's colour is the scorer's", arguments: ShareTheme.allCases)
    func resultCard(theme: ShareTheme) async throws {
        let card = try ResultCardTests.card(theme)
        let layout = card.layout()
        var points: [(Int, Int)] = []
        var expected: [String] = []
        for (row, played) in card.rows.enumerated() {
            for column in played.states.indices {
                let (x, y) = layout.origin(row: row, column: column)
                points.append((x + layout.tile / 8, y + layout.tile / 8))
                expected.append(Self.hex(Palette(theme).tile(played.states[column])))
            }
        }
        let decoded = try await Self.decode(card.png(), points: points)
        #expect(decoded.width == layout.width && decoded.height == layout.height)
        #expect(decoded.points == expected)
    }

    @Test("The group's day card: each played tile's colour is the scorer's, each empty one the background")
    func dayCard() async throws {
        let card = try DayCardTests.card()
        let layout = card.layout()
        let palette = Palette(.dark)
        var (points, expected): ([(Int, Int)], [String]) = ([], [])
        for (index, board) in card.boards.enumerated() {
            for row in 0..<6 {
                for column in 0..<5 {
                    let (x, y) = layout.origin(board: index, row: row, column: column)
                    points.append((x + layout.tile / 2, y + layout.tile / 2))
                    expected.append(
                        Self.hex(row < board.rows.count ? palette.tile(board.rows[row][column]) : palette.background))
                }
            }
        }
        let decoded = try await Self.decode(card.png(), points: points)
        #expect(decoded.points == expected)
    }
}
