/* SPDX-License-Identifier: MIT */
/*
 * A trace's simulated run as report/flow.h holds it (cli/trace-flow.h):
 * the simulator's visitor (trace/sim.h) copies each thread's life and
 * times off the CPU.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/trace-flow.h"
#include "text/text.h"
#include "trace/ops.h"
#include "trace/reader.h"
#include "trace/sim.h"

bool ptb_is_trace_file(const char *path)
{
	char magic[sizeof PTB_TRACE_MAGIC - 1];
	FILE *f = fopen(path, "rb");
	bool is = f && fread(magic, sizeof magic, 1, f) == 1 &&
		  !memcmp(magic, PTB_TRACE_MAGIC, sizeof magic);
	if (f)
		fclose(f);
	return is;
}

struct visit {
	struct ptb_flow *f;
	int failed;
};

static void on_thread(void *ctx, int tid, double born, double ended)
{
	struct visit *v = ctx;
	if (tid >= 0 && tid < v->f->nthreads)
		v->f->th[tid].born = born, v->f->th[tid].ended = ended;
}

static void on_wait(void *ctx, int tid, double from, double to, int kind, uint64_t obj, int by)
{
	struct visit *v = ctx;
	struct ptb_flow_off off = { from, to, ptb_op_is_delay(kind) ? -1 : by, ptb_op_is_delay(kind) };
	(void)obj;
	if (ptb_flow_add_off(v->f, tid, &off))
		v->failed = 1;
}

int ptb_trace_flow(const char *path, int cpus, struct ptb_flow *f, char *err, size_t errlen)
{
	struct ptb_trace t;
	struct ptb_ops o;
	struct ptb_sim_result r;
	if (ptb_trace_load(path, &t, err, errlen))
		return -1;
	int rc = ptb_ops_build(&t, &o);
	if (!rc && (rc = ptb_flow_init(f, t.h.program, cpus, (int)t.nthreads)))
		ptb_ops_free(&o);
	if (!rc) {
		struct visit v = { f, 0 };
		struct ptb_sim_visitor sv = { &v, on_thread, on_wait };
		static struct ptb_sim_costs c;   /* what predict charges by default */
		c.remote_wake_ns = t.h.remote_wake ? t.h.remote_wake - 1.0 : 0;
		c.remote_latency_ns = t.h.remote_latency ? t.h.remote_latency - 1.0 : 0;
		rc = ptb_sim_run(&o, cpus, &c, &r, &sv) || v.failed ? -1 : 0;
		f->wall_ns = r.wall_ns;
		ptb_ops_free(&o);
		if (!rc && !(r.wall_ns > 0))     /* as predict refuses it */
			rc = 1;
		if (rc)
			ptb_flow_free(f);
	}
	ptb_trace_free(&t);
	if (rc)
		ptb_errf(err, errlen, rc > 0 ? "%s spans no time: nothing to draw" : "%s: out of memory",
			 path);
	return rc ? -1 : 0;
}
