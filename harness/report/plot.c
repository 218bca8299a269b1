/* SPDX-License-Identifier: MIT */
/*
 * Drawing a plot (report/plot.h): the kind's data and script are written
 * into a private temporary folder, gnuplot runs there -- its script read
 * from that folder, its picture on its standard output, its complaints
 * kept for the one line we report -- and the picture is copied to the
 * caller's stream.  gnuplot starts with its default settings (-d), so a
 * user's ~/.gnuplot cannot change what ptbench draws, and reads nothing
 * from our standard input.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/cleanup.h"
#include "report/plot-kinds.h"
#include "text/text.h"

/* The program, found on PATH. */
#define GNUPLOT "gnuplot"

bool ptb_plot_available(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200];
	for (const char *p = path ? path : ""; *p; p += *p == ':') {
		size_t len = strcspn(p, ":");
		snprintf(dir, sizeof dir, "%.*s", (int)len, p);
		snprintf(file, sizeof file, "%s/%s", len ? dir : ".", GNUPLOT);
		if (access(file, X_OK) == 0)
			return true;
		p += len;
	}
	return false;
}

/* What each run is called in legends and titles: its host, else its file's
 * name; a name two runs share gets the run's number. */
static void run_names(struct ptb_runfile *const *runs, size_t n, char (*names)[96])
{
	for (size_t i = 0; i < n; i++) {
		const char *name = runs[i]->host;
		char path[4096];
		if (!name || !*name) {
			snprintf(path, sizeof path, "%s", runs[i]->path ? runs[i]->path : "run");
			name = basename(path);
		}
		ptb_textf(names[i], sizeof names[i], "%s", name);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(names[i], names[j])) {
				char base[96];
				snprintf(base, sizeof base, "%s", names[i]);
				for (size_t k = i; k < n; k++)
					if (!strcmp(names[k], base))
						ptb_textf(names[k], sizeof names[k], "%s (%zu)", base, k + 1);
				break;
			}
}

/* The kind's data and script, in memory: 0, 1 no data, -1 with err. */
struct rendered {
	char *dat, *gp;
	size_t ndat, ngp;
};

/* What a plot is drawn from: run files, or a simulated run. */
struct source {
	struct ptb_runfile *const *runs;
	size_t nruns;
	const struct ptb_flow *flow;
	const json_t *profile;
};

static int render(const char *kind, const struct source *src, enum ptb_plot_term term,
		  struct rendered *r, char *err, size_t errlen)
{
	struct ptb_runfile *const *runs = src->runs;
	size_t nruns = src->nruns;
	const struct ptb_plot_kind *k = ptb_plot_kind_find(kind);
	char (*names)[96] = calloc(nruns ? nruns : 1, sizeof *names);
	FILE *dat = NULL, *gp = NULL;
	int rc = -1;
	memset(r, 0, sizeof *r);
	if (!k) {
		ptb_errf(err, errlen, "no plot kind '%s'", kind);
		free(names);
		return -1;
	}
	if (names && (dat = open_memstream(&r->dat, &r->ndat)) &&
	    (gp = open_memstream(&r->gp, &r->ngp))) {
		run_names(runs, nruns, names);
		struct ptb_plot_ctx c = { runs, nruns, k->name, term, names, src->flow, src->profile };
		rc = k->write(&c, dat, gp);
	}
	if (dat && fclose(dat))
		rc = -1;
	if (gp && fclose(gp))
		rc = -1;
	free(names);
	if (rc)
		ptb_errf(err, errlen, rc > 0 ? "%s: %s" : "%s: out of memory", kind, k->lacking);
	if (rc) {
		free(r->dat);
		free(r->gp);
		memset(r, 0, sizeof *r);
	}
	return rc;
}

static void rendered_free(struct rendered *r)
{
	free(r->dat);
	free(r->gp);
}

/* What an existing name in the folder is when it may not be written:
 * NULL for a regular file (or none).  A link would carry the write
 * elsewhere, a FIFO would block it. */
static const char *not_regular(const char *path)
{
	struct stat st;
	if (lstat(path, &st) || S_ISREG(st.st_mode))
		return NULL;
	return S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory"
	       : "not a regular file";
}

/* 0 when DIR/KIND.EXT may be written, else -1 with err. */
static int writable(const char *dir, const char *kind, const char *ext, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.%s", dir, kind, ext);
	const char *kind_of = not_regular(path);
	if (kind_of)
		ptb_errf(err, errlen, "%s: is %s; the plot writes only regular files", path, kind_of);
	return kind_of ? -1 : 0;
}

static int write_file(const char *dir, const char *kind, const char *ext, const char *buf,
		      size_t len, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.%s", dir, kind, ext);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		      0666);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	bool ok = f && fwrite(buf, 1, len, f) == len;
	int saved = errno;
	if (!f && fd >= 0)
		close(fd);
	if (f && fclose(f))
		ok = false, saved = errno;
	if (!ok)
		ptb_errf(err, errlen, "%s: %s", path, strerror(saved));
	return ok ? 0 : -1;
}

static int save(const char *dir, const char *kind, const struct rendered *r, char *err,
		size_t errlen)
{
	if (writable(dir, kind, "dat", err, errlen) || writable(dir, kind, "gp", err, errlen) ||
	    write_file(dir, kind, "dat", r->dat, r->ndat, err, errlen) ||
	    write_file(dir, kind, "gp", r->gp, r->ngp, err, errlen))
		return -1;
	return 0;
}

static int write_src(const char *kind, const struct source *src, enum ptb_plot_term term,
		     const char *dir, char *err, size_t errlen)
{
	struct rendered r;
	int rc = render(kind, src, term, &r, err, errlen);
	if (rc == 0)
		rc = save(dir, kind, &r, err, errlen);
	rendered_free(&r);
	return rc;
}

int ptb_plot_write(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		   enum ptb_plot_term term, const char *dir, char *err, size_t errlen)
{
	struct source src = { runs, nruns, NULL, NULL };
	return write_src(kind, &src, term, dir, err, errlen);
}

int ptb_plot_write_flow(const char *kind, const struct ptb_flow *flow, enum ptb_plot_term term,
			const char *dir, char *err, size_t errlen)
{
	struct source src = { NULL, 0, flow, NULL };
	return write_src(kind, &src, term, dir, err, errlen);
}

const char *ptb_plot_default_kind(struct ptb_runfile *const *runs, size_t nruns)
{
	char err[256];
	struct source src = { runs, nruns, NULL, NULL };
	for (int i = 0; ptb_plot_kinds[i]; i++) {
		struct rendered r;
		int rc = render(ptb_plot_kinds[i], &src, PTB_PLOT_SVG, &r, err, sizeof err);
		rendered_free(&r);
		if (rc == 0)
			return ptb_plot_kinds[i];
	}
	return NULL;
}

/* ---- running gnuplot ----------------------------------------------------- */

/* The first line gnuplot complained with, or how it ended. */
static void gnuplot_failure(const char *errfile, int status, char *err, size_t errlen)
{
	char line[512] = "";
	FILE *f = fopen(errfile, "r");
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[strspn(line, " \t^")])   /* skip gnuplot's caret lines */
			break;
	}
	if (f)
		fclose(f);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ptb_errf(err, errlen, "gnuplot is not installed (not found on PATH)");
	else if (line[strspn(line, " \t^")])
		ptb_errf(err, errlen, "gnuplot failed: %s", line + strspn(line, " \t"));
	else
		ptb_errf(err, errlen, "gnuplot failed (status %d)", status);
}

/* Run gnuplot on KIND.gp in dir, its picture into dir/out: 0, or -1 with err. */
static int run_gnuplot(const char *dir, const char *kind, char *err, size_t errlen)
{
	char script[256], out[4200], errfile[4200];
	int status;
	snprintf(script, sizeof script, "%s.gp", kind);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(errfile, sizeof errfile, "%s/err", dir);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		ptb_errf(err, errlen, "gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
		    e = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in < 0 || o < 0 || e < 0 || chdir(dir) || dup2(in, 0) < 0 || dup2(o, 1) < 0 ||
		    dup2(e, 2) < 0)
			_exit(126);
		execlp(GNUPLOT, GNUPLOT, "-d", script, (char *)NULL);
		_exit(127);
	}
	ptb_cleanup_child(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ptb_cleanup_child(0);
			ptb_errf(err, errlen, "gnuplot: %s", strerror(errno));
			return -1;
		}
	ptb_cleanup_child(0);
	struct stat st;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(out, &st) == 0 && st.st_size > 0)
		return 0;
	gnuplot_failure(errfile, status, err, errlen);
	return -1;
}

static int copy_out(const char *dir, FILE *out, char *err, size_t errlen)
{
	char path[4200], buf[65536];
	size_t n;
	snprintf(path, sizeof path, "%s/out", dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		ptb_errf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			fclose(f);
			ptb_errf(err, errlen, "writing the plot: %s", strerror(errno));
			return -1;
		}
	fclose(f);
	return 0;
}

/* The files of the work folder, which a signal must not leave behind. */
static const char *const work_files[] = { "%s/%s.dat", "%s/%s.gp", "%s/out", "%s/err" };
#define NWORK (sizeof work_files / sizeof *work_files)

/* Register the folder, then its files (cleanup.h removes them first). */
static void track_work(const char *dir, const char *kind, int handle[NWORK + 1])
{
	char path[4200];
	handle[0] = ptb_cleanup_add(dir, true);
	for (size_t i = 0; i < NWORK; i++) {
		snprintf(path, sizeof path, work_files[i], dir, kind);
		handle[i + 1] = ptb_cleanup_add(path, false);
	}
}

static void remove_work(const char *dir, const char *kind, const int handle[NWORK + 1])
{
	char path[4200];
	for (size_t i = 0; i < NWORK; i++) {
		snprintf(path, sizeof path, work_files[i], dir, kind);
		unlink(path);
	}
	rmdir(dir);
	for (size_t i = 0; i <= NWORK; i++)
		ptb_cleanup_forget(handle[i]);
}

static int draw_src(const char *kind, const struct source *src, enum ptb_plot_term term,
		    const char *keep_dir, FILE *out, char *err, size_t errlen)
{
	struct rendered r;
	char dir[4096];
	const char *tmp = getenv("TMPDIR");
	int rc = render(kind, src, term, &r, err, errlen);
	if (rc)
		return rc;
	if (keep_dir && save(keep_dir, kind, &r, err, errlen)) {
		rendered_free(&r);
		return -1;
	}
	if (!ptb_plot_available()) {
		rendered_free(&r);
		ptb_errf(err, errlen, "gnuplot is not installed (not found on PATH)");
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/ptbench-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		rendered_free(&r);
		ptb_errf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	int handle[NWORK + 1];
	track_work(dir, kind, handle);
	rc = save(dir, kind, &r, err, errlen) || run_gnuplot(dir, kind, err, errlen) ||
	     copy_out(dir, out, err, errlen) ? -1 : 0;
	remove_work(dir, kind, handle);
	rendered_free(&r);
	return rc;
}

int ptb_plot_draw(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		  enum ptb_plot_term term, const char *keep_dir, FILE *out, char *err,
		  size_t errlen)
{
	struct source src = { runs, nruns, NULL, NULL };
	return draw_src(kind, &src, term, keep_dir, out, err, errlen);
}

int ptb_plot_draw_flow(const char *kind, const struct ptb_flow *flow, enum ptb_plot_term term,
		       const char *keep_dir, FILE *out, char *err, size_t errlen)
{
	struct source src = { NULL, 0, flow, NULL };
	return draw_src(kind, &src, term, keep_dir, out, err, errlen);
}

int ptb_plot_write_profile(const char *kind, const json_t *profile, enum ptb_plot_term term,
			   const char *dir, char *err, size_t errlen)
{
	struct source src = { NULL, 0, NULL, profile };
	return write_src(kind, &src, term, dir, err, errlen);
}

int ptb_plot_draw_profile(const char *kind, const json_t *profile, enum ptb_plot_term term,
			  const char *keep_dir, FILE *out, char *err, size_t errlen)
{
	struct source src = { NULL, 0, NULL, profile };
	return draw_src(kind, &src, term, keep_dir, out, err, errlen);
}

int ptb_plot_svg_of(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		    const struct ptb_flow *flow, const json_t *profile, FILE *out, char *err,
		    size_t errlen)
{
	struct source src = { runs, nruns, flow, profile };
	return draw_src(kind, &src, PTB_PLOT_SVG, NULL, out, err, errlen);
}

int ptb_plot_svg(const char *kind, struct ptb_runfile *const *runs, size_t nruns, FILE *out,
		 char *err, size_t errlen)
{
	return ptb_plot_draw(kind, runs, nruns, PTB_PLOT_SVG, NULL, out, err, errlen);
}
