/* SPDX-License-Identifier: MIT */
/*
 * Copies of a program at once (cli/corun-copies.h).  Each copy is bound
 * and given its policy before the start line, so that none begins its
 * work while another is still being set up; a copy that cannot be set up
 * or exec'd says why through a pipe that a successful exec closes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/corun-copies.h"
#include "platform/topology.h"
#include "record/cleanup.h"
#include "text/text.h"

/* What a copy that failed before its program ran writes to the parent:
 * one write, smaller than PIPE_BUF, so that two never interleave. */
struct setup_failure {
	int err;
	char what[48];
};

static void fail(int fd, const char *what)
{
	struct setup_failure f = { errno, "" };
	snprintf(f.what, sizeof f.what, "%s", what);
	if (write(fd, &f, sizeof f) < 0) {
		/* nothing more to be done: the exit status says it failed */
	}
	_exit(127);
}

/* The child: join the copies' group, bind, set the policy, take stdin
 * and quiet its output, wait at the start line, run the program. */
static void copy_child(const struct ptb_copies *c, int pu, pid_t group, int go, int report)
{
	char err[256];
	setpgid(0, group);
	if (ptb_bind_self(c->t, pu, err, sizeof err))
		fail(report, "binding to its PU");
	struct sched_param fifo = { .sched_priority = 1 }, other = { .sched_priority = 0 };
	if (c->fifo ? sched_setscheduler(0, SCHED_FIFO, &fifo) :
	    sched_setscheduler(0, SCHED_OTHER, &other))
		fail(report, c->fifo ? "SCHED_FIFO" : "the normal policy");
	int in = open(c->input ? c->input : "/dev/null", O_RDONLY);
	int out = open("/dev/null", O_WRONLY);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		fail(report, c->input ? "opening its input" : "opening /dev/null");
	if (in > 2)
		close(in);
	if (out > 2)
		close(out);
	char byte;
	while (read(go, &byte, 1) < 0 && errno == EINTR)
		;                                   /* EOF: the start */
	close(go);
	execvp(c->argv[0], c->argv);
	fail(report, "running it");
}

static double cpu_seconds(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec * 1e-6 +
	       ru->ru_stime.tv_sec + ru->ru_stime.tv_usec * 1e-6;
}

/* Wait for every started copy; the first that did not exit 0 is named. */
static int wait_all(const pid_t *pid, int n, double *cpu_s, char *err, size_t errlen)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		int status;
		struct rusage ru;
		pid_t got;
		while ((got = wait4(pid[i], &status, 0, &ru)) < 0 && errno == EINTR)
			;
		if (got < 0) {
			rc = rc ? rc : (ptb_errf(err, errlen, "a copy was lost (%s)", strerror(errno)), -1);
			continue;
		}
		cpu_s[i] = cpu_seconds(&ru);
		if (rc)
			continue;
		if (WIFSIGNALED(status))
			rc = -1, ptb_errf(err, errlen, "%s was killed by signal %d", "the program",
					  WTERMSIG(status));
		else if (WEXITSTATUS(status))
			rc = -1, ptb_errf(err, errlen, "the program exited with status %d",
					  WEXITSTATUS(status));
	}
	return rc;
}

int ptb_copies_run(const struct ptb_copies *c, const int *pus, int n, double *cpu_s,
		   char *err, size_t errlen)
{
	int go[2], report[2];
	pid_t pid[PTB_COPIES_MAX];
	if (n < 1 || n > PTB_COPIES_MAX)
		return ptb_errf(err, errlen, "%d copies: 1 to %d", n, PTB_COPIES_MAX), -1;
	if (pipe2(go, O_CLOEXEC))
		return ptb_errf(err, errlen, "a pipe: %s", strerror(errno)), -1;
	if (pipe2(report, O_CLOEXEC)) {
		close(go[0]), close(go[1]);
		return ptb_errf(err, errlen, "a pipe: %s", strerror(errno)), -1;
	}
	fflush(NULL);
	int started = 0;
	for (; started < n; started++) {
		pid_t group = started ? pid[0] : 0;      /* the first copy leads */
		pid[started] = fork();
		if (pid[started] == 0) {
			close(go[1]), close(report[0]);
			copy_child(c, pus[started], group, go[0], report[1]);
		}
		if (pid[started] < 0)
			break;
		setpgid(pid[started], group ? group : pid[started]);   /* before either runs */
		if (!started)
			ptb_cleanup_child(-pid[0]);
	}
	int forked = started == n;
	if (!forked) {
		ptb_errf(err, errlen, "fork: %s", strerror(errno));
		if (started)
			kill(-pid[0], SIGKILL);
	}
	close(go[0]), close(go[1]), close(report[1]);   /* the start */
	char why[256];
	int rc = wait_all(pid, started, cpu_s, why, sizeof why);
	if (started) {
		kill(-pid[0], SIGKILL);                 /* what of the group is left */
		ptb_cleanup_child(0);
	}
	struct setup_failure f;
	if (forked && read(report[0], &f, sizeof f) == (ssize_t)sizeof f) {
		f.what[sizeof f.what - 1] = '\0';
		ptb_errf(err, errlen, "%s: %s failed: %s", c->argv[0], f.what, strerror(f.err));
		rc = -1;
	} else if (forked && rc) {
		ptb_errf(err, errlen, "%s: %s", c->argv[0], why);
	}
	close(report[0]);
	return forked ? rc : -1;
}
