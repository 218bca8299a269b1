/* SPDX-License-Identifier: MIT */
/*
 * What the CPU says it is: vendor, brand, family/model/stepping, caches and
 * hypervisor.  libcpuid is used where it was found at configure time and
 * works; otherwise (VMs it cannot decode, non-x86) /proc/cpuinfo and sysconf
 * answer.  A raw CPUID dump written by libcpuid can be replayed instead of
 * the live CPU, which is how the tests exercise both paths on any machine.
 */
#ifndef PTB_CPUINFO_H
#define PTB_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>

#define PTB_MAX_CACHES 8

struct ptb_cache {
	int level;           /* 1, 2, 3 */
	char type[12];       /* "data", "instruction", "unified" */
	int kib, line, ways; /* 0 where unknown */
};

struct ptb_cpuinfo {
	char vendor[32];
	char brand[96];
	int family, model, stepping;    /* -1 where unknown */
	char hypervisor[32];            /* "" on bare metal */
	struct ptb_cache caches[PTB_MAX_CACHES];
	int ncaches;
	char source[16];                /* "libcpuid", "libcpuid-dump", "procfs" */
	char note[160];                 /* why libcpuid was not used, or "" */
};

/* Identify the live CPU; libcpuid first, then the fallback.  dump != NULL
 * replays a libcpuid raw dump instead.  Returns 0, or -1 with note set. */
int ptb_cpuinfo_read(struct ptb_cpuinfo *ci, const char *dump);
/* The fallback alone, from a cpuinfo file (normally "/proc/cpuinfo"). */
int ptb_cpuinfo_from_proc(struct ptb_cpuinfo *ci, const char *path);
/* libcpuid alone; -1 with ci->note set when unavailable or failing. */
int ptb_cpuinfo_from_libcpuid(struct ptb_cpuinfo *ci, const char *dump);

/* Whether the first processor's "flags" (x86) or "Features" (aarch64) line
 * of a cpuinfo file lists flag; false when the file cannot be read. */
bool ptb_cpuinfo_has_flag(const char *path, const char *flag);
/* The hypervisor named by CPUID leaf 0x40000000 ("KVM", "Hyper-V"), or ""
 * when the CPU reports none or is not x86; an unlisted signature is
 * returned as it reads. */
void ptb_cpuid_hypervisor(char *buf, size_t len);

#endif
