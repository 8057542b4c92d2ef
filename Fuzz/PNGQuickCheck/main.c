// libFuzzer target: the quick PNG check against libpng. A quick yes where libpng, reading every row, says no would
// report a broken attachment as decoded: the target aborts on one. The harness mends every chunk's CRC first, so
// that the fuzzer's changes reach the checks behind the CRCs (chunk order, the header, the zlib stream, the rows).
#include "CImageCodecs.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int libpng_accepts(const uint8_t *data, size_t size) {
    rp_codec *codec = rp_codec_open(RP_CODEC_PNG, data, size, 1u << 24, 1u << 24);
    if (!codec) return 0;
    uint32_t delay = 0;
    int accepted = rp_codec_status(codec) == RP_CODEC_OK && rp_codec_next_frame(codec, NULL, 0, 0, &delay) == RP_CODEC_OK;
    rp_codec_close(codec);
    return accepted;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *png = malloc(size ? size : 1);
    if (!png) return 0;
    memcpy(png, data, size);
    for (size_t offset = 8; offset + 12 <= size;) {
        uint32_t length = be32(png + offset);
        if (length > size - offset - 12) break;
        uint32_t crc = (uint32_t)libdeflate_crc32(0, png + offset + 4, 4 + (size_t)length);
        uint8_t *out = png + offset + 8 + length;
        out[0] = (uint8_t)(crc >> 24), out[1] = (uint8_t)(crc >> 16), out[2] = (uint8_t)(crc >> 8), out[3] = (uint8_t)crc;
        offset += 12 + (size_t)length;
    }
    if (rp_png_quick_check(png, size, 1u << 24, 8u << 20) == 1 && !libpng_accepts(png, size)) {
        fprintf(stderr, "PNGQuickCheck fuzz: a quick yes where libpng says no\n");
        abort();
    }
    free(png);
    return 0;
}
