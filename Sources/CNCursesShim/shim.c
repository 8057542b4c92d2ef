#include "CNCursesShim.h"

// The CNCurses system-library header switches on the wide-character API (SwiftPM drops pkg-config's
// -D flags) and includes <ncursesw/curses.h> and <locale.h>.
#include "../CNCurses/shim.h"
#include <stdio.h>
#include <unistd.h>
#include <wchar.h>

static SCREEN *rp_screen = NULL;
static int rp_colors = 0;

int rp_start(void) {
    if (rp_screen != NULL) {
        return 0;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        return 1;
    }
    // Without the locale, curses treats every byte above 0x7f as a separate, unprintable character.
    setlocale(LC_ALL, "");
    rp_screen = newterm(NULL, stdout, stdin);
    if (rp_screen == NULL) {
        return 2;
    }
    set_term(rp_screen);
    raw();  // Ctrl-C arrives as a key, so quitting always goes through the code that restores the terminal.
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    leaveok(stdscr, TRUE);
    rp_colors = 0;
    if (has_colors() && start_color() == OK) {
        use_default_colors();
        init_pair(RP_PAIR_ACCENT, COLOR_CYAN, -1);
        init_pair(RP_PAIR_SUCCESS, COLOR_GREEN, -1);
        init_pair(RP_PAIR_WARNING, COLOR_YELLOW, -1);
        init_pair(RP_PAIR_DANGER, COLOR_RED, -1);
        init_pair(RP_PAIR_MUTED, COLOR_BLUE, -1);
        init_pair(RP_PAIR_HEADER, COLOR_BLACK, COLOR_CYAN);
        init_pair(RP_PAIR_BANNER, COLOR_BLACK, COLOR_WHITE);
        rp_colors = 1;
    }
    return 0;
}

void rp_stop(void) {
    if (rp_screen == NULL) {
        return;
    }
    curs_set(1);
    endwin();
    delscreen(rp_screen);
    rp_screen = NULL;
    fflush(stdout);
}

int rp_has_colors(void) { return rp_colors; }

int rp_lines(void) {
    int lines = 0, columns = 0;
    getmaxyx(stdscr, lines, columns);
    (void)columns;
    return lines;
}

int rp_columns(void) {
    int lines = 0, columns = 0;
    getmaxyx(stdscr, lines, columns);
    (void)lines;
    return columns;
}

void rp_erase(void) { werase(stdscr); }

void rp_put_cell(int y, int x, const uint32_t *scalars, int count, int attributes, int pair) {
    wchar_t text[CCHARW_MAX + 1];
    int length = count < CCHARW_MAX ? count : CCHARW_MAX;
    if (length <= 0) {
        text[0] = L' ';
        length = 1;
    } else {
        for (int i = 0; i < length; i++) {
            text[i] = (wchar_t)scalars[i];
        }
    }
    text[length] = L'\0';
    attr_t attrs = A_NORMAL;
    if (attributes & RP_ATTR_BOLD) attrs |= A_BOLD;
    if (attributes & RP_ATTR_REVERSE) attrs |= A_REVERSE;
    if (attributes & RP_ATTR_UNDERLINE) attrs |= A_UNDERLINE;
    if (attributes & RP_ATTR_DIM) attrs |= A_DIM;
    cchar_t cell;
    if (setcchar(&cell, text, attrs, (short)(rp_colors ? pair : 0), NULL) != OK) {
        return;
    }
    // The bottom-right cell reports ERR because the cursor cannot advance; the cell is still drawn.
    (void)mvwadd_wch(stdscr, y, x, &cell);
}

void rp_refresh(void) { wrefresh(stdscr); }

int rp_read_key(uint32_t *code) {
    wint_t key = 0;
    int kind = wget_wch(stdscr, &key);
    if (kind == ERR) {
        return RP_INPUT_NONE;
    }
    if (kind == OK) {
        *code = (uint32_t)key;
        return RP_INPUT_CHARACTER;
    }
    switch (key) {
    case KEY_UP: *code = RP_KEY_UP; break;
    case KEY_DOWN: *code = RP_KEY_DOWN; break;
    case KEY_LEFT: *code = RP_KEY_LEFT; break;
    case KEY_RIGHT: *code = RP_KEY_RIGHT; break;
    case KEY_PPAGE: *code = RP_KEY_PAGE_UP; break;
    case KEY_NPAGE: *code = RP_KEY_PAGE_DOWN; break;
    case KEY_HOME: *code = RP_KEY_HOME; break;
    case KEY_END: *code = RP_KEY_END; break;
    case KEY_ENTER: *code = RP_KEY_ENTER; break;
    case KEY_BACKSPACE: *code = RP_KEY_BACKSPACE; break;
    case KEY_BTAB: *code = RP_KEY_BACK_TAB; break;
    case KEY_RESIZE: *code = RP_KEY_RESIZE; break;
    case KEY_DC: *code = RP_KEY_DELETE; break;
    default: *code = RP_KEY_OTHER; break;
    }
    return RP_INPUT_KEY;
}

int rp_color_count(int *direct) {
    *direct = 0;
    if (!rp_colors) {
        return 0;
    }
    int rgb = tigetflag("RGB");
    *direct = (rgb > 0 || COLORS >= 0x1000000) ? 1 : 0;
    return COLORS;
}

int rp_image_pair(int fg, int bg) {
    if (!rp_colors) {
        return -1;
    }
    return alloc_pair(fg, bg);
}

void rp_put_image_cell(int y, int x, uint32_t scalar, int pair) {
    wchar_t text[2] = {(wchar_t)scalar, L'\0'};
    cchar_t cell;
    int extended = pair < 0 ? 0 : pair;
    // The pair number goes in `opts`: extended pairs do not fit the short argument.
    if (setcchar(&cell, text, A_NORMAL, 0, &extended) != OK) {
        return;
    }
    (void)mvwadd_wch(stdscr, y, x, &cell);
}
