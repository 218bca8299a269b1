/* SPDX-License-Identifier: MIT */
/*
 * Running a suite.  The parent selects the benchmarks and checks every
 * input before anything runs, so bad input never leaves a file behind.
 * Then each benchmark runs in a forked child under a watchdog: the child
 * measures its points one by one and streams each record to the parent as
 * one JSON line on a pipe, announcing a point before it starts it.  The
 * parent appends every record to the run and rewrites the result file
 * atomically, then tells the child to go on -- so the parent's writing
 * never overlaps a measurement -- and a hang, a crash or a SIGINT loses
 * nothing that finished: a point that gives no result within --timeout
 * and the rest of its benchmark are marked timeout, a crash marks them
 * crashed (the parent walks the same deterministic sweep as the child to
 * know which points those are), and the suite goes on.
 */
#include "config.h"

#include "run/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/place.h"
#include "engine/sweep.h"
#include "machine/context.h"
#include "machine/system.h"
#include "record/logp.h"
#include "record/model.h"
#include "record/runfile.h"
#include "run/record.h"
#include "text/text.h"

#define PTB_MAX_SELECTED 128
#define PTB_SWEEP_POINTS 16     /* point budget of an adaptive sweep */

/* A selected benchmark and the -p assignments that apply to it. */
struct bench_job {
	const struct ptb_bench *b;      /* NULL: skipped */
	struct ptb_assign_set *set;
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

/* ---- selection ---------------------------------------------------------- */

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

static int select_benches(const struct ptb_run_opts *o, struct bench_job *jobs,
			  char *err, size_t errlen)
{
	int n = 0;
	for (int i = 0; i < o->npatterns; i++) {
		bool any = false;
		for (int j = 0; j < ptb_registry_count; j++)
			any |= bench_matches(ptb_registry[j], o->patterns[i]);
		if (!any) {
			ptb_errf(err, errlen, "no benchmark matches '%s' (see 'ptbench list')",
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
			jobs[n++].b = b;
	}
	return n;
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
		jobs[i].set = ptb_assign_narrow(jobs[i].b, o->assign, o->nassign, why, sizeof why);
		if (!jobs[i].set) {
			fprintf(stderr, "ptbench: skipping %s\n", why);
			jobs[i].b = NULL;
			continue;
		}
		struct ptb_sweep *s = ptb_sweep_new(jobs[i].b,
						    (const char *const *)jobs[i].set->assign,
						    jobs[i].set->n, PTB_SWEEP_POINTS, err, errlen);
		if (!s)
			return -1;
		ptb_sweep_free(s);
	}
	return 0;
}

static struct ptb_sweep *job_sweep(const struct bench_job *job)
{
	char err[256];
	return ptb_sweep_new(job->b, (const char *const *)job->set->assign, job->set->n,
			     PTB_SWEEP_POINTS, err, sizeof err);
}

/* The default file name: ptbench-HOST-YYYYMMDDTHHMMSSZ.json. */
static void default_path(const struct ptb_system *sys, char *buf, size_t len)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&t));
	snprintf(buf, len, "ptbench-%s-%s.json", sys->sys.host, stamp);
}

/* -o must name a file in a writable directory, checked before a run starts. */
static int check_out_path(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;
	const char *slash = strrchr(path, '/');
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		ptb_errf(err, errlen, "-o %s: is a directory, not a file name", path);
		return -1;
	}
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) ?: 1, path);
	if (access(dir, W_OK) != 0) {
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
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

/* The limits a point really ran under, when a benchmark's needs changed
 * them from the run's (recorded in the context). */
static void note_limits(json_t *rec, const struct ptb_limits *l, const struct ptb_limits *run)
{
	if (l->target_s != run->target_s || l->budget_s != run->budget_s)
		json_object_set_new(rec, "limits", json_pack("{s:f,s:f}", "target_s", l->target_s,
							     "budget_s", l->budget_s));
}

static json_t *measure_point(const struct ptb_run_opts *o, struct ptb_point *p)
{
	const struct ptb_bench *b = p->bench;
	struct ptb_limits l = point_limits(o, b);
	struct ptb_measurement m = { 0 };
	const char *why = b->unsupported ? b->unsupported(p->sys) : NULL;

	if (why)
		ptb_point_na(p, "%s", why);
	if (why || ptb_point_place(p) < 0 || b->setup(p) < 0) {
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
	json_t *rec = ptb_result_json(p, st, p->verdict != PTB_OK ? p->reason : NULL,
				      rc < 0 ? NULL : &m, l.rule);
	if (rc == 0)
		note_limits(rec, &l, &o->limits);
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

/* The parent has saved the last result: the next point may start.  End of
 * file means the parent is gone, and so is the point of going on. */
static void await_go_ahead(int fd)
{
	char c;
	ssize_t r;
	while ((r = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		_exit(0);
}

static double record_mean(const json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	if (!st || (strcmp(st, "ok") && strcmp(st, "unstable")))
		return NAN;
	return json_number_value(json_object_get(rec, "mean"));
}

static void child_main(const struct ptb_run_opts *o, const struct ptb_system *sys,
		       const struct bench_job *job, int out, int in)
{
	const char *values[PTB_MAX_PARAMS] = { 0 };
	struct ptb_sweep *s = job_sweep(job);
	signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt means */
	signal(SIGTERM, SIG_DFL);
	while (s && ptb_sweep_next(s, values)) {
		struct ptb_point p = { .bench = job->b, .sys = sys };
		memcpy(p.value, values, sizeof p.value);
		send_line(out, "begin", params_json(job->b, values));
		json_t *rec = measure_point(o, &p);
		ptb_sweep_feed(s, record_mean(rec));
		send_line(out, "result", rec);
		await_go_ahead(in);
	}
	_exit(0);
}

/* ---- the parent: watch the child, keep the file current ----------------- */

struct run_state {
	const struct ptb_run_opts *o;
	json_t *run;
	const char *path;
	int done, failed;
	bool save_failed;
};

static void save(struct run_state *rs)
{
	char err[512];
	if (ptb_run_write_atomic(rs->run, rs->path, err, sizeof err) < 0) {
		if (!rs->save_failed)
			fprintf(stderr, "ptbench: %s\n", err);
		rs->save_failed = true;
	}
}

/* The point a record is about, "bench var=value ...", for the progress line. */
static void point_name(const json_t *rec, char *buf, size_t len)
{
	char *key = ptb_point_key(json_string_value(json_object_get(rec, "bench")),
				  json_object_get(rec, "params"));
	snprintf(buf, len, "%s", key ? key : "?");
	free(key);
}

static void progress(struct run_state *rs, const json_t *rec)
{
	char what[256];
	const char *st = json_string_value(json_object_get(rec, "status"));
	bool tty = isatty(STDERR_FILENO);
	point_name(rec, what, sizeof what);
	if (!strcmp(st, "ok") || !strcmp(st, "unstable"))
		fprintf(stderr, "%s[%d] %-48s %12.1f ns  %s%s", tty ? "\r\033[K" : "", rs->done,
			what, json_number_value(json_object_get(rec, "mean")), st, tty ? "" : "\n");
	else
		fprintf(stderr, "%s[%d] %-48s %s: %s%s", tty ? "\r\033[K" : "", rs->done, what, st,
			json_string_value(json_object_get(rec, "reason")) ?: "", tty ? "" : "\n");
	fflush(stderr);
}

/* On a terminal the live line names the point being measured. */
static void progress_begin(const struct run_state *rs, const char *bench, const json_t *params)
{
	char what[256];
	json_t *rec;
	if (!isatty(STDERR_FILENO))
		return;
	rec = json_pack("{s:s,s:O}", "bench", bench, "params", params);
	point_name(rec, what, sizeof what);
	json_decref(rec);
	fprintf(stderr, "\r\033[K[%d] %-48s measuring...", rs->done + 1, what);
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

/* The child's side of the conversation as the parent sees it. */
struct child {
	pid_t pid;
	int from, to;           /* result lines in, go-aheads out */
	char *buf;
	size_t len, cap;
	json_t *current;        /* params of the point in progress, or NULL */
	double deadline;
};

/* Read whatever the child has written; false at end of file or error. */
static bool pump(struct child *c)
{
	if (c->cap - c->len < 65536) {
		size_t cap = c->cap * 2 + 65536;
		char *buf = realloc(c->buf, cap);
		if (!buf)
			return false;
		c->buf = buf;
		c->cap = cap;
	}
	ssize_t r = read(c->from, c->buf + c->len, c->cap - c->len);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (r <= 0)
		return false;
	c->len += (size_t)r;
	return true;
}

/* Hand complete lines to the run; a new point restarts the watchdog and a
 * saved result lets the child go on. */
static void take_lines(struct run_state *rs, struct ptb_sweep *mirror, struct child *c,
		       const char *bench)
{
	const char *values[PTB_MAX_PARAMS];
	char *nl;
	while ((nl = memchr(c->buf, '\n', c->len))) {
		*nl = '\0';
		json_t *msg = json_loads(c->buf, 0, NULL);
		json_t *rec = msg ? json_object_get(msg, "result") : NULL;
		if (msg && json_object_get(msg, "begin")) {
			json_decref(c->current);
			c->current = json_incref(json_object_get(msg, "begin"));
			c->deadline = now_s() + rs->o->timeout_s;
			progress_begin(rs, bench, c->current);
		} else if (rec) {
			ptb_sweep_next(mirror, values);
			ptb_sweep_feed(mirror, record_mean(rec));
			json_decref(c->current);
			c->current = NULL;
			add_record(rs, json_incref(rec));
			if (write(c->to, "g", 1) < 0) {
				/* the child is gone; its exit status will say why */
			}
		}
		json_decref(msg);
		c->len -= (size_t)(nl + 1 - c->buf);
		memmove(c->buf, nl + 1, c->len);
	}
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

/* pipe(2) with both ends closed on exec. */
static int cloexec_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static int spawn(const struct ptb_run_opts *o, const struct ptb_system *sys,
		 const struct bench_job *job, struct child *c)
{
	int up[2], down[2];
	if (cloexec_pipe(up) < 0)
		return -1;
	if (cloexec_pipe(down) < 0) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid == 0) {
		close(up[0]);
		close(down[1]);
		child_main(o, sys, job, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	c->from = up[0];
	c->to = down[1];
	if (c->pid < 0) {
		close(c->from);
		close(c->to);
		return -1;
	}
	return 0;
}

/* Follow the child until it ends, hangs or the run is interrupted; false
 * when it was still running (then it must be killed). */
static bool follow(struct run_state *rs, struct ptb_sweep *mirror, struct child *c,
		   const char *bench)
{
	for (;;) {
		struct pollfd pfd = { c->from, POLLIN, 0 };
		if (interrupted || now_s() >= c->deadline)
			return false;
		int ms = (int)((c->deadline - now_s()) * 1000) + 1;
		if (poll(&pfd, 1, ms) > 0) {
			bool more = pump(c);
			take_lines(rs, mirror, c, bench);
			if (!more)
				return true;
		}
	}
}

/* Keep a result that arrived while the parent was deciding to stop. */
static void drain(struct run_state *rs, struct ptb_sweep *mirror, struct child *c,
		  const char *bench)
{
	fcntl(c->from, F_SETFL, O_NONBLOCK);
	while (pump(c) && memchr(c->buf, '\n', c->len))
		take_lines(rs, mirror, c, bench);
	take_lines(rs, mirror, c, bench);
}

static void run_bench(struct run_state *rs, const struct ptb_system *sys,
		      const struct bench_job *job)
{
	const struct ptb_run_opts *o = rs->o;
	const struct ptb_bench *b = job->b;
	struct ptb_sweep *mirror = job_sweep(job);
	struct child c = { .deadline = now_s() + o->timeout_s };
	char reason[256];
	int status = 0;

	if (spawn(o, sys, job, &c) < 0) {
		snprintf(reason, sizeof reason, "cannot start the benchmark's process: %s",
			 strerror(errno));
		mark_rest(rs, b, mirror, true, PTB_ERROR, reason);
		ptb_sweep_free(mirror);
		return;
	}
	bool ended = follow(rs, mirror, &c, b->name);
	if (!ended) {
		drain(rs, mirror, &c, b->name);
		kill(c.pid, SIGKILL);
	}
	waitpid(c.pid, &status, 0);
	if (!ended && !interrupted) {
		snprintf(reason, sizeof reason, "no result within --timeout %g s", o->timeout_s);
		mark_rest(rs, b, mirror, c.current != NULL, PTB_TIMEOUT, reason);
	} else if (ended && (WIFSIGNALED(status) || WEXITSTATUS(status) != 0)) {
		if (WIFSIGNALED(status))
			snprintf(reason, sizeof reason, "killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			snprintf(reason, sizeof reason, "exited with status %d",
				 WEXITSTATUS(status));
		mark_rest(rs, b, mirror, c.current != NULL, PTB_CRASHED, reason);
	}
	json_decref(c.current);
	free(c.buf);
	close(c.from);
	close(c.to);
	ptb_sweep_free(mirror);
}

static void install_sigint(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sigint;   /* no SA_RESTART: poll must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);    /* a dead child's pipe is an error, not a signal */
}

/* The derived records (LogP) follow the measured ones. */
static void derive(json_t *run)
{
	struct ptb_runfile *model = ptb_runfile_of(run, NULL, 0);
	json_t *logp = model ? ptb_logp_derive(model) : NULL;
	json_array_extend(json_object_get(run, "results"), logp);
	json_decref(logp);
	ptb_runfile_free(model);
}

static void finish(struct run_state *rs)
{
	derive(rs->run);
	json_object_set_new(rs->run, "status",
			    json_string(interrupted ? "interrupted" : "complete"));
	save(rs);
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
}

static int suite_exit_status(const struct run_state *rs)
{
	if (interrupted)
		return 130;
	return rs->failed || rs->save_failed ? 1 : 0;
}

int ptb_run_suite(const struct ptb_run_opts *o)
{
	static struct bench_job jobs[PTB_MAX_SELECTED];
	struct ptb_system sys;
	char err[512], path[4096];
	int n = select_benches(o, jobs, err, sizeof err);

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
	struct run_state rs = { o, ptb_run_new(ptb_context_json(&sys, ptb_limits_json(&o->limits),
								   o->command)),
				path, 0, 0, false };
	install_sigint();
	save(&rs);
	for (int i = 0; i < n && !interrupted; i++)
		if (jobs[i].b)
			run_bench(&rs, &sys, &jobs[i]);
	finish(&rs);
	struct ptb_runfile *model = ptb_runfile_of(rs.run, err, sizeof err);
	if (model)
		ptb_report(stdout, model, o->format);
	ptb_runfile_free(model);
	fflush(stdout);
	if (rs.save_failed)
		fprintf(stderr, "ptbench: %d results NOT saved: %s could not be written\n",
			rs.done, path);
	else
		fprintf(stderr, "ptbench: %d results %s in %s\n", rs.done,
			interrupted ? "(interrupted)" : "saved", path);
	json_decref(rs.run);
	ptb_system_fini(&sys);
	for (int i = 0; i < n; i++)
		ptb_assign_free(jobs[i].set);
	return suite_exit_status(&rs);
}
