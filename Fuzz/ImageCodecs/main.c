// libFuzzer target: the image codecs richpush and the compatibility package's UIImage share (Shared/Sources/
// CImageCodecs), on any bytes. UIImage's check (rp_image_check, the verdict richpush's ImageDecoder.check gives) and
// its decode (rp_image_decode), richpush's decode of every frame at full size and scaled into a small box, PNG and
// JPEG encoding of what decoded, and drawing it. Besides "no trap, no memory error", the target aborts when
// - an image the check accepts has no size, or is over the budget;
// - an image the check accepts does not decode (UIImage would exist and have no pixels), unless it is a PNG the
//   quick check accepted that libpng refuses (its known gap, see png_quick_check.c and Fuzz/PNGQuickCheck);
// - richpush's decode of the first frame and UIImage's disagree (one decodes, the other does not);
// - an encoded image does not pass the check again at the same size.
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAME_PIXELS (1u << 20)
#define MAX_TOTAL_PIXELS (1u << 22)

static void fail(const char *what) {
    fprintf(stderr, "ImageCodecs fuzz: %s\n", what);
    abort();
}

/// richpush's decode (ImageDecoder.decode): every frame at `width` x `height` (the full size or smaller). Returns
/// whether the first frame decoded, and in `all` whether every frame did.
static int decode_frames(int format, const uint8_t *data, size_t size, uint32_t width, uint32_t height, int *all) {
    rp_codec *codec = rp_codec_open(format, data, size, MAX_FRAME_PIXELS, MAX_TOTAL_PIXELS);
    *all = 0;
    if (!codec) return 0;
    int first = 0, status = rp_codec_status(codec);
    uint8_t *out = status == RP_CODEC_OK ? malloc((size_t)width * height * 4) : NULL;
    for (int frame = 0; out && status == RP_CODEC_OK; frame++) {
        uint32_t delay = 0;
        status = rp_codec_next_frame(codec, out, width, height, &delay);
        if (frame == 0) first = status == RP_CODEC_OK;
        if (status == RP_CODEC_OK && format == RP_CODEC_GIF && (delay < 20 || delay > 655350)) fail("odd delay");
    }
    *all = status == RP_CODEC_END;
    free(out);
    rp_codec_close(codec);
    return first;
}

static void check_encoded(uint8_t *bytes, size_t length, int status, uint32_t width, uint32_t height) {
    if (status != RP_CODEC_OK) fail("an encoder failed on a decoded image");
    uint32_t header[5];
    if (rp_image_check(bytes, length, MAX_FRAME_PIXELS, MAX_TOTAL_PIXELS, header) != RP_CODEC_OK ||
        header[1] != width || header[2] != height) {
        fail("an encoded image does not pass the check at its size");
    }
    rp_image_free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t header[5];
    int verdict = rp_image_check(data, size, MAX_FRAME_PIXELS, MAX_TOTAL_PIXELS, header);
    int format = rp_codec_format(data, size);
    if (verdict != RP_CODEC_OK) {
        // Refused data still goes through richpush's decode: it must not crash either.
        if (format >= 0) {
            rp_codec *codec = rp_codec_open(format, data, size, MAX_FRAME_PIXELS, MAX_TOTAL_PIXELS);
            if (codec && rp_codec_status(codec) == RP_CODEC_OK) {
                uint32_t width = rp_codec_width(codec), height = rp_codec_height(codec);
                rp_codec_close(codec);
                int all = 0;
                (void)decode_frames(format, data, size, width, height, &all);
            } else {
                rp_codec_close(codec);
            }
        }
        return 0;
    }
    uint32_t width = header[1], height = header[2], orientation = header[3];
    if (width == 0 || height == 0 || (uint64_t)width * height > MAX_FRAME_PIXELS) fail("accepted with a bad size");
    uint32_t stored_width = orientation >= 5 ? height : width, stored_height = orientation >= 5 ? width : height;

    size_t length = (size_t)width * height * 4;
    uint8_t *pixels = calloc(length, 1);
    if (!pixels) return 0;
    int decoded = rp_image_decode(data, size, MAX_FRAME_PIXELS, pixels, length) == RP_CODEC_OK;
    int all = 0;
    int first = decode_frames(format, data, size, stored_width, stored_height, &all);
    if (decoded != first) fail("UIImage's decode and richpush's first frame disagree");
    // The known gap of the quick PNG check: a PNG it accepts that libpng refuses.
    int quick_gap = format == RP_CODEC_PNG && !first;
    if (!decoded && !quick_gap) fail("accepted, but the first frame does not decode");
    if (!all && !quick_gap) fail("accepted, but richpush's decode of every frame fails");
    // Scaled into a small box, as the TUI's thumbnails are.
    uint32_t box_width = stored_width > 7 ? 7 : stored_width, box_height = stored_height > 5 ? 5 : stored_height;
    int scaled_all = 0;
    if (decode_frames(format, data, size, box_width, box_height, &scaled_all) != first || scaled_all != all) {
        fail("the scaled decode and the full one disagree");
    }
    if (decoded) {
        uint8_t *bytes = NULL;
        size_t encoded = 0;
        int status = rp_image_encode_png(pixels, width, height, !(header[4]), &bytes, &encoded);
        check_encoded(bytes, encoded, status, width, height);
        if (width <= 65500 && height <= 65500) { // JPEG's own limit
            status = rp_image_encode_jpeg(pixels, width, height, size > 0 ? data[size - 1] % 100 + 1 : 50, &bytes,
                                          &encoded);
            check_encoded(bytes, encoded, status, width, height);
        }
        // Drawn into a small canvas at a place and size the input's first bytes choose, partly outside it.
        uint8_t canvas[17 * 13 * 4] = {0};
        double x = size > 1 ? (double)data[size - 2] / 16 - 4 : 0, scale = size > 2 ? (double)data[size - 3] / 64 : 1;
        rp_image_draw(canvas, 17, 13, pixels, width, height, x, -x, width * scale, height * scale, 0.75, 1, 1, 15, 11,
                      0);
    }
    free(pixels);
    return 0;
}
