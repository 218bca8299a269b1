/* SPDX-License-Identifier: MIT */
/*
 * `ptbench table`: result files side by side, one column per machine, laid
 * out like Table 1 of de Supinski & May (1999), with a block saying what
 * each machine was.
 */
#ifndef PTB_TOOLS_TABLE_H
#define PTB_TOOLS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "record/model.h"
#include "report/grid.h"

enum ptb_table_format { PTB_TABLE_MD, PTB_TABLE_CSV, PTB_TABLE_HTML, PTB_TABLE_FORMATS };
/* The statistic a cell shows. */
enum ptb_table_stat { PTB_STAT_MEAN, PTB_STAT_MEDIAN, PTB_STAT_MIN, PTB_STAT_COUNT };

int ptb_table_format_from_name(const char *name);   /* -1 if unknown */
int ptb_table_stat_from_name(const char *name);     /* -1 if unknown */

struct ptb_table_opts {
	enum ptb_table_format format;
	enum ptb_table_stat stat;
	/* A row for every point, also those N/A at a placement their machine
	 * lacks (report/absent.h); otherwise such a row is left out when no
	 * machine has a figure for it, and each machine's absent placements
	 * are one footnote. */
	bool all_rows;
	/* HTML: the caption, the table and its notes only, for a page built
	 * around them (tools/page.c); otherwise a whole page. */
	bool fragment;
};

/* Print the table of n runs (columns in this order).  0, or -1 when out of
 * memory or the output could not be written. */
int ptb_table_print(FILE *out, struct ptb_runfile *const *runs, int n,
		    const struct ptb_table_opts *o);

/* The statistic (tools/stat.c): the caption's words for it, and a
 * record's figure, with *note the footnote when the mean stands in for it
 * (only the mean was recorded), else NULL. */
const char *ptb_table_stat_words(enum ptb_table_stat stat);
double ptb_table_figure(enum ptb_table_stat stat, const struct ptb_record *rec, const char **note);

/* The machine block (tools/machines.c): a header row "Machine", names...,
 * then one row per fact that some machine has.  names[i] is column i's. */
int ptb_machines_grid(struct ptb_grid *g, struct ptb_runfile *const *runs, int n,
		      char (*names)[192]);
/* Column names: host and CPU, with the run's day, time or a number added
 * where two columns would otherwise read alike. */
void ptb_machines_names(struct ptb_runfile *const *runs, int n, char (*names)[192]);

#endif
