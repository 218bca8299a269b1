/* SPDX-License-Identifier: MIT */
/*
 * The marks of a table and their legend (see legend.h).  Which reasons a
 * mark replaces is a table of the harness's own phrasings (run/record.c,
 * record/logp.c, record/levels.c), old files' included, so that a reason
 * a benchmark gave still reaches the reader as a footnote.
 */
#include <config.h>

#include <string.h>

#include "report/legend.h"
#include "text/text.h"

const struct ptb_legend_entry ptb_legend[PTB_MARK_COUNT] = {
	[PTB_MARK_UNSTABLE] = { "*",
		"unstable: the measurements disagree more than the stopping rule allows "
		"(or a figure it is derived from does); the \u00b1 interval includes that" },
	[PTB_MARK_MODES] = { "~",
		"the trials fall into separate levels (modes), so the figure depends on how "
		"often each came up; --verbose lists them" },
	[PTB_MARK_DISTURBED] = { PTB_DISTURBED_MARK,
		"disturbed: other processes, or the hypervisor, took more than 10 % of the PUs it "
		"ran on; what the benchmark got on a busy machine, not its cost on one of its own" },
	[PTB_MARK_TIME_SLICE] = { "(time slice)",
		"bounded by the scheduler, not the primitive: a waiter spins on the PU its "
		"partner needs, so each handover waits out a time slice" },
};

/* Clauses ("; "-separated) of a reason that a mark says; `rest`: the
 * clauses after it belong to it too. */
static const struct {
	enum ptb_mark mark;
	const char *starts;
	bool rest;
} marked[] = {
	/* mark                 clause starts with         rest */
	{ PTB_MARK_UNSTABLE,    "the CI is ",              false },
	{ PTB_MARK_UNSTABLE,    "from unstable inputs",    false },
	{ PTB_MARK_UNSTABLE,    "from unstable points",    false },
	{ PTB_MARK_UNSTABLE,    "# trials give a ",        false },   /* # = a count */
	{ PTB_MARK_MODES,       "the trials fall into ",   true },
	{ PTB_MARK_DISTURBED,   PTB_DISTURBED_REASON,      false },
};
#define NMARKED (sizeof marked / sizeof marked[0])

unsigned ptb_record_marks(const struct ptb_record *r)
{
	const json_t *modes = json_object_get(r->json, "modes");
	if (!r->has_value)
		return 0;
	unsigned disturbed = r->disturbed ? 1u << PTB_MARK_DISTURBED : 0;
	if (json_array_size(modes) > 1)
		return 1u << PTB_MARK_MODES | disturbed;
	/* unstable for the disturbance alone: the "!" says it */
	if (r->status == PTB_UNSTABLE && !r->disturbed_only)
		return 1u << PTB_MARK_UNSTABLE | disturbed;
	return disturbed;
}

void ptb_marks_text(char *buf, size_t len, unsigned marks)
{
	buf[0] = 0;
	for (int m = 0; m < PTB_MARK_COUNT; m++)
		if (marks & 1u << m)
			ptb_appendf(buf, len, "%s", ptb_legend[m].mark);
}

const char *ptb_legend_line(unsigned used, int i, char *buf, size_t len)
{
	for (int m = 0; m < PTB_MARK_COUNT; m++)
		if (used & 1u << m && i-- == 0) {
			ptb_textf(buf, len, "%s  %s", ptb_legend[m].mark, ptb_legend[m].text);
			return buf;
		}
	return NULL;
}

void ptb_legend_print(FILE *out, unsigned used, const char *indent)
{
	char line[512];
	for (int i = 0; ptb_legend_line(used, i, line, sizeof line); i++)
		fprintf(out, "%s%s\n", indent, line);
}

/* Does the clause start with the pattern ('#': one or more digits)? */
static bool starts(const char *clause, const char *pattern)
{
	if (*pattern == '#') {
		size_t d = strspn(clause, "0123456789");
		return d > 0 && starts(clause + d, pattern + 1);
	}
	return !strncmp(clause, pattern, strlen(pattern));
}

void ptb_reason_unmarked(char *buf, size_t len, const struct ptb_record *r)
{
	const char *s = r->reason ? r->reason : "";
	buf[0] = 0;
	while (*s) {
		size_t n = strstr(s, "; ") ? (size_t)(strstr(s, "; ") - s) : strlen(s);
		bool drop = false, rest = false;
		for (size_t i = 0; i < NMARKED && r->has_value; i++)
			if (starts(s, marked[i].starts)) {
				drop = true;
				rest = marked[i].rest;
			}
		if (rest)
			break;
		if (!drop)
			ptb_appendf(buf, len, "%s%.*s", buf[0] ? "; " : "", (int)n, s);
		s += n;
		s += strspn(s, "; ");
	}
}
