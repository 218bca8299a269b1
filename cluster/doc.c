/* SPDX-License-Identifier: MIT */
/*
 * The ptbench-cluster/1 document: rank 0 builds it, rewrites it atomically
 * after every finished point (so a job that fails keeps what it finished,
 * marked incomplete), and prints its table.
 */
#include "config.h"
#include "cluster/cluster.h"
#include "record/runfile.h"
#include "stats/trials.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t doc_lock = PTHREAD_MUTEX_INITIALIZER;

static int save_locked(struct ptb_cl *c, const char *status, char *err, size_t errlen)
{
	json_object_set_new(c->doc, "status", json_string(status));
	if (c->out && ptb_run_write_atomic(c->doc, c->out, err, errlen) != 0) {
		c->out = NULL;   /* the caller ends the job; no second attempt */
		return -1;
	}
	return 0;
}

int ptb_cl_write(struct ptb_cl *c, const char *status, char *err, size_t errlen)
{
	pthread_mutex_lock(&doc_lock);
	int rc = save_locked(c, status, err, errlen);
	pthread_mutex_unlock(&doc_lock);
	return rc;
}

void ptb_cl_save(struct ptb_cl *c, const char *status)
{
	/* The watchdog may call this while the main thread holds the lock
	 * only if the main thread is stuck outside MPI: never wait for ever. */
	if (pthread_mutex_trylock(&doc_lock) != 0)
		return;
	char err[512];
	save_locked(c, status, err, sizeof err);
	pthread_mutex_unlock(&doc_lock);
}

void ptb_cl_add(struct ptb_cl *c, json_t *rec)
{
	char err[512];
	pthread_mutex_lock(&doc_lock);
	json_array_append_new(json_object_get(c->doc, "results"), rec);
	int rc = save_locked(c, "running", err, sizeof err);
	pthread_mutex_unlock(&doc_lock);
	if (rc != 0)
		ptb_cl_fail(c, "%s", err);
}

void ptb_cl_set_node_rows(struct ptb_cl *c, json_t *rows)
{
	char err[512];
	pthread_mutex_lock(&doc_lock);
	json_object_set_new(c->doc, "node_rows", rows);
	int rc = save_locked(c, "running", err, sizeof err);
	pthread_mutex_unlock(&doc_lock);
	if (rc != 0)
		ptb_cl_fail(c, "%s", err);
}

json_t *ptb_cl_point(const char *bench, json_t *params, const char *per,
		     const double *trials, int n, double target_pct)
{
	struct ptb_trials_summary s;
	char why[160];
	ptb_trials_summarize(trials, n, &s);
	/* As for ptbench's points: a CI wider than the target is unstable,
	 * saying so, never ok. */
	bool stable = s.halfwidth_pct <= target_pct;
	snprintf(why, sizeof why, "95 %% CI +-%.1f %% of the value, wider than the target +-%g %%",
		 s.halfwidth_pct, target_pct);
	json_t *tr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(tr, json_pack("{s:f,s:i}", "estimate", trials[i], "round", i + 1));
	return json_pack("{s:s,s:o,s:s,s:s?,s:s,s:s,s:f,s:[f,f],s:f,s:i,s:o}", "bench", bench,
		"params", params, "status", stable ? "ok" : "unstable", "reason",
		stable ? NULL : why, "unit", "ns", "per", per,
		"value", s.value, "ci95", s.ci_lo, s.ci_hi, "coverage", s.coverage,
		"modes", s.nmodes, "trials", tr);
}

json_t *ptb_cl_point_na(const char *bench, json_t *params, const char *reason)
{
	return json_pack("{s:s,s:o,s:s,s:s}", "bench", bench, "params", params, "status", "na",
			 "reason", reason);
}

/* A string field for the table; "-" where a stored file lacks it. */
static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "-";
}

static void params_text(const json_t *params, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	buf[0] = 0;
	json_object_foreach((json_t *)params, k, v) {
		size_t u = strlen(buf);
		if (json_is_string(v))
			snprintf(buf + u, len - u, "%s%s=%s", u ? " " : "", k, json_string_value(v));
		else
			snprintf(buf + u, len - u, "%s%s=%lld", u ? " " : "", k,
				 (long long)json_integer_value(v));
	}
}

static void table_context(FILE *out, const json_t *doc)
{
	json_t *ctx = json_object_get(doc, "context");
	json_t *mpi = json_object_get(ctx, "mpi");
	json_t *nodes = json_object_get(ctx, "nodes");
	fprintf(out, "%s  %s  %zu nodes%s\n", str(doc, "schema"), str(doc, "status"),
		json_array_size(nodes),
		json_is_true(json_object_get(ctx, "as_nodes")) ? " (ranks as nodes)" : "");
	fprintf(out, "MPI: %s (standard %s), thread level %s (asked %s), launcher %s\n\n",
		str(mpi, "library"), str(mpi, "standard"),
		str(mpi, "provided"), str(mpi, "requested"), str(mpi, "launcher"));
	fprintf(out, "%-6s %-24s %-10s %14s %12s\n", "node", "host", "cpuset", "offset ns", "bound ns");
	size_t i;
	json_t *n;
	json_t *offs = json_object_get(json_object_get(ctx, "clock"), "offsets");
	json_array_foreach(nodes, i, n) {
		json_t *o = json_array_get(offs, i);
		fprintf(out, "%-6lld %-24s %-10s %14lld %12lld%s\n",
			(long long)json_integer_value(json_object_get(n, "rank")),
			str(n, "host"), str(n, "cpuset"),
			(long long)json_integer_value(json_object_get(o, "offset_ns")),
			(long long)json_integer_value(json_object_get(o, "width_ns")),
			json_is_true(json_object_get(n, "fewer_pus_than_threads"))
				? "  ! fewer PUs than threads" : "");
	}
	fputc('\n', out);
}

/* One row per point of the per-node suite: every node's value up to 8
 * nodes, beyond that only the spread and the outlier nodes. */
static void table_nodes(FILE *out, const json_t *doc)
{
	json_t *rows = json_object_get(doc, "node_rows"), *r;
	size_t i, nnodes = json_array_size(json_object_get(json_object_get(doc, "context"), "nodes"));
	if (!json_is_array(rows) || json_array_size(rows) == 0)
		return;
	fprintf(out, "per node: %-26s %-26s %12s %12s %12s %8s  %s\n", "bench", "params", "median",
		"p5", "p95", "spread%", nnodes <= 8 ? "per node" : "outliers (> 3 MAD)");
	json_array_foreach(rows, i, r) {
		char p[256], rest[1024] = "";
		params_text(json_object_get(r, "params"), p, sizeof p);
		const char *node;
		json_t *v, *o;
		size_t k;
		if (nnodes <= 8) {
			json_object_foreach(json_object_get(r, "per_node"), node, v) {
				size_t u = strlen(rest);
				if (json_is_number(json_object_get(v, "value")))
					snprintf(rest + u, sizeof rest - u, "%s=%.1f(%s) ", node,
						 json_number_value(json_object_get(v, "value")),
						 str(v, "status"));
				else
					snprintf(rest + u, sizeof rest - u, "%s=%s ", node, str(v, "status"));
			}
		}
		json_array_foreach(json_object_get(r, "outliers"), k, o) {
			size_t u = strlen(rest);
			snprintf(rest + u, sizeof rest - u, "%s%s", k ? "" : "outliers: ",
				 json_string_value(o) ? json_string_value(o) : "-");
			u = strlen(rest);
			snprintf(rest + u, sizeof rest - u, " ");
		}
		if (!json_is_number(json_object_get(r, "median")))
			fprintf(out, "          %-26s %-26s %12s %12s %12s %8s  %s\n", str(r, "bench"), p,
				"-", "-", "-", "-", rest);
		else
			fprintf(out, "          %-26s %-26s %12.1f %12.1f %12.1f %8.1f  %s\n",
				str(r, "bench"), p, json_number_value(json_object_get(r, "median")),
				json_number_value(json_object_get(r, "p5")),
				json_number_value(json_object_get(r, "p95")),
				json_number_value(json_object_get(r, "spread_pct")), rest);
	}
	fputc('\n', out);
}

void ptb_cl_table(FILE *out, const json_t *doc)
{
	table_context(out, doc);
	table_nodes(out, doc);
	fprintf(out, "%-22s %-40s %12s %25s  %s\n", "bench", "params", "ns", "95% CI", "status");
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(doc, "results"), i, r) {
		char p[256], fig[32] = "", ci[64] = "";
		params_text(json_object_get(r, "params"), p, sizeof p);
		json_t *v = json_object_get(r, "value"), *c = json_object_get(r, "ci95");
		json_t *viol = json_object_get(r, "violations");
		if (v)
			snprintf(fig, sizeof fig, "%.1f", json_number_value(v));
		if (c)
			snprintf(ci, sizeof ci, "[%.1f, %.1f]", json_number_value(json_array_get(c, 0)),
				 json_number_value(json_array_get(c, 1)));
		if (viol)
			snprintf(ci, sizeof ci, "%lld/%lld violations",
				 (long long)json_integer_value(viol),
				 (long long)json_integer_value(json_object_get(r, "episodes")));
		fprintf(out, "%-22s %-40s %12s %25s  %s%s%s\n",
			str(r, "bench"), p, fig, ci, str(r, "status"),
			json_is_string(json_object_get(r, "reason")) ? ": " : "",
			json_is_string(json_object_get(r, "reason"))
				? json_string_value(json_object_get(r, "reason")) : "");
	}
}
