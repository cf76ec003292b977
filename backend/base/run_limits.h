/*
 * run_limits: the bounds a user may set on a run, defined once here for the
 * engine that enforces them and the front ends that offer them (options,
 * settings, keys, help).
 */
#ifndef PMUTOP_RUN_LIMITS_H
#define PMUTOP_RUN_LIMITS_H

/* The interval's bounds. */
#define ENGINE_INTERVAL_MIN 0.1
#define ENGINE_INTERVAL_MAX 60.0
#define ENGINE_INTERVAL_RANGE_TEXT "0.1 to 60" /* for help texts, the same two numbers */

/* The rotation slice (--mux-ms) the user may ask for. */
#define ENGINE_MUX_MIN_S 0.001
#define ENGINE_MUX_MAX_S 1.0
#define ENGINE_MUX_MS_TEXT "1 to 1000 (default 2)" /* for help texts, the same numbers in ms */

#endif
