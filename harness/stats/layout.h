/* SPDX-License-Identifier: MIT */
/*
 * How much of a point's spread is code layout (docs/design.md section 17):
 * the trials' log estimates grouped by the layout each ran in, split by
 * one-way analysis of variance into a component between layouts and one
 * within them (the method of moments, for unequal groups: the between
 * mean square less the within, over the effective group size).  The share
 * is between / (between + within), 0 when the between mean square does
 * not exceed the within.  With as few trials as a point gets it is a rough
 * figure; what it says reliably is whether layout matters at all.
 */
#ifndef PTB_STATS_LAYOUT_H
#define PTB_STATS_LAYOUT_H

struct ptb_layout_split {
	int groups;          /* layouts with at least one trial */
	double between_pct;  /* sd between layouts, % of the value (log scale) */
	double within_pct;   /* sd within a layout, % */
	double share;        /* between's share of the variance, 0..1; NAN when
			      * there are no two groups or no group of two */
};

/* n estimates > 0 and their group (0 .. ngroups-1). */
void ptb_layout_split(const double *est, const int *group, int n, int ngroups,
		      struct ptb_layout_split *out);

#endif
