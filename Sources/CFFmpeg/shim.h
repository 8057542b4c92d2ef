#ifndef RICHPUSH_CFFMPEG_H
#define RICHPUSH_CFFMPEG_H
// FFmpeg's libavformat, libavcodec, libswscale and libavutil (Debian's libavformat-dev, libavcodec-dev,
// libswscale-dev, libavutil-dev). Only CFFmpegShim includes it; Swift sees the shim's plain C API.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avstring.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#endif
