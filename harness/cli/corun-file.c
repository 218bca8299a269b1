/* SPDX-License-Identifier: MIT */
/*
 * Reading a program's co-running slowdown (cli/corun-file.h).  The file
 * is checked whole before anything is taken from it: a hand-edited or
 * foreign file is refused in one line rather than applied in part.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/corun-file.h"
#include "record/runfile.h"
#include "text/text.h"

/* A file of 64 counts with their rounds' factors is a few kB; a larger
 * one is not one, and is not read into memory to find that out. */
#define MAX_BYTES (1 << 20)

/* One point of "slowdown": copies k after `prev`, factor f. */
static int point(json_t *p, int prev, int *k, double *f)
{
	json_t *jk = json_object_get(p, "copies"), *jf = json_object_get(p, "factor");
	if (!json_is_integer(jk) || !json_is_number(jf))
		return -1;
	json_int_t v = json_integer_value(jk);
	*f = json_number_value(jf);
	if (v <= prev || v > 4096 || !(*f >= 1e-2 && *f <= 1e3))
		return -1;
	*k = (int)v;
	return 0;
}

static int curve(json_t *slow, struct ptb_corun_curve *cv)
{
	size_t n = json_array_size(slow);
	if (!json_is_array(slow) || n < 2 || n > PTB_CORUN_KS)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (point(json_array_get(slow, i), i ? cv->k[i - 1] : 0, &cv->k[i], &cv->factor[i]))
			return -1;
	cv->nk = (int)n;
	return cv->k[0] == 1 && fabs(cv->factor[0] - 1) < 1e-9 ? 0 : -1;
}

/* "sliced": absent or null (0), or an object whose factor is in range. */
static int sliced(json_t *o, double *f)
{
	*f = 0;
	if (!o || json_is_null(o))
		return 0;
	json_t *jf = json_object_get(o, "factor");
	if (!json_is_object(o) || !json_is_number(jf))
		return -1;
	*f = json_number_value(jf);
	return *f >= 1e-2 && *f <= 1e3 ? 0 : -1;
}

int ptb_corun_file_load(const char *path, struct ptb_program_corun *pc, char *err,
			size_t errlen)
{
	struct stat st;
	memset(pc, 0, sizeof *pc);
	pc->file = path;
	if (stat(path, &st) == 0 && st.st_size > MAX_BYTES) {
		ptb_errf(err, errlen, "%s: %lld bytes, too large for a file of ptbench corun "
			 "(at most %d)", path, (long long)st.st_size, MAX_BYTES);
		return -1;
	}
	/* a FIFO, a device, an empty file: refused in one line, not waited on */
	json_t *doc = ptb_json_load(path, err, errlen);
	if (!doc)
		return -1;
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const char *program = json_string_value(json_object_get(doc, "program"));
	int rc = -1;
	if (!schema || strcmp(schema, PTB_CORUN_SCHEMA))
		ptb_errf(err, errlen, "%s: not a file of ptbench corun (schema %s, not %s)", path,
			 schema ? schema : "missing", PTB_CORUN_SCHEMA);
	else if (curve(json_object_get(doc, "slowdown"), &pc->curve))
		ptb_errf(err, errlen, "%s: \"slowdown\" must list copies from 1 (factor 1) "
			 "upwards, each with a factor of 0.01 to 1000", path);
	else if (sliced(json_object_get(doc, "sliced"), &pc->sliced))
		ptb_errf(err, errlen, "%s: \"sliced\" must be null or hold a factor of 0.01 to "
			 "1000", path);
	else
		rc = 0;
	if (!rc)
		snprintf(pc->program, sizeof pc->program, "%s", program ? program : "?");
	json_decref(doc);
	return rc;
}
