// PNG and JPEG encoding for the compatibility package's UIImage (pngData(), jpegData(compressionQuality:)), over
// libpng and libjpeg(-turbo); see include/CImageCodecs.h.
//
// libpng and libjpeg report errors by longjmp. Each encoder sets its own setjmp before its first library call; what
// the error path needs after a jump lives on the heap (never in an automatic variable changed after the setjmp), so
// it is well defined when the jump arrives.

#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

/// What an encoder made. A failure is only a status: UIImage's pngData() and jpegData(compressionQuality:) give nil,
/// with no words to pass on.
typedef struct {
    uint8_t *bytes;
    size_t length;
} rp_image_data;

static uint8_t unpremultiply(uint8_t channel, uint8_t alpha) {
    if (alpha == 0) return 0;
    unsigned value = ((unsigned)channel * 255 + alpha / 2) / alpha;
    return (uint8_t)(value > 255 ? 255 : value);
}

static void png_warning_handler(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void jpeg_output_message(j_common_ptr common) { (void)common; }

typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
} png_sink;

static void png_write_bytes(png_structp png, png_bytep data, size_t count) {
    png_sink *sink = png_get_io_ptr(png);
    if (sink->capacity - sink->length < count) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (capacity - sink->length < count) {
            if (capacity > SIZE_MAX / 2) png_error(png, "the PNG is too large to hold");
            capacity *= 2;
        }
        uint8_t *bytes = realloc(sink->bytes, capacity);
        if (!bytes) png_error(png, "out of memory");
        sink->bytes = bytes;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->length, data, count);
    sink->length += count;
}

static void png_flush_bytes(png_structp png) { (void)png; }

static void png_write_error(png_structp png, png_const_charp text) {
    (void)text;
    png_longjmp(png, 1);
}

static int encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, int with_alpha, rp_image_data *out) {
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0 || !rgba) return RP_CODEC_BAD_ARGUMENT;
    int channels = with_alpha ? 4 : 3;
    png_sink *sink = calloc(1, sizeof *sink);
    uint8_t *row = malloc((size_t)width * channels);
    if (!sink || !row) {
        free(sink);
        free(row);
        return RP_CODEC_NO_MEMORY;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, png_write_error, png_warning_handler);
    png_infop png_info = png ? png_create_info_struct(png) : NULL;
    if (!png_info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        free(sink);
        free(row);
        return RP_CODEC_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &png_info);
        free(sink->bytes);
        free(sink);
        free(row);
        return RP_CODEC_CORRUPT;
    }
    png_set_write_fn(png, sink, png_write_bytes, png_flush_bytes);
    png_set_IHDR(png, png_info, width, height, 8, with_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, png_info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = rgba + (size_t)y * width * 4;
        for (uint32_t x = 0; x < width; x++) {
            const uint8_t *s = source + (size_t)x * 4;
            uint8_t *d = row + (size_t)x * channels;
            if (with_alpha) {
                d[0] = unpremultiply(s[0], s[3]);
                d[1] = unpremultiply(s[1], s[3]);
                d[2] = unpremultiply(s[2], s[3]);
                d[3] = s[3];
            } else {
                d[0] = s[0];
                d[1] = s[1];
                d[2] = s[2];
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &png_info);
    out->bytes = sink->bytes;
    out->length = sink->length;
    free(sink);
    free(row);
    return RP_CODEC_OK;
}

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
} jpeg_write_errors;

static void jpeg_write_error_exit(j_common_ptr common) {
    longjmp(((jpeg_write_errors *)common->err)->jump, 1);
}

/// What jpeg_mem_dest writes to, on the heap so the error path can free it after a jump.
typedef struct {
    unsigned char *bytes;
    unsigned long length;
} jpeg_sink;

static int encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, rp_image_data *out) {
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0 || !rgba || width > 65500 || height > 65500) return RP_CODEC_BAD_ARGUMENT;
    struct jpeg_compress_struct *jpeg = calloc(1, sizeof *jpeg);
    jpeg_write_errors *errors = calloc(1, sizeof *errors);
    jpeg_sink *sink = calloc(1, sizeof *sink);
    uint8_t *row = malloc((size_t)width * 3);
    if (!jpeg || !errors || !sink || !row) {
        free(jpeg);
        free(errors);
        free(sink);
        free(row);
        return RP_CODEC_NO_MEMORY;
    }
    jpeg->err = jpeg_std_error(&errors->base);
    errors->base.error_exit = jpeg_write_error_exit;
    errors->base.output_message = jpeg_output_message;
    if (setjmp(errors->jump)) {
        jpeg_destroy_compress(jpeg);
        free(sink->bytes);
        free(jpeg);
        free(errors);
        free(sink);
        free(row);
        return RP_CODEC_CORRUPT;
    }
    jpeg_create_compress(jpeg);
    jpeg_mem_dest(jpeg, &sink->bytes, &sink->length);
    jpeg->image_width = width;
    jpeg->image_height = height;
    jpeg->input_components = 3;
    jpeg->in_color_space = JCS_RGB;
    jpeg_set_defaults(jpeg);
    jpeg_set_quality(jpeg, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    jpeg_start_compress(jpeg, TRUE);
    JSAMPROW rows[1] = {row};
    while (jpeg->next_scanline < height) {
        const uint8_t *source = rgba + (size_t)jpeg->next_scanline * width * 4;
        for (uint32_t x = 0; x < width; x++) {
            row[x * 3] = source[x * 4];
            row[x * 3 + 1] = source[x * 4 + 1];
            row[x * 3 + 2] = source[x * 4 + 2];
        }
        jpeg_write_scanlines(jpeg, rows, 1);
    }
    jpeg_finish_compress(jpeg);
    jpeg_destroy_compress(jpeg);
    out->bytes = sink->bytes;
    out->length = sink->length;
    free(jpeg);
    free(errors);
    free(sink);
    free(row);
    return RP_CODEC_OK;
}

int rp_image_encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, int with_alpha, uint8_t **bytes,
                        size_t *length) {
    rp_image_data out;
    int status = encode_png(rgba, width, height, with_alpha, &out);
    *bytes = out.bytes;
    *length = out.length;
    return status;
}

int rp_image_encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, uint8_t **bytes,
                         size_t *length) {
    rp_image_data out;
    int status = encode_jpeg(rgba, width, height, quality, &out);
    *bytes = out.bytes;
    *length = out.length;
    return status;
}

void rp_image_free(void *bytes) { free(bytes); }
