/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot PROFILE --kind profile`: a ptbench-profile/1 document
 * (docs/design.md, "The profiler") as two panels of horizontal bars, one
 * row per object, the objects with the most coherence misses at the top.
 * Left: each thread's misses on the object, its read misses solid and its
 * write misses stacked after them, paler; right: the object's coherence
 * misses split into true sharing and false sharing, stacked -- so that a
 * reader sees which object moves, between which threads, and why.
 *
 * The data file has one block per thread drawn (y, read, write, half
 * height), then one block of the split (y, true, false).  The document
 * was read from a file: its names reach the script only through
 * ptb_gp_string, its figures are read as the integers they must be
 * (anything else counts as 0).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot-kinds.h"
#include "text/text.h"

/* Rows past this many are left out (the table and the JSON have them). */
#define MAX_OBJECTS 16
/* Threads drawn: those with the most misses on the objects drawn. */
#define MAX_THREADS 8
/* Of a row's height, what the bars take together; the rest separates rows. */
#define BAND 0.8

static long long num(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));
	return v > 0 ? (long long)v : 0;
}

static long long misses(const json_t *o)
{
	return num(o, "read_misses") + num(o, "write_misses");
}

/* What the plot draws: the objects, the threads and their order. */
struct drawn {
	const json_t *obj[MAX_OBJECTS];
	int nobj;
	long long thread[MAX_THREADS];   /* thread numbers, in ascending order */
	int nthr, left_out;              /* threads with misses not drawn */
};

/* Object o's entry for thread t, or NULL. */
static const json_t *thread_of(const json_t *o, long long t)
{
	const json_t *e;
	size_t i;
	json_array_foreach(json_object_get(o, "threads"), i, e)
		if (num(e, "thread") == t)
			return e;
	return NULL;
}

static int by_number(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* The threads with misses on the drawn objects; the MAX_THREADS with the
 * most of them when there are more.  -1 out of memory. */
static int pick_threads(struct drawn *d)
{
	json_t *sum = json_object();
	const char *key;
	json_t *v;
	char name[32];
	if (!sum)
		return -1;
	for (int i = 0; i < d->nobj; i++) {
		const json_t *e;
		size_t k;
		json_array_foreach(json_object_get(d->obj[i], "threads"), k, e) {
			if (!misses(e) || num(e, "thread") <= 0)
				continue;
			snprintf(name, sizeof name, "%lld", num(e, "thread"));
			long long was = json_integer_value(json_object_get(sum, name));
			if (json_object_set_new(sum, name, json_integer(was + misses(e)))) {
				json_decref(sum);
				return -1;
			}
		}
	}
	d->nthr = d->left_out = 0;
	while (json_object_size(sum)) {
		const char *best = NULL;
		long long most = -1;
		json_object_foreach(sum, key, v)
			if (json_integer_value(v) > most ||
			    (json_integer_value(v) == most && atoll(key) < atoll(best)))
				best = key, most = json_integer_value(v);
		if (d->nthr < MAX_THREADS)
			d->thread[d->nthr++] = atoll(best);
		else
			d->left_out++;
		json_object_del(sum, best);
	}
	json_decref(sum);
	qsort(d->thread, (size_t)d->nthr, sizeof *d->thread, by_number);
	return 0;
}

static double bar_y(int r, int t, int n)
{
	return r - BAND / 2 + (t + 0.5) * BAND / n;
}

/* The data; the largest bar of each panel in *per_thread and *split. */
static void data(FILE *dat, const struct drawn *d, long long *per_thread, long long *split)
{
	*per_thread = *split = 0;
	for (int t = 0; t < d->nthr; t++) {
		fprintf(dat, "# block %d: thread %lld, per object: y, read misses, write misses, "
			"half height\n", t, d->thread[t]);
		int lines = 0;
		for (int r = 0; r < d->nobj; r++) {
			const json_t *e = thread_of(d->obj[r], d->thread[t]);
			if (!e || !misses(e))
				continue;
			fprintf(dat, "%.6g %lld %lld %.6g\n", bar_y(r, t, d->nthr),
				num(e, "read_misses"), num(e, "write_misses"), 0.45 * BAND / d->nthr);
			if (misses(e) > *per_thread)
				*per_thread = misses(e);
			lines++;
		}
		ptb_gp_end_block(dat, lines, 4);
	}
	fprintf(dat, "# block %d: per object: y, true sharing, false sharing (coherence misses)\n",
		d->nthr);
	for (int r = 0; r < d->nobj; r++) {
		long long tr = num(d->obj[r], "true_sharing"), fa = num(d->obj[r], "false_sharing");
		fprintf(dat, "%d %lld %lld\n", r, tr, fa);
		if (tr + fa > *split)
			*split = tr + fa;
	}
	ptb_gp_end_block(dat, d->nobj, 3);
}

/* The y axis: a tic per object, named by it and its kind. */
static void object_tics(FILE *gp, const struct drawn *d)
{
	char name[256];
	fputs("set ytics scale 0 font ',9'\nset ytics ()\n", gp);
	for (int r = 0; r < d->nobj; r++) {
		const char *n = json_string_value(json_object_get(d->obj[r], "name"));
		const char *k = json_string_value(json_object_get(d->obj[r], "kind"));
		ptb_textf(name, sizeof name, "%s (%s)", n ? n : "?", k ? k : "?");
		fputs("set ytics add (", gp);
		ptb_gp_string(gp, name);
		fprintf(gp, " %d)\n", r);
	}
}

/* A panel's frame: where it is on the page, its x axis, its key. */
static void panel(FILE *gp, double left, double right, long long most, const char *xlabel)
{
	fprintf(gp, "set lmargin at screen %.2f\nset rmargin at screen %.2f\n", left, right);
	fprintf(gp, "set xrange [0:%lld]\n", most > 0 ? most + most / 12 + 1 : 1);
	fprintf(gp, "set xlabel '%s'\n", xlabel);
	fputs(most < 5 ? "set xtics 1\n" : "set xtics autofreq\n", gp);   /* whole misses */
}

static void script(FILE *gp, const struct ptb_plot_ctx *c, const struct drawn *d,
		   long long per_thread, long long split, int height)
{
	const char *program = json_string_value(json_object_get(c->profile, "program"));
	char title[512];
	ptb_gp_head(gp, c, 1000, height, "each object's coherence misses per thread, and "
		    "true against false sharing");
	ptb_textf(title, sizeof title, "%s: %lld-byte lines, quantum %lld", program ? program : "?",
		  num(c->profile, "line_size"), num(c->profile, "quantum"));
	if (d->left_out)
		ptb_appendf(title, sizeof title, " (%d more threads not drawn)", d->left_out);
	fputs("set multiplot\nset title ", gp);
	ptb_gp_string(gp, title);
	fputs(" offset 12, 0\n", gp);
	fprintf(gp, "set tmargin %d\nset bmargin 3.5\n", 4 + (d->nthr + 3) / 4);
	fprintf(gp, "set yrange [%g:%g] reverse\n", d->nobj ? d->nobj - 0.5 : 0.5, -0.5);
	fputs("set grid xtics lc rgb '#dddddd'\nset xtics nomirror\nset format x '%.0f'\n", gp);
	fputs("set key outside above center horizontal maxrows 4 font ',9'\n", gp);
	object_tics(gp, d);
	if (!d->nobj)
		fputs("unset ytics\nset label 1 'no coherence misses' at graph 0.5, graph 0.5 center\n",
		      gp);
	panel(gp, 0.26, 0.66, per_thread, "coherence misses per thread (solid read, pale write)");
	fputs("plot", gp);
	for (int t = 0; t < d->nthr; t++) {
		const char *col = ptb_gp_color((size_t)t);
		fprintf(gp, "%s '%s.dat' index %d using ($2/2):1:($2/2):4 with boxxyerror "
			"fs solid 0.9 noborder lc rgb '%s' title 'thread %lld', \\\n", t ? ", \\\n" : "",
			c->kind, t, col, d->thread[t]);
		fprintf(gp, "    '%s.dat' index %d using ($2+$3/2):1:($3/2):4 with boxxyerror "
			"fs solid 0.35 noborder lc rgb '%s' notitle", c->kind, t, col);
	}
	if (!d->nthr)
		fputs(" NaN notitle", gp);
	fputs("\n", gp);
	fputs("unset label 1\nunset ytics\nset title ' '\n", gp);
	panel(gp, 0.70, 0.97, split, "coherence misses");
	fprintf(gp, "plot '%s.dat' index %d using ($2/2):1:($2/2):(%g) with boxxyerror "
		"fs solid 0.9 noborder lc rgb '%s' title 'true sharing', \\\n"
		"    '%s.dat' index %d using ($2+$3/2):1:($3/2):(%g) with boxxyerror "
		"fs solid 0.9 noborder lc rgb '%s' title 'false sharing'\n",
		c->kind, d->nthr, BAND / 2, ptb_gp_color(2), c->kind, d->nthr, BAND / 2,
		ptb_gp_color(5));
	fputs("unset multiplot\n", gp);
}

int ptb_plot_profile(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct drawn d = { .nobj = 0 };
	const json_t *o;
	size_t i;
	long long per_thread, split;
	if (!c->profile)
		return 1;
	json_array_foreach(json_object_get(c->profile, "objects"), i, o)
		if (misses(o) && d.nobj < MAX_OBJECTS)
			d.obj[d.nobj++] = o;
	if (pick_threads(&d))
		return -1;
	const char *program = json_string_value(json_object_get(c->profile, "program"));
	fputs("# ptbench plot --kind profile: ", dat);
	for (const char *p = program ? program : "?"; *p; p++)   /* one line, whatever it says */
		fputc((unsigned char)*p < 0x20 ? '?' : *p, dat);
	fprintf(dat, "; %d objects, %d threads\n", d.nobj, d.nthr);
	data(dat, &d, &per_thread, &split);
	script(gp, c, &d, per_thread, split, 140 + 34 * (d.nobj ? d.nobj : 1));
	return 0;
}
