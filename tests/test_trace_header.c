/* SPDX-License-Identifier: MIT */
/*
 * The trace header: the program's name, made printable, refused without
 * its end; and across format versions: version 3 keeps the woken
 * thread's latency in the last 4 of the 72 bytes that held the program's
 * name before it; a version 2 file reads with no latency and its name
 * whole where it ended within 68 bytes, cut at 67 where it ended later.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trace/format.h"
#include "trace/reader.h"

#include "trace-made.h"

static char path[64];

/* A made trace of one thread that works 1 ms, written as `version` with
 * the name `name` (up to 71 bytes) and latency field `latency`; read back
 * into t.  0, or -1 refused (err says why). */
static int made(uint32_t version, const char *name, uint32_t latency, struct ptb_trace *t,
		char *err, size_t errlen)
{
	memset(th, 0, sizeof th);
	nth = 0;
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, MS, PTB_EV_EXIT, 0, 0, 0, 0);
	memset(made_name, 0, sizeof made_name);
	memcpy(made_name, name, strlen(name));
	made_version = version, made_latency = latency;
	write_trace(path);
	return ptb_trace_load(path, t, err, errlen);
}

/* The program's name: refused without its NUL, made printable UTF-8. */
static void check_names(void)
{
	static const struct { const char *name, *want; } cases[] = {
		{ "pigz", "pigz" }, { "caf\xc3\xa9", "caf\xc3\xa9" }, { "prog\xe9x", "prog?x" },
		{ "cut\xe2\x82", "cut??" }, { "over\xc0\xaflong", "over??long" },
		{ "line\nfeed", "line?feed" }, { "sur\xed\xa0\x80", "sur???" },
	};
	struct ptb_trace t;
	char err[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = made(PTB_TRACE_VERSION, cases[i].name, 0, &t, err, sizeof err);
		tap_ok(rc == 0 && !strcmp(t.h.program, cases[i].want), "the name %zu reads as '%s' (%s)",
		       i, cases[i].want, rc ? err : t.h.program);
		if (!rc)
			ptb_trace_free(&t);
	}
	memset(made_name, 'A', sizeof made_name);      /* the last case's events, no end */
	write_trace(path);
	tap_ok(ptb_trace_load(path, &t, err, sizeof err) == -1 && strstr(err, "name"),
	       "a name of 68 bytes without its end is refused (%s)", err);
}

int main(void)
{
	static const char long_name[] =
		"a-program-whose-name-runs-to-seventy-characters-in-all-0123456789abcde";
	struct ptb_trace t;
	char err[256];
	snprintf(path, sizeof path, "/tmp/ptb-header-%d.trace", (int)getpid());
	check_names();
	int rc = made(3, "pigz", 15001, &t, err, sizeof err);
	tap_ok(rc == 0 && !strcmp(t.h.program, "pigz") && t.h.remote_latency == 15001,
	       "version 3: the name and the latency (%s)", rc ? err : t.h.program);
	if (!rc)
		ptb_trace_free(&t);
	rc = made(2, "pigz", 0, &t, err, sizeof err);
	tap_ok(rc == 0 && !strcmp(t.h.program, "pigz") && t.h.remote_latency == 0,
	       "version 2: the name, and no latency (%s)", rc ? err : t.h.program);
	if (!rc)
		ptb_trace_free(&t);
	tap_ok(strlen(long_name) == 70, "the long name has 70 bytes");
	rc = made(2, long_name, 0, &t, err, sizeof err);
	tap_ok(rc == 0 && strlen(t.h.program) == 67 && !strncmp(t.h.program, long_name, 67) &&
	       t.h.remote_latency == 0, "version 2, a name ending past 68 bytes: its first 67, "
	       "no latency (%s)", rc ? err : t.h.program);
	if (!rc)
		ptb_trace_free(&t);
	rc = made(3, long_name, 0, &t, err, sizeof err);
	tap_ok(rc != 0 && strstr(err, "has no end"), "version 3, a name with no end within 68 "
	       "bytes: refused (%s)", rc ? err : "read");
	if (!rc)
		ptb_trace_free(&t);
	unlink(path);
	tap_done();
	return tap_exit();
}
