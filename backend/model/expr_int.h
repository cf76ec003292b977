/*
 * expr_int: the compiled program, shared by the compiler (expr.c) and the
 * evaluator (expr_eval.c): postfix instructions over a stack whose depth the
 * compiler bounds (EXPR_MAX_DEPTH).
 */
#ifndef PMUTOP_EXPR_INT_H
#define PMUTOP_EXPR_INT_H

#include "expr.h"

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

#endif
