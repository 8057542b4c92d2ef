// A fast acceptance test for PNG files, in front of libpng (see rp_png_quick_check in include/CImageCodecs.h).
//
// Checking a PNG with libpng costs what zlib's inflate costs: about 0.9 ms for a 640x480 picture. libdeflate
// inflates the same stream about ten times faster, but only in one piece, so this check reads the whole file and
// inflates the image data into one buffer, and is used for files and images small enough for that.
//
// It only ever says "libpng would accept this" for the PNG structure: every chunk and row condition below is at least
// as strict as what libpng checks when it reads every row (rp_codec_next_frame without pixels). Anything unusual (an
// interlaced image, an unknown critical chunk, a bad CRC anywhere before the end of the image data, a chunk out of
// place, image data that is not exactly one zlib stream of exactly the image's size, a back-reference beyond the
// declared window) is left undecided, and libpng then gives the verdict and its words. Tests compare the two on
// thousands of damaged files: a quick yes where libpng says no fails them.
//
// One gap is known and left: libdeflate decodes some deflate streams zlib refuses, which no encoder writes but a
// hostile server can (more than 286 length or 30 distance codes, the reserved symbols 286, 287, 30 and 31, an
// incomplete code-length code, a repeat running past the code lengths). For those the quick check says decoded
// where libpng would not; finding them means decoding symbol by symbol, which is the cost this check avoids.

#include "CImageCodecs.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int is_letter(uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/// Bits per pixel of a valid bit depth and colour type combination, else 0.
static unsigned bits_per_pixel(uint8_t depth, uint8_t color) {
    switch (color) {
    case 0: return (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16) ? depth : 0;
    case 2: return (depth == 8 || depth == 16) ? 3u * depth : 0;
    case 3: return (depth == 1 || depth == 2 || depth == 4 || depth == 8) ? depth : 0;
    case 4: return (depth == 8 || depth == 16) ? 2u * depth : 0;
    case 6: return (depth == 8 || depth == 16) ? 4u * depth : 0;
    default: return 0;
    }
}

/// The check itself, on a buffer it owns: the image data of consecutive IDAT chunks is moved together in place.
static int quick_check(uint8_t *data, size_t length, uint64_t max_pixels, size_t max_raw_bytes) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (length < 8 + 25 || memcmp(data, signature, 8) != 0) return 0;
    // libpng refuses chunks over its allocation limit (8,000,000 bytes unless the image data may need more):
    // no chunk of a file this size can be over it.
    if (length > 7000000) return 0;

    uint32_t width = 0, height = 0;
    uint8_t depth = 0, color = 0;
    size_t raw = 0, row_bytes = 0;
    int seen_palette = 0, in_image_data = 0;
    size_t compressed = 0; // image data moved to data[8...]
    size_t offset = 8;
    for (int index = 0;; index++) {
        if (length - offset < 12) return 0;
        uint32_t chunk_length = be32(data + offset);
        const uint8_t *type = data + offset + 4;
        if (chunk_length > 0x7fffffffu || chunk_length > length - offset - 12) return 0;
        if (!is_letter(type[0]) || !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3])) return 0;
        const uint8_t *body = data + offset + 8;
        uint32_t crc = (uint32_t)libdeflate_crc32(0, type, 4 + (size_t)chunk_length);
        if (crc != be32(body + chunk_length)) return 0;
        int is_idat = memcmp(type, "IDAT", 4) == 0;

        if (index == 0) {
            if (memcmp(type, "IHDR", 4) != 0 || chunk_length != 13) return 0;
            width = be32(body);
            height = be32(body + 4);
            depth = body[8];
            color = body[9];
            unsigned bits = bits_per_pixel(depth, color);
            // Compression and filter method 0; interlaced images are left to libpng.
            if (bits == 0 || body[10] != 0 || body[11] != 0 || body[12] != 0) return 0;
            if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) return 0;
            if ((uint64_t)width * height > max_pixels) return 0;
            uint64_t row = ((uint64_t)width * bits + 7) / 8 + 1;
            if (row > max_raw_bytes / height) return 0; // row * height could overflow with a large pixel budget
            row_bytes = (size_t)row;
            raw = row_bytes * height;
        } else if (in_image_data && !is_idat) {
            break; // the image data has ended; libpng reads no further when it checks every row
        } else if (is_idat) {
            if (color == 3 && !seen_palette) return 0;
            in_image_data = 1;
            memmove(data + 8 + compressed, body, chunk_length);
            compressed += chunk_length;
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (seen_palette || color == 0 || color == 4) return 0;
            if (chunk_length == 0 || chunk_length % 3 != 0 || chunk_length / 3 > 256) return 0;
            if (color == 3 && chunk_length / 3 > (1u << depth)) return 0;
            seen_palette = 1;
        } else if (!(type[0] & 0x20)) {
            return 0; // IHDR again, IEND before the image data, or a critical chunk libpng does not know
        } else if (chunk_length > 65536) {
            return 0; // libpng refuses ancillary chunks over its allocation limit; big ones are left to it
        }
        offset += 12 + (size_t)chunk_length; // a file that ends here, without IEND, is left to libpng
    }
    if (compressed == 0) return 0;
    // libpng inflates row by row through a window of the size the zlib header declares (CINFO), so a back-reference
    // further than that fails there; libdeflate, holding the whole output, never checks. An image no larger than
    // its window cannot reach that far.
    unsigned window_bits = (unsigned)(data[8] >> 4) + 8;
    if (window_bits < 15 && raw > ((size_t)1 << window_bits)) return 0;

    uint8_t *pixels = malloc(raw);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int accepted = 0;
    if (pixels && inflater) {
        size_t consumed = 0;
        // No actual output size: the stream must fill the buffer exactly, and end where the image data ends.
        enum libdeflate_result result =
            libdeflate_zlib_decompress_ex(inflater, data + 8, compressed, pixels, raw, &consumed, NULL);
        if (result == LIBDEFLATE_SUCCESS && consumed == compressed) {
            accepted = 1;
            for (size_t row = 0; row < raw; row += row_bytes) {
                if (pixels[row] > 4) {
                    accepted = 0;
                    break;
                }
            }
        }
    }
    if (inflater) libdeflate_free_decompressor(inflater);
    free(pixels);
    return accepted;
}

int rp_png_quick_check(const uint8_t *data, size_t length, uint64_t max_pixels, size_t max_raw_bytes) {
    if (!data || length == 0) return 0;
    uint8_t *copy = malloc(length);
    if (!copy) return 0;
    memcpy(copy, data, length);
    int accepted = quick_check(copy, length, max_pixels, max_raw_bytes);
    free(copy);
    return accepted;
}

int rp_png_quick_check_file(const char *path, size_t max_file_bytes, uint64_t max_pixels, size_t max_raw_bytes) {
    // As rp_codec_open_file: non-blocking, so a FIFO cannot hang the open; only a regular file is read.
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) : -1;
    if (fd < 0) return 0;
    struct stat info;
    uint8_t *data = NULL;
    int accepted = 0;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0 &&
        (uint64_t)info.st_size <= max_file_bytes && (data = malloc((size_t)info.st_size)) != NULL) {
        size_t length = (size_t)info.st_size, done = 0;
        while (done < length) {
            ssize_t got = read(fd, data + done, length - done);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            done += (size_t)got;
        }
        // A file that changed size while it was read is left to libpng.
        uint8_t extra;
        if (done == length && read(fd, &extra, 1) == 0) accepted = quick_check(data, length, max_pixels, max_raw_bytes);
    }
    free(data);
    close(fd);
    return accepted;
}
