/* SPDX-License-Identifier: MIT */
/*
 * What a benchmark may do with its data point: read the values of its
 * independent variables by name, give a verdict (na, unstable, error) with
 * a reason, and attach named figures.  Verdicts only ever get worse: once a
 * point is an error, a later "unstable" must not hide why it failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"

/* status        name        severity (a verdict replaces only a milder one) */
static const struct { const char *name; int severity; } status_table[] = {
	[PTB_OK]       = { "ok",       0 },
	[PTB_UNSTABLE] = { "unstable", 1 },
	[PTB_NA]       = { "na",       2 },
	[PTB_TIMEOUT]  = { "timeout",  3 },
	[PTB_CRASHED]  = { "crashed",  3 },
	[PTB_ERROR]    = { "error",    4 },
};

const char *ptb_status_name(enum ptb_status s)
{
	if ((unsigned)s >= sizeof status_table / sizeof status_table[0])
		return "?";
	return status_table[s].name;
}

const char *ptb_point_str(const struct ptb_point *p, const char *name)
{
	const struct ptb_param *par = p->bench->params;
	for (int i = 0; par && par[i].name && i < PTB_MAX_PARAMS; i++)
		if (strcmp(par[i].name, name) == 0)
			return p->value[i];
	return NULL;
}

/* The sweep has already checked the value, so a missing variable (a bug in
 * the benchmark) is the only way to get the 0. */
long ptb_point_long(const struct ptb_point *p, const char *name)
{
	const char *v = ptb_point_str(p, name);
	return v ? strtol(v, NULL, 10) : 0;
}

bool ptb_point_yes(const struct ptb_point *p, const char *name)
{
	const char *v = ptb_point_str(p, name);
	return v && strcmp(v, "yes") == 0;
}

static void verdict(struct ptb_point *p, enum ptb_status s, const char *fmt, va_list ap)
{
	if (status_table[s].severity <= status_table[p->verdict].severity)
		return;
	p->verdict = s;
	vsnprintf(p->reason, sizeof p->reason, fmt, ap);
}

void ptb_point_na(struct ptb_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verdict(p, PTB_NA, fmt, ap);
	va_end(ap);
}

void ptb_point_unstable(struct ptb_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verdict(p, PTB_UNSTABLE, fmt, ap);
	va_end(ap);
}

void ptb_point_error(struct ptb_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verdict(p, PTB_ERROR, fmt, ap);
	va_end(ap);
}

/* Keys are kept by pointer: benchmarks pass string literals.  A benchmark
 * has a fixed handful of notes, so keys beyond PTB_MAX_NOTES are dropped. */
/* The slot of a note: its key's, or a new one; -1 when all are taken. */
static int note_slot(struct ptb_point *p, const char *key)
{
	for (int i = 0; i < p->nnotes; i++)
		if (strcmp(p->note_key[i], key) == 0)
			return i;
	if (p->nnotes >= PTB_MAX_NOTES)
		return -1;
	p->note_key[p->nnotes] = key;
	return p->nnotes++;
}

void ptb_point_note(struct ptb_point *p, const char *key, double value)
{
	int i = note_slot(p, key);
	if (i >= 0) {
		p->note_val[i] = value;
		p->note_text[i] = NULL;
	}
}

void ptb_point_note_text(struct ptb_point *p, const char *key, const char *text)
{
	int i = note_slot(p, key);
	if (i >= 0)
		p->note_text[i] = text;
}

int ptb_process_single_threaded(void)
{
	return ptb_libc_single_threaded();
}
