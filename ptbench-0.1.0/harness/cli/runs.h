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

#endif
