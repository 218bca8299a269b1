/* SPDX-License-Identifier: MIT */
/*
 * Process facts for the runner (see process.h).  Linux names the running
 * binary in /proc/self/exe and offers PR_SET_PDEATHSIG; elsewhere argv[0]
 * and the end of file on the worker's stdin do the same work more slowly.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "process.h"

int ptb_self_exe(const char *argv0, char *buf, size_t len)
{
#ifdef __linux__
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n > 0 && (size_t)n < len - 1) {
		buf[n] = '\0';
		return 0;
	}
#endif
	if (!argv0 || !*argv0)
		return -1;
	snprintf(buf, len, "%s", argv0);
	return 0;
}

void ptb_die_with_parent(void)
{
	pid_t parent = getppid();
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	/* The parent may have died before the request above took effect:
	 * then this process was already handed to init or a subreaper. */
	if (getppid() != parent || parent == 1)
		_exit(0);
}
