/* SPDX-License-Identifier: MIT */
/*
 * The runner's side of a worker (see worker.h): start `PROGRAM worker`
 * with a pipe each way, send one request, wait for one answer line under
 * the watchdog, and when the worker dies or hangs, reap it and say why.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/suite.h"
#include "run/worker.h"

extern char **environ;

/* pipe(2) with both ends closed on exec. */
static int cloexec_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void close_pair(int fds[2])
{
	close(fds[0]);
	close(fds[1]);
}

/* In the child: the pipes become stdin and stdout, then the program. */
static void exec_worker(const struct ptb_side *side, int in, int out)
{
	char *argv[] = { (char *)side->program, (char *)"worker", NULL };
	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
		_exit(127);
	execve(side->program, argv, side->env ? side->env : environ);
	fprintf(stderr, "ptbench: cannot run %s: %s\n", side->program, strerror(errno));
	_exit(127);
}

int ptb_worker_start(struct ptb_worker *w, const struct ptb_side *side, char *why, size_t len)
{
	int down[2], up[2];
	memset(w, 0, sizeof *w);
	if (cloexec_pipe(down) < 0)
		goto fail;
	if (cloexec_pipe(up) < 0) {
		close_pair(down);
		goto fail;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid == 0)
		exec_worker(side, down[0], up[1]);
	close(down[0]);
	close(up[1]);
	w->to = down[1];
	w->from = up[0];
	if (w->pid > 0)
		return 0;
	close(w->to);
	close(w->from);
	w->pid = 0;
fail:
	snprintf(why, len, "cannot start a worker: %s", strerror(errno));
	return -1;
}

static int send_request(struct ptb_worker *w, const json_t *req)
{
	char *s = json_dumps(req, JSON_COMPACT | JSON_PRESERVE_ORDER);
	size_t n = s ? strlen(s) : 0;
	int rc = s ? 0 : -1;
	if (s)
		s[n++] = '\n';    /* json_dumps leaves room for the terminator only */
	for (size_t off = 0; !rc && off < n;) {
		ssize_t k = write(w->to, s + off, n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			rc = -1;
		else
			off += (size_t)k;
	}
	free(s);
	return rc;
}

/* Read what the worker wrote; 1 more may come, 0 end of file, -1 error. */
static int pump(struct ptb_worker *w)
{
	if (w->cap - w->len < 65536) {
		size_t cap = w->cap * 2 + 65536;
		char *buf = realloc(w->buf, cap);
		if (!buf)
			return -1;
		w->buf = buf;
		w->cap = cap;
	}
	ssize_t r = read(w->from, w->buf + w->len, w->cap - w->len);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (r <= 0)
		return r == 0 ? 0 : -1;
	w->len += (size_t)r;
	return 1;
}

/* The first complete line, parsed, or NULL while there is none. */
static json_t *take_line(struct ptb_worker *w, bool *malformed)
{
	char *nl = w->len ? memchr(w->buf, '\n', w->len) : NULL;
	if (!nl)
		return NULL;
	*nl = '\0';
	json_t *msg = json_loads(w->buf, 0, NULL);
	w->len -= (size_t)(nl + 1 - w->buf);
	memmove(w->buf, nl + 1, w->len);
	*malformed = !msg;
	return msg;
}

static void reap(struct ptb_worker *w, bool kill_it, char *why, size_t len)
{
	int status = 0;
	if (kill_it)
		kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (why && WIFSIGNALED(status))
		snprintf(why, len, "worker %d killed by signal %d (%s)", (int)w->pid,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (why && WEXITSTATUS(status))
		snprintf(why, len, "worker %d exited with status %d", (int)w->pid,
			 WEXITSTATUS(status));
	close(w->to);
	close(w->from);
	free(w->buf);
	memset(w, 0, sizeof *w);
}

/* What a worker's answer line means. */
static enum ptb_trial_outcome judge_answer(struct ptb_worker *w, json_t *msg, json_t **answer,
					   char *why, size_t len)
{
	json_t *rec = json_object_get(msg, "trial");
	const char *err = json_string_value(json_object_get(msg, "error"));
	const char *lost = json_string_value(json_object_get(msg, "lost"));
	if (json_is_object(rec)) {
		*answer = json_incref(rec);
		json_decref(msg);
		w->trials++;
		return PTB_TRIAL_DONE;
	}
	if (lost) {
		snprintf(why, len, "%s", lost);
		json_decref(msg);
		return PTB_TRIAL_FAILED;
	}
	snprintf(why, len, "worker %d: %s", (int)w->pid, err ? err : "answered nonsense");
	json_decref(msg);
	reap(w, true, NULL, 0);
	return PTB_TRIAL_FAILED;
}

enum ptb_trial_outcome ptb_worker_trial(struct ptb_worker *w, const json_t *request,
					double timeout_s, json_t **answer, char *why,
					size_t len)
{
	double deadline = ptb_now_s() + timeout_s;
	bool malformed = false;
	*answer = NULL;
	snprintf(why, len, "worker %d ended without answering", (int)w->pid);
	if (send_request(w, request) < 0) {
		reap(w, true, why, len);
		return ptb_run_interrupted ? PTB_TRIAL_INTERRUPTED : PTB_TRIAL_FAILED;
	}
	for (;;) {
		json_t *msg = take_line(w, &malformed);
		if (msg || malformed)
			return judge_answer(w, msg, answer, why, len);
		if (ptb_run_interrupted) {
			reap(w, true, NULL, 0);
			snprintf(why, len, "interrupted");
			return PTB_TRIAL_INTERRUPTED;
		}
		double left = deadline - ptb_now_s();
		if (left <= 0) {
			snprintf(why, len, "no answer within --timeout %g s", timeout_s);
			reap(w, true, NULL, 0);
			return PTB_TRIAL_TIMEOUT;
		}
		struct pollfd pfd = { w->from, POLLIN, 0 };
		if (poll(&pfd, 1, (int)(left * 1000) + 1) > 0 && pump(w) <= 0) {
			/* Keep an answer that came with the end of file. */
			if ((msg = take_line(w, &malformed)) || malformed)
				return judge_answer(w, msg, answer, why, len);
			reap(w, false, why, len);
			/* A signal to the whole process group kills the worker
			 * too: that is an interrupt, not a crash. */
			return ptb_run_interrupted ? PTB_TRIAL_INTERRUPTED : PTB_TRIAL_FAILED;
		}
	}
}

void ptb_worker_stop(struct ptb_worker *w)
{
	if (!w->pid)
		return;
	close(w->to);
	w->to = -1;
	/* A worker reads its end of file and exits at once; one that does not
	 * within a second is killed. */
	for (int i = 0; i < 100; i++) {
		if (waitpid(w->pid, NULL, WNOHANG) == w->pid) {
			close(w->from);
			free(w->buf);
			memset(w, 0, sizeof *w);
			return;
		}
		usleep(10000);
	}
	w->to = open("/dev/null", O_WRONLY);
	reap(w, true, NULL, 0);
}
