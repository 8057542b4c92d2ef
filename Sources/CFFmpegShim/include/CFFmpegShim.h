#ifndef RICHPUSH_CFFMPEG_SHIM_H
#define RICHPUSH_CFFMPEG_SHIM_H

// The part of FFmpeg richpush uses to read an audio or video attachment, over plain C types: libavformat opens the
// container (from a file descriptor of a regular file, never a URL or a protocol), libavcodec decodes one video
// frame, libswscale converts it to RGB and libavcodec's PNG encoder writes it. Every call is bounded by a
// deadline (checked on each read and by libavformat's interrupt callback), by the bytes it probes and by the
// pixels it decodes, so a hostile file costs little and never crashes the host.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most audio and video streams a probe describes (more are counted, not named).
#define RP_MEDIA_MAX_STREAMS 8

enum {
    RP_MEDIA_VIDEO = 0,
    RP_MEDIA_AUDIO = 1,
};

/// What a probe found.
typedef struct rp_media_info {
    /// libavformat's demuxer name ("mov,mp4,m4a,3gp,3g2,mj2", "wav", "matroska,webm").
    char format[64];
    /// Its long name ("QuickTime / MOV").
    char format_long[128];
    /// The ISO base media file's major brand ("isom", "M4A "), empty for other containers.
    char brand[8];
    /// Audio and video streams (a cover picture attached to audio is not one); at most RP_MEDIA_MAX_STREAMS
    /// are described in `codecs` and `kinds`.
    int stream_count;
    char codecs[RP_MEDIA_MAX_STREAMS][32];
    int kinds[RP_MEDIA_MAX_STREAMS];
    /// Seconds; negative when the container does not say.
    double duration;
    /// The first video stream's size; 0 without video.
    int width;
    int height;
    /// The file's size in bytes.
    int64_t bytes;
} rp_media_info;

/// Probes the regular file at `path` within `seconds`: its container, streams, duration and video size. Returns 0,
/// or -1 with a sentence in `error` ("not an audio or video file (no container libavformat reads)", "truncated: ...").
int rp_media_probe(const char *path, double seconds, rp_media_info *info, char *error, size_t error_size);

/// The video frame shown at `at` seconds (the last frame at or before it; the first frame for a time before the
/// first frame), written as an RGB PNG at `png_path` (created, never overwritten). `*width`, `*height` and
/// `*time` receive the frame's size and time. A frame of more than `max_pixels` pixels is refused. Returns 0, or
/// -1 with a sentence in `error`.
int rp_media_poster(const char *path, double at, double seconds, uint64_t max_pixels, const char *png_path,
                    int *width, int *height, double *time, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
