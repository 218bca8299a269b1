/* SPDX-License-Identifier: MIT */
/*
 * The JSON reporter: the run document exactly as the result file holds it,
 * so that `ptbench run --format json > f` and the saved file are the same
 * bytes and every tool that reads one reads the other.
 */
#include <config.h>

#include "record/runfile.h"
#include "report/report.h"

void ptb_report_json(FILE *out, const struct ptb_runfile *run,
		     const struct ptb_report_opts *o)
{
	(void)o;   /* every record, whatever the options */
	ptb_run_dump(out, run->doc);
}
