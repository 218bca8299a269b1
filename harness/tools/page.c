/* SPDX-License-Identifier: MIT */
/*
 * The HTML page (tools/page.h) and the report page: the machine block,
 * the table with its CIs and footnotes (tools/table.c), and the plots.
 * The markup keeps to what both an HTML and an XML parser read alike:
 * elements closed, empty ones as <x/>, no named entity beyond XML's own,
 * no '<' or '&' in the style.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/plot.h"
#include "text/text.h"
#include "tools/page.h"

/* Narrow screens first: the page is one column whatever the width, a
 * table too wide scrolls inside its box instead of widening the page. */
static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:#1b1b1b;background:#fff;margin:0 auto;padding:0 12px 2em;max-width:75em}\n"
	"h1{font-size:1.35em;margin:.8em 0 .4em}\n"
	"h2{font-size:1.15em;margin:1.6em 0 .4em;padding-bottom:.15em;border-bottom:1px solid #d0d0d0}\n"
	"h3{font-size:1em;margin:1.2em 0 .3em}\n"
	".scroll{overflow-x:auto;margin:.4em 0 .8em;border:1px solid #e2e2e2}\n"
	"table{border-collapse:collapse;font-size:.9em}\n"
	"th,td{padding:.3em .6em;text-align:left;vertical-align:top;border-bottom:1px solid #ececec}\n"
	"thead th{background:#f2f4f7;border-bottom:1px solid #c8ccd2}\n"
	"th.num{text-align:right}\n"
	"td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"td:first-child{min-width:7em}\n"
	"tbody tr:nth-child(even){background:#fafbfc}\n"
	".caption{margin:.3em 0;color:#333}\n"
	".notes{font-size:.85em;color:#333;overflow-wrap:anywhere}\n"
	".notes p{margin:.15em 0}\n"
	".missing{padding:.4em .7em;border-left:4px solid #c77700;background:#fff6e6}\n"
	/* On a phone a figure keeps a readable width and scrolls sideways. */
	".plot{overflow-x:auto}\n"
	".plot svg{width:100%;min-width:760px;height:auto;display:block}\n";

void ptb_page_open(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n"
	      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>", out);
	ptb_html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	ptb_html_text(out, title);
	fputs("</h1>\n", out);
}

void ptb_page_close(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

void ptb_page_grid(FILE *out, const struct ptb_grid *g)
{
	fputs("<div class=\"scroll\">\n", out);
	ptb_grid_print(out, g, PTB_GRID_HTML, NULL, 0);
	fputs("</div>\n", out);
}

void ptb_page_para(FILE *out, const char *cls, const char *text)
{
	if (cls)
		fprintf(out, "<p class=\"%s\">", cls);
	else
		fputs("<p>", out);
	ptb_html_text(out, text);
	fputs("</p>\n", out);
}

/* The machines, one column each; and, for a run that did not finish,
 * which one and what that means for its column. */
static int machines(FILE *out, struct ptb_runfile *const *runs, int n, char (*names)[192])
{
	struct ptb_grid m = { 0 };
	char line[320];
	if (ptb_machines_grid(&m, runs, n, names))
		return -1;
	fputs("<h2 id=\"machines\">Machines</h2>\n", out);
	ptb_page_grid(out, &m);
	ptb_grid_free(&m);
	for (int i = 0; i < n; i++)
		if (strcmp(runs[i]->status, "complete")) {
			ptb_textf(line, sizeof line, "%s: run %s; only the points that finished "
				  "are shown", names[i], runs[i]->status);
			ptb_page_para(out, "missing", line);
		}
	return 0;
}

/* Where an SVG names an element: an id, or a reference to one. */
static const char *const svg_refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
#define NREFS (sizeof svg_refs / sizeof svg_refs[0])

/* The first svg_refs[i] in doc at or after from, or NULL.  A plain scan:
 * strstr from each place would measure the rest of the document each time
 * under a sanitizer, which makes the copy quadratic there. */
static const char *find_ref(const char *doc, const char *from, size_t i)
{
	const char *r = svg_refs[i];
	size_t n = strlen(r);
	for (const char *q = from; *q; q++)
		if (*q == *r && !strncmp(q, r, n) &&
		    !(i < 2 && q > doc && !strchr(" \t\n", q[-1])))   /* "gid=", not an id */
			return q;
	return NULL;
}

/* An SVG document from its <svg> element on (the XML declaration before
 * it has no place in a page), every id and reference to one prefixed: the
 * figures of one page each have their own gpPt0.  The next place of each
 * kind of reference is kept and searched for again only once passed, so
 * that a figure of many points is copied in linear time. */
static void embed_svg(FILE *out, const char *doc, const char *prefix)
{
	const char *next[NREFS], *p = doc;
	for (size_t i = 0; i < NREFS; i++)
		next[i] = find_ref(doc, p, i);
	for (;;) {
		size_t best = NREFS;
		for (size_t i = 0; i < NREFS; i++)
			if (next[i] && (best == NREFS || next[i] < next[best]))
				best = i;
		if (best == NREFS)
			break;
		const char *q = next[best] + strlen(svg_refs[best]);
		fwrite(p, 1, (size_t)(q - p), out);
		fprintf(out, "%s-", prefix);
		p = q;
		for (size_t i = 0; i < NREFS; i++)
			if (next[i] && next[i] < p)
				next[i] = find_ref(doc, p, i);
	}
	fputs(p, out);
}

/* One kind's figure, or nothing when the files lack its data; a failure
 * of gnuplot is a visible line, not a missing figure. */
static void plot(FILE *out, const char *kind, struct ptb_runfile *const *runs, int n,
		 const struct ptb_page_opts *o)
{
	char err[512] = "out of memory", *svg = NULL, id[64], line[640];
	size_t len = 0;
	FILE *mem = open_memstream(&svg, &len);
	int rc = mem ? ptb_plot_svg_of(kind, runs, (size_t)n, o->flow, o->profile, mem, err,
						  sizeof err) : -1;
	if (mem)
		fclose(mem);
	const char *start = rc == 0 && svg ? strstr(svg, "<svg") : NULL;
	snprintf(id, sizeof id, "plot-%s", kind);
	if (start) {
		fprintf(out, "<div class=\"plot\" id=\"%s\">\n<h3>", id);
		ptb_html_text(out, kind);
		fputs("</h3>\n", out);
		embed_svg(out, start, id);
		fputs("\n</div>\n", out);
	} else if (rc != 1) {
		ptb_textf(line, sizeof line, "Plot %s failed: %s", kind,
			  rc == 0 ? "gnuplot wrote no SVG" : err);
		ptb_page_para(out, "missing", line);
	}
	free(svg);
}

/* Each kind the files have data for, as inline SVG. */
static void plots(FILE *out, struct ptb_runfile *const *runs, int n,
		  const struct ptb_page_opts *o)
{
	fputs("<h2 id=\"plots\">Plots</h2>\n", out);
	if (!o->plots)
		ptb_page_para(out, "missing", "Plots left out (--no-plots).");
	else if (!ptb_plot_available())
		ptb_page_para(out, "missing", "Plots need gnuplot, which was not found on PATH: "
			      "install it (Debian: gnuplot-nox) and make the page again.");
	else
		for (int k = 0; ptb_plot_kinds[k]; k++)
			plot(out, ptb_plot_kinds[k], runs, n, o);
}

int ptb_page_report(FILE *out, struct ptb_runfile *const *runs, int n,
		    const struct ptb_page_opts *o)
{
	struct ptb_table_opts t = { PTB_TABLE_HTML, o->stat, o->all_rows, true, o->verbose };
	char (*names)[192] = calloc((size_t)n + 1, sizeof *names);
	char title[512] = "ptbench report: ";
	int rc = n ? -1 : 0;
	if (!names)
		return -1;
	ptb_machines_names(runs, n, names);
	for (int i = 0; i < n; i++)
		ptb_appendf(title, sizeof title, "%s%s", i ? ", " : "", runs[i]->host ?: "?");
	if (!n && o->profile)
		ptb_appendf(title, sizeof title, "profile of %s",
			    json_string_value(json_object_get(o->profile, "program")));
	ptb_page_open(out, title);
	if (n && machines(out, runs, n, names) == 0) {
		fputs("<h2 id=\"table\">Time of one operation</h2>\n", out);
		rc = ptb_table_print(out, runs, n, &t);
	}
	if (rc == 0 && o->profile)
		rc = ptb_page_profile(out, o->profile);
	if (rc == 0)
		plots(out, runs, n, o);
	ptb_page_close(out);
	free(names);
	return rc;
}
