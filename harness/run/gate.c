/* SPDX-License-Identifier: MIT */
/*
 * The round gate (gate.h): before each round the run says it is ready and
 * sleeps until the start time its caller names; after it, it says when
 * the round ran.  The times are the caller's to compare across nodes: it
 * knows how this node's clock stands to the others'.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "run/gate.h"

static int64_t round_start_ns;

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool say(int fd, const char *line)
{
	size_t len = strlen(line), off = 0;
	while (off < len) {
		/* (a caller gone must not end the run with SIGPIPE) */
		ssize_t n = send(fd, line + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* One line from the caller, byte by byte: nothing after it is read, and
 * lines are short.  End of file or an error: false. */
static bool hear(int fd, char *buf, size_t len)
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

bool ptb_gate_enter(int fd, int round)
{
	char line[64];
	long long at;
	if (fd <= 0)
		return true;
	snprintf(line, sizeof line, "ready %d\n", round);
	if (!say(fd, line) || !hear(fd, line, sizeof line) || sscanf(line, "go %lld", &at) != 1)
		return false;
	struct timespec ts = { .tv_sec = at / 1000000000, .tv_nsec = at % 1000000000 };
	while (at > mono_ns() && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	round_start_ns = mono_ns();
	return true;
}

void ptb_gate_leave(int fd, int round)
{
	char line[96];
	if (fd <= 0)
		return;
	snprintf(line, sizeof line, "done %d %" PRId64 " %" PRId64 "\n", round, round_start_ns,
		 mono_ns());
	say(fd, line);   /* a caller gone is found at the next round */
}

void ptb_gate_end(int fd)
{
	if (fd > 0)
		say(fd, "end\n");
}
