/*
 * imc_pane: the memory controllers: read and write bandwidth per channel
 * (or the controller's totals where a model counts no channel), drawn as
 * the uncore pane draws its figures (uncore_pane.c).
 */
#include "pane.h"

static int imc_pane_width(const struct view *v, const struct sample *s, int *fixed)
{
	return uncore_pane_width_any(v, s, true, fixed);
}

static int imc_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			 struct grid *g, struct view_frame *f)
{
	return uncore_pane_draw_any(v, s, y, h, g, f, true);
}

const struct pane imc_pane = {
	.name = "imc", .title = "IMC",
	.help = "read and write bandwidth per memory channel, and the socket totals",
	.draw = imc_pane_draw, .width = imc_pane_width,
};
