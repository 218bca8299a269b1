/* SPDX-License-Identifier: MIT */
/*
 * Result files, schema "ptbench/1" (DESIGN.md section 6): the records of
 * measured points, the run document around them, writing it so that a
 * crash never leaves half a file, and reading a file back with every field
 * the readers use checked.  The reader is the gate in front of `report`,
 * `table` and `compare`: whatever bytes it is given, it either returns a
 * document those can walk without further checks or says in one line what
 * is wrong, and it never crashes.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/result.h"

/* ---- records ------------------------------------------------------------ */

/* JSON has no NaN or infinity: a statistic that is undefined is null. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *text(const char *s)
{
	json_t *j = s && *s ? json_string(s) : NULL;
	return j ? j : json_null();
}

static json_t *record_head(const char *bench, json_t *params, enum ptb_status status,
			   const char *reason)
{
	json_t *r = json_object();
	json_object_set_new(r, "bench", text(bench));
	json_object_set_new(r, "params", params ? params : json_object());
	json_object_set_new(r, "status", text(ptb_status_name(status)));
	json_object_set_new(r, "reason", text(reason));
	return r;
}

static json_t *point_params(const struct ptb_point *p)
{
	json_t *o = json_object();
	for (int i = 0; i < PTB_MAX_PARAMS && p->bench->params && p->bench->params[i].name; i++)
		if (p->value[i])
			json_object_set_new(o, p->bench->params[i].name, text(p->value[i]));
	return o;
}

static json_t *binding(const struct ptb_point *p)
{
	json_t *clients = json_array();
	int n = p->nclient_bindings < PTB_MAX_CLIENTS ? p->nclient_bindings : PTB_MAX_CLIENTS;
	for (int i = 0; i < n; i++)
		json_array_append_new(clients, text(p->binding_client[i]));
	return json_pack("{s:s, s:o}", "main", p->binding_main, "clients", clients);
}

static json_t *notes(const struct ptb_point *p)
{
	json_t *o = json_object();
	int n = p->nnotes < PTB_MAX_NOTES ? p->nnotes : PTB_MAX_NOTES;
	for (int i = 0; i < n; i++)
		if (p->note_key[i])
			json_object_set_new(o, p->note_key[i], p->note_text[i] ?
					    json_string(p->note_text[i]) : num(p->note_val[i]));
	return o;
}

static void add_measurement(json_t *r, const struct ptb_point *p,
			    const struct ptb_measurement *m, enum ptb_stop_rule rule)
{
	const struct ptb_stats *s = &m->stats;
	json_object_set_new(r, "iterations", json_integer((json_int_t)m->iterations));
	json_object_set_new(r, "timings", json_integer(m->timings));
	json_object_set_new(r, "stop", text(ptb_stop_why_name(m->stop, rule)));
	json_object_set_new(r, "mean", num(s->mean));
	json_object_set_new(r, "sd", num(s->sd));
	json_object_set_new(r, "cv_pct", num(s->cv_pct));
	json_object_set_new(r, "median", num(s->median));
	json_object_set_new(r, "ci95", json_pack("[o, o]", num(s->ci_lo), num(s->ci_hi)));
	json_object_set_new(r, "min", num(s->min));
	json_object_set_new(r, "max", num(s->max));
	json_object_set_new(r, "outliers", json_integer(s->outliers));
	json_object_set_new(r, "binding", binding(p));
	if (p->nnotes > 0)
		json_object_set_new(r, "notes", notes(p));
	json_t *samples = json_array();
	for (int i = 0; m->samples && i < m->timings; i++)
		json_array_append_new(samples, num(m->samples[i]));
	json_object_set_new(r, "samples", samples);
}

json_t *ptb_result_json(const struct ptb_point *p, enum ptb_status status,
			const char *reason, const struct ptb_measurement *m,
			enum ptb_stop_rule rule)
{
	json_t *r = record_head(p->bench->name, point_params(p), status, reason);
	json_object_set_new(r, "unit", json_string("ns"));
	json_object_set_new(r, "per", text(p->bench->per));
	if (m)
		add_measurement(r, p, m, rule);
	else if (p->nnotes > 0)
		json_object_set_new(r, "notes", notes(p));
	return r;
}

json_t *ptb_result_json_bare(const char *bench, json_t *params, enum ptb_status status,
			     const char *reason)
{
	return record_head(bench, params, status, reason);
}

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

/* One line, whatever a file name or a parser message contains. */
__attribute__((format(printf, 3, 4)))
static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	for (char *c = err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
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

/* The temporary file is in the target's directory so that rename(2) is
 * atomic; whatever fails, it is removed and the target left as it was. */
int ptb_run_write_atomic(const json_t *run, const char *path, char *err, size_t errlen)
{
	char tmp[4096];
	FILE *f;
	int fd;
	if (!json_is_object(run)) {
		say(err, errlen, "%s: not written: the document is not a run", path);
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
		say(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
		say(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!(f = fdopen(fd, "w"))) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		say(err, errlen, "%s: %s", path, strerror(saved));
		return -1;
	}
	errno = EIO;    /* a dump that fails for want of memory sets none */
	bool ok = ptb_run_dump(f, run) == 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
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
		say(err, errlen, "%s: %s", path, strerror(saved));
		return -1;
	}
	sync_dir_of(path);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static const char *const run_statuses[] = { "complete", "interrupted", "running" };

/* Where in the document a check is, for its message ("results[3]"). */
struct check {
	char *err;
	size_t errlen;
	char where[48];
};

__attribute__((format(printf, 2, 3)))
static int bad(struct check *c, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	say(c->err, c->errlen, "%s%s%s", c->where, *c->where ? ": " : "", msg);
	return -1;
}

enum kind { K_STRING, K_NUMBER, K_OBJECT, K_ARRAY, K_SCALAR };

static const char *const kind_name[] = {
	[K_STRING] = "a string", [K_NUMBER] = "a number",
	[K_OBJECT] = "an object", [K_ARRAY] = "an array",
	[K_SCALAR] = "a number or a string",
};

static bool is_kind(const json_t *v, enum kind k)
{
	switch (k) {
	case K_STRING: return json_is_string(v);
	case K_NUMBER: return json_is_number(v);
	case K_OBJECT: return json_is_object(v);
	case K_ARRAY:  return json_is_array(v);
	case K_SCALAR: return json_is_number(v) || json_is_string(v);
	}
	return false;
}

/*
 * When a field must be there and not null: always, for every point with a
 * value (ok, unstable), or only for those ptbench measured itself -- a
 * figure transcribed from a publication (a record with a "source", like
 * the paper's Table 1 in results/) has a mean but no samples to give.
 */
enum need { OPTIONAL, ALWAYS, MEASURED, SAMPLED };
enum origin { NO_VALUE, PUBLISHED, SAMPLES };

/* A field's presence and type; unless `need` requires it for this record,
 * it may be absent or null. */
static int field(struct check *c, const json_t *obj, const char *key, enum kind k,
		 enum need need, enum origin origin)
{
	const json_t *v = json_object_get(obj, key);
	bool required = need == ALWAYS || (need == MEASURED && origin != NO_VALUE) ||
			(need == SAMPLED && origin == SAMPLES);
	if (!v)
		return required ? bad(c, "missing field '%s'", key) : 0;
	if (json_is_null(v))
		return required ? bad(c, "field '%s' is null", key) : 0;
	return is_kind(v, k) ? 0 : bad(c, "field '%s' is not %s", key, kind_name[k]);
}

/* Every element of an array (or member of an object) of one kind. */
static int members(struct check *c, const json_t *v, const char *name, enum kind k,
		   bool nullable)
{
	const char *key;
	json_t *e;
	size_t i;
	json_array_foreach(v, i, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return bad(c, "%s[%zu] is not %s", name, i, kind_name[k]);
	json_object_foreach((json_t *)v, key, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return bad(c, "%s.%s is not %s", name, key, kind_name[k]);
	return 0;
}

/* The fields of a measured point's record, in file order. */
static const struct field_rule {
	const char *key;
	enum kind kind;
	enum need need;
} measured_fields[] = {
	/* key          kind       need */
	{ "per",        K_STRING,  OPTIONAL },
	{ "iterations", K_NUMBER,  OPTIONAL },
	{ "timings",    K_NUMBER,  OPTIONAL },
	{ "stop",       K_STRING,  OPTIONAL },
	{ "mean",       K_NUMBER,  MEASURED },
	{ "sd",         K_NUMBER,  OPTIONAL },
	{ "cv_pct",     K_NUMBER,  OPTIONAL },
	{ "median",     K_NUMBER,  SAMPLED },
	{ "ci95",       K_ARRAY,   OPTIONAL },
	{ "min",        K_NUMBER,  OPTIONAL },
	{ "max",        K_NUMBER,  OPTIONAL },
	{ "outliers",   K_NUMBER,  OPTIONAL },
	{ "binding",    K_OBJECT,  OPTIONAL },
	{ "notes",      K_OBJECT,  OPTIONAL },
	{ "samples",    K_ARRAY,   SAMPLED },
}, logp_fields[] = {
	/* key          kind       need */
	{ "o_s",        K_NUMBER,  OPTIONAL },
	{ "o_r",        K_NUMBER,  OPTIONAL },
	{ "rtt",        K_NUMBER,  OPTIONAL },
	{ "L",          K_NUMBER,  OPTIONAL },
	{ "g",          K_NUMBER,  OPTIONAL },
	{ "inputs",     K_OBJECT,  OPTIONAL },
};

static int fields(struct check *c, const json_t *rec, const struct field_rule *f, size_t n,
		  enum origin origin)
{
	for (size_t i = 0; i < n; i++)
		if (field(c, rec, f[i].key, f[i].kind, f[i].need, origin) < 0)
			return -1;
	return 0;
}

static int check_status(struct check *c, const char *status)
{
	for (enum ptb_status s = PTB_OK; s <= PTB_ERROR; s++)
		if (!strcmp(status, ptb_status_name(s)))
			return 0;
	return bad(c, "status '%.40s' is not one of ok, unstable, na, timeout, crashed, error",
		   status);
}

/* A per-iteration time is a duration: not negative, and under the 1e15 ns
 * (11 days) that keeps every sum and difference the readers form finite. */
#define PTB_SAMPLE_MAX_NS 1e15

static int samples_in_range(struct check *c, const json_t *samples)
{
	const json_t *e;
	size_t i;
	json_array_foreach(samples, i, e) {
		double v = json_number_value(e);
		if (!(v >= 0 && v <= PTB_SAMPLE_MAX_NS))
			return bad(c, "samples[%zu] = %g is not a duration in [0, %g] ns", i, v,
				   PTB_SAMPLE_MAX_NS);
	}
	return 0;
}

static int check_measured(struct check *c, const json_t *rec, enum origin origin)
{
	const json_t *ci = json_object_get(rec, "ci95");
	const json_t *bind = json_object_get(rec, "binding");
	const json_t *unit = json_object_get(rec, "unit");
	if (fields(c, rec, measured_fields, sizeof measured_fields / sizeof *measured_fields,
		   origin) < 0)
		return -1;
	if (json_is_string(unit) && strcmp(json_string_value(unit), "ns"))
		return bad(c, "unit '%.20s' is not ns", json_string_value(unit));
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return bad(c, "field 'ci95' is not a pair");
	if (members(c, ci, "ci95", K_NUMBER, true) < 0 ||
	    members(c, json_object_get(rec, "samples"), "samples", K_NUMBER, false) < 0 ||
	    samples_in_range(c, json_object_get(rec, "samples")) < 0 ||
	    field(c, bind, "main", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, bind, "clients", K_ARRAY, OPTIONAL, NO_VALUE) < 0 ||
	    members(c, json_object_get(bind, "clients"), "binding.clients", K_STRING, false) < 0)
		return -1;
	return members(c, json_object_get(rec, "notes"), "notes", K_SCALAR, true);
}

static int check_record(struct check *c, const json_t *rec)
{
	if (!json_is_object(rec))
		return bad(c, "not an object");
	if (field(c, rec, "bench", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, rec, "params", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    members(c, json_object_get(rec, "params"), "params", K_STRING, false) < 0 ||
	    field(c, rec, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, rec, "reason", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, rec, "unit", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, rec, "source", K_STRING, OPTIONAL, NO_VALUE) < 0)
		return -1;
	const char *bench = json_string_value(json_object_get(rec, "bench"));
	const char *status = json_string_value(json_object_get(rec, "status"));
	if (check_status(c, status) < 0)
		return -1;
	if (!strncmp(bench, "logp.", 5))
		return fields(c, rec, logp_fields, sizeof logp_fields / sizeof *logp_fields, NO_VALUE) < 0
			? -1 : members(c, json_object_get(rec, "inputs"), "inputs", K_STRING, false);
	bool valued = !strcmp(status, "ok") || !strcmp(status, "unstable");
	return check_measured(c, rec, !valued ? NO_VALUE
				      : json_object_get(rec, "source") ? PUBLISHED : SAMPLES);
}

static int check_context(struct check *c, const json_t *ctx)
{
	snprintf(c->where, sizeof c->where, "context");
	if (field(c, ctx, "host", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, ctx, "cpu", K_OBJECT, ALWAYS, NO_VALUE) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "context.cpu");
	return field(c, json_object_get(ctx, "cpu"), "brand", K_STRING, ALWAYS, NO_VALUE);
}

static int check_header(struct check *c, const json_t *run)
{
	const json_t *schema = json_object_get(run, "schema");
	const char *status = json_string_value(json_object_get(run, "status"));
	if (!json_is_object(run))
		return bad(c, "not a %s result file (not a JSON object)", PTB_SCHEMA);
	if (!schema)
		return bad(c, "not a %s result file (no schema)", PTB_SCHEMA);
	if (!json_is_string(schema) || strcmp(json_string_value(schema), PTB_SCHEMA))
		return bad(c, "not a %s result file (schema %s)", PTB_SCHEMA,
			   json_is_string(schema) ? json_string_value(schema) : "is not a string");
	if (field(c, run, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, run, "version", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, run, "context", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    field(c, run, "results", K_ARRAY, ALWAYS, NO_VALUE) < 0)
		return -1;
	for (size_t i = 0; i < sizeof run_statuses / sizeof *run_statuses; i++)
		if (!strcmp(status, run_statuses[i]))
			return 0;
	return bad(c, "status '%.40s' is not one of complete, interrupted, running", status);
}

int ptb_run_validate(const json_t *run, char *err, size_t errlen)
{
	struct check c = { err, errlen, "" };
	const json_t *rec;
	size_t i;
	if (check_header(&c, run) < 0 || check_context(&c, json_object_get(run, "context")) < 0)
		return -1;
	json_array_foreach(json_object_get(run, "results"), i, rec) {
		snprintf(c.where, sizeof c.where, "results[%zu]", i);
		if (check_record(&c, rec) < 0)
			return -1;
	}
	return 0;
}

json_t *ptb_run_load(const char *path, char *err, size_t errlen)
{
	struct stat st;
	json_error_t je;
	char why[400];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		say(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *refuse = S_ISDIR(st.st_mode) ? "is a directory"
			   : S_ISREG(st.st_mode) && st.st_size == 0 ? "empty file" : NULL;
	FILE *f = refuse ? NULL : fdopen(fd, "r");
	if (!f) {
		say(err, errlen, "%s: %s", path, refuse ? refuse : strerror(errno));
		close(fd);
		return NULL;
	}
	json_t *run = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!run) {
		if (je.position == 0)
			say(err, errlen, "%s: empty file", path);
		else
			say(err, errlen, "%s: not JSON (line %d: %s)", path, je.line, je.text);
		return NULL;
	}
	if (ptb_run_validate(run, why, sizeof why) < 0) {
		say(err, errlen, "%s: %s", path, why);
		json_decref(run);
		return NULL;
	}
	return run;
}
