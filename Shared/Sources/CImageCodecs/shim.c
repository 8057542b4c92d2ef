// libpng, libjpeg(-turbo) and giflib behind one small interface (see include/CImageCodecs.h).
//
// libpng and libjpeg report errors by longjmp: every entry point below that calls into them sets its own
// setjmp first, so a jump only ever unwinds library frames and the entry point itself. Buffers are kept in
// the rp_codec (never in locals across a setjmp) so rp_codec_close frees them after any error.
//
// Every codec reads through one byte source: the caller's bytes in memory, or a file read in chunks of
// RP_SOURCE_CHUNK bytes, so checking a file never holds more of it than one chunk.

#include "CImageCodecs.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

/// Box-averaging scaler: source rows are pushed top to bottom, each source pixel lands in exactly one
/// destination pixel, and colours are averaged weighted by alpha (so transparent pixels do not darken edges).
typedef struct {
    uint32_t src_width, src_height, dst_width, dst_height;
    uint8_t *out;
    uint64_t *sums;    // dst_width * 4: r*a, g*a, b*a, a
    uint32_t *counts;  // dst_width
    uint32_t *columns; // src_width: destination column of each source column
    uint32_t row;      // next source row
    int64_t current;   // destination row being accumulated, -1 before the first
} rp_scaler;

/// Bytes read from a file at a time.
#define RP_SOURCE_CHUNK 65536

struct rp_codec {
    int format;
    // The byte source. Memory: `data` is the caller's bytes. File: `data` is `buffer`, holding the chunk read
    // last; `consumed` counts the bytes of earlier chunks.
    const uint8_t *data;
    size_t length;   // bytes at `data`
    size_t offset;   // the next byte at `data`
    uint64_t consumed;
    int fd;          // -1 for memory
    uint8_t *buffer; // RP_SOURCE_CHUNK bytes, file only
    int read_failed; // the file gave an error (not the end of its data)

    uint64_t max_frame_pixels, max_total_pixels;
    int status;
    int ended_early;
    char message[200];
    uint32_t width, height;
    uint32_t frame_width, frame_height;
    uint64_t total_pixels;
    uint32_t frames;
    int finished;
    int opaque;      // no alpha channel, no transparency (GIF: in the first frame)
    int orientation; // a JPEG's Exif orientation, 1 to 8; 0 before one is found
    jmp_buf jump;

    // Buffers, freed by rp_codec_close.
    uint8_t *row;
    uint8_t *image;
    uint8_t *saved;
    rp_scaler scaler;

    // PNG
    png_structp png;
    png_infop png_info;
    int png_passes;

    // JPEG
    struct jpeg_decompress_struct jpeg;
    struct jpeg_error_mgr jpeg_errors;
    struct jpeg_source_mgr jpeg_source;
    int jpeg_created;
    struct jpeg_progress_mgr jpeg_progress;
    uint8_t *exif; // an APP1 segment's data, while its Exif orientation is read

    // GIF
    GifFileType *gif;
    uint8_t *canvas;
    int gif_disposal;          // disposal of the previous frame
    uint32_t gif_left, gif_top, gif_right, gif_bottom; // previous frame's rectangle, clipped to the canvas
    GraphicsControlBlock gif_control;
    int gif_has_control;
};

static void set_message(rp_codec *codec, const char *text) {
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof codec->message; c++) {
        // Only printable ASCII leaves the shim.
        codec->message[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : ' ';
    }
    while (n > 0 && codec->message[n - 1] == ' ') n--;
    codec->message[n] = 0;
}

static int fail(rp_codec *codec, int status) {
    if (codec->status == RP_CODEC_OK) codec->status = status;
    return codec->status;
}

static int fail_with(rp_codec *codec, int status, const char *text) {
    if (codec->status == RP_CODEC_OK) set_message(codec, text);
    return fail(codec, status);
}

/// The status for an error a library reported by longjmp or a failed call: the file could not be read, its data
/// ran out, or the library refused it.
static int fail_read(rp_codec *codec) {
    if (codec->read_failed) return fail(codec, RP_CODEC_UNREADABLE);
    return fail(codec, codec->ended_early ? RP_CODEC_ENDS_EARLY : RP_CODEC_CORRUPT);
}

/// True once a library's words would only describe the data running out (or the file failing), not the data.
static int data_gone(const rp_codec *codec) { return codec->ended_early || codec->read_failed; }

static int over_frame_budget(rp_codec *codec, uint32_t width, uint32_t height) {
    codec->frame_width = width;
    codec->frame_height = height;
    return (uint64_t)width * height > codec->max_frame_pixels;
}

// MARK: - Byte source

/// The bytes available at `data + offset`; for a file, reads the next chunk once the last one is used up.
/// 0 at the end of the data, or when the file gives an error (then `read_failed` is set).
static size_t source_available(rp_codec *codec) {
    if (codec->offset < codec->length || codec->fd < 0 || codec->read_failed) return codec->length - codec->offset;
    codec->consumed += codec->length;
    codec->length = 0;
    codec->offset = 0;
    for (;;) {
        ssize_t n = read(codec->fd, codec->buffer, RP_SOURCE_CHUNK);
        if (n >= 0) {
            codec->length = (size_t)n;
            break;
        }
        if (errno != EINTR) {
            codec->read_failed = 1;
            break;
        }
    }
    return codec->length;
}

/// Copies up to `count` bytes to `out`; fewer only where the data ends or the file fails.
static size_t source_read(rp_codec *codec, uint8_t *out, size_t count) {
    size_t done = 0;
    while (done < count) {
        size_t available = source_available(codec);
        if (available == 0) break;
        size_t n = count - done < available ? count - done : available;
        memcpy(out + done, codec->data + codec->offset, n);
        codec->offset += n;
        done += n;
    }
    return done;
}

/// Bytes handed out so far.
static uint64_t source_position(const rp_codec *codec) { return codec->consumed + codec->offset; }

// MARK: - Scaling

static void scaler_free(rp_scaler *s) {
    free(s->sums);
    free(s->counts);
    free(s->columns);
    memset(s, 0, sizeof *s);
}

static int scaler_start(rp_scaler *s, uint32_t src_width, uint32_t src_height, uint8_t *out, uint32_t dst_width,
                        uint32_t dst_height) {
    scaler_free(s);
    s->src_width = src_width;
    s->src_height = src_height;
    s->dst_width = dst_width;
    s->dst_height = dst_height;
    s->out = out;
    s->row = 0;
    s->current = -1;
    if (!out || (src_width == dst_width && src_height == dst_height)) return 1;
    s->sums = calloc((size_t)dst_width * 4, sizeof *s->sums);
    s->counts = calloc(dst_width, sizeof *s->counts);
    s->columns = malloc((size_t)src_width * sizeof *s->columns);
    if (!s->sums || !s->counts || !s->columns) return 0;
    for (uint32_t x = 0; x < src_width; x++) s->columns[x] = (uint32_t)((uint64_t)x * dst_width / src_width);
    return 1;
}

static void scaler_flush(rp_scaler *s) {
    if (s->current < 0) return;
    uint8_t *dst = s->out + (size_t)s->current * s->dst_width * 4;
    for (uint32_t x = 0; x < s->dst_width; x++) {
        uint64_t *sum = s->sums + (size_t)x * 4;
        uint32_t count = s->counts[x];
        if (count == 0 || sum[3] == 0) {
            memset(dst + (size_t)x * 4, 0, 4);
        } else {
            for (int c = 0; c < 3; c++) dst[x * 4 + c] = (uint8_t)((sum[c] + sum[3] / 2) / sum[3]);
            dst[x * 4 + 3] = (uint8_t)((sum[3] + count / 2) / count);
        }
        memset(sum, 0, 4 * sizeof *sum);
        s->counts[x] = 0;
    }
}

/// One source row of `src_width` RGBA pixels.
static void scaler_push(rp_scaler *s, const uint8_t *rgba) {
    if (!s->out) return;
    if (!s->sums) {
        memcpy(s->out + (size_t)s->row * s->dst_width * 4, rgba, (size_t)s->dst_width * 4);
        s->row++;
        return;
    }
    int64_t target = (int64_t)((uint64_t)s->row * s->dst_height / s->src_height);
    if (target != s->current) {
        scaler_flush(s);
        s->current = target;
    }
    for (uint32_t x = 0; x < s->src_width; x++) {
        const uint8_t *p = rgba + (size_t)x * 4;
        uint64_t *sum = s->sums + (size_t)s->columns[x] * 4;
        uint64_t a = p[3];
        sum[0] += p[0] * a;
        sum[1] += p[1] * a;
        sum[2] += p[2] * a;
        sum[3] += a;
        s->counts[s->columns[x]]++;
    }
    s->row++;
}

static void scaler_finish(rp_scaler *s) {
    if (s->sums) scaler_flush(s);
}

// MARK: - PNG

static void png_read_bytes(png_structp png, png_bytep out, size_t count) {
    rp_codec *codec = png_get_io_ptr(png);
    if (source_read(codec, out, count) < count) {
        if (!codec->read_failed) codec->ended_early = 1;
        png_error(png, "the data ends early");
    }
}

static void png_error_handler(png_structp png, png_const_charp text) {
    rp_codec *codec = png_get_error_ptr(png);
    if (codec->status == RP_CODEC_OK && !data_gone(codec)) set_message(codec, text);
    png_longjmp(png, 1);
}

static void png_warning_handler(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static int png_open(rp_codec *codec) {
    codec->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, codec, png_error_handler, png_warning_handler);
    if (!codec->png) return fail(codec, RP_CODEC_NO_MEMORY);
    codec->png_info = png_create_info_struct(codec->png);
    if (!codec->png_info) return fail(codec, RP_CODEC_NO_MEMORY);
    if (setjmp(png_jmpbuf(codec->png))) {
        return fail_read(codec);
    }
    png_set_read_fn(codec->png, codec, png_read_bytes);
    // libpng's own limit is a million pixels per side; the pixel budget decides instead.
    png_set_user_limits(codec->png, 0x7fffffff, 0x7fffffff);
    png_read_info(codec->png, codec->png_info);
    codec->width = png_get_image_width(codec->png, codec->png_info);
    codec->height = png_get_image_height(codec->png, codec->png_info);
    codec->opaque = !(png_get_color_type(codec->png, codec->png_info) & PNG_COLOR_MASK_ALPHA) &&
                    !png_get_valid(codec->png, codec->png_info, PNG_INFO_tRNS);
    if (over_frame_budget(codec, codec->width, codec->height)) return fail(codec, RP_CODEC_OVER_BUDGET);
    codec->total_pixels = (uint64_t)codec->width * codec->height;
    return RP_CODEC_OK;
}

/// Checking only: every row of every pass is read in the file's own layout (no transforms), so all the image
/// data is inflated, unfiltered and checked (chunk CRCs, the zlib checksum) without converting a pixel.
static int png_check(rp_codec *codec) {
    codec->png_passes = png_set_interlace_handling(codec->png);
    png_read_update_info(codec->png, codec->png_info);
    size_t row_bytes = png_get_rowbytes(codec->png, codec->png_info);
    codec->row = malloc(row_bytes > 0 ? row_bytes : 1);
    if (!codec->row) return fail(codec, RP_CODEC_NO_MEMORY);
    for (int pass = 0; pass < codec->png_passes; pass++) {
        for (uint32_t y = 0; y < codec->height; y++) png_read_row(codec->png, codec->row, NULL);
    }
    return RP_CODEC_OK;
}

static int png_frame(rp_codec *codec, uint8_t *out, uint32_t out_width, uint32_t out_height) {
    if (setjmp(png_jmpbuf(codec->png))) {
        return fail_read(codec);
    }
    if (!out) return png_check(codec);

    // Whatever the file holds, rows come out as 8-bit RGBA.
    png_set_expand(codec->png);
    png_set_strip_16(codec->png);
    png_set_gray_to_rgb(codec->png);
    png_set_add_alpha(codec->png, 0xff, PNG_FILLER_AFTER);
    codec->png_passes = png_set_interlace_handling(codec->png);
    png_read_update_info(codec->png, codec->png_info);
    size_t row_bytes = (size_t)codec->width * 4;
    if (png_get_rowbytes(codec->png, codec->png_info) != row_bytes) {
        return fail_with(codec, RP_CODEC_CORRUPT, "unexpected row layout");
    }
    if (!scaler_start(&codec->scaler, codec->width, codec->height, out, out_width, out_height)) {
        return fail(codec, RP_CODEC_NO_MEMORY);
    }
    if (codec->png_passes > 1) {
        // Interlaced rows are only complete after the last pass: decode the whole image, then scale it.
        codec->image = malloc(row_bytes * codec->height);
        if (!codec->image) return fail(codec, RP_CODEC_NO_MEMORY);
        for (int pass = 0; pass < codec->png_passes; pass++) {
            for (uint32_t y = 0; y < codec->height; y++) {
                png_read_row(codec->png, codec->image + row_bytes * y, NULL);
            }
        }
        for (uint32_t y = 0; y < codec->height; y++) scaler_push(&codec->scaler, codec->image + row_bytes * y);
    } else {
        // One row at a time.
        codec->row = malloc(row_bytes);
        if (!codec->row) return fail(codec, RP_CODEC_NO_MEMORY);
        for (int pass = 0; pass < codec->png_passes; pass++) {
            for (uint32_t y = 0; y < codec->height; y++) {
                png_read_row(codec->png, codec->row, NULL);
                scaler_push(&codec->scaler, codec->row);
            }
        }
    }
    scaler_finish(&codec->scaler);
    return RP_CODEC_OK;
}

// MARK: - JPEG

static void jpeg_error_exit(j_common_ptr info) {
    rp_codec *codec = info->client_data;
    if (codec->status == RP_CODEC_OK && !data_gone(codec)) {
        char text[JMSG_LENGTH_MAX];
        info->err->format_message(info, text);
        set_message(codec, text);
    }
    longjmp(codec->jump, 1);
}

/// Warnings about missing or damaged entropy data end decoding: libjpeg would otherwise fill the rest of the
/// picture with grey and call it done.
static void jpeg_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;
    rp_codec *codec = info->client_data;
    int code = info->err->msg_code;
    if (code == JWRN_JPEG_EOF) {
        codec->ended_early = 1;
        longjmp(codec->jump, 1);
    }
    if (code == JWRN_HIT_MARKER || code == JWRN_MUST_RESYNC || code == JWRN_NOT_SEQUENTIAL ||
        code == JWRN_BOGUS_PROGRESSION) {
        jpeg_error_exit(info);
    }
}

static void jpeg_output_message(j_common_ptr info) { (void)info; }

/// libjpeg decodes every scan of a progressive JPEG over the whole image: thousands of tiny scans would cost minutes
/// of CPU for a few kilobytes of data.
static void jpeg_progress(j_common_ptr info) {
    if (!info->is_decompressor) return;
    rp_codec *codec = info->client_data;
    if (((j_decompress_ptr)info)->input_scan_number > RP_CODEC_MAX_SCANS) {
        fail_with(codec, RP_CODEC_CORRUPT, "the progressive JPEG has more scans than a decoder allows");
        longjmp(codec->jump, 1);
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

/// One byte from the source; the source never suspends (at the end of the data it ends decoding).
static unsigned jpeg_next_byte(j_decompress_ptr info) {
    struct jpeg_source_mgr *src = info->src;
    if (src->bytes_in_buffer == 0) (void)src->fill_input_buffer(info);
    src->bytes_in_buffer--;
    return *src->next_input_byte++;
}

/// APP1 segments, read as libjpeg skips them (a length, then that many bytes less two) until one gives an Exif
/// orientation other than 1; each is held in one buffer of at most 64 KB, never more than one at a time.
static boolean jpeg_read_app1(j_decompress_ptr info) {
    rp_codec *codec = info->client_data;
    unsigned high = jpeg_next_byte(info);
    long length = (long)(high << 8 | jpeg_next_byte(info)) - 2;
    if (length <= 0) return TRUE;
    if (codec->orientation > 1) {
        info->src->skip_input_data(info, length);
        return TRUE;
    }
    if (!codec->exif && !(codec->exif = malloc(65536))) {
        fail(codec, RP_CODEC_NO_MEMORY);
        longjmp(codec->jump, 1);
    }
    struct jpeg_source_mgr *src = info->src;
    for (size_t done = 0; done < (size_t)length;) {
        if (src->bytes_in_buffer == 0) (void)src->fill_input_buffer(info);
        size_t n = (size_t)length - done < src->bytes_in_buffer ? (size_t)length - done : src->bytes_in_buffer;
        memcpy(codec->exif + done, src->next_input_byte, n);
        src->next_input_byte += n;
        src->bytes_in_buffer -= n;
        done += n;
    }
    codec->orientation = exif_orientation(codec->exif, (size_t)length);
    return TRUE;
}

// A source manager over the byte source, behaving as libjpeg's memory source where the data ends: empty data
// is an error, data that stops early gets the EOF warning (which ends decoding, above).

static void jpeg_source_init(j_decompress_ptr info) { (void)info; }
static void jpeg_source_term(j_decompress_ptr info) { (void)info; }

static boolean jpeg_source_fill(j_decompress_ptr info) {
    static const JOCTET end_of_image[2] = {0xFF, JPEG_EOI};
    rp_codec *codec = info->client_data;
    size_t available = source_available(codec);
    if (available > 0) {
        // libjpeg reads these in place; the chunk buffer is only refilled by the next call here.
        info->src->next_input_byte = codec->data + codec->offset;
        info->src->bytes_in_buffer = available;
        codec->offset += available;
        return TRUE;
    }
    if (codec->read_failed) ERREXIT(info, JERR_FILE_READ);
    if (source_position(codec) == 0) ERREXIT(info, JERR_INPUT_EMPTY);
    WARNMS(info, JWRN_JPEG_EOF);
    info->src->next_input_byte = end_of_image;
    info->src->bytes_in_buffer = 2;
    return TRUE;
}

static void jpeg_source_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *src = info->src;
    if (count <= 0) return;
    while ((size_t)count > src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        src->bytes_in_buffer = 0;
        (void)src->fill_input_buffer(info);
    }
    src->next_input_byte += (size_t)count;
    src->bytes_in_buffer -= (size_t)count;
}

static int jpeg_open(rp_codec *codec) {
    codec->jpeg.err = jpeg_std_error(&codec->jpeg_errors);
    codec->jpeg_errors.error_exit = jpeg_error_exit;
    codec->jpeg_errors.emit_message = jpeg_emit_message;
    codec->jpeg_errors.output_message = jpeg_output_message;
    codec->jpeg.client_data = codec;
    if (setjmp(codec->jump)) {
        return fail_read(codec);
    }
    jpeg_create_decompress(&codec->jpeg);
    codec->jpeg_created = 1;
    codec->jpeg_progress.progress_monitor = jpeg_progress;
    codec->jpeg.progress = &codec->jpeg_progress;
    jpeg_set_marker_processor(&codec->jpeg, JPEG_APP0 + 1, jpeg_read_app1);
    codec->jpeg_source.init_source = jpeg_source_init;
    codec->jpeg_source.fill_input_buffer = jpeg_source_fill;
    codec->jpeg_source.skip_input_data = jpeg_source_skip;
    codec->jpeg_source.resync_to_restart = jpeg_resync_to_restart;
    codec->jpeg_source.term_source = jpeg_source_term;
    codec->jpeg_source.next_input_byte = NULL;
    codec->jpeg_source.bytes_in_buffer = 0;
    codec->jpeg.src = &codec->jpeg_source;
    jpeg_read_header(&codec->jpeg, TRUE);
    codec->width = codec->jpeg.image_width;
    codec->height = codec->jpeg.image_height;
    codec->opaque = 1;
    if (over_frame_budget(codec, codec->width, codec->height)) return fail(codec, RP_CODEC_OVER_BUDGET);
    codec->total_pixels = (uint64_t)codec->width * codec->height;
    return RP_CODEC_OK;
}

static int jpeg_frame(rp_codec *codec, uint8_t *out, uint32_t out_width, uint32_t out_height) {
    if (setjmp(codec->jump)) {
        return fail_read(codec);
    }
    struct jpeg_decompress_struct *jpeg = &codec->jpeg;
    int cmyk = jpeg->jpeg_color_space == JCS_CMYK || jpeg->jpeg_color_space == JCS_YCCK;
    jpeg->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    // libjpeg scales by 1/2, 1/4 or 1/8 while decoding; the box scaler does the rest. Checking only decodes at
    // 1/8: every bit of entropy-coded data is still read.
    unsigned denominator = 1;
    for (unsigned d = 8; d > 1; d /= 2) {
        uint32_t w = (codec->width + d - 1) / d, h = (codec->height + d - 1) / d;
        if (!out || (w >= out_width && h >= out_height)) {
            denominator = d;
            break;
        }
    }
    jpeg->scale_num = 1;
    jpeg->scale_denom = denominator;
    jpeg_start_decompress(jpeg);
    uint32_t width = jpeg->output_width, height = jpeg->output_height;
    if (!scaler_start(&codec->scaler, width, height, out, out_width, out_height)) {
        return fail(codec, RP_CODEC_NO_MEMORY);
    }
    if (out && (out_width > width || out_height > height)) {
        return fail_with(codec, RP_CODEC_CORRUPT, "scaled output larger than the image");
    }
    codec->row = malloc((size_t)width * 4);
    if (!codec->row) return fail(codec, RP_CODEC_NO_MEMORY);
    while (jpeg->output_scanline < height) {
        JSAMPROW rows[1] = {codec->row};
        if (jpeg_read_scanlines(jpeg, rows, 1) != 1) return fail(codec, RP_CODEC_ENDS_EARLY);
        if (cmyk) {
            // Adobe writes CMYK inverted; convert in place to RGBA.
            int inverted = jpeg->saw_Adobe_marker;
            for (uint32_t x = 0; x < width; x++) {
                uint8_t *p = codec->row + (size_t)x * 4;
                unsigned c = p[0], m = p[1], yy = p[2], k = p[3];
                if (!inverted) {
                    c = 255 - c;
                    m = 255 - m;
                    yy = 255 - yy;
                    k = 255 - k;
                }
                p[0] = (uint8_t)(c * k / 255);
                p[1] = (uint8_t)(m * k / 255);
                p[2] = (uint8_t)(yy * k / 255);
                p[3] = 255;
            }
        }
        scaler_push(&codec->scaler, codec->row);
    }
    scaler_finish(&codec->scaler);
    // Every pixel is there: what follows the last scan (up to EOI) does not change the picture.
    jpeg_abort_decompress(jpeg);
    return RP_CODEC_OK;
}

// MARK: - GIF

static int gif_read_bytes(GifFileType *gif, GifByteType *out, int count) {
    rp_codec *codec = gif->UserData;
    size_t wanted = count > 0 ? (size_t)count : 0;
    size_t n = source_read(codec, out, wanted);
    if (n < wanted && !codec->read_failed) codec->ended_early = 1;
    return (int)n;
}

static int gif_fail(rp_codec *codec, int error) {
    // giflib also says "read failed" for some malformed fields: only data that ran out ends early.
    if (data_gone(codec)) return fail_read(codec);
    if (error == D_GIF_ERR_NOT_ENOUGH_MEM) return fail(codec, RP_CODEC_NO_MEMORY);
    // Without running out of data, "failed to read" means a field giflib cannot use (an LZW code size over 8).
    const char *text = error == D_GIF_ERR_READ_FAILED ? "a block giflib cannot read" : GifErrorString(error);
    return fail_with(codec, RP_CODEC_CORRUPT, text ? text : "giflib error");
}

static int gif_open(rp_codec *codec) {
    int error = 0;
    codec->gif = DGifOpen(codec, gif_read_bytes, &error);
    if (!codec->gif) return gif_fail(codec, error);
    codec->width = (uint32_t)codec->gif->SWidth;
    codec->height = (uint32_t)codec->gif->SHeight;
    if (codec->width == 0 || codec->height == 0) return fail_with(codec, RP_CODEC_CORRUPT, "empty canvas");
    if (over_frame_budget(codec, codec->width, codec->height)) return fail(codec, RP_CODEC_OVER_BUDGET);
    codec->gif_disposal = DISPOSAL_UNSPECIFIED;
    return RP_CODEC_OK;
}

static void gif_clear(rp_codec *codec, uint32_t left, uint32_t top, uint32_t right, uint32_t bottom) {
    for (uint32_t y = top; y < bottom; y++) {
        memset(codec->canvas + ((size_t)y * codec->width + left) * 4, 0, (size_t)(right - left) * 4);
    }
}

static int gif_frame(rp_codec *codec, uint8_t *out, uint32_t out_width, uint32_t out_height, uint32_t *delay_ms) {
    GifFileType *gif = codec->gif;
    for (;;) {
        GifRecordType type;
        uint64_t before = source_position(codec);
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            // Data that stops exactly where a block would start (nothing more could be read) has lost only its
            // trailer.
            if (codec->frames > 0 && codec->ended_early && source_position(codec) == before) return RP_CODEC_END;
            return gif_fail(codec, gif->Error);
        }
        if (type == TERMINATE_RECORD_TYPE) {
            if (codec->frames == 0) return fail_with(codec, RP_CODEC_CORRUPT, "no image in the file");
            return RP_CODEC_END;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return gif_fail(codec, gif->Error);
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                if (DGifExtensionToGCB(block[0], block + 1, &codec->gif_control) == GIF_OK) {
                    codec->gif_has_control = 1;
                }
            }
            while (block) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return gif_fail(codec, gif->Error);
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;

        if (DGifGetImageDesc(gif) == GIF_ERROR) return gif_fail(codec, gif->Error);
        GifImageDesc *desc = &gif->Image;
        uint32_t frame_width = (uint32_t)desc->Width, frame_height = (uint32_t)desc->Height;
        if (over_frame_budget(codec, frame_width, frame_height)) return fail(codec, RP_CODEC_OVER_BUDGET);
        codec->total_pixels += (uint64_t)codec->width * codec->height;
        if (codec->total_pixels > codec->max_total_pixels) {
            codec->frame_width = codec->width;
            codec->frame_height = codec->height;
            return fail(codec, RP_CODEC_OVER_BUDGET);
        }
        ColorMapObject *colors = desc->ColorMap ? desc->ColorMap : gif->SColorMap;
        if (!colors) return fail_with(codec, RP_CODEC_CORRUPT, "no colour table");
        GraphicsControlBlock control = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        if (codec->gif_has_control) control = codec->gif_control;
        if (codec->frames == 0) {
            // The first frame decides: transparent pixels, or a frame that leaves part of the canvas uncovered.
            codec->opaque = control.TransparentColor == NO_TRANSPARENT_COLOR && desc->Left == 0 && desc->Top == 0 &&
                            frame_width >= codec->width && frame_height >= codec->height;
        }
        codec->gif_has_control = 0;

        // The frame's rectangle clipped to the canvas.
        uint32_t left = (uint32_t)desc->Left, top = (uint32_t)desc->Top;
        uint32_t right = left + frame_width, bottom = top + frame_height;
        if (left > codec->width) left = codec->width;
        if (top > codec->height) top = codec->height;
        if (right > codec->width) right = codec->width;
        if (bottom > codec->height) bottom = codec->height;

        if (out) {
            if (!codec->canvas) {
                codec->canvas = calloc((size_t)codec->width * codec->height, 4);
                if (!codec->canvas) return fail(codec, RP_CODEC_NO_MEMORY);
            }
            // What the previous frame asked to be done with its area before this one is drawn.
            if (codec->gif_disposal == DISPOSE_BACKGROUND) {
                gif_clear(codec, codec->gif_left, codec->gif_top, codec->gif_right, codec->gif_bottom);
            } else if (codec->gif_disposal == DISPOSE_PREVIOUS && codec->saved) {
                memcpy(codec->canvas, codec->saved, (size_t)codec->width * codec->height * 4);
            }
            if (control.DisposalMode == DISPOSE_PREVIOUS) {
                if (!codec->saved) codec->saved = malloc((size_t)codec->width * codec->height * 4);
                if (!codec->saved) return fail(codec, RP_CODEC_NO_MEMORY);
                memcpy(codec->saved, codec->canvas, (size_t)codec->width * codec->height * 4);
            }
        }

        free(codec->row);
        codec->row = malloc(frame_width > 0 ? frame_width : 1);
        if (!codec->row) return fail(codec, RP_CODEC_NO_MEMORY);
        static const uint32_t starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
        int passes = desc->Interlace ? 4 : 1;
        for (int pass = 0; pass < passes; pass++) {
            uint32_t start = desc->Interlace ? starts[pass] : 0, step = desc->Interlace ? steps[pass] : 1;
            for (uint32_t y = start; y < frame_height; y += step) {
                if (frame_width > 0 && DGifGetLine(gif, codec->row, (int)frame_width) == GIF_ERROR) {
                    return gif_fail(codec, gif->Error);
                }
                uint32_t canvas_y = (uint32_t)desc->Top + y;
                if (!out || canvas_y >= codec->height) continue;
                for (uint32_t x = 0; x < frame_width; x++) {
                    uint32_t canvas_x = (uint32_t)desc->Left + x;
                    if (canvas_x >= codec->width) break;
                    int index = codec->row[x];
                    if (index == control.TransparentColor || index >= colors->ColorCount) continue;
                    GifColorType color = colors->Colors[index];
                    uint8_t *p = codec->canvas + ((size_t)canvas_y * codec->width + canvas_x) * 4;
                    p[0] = color.Red;
                    p[1] = color.Green;
                    p[2] = color.Blue;
                    p[3] = 255;
                }
            }
        }
        codec->gif_disposal = control.DisposalMode;
        codec->gif_left = left;
        codec->gif_top = top;
        codec->gif_right = right;
        codec->gif_bottom = bottom;
        codec->frames++;

        if (out) {
            if (!scaler_start(&codec->scaler, codec->width, codec->height, out, out_width, out_height)) {
                return fail(codec, RP_CODEC_NO_MEMORY);
            }
            for (uint32_t y = 0; y < codec->height; y++) {
                scaler_push(&codec->scaler, codec->canvas + (size_t)y * codec->width * 4);
            }
            scaler_finish(&codec->scaler);
        }
        uint32_t delay = (uint32_t)(control.DelayTime > 0 ? control.DelayTime : 0) * 10;
        *delay_ms = delay < 20 ? 100 : delay;
        return RP_CODEC_OK;
    }
}

// MARK: - Entry points

static rp_codec *codec_new(int format, uint64_t max_frame_pixels, uint64_t max_total_pixels) {
    rp_codec *codec = calloc(1, sizeof *codec);
    if (!codec) return NULL;
    codec->format = format;
    codec->fd = -1;
    codec->max_frame_pixels = max_frame_pixels;
    codec->max_total_pixels = max_total_pixels;
    return codec;
}

static void codec_read_header(rp_codec *codec) {
    switch (codec->format) {
    case RP_CODEC_PNG: png_open(codec); break;
    case RP_CODEC_JPEG: jpeg_open(codec); break;
    case RP_CODEC_GIF: gif_open(codec); break;
    default: fail_with(codec, RP_CODEC_CORRUPT, "unknown format"); break;
    }
}

rp_codec *rp_codec_open(int format, const uint8_t *data, size_t length, uint64_t max_frame_pixels,
                        uint64_t max_total_pixels) {
    rp_codec *codec = codec_new(format, max_frame_pixels, max_total_pixels);
    if (!codec) return NULL;
    codec->data = data;
    codec->length = data ? length : 0;
    codec_read_header(codec);
    return codec;
}

rp_codec *rp_codec_open_file(int format, const char *path, uint64_t max_frame_pixels, uint64_t max_total_pixels) {
    rp_codec *codec = codec_new(format, max_frame_pixels, max_total_pixels);
    if (!codec) return NULL;
    codec->buffer = malloc(RP_SOURCE_CHUNK);
    if (!codec->buffer) {
        fail(codec, RP_CODEC_NO_MEMORY);
        return codec;
    }
    codec->data = codec->buffer;
    // Non-blocking, so a FIFO at the path cannot hang the open; only a regular file is read.
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) : -1;
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        if (fd >= 0) close(fd);
        codec->read_failed = 1;
        fail_with(codec, RP_CODEC_UNREADABLE, fd < 0 ? "the file cannot be opened" : "not a regular file");
        return codec;
    }
    codec->fd = fd;
    codec_read_header(codec);
    return codec;
}

int rp_codec_status(const rp_codec *codec) { return codec->status; }
const char *rp_codec_message(const rp_codec *codec) { return codec->message; }
uint32_t rp_codec_width(const rp_codec *codec) { return codec->width; }
uint32_t rp_codec_height(const rp_codec *codec) { return codec->height; }
uint32_t rp_codec_frame_width(const rp_codec *codec) { return codec->frame_width; }
uint32_t rp_codec_frame_height(const rp_codec *codec) { return codec->frame_height; }
uint64_t rp_codec_total_pixels(const rp_codec *codec) { return codec->total_pixels; }
int rp_codec_opaque(const rp_codec *codec) { return codec->opaque; }
int rp_codec_orientation(const rp_codec *codec) { return codec->orientation > 0 ? codec->orientation : 1; }

int rp_codec_format(const uint8_t *data, size_t length) {
    static const uint8_t png[4] = {0x89, 'P', 'N', 'G'}, jpeg[3] = {0xFF, 0xD8, 0xFF};
    if (length >= 4 && memcmp(data, png, 4) == 0) return RP_CODEC_PNG;
    if (length >= 3 && memcmp(data, jpeg, 3) == 0) return RP_CODEC_JPEG;
    if (length >= 4 && memcmp(data, "GIF8", 4) == 0) return RP_CODEC_GIF;
    return -1;
}

int rp_codec_next_frame(rp_codec *codec, uint8_t *out, uint32_t out_width, uint32_t out_height,
                        uint32_t *delay_ms) {
    uint32_t ignored = 0;
    if (!delay_ms) delay_ms = &ignored;
    *delay_ms = 0;
    if (codec->status != RP_CODEC_OK) return codec->status;
    if (codec->finished) return RP_CODEC_END;
    if (out && (out_width == 0 || out_height == 0 || out_width > codec->width || out_height > codec->height)) {
        return fail_with(codec, RP_CODEC_CORRUPT, "bad output size");
    }
    int result;
    switch (codec->format) {
    case RP_CODEC_PNG:
        result = png_frame(codec, out, out_width, out_height);
        codec->finished = 1;
        break;
    case RP_CODEC_JPEG:
        result = jpeg_frame(codec, out, out_width, out_height);
        codec->finished = 1;
        break;
    default:
        result = gif_frame(codec, out, out_width, out_height, delay_ms);
        if (result == RP_CODEC_END) codec->finished = 1;
        break;
    }
    free(codec->row);
    codec->row = NULL;
    free(codec->image);
    codec->image = NULL;
    return result;
}

void rp_codec_close(rp_codec *codec) {
    if (!codec) return;
    if (codec->png) png_destroy_read_struct(&codec->png, codec->png_info ? &codec->png_info : NULL, NULL);
    if (codec->jpeg_created) jpeg_destroy_decompress(&codec->jpeg);
    if (codec->gif) DGifCloseFile(codec->gif, NULL);
    if (codec->fd >= 0) close(codec->fd);
    free(codec->buffer);
    free(codec->row);
    free(codec->image);
    free(codec->saved);
    free(codec->canvas);
    free(codec->exif);
    scaler_free(&codec->scaler);
    free(codec);
}
