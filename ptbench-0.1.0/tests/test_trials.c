/* SPDX-License-Identifier: MIT */
/*
 * A point's figure from its trials (stats/trials.h) against hand-worked
 * cases: the median, the order-statistics interval and its exact level,
 * two modes, the drift allowance; then the engine end to end with a
 * scripted clock whose trial means drift -- the interval must widen with
 * the drift, never shrink, while every trial alone looks precise; and the
 * seeded generator that orders the rounds.
 */
#include <math.h>
#include <string.h>

#include "engine/measure.h"
#include "stats/random.h"
#include "stats/trials.h"
#include "tap.h"

static void levels(void)
{
	tap_near(ptb_median_ci_coverage(6, 0), 1 - 2.0 / 64, 1e-15,
		 "6 trials, [x(1), x(6)]: 1 - 2 (1/2)^6 = 96.875 %%");
	tap_near(ptb_median_ci_coverage(5, 0), 1 - 2.0 / 32, 1e-15,
		 "5 trials cannot reach 95 %%: 93.75 %%");
	tap_near(ptb_median_ci_coverage(10, 1), 1 - 2 * 11.0 / 1024, 1e-15,
		 "10 trials, [x(2), x(9)]: 1 - 2 (1 + 10) / 2^10");
	tap_near(ptb_median_ci_coverage(15, 3), 1 - 2 * 576.0 / 32768, 1e-15,
		 "15 trials, [x(4), x(12)]: 1 - 2 (1 + 15 + 105 + 455) / 2^15");
}

static void summaries(void)
{
	double six[] = { 5, 1, 4, 2, 3, 6 };   /* unsorted on purpose */
	double ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct ptb_trials_summary s;

	ptb_trials_summarize(six, 6, &s);
	tap_ok(s.n == 6 && s.value == 3.5 && s.ci_lo == 1 && s.ci_hi == 6,
	       "six trials: median 3.5, CI [1, 6] (got %g [%g, %g])", s.value, s.ci_lo, s.ci_hi);
	tap_near(s.halfwidth_pct, 100 * 2.5 / 3.5, 1e-9, "half-width (6 - 1) / 2 of 3.5");
	tap_ok(six[0] == 5 && six[5] == 6, "the estimates are left as they were");
	ptb_trials_summarize(ten, 10, &s);
	tap_ok(s.value == 5.5 && s.ci_lo == 2 && s.ci_hi == 9 && s.nmodes == 1,
	       "ten trials: median 5.5, CI [2, 9], one mode");
	tap_near(s.coverage, 1 - 2 * 11.0 / 1024, 1e-15, "ten trials: the level is recorded");
}

static void modes(void)
{
	double two[] = { 2.02, 1.0, 2.0, 1.01, 2.04, 1.02 };
	double one[] = { 1.0, 1.1, 1.2, 1.3, 1.4, 1.5 };
	double lopsided[] = { 1.0, 1.01, 2.0, 2.01, 2.02, 2.03, 2.04 };
	struct ptb_trials_summary s;

	ptb_trials_summarize(two, 6, &s);
	tap_ok(s.nmodes == 2 && s.modes[0].n == 3 && s.modes[1].n == 3,
	       "1.0-1.02 and 2.0-2.04: two modes of three");
	tap_near(s.modes[0].value, 1.01, 1e-12, "the lower mode's median");
	tap_near(s.modes[1].value, 2.02, 1e-12, "the upper mode's median");
	/* By hand: g = 1 of 6 trimmed each side, mean of 1.01 1.02 2.0 2.02;
	 * the winsorized 1.01 1.01 1.02 2.0 2.02 2.02 have squared deviations
	 * summing to 1.5003333; Yuen's SE = sqrt(1.5003333 / (4 x 3)) =
	 * 0.3535926 with h = 4 kept, and t(3) = 3.182. */
	tap_near(s.value, 1.5125, 1e-12, "two modes: the value is the 20 %% trimmed mean");
	tap_near(s.ci_hi - s.value, 3.182 * 0.3535926, 1e-6, "its CI is Yuen's: t(3) x 0.35359");
	tap_near(s.value - s.ci_lo, s.ci_hi - s.value, 1e-12, "symmetric about the value");
	tap_ok(s.coverage == 0.95, "a nominal 95 %% level");
	ptb_trials_summarize(one, 6, &s);
	tap_ok(s.nmodes == 1, "evenly spread trials are one mode");
	ptb_trials_summarize(lopsided, 7, &s);
	tap_ok(s.nmodes == 1, "two trials apart are not a mode (at least three each side)");
}

static void drift(void)
{
	double factors[] = { 0.01, -0.01, 0.02, -0.02 };
	double flat[] = { 0, 0, 0, 0 };
	double six[] = { 99, 99.5, 100, 100, 100.5, 101 };
	struct ptb_trials_summary s;

	tap_near(ptb_drift_pct(factors, 4), 100 * sqrt(10e-4 / 3), 1e-9,
		 "drift: the factors' sample sd, in %%");
	tap_ok(ptb_drift_pct(factors, 2) == 0, "fewer than three rounds show no drift");
	tap_ok(ptb_drift_pct(flat, 4) == 0, "a steady machine has no drift");
	ptb_trials_summarize(six, 6, &s);
	ptb_trials_widen(&s, 1.0);
	tap_near(s.ci_lo, 100 - hypot(1, 1.96), 1e-9, "widened low end: 1 and 1.96 in quadrature");
	tap_near(s.ci_hi, 100 + hypot(1, 1.96), 1e-9, "widened high end");
	tap_ok(s.trials_lo == 99 && s.trials_hi == 101, "the trials' own interval is kept");
	tap_near(s.halfwidth_pct, hypot(1, 1.96), 1e-9, "half-width from the widened interval");

	/* The trials alone give +-1 %; the drift's margin is 1.96 drift. */
	tap_ok(ptb_trials_drift_bound(&s, 1.5), "drift margin 1.96 %% >= 1.5 %% target, trials 1 %%: "
	       "more trials cannot help");
	tap_ok(!ptb_trials_drift_bound(&s, 0.5), "trials at 1 %% > 0.5 %% target: more trials help");
	tap_ok(!ptb_trials_drift_bound(&s, 2.0), "drift margin 1.96 %% < 2 %% target: reachable");
	ptb_trials_summarize(six, 6, &s);
	tap_ok(!ptb_trials_drift_bound(&s, 0.5), "no drift: never bound by it");
}

/* ---- the engine with a scripted clock ----------------------------------- */

/* Per-iteration time: the trial's level with a little noise per timing. */
struct script {
	double level_ns;
	unsigned timing;
	double t;
};

static double scripted_time(void *ctx, uint64_t n)
{
	struct script *s = ctx;
	double noise = 1 + 0.001 * ((s->timing++ % 5) - 2.0);   /* +-0.2 % */
	double ns = (double)n * s->level_ns * noise;
	s->t += ns / 1e9 + 1e-6;
	return ns;
}

static double scripted_now(void *ctx)
{
	return ((struct script *)ctx)->t;
}

/* Ten trials whose levels drift by `step` (a fraction) per trial; the
 * point's CI half-width in %, and the widest within-trial CI in *within. */
static double drifting_point(double step, double *within)
{
	struct ptb_limits l;
	double est[10];
	struct ptb_trials_summary s;
	ptb_limits_default(&l);
	*within = 0;
	for (int i = 0; i < 10; i++) {
		struct script sc = { 100 * (1 + step * i), 0, 0 };
		struct ptb_timer t = { scripted_time, scripted_now, &sc, 20, 1 };
		struct ptb_measurement m;
		ptb_measure(&l, &t, 1, &m);
		est[i] = m.stats.mean;
		double hw = 100 * (m.stats.ci_hi - m.stats.ci_lo) / 2 / m.stats.median;
		*within = hw > *within ? hw : *within;
		ptb_measurement_free(&m);
	}
	ptb_trials_summarize(est, 10, &s);
	return s.halfwidth_pct;
}

static void scripted(void)
{
	double within0, within1, within5;
	double steady = drifting_point(0, &within0);
	double slow = drifting_point(0.01, &within1);
	double fast = drifting_point(0.05, &within5);
	tap_ok(within0 < 0.5 && within1 < 0.5 && within5 < 0.5,
	       "every trial alone looks precise (within-trial CIs <= %.2f %%)",
	       fmax(within0, fmax(within1, within5)));
	tap_ok(steady < 0.5, "a steady machine: a narrow point CI (+-%.2f %%)", steady);
	tap_ok(slow > steady && fast > slow, "the CI widens with the drift: +-%.2f, +-%.2f, +-%.2f %%",
	       steady, slow, fast);
	/* Levels 100 .. 145 in steps of 5: [x(2), x(9)] = [105, 140] around
	 * 122.5, a half-width of 17.5 / 122.5. */
	tap_near(fast, 100 * 17.5 / 122.5, 0.5, "5 %% per trial: the CI spans the drifting trials "
		 "(+-%.1f %%)", fast);
}

/* ---- the rounds' order -------------------------------------------------- */

static void order(void)
{
	struct ptb_rng a, b, c;
	int x[8], y[8], z[8], seen = 0;
	bool same = true, differs = false;
	ptb_rng_seed(&a, 42);
	ptb_rng_seed(&b, 42);
	ptb_rng_seed(&c, 43);
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < 8; i++)
			x[i] = y[i] = z[i] = i;
		ptb_rng_shuffle(&a, x, 8);
		ptb_rng_shuffle(&b, y, 8);
		ptb_rng_shuffle(&c, z, 8);
		same &= !memcmp(x, y, sizeof x);
		differs |= memcmp(x, z, sizeof x) != 0;
		for (int i = 0; i < 8; i++)
			seen |= 1 << x[i];
	}
	tap_ok(same, "the same seed gives the same rounds");
	tap_ok(differs, "another seed gives other rounds");
	tap_ok(seen == 0xff, "a shuffle is a permutation");
	ptb_rng_seed(&a, 0);
	tap_ok(ptb_rng_next(&a) == 0xe220a8397b1dcdafu,
	       "splitmix64 from seed 0 gives its published first output");
	int counts[3] = { 0 };
	ptb_rng_seed(&a, 7);
	for (int i = 0; i < 3000; i++)
		counts[ptb_rng_below(&a, 3)]++;
	tap_ok(counts[0] > 900 && counts[1] > 900 && counts[2] > 900,
	       "below(3) reaches every value about equally (%d %d %d)", counts[0], counts[1],
	       counts[2]);
}

int main(void)
{
	levels();
	summaries();
	modes();
	drift();
	scripted();
	order();
	tap_done();
	return tap_exit();
}
