internal import CZlib

/// PNG files of an ``IndexedImage``: 8-bit palette colour, every row filtered against the one above (PNG's
/// "Up": a row like the last is all zeros), compressed by the system zlib as runs (``tessera_compress_runs``).
/// Nothing varies between runs (no time, no text chunks), so the same picture gives the same bytes.
public enum PNG {
    public static func encode(_ image: IndexedImage) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        // Bit depth 8, colour type 3 (palette), deflate, adaptive filtering (each row says Up), no interlace.
        header += [8, 3, 0, 0, 0]
        chunk("IHDR", header, into: &file)
        chunk("PLTE", image.palette.flatMap { [$0.red, $0.green, $0.blue] }, into: &file)
        let (width, height) = (image.width, image.height)
        let raw = [UInt8](unsafeUninitializedCapacity: (width + 1) * height) { raw, count in
            image.pixels.withUnsafeBufferPointer { pixels in
                for row in 0..<height {
                    let (source, target) = (row * width, row * (width + 1))
                    raw[target] = 2
                    guard row > 0 else {
                        for column in 0..<width { raw[1 + column] = pixels[column] }
                        continue
                    }
                    for column in 0..<width {
                        raw[target + 1 + column] = pixels[source + column] &- pixels[source - width + column]
                    }
                }
            }
            count = (width + 1) * height
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

    /// zlib's stream of `data`, as runs: a board's filtered rows compress to a few bytes each.
    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        let bound = Int(compressBound(uLong(data.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            var size = uLong(bound)
            let status = data.withUnsafeBufferPointer {
                tessera_compress_runs(output.baseAddress, &size, $0.baseAddress, uLong($0.count))
            }
            // Deflating fails only when out of memory or given a buffer smaller than compressBound's.
            precondition(status == Z_OK, "zlib could not compress a picture (status \(status))")
            count = Int(size)
        }
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
