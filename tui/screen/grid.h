/*
 * grid: the screen as a grid of character cells, each with one style.
 *
 * Every pane draws into a grid; the curses front end copies the grid to the
 * terminal (ui.c) and --dump prints it as text (grid_text), so what a golden
 * test compares is exactly what the terminal shows.  Drawing is clipped to
 * the grid: a pane can never write outside it.  Box and bar glyphs come
 * from Unicode when the grid is UTF-8 and from ASCII otherwise; every glyph
 * takes one column.  Single-threaded (the UI thread).
 */
#ifndef PMUTOP_GRID_H
#define PMUTOP_GRID_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/*
 * Styles, defined once: X(NAME, foreground, background, monochrome attribute).
 * Colours are curses colour numbers (-1: the terminal's default); the
 * monochrome column is what NO_COLOR and colourless terminals get.
 */
#define GRID_STYLES(X) \
	X(NORMAL,   -1, -1, GRID_MONO_NONE)    \
	X(DIM,       8, -1, GRID_MONO_DIM)     \
	X(BOLD,     -1, -1, GRID_MONO_BOLD)    \
	X(TITLE,     6, -1, GRID_MONO_BOLD)    \
	X(HEADER,    0,  6, GRID_MONO_REVERSE) \
	X(SELECT,    0,  7, GRID_MONO_REVERSE) \
	X(CURSOR,    0,  7, GRID_MONO_BOLD_REVERSE) \
	X(KEY,       0,  6, GRID_MONO_REVERSE) \
	X(SIM,       0,  5, GRID_MONO_REVERSE) \
	X(OK,        2, -1, GRID_MONO_NONE)    \
	X(WARN,      3, -1, GRID_MONO_BOLD)    \
	X(CRIT,      1, -1, GRID_MONO_REVERSE) \
	X(HEAT0,     7,  0, GRID_MONO_DIM)     \
	X(HEAT1,     0,  4, GRID_MONO_NONE)    \
	X(HEAT2,     0,  2, GRID_MONO_NONE)    \
	X(HEAT3,     0,  3, GRID_MONO_BOLD)    \
	X(HEAT4,     7,  1, GRID_MONO_REVERSE) \
	X(BAR,       2, -1, GRID_MONO_NONE)    \
	X(SEG5,      7,  5, GRID_MONO_DIM)

enum grid_mono { GRID_MONO_NONE, GRID_MONO_DIM, GRID_MONO_BOLD, GRID_MONO_REVERSE,
		 GRID_MONO_BOLD_REVERSE };

enum grid_style {
#define GRID_STYLE_ENUM(name, fg, bg, mono) GRID_##name,
	GRID_STYLES(GRID_STYLE_ENUM)
#undef GRID_STYLE_ENUM
	GRID_NSTYLES
};

#define GRID_HEAT_LEVELS 5

struct grid_style_def {
	const char *name;
	short fg, bg;
	enum grid_mono mono;
};

extern const struct grid_style_def grid_styles[GRID_NSTYLES];

struct grid_cell {
	wchar_t ch;
	uint8_t style;
};

struct grid {
	int w, h;
	/*
	 * The columns of the screen it is shown on: its width, or less for a
	 * pane drawn wider than the screen (scrolled sideways), whose labels may
	 * then take no more than the screen leaves them.
	 */
	int screen_w;
	bool utf8;
	struct grid_cell *cells; /* h rows of w */
};

/* A blank grid; W and H at least 1. */
struct grid *grid_new(int w, int h, bool utf8);
void grid_resize(struct grid *g, int w, int h);
void grid_free(struct grid *g);
void grid_clear(struct grid *g);

/* Text at (Y, X), clipped to at most MAXW columns and the grid; returns the columns written. */
int grid_put(struct grid *g, int y, int x, int maxw, enum grid_style st, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int grid_vput(struct grid *g, int y, int x, int maxw, enum grid_style st, const char *fmt,
	      va_list ap) __attribute__((format(printf, 6, 0)));

/*
 * Text from (Y, X) wrapped at spaces into lines of at most MAXW columns, at
 * most MAXLINES of them (a word longer than a line is cut; text past the
 * last line is left out); returns the lines written.
 */
int grid_put_wrap(struct grid *g, int y, int x, int maxw, int maxlines, enum grid_style st,
		  const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Text right-aligned so that it ends before column X + W. */
void grid_put_right(struct grid *g, int y, int x, int w, enum grid_style st, const char *text);

/* Set the style of W cells from (Y, X) without changing their characters. */
void grid_style(struct grid *g, int y, int x, int w, enum grid_style st);

/* Fill W cells from (Y, X) with blanks of style ST. */
void grid_blank(struct grid *g, int y, int x, int w, enum grid_style st);

/* A box with TITLE (may be NULL) in its top border. */
void grid_box(struct grid *g, int y, int x, int h, int w, enum grid_style st, const char *title);

/* A horizontal rule. */
void grid_hline(struct grid *g, int y, int x, int w, enum grid_style st);

/* A bar of W cells filled to FRAC (0..1) with eighth-cell resolution (UTF-8) or '#'. */
void grid_bar(struct grid *g, int y, int x, int w, double frac, enum grid_style st);

/*
 * A sparkline: LV[0 .. W) levels 0 to 7 as block glyphs (UTF-8) or
 * " .:-=+*#%@"-like characters (ASCII), -1 as a blank (a gap).
 */
void grid_spark(struct grid *g, int y, int x, const signed char *lv, int w, enum grid_style st);

/* The grid as text: one line per row, trailing blanks removed, UTF-8. Caller frees. */
char *grid_text(const struct grid *g);

#endif
