/* SPDX-License-Identifier: MIT */
/*
 * Result files: a record built from a point survives an atomic write and a
 * load unchanged; a failed write leaves no temporary file behind; every
 * kind of bad file is refused with one line naming it; and no mutation of
 * a valid file makes the reader or a reporter crash.
 */
#include <config.h>

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/model.h"
#include "record/runfile.h"
#include "record/validate.h"
#include "report/report.h"
#include "run/record.h"
#include "tap.h"

static char dir[64];

static const char *in_dir(const char *name)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	fwrite(text, 1, len, f);
	fclose(f);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	if (f) {
		fseek(f, 0, SEEK_END);
		*len = (size_t)ftell(f);
		rewind(f);
		buf = malloc(*len + 1);
		*len = fread(buf, 1, *len, f);
		buf[*len] = 0;
		fclose(f);
	}
	return buf;
}

/* Files in a directory whose name contains ".tmp.". */
static int temp_files(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	if (d)
		closedir(d);
	return n;
}

static const struct ptb_param bench_params[] = {
	{ "placement", "unbound,same_pu,cross_core", "cross_core", 0, 0, "where", 0 },
	{ "mutexes", NULL, "1024", 1, 1 << 20, "how many", 0 },
	{ 0 },
};
static const struct ptb_bench bench = {
	.name = "mutex.test", .summary = "a test", .per = "ping-pong",
	.ops_per_iter = 4, .params = bench_params,
};

static json_t *context(void)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s}}", "date", "2026-01-01T00:00:00Z",
			 "host", "test-host", "cpu", "vendor", "Example", "brand", "Example CPU");
}

/* A trial as a worker sends it and the runner keeps it. */
static json_t *trial(const struct ptb_point *p, struct ptb_measurement *m, int round)
{
	json_t *t = ptb_result_json(p, PTB_OK, NULL, m, PTB_STOP_SD);
	json_object_set_new(t, "worker", json_integer(1000 + round));
	ptb_trial_trim(t, round);
	return t;
}

/* A run of three records: measured in six trials (each with an undefined
 * statistic, which must become null), never ran, and failed after setup. */
static json_t *sample_run(void)
{
	double samples[] = { 120.5, 119.75, 121.25, 120.125 };
	struct ptb_point p = { .bench = &bench, .value = { "cross_core", "16" },
			       .nclient_bindings = 1, .nnotes = 2 };
	struct ptb_measurement m = { .iterations = 4096, .timings = 4, .samples = samples,
				     .stop = PTB_STOPPED_RULE };
	ptb_stats_compute(samples, 4, &m.stats);
	m.stats.cv_pct = NAN;
	snprintf(p.binding_main, sizeof p.binding_main, "0");
	snprintf(p.binding_client[0], sizeof p.binding_client[0], "1");
	p.note_key[0] = "switches";
	p.note_val[0] = 8192;
	p.note_key[1] = "scheduler";
	p.note_text[1] = "EEVDF";

	json_t *run = ptb_run_new(context());
	json_t *results = json_object_get(run, "results");
	json_t *trials = json_array();
	double est[6];
	for (int i = 0; i < 6; i++) {
		m.stats.mean = est[i] = 120 + i;
		json_array_append_new(trials, trial(&p, &m, i + 1));
	}
	json_array_append_new(results, ptb_point_record(&bench, json_pack("{s:s, s:s}",
		"placement", "cross_core", "mutexes", "16"), trials, est, 6, "budget", 2, 0, PTB_OK, ""));
	json_array_append_new(results, ptb_result_json_bare("mutex.test",
		json_pack("{s:s}", "placement", "same_pu"), PTB_TIMEOUT, "no progress in 60 s"));
	json_t *na = json_array();
	json_array_append_new(na, ptb_result_json(&p, PTB_NA, "needs 2 cores", NULL, PTB_STOP_SD));
	json_array_append_new(results, ptb_point_record(&bench, json_pack("{s:s}", "placement",
		"unbound"), na, NULL, 0, "failed", 2, 0, PTB_NA, "needs 2 cores"));
	json_object_set_new(run, "status", json_string("complete"));
	return run;
}

static void test_record(void)
{
	json_t *run = sample_run(), *rec = json_array_get(json_object_get(run, "results"), 0);
	char err[256] = "";
	tap_ok(ptb_run_validate(run, err, sizeof err) == 2, "a built run validates as ptbench/2 (%s)", err);
	json_t *t0 = json_array_get(json_object_get(rec, "trials"), 0);
	tap_ok(!strcmp(ptb_jstr(rec, "bench"), "mutex.test") &&
	       !strcmp(ptb_jstr(json_object_get(rec, "params"), "mutexes"), "16") &&
	       !strcmp(ptb_jstr(rec, "stop"), "budget") && !strcmp(ptb_jstr(rec, "per"), "ping-pong"),
	       "record carries bench, params, why it stopped and per");
	tap_near(ptb_jnum(rec, "value"), 122.5, 1e-9, "value: the median of the six trials");
	tap_ok(ptb_jnum(json_array_get(json_object_get(rec, "ci95"), 0), "") != 0 &&
	       json_number_value(json_array_get(json_object_get(rec, "ci95"), 0)) == 120 &&
	       json_number_value(json_array_get(json_object_get(rec, "ci95"), 1)) == 125,
	       "ci95: six trials give the interval from the smallest to the largest");
	tap_near(ptb_jnum(rec, "ci_level"), 1 - 2.0 / 64, 1e-12, "its exact level, 1 - 2/2^6");
	tap_ok(!strcmp(ptb_jstr(rec, "status"), "unstable") && strstr(ptb_jstr(rec, "reason"), "+-2.0 %"),
	       "a CI of +-2.04 %% is wider than a 2 %% target: unstable, saying so (%s)",
	       ptb_jstr(rec, "reason"));
	tap_ok(json_array_size(json_object_get(rec, "trials")) == 6 &&
	       !json_object_get(t0, "bench") && !json_object_get(t0, "params") &&
	       ptb_jnum(t0, "worker") == 1001 && ptb_jnum(t0, "round") == 1 &&
	       !strcmp(ptb_jstr(t0, "stop"), "sd"),
	       "every trial is kept, with its worker, round and stop rule, without the point's fields");
	tap_ok(json_is_null(json_object_get(t0, "cv_pct")), "an undefined statistic is null");
	tap_ok(json_array_size(json_object_get(t0, "samples")) == 4 &&
	       !strcmp(json_string_value(json_array_get(json_object_get(json_object_get(rec,
			"binding"), "clients"), 0)), "1"),
	       "a trial carries its samples, the point its typical trial's binding");
	tap_near(ptb_jnum(json_object_get(rec, "notes"), "switches"), 8192, 0, "record carries notes");
	tap_ok(!strcmp(ptb_jstr(json_object_get(rec, "notes"), "scheduler") ?: "", "EEVDF"),
	       "record carries text notes as strings");
	rec = json_array_get(json_object_get(run, "results"), 2);
	tap_ok(!strcmp(ptb_jstr(rec, "status"), "na") && !json_object_get(rec, "value") &&
	       !strcmp(ptb_jstr(rec, "reason"), "needs 2 cores"),
	       "a point without timings has a reason and no figures");
	json_decref(run);
}

static void test_round_trip(void)
{
	json_t *run = sample_run(), *back;
	char err[256] = "";
	size_t len;
	const char *path = in_dir("run.json");
	tap_ok(ptb_run_write_atomic(run, path, err, sizeof err) == 0, "atomic write (%s)", err);
	tap_ok(temp_files(dir) == 0, "no temporary file left after a write");
	back = ptb_run_load(path, err, sizeof err);
	tap_ok(back && json_equal(run, back), "what was written loads back equal (%s)", err);

	/* The JSON reporter prints exactly the file. */
	char *file = read_file(path, &len);
	FILE *mem = fopen(in_dir("report.json"), "w");
	struct ptb_runfile *model = ptb_runfile_of(back, NULL, 0);
	ptb_report(mem, model, PTB_FMT_JSON);
	ptb_runfile_free(model);
	fclose(mem);
	size_t rlen;
	char *report = read_file(in_dir("report.json"), &rlen);
	tap_ok(file && report && len == rlen && !memcmp(file, report, len),
	       "the json format is the file's bytes");
	tap_ok(file && strstr(file, "\n    {\"bench\":\"mutex.test\",\"params\":{\"placement\":"
			      "\"cross_core\",\"mutexes\":\"16\"},\"status\":\"unstable\""),
	       "one record per line, keys in insertion order");

	/* Writing over an existing file replaces it. */
	json_object_set_new(run, "status", json_string("interrupted"));
	ptb_run_write_atomic(run, path, err, sizeof err);
	json_decref(back);
	back = ptb_run_load(path, err, sizeof err);
	tap_ok(back && !strcmp(ptb_jstr(back, "status"), "interrupted"), "a rewrite replaces the file");
	free(file);
	free(report);
	json_decref(back);
	json_decref(run);
}

static void test_write_failures(void)
{
	json_t *run = sample_run();
	char err[256] = "";
	int rc = ptb_run_write_atomic(run, in_dir("no/such/dir/run.json"), err, sizeof err);
	tap_ok(rc < 0 && strstr(err, "no/such/dir/run.json") && strstr(err, "No such file"),
	       "a path in a missing directory fails: %s", err);

	/* rename(2) onto a directory fails after the temporary file exists. */
	mkdir(in_dir("occupied"), 0755);
	err[0] = 0;
	rc = ptb_run_write_atomic(run, in_dir("occupied"), err, sizeof err);
	tap_ok(rc < 0 && strstr(err, "occupied"), "writing over a directory fails: %s", err);
	tap_ok(temp_files(dir) == 0, "and leaves no temporary file");

	json_t *not_run = json_array();
	rc = ptb_run_write_atomic(not_run, in_dir("array.json"), err, sizeof err);
	tap_ok(rc < 0 && temp_files(dir) == 0 && access(in_dir("array.json"), F_OK) != 0,
	       "a document that is not a run is not written: %s", err);
	json_decref(not_run);
	json_decref(run);
}

/* Bad files: each refused with one line that names the file and says why. */
static const struct bad_file {
	const char *name;
	const char *text;       /* NULL: the name is a directory */
	const char *says;
} bad_files[] = {
	/* name             text                                                         says */
	{ "garbage.json",   "this is not json\n",                                        "not JSON (line 1, column " },
	{ "empty.json",     "",                                                          "empty file" },
	{ "blank.json",     "\n",                                                        "not JSON (line 2, column " },
	{ "truncated.json", "{\"schema\": \"ptbench/1\", \"results\": [\n{\"bench\":",   "not JSON (line 2, column " },
	{ "latin1.json",    "\xd1 {}",                                                   "not a result file: byte 1 (0xd1) is not UTF-8 text" },
	{ "latin1b.json",   "{\"schema\": \"\xe9\"}",                                      "byte 13 (0xe9) is not UTF-8 text" },
	{ "dupkey.json",    "{\"schema\": \"ptbench/1\", \"schema\": \"x\"}",            "duplicate object key" },
	{ "array.json",     "[1, 2]",                                                    "not a ptbench result file (not a JSON object)" },
	{ "noschema.json",  "{\"results\": []}",                                         "not a ptbench result file (no schema)" },
	{ "schema.json",    "{\"schema\": \"gbench/1\"}",                                "not a ptbench/1 or ptbench/2 result file (schema gbench/1)" },
	{ "schema2.json",   "{\"schema\": 1}",                                           "not a ptbench/1 or ptbench/2 result file (schema is not a string)" },
	{ "dir.json",       NULL,                                                        "is a directory" },
	{ "nl\nname.json",  "{}",                                                        "not a ptbench result file" },
};

#define HEAD "{\"schema\": \"ptbench/1\", \"status\": \"complete\", " \
	"\"context\": {\"host\": \"h\", \"cpu\": {\"brand\": \"b\"}}, \"results\": ["
#define HEAD2 "{\"schema\": \"ptbench/2\", \"status\": \"complete\", " \
	"\"context\": {\"host\": \"h\", \"cpu\": {\"brand\": \"b\"}}, \"results\": ["
#define OK_REC "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, " \
	"\"median\": 1, \"samples\": [1]}"

/* Valid files but for one field: the message names the record and field. */
static const struct bad_field {
	const char *text;
	const char *says;
} bad_fields[] = {
	/* text                                                                                 says */
	{ "{\"schema\": \"ptbench/1\", \"status\": \"complete\", \"results\": []}",             "missing field 'context'" },
	{ "{\"schema\": \"ptbench/1\", \"status\": \"done\", \"context\": {}, \"results\": []}", "status 'done' is not one of" },
	{ "{\"schema\": \"ptbench/1\", \"status\": \"complete\", \"context\": {\"cpu\": {}}, \"results\": []}", "context: missing field 'host'" },
	{ "{\"schema\": \"ptbench/1\", \"status\": \"complete\", \"context\": {\"host\": \"h\", \"cpu\": {}}, \"results\": []}", "context.cpu: missing field 'brand'" },
	{ HEAD "]}",                                                                            "" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\"}]}",                      "results[0]: missing field 'mean'" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1}]}",         "results[0]: missing field 'median'" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"source\": \"a paper\"}]}", "" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"source\": \"a paper\"}]}", "results[0]: missing field 'mean'" },
	{ HEAD OK_REC ", " OK_REC ", " OK_REC ", {\"params\": {}, \"status\": \"na\"}]}",       "results[3]: missing field 'bench'" },
	{ HEAD "{\"bench\": \"x\", \"params\": {\"placement\": 1}, \"status\": \"na\"}]}",      "results[0]: params.placement is not a string" },
	{ HEAD "{\"bench\": \"x\", \"params\": [], \"status\": \"na\"}]}",                      "results[0]: field 'params' is not an object" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"fine\"}]}",                    "results[0]: status 'fine' is not one of" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": \"1\", \"median\": 1, \"samples\": []}]}", "results[0]: field 'mean' is not a number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"unstable\", \"mean\": null, \"median\": 1, \"samples\": []}]}", "results[0]: field 'mean' is null" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1, 2, \"3\"]}]}", "results[0]: samples[2] is not a number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [], \"ci95\": [1]}]}", "results[0]: field 'ci95' is not a pair" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [], \"unit\": \"us\"}]}", "results[0]: unit 'us' is not ns" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"na\", \"binding\": {\"clients\": [1]}}]}", "results[0]: binding.clients[0] is not a string" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"na\", \"reason\": 5}]}",      "results[0]: field 'reason' is not a string" },
	{ HEAD "{\"bench\": \"logp.mutex\", \"params\": {}, \"status\": \"ok\", \"L\": \"5\"}]}", "results[0]: field 'L' is not a number" },
	{ HEAD "{\"bench\": \"logp.mutex\", \"params\": {}, \"status\": \"ok\", \"L\": null, \"inputs\": {\"g\": 1}}]}", "results[0]: inputs.g is not a string" },
	{ HEAD "7]}",                                                                           "results[0]: not an object" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1}]}",     "results[0]: missing field 'trials'" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"trials\": []}]}",   "results[0]: missing field 'value'" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": -1, \"trials\": []}]}", "results[0]: field 'value' = -1 is not a duration" },
	/* Numbers outside their domain (issue 9): negative times, counts that
	 * are no integer a reader can convert, CI ends beyond any duration. */
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": -2, \"median\": 1, \"samples\": [1]}]}", "results[0]: field 'mean' = -2 is not a duration" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"iterations\": 1e300}]}", "results[0]: field 'iterations' = 1e+300 is not a whole number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"timings\": -3}]}", "results[0]: field 'timings' = -3 is not a whole number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"outliers\": 2.5}]}", "results[0]: field 'outliers' = 2.5 is not a whole number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"sd\": -1}]}", "results[0]: field 'sd' = -1 is not a number in [0, 1e15]" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"ci95\": [0, 1e300]}]}", "results[0]: ci95[1] = 1e+300 is not a finite number" },
	{ HEAD "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"iterations\": 4294967296}]}", "results[0]: field 'iterations' = 4.29497e+09 is not a whole number" },
	{ HEAD "{\"bench\": \"logp.mutex\", \"params\": {}, \"status\": \"ok\", \"L\": -1e200}]}", "results[0]: field 'L' = -1e+200 is not a finite number" },
	{ HEAD "{\"bench\": \"logp.mutex\", \"params\": {}, \"status\": \"ok\", \"L\": -5}]}", "" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"ntrials\": -1, \"trials\": []}]}", "results[0]: field 'ntrials' = -1 is not a whole number" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"ci_level\": 95, \"trials\": []}]}", "results[0]: field 'ci_level' = 95 is not a probability" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1], \"iterations\": 1e300}]}]}", "results[0].trials[0]: field 'iterations' = 1e+300 is not a whole number" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"ok\", \"mean\": -1, \"median\": 1, \"samples\": [1]}]}]}", "results[0].trials[0]: field 'mean' = -1 is not a duration" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"crashed\", \"elapsed_s\": -0.5}]}]}", "results[0].trials[0]: field 'elapsed_s' = -0.5 is not a number" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [7]}]}", "results[0].trials[0]: not an object" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"ok\", \"mean\": 1}]}]}", "results[0].trials[0]: missing field 'median'" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"crashed\", \"worker\": \"7\"}]}]}", "results[0].trials[0]: field 'worker' is not a number" },
	{ HEAD2 "{\"bench\": \"x\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": [{\"status\": \"crashed\"}]}]}", "" },
};

static void expect_refused(const char *path, const char *says)
{
	char err[512] = "";
	json_t *run = ptb_run_load(path, err, sizeof err);
	bool one_line = !strchr(err, '\n') && strlen(err) > 0;
	char name[256];
	snprintf(name, sizeof name, "%s", path);
	for (char *c = name; *c; c++)
		if (*c == '\n')
			*c = '?';
	if (!*says) {
		tap_ok(run != NULL, "%s: loads (%s)", name, err);
	} else {
		tap_ok(!run && one_line && !strncmp(err, name, strlen(name)) && strstr(err, says),
		       "refused in one line: %s", err);
	}
	json_decref(run);
}

static void test_bad_files(void)
{
	for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
		const struct bad_file *b = &bad_files[i];
		if (b->text)
			write_file(in_dir(b->name), b->text, strlen(b->text));
		else
			mkdir(in_dir(b->name), 0755);
		expect_refused(in_dir(b->name), b->says);
	}
	expect_refused(in_dir("missing.json"), "No such file or directory");
	for (size_t i = 0; i < sizeof bad_fields / sizeof *bad_fields; i++) {
		write_file(in_dir("field.json"), bad_fields[i].text, strlen(bad_fields[i].text));
		expect_refused(in_dir("field.json"), bad_fields[i].says);
	}
}

/* Truncations and byte flips of a valid file: the reader refuses or
 * accepts, and every reporter can print what it accepted. */
static void test_mutations(const char *golden)
{
	size_t len, accepted = 0, refused = 0;
	char *text = read_file(golden, &len), err[512];
	FILE *null = fopen("/dev/null", "w");
	if (!tap_ok(text && null, "read %s", golden))
		return;
	srand(1);
	for (int round = 0; round < 600; round++) {
		char *copy = malloc(len + 1);
		size_t n = len;
		memcpy(copy, text, len);
		if (round < 200) {
			n = (size_t)rand() % len;
		} else {
			for (int k = 0; k < 1 + round % 4; k++)
				copy[(size_t)rand() % len] = "\"{}[],:0-e.nx\\ \n"[rand() % 16];
		}
		write_file(in_dir("mutant.json"), copy, n);
		json_t *run = ptb_run_load(in_dir("mutant.json"), err, sizeof err);
		struct ptb_runfile *model = run ? ptb_runfile_of(run, NULL, 0) : NULL;
		if (model) {
			for (int f = 0; f < PTB_FMT_COUNT; f++)
				ptb_report(null, model, f);
			ptb_runfile_free(model);
			accepted++;
		} else {
			refused += !strchr(err, '\n') && strstr(err, "mutant.json");
		}
		json_decref(run);
		free(copy);
	}
	tap_ok(accepted + refused == 600, "600 mutants: %zu printed in every format, %zu refused "
	       "in one line", accepted, refused);
	fclose(null);
	free(text);
}

static void test_golden_round_trip(const char *golden)
{
	char err[512] = "";
	json_t *run = ptb_run_load(golden, err, sizeof err), *back = NULL;
	if (tap_ok(run != NULL, "the golden run loads (%s)", err)) {
		ptb_run_write_atomic(run, in_dir("golden.json"), err, sizeof err);
		back = ptb_run_load(in_dir("golden.json"), err, sizeof err);
	}
	tap_ok(back && json_equal(run, back), "the golden run survives a write and a load");
	json_decref(run);
	json_decref(back);
}

int main(void)
{
	char golden[512];
	snprintf(dir, sizeof dir, "/tmp/ptb-result-XXXXXX");
	if (!mkdtemp(dir))
		tap_skip_all("no temporary directory");
	snprintf(golden, sizeof golden, "%s/run-golden.json",
		 getenv("TESTDATA") ? getenv("TESTDATA") : "tests/data");

	test_record();
	test_round_trip();
	test_write_failures();
	test_bad_files();
	test_golden_round_trip(golden);
	test_mutations(golden);
	tap_done();

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_exit();
}
