/* SPDX-License-Identifier: MIT */
/*
 * A co-tenant for tests: `spinner N SECONDS` runs N processes that spin on
 * the CPU -- wherever the scheduler puts them, or where taskset confined
 * the spinner -- until SECONDS pass or the spinner gets SIGTERM, which it
 * passes on to them.  It prints "ready" once all N are running, so a test
 * can measure under their load, and exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SPINNERS 256

static pid_t child[MAX_SPINNERS];
static volatile sig_atomic_t nchild;

static void pass_on(int sig)
{
	for (int i = 0; i < nchild; i++)
		kill(child[i], sig);
}

static void spin(unsigned seconds)
{
	volatile unsigned long x = 0;
	signal(SIGTERM, SIG_DFL);
	alarm(seconds);   /* the spinner's end, should its parent be killed */
	for (;;)
		x++;
}

int main(int argc, char **argv)
{
	int n = argc == 3 ? atoi(argv[1]) : 0, seconds = argc == 3 ? atoi(argv[2]) : 0;
	if (n < 1 || n > MAX_SPINNERS || seconds < 1) {
		fprintf(stderr, "usage: spinner N SECONDS (N in 1..%d)\n", MAX_SPINNERS);
		return 2;
	}
	signal(SIGTERM, pass_on);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0)
			spin((unsigned)seconds);
		if (pid < 0) {
			perror("spinner: fork");
			pass_on(SIGTERM);
			return 1;
		}
		child[nchild++] = pid;
	}
	printf("ready\n");
	fflush(stdout);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
