/* SPDX-License-Identifier: MIT */
/* `ptbench table FILE... [--format md|csv|html] [--stat mean|median|min] [--all-rows]
 * [--verbose]`. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/runs.h"
#include "tools/cluster.h"
#include "tools/table.h"

static const char usage[] =
	"usage: ptbench table FILE... [--format md|csv|html] [--stat mean|median|min] [--all-rows]\n"
	"                     [--verbose]\n";

static const struct option table_options[] = {
	/* name       has_arg            flag  val */
	{ "format",   required_argument, NULL, 'f' },
	{ "stat",     required_argument, NULL, 's' },
	{ "all-rows", no_argument,       NULL, 'a' },
	{ "verbose",  no_argument,       NULL, 'v' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

struct table_args {
	int format, stat;
	bool all_rows, verbose;
};

static int table_option(void *ctx, int c, const char *arg)
{
	struct table_args *a = ctx;
	if (c == 'f' && (a->format = ptb_table_format_from_name(arg)) < 0)
		return ptb_bad_input("table", "--format: '%s' is not one of md, csv, html", arg);
	if (c == 's' && (a->stat = ptb_table_stat_from_name(arg)) < 0)
		return ptb_bad_input("table", "--stat: '%s' is not one of mean, median, min", arg);
	a->all_rows |= c == 'a';
	a->verbose |= c == 'v';
	return 0;
}

int ptb_cmd_table(int argc, char **argv)
{
	struct table_args a = { PTB_TABLE_MD, PTB_STAT_MEAN, false, false };
	struct ptb_runfile **runs;
	int first, n, rc;
	rc = ptb_options("table", argc, argv, ":h", table_options, usage, table_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	struct ptb_table_opts o = { a.format, a.stat, a.all_rows, false, a.verbose };
	if (first >= argc)
		return ptb_bad_input("table", "which files? (ptbench table FILE...)");
	json_t *cluster;
	static const enum ptb_grid_style styles[] = { [PTB_TABLE_MD] = PTB_GRID_MD,
		[PTB_TABLE_CSV] = PTB_GRID_CSV, [PTB_TABLE_HTML] = PTB_GRID_HTML };
	if ((rc = ptb_runs_cluster("table", argc, argv, first, &cluster)) == 1) {
		rc = ptb_cluster_print(stdout, cluster, styles[a.format]) < 0
			? ptb_bad_input("table", "out of memory") : 0;
		json_decref(cluster);
		return rc;
	}
	if (rc || (rc = ptb_runs_load("table", argc, argv, first, &runs, &n)))
		return rc;
	if (ptb_table_print(stdout, runs, n, &o) < 0)
		rc = ptb_bad_input("table", "out of memory");
	ptb_runs_free(runs, n);
	return rc;
}
