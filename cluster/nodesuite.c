/* SPDX-License-Identifier: MIT */
/*
 * --suite default: each node measures ptbench's own suite, as ptbench
 * does on one machine, in processes that never touch MPI: the rank starts
 * `ptbench run` before MPI_Init (which starts threads of its own and
 * clears glibc's single-threaded flag), and its rounds are then started
 * together with the other nodes' (noderounds.c).  Rank 0 gathers every
 * node's figures -- never its samples -- into node_rows: per point the
 * value on each node, their median, p5, p95 and spread, and the nodes more
 * than 3 MAD from the median (record/cluster-rows.c).
 */
#include "config.h"
#include "cluster/cluster.h"
#include "record/cluster.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* The ptbench beside this program (the build tree), else the installed one. */
static void ptbench_path(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(buf, len, "%s/ptbench", self);
			if (access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, len, "%s/ptbench", PTB_BINDIR);
}

/* Start `ptbench ARGS...` with its stdout into out (NULL: none) and its
 * stderr kept, so that a failure can be told in ptbench's words; gate >= 0
 * is a descriptor the child keeps (its round gate).  Its pid, or -1. */
static pid_t start_ptbench(struct ptb_cl *c, char **args, int nargs, const char *out, int gate)
{
	char prog[PATH_MAX + 16], *argv[80];
	int argc = 0;
	ptbench_path(prog, sizeof prog);
	argv[argc++] = prog;
	for (int i = 0; i < nargs && argc < 79; i++)
		argv[argc++] = args[i];
	argv[argc] = NULL;
	char errpath[4096 + 8];
	snprintf(errpath, sizeof errpath, "%s.err", c->node_file);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(out ? out : "/dev/null", O_WRONLY | (out ? O_TRUNC : 0));
		int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(o, 1);
		dup2(err >= 0 ? err : o, 2);
		if (gate >= 0)
			fcntl(gate, F_SETFD, 0);
		execv(prog, argv);
		fprintf(stderr, "cannot run %s\n", prog);
		_exit(127);
	}
	return pid;
}

/* Wait for the child started above: NULL, or why it failed, in ptbench's
 * words (its first line on stderr). */
static const char *finish_ptbench(struct ptb_cl *c, pid_t pid, const char *what)
{
	char errpath[4096 + 8];
	snprintf(errpath, sizeof errpath, "%s.err", c->node_file);
	int st = 0;
	static char why[600];
	const char *rc = NULL;
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char line[512] = "";
		FILE *f = fopen(errpath, "r");
		if (!f || !fgets(line, sizeof line, f))
			snprintf(line, sizeof line, "no message");
		if (f)
			fclose(f);
		line[strcspn(line, "\n")] = 0;
		snprintf(why, sizeof why, "ptbench %s failed on this node: %s", what, line);
		rc = why;
	}
	unlink(errpath);
	return rc;
}

/* The suite's process, ended early (the job failed or was ended): asked
 * to stop as SIGTERM asks, then killed, and its files removed. */
void ptb_cl_node_suite_abandon(struct ptb_cl *c)
{
	pid_t pid = c->node_pid;
	if (pid <= 0)
		return;
	c->node_pid = 0;
	kill(pid, SIGTERM);
	for (int i = 0; i < 50 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(pid, NULL, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	char errpath[4096 + 8];
	snprintf(errpath, sizeof errpath, "%s.err", c->node_file);
	unlink(errpath);
	unlink(c->node_file);
}

/* The suite's process has said its last round ended (or has gone): its
 * end, and why it failed if it did. */
void ptb_cl_node_suite_wait(struct ptb_cl *c)
{
	if (c->node_pid <= 0)
		return;
	const char *why = finish_ptbench(c, c->node_pid, "run");
	c->node_pid = 0;
	if (!c->node_status)
		c->node_status = why;
}

/* Before MPI_Init: the node's suite started (its rounds wait for the
 * gate), or its context measured to the end (--suite hybrid). */
void ptb_cl_node_suite_run(struct ptb_cl *c)
{
	char *argv[72];
	int argc = 0;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(c->node_file, sizeof c->node_file, "%s/ptbench-node-XXXXXX", tmp);
	int fd = mkstemp(c->node_file);
	if (fd < 0) {
		c->node_status = "cannot create a temporary file";
		return;
	}
	close(fd);
	if (!c->node_suite) {   /* the node's context alone: what `info --json` prints */
		char *info[] = { "info", "--json" };
		c->node_status = finish_ptbench(c, start_ptbench(c, info, 2, c->node_file, -1),
						"info");
		return;
	}
	/* Its rounds start when this rank says (noderounds.c), over a socket
	 * the child keeps as its round gate. */
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		c->node_status = "cannot create the round gate's socket";
		return;
	}
	char gate[16];
	snprintf(gate, sizeof gate, "%d", sv[1]);
	argv[argc++] = "run";
	char *args = c->node_args ? strdup(c->node_args) : NULL;
	for (char *save, *w = args ? strtok_r(args, " ", &save) : NULL; w && argc < 64;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc++] = "--format";
	argv[argc++] = "json";
	argv[argc++] = "-o";
	argv[argc++] = c->node_file;
	argv[argc++] = "--round-gate";
	argv[argc++] = gate;
	c->node_pid = start_ptbench(c, argv, argc, NULL, sv[1]);
	close(sv[1]);
	free(args);
	if (c->node_pid < 0) {
		close(sv[0]);
		c->node_status = "cannot start ptbench run";
		return;
	}
	c->node_gate = sv[0];
}

/* This rank's context and figures as compact JSON text (malloc'd): the
 * context as ptbench/2 records it, from the suite's file or from `ptbench
 * info --json`. */
static char *node_figures(struct ptb_cl *c)
{
	json_t *out = json_array(), *ctx = NULL;
	ptb_cl_node_suite_wait(c);
	json_t *run = c->node_status ? NULL : json_load_file(c->node_file, 0, NULL);
	size_t i;
	json_t *r;
	if (run && !c->node_suite)
		ctx = json_incref(run);
	else if (run)
		ctx = json_incref(json_object_get(run, "context"));
	json_array_foreach(c->node_suite ? json_object_get(run, "results") : NULL, i, r)
		json_array_append_new(out, json_pack("{s:O,s:O,s:O,s:O,s:O?}", "bench",
			json_object_get(r, "bench"), "params", json_object_get(r, "params"),
			"status", json_object_get(r, "status"), "value",
			json_object_get(r, "value") ? json_object_get(r, "value") : json_null(),
			"ci95", json_object_get(r, "ci95")));
	json_decref(run);
	unlink(c->node_file);
	json_t *doc = json_pack("{s:s?,s:o,s:o?}", "failed", c->node_status, "rows", out,
				"context", ctx);
	char *s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(doc);
	return s;
}

static void merge(struct ptb_cl *c, json_t *rows, json_t *index, const char *node, json_t *figs)
{
	size_t i;
	json_t *f;
	json_array_foreach(figs, i, f) {
		json_t *pair = json_pack("[O,O]", json_object_get(f, "bench"),
					 json_object_get(f, "params"));
		char *key = json_dumps(pair, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(pair);
		json_t *row = json_object_get(index, key);
		if (!row) {
			row = json_pack("{s:O,s:O,s:{}}", "bench", json_object_get(f, "bench"),
					"params", json_object_get(f, "params"), "per_node");
			json_array_append_new(rows, row);
			json_object_set(index, key, row);
		}
		free(key);
		json_object_set_new(json_object_get(row, "per_node"), node, json_pack("{s:O,s:O,s:O?}",
			"value", json_object_get(f, "value"), "status", json_object_get(f, "status"),
			"ci95", json_object_get(f, "ci95")));
	}
}

void ptb_cl_node_suite_gather(struct ptb_cl *c)
{
	char *mine = node_figures(c);
	int len = (int)strlen(mine) + 1, *lens = NULL, *displs = NULL;
	char *all = NULL;
	if (c->rank == 0) {
		lens = calloc((size_t)c->size, sizeof *lens);
		displs = calloc((size_t)c->size, sizeof *displs);
	}
	ptb_cl_watch_arm("gathering the nodes' figures");
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	size_t total = 0;
	for (int r = 0; c->rank == 0 && r < c->size; r++) {
		displs[r] = (int)total;
		total += (size_t)lens[r];
	}
	if (c->rank == 0 && !(all = malloc(total)))
		ptb_cl_fail(c, "out of memory");
	MPI_Gatherv(mine, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
	free(mine);
	if (c->rank != 0)
		return;
	json_t *rows = json_array(), *index = json_object(), *nodes =
		json_object_get(json_object_get(c->doc, "context"), "nodes");
	for (int r = 0; r < c->size; r++) {
		json_t *got = json_loads(all + displs[r], 0, NULL);
		json_t *node = json_array_get(nodes, (size_t)r);
		char name[96];
		if (c->as_nodes)
			snprintf(name, sizeof name, "rank%d", r);
		else
			snprintf(name, sizeof name, "%s", json_string_value(json_object_get(node, "host")));
		const char *failed = json_string_value(json_object_get(got, "failed"));
		if (!got || failed)
			ptb_cl_fail(c, "rank %d (%s): %s", r, name, failed ? failed : "no figures");
		if (json_is_object(json_object_get(got, "context")))
			json_object_set(node, "context", json_object_get(got, "context"));
		merge(c, rows, index, name, json_object_get(got, "rows"));
		json_decref(got);
	}
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
		ptb_cluster_row_summary(row);
	json_decref(index);
	if (c->node_suite)
		ptb_cl_set_node_rows(c, rows);
	else
		json_decref(rows);
	free(all);
	free(lens);
	free(displs);
}
