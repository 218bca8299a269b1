/* SPDX-License-Identifier: MIT */
/*
 * `ptbench profile [OPTIONS] -- PROGRAM [ARGS...]`: run PROGRAM under the
 * multi-cache profiler (profile/, a Valgrind tool) and print which of its
 * objects move cache lines between the threads' caches.  The program's
 * output and exit status pass through; a crash is reported.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "platform/process.h"
#include "record/target.h"
#include "text/text.h"
#include "tools/profile.h"

static const char usage[] =
	"usage: ptbench profile [OPTIONS] [--] PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM under the multi-cache profiler: one private cache per thread,\n"
	"kept coherent by MESI, the threads in lockstep; per object, the read and\n"
	"write misses each thread takes because another thread had the line.\n"
	"\n"
	"  --line-size B       cache line size in bytes, a power of two [64]\n"
	"  --quantum N         instructions each thread runs per lockstep step [100]\n"
	"  --cache SIZE:WAYS:LINE  finite LRU caches instead of unbounded ones\n"
	"                      (e.g. 16K:4:32, the caches of Faroughi's study)\n"
	"  --follow-affinity   threads pinned to one CPU (sched_setaffinity) share its cache\n"
	"  --format table|json the result's form [table]\n"
	"  -o, --output FILE   write the result to FILE instead of stdout\n"
	"\n"
	"exit status: PROGRAM's own; 128+N when it was killed by signal N;\n"
	"2 bad input or no profiler.\n";

static const struct option profile_options[] = {
	{ "line-size", required_argument, NULL, 'l' },
	{ "quantum",   required_argument, NULL, 'q' },
	{ "cache",     required_argument, NULL, 'c' },
	{ "format",    required_argument, NULL, 'f' },
	{ "follow-affinity", no_argument, NULL, 'a' },
	{ "output",    required_argument, NULL, 'o' },
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL,        0,                 NULL, 0 },
};

struct profile_opts {
	int line, json, affinity;
	long quantum;
	long cache[3];            /* size, ways, line; size 0: unbounded */
	const char *out;
};

/* SIZE[K|M]:WAYS:LINE, SIZE / (WAYS * LINE) sets a power of two. */
static int parse_cache(const char *arg, long out[3])
{
	char *end;
	const char *p = arg;
	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		out[i] = strtol(p, &end, 10);
		if (errno || out[i] <= 0 || out[i] > (1L << 30))
			return -1;
		if (i == 0 && (*end == 'K' || *end == 'k' || *end == 'M' || *end == 'm'))
			out[i] <<= (*end++ | 0x20) == 'k' ? 10 : 20;
		if (*end != (i < 2 ? ':' : 0))
			return -1;
		p = end + 1;
	}
	long sets = out[0] / (out[1] * out[2]);   /* both are > 0 here */
	if (out[1] > 64 || out[2] < 8 || out[2] > 4096 || (out[2] & (out[2] - 1)) ||
	    out[0] > (1L << 31) || out[0] % (out[1] * out[2]) || !sets || (sets & (sets - 1)))
		return -1;
	return 0;
}

static int profile_option(void *ctx, int c, const char *arg)
{
	struct profile_opts *o = ctx;
	int q;
	switch (c) {
	case 'l':
		if (ptb_parse_int("profile", "--line-size", arg, 8, 4096, &o->line))
			return 2;
		if (o->line & (o->line - 1))
			return ptb_bad_input("profile", "--line-size: %s is not a power of two", arg);
		return 0;
	case 'q':
		if (ptb_parse_int("profile", "--quantum", arg, 1, 1000000000, &q))
			return 2;
		o->quantum = q;
		return 0;
	case 'c':
		if (parse_cache(arg, o->cache))
			return ptb_bad_input("profile", "--cache: '%s' is not SIZE:WAYS:LINE with a power-of-two "
					     "line of 8 to 4096 bytes, up to 64 ways and a power-of-two number of sets", arg);
		return 0;
	case 'f':
		if (strcmp(arg, "table") && strcmp(arg, "json"))
			return ptb_bad_input("profile", "--format: '%s' is not one of table, json", arg);
		o->json = !strcmp(arg, "json");
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	case 'a':
		o->affinity = 1;
		return 0;
	}
	return 2;
}

/* PROGRAM as exec would find it: 0, or 2 after one line. */
static int find_program(const char *prog, char *path, size_t len)
{
	struct stat st;
	const char *p = getenv("PATH");
	if (strchr(prog, '/')) {
		if (stat(prog, &st))
			return ptb_bad_input("profile", "%s: %s", prog, strerror(errno));
		if (!S_ISREG(st.st_mode) || access(prog, X_OK))
			return ptb_bad_input("profile", "%s: not an executable file", prog);
		snprintf(path, len, "%s", prog);
		return 0;
	}
	for (p = p ? p : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		snprintf(path, len, "%.*s/%s", (int)n, n ? p : ".", prog);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK))
			return 0;
		p += n;
	}
	return ptb_bad_input("profile", "%s: no such program in PATH", prog);
}

/* The private VALGRIND_LIB: the build tree's beside the running ptbench,
 * else the installed one.  0, or -1. */
static int tool_dir(char *dir, size_t len)
{
	char self[PATH_MAX - 32], tool[PATH_MAX + 64];
	if (!ptb_self_exe(ptb_invoked_as, self, sizeof self) && strrchr(self, '/')) {
		*strrchr(self, '/') = 0;
		snprintf(dir, len, "%s/profile/valgrind", self);
		snprintf(tool, sizeof tool, "%s/ptbprof-%s", dir, PTB_VALGRIND_PLATFORM);
		if (!access(tool, R_OK))
			return 0;
	}
	snprintf(dir, len, "%s", PTB_PROFILE_LIBDIR);
	snprintf(tool, sizeof tool, "%s/ptbprof-%s", dir, PTB_VALGRIND_PLATFORM);
	return access(tool, R_OK) ? -1 : 0;
}

/* Runs valgrind with the tool; returns the wait status, or -1. */
static int run_tool(const char *dir, const struct profile_opts *o, const char *raw,
		    const char *program, char **args)
{
	char line[32], quantum[40], cache[80], out[PATH_MAX + 64];
	int n = 0, status;
	char *argv[16 + 1];
	pid_t pid;
	snprintf(line, sizeof line, "--line-size=%d", o->line);
	snprintf(quantum, sizeof quantum, "--quantum=%ld", o->quantum);
	snprintf(out, sizeof out, "--out-file=%s", raw);
	argv[n++] = "valgrind";
	argv[n++] = "-q";
	argv[n++] = "--fair-sched=try";
	argv[n++] = "--trace-children=yes";   /* a wrapper that execs the program */
	argv[n++] = "--tool=ptbprof";
	argv[n++] = line;
	argv[n++] = quantum;
	if (o->cache[0]) {
		snprintf(cache, sizeof cache, "--cache=%ld:%ld:%ld", o->cache[0], o->cache[1], o->cache[2]);
		argv[n++] = cache;
	}
	if (o->affinity)
		argv[n++] = "--follow-affinity=yes";
	argv[n++] = out;
	argv[n++] = (char *)program;
	argv[n] = NULL;
	fflush(NULL);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		size_t k = 0;
		char **all;
		while (args[k])
			k++;
		all = calloc((size_t)n + k + 1, sizeof *all);
		if (!all)
			_exit(127);
		memcpy(all, argv, (size_t)n * sizeof *all);
		memcpy(all + n, args, k * sizeof *all);
		setenv("VALGRIND_LIB", dir, 1);
		execv(PTB_VALGRIND, all);
		fprintf(stderr, "ptbench profile: cannot run %s: %s\n", PTB_VALGRIND, strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);    /* the program decides what an interrupt does */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	signal(SIGINT, SIG_DFL);
	return status;
}

/* Writes the document to o->out (atomically) or stdout: 0, or 2. */
static int emit(const struct profile_opts *o, const json_t *doc)
{
	char tmp[PATH_MAX + 16];
	FILE *f = stdout;
	int fd;
	if (o->out) {
		snprintf(tmp, sizeof tmp, "%s.XXXXXX", o->out);
		if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w")))
			return ptb_bad_input("profile", "%s: %s", o->out, strerror(errno));
	}
	if (o->json)
		ptb_profile_print_json(f, doc);
	else
		ptb_profile_print_table(f, doc);
	if (o->out && (fclose(f) || rename(tmp, o->out))) {
		unlink(tmp);
		return ptb_bad_input("profile", "%s: %s", o->out, strerror(errno));
	}
	return 0;
}

/* -o FILE must be writable before the program runs: a regular file or
 * nothing yet (the rename would replace a device node or a link), and
 * locked against a second writer, as every -o of ptbench. */
static int check_output(const char *out)
{
	char err[512];
	if (ptb_run_check_target(out, err, sizeof err))
		return ptb_bad_input("profile", "%s", err);
	return 0;
}

static int finish(const struct profile_opts *o, const char *raw, const char *cmdline, int status)
{
	char err[512];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	json_t *doc = ptb_profile_document(raw, cmdline, code, sig, err, sizeof err);
	int rc;
	if (!doc)
		return sig ? ptb_bad_input("profile", "valgrind was killed by signal %d; %s", sig, err)
			   : ptb_bad_input("profile", "%s; valgrind's exit status %d", err, code);
	rc = emit(o, doc);
	json_decref(doc);
	if (rc)
		return rc;
	if (sig) {
		fprintf(stderr, "ptbench profile: the program was killed by signal %d (%s)\n", sig,
			strsignal(sig));
		return 128 + sig;
	}
	return code;
}

int ptb_cmd_profile(int argc, char **argv)
{
	struct profile_opts o = { .line = 64, .quantum = 100 };
	char program[PATH_MAX], dir[PATH_MAX], tmpdir[] = "/tmp/ptb-profile.XXXXXX";
	char raw[PATH_MAX + 32], cmdline[4096] = "";
	int first, rc, status;
	rc = ptb_options("profile", argc, argv, "+:ho:", profile_options, usage, profile_option, &o,
			 &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!*PTB_VALGRIND)
		return ptb_bad_input("profile", "this ptbench was built without the profiler: "
				     "install Valgrind (Debian: valgrind) and rebuild");
	if (first >= argc)
		return ptb_bad_input("profile", "needs a PROGRAM to run (usage: ptbench profile "
				     "[OPTIONS] -- PROGRAM [ARGS...])");
	if ((rc = find_program(argv[first], program, sizeof program)) ||
	    (o.out && (rc = check_output(o.out))))
		return rc;
	if (tool_dir(dir, sizeof dir))
		return ptb_bad_input("profile", "the profiler's tool is not installed in %s",
				     PTB_PROFILE_LIBDIR);
	if (!mkdtemp(tmpdir))
		return ptb_bad_input("profile", "cannot make a temporary folder: %s", strerror(errno));
	snprintf(raw, sizeof raw, "%s/result.json", tmpdir);
	for (int i = first; i < argc; i++)
		ptb_appendf(cmdline, sizeof cmdline, "%s%s", i > first ? " " : "", argv[i]);
	status = run_tool(dir, &o, raw, program, argv + first + 1);
	rc = status < 0 ? ptb_bad_input("profile", "cannot run valgrind: %s", strerror(errno))
			: finish(&o, raw, cmdline, status);
	unlink(raw);
	rmdir(tmpdir);
	return rc;
}
