/* SPDX-License-Identifier: MIT */
/*
 * A derived matrix of PU pairs (record/matrix.h) as the table reporter
 * prints it: the matrix in ns, senders down and receivers across ("-"
 * where a pair was not measured or has no value), then the summary per
 * placement class.  Up to PTB_MATRIX_SHOWN PUs the whole matrix is shown;
 * a larger one (a sample of its pairs) is left to the result file, and
 * only the summary is printed.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>

#include "record/matrix.h"
#include "report/grid.h"
#include "report/report.h"

#define PTB_MATRIX_SHOWN 64

static void fmt_ns(char *buf, size_t len, const json_t *v)
{
	if (json_is_number(v))
		snprintf(buf, len, "%.1f", json_number_value(v));
	else
		snprintf(buf, len, "-");
}

static void print_matrix(FILE *out, const json_t *pus, const json_t *m)
{
	struct ptb_grid g;
	int n = (int)json_array_size(pus);
	char buf[32];
	if (ptb_grid_init(&g, n + 1, n + 1, 1) < 0)
		return;
	ptb_grid_set(&g, 0, 0, "from\\to");
	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(json_array_get(pus, i)));
		ptb_grid_set(&g, 0, i + 1, buf);
		ptb_grid_set(&g, i + 1, 0, buf);
		for (int j = 0; j < n; j++) {
			fmt_ns(buf, sizeof buf, json_array_get(json_array_get(m, i), j));
			ptb_grid_set(&g, i + 1, j + 1, buf);
		}
	}
	ptb_grid_print(out, &g, PTB_GRID_TEXT, NULL, 0);
	ptb_grid_free(&g);
}

static void print_classes(FILE *out, const json_t *classes)
{
	static const char *const heads[] = { "class", "pairs", "min", "median", "max" };
	struct ptb_grid g;
	char buf[32];
	if (ptb_grid_init(&g, PTB_MATRIX_NCLASSES + 1, 5, 1) < 0)
		return;
	for (int c = 0; c < 5; c++)
		ptb_grid_set(&g, 0, c, heads[c]);
	for (int k = 0; k < PTB_MATRIX_NCLASSES; k++) {
		const char *name = ptb_placement_name(ptb_matrix_classes[k]);
		const json_t *cls = json_object_get(classes, name);
		ptb_grid_set(&g, k + 1, 0, name);
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(json_object_get(cls, "pairs")));
		ptb_grid_set(&g, k + 1, 1, buf);
		for (int c = 2; c < 5; c++) {
			fmt_ns(buf, sizeof buf, json_object_get(cls, heads[c]));
			ptb_grid_set(&g, k + 1, c, buf);
		}
	}
	ptb_grid_print(out, &g, PTB_GRID_TEXT, NULL, 0);
	ptb_grid_free(&g);
}

void ptb_report_matrix(FILE *out, const struct ptb_record *r)
{
	const json_t *pus = json_object_get(r->json, "pus");
	const char *per = ptb_jstr(r->json, "per");
	fprintf(out, "\n%s: ns per %s, sender (row) to receiver (column), over %zu PUs",
		r->bench, per ? per : "operation", json_array_size(pus));
	if (r->status != PTB_OK)
		fprintf(out, " (%s%s%s)", r->status_name, r->reason ? ": " : "",
			r->reason ? r->reason : "");
	fputc('\n', out);
	if (json_array_size(pus) <= PTB_MATRIX_SHOWN)
		print_matrix(out, pus, json_object_get(r->json, "matrix"));
	else
		fprintf(out, "(%zu PUs: the matrix is in the result file)\n", json_array_size(pus));
	fprintf(out, "\nby placement class, ns per %s:\n", per ? per : "operation");
	print_classes(out, json_object_get(r->json, "classes"));
}
