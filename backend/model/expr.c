/*
 * expr: recursive-descent compiler to a postfix program, and its evaluator.
 * The program's stack depth is bounded at compile time (EXPR_MAX_DEPTH), so
 * evaluation needs no allocation and cannot overflow.
 */
#include "expr.h"
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

#define EXPR_MAX_DEPTH 32
#define EXPR_MAX_ARGS 16
/* nested parentheses, calls and signs: the parser recurses once per level */
#define EXPR_MAX_NEST 64

enum expr_op {
	EXPR_NUM, EXPR_VAR, EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_DIV, EXPR_NEG, EXPR_MIN, EXPR_MAX,
	EXPR_LT, EXPR_GT, EXPR_LE, EXPR_GE, EXPR_EQ, EXPR_NE, EXPR_AND, EXPR_OR, EXPR_SEL,
};

struct expr_insn {
	enum expr_op op;
	double num;  /* EXPR_NUM */
	int arg;     /* EXPR_VAR: variable index; EXPR_MIN/MAX: argument count */
};

struct expr {
	struct expr_insn *code;
	int ncode;
	int *vars;
	int nvars;
};

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

/* A binary operator's value over A and B (neither NaN). */
static double expr_binary(enum expr_op op, double a, double b)
{
	switch (op) {
	case EXPR_ADD: return a + b;
	case EXPR_SUB: return a - b;
	case EXPR_MUL: return a * b;
	case EXPR_DIV: return b == 0 ? NAN : a / b;
	case EXPR_LT: return a < b;
	case EXPR_GT: return a > b;
	case EXPR_LE: return a <= b;
	case EXPR_GE: return a >= b;
	case EXPR_EQ: return a == b;
	case EXPR_NE: return a != b;
	case EXPR_AND: return a != 0 && b != 0;
	case EXPR_OR: return a != 0 || b != 0;
	default: return NAN;
	}
}

/*
 * The stack carries each value's cause of n/a beside it (EXPR_WHY_*, or the
 * variable); a NaN keeps the first cause of its operands.
 */
double expr_eval_why(const struct expr *x, const double *vars, int *why)
{
	double st[EXPR_MAX_DEPTH + 1];
	int cause[EXPR_MAX_DEPTH + 1];
	int sp = 0;

	for (int i = 0; i < x->ncode; i++) {
		const struct expr_insn *in = &x->code[i];
		double a, b;
		int ca, cb;

		switch (in->op) {
		case EXPR_NUM:
			cause[sp] = EXPR_WHY_NONE;
			st[sp++] = in->num;
			break;
		case EXPR_VAR:
			st[sp] = vars[in->arg];
			cause[sp] = isnan(st[sp]) ? in->arg : EXPR_WHY_NONE;
			sp++;
			break;
		case EXPR_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		case EXPR_MIN:
		case EXPR_MAX:
			a = st[sp - in->arg];
			ca = cause[sp - in->arg];
			for (int k = sp - in->arg + 1; k < sp && !isnan(a); k++) {
				if (isnan(st[k])) {
					a = NAN;
					ca = cause[k];
				} else if (in->op == EXPR_MIN ? st[k] < a : st[k] > a) {
					a = st[k];
				}
			}
			sp -= in->arg;
			cause[sp] = isnan(a) ? ca : EXPR_WHY_NONE;
			st[sp++] = a;
			break;
		case EXPR_SEL: /* X C Y: C ? X : Y; the branch not taken does not matter */
			b = st[sp - 2];
			cb = cause[sp - 2];
			sp -= 2;
			if (isnan(b)) {
				st[sp - 1] = NAN;
				cause[sp - 1] = cb;
			} else if (b == 0) {
				st[sp - 1] = st[sp + 1];
				cause[sp - 1] = cause[sp + 1];
			}
			break;
		default:
			b = st[--sp];
			cb = cause[sp];
			a = st[sp - 1];
			ca = cause[sp - 1];
			if (isnan(a) || isnan(b)) {
				st[sp - 1] = NAN;
				cause[sp - 1] = isnan(a) ? ca : cb;
				break;
			}
			st[sp - 1] = expr_binary(in->op, a, b);
			cause[sp - 1] = isnan(st[sp - 1]) ? EXPR_WHY_DIV0 : EXPR_WHY_NONE;
			break;
		}
	}
	if (sp != 1) {
		if (why)
			*why = EXPR_WHY_NONE;
		return NAN;
	}
	if (why)
		*why = isnan(st[0]) ? cause[0] : EXPR_WHY_NONE;
	return st[0];
}

double expr_eval(const struct expr *x, const double *vars)
{
	return expr_eval_why(x, vars, NULL);
}

/*
 * The variables a value can depend on, when the ones in KNOWN are constants:
 * the stack carries, per value, whether it is known and which of X's
 * variables (bit i: x->vars[i]) it depends on; a choice on a known
 * condition keeps its taken branch's only.
 */
void expr_needed(const struct expr *x, const double *known, bool *needed)
{
	enum { W = 4 }; /* 256 variables a formula: more are all needed */
	struct { bool k; double v; uint64_t set[W]; } st[EXPR_MAX_DEPTH + 1];
	int sp = 0;

	if (x->nvars > 64 * W) {
		for (int i = 0; i < x->nvars; i++)
			needed[x->vars[i]] = true;
		return;
	}
	for (int i = 0; i < x->ncode; i++) {
		const struct expr_insn *in = &x->code[i];
		int pop = in->op == EXPR_NUM || in->op == EXPR_VAR ? 0
			  : in->op == EXPR_NEG ? 1 : in->op == EXPR_SEL ? 3
			  : in->op == EXPR_MIN || in->op == EXPR_MAX ? in->arg : 2;
		int base = sp - pop;
		bool k = true;
		uint64_t set[W] = { 0 };
		double v = NAN;

		if (in->op == EXPR_SEL && st[base + 1].k) { /* X C Y: only the branch taken */
			const int pick = st[base + 1].v != 0 ? base : base + 2;

			st[base] = st[pick];
			sp = base + 1;
			continue;
		}
		for (int j = base; j < sp; j++) {
			k &= st[j].k;
			for (int w = 0; w < W; w++)
				set[w] |= st[j].set[w];
		}
		if (in->op == EXPR_VAR) {
			int local = 0;

			while (x->vars[local] != in->arg)
				local++;
			k = known && !isnan(known[in->arg]);
			v = k ? known[in->arg] : NAN;
			if (!k)
				set[local / 64] |= 1ull << (local % 64);
		} else if (in->op == EXPR_NUM) {
			v = in->num;
		} else if (k && in->op == EXPR_NEG) {
			v = -st[base].v;
		} else if (k && (in->op == EXPR_MIN || in->op == EXPR_MAX)) {
			v = st[base].v;
			for (int j = base + 1; j < sp; j++)
				v = in->op == EXPR_MIN ? fmin(v, st[j].v) : fmax(v, st[j].v);
		} else if (k) { /* constant folding of a binary operator */
			v = expr_binary(in->op, st[base].v, st[base + 1].v);
		}
		st[base].k = k;
		st[base].v = v;
		memcpy(st[base].set, set, sizeof(set));
		sp = base + 1;
	}
	for (int i = 0; i < x->nvars && sp == 1; i++)
		if (st[0].set[i / 64] & (1ull << (i % 64)))
			needed[x->vars[i]] = true;
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
