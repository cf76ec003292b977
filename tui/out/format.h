/*
 * format: a figure as people read it, in the screen's cells and the batch
 * text output alike.  Pure: any thread.
 */
#ifndef PMUTOP_FORMAT_H
#define PMUTOP_FORMAT_H

#include <stddef.h>

/*
 * VALUE in at most 7 columns: n/a for NaN, SI suffixes (k, M, G, T, P, E)
 * from 10000 up, more decimals for small numbers.
 */
void format_figure(double value, char *buf, size_t len);

#endif
