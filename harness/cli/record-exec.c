/* SPDX-License-Identifier: MIT */
/*
 * The interposer takes its variables out of the program's environment
 * once it has claimed the trace, and puts LD_PRELOAD back as it was
 * (PTB_TRACE_PRELOAD_WAS: "=" and the value, or empty for none), so that
 * the program sees its own environment and its children record nothing.
 *
 * PTB_TRACE_EXEC is the moment of the exec, "WALL CPU" in ns (the
 * monotonic clock and this thread's CPU clock): what the loader and the
 * constructors of libraries initialized before the interposer's take
 * (libgomp's, a program's many libraries') is the program's time too,
 * which an unrecorded run pays; the interposer starts the main thread
 * there (trace/interpose-start.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/record-exec.h"

static uint64_t ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void ptb_record_exec(char **argv, const char *lib, const char *tmp)
{
	char pre[8192], was[8192], when[64];
	const char *old = getenv("LD_PRELOAD");
	snprintf(pre, sizeof pre, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
	snprintf(was, sizeof was, "%s%s", old ? "=" : "", old ? old : "");
	setenv("PTB_TRACE_PRELOAD_WAS", was, 1);
	setenv("LD_PRELOAD", pre, 1);
	setenv("PTB_TRACE_FILE", tmp, 1);
	snprintf(when, sizeof when, "%llu %llu", (unsigned long long)ns(CLOCK_MONOTONIC),
		 (unsigned long long)ns(CLOCK_THREAD_CPUTIME_ID));
	setenv("PTB_TRACE_EXEC", when, 1);
	execvp(argv[0], argv);
	fprintf(stderr, "ptbench record: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int ptb_program_findable(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	char buf[4096];
	for (const char *p = path ? path : "/usr/bin:/bin"; ; p++) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		struct stat st;
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
		if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
		if (!e)
			return 0;
		p = e;
	}
}
