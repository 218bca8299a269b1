/* SPDX-License-Identifier: MIT */
/*
 * The parent's side of a benchmark's process: it starts the child, follows
 * its lines, restarts the watchdog when a point begins, lets the child go on
 * once a record is saved, and when the child hangs, crashes or the run is
 * interrupted, gives every point it did not finish a record saying so (the
 * parent walks the same deterministic sweep as the child to know which
 * points those are).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/sweep.h"
#include "run/record.h"
#include "run/suite.h"

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
static void take_lines(struct ptb_run_state *rs, struct ptb_sweep *mirror, struct child *c,
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
			c->deadline = ptb_now_s() + rs->o->timeout_s;
			ptb_progress_begin(rs->done, bench, c->current);
		} else if (rec) {
			ptb_sweep_next(mirror, values);
			ptb_sweep_feed(mirror, ptb_record_mean(rec));
			json_decref(c->current);
			c->current = NULL;
			ptb_run_add(rs, json_incref(rec));
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
static void mark_rest(struct ptb_run_state *rs, const struct ptb_bench *b, struct ptb_sweep *mirror,
		      bool in_progress, enum ptb_status st, const char *reason)
{
	const char *values[PTB_MAX_PARAMS];
	char why[256];
	while (ptb_sweep_next(mirror, values)) {
		snprintf(why, sizeof why, "%s%s", reason,
			 in_progress ? "" : " (during an earlier point of this benchmark)");
		ptb_run_add(rs, ptb_result_json_bare(b->name, ptb_params_json(b, values), st, why));
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
		 const struct ptb_job *job, struct child *c)
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
		ptb_child_main(o, sys, job, up[1], down[0]);
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
static bool follow(struct ptb_run_state *rs, struct ptb_sweep *mirror, struct child *c,
		   const char *bench)
{
	for (;;) {
		struct pollfd pfd = { c->from, POLLIN, 0 };
		if (ptb_run_interrupted || ptb_now_s() >= c->deadline)
			return false;
		int ms = (int)((c->deadline - ptb_now_s()) * 1000) + 1;
		if (poll(&pfd, 1, ms) > 0) {
			bool more = pump(c);
			take_lines(rs, mirror, c, bench);
			if (!more)
				return true;
		}
	}
}

/* Keep a result that arrived while the parent was deciding to stop. */
static void drain(struct ptb_run_state *rs, struct ptb_sweep *mirror, struct child *c,
		  const char *bench)
{
	fcntl(c->from, F_SETFL, O_NONBLOCK);
	while (pump(c) && memchr(c->buf, '\n', c->len))
		take_lines(rs, mirror, c, bench);
	take_lines(rs, mirror, c, bench);
}

void ptb_run_bench(struct ptb_run_state *rs, const struct ptb_system *sys,
		      const struct ptb_job *job)
{
	const struct ptb_run_opts *o = rs->o;
	const struct ptb_bench *b = job->b;
	struct ptb_sweep *mirror = ptb_job_sweep(job);
	struct child c = { .deadline = ptb_now_s() + o->timeout_s };
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
	if (!ended && !ptb_run_interrupted) {
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

