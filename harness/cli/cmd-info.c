/* SPDX-License-Identifier: MIT */
/* `ptbench info [--json]`: this machine as ptbench sees it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "engine/measure.h"
#include "machine/info.h"
#include "machine/system.h"

int ptb_cmd_info(int argc, char **argv)
{
	struct ptb_system sys;
	struct ptb_limits defaults;
	char err[512];
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return puts("usage: ptbench info [--json]\n\nThis machine as ptbench sees it; --json prints the context object of a result file."), 0;
		else
			return ptb_bad_input("info", "unexpected argument '%s'", argv[i]);
	}
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: %s\n", err);
		return 1;
	}
	ptb_limits_default(&defaults);
	int rc = ptb_info_print(stdout, &sys, json ? ptb_limits_json(&defaults) : NULL);
	ptb_system_fini(&sys);
	return rc ? 1 : 0;
}
