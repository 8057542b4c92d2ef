#ifndef RICHPUSH_IMAGE_IO_H
#define RICHPUSH_IMAGE_IO_H

// PNG and JPEG for the compatibility UIKit (UIImage, UIGraphicsImageRenderer), over the system's libpng and
// libjpeg(-turbo), and the first frame of a GIF. The libraries' errors arrive by longjmp; every entry point below sets
// its own setjmp, so a jump only
// unwinds library frames and the entry point, never a Swift frame, and no library type reaches Swift.
//
// Pixels are RGBA, 8 bits a channel, alpha PREMULTIPLIED (as Core Graphics keeps them), rows top to bottom with
// no padding. A JPEG's Exif orientation is applied while decoding: the size rp_image_probe gives is the upright
// one, as UIImage's `size` is.
//
// Decode bombs: the header is read first and an image over `max_pixels` is refused before any pixel buffer
// exists; libpng's chunk allocations are capped, and a progressive JPEG may have at most RP_IMAGE_MAX_SCANS scans.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RP_IMAGE_PNG = 1,
    RP_IMAGE_JPEG = 2,
    /// Read only: the first frame, as `UIImage(data:)` shows a GIF (its own small LZW decoder, no giflib).
    RP_IMAGE_GIF = 3,
};

enum {
    RP_IMAGE_OK = 0,
    /// The data is neither PNG, JPEG nor GIF.
    RP_IMAGE_UNKNOWN_FORMAT = -1,
    /// The library refused the data (the message says why, in its words); rows decoded before stay in `out`.
    RP_IMAGE_CORRUPT = -2,
    /// Width times height is over the caller's `max_pixels`.
    RP_IMAGE_OVER_BUDGET = -3,
    /// An allocation failed, or the output buffer is not the size the header gives.
    RP_IMAGE_NO_MEMORY = -4,
    /// Bad arguments (an empty image to encode).
    RP_IMAGE_BAD_ARGUMENT = -5,
};

/// Scans a progressive JPEG may have: libjpeg decodes every scan over the whole image, so thousands of tiny scans
/// cost minutes of CPU for a few kilobytes of data.
#define RP_IMAGE_MAX_SCANS 1000

/// RP_IMAGE_PNG, RP_IMAGE_JPEG or RP_IMAGE_GIF from the first bytes, 0 for anything else.
int rp_image_sniff(const uint8_t *data, size_t length);

/// Reads the header only. `header` receives five numbers: the format, the upright width and height (after the Exif
/// orientation), the Exif orientation (1 to 8; 1 for PNG and JPEGs without one), and 1 when the file has no alpha
/// channel (JPEG, PNG without alpha or tRNS). Nothing the size of the image is allocated.
int rp_image_probe(const uint8_t *data, size_t length, uint64_t max_pixels, uint32_t header[5]);

/// Decodes into `out`, which must hold exactly width * height * 4 bytes of the upright size rp_image_probe gave (and
/// is zeroed by the caller: rows never reached stay transparent).
int rp_image_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *out, size_t out_length);

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
/// RP_IMAGE_OK, or RP_IMAGE_NO_MEMORY when a row buffer cannot be allocated (nothing is drawn).
int rp_image_draw(uint8_t *canvas, uint32_t canvas_width, uint32_t canvas_height, const uint8_t *source,
                  uint32_t source_width, uint32_t source_height, double x, double y, double width, double height,
                  double alpha, int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height, int opaque);

/// The functions above, in this order, for Swift. UIKit reaches C through this one function (declared in Swift with
/// `@_silgen_name`; it takes nothing and returns a pointer, which Swift's and C's conventions pass alike) and calls
/// the others through C function pointers, instead of importing this module: a Swift module that imports a C module
/// makes every client that imports it find that C module's module map too, and a team's extension is compiled with
/// the Swift modules only.
enum {
    RP_IMAGE_FUNCTION_PROBE = 0,
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
