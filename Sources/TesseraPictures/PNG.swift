internal import CZlib

/// PNG files of an ``IndexedImage``: 8-bit palette colour, no filter, compressed by the system zlib at its best
/// level. Nothing varies between runs (no time, no text chunks), so the same picture gives the same bytes.
public enum PNG {
    public static func encode(_ image: IndexedImage) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        // Bit depth 8, colour type 3 (palette), deflate, adaptive filtering (each row says none), no interlace.
        header += [8, 3, 0, 0, 0]
        chunk("IHDR", header, into: &file)
        chunk("PLTE", image.palette.flatMap { [$0.red, $0.green, $0.blue] }, into: &file)
        var raw = [UInt8]()
        raw.reserveCapacity((image.width + 1) * image.height)
        for row in 0..<image.height {
            raw.append(0)
            raw += image.pixels[(row * image.width)..<((row + 1) * image.width)]
        }
        chunk("IDAT", deflate(raw), into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    private static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8]) {
        file.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        file += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        file.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }

    /// zlib's stream of `data` at level 9: a board's flat rows compress to a few bytes each.
    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { compress2(out.baseAddress, &size, $0.baseAddress, uLong($0.count), 9) }
        }
        // compress2 fails only when out of memory or given a buffer smaller than compressBound's.
        precondition(status == Z_OK, "zlib could not compress a picture (status \(status))")
        return Array(output.prefix(Int(size)))
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ])
    }
}
