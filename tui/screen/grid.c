/*
 * grid: character cells with styles; see grid.h.
 */
#include "grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

const struct grid_style_def grid_styles[GRID_NSTYLES] = {
#define GRID_STYLE_DEF(id, f, b, m) [GRID_##id] = { .name = #id, .fg = f, .bg = b, .mono = m },
	GRID_STYLES(GRID_STYLE_DEF)
#undef GRID_STYLE_DEF
};

/* Box glyphs: corners top-left, top-right, bottom-left, bottom-right, horizontal, vertical. */
enum { GRID_TL, GRID_TR, GRID_BL, GRID_BR, GRID_H, GRID_V };
static const wchar_t grid_box_utf8[] = { 0x250C, 0x2510, 0x2514, 0x2518, 0x2500, 0x2502 };
static const wchar_t grid_box_ascii[] = { '+', '+', '+', '+', '-', '|' };

struct grid *grid_new(int w, int h, bool utf8)
{
	struct grid *g = xcalloc(1, sizeof(*g));

	g->utf8 = utf8;
	grid_resize(g, w, h);
	return g;
}

void grid_resize(struct grid *g, int w, int h)
{
	g->w = w < 1 ? 1 : w;
	g->h = h < 1 ? 1 : h;
	g->screen_w = g->w;
	free(g->cells);
	g->cells = xcalloc((size_t)g->w * (size_t)g->h, sizeof(*g->cells));
	grid_clear(g);
}

void grid_free(struct grid *g)
{
	if (!g)
		return;
	free(g->cells);
	free(g);
}

void grid_clear(struct grid *g)
{
	for (int i = 0; i < g->w * g->h; i++)
		g->cells[i] = (struct grid_cell){ .ch = ' ', .style = GRID_NORMAL };
}

static struct grid_cell *grid_at(struct grid *g, int y, int x)
{
	if (y < 0 || y >= g->h || x < 0 || x >= g->w)
		return NULL;
	return &g->cells[y * g->w + x];
}

static void grid_set(struct grid *g, int y, int x, wchar_t ch, enum grid_style st)
{
	struct grid_cell *c = grid_at(g, y, x);

	if (c)
		*c = (struct grid_cell){ .ch = ch, .style = (uint8_t)st };
}

int grid_vput(struct grid *g, int y, int x, int maxw, enum grid_style st, const char *fmt,
	      va_list ap)
{
	char buf[1024];
	int n = 0;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/*
	 * text is printable ASCII by construction (names, numbers); anything else,
	 * a control character above all, shows as '?' and never reaches the terminal
	 */
	for (const char *p = buf; *p && n < maxw && x + n < g->w; p++, n++)
		grid_set(g, y, x + n, (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7F
				      ? (wchar_t)*p : '?', st);
	return n;
}

int grid_put(struct grid *g, int y, int x, int maxw, enum grid_style st, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = grid_vput(g, y, x, maxw, st, fmt, ap);
	va_end(ap);
	return n;
}

int grid_put_wrap(struct grid *g, int y, int x, int maxw, int maxlines, enum grid_style st,
		  const char *fmt, ...)
{
	char buf[1024];
	const char *p = buf;
	int lines = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	while (*p && lines < maxlines && maxw > 0) {
		int len = (int)strlen(p), cut = len;

		if (len > maxw) {
			/* the last space that ends a line of at most MAXW; none: the word is cut */
			for (cut = maxw; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = maxw;
		}
		grid_put(g, y + lines++, x, cut, st, "%.*s", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}

void grid_put_right(struct grid *g, int y, int x, int w, enum grid_style st, const char *text)
{
	int len = (int)strlen(text);

	if (len > w)
		grid_put(g, y, x, w, st, "%s", text + (len - w));
	else
		grid_put(g, y, x + w - len, len, st, "%s", text);
}

void grid_style(struct grid *g, int y, int x, int w, enum grid_style st)
{
	for (int i = 0; i < w; i++) {
		struct grid_cell *c = grid_at(g, y, x + i);

		if (c)
			c->style = (uint8_t)st;
	}
}

void grid_blank(struct grid *g, int y, int x, int w, enum grid_style st)
{
	for (int i = 0; i < w; i++)
		grid_set(g, y, x + i, ' ', st);
}

void grid_spark(struct grid *g, int y, int x, const signed char *lv, int w, enum grid_style st)
{
	static const char ascii[] = "_.:-=+*#";

	for (int i = 0; i < w; i++) {
		int k = lv[i] < 0 ? -1 : lv[i] > 7 ? 7 : lv[i];

		/* U+2581 LOWER ONE EIGHTH BLOCK ... U+2588 FULL BLOCK */
		grid_set(g, y, x + i, k < 0 ? ' ' : g->utf8 ? (wchar_t)(0x2581 + k) : ascii[k], st);
	}
}

void grid_hline(struct grid *g, int y, int x, int w, enum grid_style st)
{
	wchar_t h = (g->utf8 ? grid_box_utf8 : grid_box_ascii)[GRID_H];

	for (int i = 0; i < w; i++)
		grid_set(g, y, x + i, h, st);
}

void grid_box(struct grid *g, int y, int x, int h, int w, enum grid_style st, const char *title)
{
	const wchar_t *b = g->utf8 ? grid_box_utf8 : grid_box_ascii;

	if (h < 2 || w < 2)
		return;
	grid_hline(g, y, x + 1, w - 2, st);
	grid_hline(g, y + h - 1, x + 1, w - 2, st);
	for (int i = 1; i < h - 1; i++) {
		grid_set(g, y + i, x, b[GRID_V], st);
		grid_set(g, y + i, x + w - 1, b[GRID_V], st);
	}
	grid_set(g, y, x, b[GRID_TL], st);
	grid_set(g, y, x + w - 1, b[GRID_TR], st);
	grid_set(g, y + h - 1, x, b[GRID_BL], st);
	grid_set(g, y + h - 1, x + w - 1, b[GRID_BR], st);
	if (title && w > 6)
		grid_put(g, y, x + 2, w - 4, GRID_TITLE, " %s ", title);
}

void grid_bar(struct grid *g, int y, int x, int w, double frac, enum grid_style st)
{
	/* U+258F .. U+2589: one to seven eighths of a cell, U+2588 a full cell */
	static const wchar_t eighths[8] = { ' ', 0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589 };
	int units;

	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	units = (int)(frac * w * 8 + 0.5);
	for (int i = 0; i < w; i++) {
		int u = units - 8 * i;
		wchar_t ch;

		if (u >= 8)
			ch = g->utf8 ? 0x2588 : '#';
		else if (u <= 0)
			ch = ' ';
		else
			ch = g->utf8 ? eighths[u] : (u >= 4 ? '#' : ' ');
		grid_set(g, y, x + i, ch, st);
	}
}

/* Append the UTF-8 encoding of CH. */
static size_t grid_utf8(wchar_t ch, char *out)
{
	uint32_t c = (uint32_t)ch;

	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	out[0] = (char)(0xE0 | c >> 12);
	out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[2] = (char)(0x80 | (c & 0x3F));
	return 3;
}

char *grid_text(const struct grid *g)
{
	char *out = xmalloc((size_t)g->w * (size_t)g->h * 3 + (size_t)g->h + 1);
	size_t len = 0;

	for (int y = 0; y < g->h; y++) {
		size_t end = len;

		for (int x = 0; x < g->w; x++) {
			wchar_t ch = g->cells[y * g->w + x].ch;

			len += grid_utf8(ch, out + len);
			if (ch != ' ')
				end = len;
		}
		len = end;
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}
