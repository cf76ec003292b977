/*
 * expr: recursive-descent compiler to a postfix program (expr_int.h); its
 * evaluator is expr_eval.c.  The program's stack depth is bounded at compile
 * time (EXPR_MAX_DEPTH), so evaluation needs no allocation and cannot overflow.
 */
#include "expr_int.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expr_parser {
	const char *text, *p;
	expr_lookup_fn lookup;
	void *ctx;
	struct expr *x;
	int cap, depth, max_depth;
	int nest;
	int failed;
	int errcol;
	char *err;
	size_t errlen;
};

static void expr_fail(struct expr_parser *ps, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void expr_fail(struct expr_parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	ps->errcol = (int)(at - ps->text);
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
}

static void expr_skip(struct expr_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

/* Append one instruction; DELTA is its effect on the stack depth. */
static void expr_emit(struct expr_parser *ps, enum expr_op op, double num, int arg, int delta)
{
	struct expr *x = ps->x;

	if (x->ncode == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 16;
		x->code = xrealloc(x->code, (size_t)ps->cap, sizeof(*x->code));
	}
	x->code[x->ncode++] = (struct expr_insn){ .op = op, .num = num, .arg = arg };
	ps->depth += delta;
	if (ps->depth > ps->max_depth)
		ps->max_depth = ps->depth;
	if (ps->depth > EXPR_MAX_DEPTH)
		expr_fail(ps, ps->p, "a simpler formula (more than %d pending values)",
			  EXPR_MAX_DEPTH);
}

static void expr_note_var(struct expr *x, int v)
{
	for (int i = 0; i < x->nvars; i++)
		if (x->vars[i] == v)
			return;
	x->vars = xrealloc(x->vars, (size_t)x->nvars + 1, sizeof(*x->vars));
	x->vars[x->nvars++] = v;
}

static void expr_cond(struct expr_parser *ps);

/* One level deeper at AT; false (and the error) past EXPR_MAX_NEST. */
static bool expr_enter(struct expr_parser *ps, const char *at)
{
	if (++ps->nest <= EXPR_MAX_NEST)
		return true;
	expr_fail(ps, at, "a formula nested at most %d deep (parentheses, calls and signs)",
		  EXPR_MAX_NEST);
	return false;
}

static void expr_call(struct expr_parser *ps, const char *name, size_t len)
{
	enum expr_op op = len == 3 && !strncmp(name, "min", 3) ? EXPR_MIN : EXPR_MAX;
	int nargs = 0;

	if (!(len == 3 && (!strncmp(name, "min", 3) || !strncmp(name, "max", 3)))) {
		expr_fail(ps, name, "a function name (min or max), not '%.*s'", (int)len, name);
		return;
	}
	if (!expr_enter(ps, name))
		return;
	ps->p++; /* '(' */
	for (;;) {
		expr_cond(ps);
		if (ps->failed)
			return;
		nargs++;
		expr_skip(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p != ')') {
			expr_fail(ps, ps->p, "',' or ')' in the arguments of %.*s()", (int)len, name);
			return;
		}
		ps->p++;
		break;
	}
	ps->nest--;
	if (nargs > EXPR_MAX_ARGS) {
		expr_fail(ps, name, "at most %d arguments to %.*s()", EXPR_MAX_ARGS, (int)len, name);
		return;
	}
	expr_emit(ps, op, 0, nargs, 1 - nargs);
}

/* Whether [S, E) is the word W. */
static bool expr_word(const char *s, const char *e, const char *w)
{
	return (size_t)(e - s) == strlen(w) && !strncmp(s, w, (size_t)(e - s));
}

/* Whether the word W starts at P (and no name goes on after it). */
static bool expr_at_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && !isalnum((unsigned char)p[n]) && p[n] != '_' && p[n] != '.';
}

static void expr_atom(struct expr_parser *ps)
{
	const char *s;

	expr_skip(ps);
	s = ps->p;
	if (*s == '(') {
		if (!expr_enter(ps, s))
			return;
		ps->p++;
		expr_cond(ps);
		if (ps->failed)
			return;
		expr_skip(ps);
		if (*ps->p != ')')
			expr_fail(ps, ps->p, "')'");
		else
			ps->p++;
		ps->nest--;
		return;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		char *end;
		double v = strtod(s, &end);

		if (isalpha((unsigned char)*end) || *end == '_') {
			expr_fail(ps, end, "an operator after the number");
			return;
		}
		ps->p = end;
		expr_emit(ps, EXPR_NUM, v, 0, 1);
		return;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		const char *e = s;
		int v;

		while (isalnum((unsigned char)*e) || *e == '_' || *e == '.')
			e++;
		if (expr_word(s, e, "if") || expr_word(s, e, "else")) {
			expr_fail(ps, s, "a number, a name or '(' before '%.*s'", (int)(e - s), s);
			return;
		}
		ps->p = e;
		expr_skip(ps);
		if (*ps->p == '(') {
			expr_call(ps, s, (size_t)(e - s));
			return;
		}
		if (*e == '[') { /* NAME[N]: an instance, looked up with its brackets */
			const char *d = e + 1;

			while (isdigit((unsigned char)*d))
				d++;
			if (d == e + 1 || *d != ']') {
				expr_fail(ps, d, "an instance number and ']' after '%.*s['", (int)(e - s),
					  s);
				return;
			}
			e = d + 1;
			ps->p = e;
		}
		v = ps->lookup(ps->ctx, s, (size_t)(e - s));
		if (v < 0) {
			expr_fail(ps, s, "a known name: '%.*s' is not an event, metric or built-in",
				  (int)(e - s), s);
			return;
		}
		expr_note_var(ps->x, v);
		expr_emit(ps, EXPR_VAR, 0, v, 1);
		return;
	}
	expr_fail(ps, s, *s ? "a number, a name or '('" : "a number, a name or '(' before the end");
}

static void expr_unary(struct expr_parser *ps)
{
	expr_skip(ps);
	if (*ps->p == '-') {
		if (!expr_enter(ps, ps->p))
			return;
		ps->p++;
		expr_unary(ps);
		ps->nest--;
		if (!ps->failed)
			expr_emit(ps, EXPR_NEG, 0, 0, 0);
		return;
	}
	expr_atom(ps);
}

/* One left-associative level: NEXT (OP NEXT)*, with OPS[0]/OPS[1] the two operators. */
static void expr_level(struct expr_parser *ps, void (*next)(struct expr_parser *ps),
		       const char ops[2], const enum expr_op codes[2])
{
	next(ps);
	for (;;) {
		char c;

		if (ps->failed)
			return;
		expr_skip(ps);
		c = *ps->p;
		if (c != ops[0] && c != ops[1])
			return;
		ps->p++;
		next(ps);
		expr_emit(ps, c == ops[0] ? codes[0] : codes[1], 0, 0, -1);
	}
}

static void expr_product(struct expr_parser *ps)
{
	static const enum expr_op codes[2] = { EXPR_MUL, EXPR_DIV };

	expr_level(ps, expr_unary, "*/", codes);
}

static void expr_sum(struct expr_parser *ps)
{
	static const enum expr_op codes[2] = { EXPR_ADD, EXPR_SUB };

	expr_level(ps, expr_product, "+-", codes);
}

/* compare := sum (OP sum)?: one comparison; a second needs parentheses */
static void expr_compare(struct expr_parser *ps)
{
	static const struct { const char *op; enum expr_op code; } ops[] = {
		{ "<=", EXPR_LE }, { ">=", EXPR_GE }, { "==", EXPR_EQ }, { "!=", EXPR_NE },
		{ "<", EXPR_LT }, { ">", EXPR_GT },
	};

	expr_sum(ps);
	if (ps->failed)
		return;
	expr_skip(ps);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].op);

		if (strncmp(ps->p, ops[i].op, n))
			continue;
		ps->p += n;
		expr_sum(ps);
		if (ps->failed)
			return;
		expr_emit(ps, ops[i].code, 0, 0, -1);
		expr_skip(ps);
		if (*ps->p == '<' || *ps->p == '>' || !strncmp(ps->p, "==", 2) ||
		    !strncmp(ps->p, "!=", 2))
			expr_fail(ps, ps->p, "parentheses around a comparison before another one");
		return;
	}
}

/* One logical level: NEXT (C | CC NEXT)*, e.g. '&' or "&&". */
static void expr_logic(struct expr_parser *ps, void (*next)(struct expr_parser *ps), char c,
		       enum expr_op code)
{
	next(ps);
	for (;;) {
		if (ps->failed)
			return;
		expr_skip(ps);
		if (*ps->p != c)
			return;
		ps->p += ps->p[1] == c ? 2 : 1;
		next(ps);
		expr_emit(ps, code, 0, 0, -1);
	}
}

static void expr_and(struct expr_parser *ps)
{
	expr_logic(ps, expr_compare, '&', EXPR_AND);
}

static void expr_or(struct expr_parser *ps)
{
	expr_logic(ps, expr_and, '|', EXPR_OR);
}

/* cond := or ('if' or 'else' cond)?: X, C, Y, then the choice */
static void expr_cond(struct expr_parser *ps)
{
	const char *at;

	expr_or(ps);
	if (ps->failed)
		return;
	expr_skip(ps);
	if (!expr_at_word(ps->p, "if"))
		return;
	at = ps->p;
	if (!expr_enter(ps, at))
		return;
	ps->p += 2;
	expr_or(ps);
	if (ps->failed)
		return;
	expr_skip(ps);
	if (!expr_at_word(ps->p, "else")) {
		expr_fail(ps, ps->p, "'else' after the condition of the 'if' at column %d",
			  (int)(at - ps->text) + 1);
		return;
	}
	ps->p += 4;
	expr_cond(ps);
	ps->nest--;
	if (!ps->failed)
		expr_emit(ps, EXPR_SEL, 0, 0, -2);
}

int expr_parse(const char *text, expr_lookup_fn lookup, void *ctx, struct expr **out, int *errcol,
	       char *err, size_t errlen)
{
	struct expr_parser ps = {
		.text = text, .p = text, .lookup = lookup, .ctx = ctx, .err = err, .errlen = errlen,
	};

	ps.x = xcalloc(1, sizeof(*ps.x));
	expr_cond(&ps);
	if (!ps.failed)
		expr_skip(&ps);
	if (!ps.failed && *ps.p)
		expr_fail(&ps, ps.p, "an operator (+ - * / < > & | if) or the end of the formula");
	if (ps.failed) {
		*errcol = ps.errcol;
		expr_free(ps.x);
		*out = NULL;
		return -EINVAL;
	}
	*out = ps.x;
	return 0;
}

void expr_vars(const struct expr *x, const int **vars, int *nvars)
{
	*vars = x->vars;
	*nvars = x->nvars;
}

void expr_remap(struct expr *x, int (*fn)(void *ctx, int var), void *ctx)
{
	for (int i = 0; i < x->ncode; i++)
		if (x->code[i].op == EXPR_VAR)
			x->code[i].arg = fn(ctx, x->code[i].arg);
	for (int i = 0; i < x->nvars; i++)
		x->vars[i] = fn(ctx, x->vars[i]);
}

void expr_free(struct expr *x)
{
	if (!x)
		return;
	free(x->code);
	free(x->vars);
	free(x);
}
