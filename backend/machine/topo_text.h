/*
 * topo_text: the compact text form of a topology (pmutop --topology-only).
 *
 * One header line, then per socket one line (CPUs, NUMA nodes with memory,
 * L3) and its cores packed several to a line.  Sockets with many cores print
 * runs of regularly numbered cores as ranges, so that a 1024-thread machine
 * stays readable.  Pure formatting: any thread may call it.
 */
#ifndef PMUTOP_TOPO_TEXT_H
#define PMUTOP_TOPO_TEXT_H

#include <stdio.h>

#include "topo.h"

/* Sockets with more cores than this print runs of cores as ranges. */
#define TOPO_TEXT_MAX_LISTED_CORES 8

/* Print T to OUT, wrapping core lists at WIDTH columns. */
void topo_text_print(const struct topo *t, FILE *out, int width);

/* "12.0 GiB", "8 MiB", "512 KiB", or "n/a" for TOPO_BYTES_UNKNOWN. */
void topo_text_bytes(uint64_t bytes, char *buf, size_t len);

#endif
