/* SPDX-License-Identifier: MIT */
/*
 * The worker process's side of a trial (worker.c) and the runner's (the
 * worker pool, workers.c).  A worker is a program -- this ptbench, or for
 * an A/B comparison another one -- started as `PROGRAM worker`, talking one
 * JSON line each way per trial:
 *   request  {"bench": NAME, "params": {VAR: VALUE}, "limits": {...}, "quick": BOOL}
 *   answer   {"trial": RECORD}, {"lost": TEXT} (the trial's process died;
 *            the worker goes on) or {"error": TEXT} (the worker cannot)
 */
#ifndef PTB_RUN_WORKER_H
#define PTB_RUN_WORKER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* `ptbench worker`: serve requests until end of input.  Exit status. */
int ptb_worker_main(FILE *in, FILE *out);

/* The time per unit of a benchmark's reference (EPCC's method) to take off
 * a timing, given the one just measured (unit, ns) and *least, the least
 * of the trial's so far (0: none yet), which a timing long enough for the
 * clock to resolve (resolved) may lower: unit itself, or *least where unit
 * is over 1.5 times it -- an interrupted reference, whose work is fixed. */
double ptb_reference_unit(double *least, double unit, bool resolved);

/* A program that serves trials, and its environment (NULL = ours). */
struct ptb_side {
	const char *name;              /* "base", "head"; "" for a plain run */
	const char *program;
	char **env;
};

struct ptb_worker {
	pid_t pid;                     /* 0: not running */
	int to, from;
	char *buf;
	size_t len, cap;
	size_t scanned;                /* bytes of buf known to hold no newline */
	int trials;                    /* served so far */
};

enum ptb_trial_outcome {
	PTB_TRIAL_DONE,        /* *answer holds the trial's record */
	PTB_TRIAL_FAILED,      /* the trial's process or the worker died, or nonsense */
	PTB_TRIAL_TIMEOUT,     /* no answer within the timeout: the worker is killed */
	PTB_TRIAL_INTERRUPTED, /* the run was interrupted meanwhile */
	PTB_TRIAL_REFUSED,     /* the system refused the trial a process (fork
				* failed, a resource limit): an error, not a
				* crash; why names the limit */
};

/* "cannot WHAT: strerror(err)", and for EAGAIN or ENOMEM the limit that
 * was reached, into buf: fork refused by the system. */
void ptb_fork_refused(char *buf, size_t len, const char *what, int err);

/* Start a worker of side; -1 with why. */
int ptb_worker_start(struct ptb_worker *w, const struct ptb_side *side, char *why, size_t len);
/* One trial: send the request, wait up to timeout_s for the answer.  On
 * TIMEOUT and INTERRUPTED, and on FAILED unless only the trial's own
 * process died, the worker is gone (killed and reaped; w->pid is 0) and
 * why says what happened; the runner starts another for the next trial. */
enum ptb_trial_outcome ptb_worker_trial(struct ptb_worker *w, const json_t *request,
					double timeout_s, json_t **answer, char *why,
					size_t len);
/* End a worker: close its input, reap it (killing it if it lingers). */
void ptb_worker_stop(struct ptb_worker *w);

#endif
