/* SPDX-License-Identifier: MIT */
/*
 * The program's environment under the interposer, and the exec that keeps
 * the trace.
 *
 * `ptbench record` hands the interposer its variables (PTB_TRACE_FILE,
 * LD_PRELOAD with the library first, PTB_TRACE_PRELOAD_WAS, ...).  Once
 * the trace is claimed they are taken out and LD_PRELOAD is put back as it
 * was: the program sees its own environment, and its children and the
 * images it execs load nothing of the recorder (a child in another
 * directory claimed a trace file of its own there before).
 *
 * The exception is an image that started no thread and execs: a launcher
 * (env, nice, a shell's `exec`, an interpreter's shim script) or a
 * program's single-threaded start.  Its exec passes the variables on, with
 * where the trace stands (PTB_TRACE_FOLLOW), and the new image goes on
 * with the same trace: thread 0 is the same thread, its events continue.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/interpose.h"

static char *lib;              /* the interposer, as LD_PRELOAD named it first */
static char *path;             /* the trace */
static char *remote_wake;      /* PTB_TRACE_REMOTE_WAKE_NS, for record's figure */

static const char *const ours[] = { "PTB_TRACE_FILE", "PTB_TRACE_PRELOAD_WAS",
				    "PTB_TRACE_FOLLOW", "PTB_TRACE_REMOTE_WAKE_NS",
				    "PTB_TRACE_TEST_PAUSE_US", "PTB_TRACE_SEEN_CPUS", "PTB_TRACE_EXEC" };

static char *copy(const char *s) { return s ? strdup(s) : NULL; }

/* Taken out in place (unsetenv, and setenv of a name already there, keep
 * the array main's envp points to), after the constructor has read them. */
void ptb_tr_env_claimed(void)
{
	const char *pre = getenv("LD_PRELOAD"), *was = getenv("PTB_TRACE_PRELOAD_WAS");
	lib = copy(pre);
	if (lib)
		lib[strcspn(lib, ":")] = '\0';
	path = copy(getenv("PTB_TRACE_FILE"));
	remote_wake = copy(getenv("PTB_TRACE_REMOTE_WAKE_NS"));
	ptb_tr_affinity_init(getenv("PTB_TRACE_SEEN_CPUS"));
	if (was && *was == '=')
		setenv("LD_PRELOAD", was + 1, 1);
	else if (was)
		unsetenv("LD_PRELOAD");
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
		unsetenv(ours[i]);
}

const char *ptb_tr_trace_path(void) { return path; }

static int named(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(entry, name, n) && entry[n] == '=';
}

static int is_ours(const char *entry)
{
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
		if (named(entry, ours[i]))
			return 1;
	return named(entry, "LD_PRELOAD");
}

static char *entry(const char *name, const char *a, const char *b, const char *c)
{
	char *e;
	return asprintf(&e, "%s=%s%s%s", name, a, b ? b : "", c ? c : "") < 0 ? NULL : e;
}

/* A copy ptb_tr_follow_env made: the strings it added (the only ones of
 * ours in it), and the array. */
void ptb_tr_free_env(char **env)
{
	for (size_t i = 0; env[i]; i++)
		if (is_ours(env[i]))
			free(env[i]);
	free(env);
}

/* envp with the variables that make the new image go on with the trace
 * (a copy, kept: the exec either replaces the image or fails, and then
 * ptb_tr_exec_failed frees it), or NULL when they cannot be made. */
char **ptb_tr_follow_env(char *const *envp, const char *state)
{
	if (!lib || !*lib || !path)
		return NULL;
	size_t n = 0;
	const char *theirs = NULL;
	for (; envp && envp[n]; n++)
		if (named(envp[n], "LD_PRELOAD"))
			theirs = envp[n] + strlen("LD_PRELOAD=");
	char cpus[8192];
	char *add[6] = {
		entry("LD_PRELOAD", lib, theirs && *theirs ? ":" : NULL, theirs),
		entry("PTB_TRACE_PRELOAD_WAS", theirs ? "=" : "", theirs, NULL),
		entry("PTB_TRACE_FILE", path, NULL, NULL),
		entry("PTB_TRACE_FOLLOW", state, NULL, NULL),
		entry("PTB_TRACE_SEEN_CPUS", ptb_tr_affinity_list(cpus, sizeof cpus) ? "" : cpus,
		      NULL, NULL),
		remote_wake ? entry("PTB_TRACE_REMOTE_WAKE_NS", remote_wake, NULL, NULL) : NULL,
	};
	size_t nadd = remote_wake ? 6 : 5;
	char **env = calloc(n + nadd + 1, sizeof *env);
	int ok = env != NULL;
	for (size_t i = 0; i < nadd; i++)
		ok = ok && add[i];
	if (!ok) {
		for (size_t i = 0; i < nadd; i++)
			free(add[i]);
		free(env);
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!is_ours(envp[i]))
			env[k++] = envp[i];
	for (size_t i = 0; i < nadd; i++)
		env[k++] = add[i];
	return env;
}
