#ifndef RICHPUSH_CIMAGECODECS_H
#define RICHPUSH_CIMAGECODECS_H

// What a valid PNG, JPEG or GIF is, for richpush's ImageDecoder and the compatibility package's UIImage alike (the
// last section: UIImage's view of the pixels, encoding and drawing).
//
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
    /// The data is neither PNG, JPEG nor GIF (by its first bytes).
    RP_CODEC_UNSUPPORTED = -6,
    /// Bad arguments (an empty image to encode, an output buffer not the image's size).
    RP_CODEC_BAD_ARGUMENT = -7,
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

// MARK: - For the compatibility package's UIKit (UIImage, UIGraphicsImageRenderer)
//
// Pixels here are RGBA, 8 bits a channel, alpha PREMULTIPLIED (as Core Graphics keeps them), rows top to bottom with
// no padding; sizes are upright (a JPEG's Exif orientation applied), as UIImage's `size` is.

/// The verdict richpush's ImageDecoder.check gives `data` (the format from its first bytes, the quick PNG check,
/// else every frame read and checked, within the budgets of rp_codec_open), without keeping a pixel: RP_CODEC_OK or
/// why not. `header` receives five numbers, as far as the header was read: the format, the upright width and height,
/// the Exif orientation (1 to 8) and rp_codec_opaque.
int rp_image_check(const uint8_t *data, size_t length, uint64_t max_frame_pixels, uint64_t max_total_pixels,
                   uint32_t header[5]);

/// The first frame of `data` (as UIImage(data:) shows a GIF), premultiplied and upright, into `out`, which must hold
/// exactly the upright width * height * 4 bytes rp_image_check gave and be zeroed by the caller: rows never reached
/// stay transparent.
int rp_image_decode(const uint8_t *data, size_t length, uint64_t max_frame_pixels, uint8_t *out, size_t out_length);

/// PNG of `width * height` premultiplied RGBA pixels; `with_alpha` 0 writes RGB (the image is opaque). `*bytes`
/// receives a malloc'ed buffer of `*length` bytes (free it with rp_image_free).
int rp_image_encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, int with_alpha, uint8_t **bytes,
                        size_t *length);

/// JPEG (baseline, 4:2:0) of premultiplied RGBA pixels at libjpeg `quality` 1...100; alpha is dropped as Core
/// Graphics drops it: the premultiplied colour, so transparent areas come out black.
int rp_image_encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, uint8_t **bytes,
                         size_t *length);

/// Frees what an encoder returned (NULL is fine).
void rp_image_free(void *bytes);

/// Draws `source` (`source_width` x `source_height` premultiplied RGBA) scaled to fill the rectangle `x, y, width,
/// height` of `canvas` (pixel coordinates; fractional edges round to the nearest pixel; it may reach outside the
/// canvas), source-over with `alpha` 0...1, changing only pixels inside the clip rectangle. Shrinking averages the
/// source pixels under each destination pixel, weighted by how much of each lies under it (an area average),
/// enlarging is bilinear; both separable. With `opaque` the canvas keeps alpha 255 (an opaque context). Returns
/// RP_CODEC_OK, or RP_CODEC_NO_MEMORY when a row buffer cannot be allocated (nothing is drawn).
int rp_image_draw(uint8_t *canvas, uint32_t canvas_width, uint32_t canvas_height, const uint8_t *source,
                  uint32_t source_width, uint32_t source_height, double x, double y, double width, double height,
                  double alpha, int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height, int opaque);

/// The functions above, in this order, for Swift. UIKit reaches C through this one function (declared in Swift with
/// `@_silgen_name`; it takes nothing and returns a pointer, which Swift's and C's conventions pass alike) and calls
/// the others through C function pointers, instead of importing this module: a Swift module that imports a C module
/// makes every client that imports it find that C module's module map too, and a team's extension is compiled with
/// the Swift modules only.
enum {
    RP_IMAGE_FUNCTION_CHECK = 0,
    RP_IMAGE_FUNCTION_DECODE = 1,
    RP_IMAGE_FUNCTION_ENCODE_PNG = 2,
    RP_IMAGE_FUNCTION_ENCODE_JPEG = 3,
    RP_IMAGE_FUNCTION_FREE = 4,
    RP_IMAGE_FUNCTION_DRAW = 5,
    RP_IMAGE_FUNCTION_COUNT = 6,
};
/// Any of the functions above; cast back to its own type before calling.
typedef void (*rp_image_function)(void);
const rp_image_function *rp_image_io_functions(void);

#ifdef __cplusplus
}
#endif

#endif
