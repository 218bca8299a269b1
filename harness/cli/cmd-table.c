/* SPDX-License-Identifier: MIT */
/* `ptbench table FILE... [--format md|csv|html] [--stat mean|median|min]`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "text/text.h"
#include "tools/table.h"

static const char usage[] =
	"usage: ptbench table FILE... [--format md|csv|html] [--stat mean|median|min]\n";

static const struct option table_options[] = {
	/* name       has_arg            flag  val */
	{ "format",   required_argument, NULL, 'f' },
	{ "stat",     required_argument, NULL, 's' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

struct table_args {
	int format, stat;
};

static int table_option(void *ctx, int c, const char *arg)
{
	struct table_args *a = ctx;
	if (c == 'f' && (a->format = ptb_table_format_from_name(arg)) < 0)
		return ptb_bad_input("table", "--format: '%s' is not one of md, csv, html", arg);
	if (c == 's' && (a->stat = ptb_table_stat_from_name(arg)) < 0)
		return ptb_bad_input("table", "--stat: '%s' is not one of mean, median, min", arg);
	return 0;
}

int ptb_cmd_table(int argc, char **argv)
{
	struct table_args a = { PTB_TABLE_MD, PTB_STAT_MEAN };
	struct ptb_runfile **runs;
	char err[512];
	int first, n = 0, rc;
	rc = ptb_options("table", argc, argv, ":h", table_options, usage, table_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("table", "which files? (ptbench table FILE...)");
	if (!(runs = calloc((size_t)(argc - first), sizeof *runs)))
		return ptb_bad_input("table", "out of memory");
	for (; first + n < argc; n++)
		if (!(runs[n] = ptb_runfile_load(argv[first + n], err, sizeof err))) {
			rc = ptb_bad_input("table", "%s", err);
			break;
		} else if (runs[n]->duplicate) {   /* its cell shows the first record */
			fprintf(stderr, "ptbench table: %s: point '", argv[first + n]);
			ptb_fputs_printable(stderr, runs[n]->duplicate);
			fputs("' appears twice; the first is shown\n", stderr);
		}
	if (!rc && ptb_table_print(stdout, runs, n, a.format, a.stat) < 0)
		rc = ptb_bad_input("table", "out of memory");
	for (int i = 0; i < n; i++)
		ptb_runfile_free(runs[i]);
	free(runs);
	return rc;
}
