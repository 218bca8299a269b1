/* SPDX-License-Identifier: MIT */
/*
 * No wait without an end.  A rank that dies or stops answering must not
 * leave the others blocked in a collective for ever: a watchdog thread
 * ends any rank whose armed phase outlives the timeout, and rank 0 holds
 * a roll call before each phase so that a rank that never answers is
 * named.  The end is MPI_Abort with code 2, which the launchers pass on as
 * their exit status and which ends every other rank with it.
 */
#include "config.h"
#include "cluster/cluster.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct ptb_cl *watched;
static _Atomic int64_t deadline_ns;     /* 0: nothing armed */
static _Atomic(const char *) phase_name;

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		usleep(20000);
		int64_t d = atomic_load(&deadline_ns);
		if (d != 0 && mono_ns() > d)
			ptb_cl_fail(watched, "rank %d (%s): no answer within %g s in %s; a rank "
				    "died or stopped answering", watched->rank, watched->host,
				    watched->timeout_s, atomic_load(&phase_name));
	}
	return NULL;
}

void ptb_cl_watch_start(struct ptb_cl *c)
{
	pthread_t t;
	watched = c;
	if (pthread_create(&t, NULL, watchdog, NULL) != 0)
		ptb_cl_fail(c, "rank %d (%s): cannot start the watchdog thread", c->rank, c->host);
	pthread_detach(t);
}

void ptb_cl_watch_arm(const char *phase)
{
	atomic_store(&phase_name, phase);
	atomic_store(&deadline_ns, mono_ns() + (int64_t)(watched->timeout_s * 1e9));
}

void ptb_cl_watch_disarm(void)
{
	atomic_store(&deadline_ns, 0);
}

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

void ptb_cl_fail(struct ptb_cl *c, const char *fmt, ...)
{
	ptb_cl_lifeline_bye();   /* an end said, not a death */
	/* One line, even when the watchdog and the main thread fail at once. */
	pthread_mutex_lock(&fail_lock);
	/* in one write: the launcher forwards each write as it comes, and its
	 * own message (printed as a rank dies) must not split the line */
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(line, sizeof line, "ptbench-mpi: ");
	n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = n < (int)sizeof line - 1 ? n : (int)sizeof line - 2;
	line[n++] = '\n';
	/* the file first: a launcher that sees the line (or a rank's death)
	 * may end this process at once -- Open MPI's mpirun sent SIGTERM
	 * between the two, and the file was left unmarked (cluster.sh 32,
	 * twice in CI) */
	if (c && c->rank == 0 && c->doc)
		ptb_cl_save(c, "incomplete");
	if (write(2, line, (size_t)n) < 0)
		_exit(2);
	if (c)
		ptb_cl_node_suite_abandon(c);
	if (c && c->size > 0)
		MPI_Abort(MPI_COMM_WORLD, 2);
	_exit(2);
}

#define ROLL_TAG 7701

/* Every rank reports to rank 0, which waits for each at most the timeout
 * and names those that never came; the ranks then wait for rank 0's word
 * under the watchdog, so a dead rank 0 ends them too. */
void ptb_cl_rollcall(struct ptb_cl *c, const char *phase)
{
	int me = c->rank;
	if (c->rank != 0) {
		ptb_cl_watch_arm(phase);
		MPI_Send(&me, 1, MPI_INT, 0, ROLL_TAG, MPI_COMM_WORLD);
	} else {
		/* Rank 0's wait below has its own end, shorter than the
		 * watchdog's, so that it names the missing rank: the watchdog is
		 * armed only for the barrier after it. */
		int n = c->size - 1;
		MPI_Request *req = calloc((size_t)n + 1, sizeof *req);
		int *got = calloc((size_t)n + 1, sizeof *got);
		int *done = calloc((size_t)n + 1, sizeof *done);
		if (!req || !got || !done)
			ptb_cl_fail(c, "out of memory");
		for (int r = 1; r < c->size; r++)
			MPI_Irecv(&got[r - 1], 1, MPI_INT, r, ROLL_TAG, MPI_COMM_WORLD, &req[r - 1]);
		int64_t end = mono_ns() + (int64_t)(c->timeout_s * 0.8e9);
		int left = n;
		while (left > 0 && mono_ns() < end) {
			for (int i = 0; i < n; i++) {
				int flag = 0;
				if (done[i])
					continue;
				MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
				if (flag) {
					done[i] = 1;
					left--;
				}
			}
			if (left > 0)
				usleep(1000);
		}
		if (left > 0) {
			char who[512] = "";
			for (int i = 0; i < n; i++)
				if (!done[i] && strlen(who) < sizeof who - 16)
					snprintf(who + strlen(who), sizeof who - strlen(who),
						 "%s%d", who[0] ? ", " : "", i + 1);
			ptb_cl_fail(c, "rank %s did not answer within %g s before %s (node or "
				    "process lost)", who, c->timeout_s * 0.8, phase);
		}
		free(req);
		free(got);
		free(done);
		ptb_cl_watch_arm(phase);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
}

/* A launcher ends the job when a rank dies (Open MPI's mpirun: SIGTERM to
 * the others, then SIGKILL): rank 0 says so in one line and keeps every
 * finished figure in the file, marked incomplete, and every rank exits 2.  The launcher's own exit status is its own (mpirun: 137 for a
 * killed rank); this is what is in the ranks' hands.  A thread of its own
 * waits for the signals, which every other thread blocks. */
static sigset_t ending;

static void *signal_watch(void *arg)
{
	struct ptb_cl *c = arg;
	int sig = 0;
	if (sigwait(&ending, &sig) != 0)
		return NULL;
	/* Rank 0 speaks for the job, in one line; the others end quietly: the
	 * launcher names a rank it lost, and rank 0 or a watchdog names a rank
	 * that stopped answering. */
	if (c->rank != 0) {
		ptb_cl_lifeline_bye();
		ptb_cl_node_suite_abandon(c);
		_exit(2);
	}
	/* A launcher ends the job after a rank died: that rank's lifeline has
	 * closed by now, and rank 0's line names it rather than this one. */
	ptb_cl_lifeline_death_pending(c, 300);
	pthread_mutex_lock(&fail_lock);
	fprintf(stderr, "ptbench-mpi: rank %d (%s): ended by %s from the launcher: another rank "
		"died or the job was cancelled (the launcher's message names the rank)%s\n",
		c->rank, c->host, sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "SIGHUP",
		c->doc && c->out ? "; the finished figures are kept, marked incomplete" : "");
	fflush(stderr);
	if (c->doc)
		ptb_cl_save(c, "incomplete");
	ptb_cl_node_suite_abandon(c);
	_exit(2);
}

void ptb_cl_signals_start(struct ptb_cl *c)
{
	pthread_t t;
	sigemptyset(&ending);
	sigaddset(&ending, SIGTERM);
	sigaddset(&ending, SIGINT);
	sigaddset(&ending, SIGHUP);
	/* blocked here, before MPI_Init, so that MPI's threads inherit it */
	pthread_sigmask(SIG_BLOCK, &ending, NULL);
	if (pthread_create(&t, NULL, signal_watch, c) == 0)
		pthread_detach(t);
}
