/* SPDX-License-Identifier: MIT */
/* `ptbench report FILE [--format FMT]`: print a saved run again. */
#include "config.h"

#include <stdio.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "record/model.h"
#include "report/report.h"

static const char usage[] = "usage: ptbench report FILE [--format table|csv|json|gbench]\n";

static const struct option report_options[] = {
	/* name      has_arg            flag  val */
	{ "format",  required_argument, NULL, 'f' },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL,      0,                 NULL, 0 }
};

static int report_option(void *ctx, int c, const char *arg)
{
	int *fmt = ctx;
	if (c == 'f' && (*fmt = ptb_format_from_name(arg)) < 0)
		return ptb_bad_input("report", "--format: '%s' is not one of table, csv, json, gbench",
				     arg);
	return 0;
}

int ptb_cmd_report(int argc, char **argv)
{
	int fmt = PTB_FMT_TABLE, first, rc;
	char err[512];
	rc = ptb_options("report", argc, argv, ":h", report_options, usage, report_option, &fmt,
			 &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("report", "which file? (ptbench report FILE)");
	if (first + 1 < argc)
		return ptb_bad_input("report", "unexpected argument '%s'", argv[first + 1]);
	struct ptb_runfile *run = ptb_runfile_load(argv[first], err, sizeof err);
	if (!run)
		return ptb_bad_input("report", "%s", err);
	ptb_report(stdout, run, fmt);     /* a failed write is caught in cli.c */
	ptb_runfile_free(run);
	return 0;
}
