#ifndef RP_COMPRESSION_H
#define RP_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

/// Apple's Compression (compression_encode_buffer, compression_stream_*) over the system's zlib and liblzma, for the
/// Swift module `Compression`. The Swift module does not import this one (a team's extension is compiled against
/// the Swift modules alone): it takes the functions from `rp_compression_functions()`, in this order, as
/// `@convention(c)` pointers.
///
/// 0 size_t encode_buffer(uint8_t *dst, size_t dst_size, const uint8_t *src, size_t src_size, uint32_t algorithm)
/// 1 size_t decode_buffer(uint8_t *dst, size_t dst_size, const uint8_t *src, size_t src_size, uint32_t algorithm)
/// 2 int32_t stream_init(rp_compression_stream *stream, uint32_t operation, uint32_t algorithm)
/// 3 int32_t stream_process(rp_compression_stream *stream, int32_t flags)
/// 4 int32_t stream_destroy(rp_compression_stream *stream)
const void *const *rp_compression_functions(void);

/// Apple's `compression_stream`, field for field (and the Swift module's struct of the same fields).
typedef struct {
    uint8_t *dst_ptr;
    size_t dst_size;
    const uint8_t *src_ptr;
    size_t src_size;
    void *state;
} rp_compression_stream;

#endif
