/* SPDX-License-Identifier: MIT */
/* Result files named on a command line (cli/runs.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/error.h"
#include "cli/runs.h"
#include "record/cluster.h"
#include "record/runfile.h"
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

int ptb_runs_cluster(const char *cmd, int argc, char **argv, int first, json_t **doc)
{
	char err[512];
	*doc = NULL;
	for (int i = first; i < argc; i++) {
		json_t *d = ptb_json_load(argv[i], err, sizeof err);
		bool cluster = d && ptb_cluster_is(d);
		if (cluster && argc - first > 1) {
			json_decref(d);
			return ptb_bad_input(cmd, "%s: a %s file is read alone (its nodes are its "
					     "columns)", argv[i], PTB_CLUSTER_SCHEMA);
		}
		if (cluster && ptb_cluster_validate(d, err, sizeof err) < 0) {
			json_decref(d);
			return ptb_bad_input(cmd, "%s: %s", argv[i], err);
		}
		if (cluster) {
			*doc = d;
			return 1;
		}
		json_decref(d);
	}
	return 0;
}
