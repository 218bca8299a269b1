/* SPDX-License-Identifier: MIT */
/*
 * Fuzz-style robustness of everything that reads result files.  First,
 * structure-aware inputs (fuzz-mutate.h: numbers at every bound, strings
 * that mean more than a name, long strings, huge arrays, wrong types,
 * deleted keys) through every reader in process -- see "structure-aware
 * inputs" below; PTB_FUZZ_INPUTS=N runs N of them.  Then random bytes,
 * byte-level mutations of valid files (flips, cuts, duplicated stretches,
 * stray JSON tokens, truncation) and type-changing mutations go through
 * ptb_run_load / ptb_run_validate and, when they load, through `ptbench
 * table` in every format and `ptbench compare` against a valid run.  Nothing
 * may crash or hang; a refused file gets a one-line error; the commands
 * return only their documented exit statuses.  Fixed seeds.
 */
#include <config.h>

#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "record/model.h"
#include "record/runfile.h"
#include "record/validate.h"
#include "report/plot.h"
#include "report/report.h"
#include "tools/compare.h"
#include "tools/page.h"
#include "tools/table.h"
#include "fuzz-mutate.h"
#include "tap.h"


#define CASES_RANDOM     800
#define CASES_BYTES      1500
#define CASES_STRUCTURE  1200

struct stats {
	int loaded, refused, bad_error, bad_status;
};

static char path[256];
static const char *valid_path;
static int quiet_fd = -1, err_fd = -1, saved_out = -1, saved_err = -1;

/* The commands print; the test's own TAP lines must not mix with that.
 * Their standard error goes to a file, emptied for each input, so that a
 * sanitizer's report on the input that ended the process is kept. */
static void mute(int on)
{
	fflush(stdout);
	fflush(stderr);
	if (on) {
		dup2(quiet_fd, 1);
		if (err_fd >= 0 && lseek(err_fd, 0, SEEK_SET) == 0 && ftruncate(err_fd, 0) == 0)
			dup2(err_fd, 2);
		else
			dup2(quiet_fd, 2);
	} else {
		dup2(saved_out, 1);
		dup2(saved_err, 2);
	}
}

static void write_file(const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		abort();
}

static void run_commands(struct stats *st)
{
	static const char *const fmts[] = { "md", "csv", "html" };
	for (int i = 0; i < 3; i++) {
		char *argv[] = { "table", "--format", (char *)fmts[i], path, NULL };
		int rc = ptb_cmd_table(4, argv);
		st->bad_status += rc != 0 && rc != 2;
	}
	char *fwd[] = { "compare", path, (char *)valid_path, NULL };
	char *rev[] = { "compare", "--format", "json", (char *)valid_path, path, NULL };
	int rc = ptb_cmd_compare(3, fwd);
	st->bad_status += rc < 0 || rc > 2;
	rc = ptb_cmd_compare(5, rev);
	st->bad_status += rc < 0 || rc > 2;
}

/* One input: loaded and validated (then the commands run), or refused with
 * a single line. */
static void try_file(const char *buf, size_t len, struct stats *st)
{
	char err[512] = "";
	write_file(buf, len);
	mute(1);
	json_t *run = ptb_run_load(path, err, sizeof err);
	if (run) {
		st->loaded++;
		st->bad_error += ptb_run_validate(run, err, sizeof err) < 0;
		json_decref(run);
		run_commands(st);
	} else {
		st->refused++;
		st->bad_error += err[0] == 0 || strchr(err, '\n') != NULL;
	}
	mute(0);
}

static char *slurp(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	char *buf = malloc(1 << 20);
	if (!f || !buf)
		abort();
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

static void random_bytes(struct stats *st)
{
	static const char alphabet[] = "{}[]\":, 0123456789.-eEtruefalsnpbch/1\\\n";
	char buf[512];
	for (int c = 0; c < CASES_RANDOM; c++) {
		size_t len = below(sizeof buf);
		int json_ish = c % 2;
		for (size_t i = 0; i < len; i++)
			buf[i] = json_ish ? alphabet[below(sizeof alphabet - 1)] : (char)rnd();
		try_file(buf, len, st);
	}
}

static void byte_mutations(const char *const *files, int nfiles, struct stats *st)
{
	size_t cap = 1 << 20;
	char *work = malloc(cap);
	for (int c = 0; c < CASES_BYTES; c++) {
		size_t len;
		char *orig = slurp(files[c % nfiles], &len);
		memcpy(work, orig, len);
		len = mutate_bytes(work, len, cap);
		try_file(work, len, st);
		free(orig);
	}
	free(work);
}

static void structural_mutations(const char *const *files, int nfiles, struct stats *st)
{
	static struct node nodes[4096];
	for (int c = 0; c < CASES_STRUCTURE; c++) {
		json_t *doc = json_load_file(files[c % nfiles], 0, NULL);
		size_t n = 0;
		if (!doc)
			abort();
		collect(doc, nodes, &n, sizeof nodes / sizeof nodes[0]);
		for (int k = 1 + (int)below(3); k > 0 && n; k--) {
			struct node *p = &nodes[below(n)];
			int drop = below(4) == 0;
			if (p->key && drop)
				json_object_del(p->parent, p->key);
			else if (p->key)
				json_object_set_new(p->parent, p->key, random_value());
			else if (drop)
				json_array_remove(p->parent, p->index);
			else
				json_array_set_new(p->parent, p->index, random_value());
			n = 0;   /* the tree changed: collect again */
			collect(doc, nodes, &n, sizeof nodes / sizeof nodes[0]);
		}
		char err[512];
		mute(1);
		ptb_run_validate(doc, err, sizeof err);
		mute(0);
		char *text = json_dumps(doc, JSON_COMPACT);
		try_file(text, strlen(text), st);
		free(text);
		json_decref(doc);
	}
}

/* ---- structure-aware inputs, driven through every reader -----------------
 *
 * Each input is a valid file (a run of Table-1 rows, one of curves, a
 * matrix and cache levels, a ptbench/1 file) with one to three mutations
 * (fuzz-mutate.h), modelled in memory and given to every reader in
 * process: report in each format, the HTML page, table in each format and
 * statistic, compare both ways, and the data and script of every plot
 * kind.  Every SAMPLE_CLI-th accepted input also goes through the commands
 * as a file, and every PTB_FUZZ_GNUPLOT_EVERY-th through gnuplot (plot of
 * each kind, the page with its figures) when gnuplot is on PATH.
 *
 * What must hold: a refusal is one line; neither the model nor any reader
 * or command runs longer than LIMIT_S (SIGALRM names the input), prints more than
 * OUT_MAX of the input's size (counted, never stored), or crashes (the signal names the input);
 * every command returns a documented status.  PTB_FUZZ_INPUTS sets the
 * number of inputs (default a few seconds' worth), PTB_FUZZ_SEED the
 * seed; input i is drawn from (seed, i) alone, so PTB_FUZZ_FROM=i
 * PTB_FUZZ_INPUTS=1 replays it.
 */
#define DEFAULT_INPUTS   1000
#define SAMPLE_CLI       50
#define LIMIT_S          20
/* Output a reader may print for an input of n (approximate) bytes: Google
 * Benchmark's JSON gives each trial an object of its own, some 200 times
 * the trial's size in the file. */
#define OUT_MAX(n)       (1024LL * (long long)(n) + (16LL << 20))

static unsigned long long fuzz_seed, fuzz_index;
static const json_t *current_doc;
static long long out_max;
static char err_path[300];
static long long out_bytes;
static const char *out_what = "";

/* Signals name the input before the process ends. */
static void say_input(int sig)
{
	char msg[160];
	int n = snprintf(msg, sizeof msg, "\nnot ok - input %llu of seed %llu: %s (replay: "
			 "PTB_FUZZ_SEED=%llu PTB_FUZZ_FROM=%llu PTB_FUZZ_INPUTS=1)\n", fuzz_index,
			 fuzz_seed, sig == SIGALRM ? "over the time limit" : strsignal(sig),
			 fuzz_seed, fuzz_index);
	if (saved_out >= 0)
		(void)!write(saved_out, msg, (size_t)n);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* AddressSanitizer, ending the process, names the input too (UBSan's
 * halt does not call back: its report stays in the scratch folder's
 * stderr, said at the start).  Weak: a build without sanitizers lacks it. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void say_death(void)
{
	char msg[200];
	int n = snprintf(msg, sizeof msg, "\nnot ok - input %llu of seed %llu ended the process; "
			 "its report is in %s\n", fuzz_index, fuzz_seed, err_path);
	(void)!write(saved_out, msg, (size_t)n);
}

/* stdout while the readers print: counted and dropped. */
static ssize_t count_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	out_bytes += (long long)len;
	if (out_bytes > out_max) {
		char msg[400];
		if (current_doc)     /* not a signal: the input can still be written */
			json_dump_file(current_doc, path, JSON_COMPACT);
		int n = snprintf(msg, sizeof msg, "\nnot ok - input %llu of seed %llu: %s printed "
				 "more than %lld bytes (the input is %s)\n", fuzz_index, fuzz_seed,
				 out_what, out_max, path);
		(void)!write(saved_out, msg, (size_t)n);
		_exit(1);
	}
	return (ssize_t)len;
}

struct drive {
	const char *dir;                /* scratch: plot scripts, sampled files */
	struct ptb_runfile *valid;      /* an unmutated run, to compare with */
	long inputs, accepted, refused, cli, gnuplot, bad, oversize;
	bool have_gnuplot;
	long gnuplot_every;
};

static void bad_result(struct drive *d, const char *what, int rc)
{
	if (d->bad++ < 10)
		printf("# input %llu of seed %llu: %s returned %d\n", fuzz_index, fuzz_seed, what, rc);
}

/* Every reader on a modelled run. */
static void readers(struct drive *d, struct ptb_runfile *run)
{
	struct ptb_runfile *pair[2] = { run, d->valid };
	char err[512];
	int rc;
	for (int f = 0; f < PTB_FMT_COUNT; f++) {
		out_what = ptb_format_name((enum ptb_format)f);
		alarm(LIMIT_S);
		if ((rc = ptb_report_with(stdout, run, (enum ptb_format)f,
					  &(struct ptb_report_opts){ f == 0 && fuzz_index % 2 })))
			bad_result(d, out_what, rc);
	}
	out_what = "the page";
	alarm(LIMIT_S);
	struct ptb_page_opts po = { (enum ptb_table_stat)(fuzz_index % PTB_STAT_COUNT),
				    fuzz_index % 3 == 0, false };
	if ((rc = ptb_page_report(stdout, &run, 1, &po)))
		bad_result(d, out_what, rc);
	for (int f = 0; f < PTB_TABLE_FORMATS; f++) {
		struct ptb_table_opts to = { (enum ptb_table_format)f,
					     (enum ptb_table_stat)((fuzz_index + f) % PTB_STAT_COUNT),
					     fuzz_index % 5 == 0, false };
		out_what = "table";
		alarm(LIMIT_S);
		if ((rc = ptb_table_print(stdout, pair, 1 + f % 2, &to)))
			bad_result(d, out_what, rc);
	}
	if (!run->duplicate && !ptb_compare_unusable(run) && !ptb_compare_unusable(d->valid)) {
		struct ptb_compare_opts co = { 0.05, 5, fuzz_index % 2 };
		out_what = "compare";
		alarm(LIMIT_S);
		if ((rc = ptb_compare(run, d->valid, &co)) < 0 || rc > 1)
			bad_result(d, out_what, rc);
		alarm(LIMIT_S);
		if ((rc = ptb_compare(d->valid, run, &co)) < 0 || rc > 1)
			bad_result(d, out_what, rc);
	}
	for (int k = 0; ptb_plot_kinds[k]; k++) {
		out_what = ptb_plot_kinds[k];
		alarm(LIMIT_S);
		rc = ptb_plot_write(ptb_plot_kinds[k], &run, 1, (enum ptb_plot_term)(k % 2), d->dir,
				    err, sizeof err);
		if (rc < -1 || rc > 1 || (rc && (!*err || strchr(err, '\n'))))
			bad_result(d, out_what, rc);
	}
}

/* The commands on the input as a file: a refusal is exit 2, one line. */
static void commands(struct drive *d, const char *file, bool with_gnuplot)
{
	static const char *const reports[] = { "table", "csv", "json", "gbench", "html" };
	char svg[600];
	int rc;
	for (size_t f = 0; f < sizeof reports / sizeof *reports; f++) {
		char *argv[] = { "report", "--format", (char *)reports[f], (char *)file,
				 with_gnuplot ? NULL : "--no-plots", NULL };
		out_what = reports[f];
		alarm(LIMIT_S);
		rc = ptb_cmd_report(with_gnuplot || f < 4 ? 4 : 5, argv);
		if (rc != 0 && rc != 2)
			bad_result(d, "report", rc);
	}
	if (!with_gnuplot)
		return;
	for (int k = 0; ptb_plot_kinds[k]; k++) {
		snprintf(svg, sizeof svg, "%s/%s.svg", d->dir, ptb_plot_kinds[k]);
		char *argv[] = { "plot", "--kind", (char *)ptb_plot_kinds[k], (char *)file, "-o", svg,
				 NULL };
		alarm(LIMIT_S);
		rc = ptb_cmd_plot(6, argv);
		if (rc != 0 && rc != 2)
			bad_result(d, "plot", rc);
		unlink(svg);
	}
	d->gnuplot++;
}

static void drive_one(struct drive *d, json_t *const *templates, int ntemplates)
{
	static struct node nodes[20000];
	char err[512] = "";
	json_t *doc = json_deep_copy(templates[below((size_t)ntemplates)]);
	for (int k = 1 + (int)below(3); k > 0; k--)
		mutate_doc(doc, nodes, sizeof nodes / sizeof *nodes);
	/* A value changed after an array shared it grew the document with
	 * every copy: past the budget, the input is a file of hundreds of
	 * megabytes, whose output only its size makes large. */
	if (count_values(doc, 2 * GROWN_MAX) > GROWN_MAX) {
		d->oversize++;
		json_decref(doc);
		return;
	}
	out_max = OUT_MAX(approx_bytes(doc));
	mute(1);
	alarm(LIMIT_S);
	current_doc = doc;
	struct ptb_runfile *run = ptb_runfile_of(doc, err, sizeof err);
	d->inputs++;
	if (!run) {
		d->refused++;
		if (!err[0] || strchr(err, '\n'))
			bad_result(d, "a refusal without one line", -1);
	} else {
		d->accepted++;
		readers(d, run);
		bool cli = d->accepted % SAMPLE_CLI == 0;
		bool gp = d->have_gnuplot && d->gnuplot_every > 0 &&
			  d->accepted % d->gnuplot_every == 0;
		if (cli || gp) {
			char *text = json_dumps(doc, JSON_COMPACT);
			write_file(text, strlen(text));
			free(text);
			commands(d, path, gp);
			d->cli++;
		}
		ptb_runfile_free(run);
	}
	alarm(0);
	mute(0);
	current_doc = NULL;
	json_decref(doc);
}

/* A reader that grows is stopped at 8 GiB of address space, not the
 * machine -- unless the process holds more already (a sanitizer's shadow
 * memory), or its size cannot be read. */
static void limit_memory(void)
{
	const rlim_t cap = (rlim_t)8 << 30;
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return;
	if (fscanf(f, "%lu", &pages) == 1 && (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) < cap / 2)
		setrlimit(RLIMIT_AS, &(struct rlimit){ cap, cap });
	fclose(f);
}

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void structure_aware(const char *const *files, int nfiles, const char *dir,
			    const char *valid, struct drive *d)
{
	json_t *templates[8];
	char err[512];
	long n = env_long("PTB_FUZZ_INPUTS", DEFAULT_INPUTS), from = env_long("PTB_FUZZ_FROM", 0);
	FILE *counting = fopencookie(NULL, "w", (cookie_io_functions_t){ NULL, count_write, NULL,
									NULL });
	FILE *real_stdout = stdout;
	for (int i = 0; i < nfiles; i++)
		if (!(templates[i] = json_load_file(files[i], 0, NULL)))
			abort();
	d->dir = dir;
	d->have_gnuplot = ptb_plot_available();
	d->gnuplot_every = env_long("PTB_FUZZ_GNUPLOT_EVERY", 200);
	if (!counting || !(d->valid = ptb_runfile_load(valid, err, sizeof err)))
		abort();
	fuzz_seed = (unsigned long long)env_long("PTB_FUZZ_SEED", 1);
	for (long i = from; i < from + n; i++) {
		fuzz_index = (unsigned long long)i;
		rng_state = (fuzz_seed * 0x9E3779B97F4A7C15ull) ^ (fuzz_index * 0xBF58476D1CE4E5B9ull);
		rng_state = rng_state ? rng_state : 1;
		stdout = counting;
		out_bytes = 0;
		out_max = 0;
		drive_one(d, templates, nfiles);
		stdout = real_stdout;
		if (getenv("PTB_FUZZ_PROGRESS") && (i - from + 1) % 10000 == 0)
			printf("# %ld inputs, %ld accepted\n", i - from + 1, d->accepted), fflush(stdout);
	}
	fclose(counting);
	ptb_runfile_free(d->valid);
	for (int i = 0; i < nfiles; i++)
		json_decref(templates[i]);
}

int main(void)
{
	const char *data = getenv("TESTDATA"), *top = getenv("top_srcdir");
	char tmpl[] = "/tmp/ptb-fuzz-XXXXXX", f1[512], f2[512], f3[512], f4[512], f5[512];
	if (!data || !top)
		tap_skip_all("TESTDATA and top_srcdir not set");
	snprintf(f1, sizeof f1, "%s/tools-table-a.json", data);
	snprintf(f2, sizeof f2, "%s/tools-base.json", data);
	snprintf(f3, sizeof f3, "%s/results/1999-de-supinski-may/ibm-sp2-604e.json", top);
	snprintf(f4, sizeof f4, "%s/plot-ext.json", data);
	snprintf(f5, sizeof f5, "%s/run-golden-v2.json", data);
	const char *const files[] = { f1, f2, f3 }, *const shapes[] = { f1, f3, f4, f5 };
	valid_path = f2;
	if (!mkdtemp(tmpl))
		return 1;
	snprintf(path, sizeof path, "%s/case.json", tmpl);
	quiet_fd = open("/dev/null", O_WRONLY);
	snprintf(err_path, sizeof err_path, "%s/stderr", tmpl);
	err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	saved_out = dup(1);
	saved_err = dup(2);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_death);

	static const int fatal[] = { SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
		signal(fatal[i], say_input);
	limit_memory();
	printf("# inputs are written to %s; a crash or hang names its input\n", tmpl);
	fflush(stdout);

	struct drive d = { 0 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	structure_aware(shapes, 4, tmpl, f2, &d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_ok(d.bad == 0, "%ld structure-aware inputs (seed %llu) in %.1f s (%.0f/s): %ld refused "
	       "with one line, %ld through every reader (%ld also as files, %ld with gnuplot%s), "
	       "none over %d s or printing over 1024 bytes per byte of input; %ld drawn past the "
	       "size budget left out", d.inputs, fuzz_seed, secs, d.inputs / (secs > 0 ? secs : 1),
	       d.refused, d.accepted, d.cli, d.gnuplot, d.have_gnuplot ? "" : ": not on PATH",
	       LIMIT_S, d.oversize);
	tap_ok(d.inputs < 20 || (d.accepted > 0 && d.refused > 0),
	       "structure-aware inputs reach both the refusals and the readers");

	struct stats r = { 0 }, b = { 0 }, s = { 0 };
	random_bytes(&r);
	tap_ok(r.bad_error == 0 && r.bad_status == 0,
	       "%d random inputs: %d refused with one line, %d loaded, no crash",
	       CASES_RANDOM, r.refused, r.loaded);
	byte_mutations(files, 3, &b);
	tap_ok(b.bad_error == 0 && b.bad_status == 0,
	       "%d byte mutations of valid files: %d refused with one line, %d loaded and tabulated",
	       CASES_BYTES, b.refused, b.loaded);
	tap_ok(b.loaded > 0 && b.refused > 0, "byte mutations reach both the refusals and the commands");
	structural_mutations(files, 3, &s);
	tap_ok(s.bad_error == 0 && s.bad_status == 0,
	       "%d structural mutations: %d refused with one line, %d loaded and tabulated",
	       CASES_STRUCTURE, s.refused, s.loaded);
	tap_ok(s.loaded > 0 && s.refused > 0, "structural mutations reach both the refusals and the commands");

	unlink(path);
	unlink(err_path);
	for (int k = 0; ptb_plot_kinds[k]; k++)
		for (int e = 0; e < 2; e++) {
			char f[600];
			snprintf(f, sizeof f, "%s/%s.%s", tmpl, ptb_plot_kinds[k], e ? "gp" : "dat");
			unlink(f);
		}
	rmdir(tmpl);
	tap_done();
	return tap_exit();
}
