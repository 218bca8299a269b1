/* SPDX-License-Identifier: MIT */
/*
 * Plateau and jump detection (stats/plateau.c) on synthetic curves: a
 * clean three-level hierarchy, the same with multiplicative noise and a
 * spike, a hierarchy with a level missing, one with two points of a level
 * raised by a disturbance above the next level, a flat curve, and the first
 * jump of a stride curve with and without a later, smaller rise.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "stats/plateau.h"
#include "tap.h"

#define N 19   /* 4 KiB .. 1 GiB in powers of two */

/* A latency curve: L1 32 KiB 1 ns, L2 1 MiB 4 ns, L3 16 MiB 15 ns,
 * memory 90 ns, with `noise` (relative, deterministic) on every point;
 * without_l2 drops the second level. */
static void curve(double *x, double *y, double noise, bool without_l2)
{
	unsigned s = 12345;
	for (int i = 0; i < N; i++) {
		x[i] = 4096.0 * (1 << i);
		double lat = x[i] <= 32768 ? 1 : x[i] <= (1 << 20) && !without_l2 ? 4
			     : x[i] <= (16 << 20) ? 15 : 90;
		s = s * 1103515245 + 12345;
		y[i] = lat * (1 + noise * (((s >> 16) & 0x7fff) / 16383.5 - 1));
	}
}

static bool near(double got, double want, double factor)
{
	return got > want / factor && got < want * factor;
}

static void clean(void)
{
	double x[N], y[N];
	struct ptb_plateau p[8];
	curve(x, y, 0, false);
	int n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 4, "clean: four plateaus (got %d)", n);
	tap_ok(n == 4 && p[0].level == 1 && p[1].level == 4 && p[2].level == 15 && p[3].level == 90,
	       "clean: their levels are the medians 1, 4, 15, 90");
	tap_ok(n == 4 && p[0].first == 0 && p[0].last == 3 && p[3].last == N - 1,
	       "clean: L1 holds 4..32 KiB, memory runs to the end");
	tap_ok(n == 4 && near(p[0].edge_x, 32768 * 1.41, 1.3) && near(p[1].edge_x, 1.41 * (1 << 20), 1.3) &&
	       near(p[2].edge_x, 1.41 * (16 << 20), 1.3) && isnan(p[3].edge_x),
	       "clean: edges between the last size of a level and the next (%.0f, %.0f, %.0f)",
	       p[0].edge_x, p[1].edge_x, p[2].edge_x);
}

static void noisy(void)
{
	double x[N], y[N];
	struct ptb_plateau p[8];
	curve(x, y, 0.08, false);
	y[6] *= 1.6;    /* a lone spike inside the L2 plateau */
	int n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 4, "noisy with a spike: still four plateaus (got %d)", n);
	tap_ok(n == 4 && near(p[0].level, 1, 1.1) && near(p[1].level, 4, 1.1) &&
	       near(p[2].level, 15, 1.1) && near(p[3].level, 90, 1.1),
	       "noisy: levels within 10 %% of the truth");
	tap_ok(n == 4 && p[1].first <= 5 && p[1].last >= 8 && p[1].npoints == p[1].last - p[1].first,
	       "noisy: the spike is skipped, not a level, and the plateau spans it");
	tap_ok(n == 4 && near(p[1].edge_x, 1.41 * (1 << 20), 1.5), "noisy: the L2 edge near 1 MiB");
}

static void missing_level(void)
{
	double x[N], y[N];
	struct ptb_plateau p[8];
	curve(x, y, 0.03, true);
	int n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 3, "a missing L2: three plateaus (got %d)", n);
	tap_ok(n == 3 && near(p[1].level, 15, 1.1) && near(p[0].edge_x, 32768 * 1.41, 1.3),
	       "a missing L2: L1 gives way straight to the 15 ns level");
}

/* Two points inside L2 raised above L3 (a disturbed run): the latency
 * cannot fall as the working set grows, so that plateau goes and the two
 * halves of L2 it split are one level again. */
static void raised(void)
{
	double x[N], y[N];
	struct ptb_plateau p[8];
	static const double lat[N] = { 1, 1, 1, 1, 4, 4, 40, 40, 4, 4, 15, 15, 15,
				       90, 90, 90, 90, 90, 90 };
	for (int i = 0; i < N; i++)
		x[i] = 4096.0 * (1 << i), y[i] = lat[i];
	int n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 4 && p[0].level == 1 && p[1].level == 4 && p[2].level == 15 && p[3].level == 90,
	       "raised: four levels 1, 4, 15, 90 (got %d, the second %g)", n, n > 1 ? p[1].level : 0);
	tap_ok(n == 4 && p[1].first == 4 && p[1].last == 9 && p[1].npoints == 4,
	       "raised: L2 is its four points on both sides of the raised two");
	bool rising = true;
	for (int k = 0; k + 2 < n; k++)
		rising &= p[k + 1].edge_x > p[k].edge_x && p[k + 1].level > p[k].level;
	tap_ok(rising, "raised: edges and levels rise");
	/* the raised pair at the end of L2: dropped, L2 keeps its first points */
	static const double lat2[N] = { 1, 1, 1, 1, 4, 4, 4, 40, 40, 15, 15, 15, 15,
					90, 90, 90, 90, 90, 90 };
	for (int i = 0; i < N; i++)
		y[i] = lat2[i];
	n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 4 && p[1].level == 4 && p[1].last == 6 && p[2].level == 15,
	       "raised before L3: levels 1, 4, 15, 90 (got %d)", n);
}

static void flat_and_short(void)
{
	double x[N], y[N];
	struct ptb_plateau p[8];
	for (int i = 0; i < N; i++) {
		x[i] = i + 1;
		y[i] = 10 + (i % 2) * 0.5;
	}
	int n = ptb_plateaus(x, y, N, 0.15, p, 8);
	tap_ok(n == 1 && isnan(p[0].edge_x), "flat: one plateau, no edge");
	double tx[3] = { 1, 2, 3 }, ty[3] = { 1, 5, 25 };
	tap_ok(ptb_plateaus(tx, ty, 3, 0.15, p, 8) == 0, "every point its own level: no plateau");
	tap_ok(ptb_plateaus(x, y, N, 0.15, p, 0) == 0, "max 0: nothing written");
	y[4] = NAN;
	tap_ok(ptb_plateaus(x, y, N, 0.15, p, 8) == 1, "a failed point (NAN) is ignored");
}

static void jumps(void)
{
	/* strides 8 .. 512: hits until 64, a miss on every access from there */
	double line[7] = { 2.0, 2.1, 2.05, 6.0, 6.4, 6.3, 6.5 };
	tap_ok(ptb_first_jump(line, 7, 0.15) == 3, "stride curve: the jump at 64 B");
	double later[7] = { 2.0, 2.1, 2.05, 6.0, 7.0, 10.0, 10.5 };
	tap_ok(ptb_first_jump(later, 7, 0.15) == 3,
	       "a smaller rise further on (an adjacent-line prefetch pair) does not win");
	double wobble[7] = { 2.0, 2.5, 2.4, 8.0, 8.1, 8.0, 8.2 };
	tap_ok(ptb_first_jump(wobble, 7, 0.15) == 3, "a 25 %% wobble before a 3x step does not win");
	double flat[7] = { 2.0, 2.1, 2.0, 2.1, 2.0, 2.1, 2.2 };
	tap_ok(ptb_first_jump(flat, 7, 0.15) == -1, "no rise above the tolerance: no jump");
}

int main(void)
{
	clean();
	noisy();
	missing_level();
	raised();
	flat_and_short();
	jumps();
	tap_done();
	return tap_exit();
}
