/* SPDX-License-Identifier: MIT */
/*
 * The software and state of the machine, read from uname, glibc, sysfs and
 * procfs.  Anything that cannot be read stays empty (or -1) rather than
 * guessed: a result file must not claim what was not seen.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef HAVE_GNU_LIBC_VERSION_H
#include <gnu/libc-version.h>
#endif
#ifdef HAVE_SYS_SINGLE_THREADED_H
#include <sys/single_threaded.h>
#endif

#include "cpuinfo.h"
#include "sysinfo.h"

#define GOVERNOR_FILE   "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
#define SMT_FILE        "/sys/devices/system/cpu/smt/active"
#define XEN_FILE        "/sys/hypervisor/type"
#define DMI_PRODUCT     "/sys/class/dmi/id/product_name"
#define DMI_VENDOR      "/sys/class/dmi/id/sys_vendor"
#define EEVDF_SLICE     "/sys/kernel/debug/sched/base_slice_ns"

/* DMI product or vendor strings that betray a virtual machine. */
static const struct {
	const char *dmi;                 const char *name;
} dmi_hypervisors[] = {
	{ "KVM",                         "KVM"        },
	{ "QEMU",                        "QEMU"       },
	{ "VMware",                      "VMware"     },
	{ "VirtualBox",                  "VirtualBox" },
	{ "HVM domU",                    "Xen"        },
	{ "Xen",                         "Xen"        },
	{ "Google Compute Engine",       "KVM"        },
	{ "Parallels",                   "Parallels"  },
	{ "BHYVE",                       "bhyve"      },
};

/* Where the fair scheduler keeps its slice settings before EEVDF: a sysctl
 * until 5.13, debugfs after; the first readable one wins. */
static const char *const cfs_slice_files[] = {
	"/proc/sys/kernel/sched_min_granularity_ns",
	"/sys/kernel/debug/sched/min_granularity_ns",
};

/* First line of a small file without its newline; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *in = fopen(path, "r");
	int ok;

	if (!in)
		return -1;
	ok = fgets(buf, (int)len, in) != NULL;
	fclose(in);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long read_long(const char *path)
{
	char buf[32];

	return read_line(path, buf, sizeof buf) == 0 ? strtol(buf, NULL, 10) : -1;
}

static void libraries(struct ptb_sysinfo *si)
{
#ifdef HAVE_GNU_LIBC_VERSION_H
	snprintf(si->libc, sizeof si->libc, "glibc %s", gnu_get_libc_version());
#endif
#ifdef _CS_GNU_LIBPTHREAD_VERSION
	/* Already "NPTL 2.36". */
	confstr(_CS_GNU_LIBPTHREAD_VERSION, si->pthreads, sizeof si->pthreads);
#endif
}

/*
 * A guest rarely says so in one place: x86 guests carry the "hypervisor"
 * CPU flag and name the vendor in CPUID, Xen guests have /sys/hypervisor,
 * and arm64 guests are usually known only by their DMI strings.
 */
static void hypervisor(struct ptb_sysinfo *si)
{
	char dmi[2][96] = { "", "" };

	if (ptb_cpuinfo_has_flag("/proc/cpuinfo", "hypervisor")) {
		ptb_cpuid_hypervisor(si->hypervisor, sizeof si->hypervisor);
		if (!si->hypervisor[0])
			snprintf(si->hypervisor, sizeof si->hypervisor, "unidentified");
		return;
	}
	if (read_line(XEN_FILE, si->hypervisor, sizeof si->hypervisor) == 0 && si->hypervisor[0])
		return;
	si->hypervisor[0] = '\0';
	read_line(DMI_PRODUCT, dmi[0], sizeof dmi[0]);
	read_line(DMI_VENDOR, dmi[1], sizeof dmi[1]);
	for (size_t i = 0; i < sizeof dmi_hypervisors / sizeof dmi_hypervisors[0]; i++)
		if (strstr(dmi[0], dmi_hypervisors[i].dmi) || strstr(dmi[1], dmi_hypervisors[i].dmi)) {
			snprintf(si->hypervisor, sizeof si->hypervisor, "%s", dmi_hypervisors[i].name);
			return;
		}
}

/*
 * Linux 6.6 replaced CFS with EEVDF, whose one knob is the base slice
 * (debugfs, usually readable by root only).  Before that CFS's minimum
 * granularity played the same part.
 */
static void scheduler(struct ptb_sysinfo *si, const char *release)
{
	int major = 0, minor = 0;

	si->base_slice_ns = -1;
	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return;
	if (access(EEVDF_SLICE, F_OK) == 0 || major > 6 || (major == 6 && minor >= 6)) {
		snprintf(si->scheduler, sizeof si->scheduler, "EEVDF");
		si->base_slice_ns = read_long(EEVDF_SLICE);
		return;
	}
	snprintf(si->scheduler, sizeof si->scheduler, "CFS");
	for (size_t i = 0; i < sizeof cfs_slice_files / sizeof cfs_slice_files[0]; i++)
		if ((si->base_slice_ns = read_long(cfs_slice_files[i])) > 0)
			return;
}

/* GNU's mutex that spins a while before it blocks, where there is one. */
static int mutex_adaptive(void)
{
#if HAVE_DECL_PTHREAD_MUTEX_ADAPTIVE_NP
	return PTHREAD_MUTEX_ADAPTIVE_NP;
#else
	return -1;
#endif
}

/* What a working set may take without swapping: MemAvailable, or -1. */
static long long mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb >= 0 ? kb * 1024 : -1;
}

void ptb_sysinfo_read(struct ptb_sysinfo *si)
{
	struct utsname u;
	char smt[8];

	memset(si, 0, sizeof *si);
	gethostname(si->host, sizeof si->host - 1);
	if (uname(&u) == 0) {
		snprintf(si->kernel, sizeof si->kernel, "%.95s", u.release);
		snprintf(si->machine, sizeof si->machine, "%.31s", u.machine);
	}
	libraries(si);
	snprintf(si->compiler, sizeof si->compiler, "%s %s", PTB_CC_VERSION, PTB_CFLAGS);
	if (read_line(GOVERNOR_FILE, si->governor, sizeof si->governor) != 0)
		si->governor[0] = '\0';
	si->smt = read_line(SMT_FILE, smt, sizeof smt) == 0 ? atoi(smt) != 0 : -1;
	if (getloadavg(si->loadavg, 3) != 3)
		si->loadavg[0] = si->loadavg[1] = si->loadavg[2] = -1;
	si->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	hypervisor(si);
	scheduler(si, si->kernel);
	si->mutex_adaptive = mutex_adaptive();
	si->mem_available = mem_available();
	ptb_cpu_quota_read("", &si->quota);
}

/* glibc >= 2.32 exports the flag its own fast paths test; it is cleared
 * by the first pthread_create and never set again. */
int ptb_libc_single_threaded(void)
{
#ifdef HAVE_SYS_SINGLE_THREADED_H
	return __libc_single_threaded ? 1 : 0;
#else
	return -1;
#endif
}
