/* SPDX-License-Identifier: MIT */
/*
 * The ptbench-cluster/1 document: rank 0 builds it, rewrites it atomically
 * after every finished point (so a job that fails keeps what it finished,
 * marked incomplete), and prints its table.
 */
#include "config.h"
#include "cluster/cluster.h"
#include "record/runfile.h"
#include "record/cluster.h"
#include "tools/cluster.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t doc_lock = PTHREAD_MUTEX_INITIALIZER;
static bool sealed;   /* saved as the job failed: no later write */
#define SAVE_WAIT_S 10

/* PTB_MPI_TEST_SLOW_WRITE_MS=N (tests): each of rank 0's writes takes N ms
 * longer, as on a disk busy with other work; read under doc_lock */
static unsigned slow_write_ms(void)
{
	static int ms = -1;
	if (ms < 0) {
		const char *v = getenv("PTB_MPI_TEST_SLOW_WRITE_MS");
		ms = v ? atoi(v) : 0;
		ms = ms > 0 && ms < 60000 ? ms : 0;
	}
	return (unsigned)ms;
}

static int save_locked(struct ptb_cl *c, const char *status, char *err, size_t errlen)
{
	if (sealed)
		return 0;
	json_object_set_new(c->doc, "status", json_string(status));
	if (slow_write_ms())
		usleep(slow_write_ms() * 1000u);
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
	/* Another thread (the watchdog, the lifelines' watcher) calls this
	 * while the main thread may hold the lock.  The lock is only ever held
	 * to write the file, and a rank's death is seen at once, perhaps while
	 * rank 0 writes its first file: that write must end first, however
	 * slow the disk (two fsyncs took over 300 ms under a parallel build's
	 * load, and the file stayed "running" while the line said
	 * "incomplete").  Only a file system that stopped answering holds it
	 * longer than this, and then no second write would end either. */
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += SAVE_WAIT_S;
	if (pthread_mutex_timedlock(&doc_lock, &until) != 0)
		return;
	char err[512];
	save_locked(c, status, err, sizeof err);
	sealed = true;
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

void ptb_cl_add_resync(struct ptb_cl *c, int round, json_t *clock)
{
	pthread_mutex_lock(&doc_lock);
	json_t *ctx_clock = json_object_get(json_object_get(c->doc, "context"), "clock");
	json_t *list = json_object_get(ctx_clock, "resyncs");
	if (!list) {
		list = json_array();
		json_object_set_new(ctx_clock, "resyncs", list);
	}
	json_array_append_new(list, json_pack("{s:i,s:O}", "round", round, "offsets",
					      json_object_get(clock, "offsets")));
	pthread_mutex_unlock(&doc_lock);
	json_decref(clock);
}

json_t *ptb_cl_point(const char *bench, json_t *params, const char *per,
		     const double *trials, int n, double target_pct)
{
	json_t *tr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(tr, json_pack("{s:f,s:i}", "estimate", trials[i], "round", i + 1));
	json_t *rec = ptb_cluster_point(bench, params, per, tr, target_pct);
	return rec ? rec : ptb_cl_point_na(bench, json_object(), "out of memory");
}

json_t *ptb_cl_point_skew(const char *bench, json_t *params, const char *per,
			  const double *trials, const struct ptb_cl_skew *skews, int n,
			  double target_pct)
{
	json_t *tr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(tr, json_pack("{s:f,s:i,s:I,s:I}", "estimate", trials[i],
			"round", i + 1, "exit_skew_ns", (json_int_t)skews[i].median_ns,
			"exit_skew_bound_ns", (json_int_t)skews[i].bound_ns));
	json_t *rec = ptb_cluster_point(bench, params, per, tr, target_pct);
	return rec ? rec : ptb_cl_point_na(bench, json_object(), "out of memory");
}

json_t *ptb_cl_point_na(const char *bench, json_t *params, const char *reason)
{
	return json_pack("{s:s,s:o,s:s,s:s}", "bench", bench, "params", params, "status", "na",
			 "reason", reason);
}

void ptb_cl_table(FILE *out, const json_t *doc)
{
	/* the table `ptbench report` prints of the file (tools/cluster.c) */
	if (ptb_cluster_print(out, doc, PTB_GRID_TEXT) < 0)
		fputs("ptbench-mpi: out of memory printing the table\n", stderr);
}
