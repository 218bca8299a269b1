/* SPDX-License-Identifier: MIT */
/*
 * What a run says on stderr while it measures: one line per finished point,
 * or on a terminal one live line naming the point being measured.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/model.h"
#include "run/suite.h"

/* The point a record is about, "bench var=value ...", for the progress line. */
static void point_name(const json_t *rec, char *buf, size_t len)
{
	char *key = ptb_point_key(json_string_value(json_object_get(rec, "bench")),
				  json_object_get(rec, "params"));
	snprintf(buf, len, "%s", key ? key : "?");
	free(key);
}

/* ", disturbed: others took 48 % of its PUs", or "" (docs/design.md section 13) */
static const char *disturbed_text(const json_t *rec)
{
	static char buf[96];
	const json_t *d = json_object_get(rec, "disturbance");
	buf[0] = 0;
	double steal = json_number_value(json_object_get(d, "steal_share"));
	if (json_is_true(json_object_get(rec, "disturbed")))
		snprintf(buf, sizeof buf, ", disturbed: others took %.0f %% of its PUs%s",
			 100 * json_number_value(json_object_get(d, "other_share")),
			 steal >= 0.005 ? ", the hypervisor some too" : "");
	return buf;
}

void ptb_progress_done(int done, const json_t *rec)
{
	char what[256];
	const char *st = json_string_value(json_object_get(rec, "status"));
	bool tty = isatty(STDERR_FILENO);
	point_name(rec, what, sizeof what);
	if (!strcmp(st, "ok") || !strcmp(st, "unstable"))
		fprintf(stderr, "%s[%d] %-48s %12.1f ns +-%.1f %%  %s%s%s", tty ? "\r\033[K" : "",
			done, what, json_number_value(json_object_get(rec, "value")),
			json_number_value(json_object_get(rec, "ci_halfwidth_pct")), st,
			disturbed_text(rec), tty ? "" : "\n");
	else
		fprintf(stderr, "%s[%d] %-48s %s: %s%s", tty ? "\r\033[K" : "", done, what, st,
			json_string_value(json_object_get(rec, "reason")) ?: "", tty ? "" : "\n");
	fflush(stderr);
}

/* On a terminal the live line names the round and the point measured. */
void ptb_progress_trial(int done, int round, const char *bench, const json_t *params)
{
	char what[256];
	json_t *rec;
	if (!isatty(STDERR_FILENO))
		return;
	rec = json_pack("{s:s,s:O}", "bench", bench, "params", params);
	point_name(rec, what, sizeof what);
	json_decref(rec);
	fprintf(stderr, "\r\033[K[%d done, round %d] %-48s", done, round, what);
	fflush(stderr);
}

void ptb_progress_end(void)
{
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
}
