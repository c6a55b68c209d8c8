#ifndef TESSERA_CZLIB_SHIM_H
#define TESSERA_CZLIB_SHIM_H

// The system zlib (zlib1g, which libcurl already needs on Debian): the pictures' PNG compression and checksums.
#include <string.h>
#include <zlib.h>

// One zlib stream of `source`, with run-length matching only (Z_RLE): a picture of flat colours whose rows are
// PNG-filtered against the row above is mostly runs of zeros, which this finds as well as level 9 does, at a
// tenth of its time. deflateInit2 is a macro, which Swift cannot call. `*destLength` is the room in `dest`
// (compressBound's), then what was written. Returns Z_OK, or zlib's error.
static inline int tessera_compress_runs(Bytef *dest, uLongf *destLength, const Bytef *source, uLong sourceLength) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, 6, Z_DEFLATED, 15, 8, Z_RLE);
    if (status != Z_OK) return status;
    stream.next_in = (Bytef *)source;
    stream.avail_in = (uInt)sourceLength;
    stream.next_out = dest;
    stream.avail_out = (uInt)*destLength;
    status = deflate(&stream, Z_FINISH);
    *destLength = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? Z_OK : (status == Z_OK ? Z_BUF_ERROR : status);
}

#endif
