/* SPDX-License-Identifier: MIT */
/*
 * The Mann-Whitney U test and the Hodges-Lehmann shift with its CI (95 %,
 * and the wider levels a comparison of many points asks for) against
 * values worked out by hand (the arithmetic is in the comments), for
 * the exact small-sample path, the normal approximation with ties, and the
 * degenerate cases the regression gate must call inconclusive.
 */
#include <math.h>

#include "stats/mannwhitney.h"
#include "tap.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static struct ptb_mw run(const double *b, int nb, const double *n, int nn)
{
	struct ptb_mw r = { 0 };
	tap_ok(ptb_mann_whitney(b, nb, n, nn, 0.95, &r) == 0, "computes for %d and %d values", nb, nn);
	return r;
}

/*
 * base {1,2,3}, new {4,5,6}: every new value beats every base value, U = 9.
 * Exact: 3 of 6 positions can be chosen C(6,3) = 20 ways, one gives U = 9,
 * so P(U >= 9) = 1/20 and p = 2/20 = 0.1.  Differences new - base:
 * 1,2,2,3,3,3,4,4,5, median (5th) 3.  No 95 % CI: P(U <= 0) = 0.05 > 0.025.
 */
static void three_by_three(void)
{
	double b[] = { 3, 1, 2 }, n[] = { 6, 4, 5 };
	struct ptb_mw r = run(b, N(b), n, N(n));
	tap_near(r.u, 9, 0, "3x3 separated: U = 9");
	tap_near(r.p, 0.1, 1e-12, "3x3 separated: exact p = 2/20");
	tap_near(r.shift, 3, 0, "3x3 separated: HL shift = 3");
	tap_ok(isnan(r.shift_lo) && isnan(r.shift_hi), "3x3: too few values for a 95 %% CI");
}

/*
 * base {1,2,3,4}, new {5,6,7,8}: U = 16, P(U >= 16) = 1/C(8,4) = 1/70,
 * p = 2/70.  Differences: 1,2,2,3,3,3,4,4,4,4,5,5,5,6,6,7; median = mean of
 * the 8th and 9th = 4.  CI rank: P(U <= 0) = 1/70 = 0.014 <= 0.025 but
 * P(U <= 1) = 2/70 = 0.029 > 0.025, so k = 1: [D(1), D(16)] = [1, 7].
 */
static void four_by_four(void)
{
	double b[] = { 1, 2, 3, 4 }, n[] = { 5, 6, 7, 8 };
	struct ptb_mw r = run(b, N(b), n, N(n));
	tap_near(r.u, 16, 0, "4x4 separated: U = 16");
	tap_near(r.p, 2.0 / 70, 1e-12, "4x4 separated: exact p = 2/70");
	tap_near(r.shift, 4, 0, "4x4 separated: HL shift = 4");
	tap_near(r.shift_lo, 1, 0, "4x4: CI low = D(1) = 1");
	tap_near(r.shift_hi, 7, 0, "4x4: CI high = D(16) = 7");
}

/*
 * base {1,3,5,7,9}, new {2,4,6,8,10}: U = 1+2+3+4+5 = 15 (mean 12.5).  The
 * null counts of U for 5x5 are the coefficients of the Gaussian binomial
 * [10 choose 5]: 1,1,2,3,5,7,9,11,14,16,18,19,20,20,... (total 252).
 * P(U >= 15) = P(U <= 10) = 87/252, p = 174/252 = 0.690476.
 * Differences are the odd numbers -7 (x1), -5 (x2), -3 (x3), -1 (x4),
 * 1 (x5), 3 (x4), 5 (x3), 7 (x2), 9 (x1): median D(13) = 1.  CI rank:
 * P(U <= 2) = 4/252 = 0.016, P(U <= 3) = 7/252 = 0.028, so k = 3:
 * [D(3), D(23)] = [-5, 7].
 */
static void five_by_five(void)
{
	double b[] = { 1, 3, 5, 7, 9 }, n[] = { 2, 4, 6, 8, 10 };
	struct ptb_mw r = run(b, N(b), n, N(n));
	tap_near(r.u, 15, 0, "5x5 interleaved: U = 15");
	tap_near(r.p, 174.0 / 252, 1e-12, "5x5 interleaved: exact p = 174/252");
	tap_near(r.shift, 1, 0, "5x5: HL shift = 1");
	tap_near(r.shift_lo, -5, 0, "5x5: CI low = D(3) = -5");
	tap_near(r.shift_hi, 7, 0, "5x5: CI high = D(23) = 7");
}

/*
 * Ties force the normal approximation.  base {1,2,2,3}, new {2,3,3,4}:
 * U = (1 + 2/2) + 2 * (3 + 1/2) + 4 = 13, mean 8.  Tie groups: 2 (three
 * values) and 3 (three): sum(t^3 - t) = 24 + 24 = 48.  Variance
 * 16/12 * (9 - 48/(8*7)) = 10.857143; z = (|13 - 8| - 0.5) / 3.295018 =
 * 1.365698; p = erfc(z / sqrt 2) = 0.172034.  Differences: -1 (x1), 0 (x4),
 * 1 (x6), 2 (x4), 3 (x1): median = mean of D(8), D(9) = 1.  CI rank from
 * C = 16/2 - 1.959964 * sqrt(16 * 9 / 12) = 1.210486, k = floor(C + 1/2) = 1:
 * [D(1), D(16)] = [-1, 3].
 */
static void ties_normal(void)
{
	double b[] = { 1, 2, 2, 3 }, n[] = { 2, 3, 3, 4 };
	struct ptb_mw r = run(b, N(b), n, N(n));
	tap_near(r.u, 13, 0, "ties: U = 13 with half-counted ties");
	tap_near(r.p, 0.172034, 1e-6, "ties: normal approximation p = 0.172034");
	tap_near(r.shift, 1, 0, "ties: HL shift = 1");
	tap_near(r.shift_lo, -1, 0, "ties: CI low = D(1)");
	tap_near(r.shift_hi, 3, 0, "ties: CI high = D(16)");
}

/*
 * 30 x 30 (normal approximation), base 1..30, new 101..130: U = 900, mean
 * 450, variance 900/12 * 61 = 4575 (sd 67.638746); z = 449.5 / 67.638746 =
 * 6.645599, p = 3.0199e-11.  Differences 100 + t, t = -29..29, t occurring
 * 30 - |t| times; median 100.  C = 450 - 1.959964 * 67.638746 = 317.43, k =
 * 317.  The first r values of t cover r(r+1)/2 differences: 300 for r = 24,
 * 325 for r = 25, so D(317) has t = -29 + 24 = -5 (95); by symmetry D(584)
 * = 105.
 */
static void thirty_by_thirty(void)
{
	double b[30], n[30];
	for (int i = 0; i < 30; i++) {
		b[i] = 1 + i;
		n[i] = 101 + i;
	}
	struct ptb_mw r = run(b, 30, n, 30);
	tap_near(r.u, 900, 0, "30x30: U = 900");
	tap_near(r.p / 3.019859e-11, 1, 1e-5, "30x30: normal p = 3.0199e-11");
	tap_near(r.shift, 100, 0, "30x30: HL shift = 100");
	tap_near(r.shift_lo, 95, 0, "30x30: CI low = D(317) = 95");
	tap_near(r.shift_hi, 105, 0, "30x30: CI high = D(584) = 105");
}

/*
 * Other levels.  4x4 separated (above): P(U <= 0) = 1/70 = 0.0143, so at
 * level 0.97 (tail 0.015) k = 1 still gives [1, 7], and at 0.98 (tail 0.01)
 * no k qualifies: no CI.  30x30 (above) at 0.99: z = 2.575829, C = 450 -
 * 2.575829 * 67.638746 = 275.77, k = floor(C + 1/2) = 276; the first 23
 * values of t cover 276 differences, so D(276) has t = -29 + 22 = -7 (93)
 * and D(625) = 107.
 */
static void other_levels(void)
{
	double b4[] = { 1, 2, 3, 4 }, n4[] = { 5, 6, 7, 8 }, b[30], n[30];
	struct ptb_mw r;
	tap_ok(ptb_mann_whitney(b4, 4, n4, 4, 0.97, &r) == 0 && r.shift_lo == 1 && r.shift_hi == 7,
	       "4x4 at 97 %%: [D(1), D(16)] = [1, 7]");
	tap_ok(ptb_mann_whitney(b4, 4, n4, 4, 0.98, &r) == 0 && isnan(r.shift_lo) &&
	       isnan(r.shift_hi), "4x4 at 98 %%: too few values for a CI");
	for (int i = 0; i < 30; i++) {
		b[i] = 1 + i;
		n[i] = 101 + i;
	}
	tap_ok(ptb_mann_whitney(b, 30, n, 30, 0.99, &r) == 0, "30x30 at 99 %% computes");
	tap_near(r.shift_lo, 93, 0, "30x30 at 99 %%: CI low = D(276) = 93");
	tap_near(r.shift_hi, 107, 0, "30x30 at 99 %%: CI high = D(625) = 107");
}

/* The degenerate cases the gate must not call significant. */
static void degenerate(void)
{
	struct ptb_mw r;
	double one_b[] = { 1 }, one_n[] = { 2 };
	/* U in {0, 1} with probability 1/2 each: p = 2 * min(1, 1/2) = 1 */
	r = run(one_b, 1, one_n, 1);
	tap_near(r.p, 1, 0, "one value each: p = 1");
	tap_ok(isnan(r.shift_lo), "one value each: no CI");

	double same[] = { 5, 5, 5 };
	/* all tied: variance 9/12 * (7 - 210/30) = 0 */
	r = run(same, 3, same, 3);
	tap_near(r.p, 1, 0, "all values equal: p = 1");
	tap_near(r.shift, 0, 0, "all values equal: shift 0");

	tap_ok(ptb_mann_whitney(same, 0, same, 3, 0.95, &r) == -1, "empty sample refused");
}

/* Order of the inputs must not matter, and the test is antisymmetric. */
static void symmetry(void)
{
	double b[] = { 10, 12, 11, 13, 9, 14, 10.5 }, n[] = { 15, 13.5, 16, 12.5, 17, 14.5 };
	struct ptb_mw r1 = run(b, N(b), n, N(n)), r2 = run(n, N(n), b, N(b));
	tap_near(r1.p, r2.p, 1e-12, "swapping samples keeps p");
	tap_near(r1.shift, -r2.shift, 1e-12, "swapping samples negates the shift");
	tap_near(r1.shift_lo, -r2.shift_hi, 1e-12, "swapping samples mirrors the CI");
	tap_near(r1.u + r2.u, N(b) * N(n), 0, "U + U' = nb * nn");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int member(double v, const double *d, int n)
{
	for (int i = 0; i < n; i++)
		if (d[i] == v)
			return 1;
	return 0;
}

/* The bisection that finds order statistics of the pairwise differences
 * against sorting all of them, on random non-integer samples (fixed seed). */
static void against_brute_force(void)
{
	static double b[40], n[40], d[1600];
	int bad = 0;
	srand(12345);
	for (int c = 0; c < 200; c++) {
		int nb = 1 + rand() % 40, nn = 1 + rand() % 40, k = 0;
		for (int i = 0; i < nb; i++)
			b[i] = 100 + rand() % 1000 / 7.0;
		for (int j = 0; j < nn; j++)
			n[j] = 110 + rand() % 1000 / 7.0;
		for (int i = 0; i < nb; i++)
			for (int j = 0; j < nn; j++)
				d[k++] = n[j] - b[i];
		qsort(d, (size_t)k, sizeof *d, cmp);
		double med = k % 2 ? d[k / 2] : (d[k / 2 - 1] + d[k / 2]) / 2;
		struct ptb_mw r;
		if (ptb_mann_whitney(b, nb, n, nn, 0.95, &r) != 0 || r.shift != med ||
		    !(r.p >= 0 && r.p <= 1) ||
		    (!isnan(r.shift_lo) && (!member(r.shift_lo, d, k) || !member(r.shift_hi, d, k) ||
					    r.shift_lo > r.shift || r.shift_hi < r.shift)))
			bad++;
	}
	tap_ok(bad == 0, "200 random cases: shift = median of all differences, CI bounds are differences around it (%d bad)", bad);
}

int main(void)
{
	three_by_three();
	four_by_four();
	five_by_five();
	ties_normal();
	thirty_by_thirty();
	other_levels();
	degenerate();
	symmetry();
	against_brute_force();
	tap_done();
	return tap_exit();
}
