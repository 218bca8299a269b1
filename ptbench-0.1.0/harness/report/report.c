/* SPDX-License-Identifier: MIT */
/*
 * The reporters' front door: format names and dispatch, in the C locale
 * whatever the program set for its messages.
 */
#include <config.h>

#include <locale.h>
#include <string.h>

#include "report/report.h"

/* One reporter per format; the order is enum ptb_format's. */
static const struct {
	const char *name;
	void (*print)(FILE *out, const struct ptb_runfile *run, const struct ptb_report_opts *o);
} formats[PTB_FMT_COUNT] = {
	/* name       print */
	{ "table",    ptb_report_table },
	{ "csv",      ptb_report_csv },
	{ "json",     ptb_report_json },
	{ "gbench",   ptb_report_gbench },
};

int ptb_format_from_name(const char *name)
{
	for (int f = 0; name && f < PTB_FMT_COUNT; f++)
		if (!strcmp(formats[f].name, name))
			return f;
	return -1;
}

const char *ptb_format_name(enum ptb_format f)
{
	return (unsigned)f < PTB_FMT_COUNT ? formats[f].name : "?";
}

int ptb_report(FILE *out, const struct ptb_runfile *run, enum ptb_format f)
{
	return ptb_report_with(out, run, f, &(struct ptb_report_opts){ 0 });
}

int ptb_report_with(FILE *out, const struct ptb_runfile *run, enum ptb_format f,
		    const struct ptb_report_opts *o)
{
	if ((unsigned)f >= PTB_FMT_COUNT)
		return -1;
	/* A decimal comma would break CSV and JSON: print in the C locale
	 * whatever the program set for its messages. */
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;
	formats[f].print(out, run, o);
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
