// libFuzzer target: the quick PNG check against libpng. A quick yes where libpng, reading every row, says no would
// report a broken attachment as decoded: the target aborts on one. The harness mends the image data's zlib checksum
// (Adler-32) and every chunk's CRC first, so that the fuzzer's changes reach the checks behind them (chunk order, the
// header, the deflate stream, the rows).
//
// The known gap of the quick check is left out: deflate streams that zlib refuses but libdeflate decodes (see
// png_quick_check.c). An input whose image data zlib refuses, inflated in one piece, is not held against it.
#include "CImageCodecs.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void put_be32(uint8_t *p, uint32_t value) {
    p[0] = (uint8_t)(value >> 24), p[1] = (uint8_t)(value >> 16), p[2] = (uint8_t)(value >> 8), p[3] = (uint8_t)value;
}

static int libpng_accepts(const uint8_t *data, size_t size) {
    rp_codec *codec = rp_codec_open(RP_CODEC_PNG, data, size, 1u << 24, 1u << 24);
    if (!codec) return 0;
    uint32_t delay = 0;
    int accepted = rp_codec_status(codec) == RP_CODEC_OK && rp_codec_next_frame(codec, NULL, 0, 0, &delay) == RP_CODEC_OK;
    rp_codec_close(codec);
    return accepted;
}

#define MAX_IDAT 64
#define MAX_OUT (8u << 20)

/// The first run of consecutive IDAT chunks: where each one's data starts and how long it is.
static size_t idat_run(const uint8_t *png, size_t size, size_t *starts, size_t *lengths) {
    size_t count = 0;
    for (size_t offset = 8; offset + 12 <= size;) {
        uint32_t length = be32(png + offset);
        if (length > size - offset - 12) break;
        if (memcmp(png + offset + 4, "IDAT", 4) == 0) {
            if (count == MAX_IDAT) break;
            starts[count] = offset + 8, lengths[count] = length, count++;
        } else if (count > 0) {
            break;
        }
        offset += 12 + (size_t)length;
    }
    return count;
}

/// Rewrites the Adler-32 after the zlib stream in the image data to match what it inflates to. Returns whether zlib
/// itself accepts the stream then (inflated in one piece).
static int mend_checksum(uint8_t *png, size_t size, uint8_t *joined, uint8_t *out) {
    size_t starts[MAX_IDAT], lengths[MAX_IDAT];
    size_t count = idat_run(png, size, starts, lengths), total = 0;
    for (size_t i = 0; i < count; i++) memcpy(joined + total, png + starts[i], lengths[i]), total += lengths[i];
    if (total < 6) return 0;
    // The deflate stream after the 2-byte header, inflated raw to learn where it ends and what it gives.
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    size_t consumed = 0, produced = 0;
    enum libdeflate_result result = inflater ? libdeflate_deflate_decompress_ex(
                                                   inflater, joined + 2, total - 2, out, MAX_OUT, &consumed, &produced)
                                             : LIBDEFLATE_BAD_DATA;
    if (inflater) libdeflate_free_decompressor(inflater);
    if (result != LIBDEFLATE_SUCCESS || 2 + consumed + 4 > total) return 0;
    put_be32(joined + 2 + consumed, (uint32_t)libdeflate_adler32(1, out, produced));
    for (size_t i = 0, at = 0; i < count; at += lengths[i], i++) memcpy(png + starts[i], joined + at, lengths[i]);
    z_stream stream = {0};
    if (inflateInit2(&stream, 0) != Z_OK) return 0;
    stream.next_in = joined, stream.avail_in = (uInt)total, stream.next_out = out, stream.avail_out = MAX_OUT;
    int status = inflate(&stream, Z_FINISH);
    inflateEnd(&stream);
    return status == Z_STREAM_END;
}

static void mend_crcs(uint8_t *png, size_t size) {
    for (size_t offset = 8; offset + 12 <= size;) {
        uint32_t length = be32(png + offset);
        if (length > size - offset - 12) break;
        put_be32(png + offset + 8 + length, (uint32_t)libdeflate_crc32(0, png + offset + 4, 4 + (size_t)length));
        offset += 12 + (size_t)length;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t *out;
    if (!out && !(out = malloc(MAX_OUT))) return 0;
    uint8_t *png = malloc(size ? size : 1), *joined = malloc(size ? size : 1);
    if (!png || !joined) {
        free(png), free(joined);
        return 0;
    }
    memcpy(png, data, size);
    int zlib_accepts = mend_checksum(png, size, joined, out);
    mend_crcs(png, size);
    if (zlib_accepts && rp_png_quick_check(png, size, 1u << 24, 8u << 20) == 1 && !libpng_accepts(png, size)) {
        fprintf(stderr, "PNGQuickCheck fuzz: a quick yes where libpng says no\n");
        abort();
    }
    free(png), free(joined);
    return 0;
}
