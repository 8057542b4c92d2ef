#ifndef RICHPUSH_CIMAGECODECS_H
#define RICHPUSH_CIMAGECODECS_H

// A small C surface over libpng, libjpeg(-turbo) and giflib. Their error handling (setjmp/longjmp for
// libpng and libjpeg) stays inside shim.c: no library call ever unwinds through a Swift frame, and none of
// the libraries' types reach Swift.
//
// Use: rp_codec_open reads the header only (size known, nothing big allocated); the caller checks its
// pixel budget, then calls rp_codec_next_frame once per frame until it returns RP_CODEC_END, and finally
// rp_codec_close. Every allocation the decoder makes is owned by the rp_codec and freed by rp_codec_close,
// whatever happened. `data` must stay valid and unchanged until rp_codec_close.
//
// rp_codec_open_file reads a file instead, in bounded chunks as the codec asks for them: the whole file is never
// in memory. Passing `out == NULL` to rp_codec_next_frame checks only: every byte of image data is read and
// checked as when decoding (PNG rows stay in the file's own layout, JPEG decodes at 1/8 scale, GIF frames are not
// composited), so the verdict is the same, for less work.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RP_CODEC_PNG = 0,
    RP_CODEC_JPEG = 1,
    RP_CODEC_GIF = 2,
};

/// Results of rp_codec_open (via rp_codec_status) and rp_codec_next_frame.
enum {
    /// A frame was produced (or the header was read).
    RP_CODEC_OK = 0,
    /// There are no more frames.
    RP_CODEC_END = 1,
    /// The data ends before the image does.
    RP_CODEC_ENDS_EARLY = -1,
    /// The library refused the data; rp_codec_message says why, in the library's words.
    RP_CODEC_CORRUPT = -2,
    /// A frame or the frames together are over the pixel budget given to rp_codec_open.
    RP_CODEC_OVER_BUDGET = -3,
    /// An allocation failed.
    RP_CODEC_NO_MEMORY = -4,
    /// rp_codec_open_file: the file could not be opened (or is not a regular file), or reading it failed.
    RP_CODEC_UNREADABLE = -5,
};

/// Scans a progressive JPEG may have: libjpeg decodes every scan over the whole image, so thousands of tiny scans
/// cost minutes of CPU for a few kilobytes of data. More is RP_CODEC_CORRUPT.
#define RP_CODEC_MAX_SCANS 1000

/// RP_CODEC_PNG, RP_CODEC_JPEG or RP_CODEC_GIF from the first bytes (the PNG signature's first four, FF D8 FF,
/// "GIF8"), -1 for anything else. A header cut short after them is the codec's to refuse.
int rp_codec_format(const uint8_t *data, size_t length);

typedef struct rp_codec rp_codec;

/// Reads the header of `data` in `format`. Returns NULL only when the decoder itself cannot be allocated;
/// otherwise check rp_codec_status. `max_frame_pixels` bounds one frame (for GIF: the canvas and every frame
/// rectangle), `max_total_pixels` the canvas pixels summed over all frames; both are checked from headers,
/// before the pixels they describe are allocated.
rp_codec *rp_codec_open(int format, const uint8_t *data, size_t length, uint64_t max_frame_pixels,
                        uint64_t max_total_pixels);

/// As rp_codec_open, reading the regular file at `path` (closed by rp_codec_close) in chunks of 64 KB. A file
/// that cannot be opened or read gives RP_CODEC_UNREADABLE; data that stops early is RP_CODEC_ENDS_EARLY, as
/// in memory.
rp_codec *rp_codec_open_file(int format, const char *path, uint64_t max_frame_pixels, uint64_t max_total_pixels);

/// RP_CODEC_OK after a successful open, else the error that ended decoding.
int rp_codec_status(const rp_codec *codec);

/// The library's words for a RP_CODEC_CORRUPT error (plain ASCII, may be empty).
const char *rp_codec_message(const rp_codec *codec);

/// Image (GIF: canvas) size from the header.
uint32_t rp_codec_width(const rp_codec *codec);
uint32_t rp_codec_height(const rp_codec *codec);

/// For RP_CODEC_OVER_BUDGET: the size of the frame that was over, and the canvas pixels of all frames
/// counted so far (including the one that went over).
uint32_t rp_codec_frame_width(const rp_codec *codec);
uint32_t rp_codec_frame_height(const rp_codec *codec);
uint64_t rp_codec_total_pixels(const rp_codec *codec);

/// 1 when the image has no alpha channel and no transparent colour (PNG, from the header; JPEG, always; GIF, once
/// the first frame has been read: no transparent index and the frame covers the canvas).
int rp_codec_opaque(const rp_codec *codec);

/// A JPEG's Exif orientation (1 to 8, from the first APP1 segment that gives one other than 1), read with the
/// header; 1 for PNG, GIF and JPEGs without one. The decoder's frames are the stored pixels, not turned.
int rp_codec_orientation(const rp_codec *codec);

/// Decodes the next frame into `out`: `out_width * out_height` RGBA pixels (rows top to bottom), scaled down
/// from the full image by averaging boxes of pixels when the size is smaller. Pass `out == NULL` to decode
/// and discard (checking the data with the least memory: no full-size buffer for PNG and JPEG). For GIF the
/// frame is composited onto the canvas (disposal methods and transparency honoured). `delay_ms` receives the
/// frame's delay (0 for still images; GIF delays under 20 ms become 100 ms, as browsers and iOS play them).
int rp_codec_next_frame(rp_codec *codec, uint8_t *out, uint32_t out_width, uint32_t out_height,
                        uint32_t *delay_ms);

/// Frees everything the decoder allocated. NULL is allowed.
void rp_codec_close(rp_codec *codec);

/// A quick yes for a PNG libpng would accept when checking every row, ten times faster for small images
/// (libdeflate instead of zlib). Returns 1 when `data` is a PNG libpng accepts, 0 when undecided: then ask libpng
/// (rp_codec_open). Known gap: deflate streams zlib refuses but libdeflate decodes (reserved symbols, over-long
/// or incomplete code tables; written by no encoder) get a 1 (see png_quick_check.c). Only non-interlaced images of at most `max_pixels` pixels and `max_raw_bytes` bytes of image
/// data (rows with their filter bytes) are decided; everything unusual is left undecided. `data` is not changed.
int rp_png_quick_check(const uint8_t *data, size_t length, uint64_t max_pixels, size_t max_raw_bytes);

/// rp_png_quick_check on the regular file at `path`, read whole when it has at most `max_file_bytes` bytes
/// (undecided otherwise, and when it cannot be read).
int rp_png_quick_check_file(const char *path, size_t max_file_bytes, uint64_t max_pixels, size_t max_raw_bytes);

/// Files up to this size get the quick PNG check before libpng, which holds the file and the image's rows in memory
/// at once; larger ones go straight to libpng, which streams them.
#define RP_PNG_QUICK_CHECK_FILE_BYTES 4194304 // 4 MB
/// Images with at most this many bytes of rows get the quick check.
#define RP_PNG_QUICK_CHECK_RAW_BYTES 8388608 // 8 MB

#ifdef __cplusplus
}
#endif

#endif
