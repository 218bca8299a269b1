/* SPDX-License-Identifier: MIT */
/*
 * CPU identity, the part common to both paths: ptb_cpuinfo_read() tries
 * libcpuid and falls back to /proc/cpuinfo, keeping the reason, and the
 * hypervisor is named from CPUID leaf 0x40000000 when libcpuid cannot
 * name it.  All direct CPUID access outside the clock lives here.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cpuinfo.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Vendor signatures of CPUID leaf 0x40000000 (EBX, ECX, EDX as a string). */
static const struct {
	const char *signature;     const char *name;
} hypervisors[] = {
	{ "KVMKVMKVM",             "KVM"        },
	{ "Linux KVM Hv",          "KVM"        },  /* KVM offering Hyper-V enlightenments */
	{ "Microsoft Hv",          "Hyper-V"    },
	{ "VMwareVMware",          "VMware"     },
	{ "XenVMMXenVMM",          "Xen"        },
	{ "TCGTCGTCGTCG",          "QEMU"       },  /* QEMU without KVM: emulated */
	{ "bhyve bhyve ",          "bhyve"      },
	{ " lrpepyh  vr",          "Parallels"  },
	{ "VBoxVBoxVBox",          "VirtualBox" },
	{ "ACRNACRNACRN",          "ACRN"       },
	{ "HAXMHAXMHAXM",          "HAXM"       },
	{ "QNXQVMBSQG",            "QNX"        },
};

void ptb_cpuid_hypervisor(char *buf, size_t len)
{
	unsigned a, b, c, d;
	char sig[13];

	buf[0] = '\0';
	/* CPUID 1 ECX bit 31 is zero on physical CPUs. */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	/* __get_cpuid() refuses leaves above the basic maximum. */
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (size_t i = 0; i < sizeof hypervisors / sizeof hypervisors[0]; i++)
		if (strcmp(sig, hypervisors[i].signature) == 0) {
			snprintf(buf, len, "%s", hypervisors[i].name);
			return;
		}
	for (char *p = sig; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	snprintf(buf, len, "%s", sig[0] ? sig : "unidentified");
}
#else
void ptb_cpuid_hypervisor(char *buf, size_t len)
{
	buf[0] = '\0';
}
#endif

int ptb_cpuinfo_read(struct ptb_cpuinfo *ci, const char *dump)
{
	char why[sizeof ci->note];

	if (ptb_cpuinfo_from_libcpuid(ci, dump) == 0)
		return 0;
	if (dump)
		return -1;         /* only libcpuid can replay a dump */
	snprintf(why, sizeof why, "%s", ci->note);
	if (ptb_cpuinfo_from_proc(ci, "/proc/cpuinfo") == 0) {
		snprintf(ci->note, sizeof ci->note, "%s", why);
		return 0;
	}
	snprintf(ci->note + strlen(ci->note), sizeof ci->note - strlen(ci->note),
		 "; %s", why);
	return -1;
}
