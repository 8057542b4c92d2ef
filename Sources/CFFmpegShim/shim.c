#include "CFFmpegShim.h"

// The CFFmpeg system-library header includes libavformat, libavcodec, libavutil and libswscale.
#include "../CFFmpeg/shim.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// FFmpeg 5.1 (Debian 12). Demuxing (av_probe_input_buffer2, avformat_open_input, avformat_find_stream_info,
// av_read_frame, av_seek_frame): https://ffmpeg.org/doxygen/5.1/group__lavf__decoding.html; decoding and encoding
// with the send/receive API (avcodec_send_packet, avcodec_receive_frame, avcodec_send_frame,
// avcodec_receive_packet): https://ffmpeg.org/doxygen/5.1/group__lavc__encdec.html; libswscale's sws_scale:
// https://ffmpeg.org/doxygen/5.1/group__libsws.html.

/// The demuxers a probe may use: the containers iOS attaches (MPEG-4 and QuickTime, WAV, MP3, AIFF, MPEG program
/// and elementary streams, AVI) and the common ones it does not, so that a refusal can name them. None of them
/// opens another file or URL (HLS, concat, image sequences and the like are left out).
static const char *const rp_formats =
    "mov,mp4,m4a,3gp,3g2,mj2,wav,w64,mp3,aiff,mpeg,mpegvideo,m4v,avi,matroska,webm,ogg,flac,aac,asf,flv,mpegts,caf,amr";

/// The bytes libavformat reads to recognise a container and to find its streams' parameters.
#define RP_PROBE_BYTES (1 << 20)
#define RP_ANALYZE_BYTES (5 << 20)
/// Packets read, and frames decoded, while looking for the poster frame.
#define RP_MAX_PACKETS 100000

static pthread_once_t rp_quiet_once = PTHREAD_ONCE_INIT;

static void rp_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

static double rp_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void rp_say(char *error, size_t size, const char *format, ...) {
    if (error == NULL || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, size, format, arguments);
    va_end(arguments);
}

static const char *rp_reason(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "error %d", code);
    return buffer;
}

/// A regular file read through its descriptor, until a deadline.
typedef struct rp_source {
    int fd;
    int64_t size;
    double deadline;
    int timed_out;
} rp_source;

static int rp_read(void *opaque, uint8_t *buffer, int size) {
    rp_source *source = opaque;
    if (rp_now() > source->deadline) {
        source->timed_out = 1;
        return AVERROR_EXIT;
    }
    ssize_t count;
    do {
        count = read(source->fd, buffer, (size_t)size);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return AVERROR(errno);
    if (count == 0) return AVERROR_EOF;
    return (int)count;
}

static int64_t rp_seek(void *opaque, int64_t offset, int whence) {
    rp_source *source = opaque;
    if (whence & AVSEEK_SIZE) return source->size;
    whence &= ~AVSEEK_FORCE;
    off_t position = lseek(source->fd, (off_t)offset, whence);
    return position < 0 ? AVERROR(errno) : (int64_t)position;
}

static int rp_interrupted(void *opaque) {
    rp_source *source = opaque;
    if (rp_now() > source->deadline) source->timed_out = 1;
    return source->timed_out;
}

/// A container that names another file or URL gets nothing: the attachment is one file.
static int rp_refuse_io_open(struct AVFormatContext *context, AVIOContext **pb, const char *url, int flags,
                             AVDictionary **options) {
    (void)context;
    (void)pb;
    (void)url;
    (void)flags;
    (void)options;
    return AVERROR(EPERM);
}

typedef struct rp_input {
    rp_source source;
    AVIOContext *io;
    AVFormatContext *context;
} rp_input;

static void rp_close(rp_input *input) {
    if (input->context != NULL) avformat_close_input(&input->context);
    if (input->io != NULL) {
        av_freep(&input->io->buffer);
        avio_context_free(&input->io);
    }
    if (input->source.fd >= 0) close(input->source.fd);
    input->source.fd = -1;
}

static int rp_timed_out(rp_input *input, double seconds, char *error, size_t size) {
    if (!input->source.timed_out) return 0;
    rp_say(error, size, "reading it took longer than %.1f s", seconds);
    return 1;
}

/// Opens the regular file at `path` and its container, and finds its streams. 0, or -1 with `error` said.
static int rp_open(rp_input *input, const char *path, double seconds, char *error, size_t size) {
    char reason[128];
    memset(input, 0, sizeof *input);
    input->source.fd = -1;
    pthread_once(&rp_quiet_once, rp_quiet);
    // O_NONBLOCK: a FIFO put in the file's place is not waited on; it is refused below.
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        rp_say(error, size, "cannot be opened (%s)", strerror(errno));
        return -1;
    }
    input->source.fd = fd;
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        rp_say(error, size, "not a regular file");
        rp_close(input);
        return -1;
    }
    if (status.st_size == 0) {
        rp_say(error, size, "an empty file");
        rp_close(input);
        return -1;
    }
    input->source.size = (int64_t)status.st_size;
    input->source.deadline = rp_now() + seconds;
    unsigned char *buffer = av_malloc(64 * 1024);
    if (buffer != NULL) input->io = avio_alloc_context(buffer, 64 * 1024, 0, &input->source, rp_read, NULL, rp_seek);
    if (input->io == NULL) {
        av_free(buffer);
        rp_say(error, size, "out of memory");
        rp_close(input);
        return -1;
    }
    const AVInputFormat *format = NULL;
    int score = av_probe_input_buffer2(input->io, &format, "", NULL, 0, RP_PROBE_BYTES);
    if (rp_timed_out(input, seconds, error, size)) {
        rp_close(input);
        return -1;
    }
    if (score < 0 || format == NULL) {
        rp_say(error, size, "not an audio or video file (no container libavformat recognises)");
        rp_close(input);
        return -1;
    }
    if (av_match_list(format->name, rp_formats, ',') <= 0) {
        rp_say(error, size, "not an audio or video file (libavformat reads it as %s)",
               format->long_name != NULL ? format->long_name : format->name);
        rp_close(input);
        return -1;
    }
    AVFormatContext *context = avformat_alloc_context();
    if (context == NULL) {
        rp_say(error, size, "out of memory");
        rp_close(input);
        return -1;
    }
    context->pb = input->io;
    context->flags |= AVFMT_FLAG_CUSTOM_IO;
    context->interrupt_callback.callback = rp_interrupted;
    context->interrupt_callback.opaque = &input->source;
    context->io_open = rp_refuse_io_open;
    context->format_whitelist = av_strdup(rp_formats);
    context->protocol_whitelist = av_strdup("none");
    context->probesize = RP_ANALYZE_BYTES;
    context->max_analyze_duration = 5 * (int64_t)AV_TIME_BASE;
    context->max_streams = 64;
    // On failure avformat_open_input frees the context.
    int result = avformat_open_input(&context, NULL, format, NULL);
    if (result < 0) {
        if (!rp_timed_out(input, seconds, error, size)) {
            rp_say(error, size, "a %s file libavformat cannot open (%s)",
                   format->long_name != NULL ? format->long_name : format->name,
                   rp_reason(result, reason, sizeof reason));
        }
        rp_close(input);
        return -1;
    }
    input->context = context;
    result = avformat_find_stream_info(context, NULL);
    if (result < 0) {
        if (!rp_timed_out(input, seconds, error, size)) {
            rp_say(error, size, "a %s file whose streams libavformat cannot read (%s)", context->iformat->long_name,
                   rp_reason(result, reason, sizeof reason));
        }
        rp_close(input);
        return -1;
    }
    return 0;
}

static int rp_is_media(const AVStream *stream) {
    enum AVMediaType type = stream->codecpar->codec_type;
    if (type == AVMEDIA_TYPE_AUDIO) return 1;
    return type == AVMEDIA_TYPE_VIDEO && !(stream->disposition & AV_DISPOSITION_ATTACHED_PIC);
}

/// The furthest byte a stream's index points to (its last sample's end), 0 without an index.
static int64_t rp_index_end(AVStream *stream) {
    int64_t end = 0;
    int count = avformat_index_get_entries_count(stream);
    for (int index = 0; index < count; index++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, index);
        if (entry != NULL && entry->pos + entry->size > end) end = entry->pos + entry->size;
    }
    return end;
}

int rp_media_probe(const char *path, double seconds, rp_media_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    info->duration = -1;
    rp_input input;
    if (rp_open(&input, path, seconds, error, error_size) != 0) return -1;
    AVFormatContext *context = input.context;
    info->bytes = input.source.size;
    snprintf(info->format, sizeof info->format, "%s", context->iformat->name);
    snprintf(info->format_long, sizeof info->format_long, "%s",
             context->iformat->long_name != NULL ? context->iformat->long_name : context->iformat->name);
    const AVDictionaryEntry *brand = av_dict_get(context->metadata, "major_brand", NULL, 0);
    if (brand != NULL) snprintf(info->brand, sizeof info->brand, "%s", brand->value);
    double longest = -1;
    int64_t index_end = 0;
    for (unsigned int index = 0; index < context->nb_streams; index++) {
        AVStream *stream = context->streams[index];
        if (!rp_is_media(stream)) continue;
        int video = stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO;
        if (info->stream_count < RP_MEDIA_MAX_STREAMS) {
            snprintf(info->codecs[info->stream_count], sizeof info->codecs[0], "%s",
                     avcodec_get_name(stream->codecpar->codec_id));
            info->kinds[info->stream_count] = video ? RP_MEDIA_VIDEO : RP_MEDIA_AUDIO;
        }
        info->stream_count++;
        if (video && info->width == 0) {
            info->width = stream->codecpar->width;
            info->height = stream->codecpar->height;
        }
        if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) {
            double duration = (double)stream->duration * av_q2d(stream->time_base);
            if (duration > longest) longest = duration;
        }
        int64_t end = rp_index_end(stream);
        if (end > index_end) index_end = end;
    }
    if (context->duration != AV_NOPTS_VALUE && context->duration > 0) {
        info->duration = (double)context->duration / AV_TIME_BASE;
    } else {
        info->duration = longest;
    }
    int result = 0;
    if (info->stream_count == 0) {
        rp_say(error, error_size, "a %s file with no audio or video stream", info->format_long);
        result = -1;
    } else if (index_end > input.source.size) {
        rp_say(error, error_size, "truncated: its %s index runs to byte %lld, but the file has %lld bytes",
               info->format_long, (long long)index_end, (long long)input.source.size);
        result = -1;
    }
    rp_close(&input);
    return result;
}

/// Writes `bytes` to a new file at `path`. 0, or -1 with `error` said.
static int rp_write_new(const char *path, const uint8_t *bytes, int length, char *error, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        rp_say(error, size, "cannot create %s (%s)", path, strerror(errno));
        return -1;
    }
    int written = 0;
    while (written < length) {
        ssize_t count = write(fd, bytes + written, (size_t)(length - written));
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            rp_say(error, size, "cannot write %s (%s)", path, strerror(errno));
            close(fd);
            unlink(path);
            return -1;
        }
        written += (int)count;
    }
    if (close(fd) != 0) {
        rp_say(error, size, "cannot write %s (%s)", path, strerror(errno));
        unlink(path);
        return -1;
    }
    return 0;
}

/// `frame` as an RGB PNG at `path`, with libswscale and libavcodec's PNG encoder. 0, or -1 with `error` said.
static int rp_write_png(const AVFrame *frame, const char *path, char *error, size_t size) {
    char reason[128];
    int result = -1;
    struct SwsContext *scaler = NULL;
    AVFrame *rgb = av_frame_alloc();
    AVCodecContext *encoder = NULL;
    AVPacket *packet = av_packet_alloc();
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
    if (rgb == NULL || packet == NULL) {
        rp_say(error, size, "out of memory");
        goto done;
    }
    if (codec == NULL) {
        rp_say(error, size, "libavcodec has no PNG encoder");
        goto done;
    }
    scaler = sws_getContext(frame->width, frame->height, (enum AVPixelFormat)frame->format, frame->width,
                            frame->height, AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL, NULL);
    if (scaler == NULL) {
        rp_say(error, size, "libswscale cannot convert %s frames to RGB",
               av_get_pix_fmt_name((enum AVPixelFormat)frame->format));
        goto done;
    }
    rgb->width = frame->width;
    rgb->height = frame->height;
    rgb->format = AV_PIX_FMT_RGB24;
    int code = av_frame_get_buffer(rgb, 0);
    if (code < 0) {
        rp_say(error, size, "out of memory for a %dx%d frame", frame->width, frame->height);
        goto done;
    }
    sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, rgb->data,
              rgb->linesize);
    encoder = avcodec_alloc_context3(codec);
    if (encoder == NULL) {
        rp_say(error, size, "out of memory");
        goto done;
    }
    encoder->width = frame->width;
    encoder->height = frame->height;
    encoder->pix_fmt = AV_PIX_FMT_RGB24;
    encoder->time_base = (AVRational){1, 25};
    code = avcodec_open2(encoder, codec, NULL);
    if (code >= 0) code = avcodec_send_frame(encoder, rgb);
    if (code >= 0) code = avcodec_send_frame(encoder, NULL);
    if (code >= 0) code = avcodec_receive_packet(encoder, packet);
    if (code < 0) {
        rp_say(error, size, "the PNG encoder failed (%s)", rp_reason(code, reason, sizeof reason));
        goto done;
    }
    result = rp_write_new(path, packet->data, packet->size, error, size);
done:
    av_packet_free(&packet);
    avcodec_free_context(&encoder);
    av_frame_free(&rgb);
    sws_freeContext(scaler);
    return result;
}

int rp_media_poster(const char *path, double at, double seconds, uint64_t max_pixels, const char *png_path,
                    int *width, int *height, double *time, char *error, size_t error_size) {
    char reason[128];
    rp_input input;
    if (rp_open(&input, path, seconds, error, error_size) != 0) return -1;
    AVFormatContext *context = input.context;
    int result = -1;
    AVCodecContext *decoder = NULL;
    AVFrame *frame = av_frame_alloc();
    AVFrame *kept = av_frame_alloc();
    AVPacket *packet = av_packet_alloc();
    if (frame == NULL || kept == NULL || packet == NULL) {
        rp_say(error, error_size, "out of memory");
        goto done;
    }
    const AVCodec *codec = NULL;
    int index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (index == AVERROR_DECODER_NOT_FOUND) {
        rp_say(error, error_size, "libavcodec has no decoder for its video");
        goto done;
    }
    if (index < 0) {
        rp_say(error, error_size, "no video stream");
        goto done;
    }
    AVStream *stream = context->streams[index];
    uint64_t pixels = (uint64_t)stream->codecpar->width * (uint64_t)stream->codecpar->height;
    if (stream->codecpar->width <= 0 || stream->codecpar->height <= 0 || pixels > max_pixels) {
        rp_say(error, error_size, "a %dx%d video is not decoded (at most %llu pixels)", stream->codecpar->width,
               stream->codecpar->height, (unsigned long long)max_pixels);
        goto done;
    }
    decoder = avcodec_alloc_context3(codec);
    if (decoder == NULL) {
        rp_say(error, error_size, "out of memory");
        goto done;
    }
    int code = avcodec_parameters_to_context(decoder, stream->codecpar);
    decoder->thread_count = 1;
    decoder->max_pixels = (int64_t)max_pixels;
    if (code >= 0) code = avcodec_open2(decoder, codec, NULL);
    if (code < 0) {
        rp_say(error, error_size, "its %s video cannot be decoded (%s)", avcodec_get_name(stream->codecpar->codec_id),
               rp_reason(code, reason, sizeof reason));
        goto done;
    }
    double base = av_q2d(stream->time_base);
    int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    if (at > 0 && base > 0) {
        // The key frame at or before the time; decoding goes on from there to the frame itself.
        int64_t target = start + (int64_t)(at / base);
        if (av_seek_frame(context, index, target, AVSEEK_FLAG_BACKWARD) >= 0) avcodec_flush_buffers(decoder);
    }
    int have = 0, ended = 0, finished = 0;
    double kept_time = 0;
    for (int packets = 0; !finished && packets < RP_MAX_PACKETS; packets++) {
        if (rp_now() > input.source.deadline) input.source.timed_out = 1;
        if (rp_timed_out(&input, seconds, error, error_size)) goto done;
        if (!ended) {
            code = av_read_frame(context, packet);
            if (code < 0) {
                ended = 1;
                avcodec_send_packet(decoder, NULL);
            } else {
                int ours = packet->stream_index == index;
                // A packet the decoder refuses (corrupt data) is skipped, as a player skips it.
                if (ours) avcodec_send_packet(decoder, packet);
                av_packet_unref(packet);
                if (!ours) continue;
            }
        }
        for (;;) {
            code = avcodec_receive_frame(decoder, frame);
            if (code == AVERROR(EAGAIN)) break;
            if (code < 0) {
                // The end of the stream, or a decoder that gives up: what was decoded so far stands.
                finished = 1;
                break;
            }
            int64_t stamp = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
            double when = stamp == AV_NOPTS_VALUE ? 0 : (double)(stamp - start) * base;
            if (have && when > at + 1e-6) {
                av_frame_unref(frame);
                finished = 1;
                break;
            }
            av_frame_unref(kept);
            av_frame_move_ref(kept, frame);
            have = 1;
            kept_time = when < 0 ? 0 : when;
            if (when >= at - 1e-6) {
                finished = 1;
                break;
            }
        }
    }
    if (rp_timed_out(&input, seconds, error, error_size)) goto done;
    if (!have) {
        rp_say(error, error_size, "no frame of its %s video could be decoded",
               avcodec_get_name(stream->codecpar->codec_id));
        goto done;
    }
    if ((uint64_t)kept->width * (uint64_t)kept->height > max_pixels || kept->width <= 0 || kept->height <= 0) {
        rp_say(error, error_size, "a %dx%d frame is not kept (at most %llu pixels)", kept->width, kept->height,
               (unsigned long long)max_pixels);
        goto done;
    }
    if (rp_write_png(kept, png_path, error, error_size) != 0) goto done;
    *width = kept->width;
    *height = kept->height;
    *time = kept_time;
    result = 0;
done:
    av_packet_free(&packet);
    av_frame_free(&frame);
    av_frame_free(&kept);
    avcodec_free_context(&decoder);
    rp_close(&input);
    return result;
}
