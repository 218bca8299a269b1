/* SPDX-License-Identifier: MIT */
/*
 * Temporary outputs removed when a signal ends the process (cleanup.h).
 * The handler may use only async-signal-safe calls, so the paths live in
 * fixed slots filled before they are marked in use, and the handler
 * removes them with unlink(2) and rmdir(2) alone.
 */
#include <config.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/cleanup.h"

#define SLOTS 16

static struct slot {
	volatile sig_atomic_t used;
	bool is_dir;
	char path[4096];
} slots[SLOTS];

static volatile pid_t child;
static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	if (child)
		kill(child, SIGTERM);
	for (int i = SLOTS - 1; i >= 0; i--)
		if (slots[i].used) {
			if (slots[i].is_dir)
				rmdir(slots[i].path);
			else
				unlink(slots[i].path);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Once: the handler for each signal still at its default. */
static void install(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
		struct sigaction old, sa = { 0 };
		if (sigaction(signals[i], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof signals / sizeof *signals; k++)
			sigaddset(&sa.sa_mask, signals[k]);   /* one cleanup at a time */
		sigaction(signals[i], &sa, NULL);
	}
}

/* Slots are taken in increasing order and a folder is registered before
 * its files, so the handler's reverse walk removes the files first. */
int ptb_cleanup_add(const char *path, bool is_dir)
{
	install();
	for (int i = 0; i < SLOTS; i++)
		if (!slots[i].used) {
			if (snprintf(slots[i].path, sizeof slots[i].path, "%s", path) >=
			    (int)sizeof slots[i].path)
				return -1;
			slots[i].is_dir = is_dir;
			slots[i].used = 1;
			return i;
		}
	return -1;
}

void ptb_cleanup_forget(int handle)
{
	if (handle >= 0 && handle < SLOTS)
		slots[handle].used = 0;
}

void ptb_cleanup_child(pid_t pid)
{
	if (pid)
		install();
	child = pid;
}
