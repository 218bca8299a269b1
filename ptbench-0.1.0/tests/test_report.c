/* SPDX-License-Identifier: MIT */
/*
 * Prints a saved run in one format, the way `ptbench report FILE --format F`
 * does, without the rest of the command line: tests/golden.sh compares its
 * output with the golden files.  Usage: test_report FILE FORMAT [all-rows].
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "record/model.h"
#include "report/report.h"

int main(int argc, char **argv)
{
	char err[512];
	struct ptb_report_opts o = { .all_rows = argc == 4 && !strcmp(argv[3], "all-rows") };
	int fmt = argc == 3 || o.all_rows ? ptb_format_from_name(argv[2]) : -1;
	if (fmt < 0) {
		fprintf(stderr, "usage: test_report FILE table|csv|json|gbench [all-rows]\n");
		return 2;
	}
	struct ptb_runfile *run = ptb_runfile_load(argv[1], err, sizeof err);
	if (!run) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	int rc = ptb_report_with(stdout, run, fmt, &o);
	ptb_runfile_free(run);
	return rc ? 1 : 0;
}
