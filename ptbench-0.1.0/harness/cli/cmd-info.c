/* SPDX-License-Identifier: MIT */
/*
 * `ptbench info [--json] [RUN.json]`: this machine as ptbench sees it, and
 * the cache line and levels once a run has measured them (cli/measured.h
 * says which run).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/measured.h"
#include "engine/measure.h"
#include "machine/context.h"
#include "machine/info.h"
#include "machine/system.h"
#include "report/format.h"
#include "report/levels.h"

static const char info_usage[] =
	"usage: ptbench info [--json] [RUN.json]\n\n"
	"This machine as ptbench sees it; --json prints the context object of a result file.\n"
	"The cache line and levels, once a run has measured them, are shown from RUN.json,\n"
	"or else from the newest ptbench-*.json in this directory measured on this host\n"
	"that has them (--json: as \"measured_caches\").";

/* The context object, with the measured levels when there are any. */
static int print_json(const struct ptb_system *sys, const struct ptb_record *levels,
		      const char *path)
{
	struct ptb_limits defaults;
	ptb_limits_default(&defaults);
	json_t *ctx = ptb_context_json(sys, ptb_limits_json(&defaults), "ptbench info --json");
	if (!ctx)
		return -1;
	if (levels)
		json_object_set_new(ctx, "measured_caches",
				    json_pack("{s:s, s:O}", "file", path, "record", levels->json));
	int rc = json_dumpf(ctx, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			    JSON_REAL_PRECISION(15));
	json_decref(ctx);
	fputc('\n', stdout);
	return rc;
}

static void print_measured(const struct ptb_runfile *run, const char *path)
{
	struct ptb_footnotes fn = { 0 };
	if (!run) {
		printf("\nMeasured caches: none yet%s%s (ptbench run", path ? " in " : "",
		       path ? path : "");
		for (int i = 0; i < ptb_registry_count; i++)   /* the benchmarks that measure them */
			if (ptb_registry[i]->levels.param != PTB_LEVELS_NONE)
				printf(" -b %s", ptb_registry[i]->name);
		printf(" measures them)\n");
		return;
	}
	printf("\nMeasured caches, from %s (%s):", run->path, run->date ? run->date : "?");
	ptb_report_levels(stdout, run, &fn);
	if (fn.n)
		fputc('\n', stdout);
	ptb_footnotes_print(stdout, &fn);
	ptb_footnotes_free(&fn);
}

int ptb_cmd_info(int argc, char **argv)
{
	struct ptb_system sys;
	const struct ptb_record *levels;
	const char *path = NULL;
	char err[512];
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return puts(info_usage), 0;
		else if (argv[i][0] == '-' || path)
			return ptb_bad_input("info", "unexpected argument '%s'", argv[i]);
		else
			path = argv[i];
	}
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: %s\n", err);
		return 1;
	}
	struct ptb_runfile *run = ptb_measured_levels(path, sys.sys.host, &levels, err, sizeof err);
	if (err[0]) {
		ptb_system_fini(&sys);
		return ptb_bad_input("info", "%s", err);
	}
	int rc = json ? print_json(&sys, levels, run ? run->path : NULL)
		      : ptb_info_print(stdout, &sys, NULL);
	if (!json)
		print_measured(run, path);
	ptb_runfile_free(run);
	ptb_system_fini(&sys);
	return rc || ferror(stdout) ? 1 : 0;
}
