/* SPDX-License-Identifier: MIT */
/*
 * The helpers a benchmark uses on its point: variable values by name,
 * verdicts that only ever get worse, and named notes.
 */
#include <string.h>

#include "ptbench.h"
#include "tap.h"

static const struct ptb_param params[] = {
	{ "detach",  "yes,no", "yes,no", 0, 0, "" },
	{ "mutexes", NULL,     "1024",   1, 1000000, "" },
	{ 0 },
};
static const struct ptb_bench bench = { .name = "test.point", .params = params };

static void values(void)
{
	struct ptb_point p = { .bench = &bench, .value = { "yes", "256" } };
	tap_ok(strcmp(ptb_point_str(&p, "detach"), "yes") == 0, "str by name");
	tap_ok(ptb_point_long(&p, "mutexes") == 256, "long by name");
	tap_ok(ptb_point_yes(&p, "detach"), "yes");
	p.value[0] = "no";
	tap_ok(!ptb_point_yes(&p, "detach"), "no");
	tap_ok(ptb_point_str(&p, "scope") == NULL && ptb_point_long(&p, "scope") == 0 &&
	       !ptb_point_yes(&p, "scope"), "a variable the benchmark lacks");
}

static void verdicts(void)
{
	static const char *const names[] = { "ok", "unstable", "na", "timeout", "crashed", "error" };
	int good = 1;
	for (int s = PTB_OK; s <= PTB_ERROR; s++)
		good &= strcmp(ptb_status_name(s), names[s]) == 0;
	tap_ok(good, "status names");

	struct ptb_point p = { .bench = &bench };
	tap_ok(p.verdict == PTB_OK, "a fresh point is ok");
	ptb_point_unstable(&p, "noisy: %d switches", 12);
	tap_ok(p.verdict == PTB_UNSTABLE && strcmp(p.reason, "noisy: 12 switches") == 0,
	       "unstable with a formatted reason");
	ptb_point_na(&p, "needs %d packages", 2);
	tap_ok(p.verdict == PTB_NA && strcmp(p.reason, "needs 2 packages") == 0, "na beats unstable");
	ptb_point_unstable(&p, "later noise");
	ptb_point_na(&p, "second na");
	tap_ok(p.verdict == PTB_NA && strcmp(p.reason, "needs 2 packages") == 0,
	       "a milder or equal verdict does not replace the first reason");
	ptb_point_error(&p, "setup: %s", "ENOMEM");
	tap_ok(p.verdict == PTB_ERROR && strcmp(p.reason, "setup: ENOMEM") == 0, "error beats na");
	ptb_point_na(&p, "too late");
	tap_ok(p.verdict == PTB_ERROR && strcmp(p.reason, "setup: ENOMEM") == 0, "error stays");
}

static void notes(void)
{
	struct ptb_point p = { .bench = &bench };
	static const char *const keys[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i" };
	ptb_point_note(&p, "switches", 3);
	ptb_point_note(&p, "switches", 5);
	tap_ok(p.nnotes == 1 && p.note_val[0] == 5, "a note with an existing key is replaced");
	ptb_point_note_text(&p, "scheduler", "EEVDF");
	tap_ok(p.nnotes == 2 && p.note_text[1] && strcmp(p.note_text[1], "EEVDF") == 0 &&
	       !p.note_text[0], "a text note beside a numeric one");
	ptb_point_note(&p, "scheduler", 1);
	tap_ok(p.nnotes == 2 && !p.note_text[1] && p.note_val[1] == 1,
	       "a numeric note replaces a text note of the same key");
	for (int i = 0; i < 9; i++)
		ptb_point_note(&p, keys[i], i);
	/* Two slots are taken by "switches" and "scheduler" already. */
	tap_ok(p.nnotes == PTB_MAX_NOTES &&
	       strcmp(p.note_key[PTB_MAX_NOTES - 1], keys[PTB_MAX_NOTES - 3]) == 0,
	       "at most PTB_MAX_NOTES notes");
}

int main(void)
{
	values();
	verdicts();
	notes();
	tap_done();
	return tap_exit();
}
