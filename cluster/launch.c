/* SPDX-License-Identifier: MIT */
/*
 * `ptbench-mpi launch LAUNCHER ARG...`: the launcher run as a child, its
 * status made ptbench's.  When a rank is killed, the launcher ends the job
 * with a status of its own (Open MPI's mpirun: 137, the killed rank's
 * signal), whatever the ranks return; the ranks cannot change that, the
 * launcher's parent can.  Exit 0 or 2 as the launcher's; any other end
 * is 2, silently when the job's file is marked incomplete (rank 0 has said
 * why in one line), else with one line saying how the launcher ended.
 * Starts no MPI.
 */
#include "config.h"
#include "cluster/cluster.h"
#include "record/cluster.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t child;

/* A signal to the wrapper (a batch system's SIGTERM) goes on to the
 * launcher, which ends its job in order. */
static void pass_on(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* The job's file: the value of -o after the `cluster` word; NULL. */
static const char *job_file(int argc, char **argv)
{
	bool cluster = false;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "cluster"))
			cluster = true;
		else if (cluster && !strcmp(argv[i], "-o") && i + 1 < argc)
			return argv[i + 1];
	}
	return NULL;
}

static bool marked_incomplete(const char *path)
{
	char err[512];
	json_t *doc = path ? ptb_cluster_load(path, err, sizeof err) : NULL;
	bool yes = doc && !strcmp(json_string_value(json_object_get(doc, "status")), "incomplete");
	json_decref(doc);
	return yes;
}

int ptb_cl_launch(int argc, char **argv)
{
	if (argc < 1) {
		fputs("ptbench-mpi: launch wants a launcher command, e.g. launch mpirun -n 4 "
		      "ptbench-mpi cluster -o cluster.json\n", stderr);
		return 2;
	}
	struct sigaction sa = { .sa_handler = pass_on };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGINT, SIG_IGN);   /* the terminal sends it to the launcher too */
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "ptbench-mpi: launch: cannot run %s\n", argv[0]);
		_exit(127);
	}
	if (pid < 0) {
		fputs("ptbench-mpi: launch: cannot start the launcher\n", stderr);
		return 2;
	}
	child = pid;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 2))
		return WEXITSTATUS(st);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return 2;   /* it could not be run: said above */
	const char *file = job_file(argc, argv);
	if (marked_incomplete(file))
		return 2;
	char how[64];
	if (WIFSIGNALED(st))
		snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(st));
	else
		snprintf(how, sizeof how, "ended with status %d", WEXITSTATUS(st));
	fprintf(stderr, "ptbench-mpi: launch: %s %s%s%s (its message above says why)\n",
		argv[0], how, file ? "; no incomplete job file " : "", file ? file : "");
	return 2;
}
