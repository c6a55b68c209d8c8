import CZlib
import TesseraPictures

/// A PNG read back for the tests: every chunk's checksum checked, the palette and the pixels inflated by zlib
/// and unfiltered (the encoder writes only Up filters, which this checks too).
struct DecodedPNG {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    let palette: [RGB]
    let pixels: [UInt8]
    let chunkTypes: [String]

    subscript(x: Int, y: Int) -> RGB { palette[Int(pixels[y * width + x])] }

    /// The same size and every pixel the same colour, whatever the palettes' order.
    func sameColours(as other: DecodedPNG) -> Bool {
        width == other.width && height == other.height
            && pixels.indices.allSatisfy { palette[Int(pixels[$0])] == other.palette[Int(other.pixels[$0])] }
    }

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Invalid(description: "no PNG signature")
        }
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var at = 8
        var (width, height, palette, compressed, types) = (0, 0, [RGB](), [UInt8](), [String]())
        while at < bytes.count {
            let length = u32(at)
            let typed = Array(bytes[(at + 4)..<(at + 8 + length)])
            let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            guard crc == u32(at + 8 + length) else { throw Invalid(description: "a chunk's CRC is wrong") }
            let type = String(decoding: typed.prefix(4), as: UTF8.self)
            let data = Array(typed.dropFirst(4))
            types.append(type)
            switch type {
            case "IHDR":
                (width, height) = (u32(at + 8), u32(at + 12))
                guard Array(data[8...]) == [8, 3, 0, 0, 0] else { throw Invalid(description: "not 8-bit palette") }
            case "PLTE":
                palette = stride(from: 0, to: data.count, by: 3).map { RGB(data[$0], data[$0 + 1], data[$0 + 2]) }
            case "IDAT":
                compressed += data
            default:
                break
            }
            at += 12 + length
        }
        var size = uLong((width + 1) * height)
        var raw = [UInt8](repeating: 0, count: Int(size))
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(size) == (width + 1) * height else {
            throw Invalid(description: "IDAT inflates wrong")
        }
        // The encoder's filters: none, or Up (each byte the one above plus it).
        var pixels: [UInt8] = []
        for row in 0..<height {
            let filter = raw[row * (width + 1)]
            let line = raw[(row * (width + 1) + 1)..<((row + 1) * (width + 1))]
            switch filter {
            case 0: pixels += line
            case 2: pixels += line.enumerated().map { $1 &+ (row == 0 ? 0 : pixels[(row - 1) * width + $0]) }
            default: throw Invalid(description: "row \(row) has filter \(filter), which the encoder never writes")
            }
        }
        (self.width, self.height, self.palette, self.pixels, chunkTypes) = (width, height, palette, pixels, types)
    }
}
