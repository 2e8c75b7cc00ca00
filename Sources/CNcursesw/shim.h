#ifndef LANES_CNCURSESW_SHIM_H
#define LANES_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* Swift 6 rejects the mutable C globals and cannot import the macros: accessors. */
static inline WINDOW *lanes_stdscr(void) { return stdscr; }
static inline int lanes_lines(void) { return LINES; }
static inline int lanes_cols(void) { return COLS; }
static inline int lanes_colors(void) { return COLORS; }
static inline int lanes_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t lanes_a_normal(void) { return A_NORMAL; }
static inline attr_t lanes_a_bold(void) { return A_BOLD; }
static inline attr_t lanes_a_dim(void) { return A_DIM; }
static inline attr_t lanes_a_reverse(void) { return A_REVERSE; }
static inline attr_t lanes_a_underline(void) { return A_UNDERLINE; }
static inline attr_t lanes_a_italic(void) { return A_ITALIC; }
static inline attr_t lanes_color_pair(int n) { return COLOR_PAIR(n); }
static inline mmask_t lanes_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }

static inline WINDOW *lanes_curscr(void) { return curscr; }
static inline int lanes_ccharw_max(void) { return CCHARW_MAX; }
/* The width curses will give a character: the C library's, for the current locale. */
static inline int lanes_wcwidth(wchar_t c) { return wcwidth(c); }

/* Puts one grapheme (up to CCHARW_MAX code points) with attributes at (y, x).
   setcchar keeps only the zero-width code points after the first, which would cut
   ZWJ sequences and skin tones (👩‍💻 → 👩): the rest is copied into the cchar_t
   after it. Curses measures the cell by its first code point and writes them all.
   With `insert` the cell is inserted instead of added, so the cursor does not
   advance: the way to fill the bottom-right corner without an ERR or a scroll. */
static inline int lanes_put_cell(int y, int x, const wchar_t *wcs, attr_t attrs, short pair, int insert) {
    cchar_t cc;
    wchar_t first[2] = { wcs[0], L'\0' };
    if (setcchar(&cc, first, attrs, pair, NULL) != OK) return ERR;
    for (int i = 1; i < CCHARW_MAX && wcs[i] != L'\0'; ++i) cc.chars[i] = wcs[i];
    return insert ? mvins_wch(y, x, &cc) : mvadd_wch(y, x, &cc);
}

/* What terminfo says about a terminal type, without including term.h (its capability macros
   would leak into every importer): 1 when it can place the cursor (cup), 0 when it cannot
   (no cup, or a hardcopy terminal), -1 when there is no entry. Call it before curses starts:
   it loads the entry as the current terminal and frees it again. */
struct term;
extern int setupterm(const char *, int, int *);
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);
static inline int lanes_terminfo_can_address_cursor(const char *name, int fd) {
    int err = 0;
    if (setupterm(name, fd, &err) != OK) return err == 1 ? 0 : -1;
    char *cup = tigetstr("cup");
    int result = (cup != NULL && cup != (char *)-1) ? 1 : 0;
    del_curterm(set_curterm(NULL));
    return result;
}

/* Opens a pseudo-terminal pair of the given size; returns 0, or -1 with errno set. */
static inline int lanes_open_pty(int rows, int cols, int *master, int *slave) {
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0) return -1;
    char name[128];
    if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, sizeof name) != 0) { close(m); return -1; }
    int s = open(name, O_RDWR | O_NOCTTY);
    if (s < 0) { close(m); return -1; }
    struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 0, 0 };
    ioctl(m, TIOCSWINSZ, &ws);
    *master = m;
    *slave = s;
    return 0;
}

#endif
