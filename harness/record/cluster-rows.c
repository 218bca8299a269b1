/* SPDX-License-Identifier: MIT */
/*
 * The per-node rows of a cluster file (record/cluster.h): a row's summary
 * over the nodes, as ptbench-mpi builds it after a job and `merge` again
 * after pooling launches; and the pooling of several launches' rows.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cluster.h"
#include "stats/stats.h"
#include "text/size.h"

static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)floor(pos);
	return lo + 1 < n ? sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

void ptb_cluster_row_summary(json_t *row)
{
	json_t *per = json_object_get(row, "per_node"), *v;
	const char *node;
	size_t cap = json_object_size(per) + 1;
	double *x = ptb_array_realloc(NULL, cap, sizeof *x);
	double *dev = ptb_array_realloc(NULL, cap, sizeof *dev);
	int n = 0;
	if (!x || !dev)
		goto out;
	json_object_foreach(per, node, v)
		if (json_is_number(json_object_get(v, "value")))
			x[n++] = json_number_value(json_object_get(v, "value"));
	if (n == 0)
		goto out;
	ptb_sort_doubles(x, n);
	double med = quantile(x, n, 0.5), p5 = quantile(x, n, 0.05), p95 = quantile(x, n, 0.95);
	for (int i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	ptb_sort_doubles(dev, n);
	double mad = quantile(dev, n, 0.5);
	json_t *outliers = json_array();
	json_object_foreach(per, node, v) {
		json_t *val = json_object_get(v, "value");
		if (json_is_number(val) && mad > 0 && fabs(json_number_value(val) - med) > 3 * mad)
			json_array_append_new(outliers, json_string(node));
	}
	json_object_set_new(row, "median", json_real(med));
	json_object_set_new(row, "p5", json_real(p5));
	json_object_set_new(row, "p95", json_real(p95));
	json_object_set_new(row, "spread_pct", json_real(med > 0 ? 100 * (p95 - p5) / med : 0));
	json_object_set_new(row, "outliers", outliers);
out:
	free(x);
	free(dev);
}

/* One node's figure of one row over the launches that have it (figs[k],
 * NULL where launch k lacks the node): with a value in two launches or
 * more, their median, and a CI that spans every launch's CI (the launches'
 * own intervals, not one of the pooled figures: a node's trials are not
 * gathered); ok when that is within +-target_pct, else unstable saying
 * so.  Each launch's value is kept in `launches`. */
static json_t *pool_node(json_t *const *figs, int n, double target_pct)
{
	double *v = ptb_array_realloc(NULL, (size_t)n + 1, sizeof *v), lo = INFINITY, hi = -INFINITY;
	json_t *each = json_array(), *first = NULL, *out;
	int k, m = 0;
	for (k = 0; k < n; k++) {
		const json_t *val = json_object_get(figs[k], "value"), *ci = json_object_get(figs[k], "ci95");
		if (figs[k] && !first)
			first = figs[k];
		json_array_append_new(each, json_is_number(val) ? json_real(json_number_value(val))
								 : json_null());
		if (!v || !json_is_number(val))
			continue;
		v[m++] = json_number_value(val);
		double a = json_is_array(ci) ? json_number_value(json_array_get(ci, 0)) : v[m - 1];
		double b = json_is_array(ci) ? json_number_value(json_array_get(ci, 1)) : v[m - 1];
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (m < 2) {   /* one launch's figure, or none: as that launch gave it */
		for (k = 0; k < n && !(figs[k] && json_is_number(json_object_get(figs[k], "value"))); k++)
			;
		out = json_deep_copy(k < n ? figs[k] : first);
	} else {
		ptb_sort_doubles(v, m);
		double med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
		double half = med > 0 ? 100 * (hi - lo) / 2 / med : INFINITY;
		char why[160];
		snprintf(why, sizeof why, "the %d launches' CIs span +-%.1f %% of the value, wider "
			 "than the target +-%g %%", m, half, target_pct);
		out = json_pack("{s:f,s:s,s:[f,f]}", "value", med, "status",
				half <= target_pct ? "ok" : "unstable", "ci95", lo, hi);
		if (half > target_pct)
			json_object_set_new(out, "reason", json_string(why));
	}
	free(v);
	json_object_set_new(out, "launches", each);
	return out;
}

/* The key of a row: its bench and params. */
static char *row_key(const json_t *row)
{
	json_t *pair = json_pack("[O,O]", json_object_get(row, "bench"),
				 json_object_get(row, "params"));
	char *key = pair ? json_dumps(pair, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(pair);
	return key;
}

/* Each launch's rows by their key: index[k] = {key: per_node}. */
static int index_rows(json_t *const *docs, int n, json_t **index, json_t *rows)
{
	json_t *seen = json_object(), *row;
	size_t i;
	for (int k = 0; k < n; k++) {
		index[k] = json_object();
		json_array_foreach(json_object_get(docs[k], "node_rows"), i, row) {
			char *key = row_key(row);
			if (!key)
				break;
			json_object_set(index[k], key, json_object_get(row, "per_node"));
			if (!json_object_get(seen, key)) {   /* in the order rows first appear */
				json_object_set_new(seen, key, json_true());
				json_array_append_new(rows, json_pack("{s:O,s:O,s:{},s:s}", "bench",
					json_object_get(row, "bench"), "params",
					json_object_get(row, "params"), "per_node", "key", key));
			}
			free(key);
		}
	}
	json_decref(seen);
	return 0;
}

json_t *ptb_cluster_merge_rows(json_t *const *docs, int n, double target_pct)
{
	json_t *rows = json_array(), *row, *per, *fig;
	json_t **index = ptb_array_realloc(NULL, (size_t)n + 1, sizeof *index);
	json_t **figs = ptb_array_realloc(NULL, (size_t)n + 1, sizeof *figs);
	const char *node;
	size_t i;
	if (!index || !figs) {
		free(index);
		free(figs);
		json_decref(rows);
		return NULL;
	}
	index_rows(docs, n, index, rows);
	json_array_foreach(rows, i, row) {
		const char *key = json_string_value(json_object_get(row, "key"));
		json_t *merged = json_object_get(row, "per_node");
		/* every node of any launch, pooled over the launches that have it */
		for (int k = 0; k < n; k++)
			json_object_foreach((per = json_object_get(index[k], key)), node, fig) {
				if (json_object_get(merged, node))
					continue;
				for (int l = 0; l < n; l++)
					figs[l] = json_object_get(json_object_get(index[l], key), node);
				json_object_set_new(merged, node, pool_node(figs, n, target_pct));
			}
		json_object_del(row, "key");
		ptb_cluster_row_summary(row);
	}
	for (int k = 0; k < n; k++)
		json_decref(index[k]);
	free(index);
	free(figs);
	return rows;
}
