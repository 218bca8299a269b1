/* SPDX-License-Identifier: MIT */
/* `ptbench list`: the benchmarks, what one reported unit is, their
 * variables and domains. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "run/runner.h"

static void list_param(const struct ptb_param *pp)
{
	if (pp->domain)
		printf("      %-12s %s (default %s)%s%s\n", pp->name, pp->domain, pp->defaults,
		       pp->help ? ": " : "", pp->help ? pp->help : "");
	else
		printf("      %-12s integer %ld..%ld (default %s)%s%s\n", pp->name, pp->min,
		       pp->max, pp->defaults, pp->help ? ": " : "", pp->help ? pp->help : "");
}

int ptb_cmd_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: ptbench list\n\nThe benchmarks, what one reported unit is, their variables and domains;\n"
		     "those marked (suite extended) run with 'ptbench run --suite extended'.");
		return 0;
	}
	if (argc > 1)
		return ptb_bad_input("list", "unexpected argument '%s'", argv[1]);
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_bench *b = ptb_registry[i];
		if (b->hidden)
			continue;
		printf("%-20s %s [per %s]%s\n", b->name, b->summary, b->per,
		       b->suite == PTB_SUITE_EXTENDED ? " (suite extended)" : "");
		for (const struct ptb_param *pp = b->params; pp && pp->name; pp++)
			list_param(pp);
	}
	return 0;
}
