/* SPDX-License-Identifier: MIT */
/*
 * Result files named on a command line, loaded for a command that reads
 * several (`table`, `report --format html`): a file that cannot be read is
 * bad input, a file with a point twice is read with a warning.
 */
#ifndef PTB_CLI_RUNS_H
#define PTB_CLI_RUNS_H

#include "record/model.h"

/* Load argv[first..argc) into *runs (n of them): 0, or 2 after one line on
 * stderr, with nothing left to free. */
int ptb_runs_load(const char *cmd, int argc, char **argv, int first,
		  struct ptb_runfile ***runs, int *n);
void ptb_runs_free(struct ptb_runfile **runs, int n);

/* A cluster job's file (ptbench-cluster/1, record/cluster.h) among
 * argv[first..argc): 1 with *doc the validated document when it is the one
 * file named; 0 when no file named is one (or cannot be read: the run
 * files' loader says why); 2 after one line on stderr when one is named
 * with others or is not valid. */
int ptb_runs_cluster(const char *cmd, int argc, char **argv, int first, json_t **doc);

#endif
