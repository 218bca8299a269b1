/* SPDX-License-Identifier: MIT */
/*
 * Finding the measured cache levels for `ptbench info` (cli/measured.h).
 */
#include "config.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/measured.h"
#include "record/levels.h"

static const struct ptb_record *levels_of(const struct ptb_runfile *run)
{
	for (size_t i = 0; i < run->n; i++)
		if (ptb_levels_is_record(&run->rec[i]))
			return &run->rec[i];
	return NULL;
}

/* A run of this host with a levels record, or NULL. */
static struct ptb_runfile *candidate(const char *path, const char *host,
				     const struct ptb_record **rec)
{
	char err[512];
	struct ptb_runfile *run = ptb_runfile_load(path, err, sizeof err);
	if (run && run->host && !strcmp(run->host, host) && (*rec = levels_of(run)))
		return run;
	ptb_runfile_free(run);
	return NULL;
}

/* The newest ptbench-*.json here that is a candidate. */
static struct ptb_runfile *newest_here(const char *host, const struct ptb_record **rec)
{
	static char best_name[4096];
	DIR *d = opendir(".");
	struct dirent *e;
	struct stat st;
	double best = -1;
	struct ptb_runfile *run = NULL;
	while (d && (e = readdir(d))) {
		const struct ptb_record *r;
		struct ptb_runfile *c;
		double t;
		if (fnmatch("ptbench-*.json", e->d_name, 0) || stat(e->d_name, &st) != 0)
			continue;
		t = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
		if (t <= best || !(c = candidate(e->d_name, host, &r)))
			continue;
		ptb_runfile_free(run);
		run = c;
		*rec = r;
		best = t;
		snprintf(best_name, sizeof best_name, "%s", e->d_name);
		run->path = best_name;
	}
	if (d)
		closedir(d);
	return run;
}

struct ptb_runfile *ptb_measured_levels(const char *path, const char *host,
					const struct ptb_record **rec, char *err,
					size_t errlen)
{
	struct ptb_runfile *run;
	*rec = NULL;
	err[0] = 0;
	if (!path)
		return newest_here(host, rec);
	if (!(run = ptb_runfile_load(path, err, errlen)))
		return NULL;
	if (!(*rec = levels_of(run))) {
		ptb_runfile_free(run);
		return NULL;
	}
	return run;
}
