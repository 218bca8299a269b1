/* SPDX-License-Identifier: MIT */
/*
 * The statistic a cell of `ptbench table` shows (--stat): its name, the
 * words of the caption, and the figure of a record -- from a point's
 * trials, from a measurement's timings, or the mean with a footnote when
 * only the mean was recorded (the paper's figures).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "tools/table.h"

/* The statistic a cell shows, with the words the caption uses. */
static const struct {
	const char *name;
	const char *words;
	const char *instead;    /* the footnote when only the mean is recorded */
} stats[PTB_STAT_COUNT] = {
	/* name       words                                                  instead */
	[PTB_STAT_MEAN]   = { "mean",   "the mean of each point's timings, as in the paper", NULL },
	[PTB_STAT_MEDIAN] = { "median", "the median of each point's timings",
			      "only the mean is recorded: shown instead of the median" },
	[PTB_STAT_MIN]    = { "min",    "the fastest of each point's timings",
			      "only the mean is recorded: shown instead of the minimum" },
};

int ptb_table_stat_from_name(const char *name)
{
	for (int i = 0; name && i < PTB_STAT_COUNT; i++)
		if (!strcmp(name, stats[i].name))
			return i;
	return -1;
}

const char *ptb_table_stat_words(enum ptb_table_stat stat)
{
	return stats[stat].words;
}

/* A point made of trials: the median over its trials of each trial's
 * statistic (for the mean, the point's value). */
static double trials_figure(enum ptb_table_stat stat, const struct ptb_record *rec)
{
	const json_t *trials = json_object_get(rec->json, "trials"), *tr;
	double *x, v = NAN;
	size_t i;
	int n = 0;
	if (stat == PTB_STAT_MEAN)
		return rec->value;
	if (!(x = malloc((json_array_size(trials) + 1) * sizeof *x)))
		return NAN;
	json_array_foreach(trials, i, tr)
		if (json_is_number(json_object_get(tr, stats[stat].name)))
			x[n++] = ptb_jnum(tr, stats[stat].name);
	if (n)
		v = ptb_median_inplace(x, n);
	free(x);
	return v;
}

/* The figure of a record for the chosen statistic, or the mean with a
 * footnote when the record has only the mean (the paper's figures). */
double ptb_table_figure(enum ptb_table_stat stat, const struct ptb_record *rec, const char **note)
{
	*note = NULL;
	if (rec->samples_are_trials)
		return trials_figure(stat, rec);
	double v = ptb_jnum(rec->json, stats[stat].name);
	if (isnan(v) && !isnan(ptb_jnum(rec->json, "mean"))) {
		*note = stats[stat].instead;
		v = ptb_jnum(rec->json, "mean");
	}
	return v;
}
