// PNG, JPEG and GIF behind a small interface for the compatibility UIKit (see include/CImageIO.h).
//
// libpng and libjpeg report errors by longjmp. Each entry point sets its own setjmp before its first library call;
// what the error path needs after a jump lives on the heap or in the caller's structs (never in an automatic
// variable changed after the setjmp), so it is well defined when the jump arrives.

#include "CImageIO.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

// MARK: - Shared

/// What the header says, and the library's words when something fails.
typedef struct {
    int format;
    uint32_t width, height;
    int orientation;
    int opaque;
    char message[160];
} rp_image_info;

/// What an encoder made, and the library's words when it failed.
typedef struct {
    uint8_t *bytes;
    size_t length;
    char message[160];
} rp_image_data;

static void copy_message(char *message, size_t capacity, const char *text) {
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < capacity; c++) {
        // Only printable ASCII leaves the library: the words end up in a user's report.
        message[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : ' ';
    }
    message[n] = 0;
}

static void set_message(rp_image_info *info, const char *text) {
    copy_message(info->message, sizeof info->message, text);
}

static uint8_t premultiply(uint8_t channel, uint8_t alpha) {
    return (uint8_t)(((unsigned)channel * alpha + 127) / 255);
}

static uint8_t unpremultiply(uint8_t channel, uint8_t alpha) {
    if (alpha == 0) return 0;
    unsigned value = ((unsigned)channel * 255 + alpha / 2) / alpha;
    return (uint8_t)(value > 255 ? 255 : value);
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

int rp_image_sniff(const uint8_t *data, size_t length) {
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (length >= 8 && memcmp(data, png_signature, 8) == 0) return RP_IMAGE_PNG;
    if (length >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) return RP_IMAGE_JPEG;
    if (length >= 6 && (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0)) return RP_IMAGE_GIF;
    return 0;
}

// MARK: - PNG decoding

typedef struct {
    const uint8_t *data;
    size_t length, offset;
    rp_image_info *info;
} png_source;

static void png_read_bytes(png_structp png, png_bytep out, size_t count) {
    png_source *source = png_get_io_ptr(png);
    if (source->length - source->offset < count) png_error(png, "the PNG data ends early");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static void png_error_handler(png_structp png, png_const_charp text) {
    png_source *source = png_get_error_ptr(png);
    set_message(source->info, text);
    png_longjmp(png, 1);
}

static void png_warning_handler(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

/// Probes (out == NULL) or decodes a PNG.
static int png_run(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length,
                   rp_image_info *info) {
    png_source *source = malloc(sizeof *source);
    if (!source) return RP_IMAGE_NO_MEMORY;
    *source = (png_source){data, length, 0, info};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, png_error_handler, png_warning_handler);
    png_infop png_info = png ? png_create_info_struct(png) : NULL;
    if (!png_info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        free(source);
        return RP_IMAGE_NO_MEMORY;
    }
    volatile int status = RP_IMAGE_CORRUPT;
    volatile int decoding = 0;
    if (setjmp(png_jmpbuf(png))) {
        // Rows decoded before the error stay, as a partial image (premultiplied like the rest).
        if (decoding) premultiply_all(out, (size_t)info->width * info->height);
        png_destroy_read_struct(&png, &png_info, NULL);
        free(source);
        return status;
    }
    png_set_read_fn(png, source, png_read_bytes);
    png_set_user_limits(png, 1u << 24, 1u << 24);
    // Text, profiles and unknown chunks inflate into memory: a few megabytes at most, and not many of them.
    png_set_chunk_malloc_max(png, 8u << 20);
    png_set_chunk_cache_max(png, 1000);
    png_read_info(png, png_info);
    uint32_t width = png_get_image_width(png, png_info);
    uint32_t height = png_get_image_height(png, png_info);
    int color_type = png_get_color_type(png, png_info);
    info->format = RP_IMAGE_PNG;
    info->width = width;
    info->height = height;
    info->orientation = 1;
    info->opaque = !(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, png_info, PNG_INFO_tRNS);
    if ((uint64_t)width * height > max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "the PNG is %ux%u, over the budget of %llu pixels", width, height,
                 (unsigned long long)max_pixels);
        set_message(info, text);
        status = RP_IMAGE_OVER_BUDGET;
        png_error(png, info->message);
    }
    if (!out) {
        png_destroy_read_struct(&png, &png_info, NULL);
        free(source);
        return RP_IMAGE_OK;
    }
    if (out_length != (size_t)width * height * 4) {
        set_message(info, "the output buffer is not the image's size");
        status = RP_IMAGE_NO_MEMORY;
        png_error(png, info->message);
    }
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, png_info);
    if (png_get_rowbytes(png, png_info) != (size_t)width * 4) {
        set_message(info, "libpng did not expand the PNG to RGBA");
        png_error(png, info->message);
    }
    decoding = 1;
    // Rows go straight into the output: an interlaced image is filled in pass by pass in place.
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) png_read_row(png, out + (size_t)y * width * 4, NULL);
    }
    png_read_end(png, NULL);
    premultiply_all(out, (size_t)width * height);
    png_destroy_read_struct(&png, &png_info, NULL);
    free(source);
    return RP_IMAGE_OK;
}

// MARK: - JPEG decoding

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    rp_image_info *info;
} jpeg_errors;

static void jpeg_error_exit(j_common_ptr common) {
    jpeg_errors *errors = (jpeg_errors *)common->err;
    char text[JMSG_LENGTH_MAX];
    common->err->format_message(common, text);
    set_message(errors->info, text);
    longjmp(errors->jump, 1);
}

/// Warnings (a JPEG that ends early, corrupt data in a segment) are not errors: libjpeg goes on and fills what is
/// missing, as iOS shows such an image.
static void jpeg_output_message(j_common_ptr common) { (void)common; }

static void jpeg_progress(j_common_ptr common) {
    if (!common->is_decompressor) return;
    j_decompress_ptr jpeg = (j_decompress_ptr)common;
    if (jpeg->input_scan_number > RP_IMAGE_MAX_SCANS) {
        jpeg_errors *errors = (jpeg_errors *)common->err;
        set_message(errors->info, "the progressive JPEG has more scans than a decoder allows");
        longjmp(errors->jump, 1);
    }
}

static uint32_t read16(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : (uint32_t)p[0] << 8 | p[1];
}

static uint32_t read32(const uint8_t *p, int little) {
    return little ? read16(p, 1) | read16(p + 2, 1) << 16 : read16(p, 0) << 16 | read16(p + 2, 0);
}

/// The orientation tag (0x0112) of IFD0 in an Exif APP1 segment; 1 when there is none or it is unreadable.
static int exif_orientation(const uint8_t *segment, size_t length) {
    if (length < 14 || memcmp(segment, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = segment + 6;
    size_t size = length - 6;
    int little;
    if (tiff[0] == 'I' && tiff[1] == 'I') little = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little = 0;
    else return 1;
    if (read16(tiff + 2, little) != 42) return 1;
    uint32_t ifd = read32(tiff + 4, little);
    if (ifd > size || size - ifd < 2) return 1;
    uint32_t count = read16(tiff + ifd, little);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        if (read16(tiff + entry, little) != 0x0112) continue;
        uint32_t value = read16(tiff + entry + 8, little);
        return value >= 1 && value <= 8 ? (int)value : 1;
    }
    return 1;
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

/// Probes (out == NULL) or decodes a JPEG.
static int jpeg_run(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length,
                    rp_image_info *info) {
    struct jpeg_decompress_struct *jpeg = calloc(1, sizeof *jpeg);
    jpeg_errors *errors = calloc(1, sizeof *errors);
    struct jpeg_progress_mgr *progress = calloc(1, sizeof *progress);
    int *status = malloc(sizeof *status);
    if (!jpeg || !errors || !progress || !status) {
        free(jpeg);
        free(errors);
        free(progress);
        free(status);
        return RP_IMAGE_NO_MEMORY;
    }
    *status = RP_IMAGE_CORRUPT;
    jpeg->err = jpeg_std_error(&errors->base);
    errors->base.error_exit = jpeg_error_exit;
    errors->base.output_message = jpeg_output_message;
    errors->info = info;
    if (setjmp(errors->jump)) {
        int result = *status;
        jpeg_destroy_decompress(jpeg);
        free(jpeg);
        free(errors);
        free(progress);
        free(status);
        return result;
    }
    jpeg_create_decompress(jpeg);
    progress->progress_monitor = jpeg_progress;
    jpeg->progress = progress;
    jpeg_mem_src(jpeg, (unsigned char *)data, (unsigned long)length);
    jpeg_save_markers(jpeg, JPEG_APP0 + 1, 0xffff);
    jpeg_read_header(jpeg, TRUE);
    int orientation = 1;
    for (jpeg_saved_marker_ptr marker = jpeg->marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1) {
            orientation = exif_orientation(marker->data, marker->data_length);
            if (orientation != 1) break;
        }
    }
    uint32_t width = jpeg->image_width, height = jpeg->image_height;
    info->format = RP_IMAGE_JPEG;
    info->orientation = orientation;
    info->width = orientation >= 5 ? height : width;
    info->height = orientation >= 5 ? width : height;
    info->opaque = 1;
    if ((uint64_t)width * height > max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "the JPEG is %ux%u, over the budget of %llu pixels", width, height,
                 (unsigned long long)max_pixels);
        set_message(info, text);
        *status = RP_IMAGE_OVER_BUDGET;
        longjmp(errors->jump, 1);
    }
    if (!out) {
        jpeg_destroy_decompress(jpeg);
        free(jpeg);
        free(errors);
        free(progress);
        free(status);
        return RP_IMAGE_OK;
    }
    if (out_length != (size_t)width * height * 4) {
        set_message(info, "the output buffer is not the image's size");
        *status = RP_IMAGE_NO_MEMORY;
        longjmp(errors->jump, 1);
    }
    int cmyk = jpeg->jpeg_color_space == JCS_CMYK || jpeg->jpeg_color_space == JCS_YCCK;
    jpeg->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(jpeg);
    int components = jpeg->output_components;
    if (jpeg->output_width != width || jpeg->output_height != height || (components != 3 && components != 4)) {
        set_message(info, "libjpeg did not decode the JPEG at its own size in RGB");
        longjmp(errors->jump, 1);
    }
    JSAMPARRAY row = (*jpeg->mem->alloc_sarray)((j_common_ptr)jpeg, JPOOL_IMAGE, width * components, 1);
    // Adobe's CMYK JPEGs store the inks inverted (Photoshop's convention, flagged by the Adobe marker).
    int inverted = jpeg->saw_Adobe_marker;
    while (jpeg->output_scanline < height) {
        uint32_t y = jpeg->output_scanline;
        if (jpeg_read_scanlines(jpeg, row, 1) != 1) break;
        const uint8_t *source = row[0];
        for (uint32_t x = 0; x < width; x++) {
            uint8_t *pixel = out + oriented_index(orientation, x, y, width, height);
            const uint8_t *s = source + (size_t)x * components;
            if (components == 3) {
                pixel[0] = s[0];
                pixel[1] = s[1];
                pixel[2] = s[2];
            } else {
                unsigned black = inverted ? s[3] : 255u - s[3]; // 255 minus the black ink
                for (int c = 0; c < 3; c++) {
                    unsigned colour = inverted ? s[c] : 255u - s[c]; // 255 minus the ink
                    pixel[c] = (uint8_t)((colour * black + 127) / 255);
                }
            }
            pixel[3] = 255;
        }
    }
    jpeg_finish_decompress(jpeg);
    jpeg_destroy_decompress(jpeg);
    free(jpeg);
    free(errors);
    free(progress);
    free(status);
    return RP_IMAGE_OK;
}

// MARK: - GIF decoding (the first frame, as UIImage(data:) shows a GIF)

/// Reads the codes of a GIF's LZW stream out of its sub-blocks.
typedef struct {
    const uint8_t *data;
    size_t length, pos;
    size_t block_left;
    uint32_t bits, bit_count;
    int ended;
} gif_bits;

/// The next `size`-bit code, or -1 when the data runs out.
static int gif_code(gif_bits *b, int size) {
    while (b->bit_count < (uint32_t)size) {
        if (b->block_left == 0) {
            if (b->ended || b->pos >= b->length || b->data[b->pos] == 0) {
                b->ended = 1;
                return -1;
            }
            b->block_left = b->data[b->pos++];
        }
        if (b->pos >= b->length) {
            b->ended = 1;
            return -1;
        }
        b->bits |= (uint32_t)b->data[b->pos++] << b->bit_count;
        b->bit_count += 8;
        b->block_left--;
    }
    int code = (int)(b->bits & ((1u << size) - 1));
    b->bits >>= size;
    b->bit_count -= (uint32_t)size;
    return code;
}

/// The row the `n`th decoded row of an interlaced image of `height` rows lands on (passes from row 0 every 8, 4 every
/// 8, 2 every 4, 1 every 2).
static uint32_t gif_interlaced_row(uint32_t n, uint32_t height) {
    static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        uint32_t rows = height > start[pass] ? (height - start[pass] + step[pass] - 1) / step[pass] : 0;
        if (n < rows) return start[pass] + n * step[pass];
        n -= rows;
    }
    return height;
}

typedef struct {
    uint8_t *out;
    uint32_t canvas_width, canvas_height;
    uint32_t left, top, width, height;
    int interlaced;
    const uint8_t *palette;
    int palette_size;
    int transparent;
    uint64_t written;
} gif_frame;

static void gif_put(gif_frame *f, uint8_t index) {
    uint64_t n = f->written++;
    if (n >= (uint64_t)f->width * f->height) return;
    uint32_t fx = (uint32_t)(n % f->width), row = (uint32_t)(n / f->width);
    uint32_t fy = f->interlaced ? gif_interlaced_row(row, f->height) : row;
    uint32_t x = f->left + fx, y = f->top + fy;
    if (x >= f->canvas_width || y >= f->canvas_height || index == f->transparent || index >= f->palette_size) return;
    uint8_t *p = f->out + ((size_t)y * f->canvas_width + x) * 4;
    p[0] = f->palette[index * 3];
    p[1] = f->palette[index * 3 + 1];
    p[2] = f->palette[index * 3 + 2];
    p[3] = 255;
}

/// Probes (out == NULL) or decodes a GIF's first frame onto a transparent canvas of the logical screen's size.
static int gif_run(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length,
                   rp_image_info *info) {
    if (length < 13) {
        set_message(info, "the GIF data ends early");
        return RP_IMAGE_CORRUPT;
    }
    uint32_t width = read16(data + 6, 1), height = read16(data + 8, 1);
    info->format = RP_IMAGE_GIF;
    info->width = width;
    info->height = height;
    info->orientation = 1;
    if (width == 0 || height == 0) {
        set_message(info, "the GIF's screen is empty");
        return RP_IMAGE_CORRUPT;
    }
    if ((uint64_t)width * height > max_pixels) {
        set_message(info, "the GIF is over the pixel budget");
        return RP_IMAGE_OVER_BUDGET;
    }
    size_t pos = 13;
    const uint8_t *global = NULL;
    int global_size = 0;
    if (data[10] & 0x80) {
        global_size = 2 << (data[10] & 7);
        if (length - pos < (size_t)global_size * 3) {
            set_message(info, "the GIF data ends early");
            return RP_IMAGE_CORRUPT;
        }
        global = data + pos;
        pos += (size_t)global_size * 3;
    }
    int transparent = -1;
    for (;;) {
        if (pos >= length) {
            set_message(info, "the GIF ends before its first image");
            return RP_IMAGE_CORRUPT;
        }
        uint8_t block = data[pos++];
        if (block == 0x21) {
            if (pos >= length) break;
            uint8_t label = data[pos++];
            if (label == 0xF9 && pos + 5 <= length && data[pos] >= 4) {
                transparent = (data[pos + 1] & 1) ? data[pos + 4] : -1;
            }
            while (pos < length && data[pos] != 0) pos += (size_t)data[pos] + 1;
            pos++;
            continue;
        }
        if (block != 0x2C) {
            set_message(info, "the GIF has no image");
            return RP_IMAGE_CORRUPT;
        }
        if (length - pos < 9) break;
        gif_frame frame = {out, width, height, read16(data + pos, 1), read16(data + pos + 2, 1),
                           read16(data + pos + 4, 1), read16(data + pos + 6, 1), (data[pos + 8] & 0x40) != 0,
                           global, global_size, transparent, 0};
        uint8_t packed = data[pos + 8];
        pos += 9;
        if (packed & 0x80) {
            frame.palette_size = 2 << (packed & 7);
            if (length - pos < (size_t)frame.palette_size * 3) break;
            frame.palette = data + pos;
            pos += (size_t)frame.palette_size * 3;
        }
        // The first frame decides: transparent pixels, or a frame that leaves part of the screen uncovered.
        info->opaque = transparent < 0 && frame.left == 0 && frame.top == 0 && frame.width >= width &&
                       frame.height >= height;
        if (!out) return RP_IMAGE_OK;
        if (out_length != (size_t)width * height * 4) {
            set_message(info, "the output buffer is not the image's size");
            return RP_IMAGE_NO_MEMORY;
        }
        if (!frame.palette || pos >= length) break;
        int minimum = data[pos++];
        if (minimum < 2 || minimum > 8) {
            set_message(info, "the GIF's LZW code size is invalid");
            return RP_IMAGE_CORRUPT;
        }
        uint16_t *prefix = malloc(4096 * sizeof *prefix);
        uint8_t *suffix = malloc(4096), *stack = malloc(4097);
        if (!prefix || !suffix || !stack) {
            free(prefix);
            free(suffix);
            free(stack);
            return RP_IMAGE_NO_MEMORY;
        }
        gif_bits bits = {data, length, pos, 0, 0, 0, 0};
        int clear = 1 << minimum, end = clear + 1, next = clear + 2, size = minimum + 1, previous = -1;
        uint8_t first = 0;
        int status = RP_IMAGE_OK;
        for (int c = 0; c < clear; c++) {
            prefix[c] = 0xFFFF;
            suffix[c] = (uint8_t)c;
        }
        for (;;) {
            int code = gif_code(&bits, size);
            if (code < 0) {
                set_message(info, "the GIF data ends early");
                status = RP_IMAGE_CORRUPT;
                break;
            }
            if (code == clear) {
                size = minimum + 1;
                next = clear + 2;
                previous = -1;
                continue;
            }
            if (code == end) break;
            if (previous < 0) {
                if (code >= clear) {
                    set_message(info, "the GIF's LZW data is corrupt");
                    status = RP_IMAGE_CORRUPT;
                    break;
                }
                first = (uint8_t)code;
                gif_put(&frame, first);
                previous = code;
                continue;
            }
            if (code > next || (code == next && next >= 4096)) {
                set_message(info, "the GIF's LZW data is corrupt");
                status = RP_IMAGE_CORRUPT;
                break;
            }
            // The string of `code` (or, for the code not yet defined, the previous string and its first byte), read
            // backwards through the table onto a stack.
            int depth = 0, walk = code == next ? previous : code;
            while (walk >= clear && depth < 4096) {
                stack[depth++] = suffix[walk];
                walk = prefix[walk];
            }
            stack[depth++] = (uint8_t)walk;
            uint8_t head = (uint8_t)walk;
            while (depth > 0) gif_put(&frame, stack[--depth]);
            if (code == next) gif_put(&frame, head);
            first = head;
            if (next < 4096) {
                prefix[next] = (uint16_t)previous;
                suffix[next] = first;
                next++;
                if (next == (1 << size) && size < 12) size++;
            }
            previous = code;
        }
        free(prefix);
        free(suffix);
        free(stack);
        return status;
    }
    set_message(info, "the GIF data ends early");
    return RP_IMAGE_CORRUPT;
}

// MARK: - Entry points for decoding

static int run(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length,
               rp_image_info *info) {
    memset(info, 0, sizeof *info);
    switch (rp_image_sniff(data, length)) {
    case RP_IMAGE_PNG: return png_run(data, length, max_pixels, out, out_length, info);
    case RP_IMAGE_JPEG: return jpeg_run(data, length, max_pixels, out, out_length, info);
    case RP_IMAGE_GIF: return gif_run(data, length, max_pixels, out, out_length, info);
    default:
        set_message(info, "the data is neither PNG, JPEG nor GIF");
        return RP_IMAGE_UNKNOWN_FORMAT;
    }
}

int rp_image_probe(const uint8_t *data, size_t length, uint64_t max_pixels, uint32_t header[5]) {
    rp_image_info info;
    int status = run(data, length, max_pixels, NULL, 0, &info);
    header[0] = (uint32_t)info.format;
    header[1] = info.width;
    header[2] = info.height;
    header[3] = (uint32_t)info.orientation;
    header[4] = (uint32_t)info.opaque;
    return status;
}

int rp_image_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length) {
    if (!out) return RP_IMAGE_BAD_ARGUMENT;
    rp_image_info info;
    return run(data, length, max_pixels, out, out_length, &info);
}

// MARK: - Encoding

/// A growing output buffer, on the heap so the error path can free it after a jump.
typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    rp_image_data *out;
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
    png_sink *sink = png_get_error_ptr(png);
    copy_message(sink->out->message, sizeof sink->out->message, text);
    png_longjmp(png, 1);
}

static int encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, int with_alpha, rp_image_data *out) {
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0 || !rgba) return RP_IMAGE_BAD_ARGUMENT;
    int channels = with_alpha ? 4 : 3;
    png_sink *sink = calloc(1, sizeof *sink);
    uint8_t *row = malloc((size_t)width * channels);
    if (!sink || !row) {
        free(sink);
        free(row);
        return RP_IMAGE_NO_MEMORY;
    }
    sink->out = out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, png_write_error, png_warning_handler);
    png_infop png_info = png ? png_create_info_struct(png) : NULL;
    if (!png_info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        free(sink);
        free(row);
        return RP_IMAGE_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &png_info);
        free(sink->bytes);
        free(sink);
        free(row);
        return RP_IMAGE_CORRUPT;
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
    return RP_IMAGE_OK;
}

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    rp_image_data *out;
} jpeg_write_errors;

static void jpeg_write_error_exit(j_common_ptr common) {
    jpeg_write_errors *errors = (jpeg_write_errors *)common->err;
    char text[JMSG_LENGTH_MAX];
    common->err->format_message(common, text);
    copy_message(errors->out->message, sizeof errors->out->message, text);
    longjmp(errors->jump, 1);
}

/// What jpeg_mem_dest writes to, on the heap so the error path can free it after a jump.
typedef struct {
    unsigned char *bytes;
    unsigned long length;
} jpeg_sink;

static int encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, rp_image_data *out) {
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0 || !rgba || width > 65500 || height > 65500) return RP_IMAGE_BAD_ARGUMENT;
    struct jpeg_compress_struct *jpeg = calloc(1, sizeof *jpeg);
    jpeg_write_errors *errors = calloc(1, sizeof *errors);
    jpeg_sink *sink = calloc(1, sizeof *sink);
    uint8_t *row = malloc((size_t)width * 3);
    if (!jpeg || !errors || !sink || !row) {
        free(jpeg);
        free(errors);
        free(sink);
        free(row);
        return RP_IMAGE_NO_MEMORY;
    }
    jpeg->err = jpeg_std_error(&errors->base);
    errors->base.error_exit = jpeg_write_error_exit;
    errors->base.output_message = jpeg_output_message;
    errors->out = out;
    if (setjmp(errors->jump)) {
        jpeg_destroy_compress(jpeg);
        free(sink->bytes);
        free(jpeg);
        free(errors);
        free(sink);
        free(row);
        return RP_IMAGE_CORRUPT;
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
    return RP_IMAGE_OK;
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

// MARK: - Drawing

/// The source pixels (first .. first + count) and their weights (summing to 1) that make destination pixels
/// `from ..< to` of a row of `destination` pixels scaled from `source` pixels.
typedef struct {
    int64_t *first;
    int *count;
    double *weights; // `taps` per destination pixel
    int taps;
} rp_contributions;

static void contributions_free(rp_contributions *c) {
    free(c->first);
    free(c->count);
    free(c->weights);
}

static int contributions_make(rp_contributions *c, uint32_t source, int64_t destination, int64_t from, int64_t to) {
    double ratio = (double)source / (double)destination;
    int64_t n = to - from;
    c->taps = (int)ceil(ratio) + 2;
    c->first = malloc((size_t)n * sizeof *c->first);
    c->count = malloc((size_t)n * sizeof *c->count);
    c->weights = calloc((size_t)n * c->taps, sizeof *c->weights);
    if (!c->first || !c->count || !c->weights) return 0;
    for (int64_t i = 0; i < n; i++) {
        double *w = c->weights + i * c->taps;
        int64_t first, last;
        if (ratio > 1) {
            // Shrinking: the destination pixel covers source span [start, end); each source pixel weighs what of it
            // lies inside.
            double start = (double)(from + i) * ratio, end = start + ratio;
            first = (int64_t)floor(start);
            last = (int64_t)ceil(end) - 1;
            if (last > (int64_t)source - 1) last = (int64_t)source - 1;
            if (last - first + 1 > c->taps) last = first + c->taps - 1;
            for (int64_t p = first; p <= last; p++) {
                double low = p > start ? (double)p : start;
                double high = p + 1 < end ? (double)(p + 1) : end;
                w[p - first] = high > low ? (high - low) / ratio : 0;
            }
        } else {
            // Enlarging: bilinear between the two nearest source pixels (the edge pixel stands beyond the image).
            double center = ((double)(from + i) + 0.5) * ratio - 0.5;
            int64_t left = (int64_t)floor(center);
            double fraction = center - (double)left;
            if (left < 0) {
                left = 0;
                fraction = 0;
            }
            if (left >= (int64_t)source - 1) {
                left = (int64_t)source - 1;
                fraction = 0;
            }
            first = left;
            last = fraction > 0 ? left + 1 : left;
            w[0] = 1 - fraction;
            if (last > first) w[1] = fraction;
        }
        c->first[i] = first;
        c->count[i] = (int)(last - first + 1);
    }
    return 1;
}

static uint8_t clamp_channel(double value) {
    if (value <= 0) return 0;
    if (value >= 255) return 255;
    return (uint8_t)(value + 0.5);
}

static int64_t round_edge(double value) {
    if (value > 1e9) return 1000000000;
    if (value < -1e9) return -1000000000;
    return (int64_t)floor(value + 0.5);
}

int rp_image_draw(uint8_t *canvas, uint32_t canvas_width, uint32_t canvas_height, const uint8_t *source,
                  uint32_t source_width, uint32_t source_height, double x, double y, double width, double height,
                  double alpha, int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height, int opaque) {
    if (!canvas || !source || source_width == 0 || source_height == 0 || !(alpha > 0)) return RP_IMAGE_OK;
    if (!(width > 0) || !(height > 0) || !isfinite(x) || !isfinite(y) || !isfinite(width) || !isfinite(height))
        return RP_IMAGE_OK;
    if (alpha > 1) alpha = 1;
    int64_t left = round_edge(x), top = round_edge(y), right = round_edge(x + width), bottom = round_edge(y + height);
    int64_t full_width = right - left, full_height = bottom - top;
    if (full_width <= 0 || full_height <= 0) return RP_IMAGE_OK;
    int64_t vx0 = left, vy0 = top, vx1 = right, vy1 = bottom;
    if (vx0 < clip_x) vx0 = clip_x;
    if (vy0 < clip_y) vy0 = clip_y;
    if (vx1 > (int64_t)clip_x + clip_width) vx1 = (int64_t)clip_x + clip_width;
    if (vy1 > (int64_t)clip_y + clip_height) vy1 = (int64_t)clip_y + clip_height;
    if (vx0 < 0) vx0 = 0;
    if (vy0 < 0) vy0 = 0;
    if (vx1 > canvas_width) vx1 = canvas_width;
    if (vy1 > canvas_height) vy1 = canvas_height;
    if (vx1 <= vx0 || vy1 <= vy0) return RP_IMAGE_OK;

    rp_contributions columns = {0}, rows = {0};
    double *line = NULL;
    int status = RP_IMAGE_NO_MEMORY;
    if (!contributions_make(&columns, source_width, full_width, vx0 - left, vx1 - left)) goto done;
    if (!contributions_make(&rows, source_height, full_height, vy0 - top, vy1 - top)) goto done;
    // One source row, blended vertically, over the source columns the visible columns read.
    int64_t column_first = columns.first[0];
    int64_t column_last = columns.first[vx1 - vx0 - 1] + columns.count[vx1 - vx0 - 1];
    line = malloc((size_t)(column_last - column_first) * 4 * sizeof *line);
    if (!line) goto done;
    for (int64_t row = 0; row < vy1 - vy0; row++) {
        const double *vertical = rows.weights + row * rows.taps;
        for (int64_t i = 0; i < (column_last - column_first) * 4; i++) line[i] = 0;
        for (int k = 0; k < rows.count[row]; k++) {
            const uint8_t *s = source + ((size_t)(rows.first[row] + k) * source_width + column_first) * 4;
            double weight = vertical[k];
            for (int64_t i = 0; i < (column_last - column_first) * 4; i++) line[i] += weight * s[i];
        }
        uint8_t *d = canvas + ((size_t)(vy0 + row) * canvas_width + vx0) * 4;
        for (int64_t column = 0; column < vx1 - vx0; column++, d += 4) {
            const double *horizontal = columns.weights + column * columns.taps;
            const double *l = line + (columns.first[column] - column_first) * 4;
            double sums[4] = {0, 0, 0, 0};
            for (int k = 0; k < columns.count[column]; k++) {
                for (int c = 0; c < 4; c++) sums[c] += horizontal[k] * l[k * 4 + c];
            }
            uint8_t s[4];
            for (int c = 0; c < 4; c++) s[c] = clamp_channel(sums[c] * alpha);
            unsigned inverse = 255u - s[3];
            for (int c = 0; c < 4; c++) {
                unsigned value = s[c] + (d[c] * inverse + 127) / 255;
                d[c] = (uint8_t)(value > 255 ? 255 : value);
            }
            if (opaque) d[3] = 255;
        }
    }
    status = RP_IMAGE_OK;
done:
    contributions_free(&columns);
    contributions_free(&rows);
    free(line);
    return status;
}

// MARK: - For Swift

const rp_image_function *rp_image_io_functions(void) {
    static const rp_image_function functions[RP_IMAGE_FUNCTION_COUNT] = {
        [RP_IMAGE_FUNCTION_PROBE] = (rp_image_function)rp_image_probe,
        [RP_IMAGE_FUNCTION_DECODE] = (rp_image_function)rp_image_decode,
        [RP_IMAGE_FUNCTION_ENCODE_PNG] = (rp_image_function)rp_image_encode_png,
        [RP_IMAGE_FUNCTION_ENCODE_JPEG] = (rp_image_function)rp_image_encode_jpeg,
        [RP_IMAGE_FUNCTION_FREE] = (rp_image_function)rp_image_free,
        [RP_IMAGE_FUNCTION_DRAW] = (rp_image_function)rp_image_draw,
    };
    return functions;
}
