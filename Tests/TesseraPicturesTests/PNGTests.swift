import Testing

@testable import TesseraPictures

@Suite("PNG files of indexed pictures")
struct PNGTests {
    let white = RGB(hex: 0xFFFFFF)
    let green = RGB(hex: 0x6AAA64)

    @Test("A picture decodes back to the same size, palette and pixels, in four chunks")
    func roundTrip() throws {
        var image = IndexedImage(width: 37, height: 19, background: white)
        image.fill(x: 3, y: 4, width: 10, height: 6, with: green)
        image.fill(x: 30, y: 15, width: 20, height: 20, with: RGB(hex: 0x787C7E))
        let png = try DecodedPNG(PNG.encode(image))
        #expect(png.width == 37 && png.height == 19)
        #expect(png.chunkTypes == ["IHDR", "PLTE", "IDAT", "IEND"])
        #expect(png.palette == image.palette && png.pixels == image.pixels)
        #expect(png[5, 5] == green && png[2, 5] == white && png[36, 18] == RGB(hex: 0x787C7E))
    }

    @Test("The same picture gives the same bytes")
    func deterministic() {
        func draw() -> [UInt8] {
            var image = IndexedImage(width: 64, height: 64, background: white)
            image.fillRounded(x: 4, y: 4, width: 56, height: 56, radius: 8, with: green)
            return PNG.encode(image)
        }
        #expect(draw() == draw())
    }

    @Test("A rounded rectangle is solid inside, blended at its corners, and leaves the corner point untouched")
    func rounded() throws {
        var image = IndexedImage(width: 40, height: 40, background: white)
        image.fillRounded(x: 0, y: 0, width: 40, height: 40, radius: 10, with: green)
        #expect(image[20, 20] == green && image[0, 20] == green && image[20, 0] == green)
        #expect(image[0, 0] == white && image[39, 39] == white)
        let corner = (0..<10).flatMap { y in (0..<10).map { x in image[x, y] } }
        #expect(corner.contains { $0 != white && $0 != green }, "the corner's edge is blended")
        // A few flat colours and their blends: far below the palette's 256.
        #expect(image.palette.count <= 2 + IndexedImage.blendSteps)
    }
}
