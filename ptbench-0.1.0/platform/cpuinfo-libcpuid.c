/* SPDX-License-Identifier: MIT */
/*
 * CPU identity through libcpuid, compiled when configure found it.  The raw
 * CPUID leaves come either from the live CPU or from a dump written by
 * cpuid_serialize_raw_data(), so tests can replay a known CPU anywhere.
 * Family and model are the "display" values (base plus extended fields),
 * the numbers /proc/cpuinfo shows.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <libcpuid.h>

#include "cpuinfo.h"

/* Where each cache's figures sit in libcpuid's cpu_id_t. */
#define LC(f) offsetof(struct cpu_id_t, f)
static const struct {
	int level;  const char *type;  size_t kib, line, ways;
} lc_caches[] = {
	{ 1,  "data",         LC(l1_data_cache),        LC(l1_data_cacheline),        LC(l1_data_assoc)        },
	{ 1,  "instruction",  LC(l1_instruction_cache), LC(l1_instruction_cacheline), LC(l1_instruction_assoc) },
	{ 2,  "unified",      LC(l2_cache),             LC(l2_cacheline),             LC(l2_assoc)             },
	{ 3,  "unified",      LC(l3_cache),             LC(l3_cacheline),             LC(l3_assoc)             },
	{ 4,  "unified",      LC(l4_cache),             LC(l4_cacheline),             LC(l4_assoc)             },
};

#ifdef NUM_HYPERVISOR_VENDORS
/* libcpuid's hypervisor_vendor_t, in its order. */
static const char *const lc_hypervisors[NUM_HYPERVISOR_VENDORS] = {
	[HYPERVISOR_NONE]       = "",
	[HYPERVISOR_BHYVE]      = "bhyve",
	[HYPERVISOR_HYPERV]     = "Hyper-V",
	[HYPERVISOR_KVM]        = "KVM",
	[HYPERVISOR_PARALLELS]  = "Parallels",
	[HYPERVISOR_QEMU]       = "QEMU",
	[HYPERVISOR_VIRTUALBOX] = "VirtualBox",
	[HYPERVISOR_VMWARE]     = "VMware",
	[HYPERVISOR_XEN]        = "Xen",
};
#endif

static int field(const struct cpu_id_t *id, size_t off)
{
	int32_t v;
	memcpy(&v, (const char *)id + off, sizeof v);
	return v > 0 ? v : 0;
}

static void copy_caches(struct ptb_cpuinfo *ci, const struct cpu_id_t *id)
{
	for (size_t i = 0; i < sizeof lc_caches / sizeof lc_caches[0]; i++) {
		struct ptb_cache *c = &ci->caches[ci->ncaches];
		if (field(id, lc_caches[i].kib) == 0)
			continue;          /* absent, or -1: undetermined */
		c->level = lc_caches[i].level;
		snprintf(c->type, sizeof c->type, "%s", lc_caches[i].type);
		c->kib = field(id, lc_caches[i].kib);
		c->line = field(id, lc_caches[i].line);
		c->ways = field(id, lc_caches[i].ways);
		ci->ncaches++;
	}
}

/*
 * A dump holds no hypervisor leaf (libcpuid would query the live CPU for
 * it), so a replayed guest is only known to be one.  Live, libcpuid names
 * the vendors it knows and CPUID leaf 0x40000000 names the rest.
 */
static void hypervisor(struct ptb_cpuinfo *ci, struct cpu_raw_data_t *raw,
		       struct cpu_id_t *id, bool replay)
{
	if (!id->flags[CPU_FEATURE_HYPERVISOR])
		return;
	if (replay) {
		snprintf(ci->hypervisor, sizeof ci->hypervisor, "unidentified");
		return;
	}
#ifdef NUM_HYPERVISOR_VENDORS
	hypervisor_vendor_t hv = cpuid_get_hypervisor(raw, id);
	if (hv > HYPERVISOR_NONE && hv < NUM_HYPERVISOR_VENDORS) {
		snprintf(ci->hypervisor, sizeof ci->hypervisor, "%s", lc_hypervisors[hv]);
		return;
	}
#endif
	ptb_cpuid_hypervisor(ci->hypervisor, sizeof ci->hypervisor);
	if (!ci->hypervisor[0])
		snprintf(ci->hypervisor, sizeof ci->hypervisor, "unidentified");
}

/* libcpuid pads some brand strings with blanks. */
static void copy_trimmed(char *dst, size_t len, const char *src)
{
	size_t n;

	while (*src == ' ')
		src++;
	snprintf(dst, len, "%s", src);
	for (n = strlen(dst); n > 0 && dst[n - 1] == ' '; n--)
		dst[n - 1] = '\0';
}

static void silent(const char *msg)
{
	(void)msg;            /* libcpuid's warnings would land on our stderr */
}

int ptb_cpuinfo_from_libcpuid(struct ptb_cpuinfo *ci, const char *dump)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	memset(ci, 0, sizeof *ci);
	snprintf(ci->source, sizeof ci->source, dump ? "libcpuid-dump" : "libcpuid");
	cpuid_set_warn_function(silent);
	if ((dump ? cpuid_deserialize_raw_data(&raw, dump) : cpuid_get_raw_data(&raw)) != 0 ||
	    cpu_identify(&raw, &id) != 0) {
		snprintf(ci->note, sizeof ci->note, "libcpuid: %s%s%.80s", cpuid_error(),
			 dump ? " reading " : "", dump ? dump : "");
		return -1;
	}
	copy_trimmed(ci->vendor, sizeof ci->vendor, id.vendor_str);
	copy_trimmed(ci->brand, sizeof ci->brand, id.brand_str);
	if (!ci->brand[0]) {
		snprintf(ci->note, sizeof ci->note, "libcpuid: empty brand string");
		return -1;
	}
	ci->family = id.ext_family;
	ci->model = id.ext_model;
	ci->stepping = id.stepping;
	copy_caches(ci, &id);
	hypervisor(ci, &raw, &id, dump != NULL);
	return 0;
}
