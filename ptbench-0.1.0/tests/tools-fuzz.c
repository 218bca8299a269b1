/* SPDX-License-Identifier: MIT */
/*
 * Fuzz-style robustness of everything that reads result files: random bytes,
 * byte-level mutations of valid files (flips, cuts, duplicated stretches,
 * stray JSON tokens, truncation) and structural mutations (any value of a
 * valid document replaced by a value of another type, or removed) go through
 * ptb_run_load / ptb_run_validate and, when they load, through `ptbench
 * table` in every format and `ptbench compare` against a valid run.  Nothing
 * may crash; a refused file gets a one-line error; the commands return only
 * their documented exit statuses.  Fixed seed, a few thousand cases.
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "record/runfile.h"
#include "record/validate.h"
#include "fuzz.h"
#include "tap.h"


#define CASES_RANDOM     800
#define CASES_BYTES      1500
#define CASES_STRUCTURE  1200

struct stats {
	int loaded, refused, bad_error, bad_status;
};

static char path[256];
static const char *valid_path;
static int quiet_fd = -1, saved_out = -1, saved_err = -1;

/* The commands print; the test's own TAP lines must not mix with that. */
static void mute(int on)
{
	fflush(stdout);
	fflush(stderr);
	if (on) {
		dup2(quiet_fd, 1);
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

/* Every value of a document, for picking one at random. */
struct node {
	json_t *parent;
	const char *key;   /* NULL: array element */
	size_t index;
};

static void collect(json_t *v, struct node *nodes, size_t *n, size_t cap)
{
	const char *key;
	json_t *e;
	size_t i;
	json_object_foreach(v, key, e) {
		if (*n < cap)
			nodes[(*n)++] = (struct node){ v, key, 0 };
		collect(e, nodes, n, cap);
	}
	json_array_foreach(v, i, e) {
		if (*n < cap)
			nodes[(*n)++] = (struct node){ v, NULL, i };
		collect(e, nodes, n, cap);
	}
}

static json_t *random_value(void)
{
	static const char *const texts[] = { "", "ok", "na", "unstable", "logp.mutex", "x" };
	switch (below(9)) {
	case 0: return json_null();
	case 1: return json_true();
	case 2: return json_integer((json_int_t)below(5) - 2);
	case 3: return json_real(below(2) ? 1e308 : -0.5);
	case 4: return json_string(texts[below(6)]);
	case 5: return json_array();
	case 6: return json_object();
	case 7: return json_pack("[i, s, n]", 1, "a");
	default: return json_pack("{s:i}", "a", 1);
	}
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

int main(void)
{
	const char *data = getenv("TESTDATA"), *top = getenv("top_srcdir");
	char tmpl[] = "/tmp/ptb-fuzz-XXXXXX", f1[512], f2[512], f3[512];
	if (!data || !top)
		tap_skip_all("TESTDATA and top_srcdir not set");
	snprintf(f1, sizeof f1, "%s/tools-table-a.json", data);
	snprintf(f2, sizeof f2, "%s/tools-base.json", data);
	snprintf(f3, sizeof f3, "%s/results/1999-de-supinski-may/ibm-sp2-604e.json", top);
	const char *const files[] = { f1, f2, f3 };
	valid_path = f2;
	if (!mkdtemp(tmpl))
		return 1;
	snprintf(path, sizeof path, "%s/case.json", tmpl);
	quiet_fd = open("/dev/null", O_WRONLY);
	saved_out = dup(1);
	saved_err = dup(2);

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
	rmdir(tmpl);
	tap_done();
	return tap_exit();
}
