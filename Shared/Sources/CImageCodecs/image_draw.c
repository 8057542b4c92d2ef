// Drawing one bitmap scaled into another, for the compatibility package's UIKit (UIImage.draw(in:), renderers,
// thumbnails); see include/CImageCodecs.h.

#include "CImageCodecs.h"

#include <math.h>
#include <stdlib.h>

/// The source pixels (first .. first + count) and their weights (summing to 1) that make destination pixels
/// `from ..< to` of a row of `destination` pixels scaled from `source` pixels.
typedef struct {
    int64_t *first;
    int *count;
    double *weights; // `taps` per destination pixel
    int taps;
} rp_contributions;

static void contributions_free(rp_contributions *c) {
    free(c->first);
    free(c->count);
    free(c->weights);
}

static int contributions_make(rp_contributions *c, uint32_t source, int64_t destination, int64_t from, int64_t to) {
    double ratio = (double)source / (double)destination;
    int64_t n = to - from;
    c->taps = (int)ceil(ratio) + 2;
    c->first = malloc((size_t)n * sizeof *c->first);
    c->count = malloc((size_t)n * sizeof *c->count);
    c->weights = calloc((size_t)n * c->taps, sizeof *c->weights);
    if (!c->first || !c->count || !c->weights) return 0;
    for (int64_t i = 0; i < n; i++) {
        double *w = c->weights + i * c->taps;
        int64_t first, last;
        if (ratio > 1) {
            // Shrinking: the destination pixel covers source span [start, end); each source pixel weighs what of it
            // lies inside.
            double start = (double)(from + i) * ratio, end = start + ratio;
            first = (int64_t)floor(start);
            last = (int64_t)ceil(end) - 1;
            if (last > (int64_t)source - 1) last = (int64_t)source - 1;
            if (last - first + 1 > c->taps) last = first + c->taps - 1;
            for (int64_t p = first; p <= last; p++) {
                double low = p > start ? (double)p : start;
                double high = p + 1 < end ? (double)(p + 1) : end;
                w[p - first] = high > low ? (high - low) / ratio : 0;
            }
        } else {
            // Enlarging: bilinear between the two nearest source pixels (the edge pixel stands beyond the image).
            double center = ((double)(from + i) + 0.5) * ratio - 0.5;
            int64_t left = (int64_t)floor(center);
            double fraction = center - (double)left;
            if (left < 0) {
                left = 0;
                fraction = 0;
            }
            if (left >= (int64_t)source - 1) {
                left = (int64_t)source - 1;
                fraction = 0;
            }
            first = left;
            last = fraction > 0 ? left + 1 : left;
            w[0] = 1 - fraction;
            if (last > first) w[1] = fraction;
        }
        c->first[i] = first;
        c->count[i] = (int)(last - first + 1);
    }
    return 1;
}

static uint8_t clamp_channel(double value) {
    if (value <= 0) return 0;
    if (value >= 255) return 255;
    return (uint8_t)(value + 0.5);
}

static int64_t round_edge(double value) {
    if (value > 1e9) return 1000000000;
    if (value < -1e9) return -1000000000;
    return (int64_t)floor(value + 0.5);
}

int rp_image_draw(uint8_t *canvas, uint32_t canvas_width, uint32_t canvas_height, const uint8_t *source,
                  uint32_t source_width, uint32_t source_height, double x, double y, double width, double height,
                  double alpha, int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height, int opaque) {
    if (!canvas || !source || source_width == 0 || source_height == 0 || !(alpha > 0)) return RP_CODEC_OK;
    if (!(width > 0) || !(height > 0) || !isfinite(x) || !isfinite(y) || !isfinite(width) || !isfinite(height))
        return RP_CODEC_OK;
    if (alpha > 1) alpha = 1;
    int64_t left = round_edge(x), top = round_edge(y), right = round_edge(x + width), bottom = round_edge(y + height);
    int64_t full_width = right - left, full_height = bottom - top;
    if (full_width <= 0 || full_height <= 0) return RP_CODEC_OK;
    int64_t vx0 = left, vy0 = top, vx1 = right, vy1 = bottom;
    if (vx0 < clip_x) vx0 = clip_x;
    if (vy0 < clip_y) vy0 = clip_y;
    if (vx1 > (int64_t)clip_x + clip_width) vx1 = (int64_t)clip_x + clip_width;
    if (vy1 > (int64_t)clip_y + clip_height) vy1 = (int64_t)clip_y + clip_height;
    if (vx0 < 0) vx0 = 0;
    if (vy0 < 0) vy0 = 0;
    if (vx1 > canvas_width) vx1 = canvas_width;
    if (vy1 > canvas_height) vy1 = canvas_height;
    if (vx1 <= vx0 || vy1 <= vy0) return RP_CODEC_OK;

    rp_contributions columns = {0}, rows = {0};
    double *line = NULL;
    int status = RP_CODEC_NO_MEMORY;
    if (!contributions_make(&columns, source_width, full_width, vx0 - left, vx1 - left)) goto done;
    if (!contributions_make(&rows, source_height, full_height, vy0 - top, vy1 - top)) goto done;
    // One source row, blended vertically, over the source columns the visible columns read.
    int64_t column_first = columns.first[0];
    int64_t column_last = columns.first[vx1 - vx0 - 1] + columns.count[vx1 - vx0 - 1];
    line = malloc((size_t)(column_last - column_first) * 4 * sizeof *line);
    if (!line) goto done;
    for (int64_t row = 0; row < vy1 - vy0; row++) {
        const double *vertical = rows.weights + row * rows.taps;
        for (int64_t i = 0; i < (column_last - column_first) * 4; i++) line[i] = 0;
        for (int k = 0; k < rows.count[row]; k++) {
            const uint8_t *s = source + ((size_t)(rows.first[row] + k) * source_width + column_first) * 4;
            double weight = vertical[k];
            for (int64_t i = 0; i < (column_last - column_first) * 4; i++) line[i] += weight * s[i];
        }
        uint8_t *d = canvas + ((size_t)(vy0 + row) * canvas_width + vx0) * 4;
        for (int64_t column = 0; column < vx1 - vx0; column++, d += 4) {
            const double *horizontal = columns.weights + column * columns.taps;
            const double *l = line + (columns.first[column] - column_first) * 4;
            double sums[4] = {0, 0, 0, 0};
            for (int k = 0; k < columns.count[column]; k++) {
                for (int c = 0; c < 4; c++) sums[c] += horizontal[k] * l[k * 4 + c];
            }
            uint8_t s[4];
            for (int c = 0; c < 4; c++) s[c] = clamp_channel(sums[c] * alpha);
            unsigned inverse = 255u - s[3];
            for (int c = 0; c < 4; c++) {
                unsigned value = s[c] + (d[c] * inverse + 127) / 255;
                d[c] = (uint8_t)(value > 255 ? 255 : value);
            }
            if (opaque) d[3] = 255;
        }
    }
    status = RP_CODEC_OK;
done:
    contributions_free(&columns);
    contributions_free(&rows);
    free(line);
    return status;
}
