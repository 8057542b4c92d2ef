// What the compatibility package's UIImage decodes with: the codecs of shim.c (the same as richpush's ImageDecoder),
// with UIImage's view of the pixels on top (premultiplied alpha, a JPEG's Exif orientation applied). See
// include/CImageCodecs.h.

#include "CImageCodecs.h"

#include <stdlib.h>
#include <string.h>

static uint8_t premultiply(uint8_t channel, uint8_t alpha) {
    return (uint8_t)(((unsigned)channel * alpha + 127) / 255);
}

static void premultiply_all(uint8_t *pixels, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = pixels + i * 4;
        uint8_t a = p[3];
        if (a == 255) continue;
        p[0] = premultiply(p[0], a);
        p[1] = premultiply(p[1], a);
        p[2] = premultiply(p[2], a);
    }
}

/// Where the stored pixel (x, y) of a `width` x `height` image goes once `orientation` is applied (Exif 2.3,
/// "Orientation": 6 is a quarter turn clockwise, 8 a quarter turn counter-clockwise, 2/4/5/7 the mirrored ones).
static size_t oriented_index(int orientation, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    uint32_t ox, oy, out_width;
    switch (orientation) {
    case 2: ox = width - 1 - x; oy = y; out_width = width; break;
    case 3: ox = width - 1 - x; oy = height - 1 - y; out_width = width; break;
    case 4: ox = x; oy = height - 1 - y; out_width = width; break;
    case 5: ox = y; oy = x; out_width = height; break;
    case 6: ox = height - 1 - y; oy = x; out_width = height; break;
    case 7: ox = height - 1 - y; oy = width - 1 - x; out_width = height; break;
    case 8: ox = y; oy = width - 1 - x; out_width = height; break;
    default: ox = x; oy = y; out_width = width; break;
    }
    return ((size_t)oy * out_width + ox) * 4;
}

int rp_image_check(const uint8_t *data, size_t length, uint64_t max_frame_pixels, uint64_t max_total_pixels,
                   uint32_t header[5]) {
    memset(header, 0, 5 * sizeof *header);
    int format = rp_codec_format(data, length);
    if (format < 0) return RP_CODEC_UNSUPPORTED;
    rp_codec *codec = rp_codec_open(format, data, length, max_frame_pixels, max_total_pixels);
    if (!codec) return RP_CODEC_NO_MEMORY;
    int status = rp_codec_status(codec);
    if (status == RP_CODEC_OK) {
        // As ImageDecoder.check: the quick PNG check's yes, else every frame read and checked, no pixel kept.
        uint64_t quick_pixels = max_frame_pixels < max_total_pixels ? max_frame_pixels : max_total_pixels;
        int quick = format == RP_CODEC_PNG && length <= RP_PNG_QUICK_CHECK_FILE_BYTES &&
                    rp_png_quick_check(data, length, quick_pixels, RP_PNG_QUICK_CHECK_RAW_BYTES) == 1;
        while (!quick) {
            status = rp_codec_next_frame(codec, NULL, 0, 0, NULL);
            if (status != RP_CODEC_OK || format != RP_CODEC_GIF) break;
        }
        if (status == RP_CODEC_END) status = RP_CODEC_OK;
    }
    int orientation = rp_codec_orientation(codec);
    uint32_t width = rp_codec_width(codec), height = rp_codec_height(codec);
    header[0] = (uint32_t)format;
    header[1] = orientation >= 5 ? height : width;
    header[2] = orientation >= 5 ? width : height;
    header[3] = (uint32_t)orientation;
    header[4] = (uint32_t)rp_codec_opaque(codec);
    rp_codec_close(codec);
    return status;
}

int rp_image_decode(const uint8_t *data, size_t length, uint64_t max_frame_pixels, uint8_t *out, size_t out_length) {
    int format = rp_codec_format(data, length);
    if (!out || format < 0) return RP_CODEC_BAD_ARGUMENT;
    rp_codec *codec = rp_codec_open(format, data, length, max_frame_pixels, max_frame_pixels);
    if (!codec) return RP_CODEC_NO_MEMORY;
    int status = rp_codec_status(codec);
    uint32_t width = rp_codec_width(codec), height = rp_codec_height(codec);
    int orientation = rp_codec_orientation(codec);
    size_t size = (size_t)width * height * 4;
    if (status == RP_CODEC_OK && out_length != size) status = RP_CODEC_BAD_ARGUMENT;
    // Upright already: straight into `out`; otherwise into a buffer of the stored size, then turned.
    uint8_t *stored = status == RP_CODEC_OK && orientation != 1 ? calloc(size, 1) : out;
    if (!stored) status = RP_CODEC_NO_MEMORY;
    if (status == RP_CODEC_OK) {
        // The first frame, as UIImage(data:) shows a GIF. Rows decoded before an error stay (a partial image).
        status = rp_codec_next_frame(codec, stored, width, height, NULL);
        premultiply_all(stored, (size_t)width * height);
        if (stored != out) {
            for (uint32_t y = 0; y < height; y++) {
                for (uint32_t x = 0; x < width; x++) {
                    memcpy(out + oriented_index(orientation, x, y, width, height),
                           stored + ((size_t)y * width + x) * 4, 4);
                }
            }
        }
    }
    if (stored != out) free(stored);
    rp_codec_close(codec);
    return status;
}

const rp_image_function *rp_image_io_functions(void) {
    static const rp_image_function functions[RP_IMAGE_FUNCTION_COUNT] = {
        [RP_IMAGE_FUNCTION_CHECK] = (rp_image_function)rp_image_check,
        [RP_IMAGE_FUNCTION_DECODE] = (rp_image_function)rp_image_decode,
        [RP_IMAGE_FUNCTION_ENCODE_PNG] = (rp_image_function)rp_image_encode_png,
        [RP_IMAGE_FUNCTION_ENCODE_JPEG] = (rp_image_function)rp_image_encode_jpeg,
        [RP_IMAGE_FUNCTION_FREE] = (rp_image_function)rp_image_free,
        [RP_IMAGE_FUNCTION_DRAW] = (rp_image_function)rp_image_draw,
    };
    return functions;
}
