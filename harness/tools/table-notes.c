/* SPDX-License-Identifier: MIT */
/*
 * The notes under `ptbench table` (tools/table.h): the legend of the marks
 * its cells use, each once, then the footnotes, in every format the table
 * is printed in.
 */
#include <config.h>

#include "report/legend.h"
#include "tools/page.h"
#include "tools/table.h"

void ptb_table_notes(FILE *out, enum ptb_table_format f, const struct ptb_footnotes *notes,
		     unsigned used)
{
	char line[512];
	if (f == PTB_TABLE_MD) {
		for (int m = 0; m < PTB_MARK_COUNT; m++)   /* a code span: "* " starts a list */
			if (used & 1u << m)
				fprintf(out, "`%s` %s\n", ptb_legend[m].mark, ptb_legend[m].text);
		ptb_footnotes_print(out, notes);
		return;
	}
	fputs("<div class=\"notes\">\n", out);
	for (int i = 0; ptb_legend_line(used, i, line, sizeof line); i++)
		ptb_page_para(out, NULL, line);
	for (int i = 0; i < notes->n; i++) {
		fprintf(out, "<p>[%d] ", i + 1);
		ptb_html_text(out, notes->text[i]);
		fputs("</p>\n", out);
	}
	fputs("</div>\n", out);
}

int ptb_table_notes_grid(struct ptb_grid *g, const struct ptb_footnotes *notes, unsigned used)
{
	char num[16];
	int marks = 0;
	for (int m = 0; m < PTB_MARK_COUNT; m++)
		marks += !!(used & 1u << m);
	if (ptb_grid_init(g, notes->n + marks, 2, 2))
		return -1;
	for (int m = 0, y = 0; m < PTB_MARK_COUNT; m++)
		if (used & 1u << m) {
			ptb_grid_set(g, y, 0, ptb_legend[m].mark);
			ptb_grid_set(g, y++, 1, ptb_legend[m].text);
		}
	for (int i = 0; i < notes->n; i++) {
		snprintf(num, sizeof num, "[%d]", i + 1);
		ptb_grid_set(g, marks + i, 0, num);
		ptb_grid_set(g, marks + i, 1, notes->text[i]);
	}
	return 0;
}
