#ifndef RICHPUSH_CNCURSES_SHIM_H
#define RICHPUSH_CNCURSES_SHIM_H

// The only curses surface richpush's TUI uses. Swift cannot import curses' macros (stdscr,
// COLOR_PAIR, getmaxyx, A_* attributes, KEY_* codes written in octal), so this header exposes
// a handful of functions over plain C types; the curses types never reach Swift.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Attribute bits understood by rp_put_cell.
enum {
    RP_ATTR_BOLD = 1,
    RP_ATTR_REVERSE = 2,
    RP_ATTR_UNDERLINE = 4,
    RP_ATTR_DIM = 8,
};

/// Colour pairs set up by rp_start when the terminal has colours (0 is the terminal's default).
enum {
    RP_PAIR_DEFAULT = 0,
    RP_PAIR_ACCENT = 1,
    RP_PAIR_SUCCESS = 2,
    RP_PAIR_WARNING = 3,
    RP_PAIR_DANGER = 4,
    RP_PAIR_MUTED = 5,
    RP_PAIR_HEADER = 6,
    RP_PAIR_BANNER = 7,
};

/// What rp_read_key found.
enum {
    RP_INPUT_NONE = 0,      // no key waiting
    RP_INPUT_CHARACTER = 1, // *code is a Unicode scalar (or a control character)
    RP_INPUT_KEY = 2,       // *code is one of the RP_KEY_* values
};

enum {
    RP_KEY_OTHER = 0,
    RP_KEY_UP = 1,
    RP_KEY_DOWN = 2,
    RP_KEY_LEFT = 3,
    RP_KEY_RIGHT = 4,
    RP_KEY_PAGE_UP = 5,
    RP_KEY_PAGE_DOWN = 6,
    RP_KEY_HOME = 7,
    RP_KEY_END = 8,
    RP_KEY_ENTER = 9,
    RP_KEY_BACKSPACE = 10,
    RP_KEY_BACK_TAB = 11,
    RP_KEY_RESIZE = 12,
    RP_KEY_DELETE = 13,
};

/// Sets the locale from the environment, then opens curses on the process's terminal
/// (newterm, so a missing or unknown terminal is an error code instead of exit()).
/// Returns 0 on success, 1 when stdin/stdout is not a terminal, 2 when curses refused the terminal.
int rp_start(void);
/// Restores the terminal. Safe to call more than once.
void rp_stop(void);
/// Whether rp_start found a terminal with colours and set up the pairs.
int rp_has_colors(void);
int rp_lines(void);
int rp_columns(void);
/// Clears the virtual screen before a frame is blitted.
void rp_erase(void);
/// Puts one cell: a grapheme's first scalar plus up to four zero-width scalars that follow it.
void rp_put_cell(int y, int x, const uint32_t *scalars, int count, int attributes, int pair);
/// Sends the frame to the terminal.
void rp_refresh(void);
/// Reads one key without waiting. See RP_INPUT_*.
int rp_read_key(uint32_t *code);

/// How many colours the open terminal has (0 without colours); *direct is 1 when colour numbers are
/// packed 0xRRGGBB values (terminfo RGB, e.g. TERM=xterm-direct).
int rp_color_count(int *direct);
/// A colour pair for image cells: foreground and background colour numbers (palette indexes, or
/// packed RGB on a direct-colour terminal; -1 the terminal's default). curses reuses the least
/// recently used pair when all are taken. Returns -1 when the terminal has no colours.
int rp_image_pair(int fg, int bg);
/// Puts one image cell: a symbol in an extended colour pair from rp_image_pair.
void rp_put_image_cell(int y, int x, uint32_t scalar, int pair);
/// What terminfo says about terminal `term` without opening it: its number of colours (0 without
/// colours, -1 when terminfo does not know the terminal), and in *rgb whether it takes direct RGB colours.
int rp_terminfo_colors(const char *term, int *rgb);

#ifdef __cplusplus
}
#endif

#endif
