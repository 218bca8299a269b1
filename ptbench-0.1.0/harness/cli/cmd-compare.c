/* SPDX-License-Identifier: MIT */
/* `ptbench compare BASE NEW [--alpha A] [--threshold PCT] [--format md|json]`:
 * two runs that can be compared (not failed, not cut short), or exit 2. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "tools/compare.h"

static const char usage[] =
	"usage: ptbench compare BASE NEW [--alpha A] [--threshold PCT] [--format md|json]\n";

static const struct option compare_options[] = {
	/* name          has_arg            flag  val */
	{ "alpha",       required_argument, NULL, 'a' },
	{ "threshold",   required_argument, NULL, 't' },
	{ "format",      required_argument, NULL, 'f' },
	{ "help",        no_argument,       NULL, 'h' },
	{ NULL,          0,                 NULL, 0 },
};

static int compare_option(void *ctx, int c, const char *arg)
{
	struct ptb_compare_opts *o = ctx;
	switch (c) {
	case 'a':
		if (ptb_parse_double("compare", "--alpha", arg, 0, 1, &o->alpha))
			return 2;
		if (!(o->alpha > 0 && o->alpha < 1))
			return ptb_bad_input("compare", "--alpha: '%s' is not a number between 0 and 1", arg);
		return 0;
	case 't':
		return ptb_parse_double("compare", "--threshold", arg, 0, 1e6, &o->threshold);
	case 'f':
		if (strcmp(arg, "md") && strcmp(arg, "json"))
			return ptb_bad_input("compare", "--format: '%s' is not one of md, json", arg);
		o->json = !strcmp(arg, "json");
		return 0;
	}
	return 2;
}

int ptb_cmd_compare(int argc, char **argv)
{
	struct ptb_compare_opts o = { .alpha = 0.05, .threshold = 5 };
	struct ptb_runfile *base = NULL, *next = NULL;
	const struct ptb_runfile *failed;
	char err[512];
	int first, rc;
	rc = ptb_options("compare", argc, argv, ":h", compare_options, usage, compare_option, &o,
			 &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (argc - first != 2)
		return ptb_bad_input("compare", "needs exactly two files, BASE and NEW (%s)", usage + 7);
	if (!(base = ptb_runfile_load(argv[first], err, sizeof err)) ||
	    !(next = ptb_runfile_load(argv[first + 1], err, sizeof err)))
		rc = ptb_bad_input("compare", "%s", err);
	else if (base->duplicate || next->duplicate)
		rc = ptb_bad_input("compare", "%s: point '%s' appears twice",
				   base->duplicate ? base->path : next->path,
				   base->duplicate ? base->duplicate : next->duplicate);
	else if ((failed = ptb_compare_unusable(base) ? base
			   : ptb_compare_unusable(next) ? next : NULL))
		rc = ptb_bad_input("compare", "%s: %s", failed->path, ptb_compare_unusable(failed));
	else if ((rc = ptb_compare(base, next, &o)) < 0)
		rc = ptb_bad_input("compare", "out of memory");
	ptb_runfile_free(base);
	ptb_runfile_free(next);
	return rc;
}
