/*
 * ui_term: the terminal under the screen: curses started and ended, the
 * terminal's modes saved for a crash's restore, the grid's styles as
 * colours (or monochrome attributes), the cells that changed sent, curses'
 * keys mapped to the view's.  See ui.h.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui.h"
#include "ui_int.h"

#include <curses.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "frontend.h"

static struct termios ui_saved_tty;
static volatile sig_atomic_t ui_active;

void ui_emergency_restore(void)
{
	static const char reset[] = "\033[?1000l\033[?1049l\033[?25h\033[0m\r\n";

	if (!ui_active)
		return;
	/* async-signal-safe: the terminal's modes as they were, then leave the alternate screen */
	tcsetattr(STDIN_FILENO, TCSANOW, &ui_saved_tty);
	if (write(STDOUT_FILENO, reset, sizeof(reset) - 1) < 0)
		return;
	ui_active = 0;
}

static bool ui_colors;

void ui_init_styles(void)
{
	ui_colors = has_colors() && !getenv("NO_COLOR");
	if (!ui_colors)
		return;
	start_color();
	use_default_colors();
	for (int i = 0; i < GRID_NSTYLES; i++) {
		short fg = grid_styles[i].fg, bg = grid_styles[i].bg;

		/* colour 8 (grey) only exists on 16-colour terminals */
		if (fg >= COLORS)
			fg = -1;
		if (bg >= COLORS)
			bg = -1;
		init_pair((short)(i + 1), fg, bg);
	}
}

static attr_t ui_attr(int style, short *pair)
{
	static const attr_t mono[] = {
		[GRID_MONO_NONE] = A_NORMAL, [GRID_MONO_DIM] = A_DIM,
		[GRID_MONO_BOLD] = A_BOLD, [GRID_MONO_REVERSE] = A_REVERSE,
		[GRID_MONO_BOLD_REVERSE] = A_BOLD | A_REVERSE,
	};

	if (ui_colors) {
		*pair = (short)(style + 1);
		return style == GRID_BOLD || style == GRID_TITLE || style == GRID_WARN ||
		       style == GRID_CURSOR ? A_BOLD : A_NORMAL;
	}
	*pair = 0;
	return mono[grid_styles[style].mono];
}

/* What the terminal shows now, to send only the cells that changed. */
static struct grid_cell *ui_shown;
static int ui_shown_w, ui_shown_h;

void ui_blit(const struct grid *g)
{
	bool full = !ui_shown || ui_shown_w != g->w || ui_shown_h != g->h;

	if (full) {
		free(ui_shown);
		ui_shown = xcalloc((size_t)g->w * (size_t)g->h, sizeof(*ui_shown));
		ui_shown_w = g->w;
		ui_shown_h = g->h;
	}
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			const struct grid_cell *c = &g->cells[y * g->w + x];
			struct grid_cell *was = ui_shown ? &ui_shown[y * g->w + x] : NULL;
			wchar_t wc[2] = { c->ch, 0 };
			cchar_t cc;
			short pair;
			attr_t a;

			if (!full && was && was->ch == c->ch && was->style == c->style)
				continue;
			if (was)
				*was = *c;
			a = ui_attr(c->style, &pair);
			setcchar(&cc, wc, a, pair, NULL);
			/* the bottom-right cell would scroll on some terminals: insert instead */
			if (y == g->h - 1 && x == g->w - 1)
				mvins_wch(y, x, &cc);
			else
				mvadd_wch(y, x, &cc);
		}
	wnoutrefresh(stdscr);
	doupdate();
}

/* The terminal was cleared or resized: the next blit sends every cell. */
void ui_blit_reset(void)
{
	free(ui_shown);
	ui_shown = NULL;
}

int ui_map_key(int ch)
{
	switch (ch) {
	case KEY_UP: return VIEW_KEY_UP;
	case KEY_DOWN: return VIEW_KEY_DOWN;
	case KEY_LEFT: return VIEW_KEY_LEFT;
	case KEY_RIGHT: return VIEW_KEY_RIGHT;
	case KEY_PPAGE: return VIEW_KEY_PGUP;
	case KEY_NPAGE: return VIEW_KEY_PGDN;
	case KEY_HOME: return VIEW_KEY_HOME;
	case KEY_END: return VIEW_KEY_END;
	case '\t': return VIEW_KEY_TAB;
	case KEY_BTAB: return VIEW_KEY_BTAB;
	case KEY_ENTER: case '\n': case '\r': return VIEW_KEY_ENTER;
	case 27: return VIEW_KEY_ESC;
	case KEY_BACKSPACE: case 127: case 8: return VIEW_KEY_BACKSPACE;
	case KEY_F(1): return VIEW_KEY_F1;
	case KEY_F(10): return VIEW_KEY_F10;
	case KEY_F(2): return VIEW_KEY_F2;
	case KEY_F(3): return VIEW_KEY_F3;
	case KEY_F(4): return VIEW_KEY_F4;
	case KEY_F(6): return VIEW_KEY_F6;
	default: return ch;
	}
}

int ui_term_begin(char *err, size_t errlen)
{
	sigset_t winch;

	tcgetattr(STDIN_FILENO, &ui_saved_tty);
	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	pthread_sigmask(SIG_UNBLOCK, &winch, NULL);
	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, errlen, "cannot start the terminal (TERM=%s): set TERM to your terminal "
			 "type, or use -b", getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	ui_active = 1;
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	ui_init_styles();
	return 0;
}

void ui_term_end(void)
{
	endwin();
	ui_active = 0;
	ui_blit_reset();
}
