/*
 * expr_eval: the evaluator of a compiled formula (expr.c compiles it): its
 * value with each n/a's cause, and the variables a value needs when some are
 * known constants.  No allocation; the stack's depth is the compiler's bound.
 */
#include "expr_int.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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
 * 0 / 0: a share of nothing, n/a by itself, but a finite number whatever it
 * is, so that nothing times it is nothing.  Intel's formulas weigh a count
 * by a share of two others (a forwarded L3 hit by the share of them that
 * hit a modified line): with no such hits both are 0, and the Bottleneck
 * metric that adds the term up is the rest's, not n/a.  (toplev answers a
 * division by zero with 0 for the whole metric; a 0 / 0 anywhere else, or a
 * division of a count by 0, stays n/a here.)  Only within expr_eval_why.
 */
#define EXPR_WHY_SHARE0 (-3)

/*
 * The stack carries each value's cause of n/a beside it (EXPR_WHY_*, or the
 * variable); a NaN keeps the first cause of its operands, a cause other than
 * a share of nothing before one that is.
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
			/* nothing times a share of nothing (0 x (0 / 0), and what adds it up): 0 */
			if (in->op == EXPR_MUL && ((isnan(a) && ca == EXPR_WHY_SHARE0 && b == 0) ||
						   (isnan(b) && cb == EXPR_WHY_SHARE0 && a == 0))) {
				st[sp - 1] = 0;
				cause[sp - 1] = EXPR_WHY_NONE;
				break;
			}
			if (isnan(a) || isnan(b)) {
				st[sp - 1] = NAN;
				cause[sp - 1] = !isnan(a) ? cb : !isnan(b) ? ca
						: ca == EXPR_WHY_SHARE0 ? cb : ca;
				break;
			}
			st[sp - 1] = expr_binary(in->op, a, b);
			cause[sp - 1] = !isnan(st[sp - 1]) ? EXPR_WHY_NONE
					: in->op == EXPR_DIV && a == 0 ? EXPR_WHY_SHARE0 : EXPR_WHY_DIV0;
			break;
		}
	}
	if (sp != 1) {
		if (why)
			*why = EXPR_WHY_NONE;
		return NAN;
	}
	if (why)
		*why = !isnan(st[0]) ? EXPR_WHY_NONE : cause[0] == EXPR_WHY_SHARE0 ? EXPR_WHY_DIV0
		       : cause[0];
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
