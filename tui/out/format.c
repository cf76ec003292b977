/*
 * format: a figure as people read it, the screen's and the text output's
 * one format (format.h).  Pure: any thread.
 */
#include "format.h"

#include <math.h>
#include <stdio.h>

void format_figure(double value, char *buf, size_t len)
{
	static const char suffix[] = "kMGTPE";
	double a = fabs(value);

	if (isnan(value)) {
		snprintf(buf, len, "n/a");
	} else if (a >= 1e4) {
		int k = -1, d;

		while (a >= 1e3 && k < 5) {
			a /= 1e3;
			value /= 1e3;
			k++;
		}
		/* the suffix and the decimals after rounding: 999.6k is 1.00M, not 1000k */
		d = a >= 100 ? 0 : a >= 10 ? 1 : 2;
		if (round(a * pow(10, d)) >= 1000 * pow(10, d) && k < 5) {
			a /= 1e3;
			value /= 1e3;
			k++;
			d = 2;
		}
		/* three significant digits: 9.996 is 10.0, 99.96 is 100 */
		if (d > 0 && round(a * pow(10, d)) >= 1000)
			d--;
		snprintf(buf, len, "%.*f%c", d, value, suffix[k]);
	} else if (a >= 100) {
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 99.995) { /* would print as 100.00: one decimal like the rest above 100 */
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 1 || a == 0) {
		snprintf(buf, len, "%.2f", value);
	} else {
		snprintf(buf, len, a >= 0.01 ? "%.3f" : "%.1e", value);
	}
}
