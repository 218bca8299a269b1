/* SPDX-License-Identifier: MIT */
/* Result files named on a command line (cli/runs.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/error.h"
#include "cli/runs.h"
#include "text/text.h"

int ptb_runs_load(const char *cmd, int argc, char **argv, int first,
		  struct ptb_runfile ***runs, int *n)
{
	char err[512];
	*n = 0;
	if (!(*runs = calloc((size_t)(argc - first) + 1, sizeof **runs)))
		return ptb_bad_input(cmd, "out of memory");
	for (; first + *n < argc; ++*n) {
		struct ptb_runfile *run = ptb_runfile_load(argv[first + *n], err, sizeof err);
		if (!run) {
			ptb_runs_free(*runs, *n);
			*runs = NULL;
			*n = 0;
			return ptb_bad_input(cmd, "%s", err);
		}
		(*runs)[*n] = run;
		if (run->duplicate) {   /* its cell shows the first record */
			fprintf(stderr, "ptbench %s: %s: point '", cmd, argv[first + *n]);
			ptb_fputs_printable(stderr, run->duplicate);
			fputs("' appears twice; the first is shown\n", stderr);
		}
	}
	return 0;
}

void ptb_runs_free(struct ptb_runfile **runs, int n)
{
	for (int i = 0; i < n; i++)
		ptb_runfile_free(runs[i]);
	free(runs);
}
