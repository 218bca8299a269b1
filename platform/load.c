/* SPDX-License-Identifier: MIT */
/*
 * The machine's load around a trial (see load.h).  Linux counts every PU's
 * time in /proc/stat in clock ticks (USER_HZ): the "cpuN" lines give idle,
 * iowait and steal per PU, "procs_running" the tasks runnable right now.
 * The process's own CPU time and preemptions come from getrusage, which
 * sums all its threads; a trial runs in a process of its own, so those
 * are the measuring threads'.  Idle is what the kernel counts precisely on
 * a tickless PU; busy time is then the window less idle, which a reader
 * derives, rather than the tick-sampled user and system counters.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "load.h"

static int parse_pu(const char **s, long *v)
{
	char *end;
	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtol(*s, &end, 10);
	if (errno || *v >= PTB_LOAD_MAX_PUS)
		return -1;
	*s = end;
	return 0;
}

int ptb_pu_set_add_list(struct ptb_pu_set *s, const char *list)
{
	struct ptb_pu_set t = *s;
	const char *p = list;
	while (p && *p) {
		long a, b;
		if (parse_pu(&p, &a) < 0)
			return -1;
		b = a;
		if (*p == '-' && (p++, parse_pu(&p, &b) < 0 || b < a))
			return -1;
		for (long i = a; i <= b; i++)
			if (!ptb_pu_set_has(&t, (int)i)) {
				t.bit[i / 8] |= (unsigned char)(1u << (i % 8));
				t.n++;
			}
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	if (!list || !*list)
		return -1;
	*s = t;
	return 0;
}

bool ptb_pu_set_has(const struct ptb_pu_set *s, int pu)
{
	return pu >= 0 && pu < PTB_LOAD_MAX_PUS && (s->bit[pu / 8] >> (pu % 8)) & 1;
}

static void sample_self(struct ptb_load_sample *s)
{
	struct timespec ts;
	struct rusage ru;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->wall_s = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->own_cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
			       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
		s->preempted = ru.ru_nivcsw;
	}
}

#ifdef __linux__
/* One "cpuN user nice system idle iowait irq softirq steal ..." line. */
static void add_cpu_line(struct ptb_load_sample *s, const struct ptb_pu_set *pus,
			 const char *line)
{
	unsigned long long f[8] = { 0 };
	int cpu;
	if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) < 6 || !ptb_pu_set_has(pus, cpu))
		return;
	s->idle_s += (double)(f[3] + f[4]) * s->tick_s;
	s->steal_s += (double)f[7] * s->tick_s;
	s->npus++;
}

int ptb_load_sample(struct ptb_load_sample *s, const struct ptb_pu_set *pus,
		    const char *stat_path)
{
	char line[512];
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen(stat_path ? stat_path : "/proc/stat", "r");
	memset(s, 0, sizeof *s);
	s->run_queue = -1;
	if (!f || hz <= 0) {
		if (f)
			fclose(f);
		return -1;
	}
	s->tick_s = 1.0 / (double)hz;
	/* Our own figures first: the window then holds the whole file read. */
	sample_self(s);
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9')
			add_cpu_line(s, pus, line);
		else if (!strncmp(line, "procs_running ", 14))
			s->run_queue = atoi(line + 14);
	}
	fclose(f);
	return s->npus > 0 && s->run_queue >= 0 ? 0 : -1;
}
#else
int ptb_load_sample(struct ptb_load_sample *s, const struct ptb_pu_set *pus,
		    const char *stat_path)
{
	(void)pus;
	(void)stat_path;
	memset(s, 0, sizeof *s);
	s->run_queue = -1;
	sample_self(s);
	return -1;
}
#endif
