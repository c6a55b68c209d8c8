internal import CZlib

/// The letters, digits and few symbols the pictures write, as 8-bit coverage rendered once from a font at one
/// size (``size`` pixels to the em) by `scripts/build-glyph-atlas`, and drawn smaller by averaging. Names never
/// go into a picture, so the atlas holds only what a board, a chart and a card need: a character outside it
/// is not drawn (``IndexedImage/draw(_:in:pixels:x:baseline:colour:)`` skips it, advancing by a space).
struct GlyphAtlas: Sendable {
    struct Glyph: Sendable {
        /// The pen's advance, in 64ths of a pixel at ``GlyphAtlas/size``.
        let advance64: Int
        /// The coverage box, from the pen's position and the ascent line's top.
        let left: Int
        let top: Int
        let width: Int
        let height: Int
        /// Where its coverage starts in ``GlyphAtlas/coverage``, row by row.
        let offset: Int
    }

    let size: Int
    let ascent: Int
    let descent: Int
    let glyphs: [Character: Glyph]
    let coverage: [UInt8]

    init(
        size: Int, ascent: Int, descent: Int, coverageCount: Int, glyphs: [Character: Glyph],
        compressedCoverage: String
    ) {
        (self.size, self.ascent, self.descent, self.glyphs) = (size, ascent, descent, glyphs)
        let compressed = Self.base64(compressedCoverage)
        var count = uLong(coverageCount)
        var coverage = [UInt8](repeating: 0, count: coverageCount)
        let status = coverage.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress, &count, $0.baseAddress, uLong($0.count)) }
        }
        // The atlas is generated and committed: a failure here is a build defect, found by the first test.
        precondition(status == Z_OK && count == coverageCount, "the glyph atlas does not inflate (status \(status))")
        self.coverage = coverage
    }

    /// The width of `text` at `pixels` to the em.
    func width(of text: String, pixels: Double) -> Double {
        let scale = pixels / Double(size)
        return text.reduce(0) { $0 + Double(advance64(of: $1)) / 64 * scale }
    }

    func advance64(of character: Character) -> Int {
        glyphs[character]?.advance64 ?? (glyphs["-"]?.advance64 ?? size * 32)
    }

    /// Standard base64, whitespace skipped.
    private static func base64(_ text: String) -> [UInt8] {
        var values = [UInt8](repeating: 0xFF, count: 128)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            values[Int(character)] = UInt8(index)
        }
        var bytes: [UInt8] = []
        var (accumulator, bits) = (UInt32(0), 0)
        for character in text.utf8 where character < 128 && values[Int(character)] != 0xFF {
            accumulator = accumulator << 6 | UInt32(values[Int(character)])
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bytes
    }
}

extension IndexedImage {
    /// Writes `text` with its pen starting at `x` and its letters standing on `baseline`, at `pixels` to the em:
    /// each pixel averages the atlas's coverage over the part of the glyph it covers (sampled up to 4×4), blended
    /// in ``blendSteps`` steps. Returns the pen's position after the text.
    @discardableResult
    mutating func draw(
        _ text: String, in atlas: GlyphAtlas, pixels: Double, x: Double, baseline: Int, colour: RGB
    ) -> Double {
        let scale = pixels / Double(atlas.size)
        let samples = max(1, min(4, Int((1 / scale).rounded(.up))))
        var pen = x
        for character in text {
            defer { pen += Double(atlas.advance64(of: character)) / 64 * scale }
            guard let glyph = atlas.glyphs[character], glyph.width > 0 else { continue }
            let left = pen + Double(glyph.left) * scale
            let top = Double(baseline) + Double(glyph.top - atlas.ascent) * scale
            let (firstX, lastX) = (Int(left.rounded(.down)), Int((left + Double(glyph.width) * scale).rounded(.up)))
            let (firstY, lastY) = (Int(top.rounded(.down)), Int((top + Double(glyph.height) * scale).rounded(.up)))
            for py in firstY..<lastY {
                for px in firstX..<lastX {
                    var sum = 0
                    for sy in 0..<samples {
                        for sx in 0..<samples {
                            let gx = Int(((Double(px) + (Double(sx) + 0.5) / Double(samples)) - left) / scale)
                            let gy = Int(((Double(py) + (Double(sy) + 0.5) / Double(samples)) - top) / scale)
                            guard gx >= 0, gy >= 0, gx < glyph.width, gy < glyph.height else { continue }
                            sum += Int(atlas.coverage[glyph.offset + gy * glyph.width + gx])
                        }
                    }
                    blend(x: px, y: py, toward: colour, amount: UInt8(sum / (samples * samples)))
                }
            }
        }
        return pen
    }
}
