/* SPDX-License-Identifier: MIT */
/*
 * `ptbench run --round-gate FD` driven as ptbench-mpi drives it, without
 * MPI: each round waits for its caller's word and starts no earlier than
 * the time named, the rounds are reported in order and none starts before
 * the previous one ended; a caller that goes away interrupts the run,
 * which keeps what finished (exit 130); a descriptor that is not a stream
 * socket is refused (exit 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;
	while (n + 1 < len) {
		ssize_t r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = 0;
	return true;
}

/* `ptbench run -b yield --quick ... --round-gate FD` with FD one end of
 * a socket pair (gate = 1) or of a pipe (gate = 0); *caller the other. */
static pid_t start(const char *out, int gate, int *caller)
{
	int sv[2];
	if (gate ? socketpair(AF_UNIX, SOCK_STREAM, 0, sv) : pipe(sv))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char fd[16];
		snprintf(fd, sizeof fd, "%d", sv[1]);
		close(sv[0]);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execl(getenv("PTBENCH"), "ptbench", "run", "-b", "yield", "--quick", "--format",
		      "json", "-o", out, "--round-gate", fd, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	*caller = sv[0];
	return pid;
}

static int status_of(pid_t pid)
{
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static json_t *trials_of(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);
	json_t *t = json_incref(json_object_get(json_array_get(json_object_get(doc, "results"), 0),
						"trials"));
	json_decref(doc);
	return t;
}

int main(void)
{
	char dir[] = "/tmp/ptb-gate-XXXXXX", out[64], line[128];
	if (!getenv("PTBENCH") || !mkdtemp(dir))
		tap_skip_all("PTBENCH not set");
	snprintf(out, sizeof out, "%s/r.json", dir);

	/* Every round held 50 ms after it says ready, and started 30 ms after
	 * the word: --quick takes 3 trials, one per round. */
	int fd;
	pid_t pid = start(out, 1, &fd);
	int ready = 0, done = 0, ended = 0, bad_order = 0, early = 0, overlap = 0;
	int64_t go_at[16] = { 0 }, prev_end = 0, lag_max = 0;
	while (pid > 0 && read_line(fd, line, sizeof line)) {
		int k;
		long long s, e;
		if (sscanf(line, "ready %d", &k) == 1) {
			bad_order += k != ++ready || k >= 16;
			struct timespec hold = { 0, 50000000 };
			nanosleep(&hold, NULL);
			go_at[k & 15] = mono_ns() + 30000000;
			dprintf(fd, "go %lld\n", (long long)go_at[k & 15]);
		} else if (sscanf(line, "done %d %lld %lld", &k, &s, &e) == 3) {
			bad_order += k != ++done;
			early += s < go_at[k & 15];
			overlap += s < prev_end;
			lag_max = s - go_at[k & 15] > lag_max ? s - go_at[k & 15] : lag_max;
			prev_end = e;
		} else if (!strcmp(line, "end")) {
			ended = 1;
		}
	}
	close(fd);
	int rc = pid > 0 ? status_of(pid) : -1;
	json_t *trials = trials_of(out);
	tap_ok(rc == 0 && ended, "a gated run ends (exit %d) and says so", rc);
	tap_ok(ready == 3 && done == 3 && !bad_order, "3 rounds, each ready then done, in order "
	       "(ready %d, done %d)", ready, done);
	tap_ok(!early && !overlap, "no round before its start time (%d early) or before the "
	       "previous one ended (%d)", early, overlap);
	/* a plausibility bound only: the round starts when the run wakes */
	tap_ok(lag_max < 5000000000LL, "each round starts soon after its time (at most %.1f ms late)",
	       lag_max / 1e6);
	tap_ok(json_array_size(trials) == 3, "the point has a trial from each round (%zu)",
	       json_array_size(trials));
	json_decref(trials);

	/* The caller goes away before round 2: the run stops as on SIGTERM,
	 * round 1's trial kept. */
	unlink(out);
	pid = start(out, 1, &fd);
	while (pid > 0 && read_line(fd, line, sizeof line)) {
		if (!strcmp(line, "ready 1"))
			dprintf(fd, "go 0\n");
		if (!strcmp(line, "ready 2"))
			break;
	}
	close(fd);
	rc = pid > 0 ? status_of(pid) : -1;
	json_t *doc = json_load_file(out, 0, NULL);
	trials = trials_of(out);
	tap_ok(rc == 130 && doc && !strcmp(json_string_value(json_object_get(doc, "status")) ?: "",
					   "interrupted") && json_array_size(trials) == 1,
	       "the caller gone: exit 130 (got %d), the file interrupted with round 1's trial", rc);
	json_decref(doc);
	json_decref(trials);

	/* Not a stream socket: refused before anything runs. */
	pid = start(out, 0, &fd);
	rc = pid > 0 ? status_of(pid) : -1;
	close(fd);
	tap_ok(rc == 2, "a pipe as the gate: exit 2 (got %d)", rc);

	unlink(out);
	rmdir(dir);
	tap_done();
	return tap_exit();
}
