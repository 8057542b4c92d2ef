#include "CCompression.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Apple's values (compression.h): the algorithms, the stream operations and flags, the statuses.
enum { ALGORITHM_LZ4 = 0x100, ALGORITHM_ZLIB = 0x205, ALGORITHM_LZMA = 0x306 };
enum { OPERATION_ENCODE = 0, OPERATION_DECODE = 1 };
enum { FLAG_FINALIZE = 1 };
enum { STATUS_OK = 0, STATUS_ERROR = -1, STATUS_END = 1 };

// COMPRESSION_ZLIB is raw DEFLATE (RFC 1951: no zlib header or checksum) at zlib's level 5; COMPRESSION_LZMA is
// the xz container at preset 6, as Apple documents them.
enum { ZLIB_LEVEL = 5, ZLIB_RAW_WINDOW = -15, LZMA_PRESET = 6 };

typedef struct {
    uint32_t algorithm;
    int encode;
    int ended;
    z_stream zlib;
    lzma_stream lzma;
} stream_state;

static int start(stream_state *state) {
    if (state->algorithm == ALGORITHM_ZLIB) {
        memset(&state->zlib, 0, sizeof state->zlib);
        int status = state->encode
            ? deflateInit2(&state->zlib, ZLIB_LEVEL, Z_DEFLATED, ZLIB_RAW_WINDOW, 8, Z_DEFAULT_STRATEGY)
            : inflateInit2(&state->zlib, ZLIB_RAW_WINDOW);
        return status == Z_OK;
    }
    if (state->algorithm == ALGORITHM_LZMA) {
        lzma_stream blank = LZMA_STREAM_INIT;
        state->lzma = blank;
        lzma_ret status = state->encode ? lzma_easy_encoder(&state->lzma, LZMA_PRESET, LZMA_CHECK_CRC64)
                                        : lzma_stream_decoder(&state->lzma, UINT64_MAX, 0);
        return status == LZMA_OK;
    }
    // LZ4 (Apple's own block framing) and LZFSE have no library here: the call fails, as with an unknown algorithm.
    return 0;
}

static void finish(stream_state *state) {
    if (state->algorithm == ALGORITHM_ZLIB) {
        if (state->encode) deflateEnd(&state->zlib);
        else inflateEnd(&state->zlib);
    } else if (state->algorithm == ALGORITHM_LZMA) {
        lzma_end(&state->lzma);
    }
}

/// One step: consumes from src and fills dst, updating both; STATUS_END once the stream's end was written or read.
static int32_t step(stream_state *state, uint8_t **dst, size_t *dst_size, const uint8_t **src, size_t *src_size,
                    int finalize) {
    if (state->ended) return STATUS_END;
    if (state->algorithm == ALGORITHM_ZLIB) {
        z_stream *z = &state->zlib;
        // zlib counts in unsigned int: larger buffers are handed over in parts, over several calls.
        uInt in = *src_size > UINT32_MAX ? UINT32_MAX : (uInt)*src_size;
        uInt out = *dst_size > UINT32_MAX ? UINT32_MAX : (uInt)*dst_size;
        z->next_in = (Bytef *)*src;
        z->avail_in = in;
        z->next_out = *dst;
        z->avail_out = out;
        int status = state->encode ? deflate(z, finalize && in == *src_size ? Z_FINISH : Z_NO_FLUSH)
                                   : inflate(z, Z_NO_FLUSH);
        *src += in - z->avail_in;
        *src_size -= in - z->avail_in;
        *dst += out - z->avail_out;
        *dst_size -= out - z->avail_out;
        if (status == Z_STREAM_END) {
            state->ended = 1;
            return STATUS_END;
        }
        return status == Z_OK || status == Z_BUF_ERROR ? STATUS_OK : STATUS_ERROR;
    }
    lzma_stream *x = &state->lzma;
    x->next_in = *src;
    x->avail_in = *src_size;
    x->next_out = *dst;
    x->avail_out = *dst_size;
    lzma_ret status = lzma_code(x, state->encode && finalize ? LZMA_FINISH : LZMA_RUN);
    *src += *src_size - x->avail_in;
    *src_size = x->avail_in;
    *dst += *dst_size - x->avail_out;
    *dst_size = x->avail_out;
    if (status == LZMA_STREAM_END) {
        state->ended = 1;
        return STATUS_END;
    }
    return status == LZMA_OK || status == LZMA_BUF_ERROR ? STATUS_OK : STATUS_ERROR;
}

static size_t one_shot(int encode, uint8_t *dst, size_t dst_size, const uint8_t *src, size_t src_size,
                       uint32_t algorithm) {
    stream_state state = {.algorithm = algorithm, .encode = encode};
    if (dst_size == 0 || !start(&state)) return 0;
    uint8_t *out = dst;
    size_t room = dst_size;
    int32_t status = STATUS_OK;
    // Until the end, an error, or a step that moves nothing (the output is full, or the input ended early).
    for (;;) {
        size_t before_in = src_size, before_out = room;
        status = step(&state, &out, &room, &src, &src_size, 1);
        if (status != STATUS_OK || (before_in == src_size && before_out == room)) break;
    }
    finish(&state);
    if (status == STATUS_END) return dst_size - room;
    // Apple's decoder fills the buffer it was given and returns its size when the output does not fit; an encoder
    // whose output does not fit returns 0.
    if (!encode && status == STATUS_OK && room == 0) return dst_size;
    return 0;
}

static size_t encode_buffer(uint8_t *dst, size_t dst_size, const uint8_t *src, size_t src_size, uint32_t algorithm) {
    return one_shot(1, dst, dst_size, src, src_size, algorithm);
}

static size_t decode_buffer(uint8_t *dst, size_t dst_size, const uint8_t *src, size_t src_size, uint32_t algorithm) {
    return one_shot(0, dst, dst_size, src, src_size, algorithm);
}

static int32_t stream_init(rp_compression_stream *stream, uint32_t operation, uint32_t algorithm) {
    if (operation != OPERATION_ENCODE && operation != OPERATION_DECODE) return STATUS_ERROR;
    stream_state *state = calloc(1, sizeof *state);
    if (state == NULL) return STATUS_ERROR;
    state->algorithm = algorithm;
    state->encode = operation == OPERATION_ENCODE;
    if (!start(state)) {
        free(state);
        stream->state = NULL;
        return STATUS_ERROR;
    }
    stream->state = state;
    return STATUS_OK;
}

static int32_t stream_process(rp_compression_stream *stream, int32_t flags) {
    stream_state *state = stream->state;
    if (state == NULL) return STATUS_ERROR;
    int finalize = (flags & FLAG_FINALIZE) != 0;
    int32_t status = STATUS_OK;
    // As far as the buffers go: until the end, an error, or no more room or input.
    for (;;) {
        size_t before_in = stream->src_size, before_out = stream->dst_size;
        status = step(state, &stream->dst_ptr, &stream->dst_size, &stream->src_ptr, &stream->src_size, finalize);
        if (status != STATUS_OK || stream->dst_size == 0) break;
        if (before_in == stream->src_size && before_out == stream->dst_size) break;
    }
    return status;
}

static int32_t stream_destroy(rp_compression_stream *stream) {
    stream_state *state = stream->state;
    if (state == NULL) return STATUS_ERROR;
    finish(state);
    free(state);
    stream->state = NULL;
    return STATUS_OK;
}

const void *const *rp_compression_functions(void) {
    static const void *const functions[] = {
        (const void *)encode_buffer, (const void *)decode_buffer, (const void *)stream_init,
        (const void *)stream_process, (const void *)stream_destroy,
    };
    return functions;
}
