/*
 * expr: the metric formulas of layout files.
 *
 * Grammar (whitespace anywhere between tokens), the layouts' and Intel's
 * perfmon metric language (its formulas use all of it):
 *   cond    := or ('if' or 'else' cond)?          Python's conditional
 *   or      := and (('|' | '||') and)*
 *   and     := compare (('&' | '&&') compare)*
 *   compare := sum (('<' | '>' | '<=' | '>=' | '==' | '!=') sum)?
 *   sum     := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := '-' unary | atom
 *   atom    := NUMBER | NAME | NAME '[' DIGITS ']' | NAME '(' cond (',' cond)* ')'
 *            | '(' cond ')'
 * NAME is [A-Za-z_][A-Za-z0-9_.]*; the functions are min and max; 'if' and
 * 'else' are words of the language.  '&' and '|' are logical and bind below
 * the comparisons, as in C and in the kernel perf tool's reading of the same
 * data (the vendor writes them between parenthesised comparisons).  A
 * comparison is 1 or 0; a value is true when it is not 0.  NAME[N] is
 * instance N of NAME (e.g. a[0], the first socket's box), passed to the
 * lookup with its brackets.
 * A name is resolved at parse time through a callback into a variable index,
 * so evaluation is a walk over a small array without any string work.
 *
 * Arithmetic follows the "n/a, never 0" rule: x / 0 is NaN, and NaN
 * propagates through every operator, min/max, comparisons and the
 * condition of 'if'; the branch not taken does not matter.
 *
 * Compiled once (main thread), then immutable: any thread may evaluate.
 */
#ifndef PMUTOP_EXPR_H
#define PMUTOP_EXPR_H

#include <stdbool.h>
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

/* Why a value is n/a: a division by zero, or a variable that is n/a. */
#define EXPR_WHY_NONE (-1)
#define EXPR_WHY_DIV0 (-2)

/*
 * As expr_eval; when the value is NaN, *WHY is EXPR_WHY_DIV0 or the index of
 * the n/a variable it came from (the first one met), else EXPR_WHY_NONE.
 */
double expr_eval_why(const struct expr *x, const double *vars, int *why);

/*
 * Mark in NEEDED (indexed by variable) the variables X's value can depend on
 * when each variable v with KNOWN[v] not NaN is that constant (KNOWN may be
 * NULL): a branch of 'if' whose condition is constant and not taken is left
 * out, e.g. "A if HYPERTHREADING_ON else B" needs A or B, not both.
 */
void expr_needed(const struct expr *x, const double *known, bool *needed);

/* Variables X reads: *VARS points at NVARS distinct indexes (owned by X). */
void expr_vars(const struct expr *x, const int **vars, int *nvars);

/* Renumber every variable V of X to FN(CTX, V). */
void expr_remap(struct expr *x, int (*fn)(void *ctx, int var), void *ctx);

void expr_free(struct expr *x);

#endif
