#include "CNCursesShim.h"

// In a file of its own: <term.h> defines macros named after every terminfo capability (lines, columns…).
#include "../CNCurses/shim.h"
#include <ncursesw/term.h>
#include <pthread.h>
#include <unistd.h>

// terminfo keeps the entry it reads in a global (cur_term): two threads reading at once freed each other's entry
// (a crash in libtinfo when tests asked for several terminals in parallel), so reads take turns.
static pthread_mutex_t terminfo_lock = PTHREAD_MUTEX_INITIALIZER;

static int terminfo_colors(const char *term, int *rgb) {
    *rgb = 0;
    if (term == NULL || term[0] == '\0') {
        return -1;
    }
    TERMINAL *saved = cur_term;
    int error = 0;
    // A separate terminfo entry, read without touching the screen; the current one is put back.
    if (setupterm((char *)term, STDOUT_FILENO, &error) != OK) {
        if (saved != NULL) set_curterm(saved);
        return -1;
    }
    int colors = tigetnum("colors");
    *rgb = tigetflag("RGB") > 0 ? 1 : 0;
    TERMINAL *read = set_curterm(saved);
    if (read != NULL && read != saved) del_curterm(read);
    return colors > 0 ? colors : 0;
}

int rp_terminfo_colors(const char *term, int *rgb) {
    pthread_mutex_lock(&terminfo_lock);
    int colors = terminfo_colors(term, rgb);
    pthread_mutex_unlock(&terminfo_lock);
    return colors;
}
