#ifndef RICHPUSH_CCHAFA_SHIM_H
#define RICHPUSH_CCHAFA_SHIM_H

// The part of libchafa richpush uses, over plain C types: glib's types, reference counting and
// GString never reach Swift.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Colour modes (how many colours the cells may use).
enum {
    RP_CHAFA_TRUECOLOR = 0, // colours are packed 0xRRGGBB
    RP_CHAFA_INDEXED_256 = 1,
    RP_CHAFA_INDEXED_16 = 2,
    RP_CHAFA_INDEXED_8 = 3,
    RP_CHAFA_FGBG = 4, // no colours: shapes only, drawn in the terminal's own foreground and background
};

/// Symbol sets (which characters the cells may use).
enum {
    RP_CHAFA_SYMBOLS_HALF = 0,     // space, full block, upper/lower/left/right half blocks
    RP_CHAFA_SYMBOLS_QUADRANT = 1, // half + quadrants
    RP_CHAFA_SYMBOLS_BLOCK = 2,    // quadrant + the other block elements (eighths)
    RP_CHAFA_SYMBOLS_SEXTANT = 3,  // block + sextants (Unicode 13; needs a recent font)
};

/// How an image is drawn outside curses.
enum {
    RP_CHAFA_PIXELS_SYMBOLS = 0,
    RP_CHAFA_PIXELS_SIXELS = 1,
    RP_CHAFA_PIXELS_KITTY = 2,
    RP_CHAFA_PIXELS_ITERM2 = 3,
};

/// The size in cells an image of `width`x`height` pixels takes to fit in `*columns` x `*rows` with its
/// aspect kept, a cell being `font_ratio` (width/height, about 0.5) as wide as it is tall.
void rp_chafa_fit(int width, int height, float font_ratio, int *columns, int *rows);

/// Draws RGBA pixels (rows top to bottom, `rowstride` bytes apart) onto `columns` x `rows` cells and
/// writes, for each cell row by row, its symbol (a Unicode scalar) and its foreground and background
/// colour (packed RGB in truecolor mode, a palette index otherwise; negative or above 255 in an
/// indexed mode for transparent or the terminal's default).
/// Returns 0, or -1 when the arguments make no canvas.
int rp_chafa_cells(const uint8_t *rgba, int width, int height, int rowstride, int columns, int rows,
                   int color_mode, int symbols, float work_factor, uint32_t *symbols_out, int32_t *fg_out,
                   int32_t *bg_out);

/// What chafa's terminal database says about the terminal described by `envp` (a NULL-terminated
/// "NAME=value" list): the best pixel protocol (RP_CHAFA_PIXELS_*) and colour mode (RP_CHAFA_*).
void rp_chafa_detect(char **envp, int *pixel_mode, int *color_mode);

/// The escape sequences that draw the image on `columns` x `rows` cells with `pixel_mode` and
/// `color_mode` for the terminal described by `envp`, rows separated by "\n", no trailing newline.
/// The caller frees the result with rp_chafa_free. NULL when the arguments make no canvas.
char *rp_chafa_print(const uint8_t *rgba, int width, int height, int rowstride, int columns, int rows,
                     int pixel_mode, int color_mode, int symbols, char **envp, size_t *length);

void rp_chafa_free(char *text);

#ifdef __cplusplus
}
#endif

#endif
