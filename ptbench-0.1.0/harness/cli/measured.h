/* SPDX-License-Identifier: MIT */
/*
 * The cache levels `ptbench info` shows once a run has measured them: the
 * derived cache-levels record of a result file named on the command line,
 * or else of the newest ptbench-*.json in the current directory (where
 * `ptbench run` saves by default) that was measured on this host and holds
 * one.
 */
#ifndef PTB_CLI_MEASURED_H
#define PTB_CLI_MEASURED_H

#include <stddef.h>

#include "record/model.h"

/* The run and its levels record (*rec); NULL with *rec NULL when none is
 * found.  A named file that cannot be read is NULL with err set. */
struct ptb_runfile *ptb_measured_levels(const char *path, const char *host,
					const struct ptb_record **rec, char *err,
					size_t errlen);

#endif
