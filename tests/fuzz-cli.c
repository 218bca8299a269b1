/* SPDX-License-Identifier: MIT */
/*
 * The readers as a user meets them: mutations of real result files (a
 * saved run, tests/data/run-golden.json, a run of curves, a matrix and
 * cache levels, tests/data/plot-ext.json, and a published one from
 * results/) are given to the ptbench program itself -- `report` in every
 * format and as the page, `table`, `compare` against the unmutated file,
 * and `plot` of one kind per mutant, in turn (through gnuplot where it is
 * installed).  Each command
 * must exit 0 or 2 (compare also 1, a regression: a mutant's figures may
 * be worse) within a time limit, never die by a signal, and a refusal (2)
 * says why in one line on stderr.  Fixed seed, a bounded number of cases,
 * a few seconds in all; tests/tools-fuzz.c covers far more inputs in
 * process.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "tap.h"

#define CASES        30      /* mutants, each given to every command below */
#define LIMIT_S      20      /* per command: a hang fails, a slow machine does not */
#define MAX_FILE     (1 << 20)

static const char *ptbench;
static char mutant[512], errfile[512];

struct tally {
	int runs, exit0, exit2, bad;
};

/* Run ptbench with argv[1..]; its status as "exit N" / "signal N". */
static int run(char *const argv[], char *what, size_t len)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY), err = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(null, 1);
		dup2(err, 2);
		alarm(LIMIT_S);          /* survives exec: a hang dies by SIGALRM */
		execv(ptbench, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status)) {
		snprintf(what, len, "killed by signal %d%s", WTERMSIG(status),
			 WTERMSIG(status) == SIGALRM ? " (over the time limit)" : "");
		return -1;
	}
	snprintf(what, len, "exit %d", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/* A refusal names its reason in one line. */
static int said_why(void)
{
	FILE *in = fopen(errfile, "r");
	int c, lines = 0, last = '\n';

	if (!in)
		return 0;
	while ((c = getc(in)) != EOF) {
		lines += c == '\n';
		last = c;
	}
	fclose(in);
	return lines == 1 && last == '\n';
}

static const char *const kinds[] = { "table", "trials", "c2c", "cache", "scaling" };

static void try_commands(const char *valid, struct tally *t, int c)
{
	char svg[600];
	snprintf(svg, sizeof svg, "%s.svg", mutant);
	char *const cmds[][8] = {
		{ "ptbench", "report", mutant, NULL },
		{ "ptbench", "report", mutant, "--format", "csv", NULL },
		{ "ptbench", "report", mutant, "--format", "json", NULL },
		{ "ptbench", "report", mutant, "--format", "gbench", NULL },
		{ "ptbench", "report", mutant, "--format", "html", "--no-plots", NULL },
		{ "ptbench", "table", mutant, NULL },
		{ "ptbench", "compare", (char *)valid, mutant, NULL },
		{ "ptbench", "plot", mutant, "--kind", (char *)kinds[c % 5], "-o", svg, NULL },
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char what[96];
		int rc = run(cmds[i], what, sizeof what);
		bool compare = !strcmp(cmds[i][1], "compare");
		unlink(svg);
		t->runs++;
		t->exit0 += rc == 0 || (compare && rc == 1);
		t->exit2 += rc == 2;
		if ((rc != 0 && rc != 2 && !(compare && rc == 1)) || (rc == 2 && !said_why())) {
			t->bad++;
			printf("#   case %d: ptbench %s %s: %s%s\n", c, cmds[i][1],
			       cmds[i][3] ? cmds[i][4] : "", what,
			       rc == 2 ? " without exactly one line on stderr" : "");
		}
	}
}

static size_t slurp(const char *file, char *buf)
{
	FILE *f = fopen(file, "rb");
	size_t len;

	if (!f)
		return 0;
	len = fread(buf, 1, MAX_FILE - 1, f);
	fclose(f);
	return len;
}

int main(void)
{
	const char *data = getenv("TESTDATA"), *top = getenv("top_srcdir");
	char files[3][512], dir[] = "/tmp/ptb-fuzz-cli-XXXXXX";
	char *orig = malloc(MAX_FILE), *work = malloc(MAX_FILE);
	size_t len[3];
	struct tally t = { 0 };

	ptbench = getenv("PTBENCH");
	if (!data || !top || !ptbench)
		tap_skip_all("PTBENCH, TESTDATA and top_srcdir not set (run through make check)");
	snprintf(files[0], sizeof files[0], "%s/run-golden.json", data);
	snprintf(files[1], sizeof files[1], "%s/results/1999-de-supinski-may/ibm-sp2-604e.json", top);
	snprintf(files[2], sizeof files[2], "%s/plot-ext.json", data);
	if (!orig || !work || !mkdtemp(dir))
		return 1;
	snprintf(mutant, sizeof mutant, "%s/mutant.json", dir);
	snprintf(errfile, sizeof errfile, "%s/stderr", dir);
	for (int f = 0; f < 3; f++)
		if (!tap_ok((len[f] = slurp(files[f], work)) > 0, "source %s readable", files[f]))
			return tap_exit();

	for (int c = 0; c < CASES; c++) {
		int f = c % 3;
		FILE *out;
		size_t n;
		slurp(files[f], orig);
		memcpy(work, orig, len[f]);
		n = mutate_bytes(work, len[f], MAX_FILE);
		if (!(out = fopen(mutant, "wb")) || fwrite(work, 1, n, out) != n || fclose(out))
			return 1;
		try_commands(files[f], &t, c);
	}
	tap_ok(t.bad == 0, "%d mutants x 8 commands: every exit 0 or 2 (compare 1) within %d s, "
	       "each refusal one line (%d printed, %d refused, %d neither)", CASES, LIMIT_S,
	       t.exit0, t.exit2, t.bad);
	tap_ok(t.exit0 > 0 && t.exit2 > 0, "the mutants reach both the readers' refusals and "
	       "their output");
	unlink(mutant);
	unlink(errfile);
	snprintf(work, MAX_FILE, "%s.svg", mutant);
	unlink(work);
	rmdir(dir);
	free(orig);
	free(work);
	tap_done();
	return tap_exit();
}
