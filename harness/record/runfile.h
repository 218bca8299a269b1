/* SPDX-License-Identifier: MIT */
/*
 * Result files on disk (schema "ptbench/2", docs/design.md): a new run
 * document, its text, writing it atomically, and reading a file back
 * validated.
 */
#ifndef PTB_RECORD_RUNFILE_H
#define PTB_RECORD_RUNFILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* Written: version 2, whose points are made of trials.  Read: both. */
#define PTB_SCHEMA    "ptbench/2"
#define PTB_SCHEMA_V1 "ptbench/1"

/* { schema, version, status: "running", context, results: [] }.  Takes
 * over the reference to context. */
json_t *ptb_run_new(json_t *context);
/* The file's text: top-level fields indented, one result record per line
 * (samples stay on it), keys in insertion order.  0, or -1 on a write error. */
int ptb_run_dump(FILE *out, const json_t *run);
/* Write to path via a temporary file and rename(2). 0, or -1 with err. */
int ptb_run_write_atomic(const json_t *run, const char *path, char *err, size_t errlen);
/* The same for any text (a report): the whole of it, or nothing, at path. */
int ptb_text_write_atomic(const char *text, size_t len, const char *path, char *err,
			  size_t errlen);
/* Read a JSON document from a file (a regular file, of bounded size), not
 * yet validated: NULL with err = one line naming the file on failure. */
json_t *ptb_json_load(const char *path, char *err, size_t errlen);
/* The same, then validated: NULL with err = one line naming the file when
 * validate (which returns < 0 after saying why) refuses it. */
json_t *ptb_doc_load(const char *path, int (*validate)(const json_t *doc, char *err, size_t errlen),
		     char *err, size_t errlen);
/* Read and validate a result file. NULL with err = one line on failure
 * ("FILE: results[3]: missing field 'bench'"). */
json_t *ptb_run_load(const char *path, char *err, size_t errlen);

#endif
