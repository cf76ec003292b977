/*
 * expr: the metric formulas of layout files.
 *
 * Grammar (whitespace anywhere between tokens):
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/') unary)*
 *   unary  := '-' unary | atom
 *   atom   := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 * NAME is [A-Za-z_][A-Za-z0-9_.]*; the functions are min and max.
 * A name is resolved at parse time through a callback into a variable index,
 * so evaluation is a walk over a small array without any string work.
 *
 * Arithmetic follows the "n/a, never 0" rule: x / 0 is NaN, and NaN
 * propagates through every operator and through min/max.
 *
 * Compiled once (main thread), then immutable: any thread may evaluate.
 */
#ifndef PMUTOP_EXPR_H
#define PMUTOP_EXPR_H

#include <stddef.h>

struct expr;

/*
 * Variable index of NAME (LEN bytes, not terminated), or -1 when the name
 * is unknown; CTX is passed through.
 */
typedef int (*expr_lookup_fn)(void *ctx, const char *name, size_t len);

/*
 * Compile TEXT.  0 and *OUT, or -EINVAL with *ERRCOL (0-based offset into
 * TEXT) and "expected ..." / "unknown name 'x'" in ERR.
 */
int expr_parse(const char *text, expr_lookup_fn lookup, void *ctx, struct expr **out, int *errcol,
	       char *err, size_t errlen);

/* The value with VARS[i] the value of variable i. */
double expr_eval(const struct expr *x, const double *vars);

/* Variables X reads: *VARS points at NVARS distinct indexes (owned by X). */
void expr_vars(const struct expr *x, const int **vars, int *nvars);

/* Renumber every variable V of X to FN(CTX, V). */
void expr_remap(struct expr *x, int (*fn)(void *ctx, int var), void *ctx);

void expr_free(struct expr *x);

#endif
