/* SPDX-License-Identifier: MIT */
/*
 * The software and state of the machine a result was measured on: kernel,
 * libc and NPTL versions, the compiler and flags ptbench was built with,
 * frequency governor, SMT, load, hypervisor, allowed CPUs and the
 * scheduler's slice settings, and the cgroup CPU quota.  Everything needed
 * to judge whether two results are comparable.
 */
#ifndef PTB_SYSINFO_H
#define PTB_SYSINFO_H

#include "cgroup.h"

struct ptb_sysinfo {
	char host[64];
	char kernel[96];          /* uname -r */
	char machine[32];         /* uname -m */
	char libc[48];            /* "glibc 2.36" */
	char pthreads[48];        /* "NPTL 2.36" */
	char compiler[128];       /* compiler and flags */
	char governor[32];        /* cpufreq governor of CPU 0, "" if none */
	char hypervisor[32];      /* from /sys/hypervisor, cpuid flag or DMI; "" */
	int smt;                  /* 1 on, 0 off, -1 unknown */
	double loadavg[3];
	int online_cpus;
	char scheduler[32];       /* "EEVDF", "CFS" or "" */
	long base_slice_ns;       /* the fair scheduler's base slice, -1 unknown */
	int mutex_adaptive;       /* the library's adaptive mutex type, -1 none */
	long long mem_available;  /* bytes, /proc/meminfo's MemAvailable; -1 unknown */
	struct ptb_cpu_quota quota;   /* cgroup CPU quota; cpus -1 when none */
};

void ptb_sysinfo_read(struct ptb_sysinfo *si);

/* Whether the C library still treats this process as single-threaded
 * (and so may skip atomic instructions): 1 yes, 0 no, -1 cannot tell. */
int ptb_libc_single_threaded(void);

#endif
