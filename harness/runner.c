/* SPDX-License-Identifier: MIT */
/*
 * Running a suite.  The parent selects the benchmarks and checks every
 * input before anything runs, so bad input never leaves a file behind.
 * Then each benchmark runs in a forked child under a watchdog: the child
 * measures its points one by one and streams each record to the parent as
 * one JSON line on a pipe, announcing a point before it starts it.  The
 * parent appends every record to the run and rewrites the result file
 * atomically, so a hang, a crash or a SIGINT loses nothing that finished:
 * a hang or crash marks the rest of that benchmark's points timeout or
 * crashed (the parent walks the same deterministic sweep as the child to
 * know which points those are), and the suite goes on.
 */
#include "config.h"

#include "runner.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "logp.h"
#include "result.h"
#include "sweep.h"

#define PTB_MAX_SELECTED 128
#define PTB_SWEEP_POINTS 16     /* point budget of an adaptive sweep */
#define PTB_MAX_ARGS     64

/* A selected benchmark and the -p assignments that apply to it. */
struct bench_job {
	const struct ptb_bench *b;   /* NULL: skipped */
	const char *assign[PTB_MAX_ARGS];
	char buf[PTB_MAX_ARGS][256];
	int nassign;
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- selection ---------------------------------------------------------- */

static int param_index_n(const struct ptb_bench *b, const char *name, size_t len)
{
	for (int i = 0; b->params && b->params[i].name; i++)
		if (strlen(b->params[i].name) == len && strncmp(b->params[i].name, name, len) == 0)
			return i;
	return -1;
}

static int param_index(const struct ptb_bench *b, const char *name)
{
	return param_index_n(b, name, strlen(name));
}

/* Hidden (test-only) benchmarks are chosen only by their exact name, so no
 * pattern can pull a deliberately hanging benchmark into a real run. */
static bool bench_matches(const struct ptb_bench *b, const char *pattern)
{
	if (b->hidden)
		return strcmp(pattern, b->name) == 0;
	return fnmatch(pattern, b->name, 0) == 0 ||
	       (strncmp(b->name, pattern, strlen(pattern)) == 0 &&
		b->name[strlen(pattern)] == '.');
}

static int select_benches(const struct ptb_run_opts *o, const struct ptb_bench **sel,
			  char *err, size_t errlen)
{
	int n = 0;
	for (int i = 0; i < o->npatterns; i++) {
		bool any = false;
		for (int j = 0; j < ptb_registry_count; j++)
			any |= bench_matches(ptb_registry[j], o->patterns[i]);
		if (!any) {
			set_err(err, errlen, "no benchmark matches '%s' (see 'ptbench list')",
				o->patterns[i]);
			return -1;
		}
	}
	for (int j = 0; j < ptb_registry_count && n < PTB_MAX_SELECTED; j++) {
		const struct ptb_bench *b = ptb_registry[j];
		bool chosen = o->npatterns == 0 && !b->hidden;
		for (int i = 0; i < o->npatterns && !chosen; i++)
			chosen = bench_matches(b, o->patterns[i]);
		if (chosen)
			sel[n++] = b;
	}
	return n;
}

/* Whether a comma-separated list holds the item v[0..len). */
static bool in_list(const char *csv, const char *v, size_t len)
{
	for (const char *d = csv; *d;) {
		size_t n = strcspn(d, ",");
		if (n == len && strncmp(d, v, len) == 0)
			return true;
		d += n + (d[n] == ',');
	}
	return false;
}

/*
 * One benchmark's view of the -p assignments: a value another selected
 * benchmark accepts but this one does not (placement=unbound for
 * cond.wait, which needs two PUs) is dropped for this one only.  -1 with
 * why filled when nothing of a variable is left: the benchmark is skipped.
 */
static int narrow_assign(const struct ptb_bench *b, const struct ptb_run_opts *o,
			 struct bench_job *job, char *why, size_t whylen)
{
	job->b = b;
	job->nassign = 0;
	for (int i = 0; i < o->nassign; i++) {
		const char *a = o->assign[i], *eq = strchr(a, '=');
		int k = param_index_n(b, a, (size_t)(eq - a));
		if (k < 0)
			continue;
		const char *domain = b->params[k].domain;
		char *out = job->buf[job->nassign];
		size_t off = snprintf(out, sizeof job->buf[0], "%.*s=", (int)(eq - a + 0), a);
		bool any = false;
		for (const char *v = eq + 1; *v;) {
			size_t n = strcspn(v, ",");
			if (!domain || in_list(domain, v, n)) {
				off += snprintf(out + off, off < sizeof job->buf[0] ?
						sizeof job->buf[0] - off : 0, "%s%.*s",
						any ? "," : "", (int)n, v);
				any = true;
			}
			v += n + (v[n] == ',');
		}
		if (!any) {
			set_err(why, whylen, "%s: it takes none of %s", b->name, a);
			return -1;
		}
		job->assign[job->nassign++] = out;
	}
	return 0;
}

static int check_inputs(const struct ptb_run_opts *o, struct bench_job *jobs, int n,
			char *err, size_t errlen)
{
	const struct ptb_bench *sel[PTB_MAX_SELECTED];
	char why[256];
	for (int i = 0; i < n; i++)
		sel[i] = jobs[i].b;
	if (ptb_assign_check(sel, n, o->assign, o->nassign, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (narrow_assign(jobs[i].b, o, &jobs[i], why, sizeof why) < 0) {
			fprintf(stderr, "ptbench: skipping %s\n", why);
			jobs[i].b = NULL;
			continue;
		}
		struct ptb_sweep *s = ptb_sweep_new(jobs[i].b, jobs[i].assign, jobs[i].nassign,
						    PTB_SWEEP_POINTS, err, errlen);
		if (!s)
			return -1;
		ptb_sweep_free(s);
	}
	return 0;
}

/* The default file name: ptbench-HOST-YYYYMMDDTHHMMSSZ.json. */
static void default_path(const struct ptb_system *sys, char *buf, size_t len)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&t));
	snprintf(buf, len, "ptbench-%s-%s.json", sys->sys.host, stamp);
}

/* The output directory must exist and be writable before a run starts. */
static int check_out_path(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) ?: 1, path);
	if (access(dir, W_OK) != 0) {
		set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the child: measure one benchmark ----------------------------------- */

struct bench_timer {
	struct ptb_point *p;
	const struct ptb_clock *clk;
};

static double time_point(void *ctx, uint64_t n)
{
	struct bench_timer *bt = ctx;
	struct ptb_point *p = bt->p;
	ptb_clients_release(p, n);
	uint64_t t0 = ptb_ticks();
	p->bench->run(p, n);
	uint64_t t1 = ptb_ticks();
	ptb_clients_wait(p);
	if (p->bench->check)
		p->bench->check(p, n);
	return ptb_ticks_to_ns(bt->clk, ptb_ticks_elapsed(t0, t1));
}

static double timer_now(void *ctx)
{
	(void)ctx;
	return now_s();
}

/* Resolve the placement variable, bind the main thread, read it back. */
static int place_point(struct ptb_point *p)
{
	const struct ptb_system *sys = p->sys;
	char err[256];
	int i = param_index(p->bench, "placement");
	p->pu_main = p->pu_client = -1;
	if (i >= 0) {
		int pl = ptb_placement_from_name(p->value[i]);
		const struct ptb_pair *pair = &sys->pairs[pl];
		if (!pair->possible) {
			ptb_point_na(p, "%s", pair->reason);
			return -1;
		}
		p->pu_main = pair->pu[0];
		p->pu_client = pair->pu[1];
	}
	if (ptb_bind_self(sys->topo, p->pu_main, err, sizeof err) < 0) {
		ptb_point_error(p, "binding the main thread: %s", err);
		return -1;
	}
	ptb_binding_self(sys->topo, p->binding_main, sizeof p->binding_main);
	return 0;
}

static struct ptb_limits point_limits(const struct ptb_run_opts *o, const struct ptb_bench *b)
{
	struct ptb_limits l = o->limits;
	if (b->target_s > l.target_s)
		l.target_s = o->quick ? b->target_s / 4 : b->target_s;
	/* A benchmark that needs long timings gets the budget for its minimum
	 * number of timings rather than being cut short by the default. */
	double need = (l.min_timings + 2) * l.target_s * 1.5;
	if (l.budget_s < need)
		l.budget_s = need;
	return l;
}

static enum ptb_status final_status(const struct ptb_point *p, const struct ptb_measurement *m)
{
	if (p->verdict != PTB_OK)
		return p->verdict;
	return m->stop == PTB_STOPPED_RULE ? PTB_OK : PTB_UNSTABLE;
}

static json_t *measure_point(const struct ptb_run_opts *o, struct ptb_point *p)
{
	const struct ptb_bench *b = p->bench;
	struct ptb_limits l = point_limits(o, b);
	struct ptb_measurement m = { 0 };
	const char *why = b->unsupported ? b->unsupported(p->sys) : NULL;
	json_t *rec;

	if (why)
		ptb_point_na(p, "%s", why);
	if (why || place_point(p) < 0 || b->setup(p) < 0) {
		if (p->verdict == PTB_OK)
			ptb_point_error(p, "setup failed without a reason");
		ptb_clients_cancel(p);
		return ptb_result_json(p, p->verdict, p->reason, NULL, l.rule);
	}
	struct bench_timer bt = { p, &p->sys->clock };
	struct ptb_timer t = { time_point, timer_now, &bt,
			       p->sys->clock.overhead_ns, p->sys->clock.resolution_ns };
	int rc = ptb_measure(&l, &t, b->ops_per_iter > 0 ? b->ops_per_iter : 1, &m);
	ptb_clients_cancel(p);
	if (b->teardown)
		b->teardown(p);
	if (rc < 0)
		ptb_point_error(p, "out of memory while measuring");
	enum ptb_status st = rc < 0 ? PTB_ERROR : final_status(p, &m);
	rec = ptb_result_json(p, st, p->verdict != PTB_OK ? p->reason : NULL,
			      rc < 0 ? NULL : &m, l.rule);
	ptb_measurement_free(&m);
	return rec;
}

static json_t *params_json(const struct ptb_bench *b, const char *const *values)
{
	json_t *o = json_object();
	for (int i = 0; b->params && b->params[i].name; i++)
		json_object_set_new(o, b->params[i].name, json_string(values[i]));
	return o;
}

static void send_line(int fd, const char *key, json_t *val)
{
	json_t *msg = json_pack("{so}", key, val);
	char *s = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
	size_t len = strlen(s);
	s[len] = '\n';      /* json_dumps leaves room for the terminator only */
	for (size_t off = 0; off <= len;) {
		ssize_t w = write(fd, s + off, len + 1 - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		off += (size_t)w;
	}
	free(s);
	json_decref(msg);
}

static double record_mean(const json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	if (!st || (strcmp(st, "ok") && strcmp(st, "unstable")))
		return NAN;
	return json_number_value(json_object_get(rec, "mean"));
}

static void child_main(const struct ptb_run_opts *o, const struct ptb_system *sys,
		       const struct bench_job *job, int fd)
{
	const struct ptb_bench *b = job->b;
	char err[256];
	const char *values[PTB_MAX_PARAMS] = { 0 };
	struct ptb_sweep *s = ptb_sweep_new(b, job->assign, job->nassign, PTB_SWEEP_POINTS,
					    err, sizeof err);
	signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt means */
	while (s && ptb_sweep_next(s, values)) {
		struct ptb_point p = { .bench = b, .sys = sys };
		memcpy(p.value, values, sizeof p.value);
		send_line(fd, "begin", params_json(b, values));
		json_t *rec = measure_point(o, &p);
		ptb_sweep_feed(s, record_mean(rec));
		send_line(fd, "result", rec);
	}
	_exit(0);
}

/* ---- the parent: watch the child, keep the file current ----------------- */

struct run_state {
	const struct ptb_run_opts *o;
	json_t *run;
	const char *path;
	int done, failed;
};

static void save(struct run_state *rs)
{
	char err[512];
	if (ptb_run_write_atomic(rs->run, rs->path, err, sizeof err) < 0)
		fprintf(stderr, "ptbench: %s\n", err);
}

static void describe(const json_t *rec, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	int off = snprintf(buf, len, "%s", json_string_value(json_object_get(rec, "bench")));
	json_object_foreach(json_object_get(rec, "params"), key, v)
		off += snprintf(buf + off, len > (size_t)off ? len - off : 0, " %s=%s",
				key, json_string_value(v));
}

static void progress(struct run_state *rs, const json_t *rec)
{
	char what[256];
	const char *st = json_string_value(json_object_get(rec, "status"));
	bool tty = isatty(STDERR_FILENO);
	describe(rec, what, sizeof what);
	if (!strcmp(st, "ok") || !strcmp(st, "unstable"))
		fprintf(stderr, "%s[%d] %-48s %12.1f ns  %s%s", tty ? "\r\033[K" : "", rs->done,
			what, json_number_value(json_object_get(rec, "mean")), st, tty ? "" : "\n");
	else
		fprintf(stderr, "%s[%d] %-48s %s: %s%s", tty ? "\r\033[K" : "", rs->done, what, st,
			json_string_value(json_object_get(rec, "reason")) ?: "", tty ? "" : "\n");
	fflush(stderr);
}

static void add_record(struct run_state *rs, json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	rs->done++;
	if (st && (!strcmp(st, "timeout") || !strcmp(st, "crashed") || !strcmp(st, "error")))
		rs->failed++;
	progress(rs, rec);
	json_array_append_new(json_object_get(rs->run, "results"), rec);
	save(rs);
}

/* Read whatever the child has written; false at end of file. */
static bool pump(int fd, char **buf, size_t *len, size_t *cap)
{
	if (*cap - *len < 65536) {
		*cap = *cap * 2 + 65536;
		*buf = realloc(*buf, *cap);
	}
	ssize_t r = read(fd, *buf + *len, *cap - *len);
	if (r < 0 && errno == EINTR)
		return true;
	if (r <= 0)
		return false;
	*len += (size_t)r;
	return true;
}

/* Hand complete lines to the run; returns the number of results taken. */
static int take_lines(struct run_state *rs, struct ptb_sweep *mirror, char *buf, size_t *len,
		      json_t **current)
{
	int taken = 0;
	char *nl;
	const char *values[PTB_MAX_PARAMS];
	while ((nl = memchr(buf, '\n', *len))) {
		*nl = '\0';
		json_t *msg = json_loads(buf, 0, NULL);
		json_t *rec = msg ? json_object_get(msg, "result") : NULL;
		if (msg && json_object_get(msg, "begin")) {
			json_decref(*current);
			*current = json_incref(json_object_get(msg, "begin"));
		} else if (rec) {
			ptb_sweep_next(mirror, values);
			ptb_sweep_feed(mirror, record_mean(rec));
			json_decref(*current);
			*current = NULL;
			add_record(rs, json_incref(rec));
			taken++;
		}
		json_decref(msg);
		*len -= (size_t)(nl + 1 - buf);
		memmove(buf, nl + 1, *len);
	}
	return taken;
}

/* After a hang or crash: the point in progress and every point the child
 * never reached get a record saying what happened. */
static void mark_rest(struct run_state *rs, const struct ptb_bench *b, struct ptb_sweep *mirror,
		      bool in_progress, enum ptb_status st, const char *reason)
{
	const char *values[PTB_MAX_PARAMS];
	char why[256];
	while (ptb_sweep_next(mirror, values)) {
		snprintf(why, sizeof why, "%s%s", reason,
			 in_progress ? "" : " (during an earlier point of this benchmark)");
		add_record(rs, ptb_result_json_bare(b->name, params_json(b, values), st, why));
		ptb_sweep_feed(mirror, NAN);
		in_progress = false;
	}
}

static void run_bench(struct run_state *rs, const struct ptb_system *sys,
		      const struct bench_job *job)
{
	const struct ptb_bench *b = job->b;
	const struct ptb_run_opts *o = rs->o;
	char err[256], reason[256];
	int fds[2];
	struct ptb_sweep *mirror = ptb_sweep_new(b, job->assign, job->nassign, PTB_SWEEP_POINTS,
						 err, sizeof err);
	if (pipe(fds) < 0) {
		fprintf(stderr, "ptbench: pipe: %s\n", strerror(errno));
		rs->failed++;
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_main(o, sys, job, fds[1]);
	}
	close(fds[1]);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	json_t *current = NULL;
	double deadline = now_s() + o->timeout_s;
	bool eof = false, late = false;
	while (!eof && !interrupted && !(late = now_s() >= deadline)) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		int ms = (int)((deadline - now_s()) * 1000) + 1;
		if (poll(&pfd, 1, ms) > 0) {
			eof = !pump(fds[0], &buf, &len, &cap);
			take_lines(rs, mirror, buf, &len, &current);
		}
	}
	int status = 0;
	if (!eof)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (late && !eof) {
		snprintf(reason, sizeof reason, "no result within --timeout %g s", o->timeout_s);
		mark_rest(rs, b, mirror, current != NULL, PTB_TIMEOUT, reason);
	} else if (eof && (WIFSIGNALED(status) || WEXITSTATUS(status) != 0)) {
		if (WIFSIGNALED(status))
			snprintf(reason, sizeof reason, "killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			snprintf(reason, sizeof reason, "exited with status %d",
				 WEXITSTATUS(status));
		mark_rest(rs, b, mirror, current != NULL, PTB_CRASHED, reason);
	}
	json_decref(current);
	free(buf);
	close(fds[0]);
	ptb_sweep_free(mirror);
}

static void install_sigint(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sigint;   /* no SA_RESTART: poll must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void finish(struct run_state *rs)
{
	json_t *results = json_object_get(rs->run, "results");
	json_t *logp = ptb_logp_derive(results);
	json_array_extend(results, logp);
	json_decref(logp);
	json_object_set_new(rs->run, "status",
			    json_string(interrupted ? "interrupted" : "complete"));
	save(rs);
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
}

int ptb_run_suite(const struct ptb_run_opts *o)
{
	static struct bench_job jobs[PTB_MAX_SELECTED];
	const struct ptb_bench *sel[PTB_MAX_SELECTED] = { 0 };
	struct ptb_system sys;
	char err[512], path[4096];
	int n = select_benches(o, sel, err, sizeof err);

	for (int i = 0; i < n; i++)
		jobs[i].b = sel[i];
	if (n < 0 || check_inputs(o, jobs, n, err, sizeof err) < 0 ||
	    (o->out_path && check_out_path(o->out_path, err, sizeof err) < 0)) {
		fprintf(stderr, "ptbench: %s\n", err);
		return 2;
	}
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: %s\n", err);
		return 1;
	}
	if (o->out_path)
		snprintf(path, sizeof path, "%s", o->out_path);
	else
		default_path(&sys, path, sizeof path);
	struct run_state rs = { o, ptb_run_new(ptb_context_json(&sys, &o->limits, o->command)),
				path, 0, 0 };
	install_sigint();
	save(&rs);
	for (int i = 0; i < n && !interrupted; i++)
		if (jobs[i].b)
			run_bench(&rs, &sys, &jobs[i]);
	finish(&rs);
	ptb_report(stdout, rs.run, o->format);
	fflush(stdout);
	fprintf(stderr, "ptbench: %d results %s in %s\n", rs.done,
		interrupted ? "(interrupted)" : "saved", path);
	json_decref(rs.run);
	ptb_system_fini(&sys);
	if (interrupted)
		return 130;
	return rs.failed ? 1 : 0;
}
