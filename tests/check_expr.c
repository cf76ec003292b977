/*
 * Tests for the formula compiler: precedence, functions, n/a propagation,
 * division by zero, and the error column of bad formulas.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check_main.h"
#include "expr.h"

static const char *const names[] = { "a", "b", "c", "x.y", "a[0]" };

static int lookup(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	for (int i = 0; i < 5; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

static double eval(const char *text, const double *vars)
{
	struct expr *x;
	char err[200];
	int col;
	double v;

	ck_assert_msg(expr_parse(text, lookup, NULL, &x, &col, err, sizeof(err)) == 0, "%s: %s",
		      text, err);
	v = expr_eval(x, vars);
	expr_free(x);
	return v;
}

START_TEST(arithmetic_follows_precedence)
{
	const double v[5] = { 2, 3, 4, 10, 0 };

	ck_assert_double_eq(eval("1 + 2 * 3", v), 7);
	ck_assert_double_eq(eval("(1 + 2) * 3", v), 9);
	ck_assert_double_eq(eval("100 * a / b", v), 200.0 / 3);
	ck_assert_double_eq(eval("a - b - c", v), -5);
	ck_assert_double_eq(eval("c / a / a", v), 1);
	ck_assert_double_eq(eval("-a * -b", v), 6);
	ck_assert_double_eq(eval("1e9 * x.y", v), 1e10);
	ck_assert_double_eq(eval("min(a, b, c) + max(a, c)", v), 6);
	ck_assert_double_eq(eval(" .5*c ", v), 2);
}
END_TEST

START_TEST(nan_and_division_by_zero)
{
	const double v[5] = { 0, NAN, 4, 0, 0 };

	ck_assert(isnan(eval("c / a", v)));
	ck_assert(isnan(eval("b + 1", v)));
	ck_assert(isnan(eval("max(b, c)", v)));
	ck_assert(isnan(eval("min(c, b)", v)));
	ck_assert_double_eq(eval("a / c", v), 0);
}
END_TEST

/*
 * Intel's perfmon formulas: comparisons, '&' '|' '&&' '||' below them (as
 * the kernel perf tool reads the same files), Python's 'X if C else Y'.
 */
START_TEST(the_vendors_language_conditions_and_logic)
{
	const double v[5] = { 2, 3, 0, 10, 7 };

	ck_assert_double_eq(eval("a < b", v), 1);
	ck_assert_double_eq(eval("a >= b", v), 0);
	ck_assert_double_eq(eval("a + 1 == b", v), 1);
	ck_assert_double_eq(eval("a != a", v), 0);
	ck_assert_double_eq(eval("a <= 2", v), 1);
	ck_assert_double_eq(eval("( a > 1 ) & ( b > 5 )", v), 0);
	ck_assert_double_eq(eval("a > 1 && b > 2", v), 1);
	ck_assert_double_eq(eval("a > 5 | b > 2", v), 1);
	ck_assert_double_eq(eval("a > 5 || c", v), 0);
	ck_assert_double_eq(eval("a > 1 & b > 2 | c", v), 1);
	ck_assert_double_eq(eval("a if c else b", v), 3);
	ck_assert_double_eq(eval("a if b else c", v), 2);
	ck_assert_double_eq(eval("1 + a if a > b else 1 + b", v), 4);
	ck_assert_double_eq(eval("a if c else b if c else x.y", v), 10);
	ck_assert_double_eq(eval("min( a if b else c , 1 )", v), 1);
	ck_assert_double_eq(eval("a[0] * 2", v), 14);
	ck_assert_double_eq_tol(eval("100 * ( a / ( b + c ) ) if a > 0 else 0", v), 200.0 / 3, 1e-12);
}
END_TEST

/* n/a with its cause: a branch not taken is no cause, a NaN condition is. */
START_TEST(na_keeps_its_cause)
{
	const double v[5] = { 2, NAN, 0, 10, 7 };
	struct expr *x;
	char err[200];
	int col, why;

	ck_assert_double_eq(eval("a if x.y else a / c", v), 2);
	ck_assert_double_eq(eval("b if c else a", v), 2);
	ck_assert(isnan(eval("a if b else c", v)));
	ck_assert(isnan(eval("b > 1", v)));
	ck_assert(isnan(eval("a > 1 & b", v)));
	ck_assert_int_eq(expr_parse("a + b * 2", lookup, NULL, &x, &col, err, sizeof(err)), 0);
	ck_assert(isnan(expr_eval_why(x, v, &why)));
	ck_assert_int_eq(why, 1);
	expr_free(x);
	ck_assert_int_eq(expr_parse("max(a / c, 1) + a", lookup, NULL, &x, &col, err,
				    sizeof(err)), 0);
	ck_assert(isnan(expr_eval_why(x, v, &why)));
	ck_assert_int_eq(why, EXPR_WHY_DIV0);
	expr_free(x);
	ck_assert_int_eq(expr_parse("a / c if c else x.y", lookup, NULL, &x, &col, err,
				    sizeof(err)), 0);
	ck_assert_double_eq(expr_eval_why(x, v, &why), 10);
	ck_assert_int_eq(why, EXPR_WHY_NONE);
	expr_free(x);
}
END_TEST

/*
 * 0 / 0 is a share of nothing: n/a alone, but nothing times it is nothing
 * (Intel's forwarded L3 hits weighed by the share of them that hit a
 * modified line, with no such hits); a count divided by 0, an n/a count, or
 * a share of nothing times something stay n/a.
 */
START_TEST(nothing_times_a_share_of_nothing_is_nothing)
{
	const double v[5] = { 0, NAN, 4, 0, 5 };
	struct expr *x;
	char err[200];
	int col, why;

	ck_assert(isnan(eval("a / x.y", v)));
	ck_assert_double_eq(eval("a * ( a / x.y )", v), 0);
	ck_assert_double_eq(eval("( x.y / a ) * a + c", v), 4);
	ck_assert_double_eq(eval("100 * ( c + a * ( 1 + a / x.y ) ) / a[0]", v), 80);
	ck_assert_double_eq(eval("a * max( a / x.y , 1 )", v), 0);
	ck_assert(isnan(eval("c * ( a / x.y )", v)));
	ck_assert(isnan(eval("a * ( c / a )", v)));
	ck_assert(isnan(eval("a * ( a / x.y + b )", v)));
	ck_assert(isnan(eval("a * ( b + a / x.y )", v)));
	/* n/a alone, it is still a division by zero to explain */
	ck_assert_int_eq(expr_parse("c + a / x.y", lookup, NULL, &x, &col, err, sizeof(err)), 0);
	ck_assert(isnan(expr_eval_why(x, v, &why)));
	ck_assert_int_eq(why, EXPR_WHY_DIV0);
	expr_free(x);
}
END_TEST

/* Which variables a value needs when some are known constants: the branch not taken is out. */
START_TEST(needed_variables_follow_the_branch_taken)
{
	struct expr *x;
	char err[200];
	int col;
	bool needed[5];
	double known[5] = { NAN, NAN, NAN, NAN, NAN };

	ck_assert_int_eq(expr_parse("a / 2 if x.y else b * c", lookup, NULL, &x, &col, err,
				    sizeof(err)), 0);
	memset(needed, 0, sizeof(needed));
	expr_needed(x, known, needed);
	ck_assert(needed[0] && needed[1] && needed[2] && needed[3]);
	known[3] = 1; /* x.y: a constant, true */
	memset(needed, 0, sizeof(needed));
	expr_needed(x, known, needed);
	ck_assert(needed[0] && !needed[1] && !needed[2] && !needed[3]);
	known[3] = 0;
	memset(needed, 0, sizeof(needed));
	expr_needed(x, known, needed);
	ck_assert(!needed[0] && needed[1] && needed[2]);
	expr_free(x);
	/* a condition over a folded constant expression; one over a variable keeps both */
	ck_assert_int_eq(expr_parse("a if (x.y * 2 > 1) else max(b, -c)", lookup, NULL, &x, &col,
				    err, sizeof(err)), 0);
	known[3] = 1;
	memset(needed, 0, sizeof(needed));
	expr_needed(x, known, needed);
	ck_assert(needed[0] && !needed[1] && !needed[2]);
	expr_free(x);
	ck_assert_int_eq(expr_parse("a if b > 1 else c", lookup, NULL, &x, &col, err,
				    sizeof(err)), 0);
	memset(needed, 0, sizeof(needed));
	expr_needed(x, known, needed);
	ck_assert(needed[0] && needed[1] && needed[2]);
	expr_free(x);
}
END_TEST

START_TEST(variables_are_listed_once)
{
	struct expr *x;
	const int *vars;
	int n, col;
	char err[200];

	ck_assert_int_eq(expr_parse("a * a + c / a", lookup, NULL, &x, &col, err, sizeof(err)), 0);
	expr_vars(x, &vars, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(vars[0], 0);
	ck_assert_int_eq(vars[1], 2);
	expr_free(x);
}
END_TEST

static const struct {
	const char *text;
	int col;
	const char *msg;
} bad[] = {
	{ "", 0, "a number, a name or '(' before the end" },
	{ "a +", 3, "a number, a name or '(' before the end" },
	{ "a b", 2, "an operator (+ - * / < > & | if) or the end of the formula" },
	{ "(a + b", 6, "')'" },
	{ "a + zz", 4, "a known name: 'zz' is not an event, metric or built-in" },
	{ "sqrt(a)", 0, "a function name (min or max), not 'sqrt'" },
	{ "min(a; b)", 5, "',' or ')' in the arguments of min()" },
	{ "3x", 1, "an operator after the number" },
	{ "a * * b", 4, "a number, a name or '('" },
	{ "a ) ", 2, "an operator (+ - * / < > & | if) or the end of the formula" },
	{ "a if b", 6, "'else' after the condition of the 'if' at column 3" },
	{ "a < b < c", 6, "parentheses around a comparison before another one" },
	{ "if a else b", 0, "a number, a name or '(' before 'if'" },
	{ "a[x]", 2, "an instance number and ']' after 'a['" },
	{ "b[0]", 0, "a known name: 'b[0]' is not an event, metric or built-in" },
};

START_TEST(bad_formulas_name_the_column)
{
	struct expr *x;
	char err[200];
	int col = -1;

	ck_assert_int_eq(expr_parse(bad[_i].text, lookup, NULL, &x, &col, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(x);
	ck_assert_str_eq(err, bad[_i].msg);
	ck_assert_int_eq(col, bad[_i].col);
}
END_TEST

/* TEXT: OPEN N times, then "a", then CLOSE N times. */
static void nested(char *text, size_t len, const char *open, const char *close, int n)
{
	size_t k = 0;

	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(text + k, len - k, "%s", open);
	k += (size_t)snprintf(text + k, len - k, "a");
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(text + k, len - k, "%s", close);
}

/*
 * Both bounds, both sides: a formula that keeps 32 values pending (a + (a +
 * ... 31 deep) is computed, 33 are refused; parentheses 64 deep are
 * computed, 65 refused; never a stack overflow.
 */
START_TEST(deep_nesting_is_refused_not_overflowed)
{
	char text[600];
	double vars[5] = { [0] = 1 };
	struct expr *x;
	char err[200];
	int col;

	/* a + (a + (a + ... : one pending value per level */
	nested(text, sizeof(text), "a+(", ")", 31);
	ck_assert_msg(expr_parse(text, lookup, NULL, &x, &col, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq(expr_eval(x, vars), 32);
	expr_free(x);
	nested(text, sizeof(text), "a+(", ")", 32);
	ck_assert_int_eq(expr_parse(text, lookup, NULL, &x, &col, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "a simpler formula (more than 32 pending values)"), "%s", err);
	/* parentheses alone keep one value pending: only the nesting bounds them */
	nested(text, sizeof(text), "(", ")", 64);
	ck_assert_msg(expr_parse(text, lookup, NULL, &x, &col, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq(expr_eval(x, vars), 1);
	expr_free(x);
	nested(text, sizeof(text), "(", ")", 65);
	ck_assert_int_eq(expr_parse(text, lookup, NULL, &x, &col, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "a formula nested at most 64 deep"), "%s", err);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("bad_formulas_name_the_column");

	CHECK_ADD(s, arithmetic_follows_precedence);
	CHECK_ADD(s, the_vendors_language_conditions_and_logic);
	CHECK_ADD(s, na_keeps_its_cause);
	CHECK_ADD(s, nothing_times_a_share_of_nothing_is_nothing);
	CHECK_ADD(s, needed_variables_follow_the_branch_taken);
	CHECK_ADD(s, nan_and_division_by_zero);
	CHECK_ADD(s, variables_are_listed_once);
	tcase_add_loop_test(tc, bad_formulas_name_the_column, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, tc);
	CHECK_ADD(s, deep_nesting_is_refused_not_overflowed);
	return s;
}

CHECK_MAIN(expr_suite)
