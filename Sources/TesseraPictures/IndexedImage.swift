/// A colour: 8 bits each of red, green and blue.
public struct RGB: Hashable, Sendable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(
            UInt8(truncatingIfNeeded: hex >> 16), UInt8(truncatingIfNeeded: hex >> 8), UInt8(truncatingIfNeeded: hex))
    }

    /// The colour `amount` of the way from `self` to `other` (0…255), as the glyphs' antialiasing blends.
    func blended(toward other: RGB, amount: UInt8) -> RGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let weight = Int(amount)
            let sum: Int = Int(a) * (255 - weight) + Int(b) * weight + 127
            return UInt8(sum / 255)
        }
        return RGB(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }
}

/// A picture of at most 256 colours: a palette and one palette index a pixel, row by row. What the renderer
/// draws on and what ``PNG`` encodes; an 8-bit palette keeps a board's few flat colours small.
public struct IndexedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var palette: [RGB]
    public private(set) var pixels: [UInt8]

    /// A picture filled with `background`, the palette's first colour.
    public init(width: Int, height: Int, background: RGB) {
        precondition(width > 0 && height > 0, "a picture has at least one pixel")
        self.width = width
        self.height = height
        palette = [background]
        pixels = [UInt8](repeating: 0, count: width * height)
    }

    /// The palette index of `colour`, added when new. At most 256 colours: the renderer's pictures use a
    /// fixed few plus their glyphs' blends, which ``blendSteps`` bounds.
    mutating func index(of colour: RGB) -> UInt8 {
        if let index = palette.firstIndex(of: colour) { return UInt8(index) }
        precondition(palette.count < 256, "an indexed picture has at most 256 colours")
        palette.append(colour)
        return UInt8(palette.count - 1)
    }

    public subscript(x: Int, y: Int) -> RGB { palette[Int(pixels[y * width + x])] }

    /// Fills the rectangle, clipped to the picture.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, with colour: RGB) {
        let index = index(of: colour)
        let (left, right) = (max(0, x), min(self.width, x + width))
        let (top, bottom) = (max(0, y), min(self.height, y + height))
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            let start = row * self.width
            for column in left..<right { pixels[start + column] = index }
        }
    }

    /// A rectangle with corners rounded by `radius`, its edge pixels blended into what is under them in
    /// ``blendSteps`` steps, so that a tile's corner is smooth at twice phone size.
    mutating func fillRounded(x: Int, y: Int, width: Int, height: Int, radius: Int, with colour: RGB) {
        let radius = min(radius, width / 2, height / 2)
        guard radius > 0 else { return fill(x: x, y: y, width: width, height: height, with: colour) }
        fill(x: x, y: y + radius, width: width, height: height - 2 * radius, with: colour)
        for row in 0..<radius {
            // Coverage of each pixel of the corner rows, sampled 4×4 inside it.
            for column in 0..<radius {
                var covered = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let dx = Double(radius) - (Double(column) + (Double(sx) + 0.5) / 4)
                        let dy = Double(radius) - (Double(row) + (Double(sy) + 0.5) / 4)
                        if dx * dx + dy * dy <= Double(radius * radius) { covered += 1 }
                    }
                }
                let amount = UInt8(covered * 255 / 16)
                for (cx, cy) in [
                    (x + column, y + row), (x + width - 1 - column, y + row),
                    (x + column, y + height - 1 - row), (x + width - 1 - column, y + height - 1 - row),
                ] {
                    blend(x: cx, y: cy, toward: colour, amount: amount)
                }
            }
            fill(x: x + radius, y: y + row, width: width - 2 * radius, height: 1, with: colour)
            fill(x: x + radius, y: y + height - 1 - row, width: width - 2 * radius, height: 1, with: colour)
        }
    }

    /// How finely an edge or a glyph blends into what is under it: coverage is rounded to this many steps, so
    /// that a picture of a few flat colours needs few blends of them.
    static let blendSteps = 8

    /// Blends one pixel `amount` (0…255) of the way toward `colour`.
    mutating func blend(x: Int, y: Int, toward colour: RGB, amount: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height, amount > 0 else { return }
        let steps = Self.blendSteps
        let rounded = UInt8((Int(amount) * steps + 127) / 255 * 255 / steps)
        guard rounded > 0 else { return }
        let under = self[x, y]
        pixels[y * width + x] = index(of: rounded == 255 ? colour : under.blended(toward: colour, amount: rounded))
    }
}
