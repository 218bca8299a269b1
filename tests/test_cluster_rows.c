/* SPDX-License-Identifier: MIT */
/*
 * The per-node rows' summary over a cluster's nodes
 * (ptb_cluster_row_summary, record/cluster-rows.c) apart from any MPI job:
 * median, p5/p95 interpolated between the sorted values, spread in % of
 * the median and the nodes more than 3 MAD from the median, on crafted
 * rows of 1, 2, 5, 9 and 1000 nodes with exact answers; and the table's
 * limit of a column per node (tools/cluster.c): 8 nodes get a column
 * each, 9 get the summary and the outliers instead.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cluster.h"
#include "tools/cluster.h"
#include "tap.h"

/* A row whose node NAMEi (i = 0..n-1) measured v[i]; na where v[i] < 0. */
static json_t *row(const char *name, const double *v, int n)
{
	json_t *per = json_object();
	for (int i = 0; i < n; i++) {
		char key[32];
		snprintf(key, sizeof key, "%s%d", name, i);
		json_object_set_new(per, key, v[i] < 0 ? json_pack("{s:s}", "status", "na")
			: json_pack("{s:f,s:s}", "value", v[i], "status", "ok"));
	}
	return json_pack("{s:s,s:{},s:o}", "bench", "yield", "params", "per_node", per);
}

static double num(const json_t *r, const char *key)
{
	return json_number_value(json_object_get(r, key));
}

/* The summary's five figures and its outliers joined by spaces. */
static void expect(const json_t *r, double med, double p5, double p95, double spread,
		   const char *outliers, const char *what)
{
	char got[256] = "";
	const json_t *o;
	size_t i;
	json_array_foreach(json_object_get(r, "outliers"), i, o)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? " " : "",
			 json_string_value(o));
	tap_near(num(r, "median"), med, 1e-9 * (med > 1 ? med : 1), "%s: median %g", what, med);
	tap_near(num(r, "p5"), p5, 1e-9 * (p5 > 1 ? p5 : 1), "%s: p5 %g", what, p5);
	tap_near(num(r, "p95"), p95, 1e-9 * (p95 > 1 ? p95 : 1), "%s: p95 %g", what, p95);
	tap_near(num(r, "spread_pct"), spread, 1e-9 * (spread > 1 ? spread : 1),
		 "%s: spread %g %%", what, spread);
	if (!tap_ok(json_is_array(json_object_get(r, "outliers")) && !strcmp(got, outliers),
		    "%s: outliers '%s'", what, outliers))
		printf("#   got '%s'\n", got);
}

static void test_summary(void)
{
	/* one node: every quantile its value, no spread, no outlier */
	double one[] = { 7 };
	json_t *r = row("n", one, 1);
	ptb_cluster_row_summary(r);
	expect(r, 7, 7, 7, 0, "", "1 node");
	json_decref(r);

	/* two: the median halfway, p5 and p95 5 % in from either end */
	double two[] = { 30, 10 };
	r = row("n", two, 2);
	ptb_cluster_row_summary(r);
	expect(r, 20, 11, 29, 90, "", "2 nodes");
	json_decref(r);

	/* 1..9: median 5, p5 at 0.4 of the way from 1 to 2, p95 at 0.6 from 8
	 * to 9; |x - 5| sorted 0 1 1 2 2 3 3 4 4: MAD 2, nobody beyond 6 */
	double nine[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 };
	r = row("n", nine, 9);
	ptb_cluster_row_summary(r);
	expect(r, 5, 1.4, 8.6, 144, "", "9 nodes 1..9");
	json_decref(r);

	/* one node far out: 1..8 and 100.  Median 5; |x - 5|: 4 3 2 1 0 1 2 3
	 * 95, MAD 2, so n8 (95 > 6) is named and no other; p95 between 8 and
	 * 100 at 0.6 */
	double far[] = { 1, 2, 3, 4, 5, 6, 7, 8, 100 };
	r = row("n", far, 9);
	ptb_cluster_row_summary(r);
	expect(r, 5, 1.4, 63.2, 100 * (63.2 - 1.4) / 5, "n8", "9 nodes, one outlier");
	json_decref(r);

	/* a MAD of 0: four nodes agree, the fifth is far off but no node is
	 * more than 3 x 0 from the median by that rule: none named */
	double flat[] = { 5, 5, 9, 5, 5 };
	r = row("n", flat, 5);
	ptb_cluster_row_summary(r);
	expect(r, 5, 5, 8.2, 64, "", "MAD 0");
	json_decref(r);

	/* a node without a figure is left out of every figure */
	double na[] = { 30, -1, 10 };
	r = row("n", na, 3);
	ptb_cluster_row_summary(r);
	expect(r, 20, 11, 29, 90, "", "2 values and a node na");
	json_decref(r);

	/* no value at all: no summary */
	double none[] = { -1, -1 };
	r = row("n", none, 2);
	ptb_cluster_row_summary(r);
	tap_ok(!json_object_get(r, "median") && !json_object_get(r, "outliers"),
	       "no node with a value: no median, no outliers");
	json_decref(r);

	/* 1000 nodes 0..999, n999 replaced by 10000: median 499.5; p5 at
	 * 0.05 x 999 = 49.95, p95 at 949.05; |x - 499.5| pairs 0.5 0.5 1.5
	 * 1.5 ...: the middle two 249.5 and 250.5, MAD 250; n999 is 9500.5
	 * away, more than 750, the rest at most 499.5 */
	double *many = malloc(1000 * sizeof *many);
	for (int i = 0; i < 1000; i++)
		many[i] = i;
	r = row("n", many, 1000);
	ptb_cluster_row_summary(r);
	expect(r, 499.5, 49.95, 949.05, 100 * (949.05 - 49.95) / 499.5, "", "1000 nodes");
	json_decref(r);
	many[999] = 10000;
	r = row("n", many, 1000);
	ptb_cluster_row_summary(r);
	expect(r, 499.5, 49.95, 949.05, 100 * (949.05 - 49.95) / 499.5, "n999",
	       "1000 nodes, n999 far out");
	json_decref(r);
	free(many);
}

/* A cluster document of n nodes h0..h(n-1) with one per-node row, printed
 * as text into buf. */
static void table_of(int n, char *buf, size_t len)
{
	double *v = malloc((size_t)n * sizeof *v);
	for (int i = 0; i < n; i++)
		v[i] = 1000 + i;
	v[n - 1] = 1e6;
	json_t *nodes = json_array(), *r = row("h", v, n);
	for (int i = 0; i < n; i++) {
		char host[32];
		snprintf(host, sizeof host, "h%d", i);
		json_array_append_new(nodes, json_pack("{s:s,s:i}", "host", host, "rank", i));
	}
	ptb_cluster_row_summary(r);
	json_t *doc = json_pack("{s:s,s:s,s:{s:o,s:i},s:[],s:[o]}", "schema", PTB_CLUSTER_SCHEMA,
				"status", "complete", "context", "nodes", nodes, "threads", 1,
				"results", "node_rows", r);
	FILE *f = tmpfile();
	size_t got = 0;
	if (f && ptb_cluster_print(f, doc, PTB_GRID_TEXT) == 0) {
		rewind(f);
		got = fread(buf, 1, len - 1, f);
	}
	buf[got] = 0;
	if (f)
		fclose(f);
	json_decref(doc);
	free(v);
}

static void test_columns(void)
{
	static char t[16384];
	char head[128];
	table_of(PTB_CLUSTER_NODE_COLUMNS, t, sizeof t);
	snprintf(head, sizeof head, " h%d ", PTB_CLUSTER_NODE_COLUMNS - 1);
	tap_ok(strstr(t, " h0  ") && strstr(t, head) && !strstr(t, "Outliers"),
	       "%d nodes: a column per node, no outlier column", PTB_CLUSTER_NODE_COLUMNS);
	table_of(PTB_CLUSTER_NODE_COLUMNS + 1, t, sizeof t);
	const char *hd = strstr(t, "Benchmark");
	const char *line = hd ? strchr(hd, '\n') : NULL;
	snprintf(head, sizeof head, "h%d\n", PTB_CLUSTER_NODE_COLUMNS);
	tap_ok(hd && line && strstr(hd, "Median") < line && strstr(hd, "Outliers (> 3 MAD)") < line &&
	       !strstr(hd, " h0 ") && strstr(line, head),
	       "%d nodes: no column per node, the summary and the outlier h%d named",
	       PTB_CLUSTER_NODE_COLUMNS + 1, PTB_CLUSTER_NODE_COLUMNS);
	if (tap_failed)
		printf("# %s", t);
}

int main(void)
{
	test_summary();
	test_columns();
	tap_done();
	return tap_exit();
}
