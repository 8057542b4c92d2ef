#include "CChafaShim.h"

// The CChafa system-library header includes <chafa.h> (and through it glib).
#include "../CChafa/shim.h"
#include <stdlib.h>
#include <string.h>

static ChafaCanvasMode rp_canvas_mode(int color_mode) {
    switch (color_mode) {
    case RP_CHAFA_TRUECOLOR: return CHAFA_CANVAS_MODE_TRUECOLOR;
    case RP_CHAFA_INDEXED_256: return CHAFA_CANVAS_MODE_INDEXED_256;
    case RP_CHAFA_INDEXED_16: return CHAFA_CANVAS_MODE_INDEXED_16;
    case RP_CHAFA_INDEXED_8: return CHAFA_CANVAS_MODE_INDEXED_8;
    default: return CHAFA_CANVAS_MODE_FGBG;
    }
}

static ChafaSymbolTags rp_symbol_tags(int symbols) {
    ChafaSymbolTags tags = CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID | CHAFA_SYMBOL_TAG_HALF;
    if (symbols >= RP_CHAFA_SYMBOLS_QUADRANT) tags |= CHAFA_SYMBOL_TAG_QUAD;
    if (symbols >= RP_CHAFA_SYMBOLS_BLOCK) tags |= CHAFA_SYMBOL_TAG_BLOCK;
    if (symbols >= RP_CHAFA_SYMBOLS_SEXTANT) tags |= CHAFA_SYMBOL_TAG_SEXTANT;
    return tags;
}

void rp_chafa_fit(int width, int height, float font_ratio, int *columns, int *rows) {
    gint w = *columns, h = *rows;
    chafa_calc_canvas_geometry(width, height, &w, &h, font_ratio, TRUE, FALSE);
    *columns = w < 1 ? 1 : w;
    *rows = h < 1 ? 1 : h;
}

static ChafaCanvas *rp_canvas(const uint8_t *rgba, int width, int height, int rowstride, int columns, int rows,
                              int pixel_mode, int color_mode, int symbols, float work_factor) {
    if (rgba == NULL || width <= 0 || height <= 0 || rowstride < width * 4 || columns <= 0 || rows <= 0) {
        return NULL;
    }
    ChafaSymbolMap *map = chafa_symbol_map_new();
    chafa_symbol_map_add_by_tags(map, rp_symbol_tags(symbols));
    // Wide and ambiguous-width symbols would disagree with the cell grid's columns.
    chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE | CHAFA_SYMBOL_TAG_AMBIGUOUS);
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, columns, rows);
    chafa_canvas_config_set_canvas_mode(config, rp_canvas_mode(color_mode));
    chafa_canvas_config_set_symbol_map(config, map);
    chafa_canvas_config_set_work_factor(config, work_factor);
    ChafaPixelMode mode = CHAFA_PIXEL_MODE_SYMBOLS;
    switch (pixel_mode) {
    case RP_CHAFA_PIXELS_SIXELS: mode = CHAFA_PIXEL_MODE_SIXELS; break;
    case RP_CHAFA_PIXELS_KITTY: mode = CHAFA_PIXEL_MODE_KITTY; break;
    case RP_CHAFA_PIXELS_ITERM2: mode = CHAFA_PIXEL_MODE_ITERM2; break;
    default: break;
    }
    chafa_canvas_config_set_pixel_mode(config, mode);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(map);
    if (canvas == NULL) {
        return NULL;
    }
    chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, rowstride);
    return canvas;
}

int rp_chafa_cells(const uint8_t *rgba, int width, int height, int rowstride, int columns, int rows,
                   int color_mode, int symbols, float work_factor, uint32_t *symbols_out, int32_t *fg_out,
                   int32_t *bg_out) {
    ChafaCanvas *canvas = rp_canvas(rgba, width, height, rowstride, columns, rows, RP_CHAFA_PIXELS_SYMBOLS,
                                    color_mode, symbols, work_factor);
    if (canvas == NULL) {
        return -1;
    }
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < columns; x++) {
            gint fg = -1, bg = -1;
            symbols_out[y * columns + x] = chafa_canvas_get_char_at(canvas, x, y);
            // Raw colours are in the canvas mode: packed RGB in truecolor, palette indexes otherwise.
            chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg);
            fg_out[y * columns + x] = fg;
            bg_out[y * columns + x] = bg;
        }
    }
    chafa_canvas_unref(canvas);
    return 0;
}

static ChafaTermInfo *rp_term_info(char **envp) {
    ChafaTermDb *db = chafa_term_db_get_default();
    ChafaTermInfo *info = chafa_term_db_detect(db, envp);
    // Sequences the detected terminal does not define come from chafa's conservative fallback.
    ChafaTermInfo *fallback = chafa_term_db_get_fallback_info(db);
    chafa_term_info_supplement(info, fallback);
    chafa_term_info_unref(fallback);
    return info;
}

void rp_chafa_detect(char **envp, int *pixel_mode, int *color_mode) {
    ChafaTermInfo *info = chafa_term_db_detect(chafa_term_db_get_default(), envp);
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) {
        *pixel_mode = RP_CHAFA_PIXELS_KITTY;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) {
        *pixel_mode = RP_CHAFA_PIXELS_ITERM2;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS)) {
        *pixel_mode = RP_CHAFA_PIXELS_SIXELS;
    } else {
        *pixel_mode = RP_CHAFA_PIXELS_SYMBOLS;
    }
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT)) {
        *color_mode = RP_CHAFA_TRUECOLOR;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_256)) {
        *color_mode = RP_CHAFA_INDEXED_256;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_16)) {
        *color_mode = RP_CHAFA_INDEXED_16;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_8)) {
        *color_mode = RP_CHAFA_INDEXED_8;
    } else {
        *color_mode = RP_CHAFA_FGBG;
    }
    chafa_term_info_unref(info);
}

char *rp_chafa_print(const uint8_t *rgba, int width, int height, int rowstride, int columns, int rows,
                     int pixel_mode, int color_mode, int symbols, char **envp, size_t *length) {
    ChafaCanvas *canvas =
        rp_canvas(rgba, width, height, rowstride, columns, rows, pixel_mode, color_mode, symbols, 0.5f);
    if (canvas == NULL) {
        return NULL;
    }
    ChafaTermInfo *info = rp_term_info(envp);
    GString *printed = chafa_canvas_print(canvas, info);
    chafa_term_info_unref(info);
    chafa_canvas_unref(canvas);
    *length = printed->len;
    char *copy = malloc(printed->len + 1);
    if (copy != NULL) {
        memcpy(copy, printed->str, printed->len + 1);
    }
    g_string_free(printed, TRUE);
    return copy;
}

void rp_chafa_free(char *text) { free(text); }
