/* SPDX-License-Identifier: MIT */
/*
 * Printing a grid of strings (see grid.h).  A group's name is blanked on
 * its repeats in the styles people read, never in CSV, whose rows must
 * stand alone.  Widths are counted in terminal
 * columns (text/text.h), so "µs" and other UTF-8 text align.  Text style:
 * columns separated by two spaces, text columns padded, figures
 * right-aligned, trailing empty figures not printed, the row's tail right
 * after its last cell.  Markdown: every cell padded to its column's widest,
 * with the alignment row under the header.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/grid.h"
#include "text/text.h"

int ptb_grid_init(struct ptb_grid *g, int nrows, int ncols, int left)
{
	*g = (struct ptb_grid){ .nrows = nrows, .ncols = ncols, .left = left };
	/* + 1: never calloc(0) */
	g->cell = calloc((size_t)nrows * (size_t)ncols + 1, sizeof *g->cell);
	g->tail = calloc((size_t)nrows + 1, sizeof *g->tail);
	g->span = calloc((size_t)nrows + 1, sizeof *g->span);
	if (g->cell && g->tail && g->span)
		return 0;
	ptb_grid_free(g);
	return -1;
}

/* Cells hold text read from files: control characters are escaped. */
static void replace(char **slot, const char *s)
{
	free(*slot);
	*slot = s && *s ? ptb_printable(s) : NULL;
}

void ptb_grid_set(struct ptb_grid *g, int r, int c, const char *s)
{
	replace(&g->cell[r * g->ncols + c], s);
}

const char *ptb_grid_at(const struct ptb_grid *g, int r, int c)
{
	const char *s = g->cell[r * g->ncols + c];
	return s ? s : "";
}

void ptb_grid_span(struct ptb_grid *g, int r)
{
	g->span[r] = true;
}

void ptb_grid_tail(struct ptb_grid *g, int r, const char *tail)
{
	replace(&g->tail[r], tail);
}

void ptb_grid_free(struct ptb_grid *g)
{
	for (int i = 0; g->cell && i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	for (int i = 0; g->tail && i < g->nrows; i++)
		free(g->tail[i]);
	free(g->cell);
	free(g->tail);
	free(g->span);
	*g = (struct ptb_grid){ 0 };
}

/* Column 0 of row r as printed: blank when it repeats the row above. */
static const char *shown(const struct ptb_grid *g, int r, int c)
{
	const char *s = ptb_grid_at(g, r, c);
	if (g->blank_repeats && c == 0 && r > 1 && !strcmp(s, ptb_grid_at(g, r - 1, 0)))
		return "";
	return s;
}

/* The last column of a row with something in it (text columns count as
 * filled), and that cell with the row's tail for the styles without one. */
static int last_cell(const struct ptb_grid *g, int r)
{
	int c = g->ncols - 1;
	while (c >= g->left && !*ptb_grid_at(g, r, c))
		c--;
	return c < 0 ? 0 : c;
}

/* The cell as printed, whole however long: malloc'd, NULL out of memory. */
static char *cell_text(const struct ptb_grid *g, int r, int c, bool blank_repeats)
{
	const char *s = blank_repeats ? shown(g, r, c) : ptb_grid_at(g, r, c);
	const char *tail = g->tail[r] && c == last_cell(g, r) ? g->tail[r] : "";
	size_t n = strlen(s), t = strlen(tail);
	char *buf = malloc(n + t + 1);
	if (buf) {
		memcpy(buf, s, n);
		memcpy(buf + n, tail, t + 1);
	}
	return buf;
}

static char *printed_cell(const struct ptb_grid *g, int r, int c)
{
	return cell_text(g, r, c, true);
}

static int max(int a, int b)
{
	return a > b ? a : b;
}

static void pad(FILE *out, const char *s, int width)
{
	fputs(s, out);
	for (int w = ptb_text_width(s); w < width; w++)
		fputc(' ', out);
}

static void pad_left(FILE *out, const char *s, int width)
{
	for (int w = ptb_text_width(s); w < width; w++)
		fputc(' ', out);
	fputs(s, out);
}

/* Text style widths; a spanning cell widens the last text column. */
static void text_widths(const struct ptb_grid *g, int *w)
{
	int spanned = 0, text = 0;
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; c < g->ncols; c++) {
			if (g->span[r] && c < g->left)
				spanned = max(spanned, c == 0 ? ptb_text_width(ptb_grid_at(g, r, 0)) : 0);
			else
				w[c] = max(w[c], ptb_text_width(ptb_grid_at(g, r, c)));
		}
	for (int c = 0; c < g->left; c++)
		text += w[c] + (c ? 2 : 0);
	if (g->left > 0 && spanned > text)
		w[g->left - 1] += spanned - text;
}

static void print_text(FILE *out, const struct ptb_grid *g, const int *w)
{
	int text = 0;
	for (int c = 0; c < g->left; c++)
		text += w[c] + (c ? 2 : 0);
	for (int r = 0; r < g->nrows; r++) {
		int last = last_cell(g, r);
		if (g->span[r])
			pad(out, ptb_grid_at(g, r, 0), text);
		for (int c = 0; !g->span[r] && c < g->left; c++) {
			fputs(c ? "  " : "", out);
			pad(out, shown(g, r, c), w[c]);
		}
		for (int c = g->left; c <= last; c++) {
			fputs("  ", out);
			pad_left(out, ptb_grid_at(g, r, c), w[c]);
		}
		fprintf(out, "%s\n", g->tail[r] ? g->tail[r] : "");
	}
}

static void print_md(FILE *out, const struct ptb_grid *g, int *w)
{
	char *buf;
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; c < g->ncols; c++) {
			buf = printed_cell(g, r, c);
			w[c] = max(w[c], ptb_text_width(buf ? buf : "?"));
			free(buf);
		}
	for (int r = 0; r < g->nrows; r++) {
		for (int c = 0; c < g->ncols; c++) {
			buf = printed_cell(g, r, c);
			fputs("| ", out);
			if (c < g->left)
				pad(out, buf ? buf : "?", w[c]);
			else
				pad_left(out, buf ? buf : "?", w[c]);
			fputc(' ', out);
			free(buf);
		}
		fputs("|\n", out);
		for (int c = 0; r == 0 && c < g->ncols; c++) {
			fputs(c < g->left ? "|:" : "|-", out);
			for (int i = 0; i < w[c]; i++)
				fputc('-', out);
			fputs(c < g->left ? "-" : ":", out);
		}
		if (r == 0)
			fputs("|\n", out);
	}
}

static void print_csv(FILE *out, const struct ptb_grid *g, const char *lead, int width)
{
	for (int r = 0; r < g->nrows; r++) {
		int n = 0;
		if (lead) {
			ptb_csv_field(out, lead);
			n++;
		}
		for (int c = 0; c < g->ncols; c++, n++) {
			fputs(n ? "," : "", out);
			char *buf = cell_text(g, r, c, false);   /* every cell whole */
			ptb_csv_field(out, buf ? buf : "?");
			free(buf);
		}
		for (; n < width; n++)
			fputc(',', out);
		fputc('\n', out);
	}
}

static void print_html(FILE *out, const struct ptb_grid *g)
{
	fputs("<table>\n", out);
	for (int r = 0; r < g->nrows; r++) {
		const char *tag = r == 0 ? "th" : "td";
		fputs(r == 0 ? "<thead><tr>" : "<tr>", out);
		for (int c = 0; c < g->ncols; c++) {
			char *buf = printed_cell(g, r, c);
			fprintf(out, "<%s%s>", tag, c < g->left ? "" : " class=\"num\"");
			ptb_html_text(out, buf ? buf : "?");
			fprintf(out, "</%s>", tag);
			free(buf);
		}
		fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

void ptb_grid_print(FILE *out, const struct ptb_grid *g, enum ptb_grid_style style,
		    const char *lead, int width)
{
	int *w = calloc((size_t)g->ncols + 1, sizeof *w);
	if (!w)
		return;
	switch (style) {
	case PTB_GRID_TEXT:
		text_widths(g, w);
		print_text(out, g, w);
		break;
	case PTB_GRID_MD:   print_md(out, g, w);                break;
	case PTB_GRID_CSV:  print_csv(out, g, lead, width);     break;
	case PTB_GRID_HTML: print_html(out, g);                 break;
	}
	free(w);
}
