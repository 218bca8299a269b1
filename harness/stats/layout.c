/* SPDX-License-Identifier: MIT */
/* The layout share of a point's spread (see layout.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/layout.h"
#include "text/size.h"

void ptb_layout_split(const double *est, const int *group, int n, int ngroups,
		      struct ptb_layout_split *out)
{
	*out = (struct ptb_layout_split){ 0, NAN, NAN, NAN };
	double *sum = ptb_array_realloc(NULL, (size_t)(ngroups > 0 ? ngroups : 1), sizeof *sum);
	int *count = ptb_array_realloc(NULL, (size_t)(ngroups > 0 ? ngroups : 1), sizeof *count);
	double total = 0, ss_within = 0, ss_between = 0, sum_n2 = 0;
	int used = 0;
	if (!sum || !count || n <= 0) {
		free(sum);
		free(count);
		return;
	}
	for (int g = 0; g < ngroups; g++)
		sum[g] = 0, count[g] = 0;
	for (int i = 0; i < n; i++) {
		sum[group[i]] += log(est[i]);
		count[group[i]]++;
		total += log(est[i]);
	}
	for (int i = 0; i < n; i++) {
		double d = log(est[i]) - sum[group[i]] / count[group[i]];
		ss_within += d * d;
	}
	for (int g = 0; g < ngroups; g++) {
		if (!count[g])
			continue;
		double d = sum[g] / count[g] - total / n;
		ss_between += count[g] * d * d;
		sum_n2 += (double)count[g] * count[g];
		used++;
	}
	out->groups = used;
	if (used >= 2 && n > used) {
		double ms_within = ss_within / (n - used);
		double ms_between = ss_between / (used - 1);
		double n0 = (n - sum_n2 / n) / (used - 1);
		double between = ms_between > ms_within ? (ms_between - ms_within) / n0 : 0;
		out->within_pct = 100 * sqrt(ms_within);
		out->between_pct = 100 * sqrt(between);
		out->share = between + ms_within > 0 ? between / (between + ms_within) : 0;
	}
	free(sum);
	free(count);
}
