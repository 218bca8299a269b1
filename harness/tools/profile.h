/* SPDX-License-Identifier: MIT */
/*
 * The profiler's result (docs/design.md, "The profiler"): the Valgrind
 * tool's raw counts turned into the ptbench-profile/1 document -- the
 * program, its exit, a verdict per object, objects by misses -- and that
 * document printed as a table or as JSON.
 */
#ifndef PTB_TOOLS_PROFILE_H
#define PTB_TOOLS_PROFILE_H

#include <stdio.h>
#include <jansson.h>

/* An object with fewer coherence misses than this gets no verdict: a few
 * misses are the cost of any communication, startup's included. */
#define PTB_PROFILE_FLAG_MIN 32

/* The document from the tool's file; NULL with err filled when it is
 * missing or not the tool's.  exit_status < 0: the program was killed by
 * signal `signo`. */
json_t *ptb_profile_document(const char *raw_path, const char *program, int exit_status,
			     int signo, char *err, size_t errlen);

void ptb_profile_print_table(FILE *out, const json_t *doc);
int ptb_profile_print_json(FILE *out, const json_t *doc);

#endif
