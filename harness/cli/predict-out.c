/* SPDX-License-Identifier: MIT */
/*
 * What `ptbench predict` prints (cli/predict-out.h): the table, and the
 * JSON of schema ptbench-predict/1.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/error.h"
#include "cli/machine-costs.h"
#include "cli/predict-out.h"
#include "ptbench.h"
#include "text/text.h"
#include "trace/ops.h"
#include "trace/reader.h"
#include "trace/sim.h"

static const char *sched_name(uint32_t s) { return ptb_trace_policy(s) == PTB_SCHED_FIFO ? "fifo" : "other"; }

/* e appended to array a; NULL (and a freed) when either could not be
 * made, so that the document fails whole rather than lose an element. */
static json_t *append(json_t *a, json_t *e)
{
	if (a && e && !json_array_append_new(a, e))
		return a;
	json_decref(a);
	json_decref(e);
	return NULL;
}

static json_t *limits_json(const struct ptb_trace *t, const struct ptb_sim_result *r)
{
	json_t *a = json_array();
	for (int i = 0; i < r->nlimits; i++) {
		const struct ptb_sim_limit *l = &r->limits[i];
		char site[600], obj[32];
		ptb_trace_site(t, l->site, site, sizeof site);
		ptb_utf8_fix(site, sizeof site);          /* a file name is bytes */
		snprintf(obj, sizeof obj, "0x%llx", (unsigned long long)l->obj);
		a = append(a, json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:I}",
			"object", ptb_op_object_name(l->kind), "address", obj, "site", site,
			"critical_s", l->path_ns * 1e-9, "critical_share", l->path_ns / r->wall_ns, "wait_s", l->wait_ns * 1e-9,
			"waits", (json_int_t)l->waits));
	}
	return a;
}

/* A co-running curve's factor at each count of threads measured. */
static json_t *curve_json(const struct ptb_corun_curve *cv)
{
	json_t *f = json_array();
	for (int i = 0; i < cv->nk; i++)
		f = append(f, json_pack("{s:i, s:f}", "threads", cv->k[i], "slowdown", cv->factor[i]));
	return f;
}

/* The co-running slowdown applied: the curve's benchmark, size and the
 * factor at each measured count of copies; null when none was applied,
 * with the sizes the file has ("available") when it has any. */
static json_t *corun_json(const struct ptb_machine_costs *m)
{
	const struct ptb_machine_corun *c = &m->corun;
	if (c->picked < 0)
		return json_null();
	const struct ptb_corun_curve *cv = &c->curve[c->picked];
	return json_pack("{s:s, s:I, s:I, s:o}", "benchmark", c->bench, "working_set_bytes",
			 (json_int_t)llround(c->working_set), "size_bytes", (json_int_t)llround(cv->bytes),
			 "slowdown", curve_json(cv));
}

/* The costs charged, and where each came from; null without --machine. */
static json_t *machine_json(const struct ptb_predict_args *a)
{
	const struct ptb_machine_costs *m = a->machine;
	if (!m)
		return json_null();
	json_t *costs = json_array();
	for (int c = 0; c < PTB_COST_COUNT; c++)
		costs = append(costs, m->key[c][0]
			? json_pack("{s:s, s:f, s:s, s:i}", "cost", m->name[c], "seconds", m->ns[c] * 1e-9,
				    "point", m->key[c], "divided_by", m->divided_by[c])
			: json_pack("{s:s, s:n}", "cost", m->name[c], "seconds"));
	char file[4096];
	snprintf(file, sizeof file, "%s", a->machine_file);
	ptb_utf8_fix(file, sizeof file);                  /* a file name is bytes */
	return json_pack("{s:s, s:o, s:o}", "file", file, "costs", costs, "corun", corun_json(m));
}

/* The program's own co-running slowdown applied (--corun); null without. */
static json_t *program_corun_json(const struct ptb_predict_args *a)
{
	const struct ptb_program_corun *pc = a->corun;
	if (!pc)
		return json_null();
	char file[4096];
	snprintf(file, sizeof file, "%s", pc->file);
	ptb_utf8_fix(file, sizeof file);                  /* a file name is bytes */
	return json_pack("{s:s, s:s, s:o, s:o, s:s, s:f, s:f}", "file", file, "program",
			 pc->program, "slowdown", curve_json(&pc->curve), "sliced", pc->sliced > 0 ?
			 json_real(pc->sliced) : json_null(), "sched", a->target_fifo ? "fifo" :
			 "other", "slice_cost", a->slice_cost, "sliced_share", a->sliced_share);
}

/* Where the woken thread's latency came from (charged only with a
 * remote wake-up, and not for a rwlock handed over). */
static const char *remote_latency_from(const struct ptb_trace *t,
				       const struct ptb_predict_args *a)
{
	return a->remote_latency_given ? "option" : t->h.remote_latency ? "recording" : "none";
}

/* Where the remote wake-up cost charged came from. */
static const char *remote_wake_from(const struct ptb_trace *t, const struct ptb_predict_args *a)
{
	return a->remote_wake_given ? "option" : t->h.remote_wake ? "recording" : "none";
}

int ptb_predict_wakes_unmodelled(const struct ptb_predict_unseen *u)
{
	return u->wake > PTB_PREDICT_WAKE_LIMIT || u->wakes >= PTB_PREDICT_WAKES;
}

int ptb_predict_print_json(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			   double base, const struct ptb_predict_unseen *u,
			   const struct ptb_predict_args *a)
{
	json_t *preds = json_array();
	for (int i = 0; i < n; i++)
		preds = append(preds, json_pack("{s:i, s:f, s:f, s:f, s:I, s:f, s:{s:I, s:I}}", "cpus",
			r[i].cpus, "wall_s", r[i].wall_ns * 1e-9, "speedup", base / r[i].wall_ns,
			"utilization", r[i].busy_ns / (r[i].wall_ns * r[i].cpus),
			"remote_wakes", (json_int_t)r[i].remote_wakes,
			"shared_share", r[i].shared_ns / r[i].wall_ns, "released_together",
			"releases", (json_int_t)r[i].group_releases,
			"threads", (json_int_t)r[i].group_woken));
	json_t *doc = json_pack("{s:s, s:s, s:{s:i, s:f, s:f, s:I, s:I, s:s, s:b, s:b, s:f, s:f, s:I}, s:o, "
				"s:o, s:{s:f, s:s, s:f, s:s}, "
				"s:o, s:o}",
		"schema", "ptbench-predict/1", "program", t->h.program,
		"recorded", "cpus", 1, "wall_s", t->end_t * 1e-9, "start_s", ptb_trace_start_up(t) * 1e-9,
		"threads", (json_int_t)ptb_trace_threads(t),
		"events", (json_int_t)t->events, "sched", sched_name(t->h.sched),
		"put_behind", (t->h.sched & PTB_SCHED_PUT_BEHIND) != 0,
		"untraced_cpu", (t->h.sched & PTB_SCHED_UNTRACED_CPU) != 0,
		"untraced_share", u->untraced, "wake_share", u->wake,
		"wakes", (json_int_t)u->wakes,
		"machine", machine_json(a), "corun", program_corun_json(a), "remote_wake", "seconds", a->remote_wake_ns * 1e-9,
		"from", remote_wake_from(t, a), "latency_seconds", a->remote_latency_ns * 1e-9,
		"latency_from", remote_latency_from(t, a), "predictions", preds, "limits",
		limits_json(t, &r[n - 1]));
	if (!doc)
		return ptb_bad_input("predict", "no JSON could be made of the replay (a figure "
				     "that is not a number?)");
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fputc('\n', stdout);
	json_decref(doc);
	return 0;
}

/* One note for every CPU count whose replay had to release a wait by force,
 * rather than one note per count repeating the same sentence. */
static void print_forced(const struct ptb_sim_result *r, int n)
{
	const char *sep = "\nnote: waits released by force (the replay met an order the "
			  "recording never took):";
	for (int i = 0; i < n; i++) {
		if (!r[i].forced)
			continue;
		printf("%s %llu at %d CPU%s", sep, (unsigned long long)r[i].forced, r[i].cpus,
		       r[i].cpus == 1 ? "" : "s");
		sep = ",";
	}
	if (sep[0] == ',')
		printf("\n");
}

/* The co-running slowdown: the curve applied, or why none was. */
static void print_corun(const struct ptb_predict_args *a)
{
	const struct ptb_machine_corun *c = &a->machine->corun;
	if (!c->ncurves) {
		printf("  co-running slowdown: not in the file (ptbench run -b corun measures it): "
		       "none applied\n");
		return;
	}
	if (c->picked < 0) {
		printf("  co-running slowdown: measured for tables of");
		for (int i = 0; i < c->ncurves; i++)
			printf("%s %.0f KiB", i ? "," : "", c->curve[i].bytes / 1024);
		printf("; none applied (--working-set names the program's)\n");
		return;
	}
	const struct ptb_corun_curve *cv = &c->curve[c->picked];
	printf("  co-running slowdown (%s size=%.0f, nearest a working set of %.0f KiB):",
	       c->bench, cv->bytes, c->working_set / 1024);
	for (int i = 1; i < cv->nk; i++)
		printf("%s x%.3f at %d", i > 1 ? "," : "", cv->factor[i], cv->k[i]);
	printf(" threads at once\n");
}

/* What the time slices cost, charged while threads outnumber CPUs. */
static void print_slices(const struct ptb_trace *t, const struct ptb_predict_args *a)
{
	const struct ptb_program_corun *pc = a->corun;
	if (a->target_fifo)
		printf("  time slices: none charged (--sched fifo)\n");
	else if (!(pc->sliced > 0))
		printf("  time slices: none charged (not in the file: corun measured under the "
		       "normal policy)\n");
	else if (ptb_trace_policy(t->h.sched) != PTB_SCHED_FIFO)
		printf("  time slices: none charged (recorded under the normal policy: its bursts "
		       "hold them already)\n");
	else if (a->slice_cost > 0)
		printf("  time slices: x%.3f on one PU under the normal policy: CPU work stretched "
		       "by %.1f %% for each\n  thread able to run beyond the CPUs\n", pc->sliced,
		       100 * a->slice_cost);
	else if (pc->sliced <= 1)
		printf("  time slices: x%.3f on one PU under the normal policy: no cost, none "
		       "charged\n", pc->sliced);
	else
		printf("  time slices: x%.3f on one PU under the normal policy, none charged: "
		       "only %.0f %% of\n  the replay on 1 CPU had threads taking turns\n",
		       pc->sliced, 100 * a->sliced_share);
}

/* The program's own co-running slowdown, from ptbench corun (--corun). */
static void print_program_corun(const struct ptb_trace *t, const struct ptb_predict_args *a)
{
	const struct ptb_program_corun *pc = a->corun;
	printf("co-running slowdown of ");
	ptb_fputs_printable(stdout, pc->program);       /* from a file: no control bytes */
	printf(", measured by ptbench corun (");
	ptb_fputs_printable(stdout, pc->file);
	printf("):");
	for (int i = 1; i < pc->curve.nk; i++)
		printf("%s x%.3f at %d", i > 1 ? "," : "", pc->curve.factor[i], pc->curve.k[i]);
	printf(" threads at once\n");
	print_slices(t, a);
	if (strcmp(pc->program, t->h.program)) {
		printf("  note: measured of ");
		ptb_fputs_printable(stdout, pc->program);
		printf(", and the trace is of ");
		ptb_fputs_printable(stdout, t->h.program);
		printf("\n");
	}
	printf("\n");
}

static void print_costs(const struct ptb_predict_args *a)
{
	const struct ptb_machine_costs *m = a->machine;
	printf("costs of the machine of %s:\n", a->machine_file);
	for (int c = 0; c < PTB_COST_COUNT; c++)
		if (m->key[c][0])
			printf("  %-13s %10.2f us  (%s%s)\n", m->name[c], m->ns[c] * 1e-3, m->key[c],
			       m->divided_by[c] == 2 ? ", a round trip halved" : "");
		else
			printf("  %-13s %10s     (not in the file: none charged)\n", m->name[c], "-");
	print_corun(a);
	printf("\n");
}

static void print_remote_wake(const struct ptb_trace *t, const struct ptb_predict_args *a)
{
	const char *from = remote_wake_from(t, a);
	if (!strcmp(from, "none"))
		printf("waking a thread onto an idle CPU: not charged (no figure in the trace: "
		       "recorded with one PU allowed, by an older ptbench, or not measurable)\n");
	else
		printf("waking a thread onto an idle CPU: %.2f us of the waker's time (%s)\n",
		       a->remote_wake_ns * 1e-3, !strcmp(from, "option") ? "--remote-wake"
		       : "measured by record on the machine it ran on");
	from = remote_latency_from(t, a);
	if (strcmp(from, "none") && a->remote_wake_ns > 0)
		printf("  and %.2f us before it runs there, but for a rwlock handed over (%s)\n",
		       a->remote_latency_ns * 1e-3,
		       !strcmp(from, "option") ? "--remote-latency" : "measured by record");
	putchar('\n');
}

/* How many wake-ups each count's replay charged, and their wakers' time. */
static void print_remote_wakes(const struct ptb_sim_result *r, int n, const struct ptb_predict_args *a)
{
	const char *sep = "remote wake-ups charged (their wakers' CPU time):";
	for (int i = 0; i < n; i++) {
		if (!r[i].remote_wakes)
			continue;
		printf("%s %d CPUs %llu (%.4f s)", sep, r[i].cpus,
		       (unsigned long long)r[i].remote_wakes, r[i].remote_wakes * a->remote_wake_ns * 1e-9);
		sep = ",";
	}
	if (sep[0] == ',')
		printf("\n");
}

/* Where the replay shared CPUs among more threads than there are: a time
 * slice there costs the threads' caches, which the replay does not charge. */
static void print_shared(const struct ptb_sim_result *r, int n, const struct ptb_predict_args *a)
{
	if (a->slice_cost > 0 || a->target_fifo)
		return;               /* charged (print_slices()), or none to charge */
	const char *sep = "\nnote: more threads could run than there were CPUs for";
	for (int i = 0; i < n; i++) {
		if (r[i].cpus < 2 || r[i].shared_ns < PTB_PREDICT_SHARED_NOTE * r[i].wall_ns)
			continue;
		printf("%s %.0f %% of the time at %d CPUs", sep, 100 * r[i].shared_ns / r[i].wall_ns,
		       r[i].cpus);
		sep = ",";
	}
	if (sep[0] == ',')
		printf(":\n      shared fairly, as if time slices cost nothing; the normal "
		       "scheduler's slices cost\n      the threads their caches (xz -1 -T4 on 2 "
		       "CPUs: 0.75-0.81 of its real time), which\n      --corun charges where "
		       "ptbench corun measured them under SCHED_FIFO\n");
}

/* Releases that woke several threads at once, each replayed as if it went
 * to a free CPU at once: a scheduler that puts two on one CPU makes such a
 * phase longer (docs/design.md, "Woken together, placed together"). */
static void print_groups(const struct ptb_sim_result *r, int n, const struct ptb_predict_args *a)
{
	const struct ptb_sim_result *last = &r[0];
	for (int i = 1; i < n; i++)
		if (r[i].cpus > last->cpus)
			last = &r[i];
	/* SCHED_FIFO's wake-up puts a thread on a CPU that runs none */
	if (a->target_fifo || last->cpus < 2 || last->group_releases < PTB_PREDICT_GROUP_NOTE)
		return;
	printf("\nnote: at %d CPUs, %llu releases woke %llu threads, 2 or more at once (barriers,"
	       "\n      broadcasts, read locks, channels, exits), each replayed as if it found a"
	       "\n      free CPU at once; where the scheduler puts two on one CPU, they share it"
	       "\n      until it moves one (barrier phases of 27 ms on a 16-vCPU guest took"
	       "\n      1.22-1.40 times as long)", last->cpus,
	       (unsigned long long)last->group_releases, (unsigned long long)last->group_woken);
	for (int i = 0; i < ptb_registry_count; i++)
		if (ptb_registry[i]->machine.cost == PTB_MACHINE_PLACEMENT) {
			printf(";\n      `ptbench run -b %s` measures it on a machine", ptb_registry[i]->name);
			break;
		}
	putchar('\n');
}

void ptb_predict_print_table(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			     double base, const struct ptb_predict_unseen *u,
			     const struct ptb_predict_args *a)
{
	printf("%s: recorded on 1 PU (%s) in %.3f s, %u threads, %llu events\n", t->h.program,
	       ptb_trace_policy(t->h.sched) == PTB_SCHED_FIFO ? "SCHED_FIFO" : "normal policy: threads may have "
	       "preempted each other", t->end_t * 1e-9, ptb_trace_threads(t), (unsigned long long)t->events);
	if (ptb_trace_start_up(t))
		printf("  %.3f s of it before the interposer started (the loader, libraries' "
		       "constructors): counted as the main thread's work\n", ptb_trace_start_up(t) * 1e-9);
	putchar('\n');
	if (a->machine)
		print_costs(a);
	if (a->corun)
		print_program_corun(t, a);
	print_remote_wake(t, a);
	printf("%6s  %10s  %8s  %11s\n", "cpus", "wall_s", "speedup", "utilization");
	for (int i = 0; i < n; i++)
		printf("%6d  %10.4f  %8.2f  %11.2f\n", r[i].cpus, r[i].wall_ns * 1e-9,
		       base / r[i].wall_ns, r[i].busy_ns / (r[i].wall_ns * r[i].cpus));
	print_remote_wakes(r, n, a);
	const struct ptb_sim_result *last = &r[n - 1];
	if (last->nlimits)
		printf("\ncritical path at %d CPUs, by the object whose release ended each stretch:\n",
		       last->cpus);
	for (int i = 0; i < last->nlimits; i++) {
		const struct ptb_sim_limit *l = &last->limits[i];
		char site[600];
		ptb_trace_site(t, l->site, site, sizeof site);
		printf("  %-9s 0x%-14llx %5.1f %%  (%llu waits, %.4f s waited)  ",
		       ptb_op_object_name(l->kind), (unsigned long long)l->obj,
		       100 * l->path_ns / last->wall_ns,
		       (unsigned long long)l->waits, l->wait_ns * 1e-9);
		ptb_fputs_printable(stdout, site);        /* no control bytes from a file name */
		putchar('\n');
	}
	if (t->h.sched & PTB_SCHED_UNTRACED_CPU)
		printf("\nnote: record found over a tenth of the program's CPU time outside the "
		       "trace (processes it started, a program\n      it exec'd once it had "
		       "threads, or threads started unseen): their work is not replayed (--check "
		       "refuses such a trace)\n");
	if (t->h.sched & PTB_SCHED_PUT_BEHIND)
		printf("\nnote: record put a thread that ran 2 s on end behind another that stood "
		       "ready: if it waited for it by spinning,\n      its spin is in its work here "
		       "and these figures are too slow (--check refuses such a trace)\n");
	if (u->untraced > PTB_PREDICT_UNTRACED_LIMIT && ptb_trace_policy(t->h.sched) == PTB_SCHED_FIFO)
		printf("\nnote: the threads spent %.0f %% of their time off the CPU outside traced "
		       "calls (raw futexes, atomics, page faults, other processes): left out, as if\n"
		       "      those waits were for nothing (--check refuses such a trace)\n",
		       100 * u->untraced);
	if (ptb_predict_wakes_unmodelled(u))
		printf("\nnote: the threads woke each other through eventfd, signalfd or epoll "
		       "(%.0f %% of their time waiting on them, %llu calls):\n      the replay keeps "
		       "those waits as delays of their recorded length, or as none (--check refuses "
		       "such a trace)\n", 100 * u->wake, (unsigned long long)u->wakes);
	print_forced(r, n);
	print_shared(r, n, a);
	print_groups(r, n, a);
}
