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

/* One line for a family this build lacks, at its first benchmark. */
static void list_absent(int i)
{
	const struct ptb_bench *b = ptb_registry[i];
	size_t fam = strcspn(b->name, ".");
	for (int j = 0; j < i; j++)
		if (ptb_registry[j]->absent && !strncmp(ptb_registry[j]->name, b->name, fam) &&
		    ptb_registry[j]->name[fam] == b->name[fam])
			return;
	printf("%.*s.*%*s absent: %s\n", (int)fam, b->name, fam + 2 < 20 ? (int)(18 - fam) : 0,
	       "", b->absent);
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
		if (b->absent) {
			list_absent(i);
			continue;
		}
		printf("%-20s %s [per %s]%s\n", b->name, b->summary, b->per,
		       b->suite == PTB_SUITE_EXTENDED ? " (suite extended)" : "");
		for (const struct ptb_param *pp = b->params; pp && pp->name; pp++)
			list_param(pp);
	}
	return 0;
}
