/* SPDX-License-Identifier: MIT */
/*
 * Prints a saved run in one format, the way `ptbench report FILE --format F`
 * does, without the rest of the command line: tests/golden.sh compares its
 * output with the golden files.  Usage: test_report FILE FORMAT.
 */
#include <config.h>

#include <stdio.h>

#include "report/report.h"
#include "record/result.h"

int main(int argc, char **argv)
{
	char err[512];
	int fmt = argc == 3 ? ptb_format_from_name(argv[2]) : -1;
	if (fmt < 0) {
		fprintf(stderr, "usage: test_report FILE table|csv|json|gbench\n");
		return 2;
	}
	json_t *run = ptb_run_load(argv[1], err, sizeof err);
	if (!run) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	int rc = ptb_report(stdout, run, fmt);
	json_decref(run);
	return rc ? 1 : 0;
}
