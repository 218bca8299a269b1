/* SPDX-License-Identifier: MIT */
/*
 * The CSV reporter: one row per result record, every figure in ns with all
 * the digits it was recorded with, for spreadsheets and scripts.  Fields
 * are quoted as RFC 4180 says; a missing or null figure is an empty field.
 * LogP records fill the last five columns, measured points the others.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/model.h"
#include "report/format.h"
#include "report/report.h"

/* A column is a record field, or a field inside an array or object field. */
static const struct column {
	const char *head;
	const char *field;
	const char *sub;        /* member of an object field */
	int index;              /* element of an array field; -1 = none */
} columns[] = {
	/* head               field         sub        index */
	{ "bench",            "bench",      NULL,      -1 },
	{ "params",           "params",     NULL,      -1 },
	{ "status",           "status",     NULL,      -1 },
	{ "reason",           "reason",     NULL,      -1 },
	{ "per",              "per",        NULL,      -1 },
	{ "value_ns",         NULL,         NULL,      -1 },
	{ "ci95_lo_ns",       "ci95",       NULL,       0 },
	{ "ci95_hi_ns",       "ci95",       NULL,       1 },
	{ "ci_halfwidth_pct", "ci_halfwidth_pct", NULL, -1 },
	{ "drift_pct",        "drift_pct",  NULL,      -1 },
	{ "trials",           "ntrials",    NULL,      -1 },
	{ "mean_ns",          "mean",       NULL,      -1 },
	{ "sd_ns",            "sd",         NULL,      -1 },
	{ "cv_pct",           "cv_pct",     NULL,      -1 },
	{ "median_ns",        "median",     NULL,      -1 },
	{ "min_ns",           "min",        NULL,      -1 },
	{ "max_ns",           "max",        NULL,      -1 },
	{ "outliers",         "outliers",   NULL,      -1 },
	{ "iterations",       "iterations", NULL,      -1 },
	{ "timings",          "timings",    NULL,      -1 },
	{ "stop",             "stop",       NULL,      -1 },
	{ "binding_main",     "binding",    "main",    -1 },
	{ "binding_clients",  "binding",    "clients", -1 },
	{ "o_s_ns",           "o_s",        NULL,      -1 },
	{ "o_r_ns",           "o_r",        NULL,      -1 },
	{ "rtt_ns",           "rtt",        NULL,      -1 },
	{ "L_ns",             "L",          NULL,      -1 },
	{ "g_ns",             "g",          NULL,      -1 },
};

/* A column without a field is the point's figure as the model reads it:
 * a ptbench/2 value, or a ptbench/1 mean. */
static const char *cell(char *buf, size_t len, const struct ptb_record *r,
			const struct column *c)
{
	const json_t *rec = r->json;
	if (!c->field) {
		json_t *value = r->has_value && isfinite(r->value) ? json_real(r->value) : NULL;
		ptb_fmt_jnum(buf, len, value);
		json_decref(value);
		return buf;
	}
	const json_t *v = json_object_get(rec, c->field);
	if (c->sub)
		v = json_object_get(v, c->sub);
	if (c->index >= 0)
		v = json_array_get(v, (size_t)c->index);
	if (json_is_string(v))
		return json_string_value(v);    /* whole, however long */
	if (json_is_object(v))
		ptb_fmt_params(buf, len, v, ";");
	else if (json_is_array(v))
		ptb_fmt_join(buf, len, v, ";");   /* the clients' bindings, like params */
	else
		ptb_fmt_jnum(buf, len, v);
	return buf;
}

void ptb_report_csv(FILE *out, const struct ptb_runfile *run,
		    const struct ptb_report_opts *o)
{
	(void)o;   /* every record, whatever the options */
	const size_t ncol = sizeof columns / sizeof *columns;
	char buf[4096];
	for (size_t c = 0; c < ncol; c++)
		fprintf(out, "%s%s", c ? "," : "", columns[c].head);
	fputc('\n', out);
	for (size_t i = 0; i < run->n; i++) {
		for (size_t c = 0; c < ncol; c++) {
			if (c)
				fputc(',', out);
			ptb_csv_field(out, cell(buf, sizeof buf, &run->rec[i], &columns[c]));
		}
		fputc('\n', out);
	}
}
