/* SPDX-License-Identifier: MIT */
/*
 * The profiler's result (docs/design.md, "The profiler"): the Valgrind
 * tool's raw counts turned into the ptbench-profile/1 document -- the
 * program, its exit, a verdict per object, objects by misses -- and that
 * document printed as a table or as JSON.
 */
#ifndef PTB_TOOLS_PROFILE_H
#define PTB_TOOLS_PROFILE_H

#include <stdbool.h>
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

/* A ptbench-profile/1 document read back from path (for the plot and the
 * page), checked for what they read: the schema, the program, every
 * object's name, kind and counts, each thread's counts.  NULL with a
 * one-line reason in err otherwise. */
json_t *ptb_profile_load(const char *path, char *err, size_t errlen);
/* The file is a JSON document of schema ptbench-profile/1 (valid or not). */
bool ptb_profile_is_file(const char *path);
int ptb_profile_print_json(FILE *out, const json_t *doc);

#endif
