/* SPDX-License-Identifier: MIT */
/*
 * The matrix of PU pairs derived from a run (record/matrix.h).  Which
 * benchmark gives which matrix is read from the descriptors (`matrix`);
 * this file names no benchmark.  A point counts when it has a value and
 * its notes name both PUs; the record is na when none counts, unstable
 * when any counted point is, and its reason says how many pairs had no
 * value.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/matrix.h"
#include "text/text.h"
#include "text/size.h"

const enum ptb_placement ptb_matrix_classes[PTB_MATRIX_NCLASSES] = {
	PTB_SMT, PTB_CROSS_CORE, PTB_CROSS_PACKAGE, PTB_CROSS_NUMA,
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void ptb_matrix_summarize(const char *const *cls, const double *ns, int n,
			  struct ptb_matrix_class out[PTB_MATRIX_NCLASSES])
{
	double *v = ptb_array_realloc(NULL, (size_t)n + 1, sizeof *v);
	for (int c = 0; c < PTB_MATRIX_NCLASSES; c++) {
		const char *name = ptb_placement_name(ptb_matrix_classes[c]);
		int k = 0;
		for (int i = 0; v && i < n; i++)
			if (cls[i] && !strcmp(cls[i], name) && isfinite(ns[i]))
				v[k++] = ns[i];
		out[c] = (struct ptb_matrix_class){ k, NAN, NAN, NAN };
		if (k == 0)
			continue;
		qsort(v, (size_t)k, sizeof *v, cmp_double);
		out[c].min = v[0];
		out[c].max = v[k - 1];
		out[c].median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
}

bool ptb_matrix_is(const struct ptb_record *rec)
{
	return rec->is_derived && json_is_array(json_object_get(rec->json, "matrix"));
}

/* One point of a matrix benchmark. */
struct cell {
	int from, to;
	const char *cls;
	double ns;                  /* NAN: no value */
	bool unstable;
};

int ptb_matrix_note_pu(const json_t *notes, const char *key)
{
	double v = ptb_jnum(notes, key);
	return isfinite(v) && v >= 0 && v < 1e6 ? (int)v : -1;
}

/* The index of pu in the sorted pus, adding it when new. */
static int pu_index(int *pus, int *n, int pu)
{
	int i = 0;
	while (i < *n && pus[i] < pu)
		i++;
	if (i < *n && pus[i] == pu)
		return i;
	memmove(&pus[i + 1], &pus[i], (size_t)(*n - i) * sizeof *pus);
	pus[i] = pu;
	(*n)++;
	return i;
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *classes_json(const struct cell *cells, int n)
{
	const char **cls = calloc((size_t)n + 1, sizeof *cls);
	double *ns = calloc((size_t)n + 1, sizeof *ns);
	struct ptb_matrix_class sum[PTB_MATRIX_NCLASSES];
	json_t *o = json_object();
	for (int i = 0; cls && ns && i < n; i++) {
		cls[i] = cells[i].cls;
		ns[i] = cells[i].ns;
	}
	ptb_matrix_summarize(cls, ns, cls && ns ? n : 0, sum);
	for (int c = 0; c < PTB_MATRIX_NCLASSES; c++)
		json_object_set_new(o, ptb_placement_name(ptb_matrix_classes[c]),
				    json_pack("{s:o, s:o, s:o, s:i}", "min", number_or_null(sum[c].min),
					      "median", number_or_null(sum[c].median),
					      "max", number_or_null(sum[c].max), "pairs", sum[c].pairs));
	free(cls);
	free(ns);
	return o;
}

static json_t *matrix_json(const struct cell *cells, int n, json_t **pus_out)
{
	int *pus = calloc(2 * (size_t)n + 1, sizeof *pus), npus = 0;
	json_t *m = json_array();
	*pus_out = json_array();
	if (!pus)
		return m;
	for (int i = 0; i < n; i++) {
		pu_index(pus, &npus, cells[i].from);
		pu_index(pus, &npus, cells[i].to);
	}
	for (int i = 0; i < npus; i++) {
		json_t *row = json_array();
		for (int j = 0; j < npus; j++)
			json_array_append_new(row, json_null());
		json_array_append_new(m, row);
		json_array_append_new(*pus_out, json_integer(pus[i]));
	}
	for (int i = 0; i < n; i++)
		if (isfinite(cells[i].ns))
			json_array_set_new(json_array_get(m, pu_index(pus, &npus, cells[i].from)),
					   pu_index(pus, &npus, cells[i].to), json_real(cells[i].ns));
	free(pus);
	return m;
}

/* The points of b as cells; how many.  Those whose notes name no pair (an
 * na point of a machine with too few PUs) are counted in *unnamed; the
 * first reason of a point without a value is kept in *why. */
static int cells_of(const struct ptb_runfile *run, const struct ptb_bench *b, struct cell *c,
		    int *unnamed, const char **why)
{
	int n = 0;
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *r = &run->rec[i];
		const json_t *notes = json_object_get(r->json, "notes");
		if (!r->bench || strcmp(r->bench, b->name) || r->is_derived)
			continue;
		int from = ptb_matrix_note_pu(notes, "sender"), to = ptb_matrix_note_pu(notes, "receiver");
		if (!r->has_value && !*why)
			*why = r->reason;
		if (from < 0 || to < 0) {
			(*unnamed)++;
			continue;
		}
		c[n++] = (struct cell){ from, to, ptb_jstr(notes, "class"),
					r->has_value ? r->value : NAN, r->status == PTB_UNSTABLE };
	}
	return n;
}

static json_t *derive_one(const struct ptb_runfile *run, const struct ptb_bench *b)
{
	struct cell *cells = calloc(run->n + 1, sizeof *cells);
	int unnamed = 0, valued = 0, unstable = 0;
	const char *first_why = NULL;
	char why[512] = "";
	json_t *pus;
	if (!cells)
		return NULL;
	int n = cells_of(run, b, cells, &unnamed, &first_why);
	if (n + unnamed == 0) {
		free(cells);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		valued += isfinite(cells[i].ns);
		unstable += cells[i].unstable;
	}
	if (n - valued + unnamed > 0)
		ptb_appendf(why, sizeof why, "%d of %d points of %s have no value%s%s",
			    n - valued + unnamed, n + unnamed, b->name, first_why ? ": " : "",
			    first_why ? first_why : "");
	if (valued && unstable)
		ptb_appendf(why, sizeof why, "%s%d of %d pairs are unstable", *why ? "; " : "",
			    unstable, valued);
	json_t *rec = json_pack("{s:s, s:{}, s:s, s:o, s:s, s:s}", "bench", b->matrix, "params",
				"status", !valued ? "na" : unstable ? "unstable" : "ok",
				"reason", *why ? json_string(why) : json_null(), "unit", "ns",
				"per", b->per ? b->per : "operation");
	json_object_set_new(rec, "matrix", matrix_json(cells, n, &pus));
	json_object_set_new(rec, "pus", pus);
	json_object_set_new(rec, "classes", classes_json(cells, n));
	json_object_set_new(rec, "inputs", json_pack("{s:s}", "points", b->name));
	free(cells);
	return rec;
}

json_t *ptb_matrix_derive(const struct ptb_runfile *run)
{
	json_t *out = json_array();
	for (int i = 0; i < ptb_registry_count; i++) {
		json_t *rec = ptb_registry[i]->matrix ? derive_one(run, ptb_registry[i]) : NULL;
		if (rec)
			json_array_append_new(out, rec);
	}
	return out;
}
