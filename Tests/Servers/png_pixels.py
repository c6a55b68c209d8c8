"""An independent PNG reader for the pictures' tests, on Python's standard library only: reads the PNG file
named by its first argument (any bit depth 8 colour type: grey, RGB, palette, with alpha or not; every filter type), checks each
chunk's CRC, and prints JSON: the size, and the colour as "RRGGBB" of each point "x,y" given after it.
Exits 1 with the reason when the file is not a PNG it can read."""
import json, struct, sys, zlib


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


with open(sys.argv[1], "rb") as file:
    data = file.read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    fail("no PNG signature")
at, idat, palette, header = 8, b"", None, None
while at < len(data):
    (length,) = struct.unpack(">I", data[at:at + 4])
    kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
    (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
    if zlib.crc32(kind + body) != crc:
        fail("chunk %r has a wrong CRC" % kind)
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", body)
    elif kind == b"PLTE":
        palette = [body[i:i + 3] for i in range(0, len(body), 3)]
    elif kind == b"IDAT":
        idat += body
    elif kind == b"IEND":
        break
    at += 12 + length
if header is None:
    fail("no IHDR")
width, height, depth, colour, _, _, interlace = header
if depth != 8 or interlace != 0:
    fail("only 8-bit, non-interlaced pictures are read here")
channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
raw = zlib.decompress(idat)
stride = width * channels
rows, previous, at = [], bytearray(stride), 0
for _ in range(height):
    kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
    at += 1 + stride
    for i in range(stride):
        left = line[i - channels] if i >= channels else 0
        up, corner = previous[i], previous[i - channels] if i >= channels else 0
        line[i] = (line[i] + [0, left, up, (left + up) // 2, paeth(left, up, corner)][kind]) & 0xFF
    rows.append(line)
    previous = line


def rgb(x, y):
    pixel = rows[y][x * channels:(x + 1) * channels]
    if colour == 3:
        return palette[pixel[0]].hex()
    if colour in (0, 4):
        return bytes([pixel[0]] * 3).hex()
    return bytes(pixel[:3]).hex()


points = [tuple(int(v) for v in point.split(",")) for point in sys.argv[2:]]
print(json.dumps({"width": width, "height": height, "points": [rgb(x, y) for x, y in points]}))
