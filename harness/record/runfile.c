/* SPDX-License-Identifier: MIT */
/*
 * Result files on disk: the run document, written so that a crash never
 * leaves half a file (a temporary file in the same folder, fsync, rename),
 * one record per line so that files stay greppable and diffable per point;
 * and read back, parsed and validated (record/validate.c) so that every
 * reader gets either a document it can walk or one line saying what is
 * wrong.  The schema is described in docs/design.md.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/runfile.h"
#include "record/target.h"
#include "record/validate.h"
#include "text/text.h"

json_t *ptb_run_new(json_t *context)
{
	return json_pack("{s:s, s:s, s:s, s:o, s:[]}", "schema", PTB_SCHEMA,
			 "version", PACKAGE_VERSION, "status", "running",
			 "context", context ? context : json_object(), "results");
}

/* ---- writing ------------------------------------------------------------ */

/* A value as JSON text, each line after the first prefixed by indent. */
static int dump_value(FILE *out, const json_t *v, size_t flags, const char *indent)
{
	char *s = json_dumps(v, flags | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
	if (!s)
		return -1;
	for (char *p = s, *nl;; p = nl + 1) {
		nl = strchr(p, '\n');
		fwrite(p, 1, nl ? (size_t)(nl - p) : strlen(p), out);
		if (!nl)
			break;
		fprintf(out, "\n%s", indent);
	}
	free(s);
	return 0;
}

/* One record per line: a file stays greppable and diffable per point. */
static int dump_records(FILE *out, const json_t *results)
{
	size_t i, n = json_array_size(results);
	json_t *rec;
	int rc = 0;
	fputs("[\n", out);
	json_array_foreach(results, i, rec) {
		fputs("    ", out);
		rc |= dump_value(out, rec, JSON_COMPACT, "");
		fputs(i + 1 < n ? ",\n" : "\n", out);
	}
	fputs("  ]", out);
	return rc;
}

int ptb_run_dump(FILE *out, const json_t *run)
{
	const char *key;
	json_t *v;
	int rc = 0;
	if (!json_is_object(run))
		return -1;
	if (json_object_size(run) == 0)
		return fputs("{}\n", out) == EOF ? -1 : 0;
	fputs("{\n", out);
	json_object_foreach((json_t *)run, key, v) {
		json_t *k = json_string(key);
		fputs("  ", out);
		rc |= dump_value(out, k, 0, "");
		json_decref(k);
		fputs(": ", out);
		if (!strcmp(key, "results") && json_array_size(v) > 0)
			rc |= dump_records(out, v);
		else
			rc |= dump_value(out, v, JSON_INDENT(2), "  ");
		fputs(json_object_iter_next((json_t *)run, json_object_key_to_iter(key)) ? ",\n" : "\n",
		      out);
	}
	fputs("}\n", out);
	return rc || ferror(out) ? -1 : 0;
}

/* Make the rename itself durable; the data already is (fsync). */
static void sync_dir_of(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* What a writer puts in the temporary file: 0, or -1 on a write error. */
typedef int (*emit_fn)(FILE *out, const void *what);

static int emit_run(FILE *out, const void *run)
{
	return ptb_run_dump(out, run);
}

struct text { const char *s; size_t len; };

static int emit_text(FILE *out, const void *what)
{
	const struct text *t = what;
	return fwrite(t->s, 1, t->len, out) == t->len ? 0 : -1;
}

/* The temporary file is in the target's directory so that rename(2) is
 * atomic; whatever fails, it is removed and the target left as it was. */
static int write_atomic(const char *path, emit_fn emit, const void *what, char *err,
			size_t errlen)
{
	char tmp[4096];
	FILE *f;
	int fd;
	if (ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp) < 0) {
		ptb_errf(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
		ptb_errf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!(f = fdopen(fd, "w"))) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		ptb_errf(err, errlen, "%s: %s", path, strerror(saved));
		return -1;
	}
	errno = EIO;    /* a dump that fails for want of memory sets none */
	bool ok = emit(f, what) == 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
	int saved = errno;
	if (fclose(f) && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && rename(tmp, path)) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		unlink(tmp);
		ptb_errf(err, errlen, "%s: %s", path, strerror(saved));
		return -1;
	}
	sync_dir_of(path);
	return 0;
}

int ptb_run_write_atomic(const json_t *run, const char *path, char *err, size_t errlen)
{
	if (!json_is_object(run)) {
		ptb_errf(err, errlen, "%s: not written: the document is not a run", path);
		return -1;
	}
	return write_atomic(path, emit_run, run, err, errlen);
}

int ptb_text_write_atomic(const char *text, size_t len, const char *path, char *err,
			  size_t errlen)
{
	struct text t = { text, len };
	return write_atomic(path, emit_text, &t, err, errlen);
}


/* Why a file that is not a regular one, or an empty one, is no result
 * file; NULL when it may be read.  Opened without blocking, a FIFO or a
 * terminal is refused instead of waited on. */
static const char *unreadable(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "is a directory";
	if (!S_ISREG(st->st_mode))
		return S_ISFIFO(st->st_mode) ? "is a FIFO, not a result file"
		     : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "is a device, not a result file"
		     : "is not a regular file";
	return st->st_size == 0 ? "empty file" : NULL;
}

/* The whole file, NUL-terminated, in a malloc'd buffer; NULL with errno. */
static char *read_all(int fd, size_t hint, size_t *len)
{
	size_t cap = hint + 1, n = 0;
	char *buf = malloc(cap + 1);
	for (ssize_t got; buf; n += (size_t)got) {
		if (n == cap) {
			char *more = realloc(buf, 2 * cap + 1);
			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
		if ((got = read(fd, buf + n, cap - n)) <= 0) {
			if (got == 0) {
				buf[n] = 0;
				*len = n;
				return buf;
			}
			if (errno == EINTR) {
				got = 0;
				continue;
			}
			break;
		}
	}
	int saved = buf ? errno : ENOMEM;
	free(buf);
	errno = saved;
	return NULL;
}

/* Why text that jansson refused is no JSON: where its first byte that is
 * not UTF-8 is, when it has one (jansson's position for it is 0, which
 * once read as an empty file), else the parser's line, column and words. */
static void not_json(const char *path, const char *buf, size_t len, const json_error_t *je,
		     char *err, size_t errlen)
{
	for (size_t i = 0, n; i < len; i += n)
		if (!(n = buf[i] ? ptb_utf8_len(buf + i) : 0)) {
			ptb_errf(err, errlen, "%s: not a result file: byte %zu (0x%02x) is %s", path,
				 i + 1, (unsigned char)buf[i],
				 buf[i] ? "not UTF-8 text" : "a NUL, not text");
			return;
		}
	ptb_errf(err, errlen, "%s: not JSON (line %d, column %d: %s)", path, je->line, je->column,
		 je->text);
}

json_t *ptb_json_load(const char *path, char *err, size_t errlen)
{
	struct stat st;
	json_error_t je;
	char *text = NULL;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ptb_errf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *refuse = unreadable(&st);
	if (!refuse && !(text = read_all(fd, (size_t)st.st_size, &len)))
		refuse = strerror(errno);
	close(fd);
	if (refuse) {
		ptb_errf(err, errlen, "%s: %s", path, refuse);
		return NULL;
	}
	json_t *run = len ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je) : NULL;
	if (!run) {
		if (len)
			not_json(path, text, len, &je, err, errlen);
		else
			ptb_errf(err, errlen, "%s: empty file", path);
		free(text);
		return NULL;
	}
	free(text);
	return run;
}

json_t *ptb_doc_load(const char *path, int (*validate)(const json_t *doc, char *err, size_t errlen),
		     char *err, size_t errlen)
{
	char why[400];
	json_t *doc = ptb_json_load(path, err, errlen);
	if (doc && validate(doc, why, sizeof why) < 0) {
		ptb_errf(err, errlen, "%s: %s", path, why);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

json_t *ptb_run_load(const char *path, char *err, size_t errlen)
{
	return ptb_doc_load(path, ptb_run_validate, err, errlen);
}
