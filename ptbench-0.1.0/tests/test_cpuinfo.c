/* SPDX-License-Identifier: MIT */
/*
 * CPU identity on both paths.  The /proc/cpuinfo fallback parses an x86
 * sample (this project's build VM, an AMD EPYC under KVM) and an aarch64
 * sample (the kernel's format for a Neoverse-N1); libcpuid replays a raw
 * CPUID dump of that VM taken with cpuid_serialize_raw_data(); and on the
 * live machine the identity agrees with what /proc/cpuinfo says.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/cpuinfo.h"
#include "tap.h"

static const char *data_path(const char *name)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s/%s", getenv("TESTDATA"), name);
	return path;
}

static void check_identity(const char *what, const struct ptb_cpuinfo *ci, const char *vendor,
			   const char *brand, int family, int model, int stepping,
			   const char *hypervisor)
{
	tap_ok(strcmp(ci->vendor, vendor) == 0, "%s: vendor \"%s\" (got \"%s\")", what, vendor, ci->vendor);
	tap_ok(strcmp(ci->brand, brand) == 0, "%s: brand \"%s\" (got \"%s\")", what, brand, ci->brand);
	tap_ok(ci->family == family && ci->model == model && ci->stepping == stepping,
	       "%s: family %d model %d stepping %d (got %d %d %d)", what, family, model, stepping,
	       ci->family, ci->model, ci->stepping);
	tap_ok(strcmp(ci->hypervisor, hypervisor) == 0, "%s: hypervisor \"%s\" (got \"%s\")",
	       what, hypervisor, ci->hypervisor);
}

static void check_proc_samples(void)
{
	struct ptb_cpuinfo ci;

	tap_ok(ptb_cpuinfo_from_proc(&ci, data_path("cpuinfo-x86.txt")) == 0, "x86 sample parses");
	/* A sample describes another machine: no live caches or CPUID mixed in. */
	check_identity("x86 sample", &ci, "AuthenticAMD", "AMD EPYC", 25, 17, 1, "unidentified");
	tap_ok(ci.ncaches == 0 && strcmp(ci.source, "procfs") == 0,
	       "x86 sample: source procfs, no caches taken from this machine");

	tap_ok(ptb_cpuinfo_from_proc(&ci, data_path("cpuinfo-aarch64.txt")) == 0, "aarch64 sample parses");
	check_identity("aarch64 sample", &ci, "ARM", "ARM Neoverse-N1 r3p1", 8, 0xd0c, 1, "");

	tap_ok(ptb_cpuinfo_has_flag(data_path("cpuinfo-x86.txt"), "constant_tsc") &&
	       ptb_cpuinfo_has_flag(data_path("cpuinfo-x86.txt"), "nonstop_tsc") &&
	       !ptb_cpuinfo_has_flag(data_path("cpuinfo-x86.txt"), "avx512"),
	       "x86 flags: whole words only");
	tap_ok(ptb_cpuinfo_has_flag(data_path("cpuinfo-aarch64.txt"), "asimd") &&
	       !ptb_cpuinfo_has_flag(data_path("cpuinfo-aarch64.txt"), "sve"),
	       "aarch64 Features are flags too");

	tap_ok(ptb_cpuinfo_from_proc(&ci, data_path("no-such-file")) == -1 &&
	       strstr(ci.note, "no-such-file"), "a missing file fails with its name (%s)", ci.note);
}

static void check_dump(void)
{
	struct ptb_cpuinfo ci;
	int rc = ptb_cpuinfo_read(&ci, data_path("cpuid-epyc-kvm.txt"));

#ifdef HAVE_LIBCPUID
	if (!tap_ok(rc == 0, "libcpuid replays the dump"))
		printf("#   %s\n", ci.note);
	/* The dump has no hypervisor leaf: known to be a guest, not whose. */
	check_identity("dump", &ci, "AuthenticAMD", "AMD EPYC", 25, 17, 1, "unidentified");
	tap_ok(strcmp(ci.source, "libcpuid-dump") == 0, "dump: source libcpuid-dump");
	tap_ok(ci.ncaches == 4 && ci.caches[0].level == 1 && !strcmp(ci.caches[0].type, "data") &&
	       ci.caches[0].kib == 32 && ci.caches[0].line == 64 && ci.caches[0].ways == 8 &&
	       ci.caches[3].level == 3 && ci.caches[3].kib == 32768 && ci.caches[3].ways == 16,
	       "dump: L1d 32 KiB 64 B 8-way ... L3 32 MiB 16-way");
#else
	tap_ok(rc == -1 && strstr(ci.note, "built without libcpuid"),
	       "without libcpuid a dump cannot be replayed (%s)", ci.note);
#endif
}

/* The value of "key : value" for the first processor of /proc/cpuinfo. */
static int proc_value(const char *key, char *out, size_t len)
{
	FILE *in = fopen("/proc/cpuinfo", "r");
	char line[4096];
	size_t n = strlen(key);

	if (!in)
		return -1;
	while (fgets(line, sizeof line, in))
		if (strncmp(line, key, n) == 0 && (line[n] == '\t' || line[n] == ' ' || line[n] == ':')) {
			char *v = strchr(line, ':');
			snprintf(out, len, "%s", v ? v + 1 + strspn(v + 1, " \t") : "");
			out[strcspn(out, "\n")] = '\0';
			fclose(in);
			return 0;
		}
	fclose(in);
	return -1;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* Every cache has a level, a known type and a size, in the order the
 * readers promise: level first, then data, instruction, unified. */
static void check_caches(const char *what, const struct ptb_cpuinfo *ci)
{
	static const char *const types[] = { "data", "instruction", "unified" };
	bool ok = ci->ncaches >= 0 && ci->ncaches <= PTB_MAX_CACHES;

	for (int i = 0; ok && i < ci->ncaches; i++) {
		const struct ptb_cache *c = &ci->caches[i];
		bool known = false;
		for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
			known |= strcmp(c->type, types[t]) == 0;
		ok = known && c->level >= 1 && c->level <= 4 && c->kib > 0 && c->line >= 0 &&
		     c->ways >= 0 && (i == 0 || c->level >= ci->caches[i - 1].level);
	}
	tap_ok(ok, "%s: %d caches, each with a level, a type and a size, in level order",
	       what, ci->ncaches);
}

/* The L1 data cache size in bytes as the fallback's own source gives it:
 * sysfs where the kernel has cache sysfs, else glibc (0 when neither). */
static long fallback_l1d(const char **source)
{
	char path[128];
	long size = 0;

	*source = "sysfs";
	if (access("/sys/devices/system/cpu/cpu0/cache/index0", R_OK) != 0) {
		*source = "sysconf";
#ifdef _SC_LEVEL1_DCACHE_SIZE
		return sysconf(_SC_LEVEL1_DCACHE_SIZE);
#else
		return 0;
#endif
	}
	for (int i = 0; i < PTB_MAX_CACHES; i++) {
		char level[16] = "", type[16] = "", kib[16] = "";
		FILE *in;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!(in = fopen(path, "r")))
			break;
		(void)!fscanf(in, "%15s", level);
		fclose(in);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if ((in = fopen(path, "r"))) {
			(void)!fscanf(in, "%15s", type);
			fclose(in);
		}
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if ((in = fopen(path, "r"))) {
			(void)!fscanf(in, "%15[0-9]", kib);
			fclose(in);
		}
		if (!strcmp(level, "1") && !strcmp(type, "Data"))
			size = atol(kib) * 1024;
	}
	return size;
}

static void check_live(void)
{
	struct ptb_cpuinfo ci, proc;
	char brand[128], family[16], model[16], stepping[16];
	const char *l1d_source;
	long l1d = fallback_l1d(&l1d_source);

	int rc = ptb_cpuinfo_read(&ci, NULL);

	if (!tap_ok(rc == 0, "live CPU identified by %s%s%s", ci.source,
		    ci.note[0] ? " because " : "", ci.note))
		return;
	/* CPUID's brand string and Linux's "model name" may differ (a
	 * hypervisor can rewrite either); each is checked against its own
	 * source, never against the other. */
	tap_ok(ci.brand[0] && printable(ci.brand), "live brand is non-empty and printable (\"%s\")",
	       ci.brand);
	if (proc_value("model name", brand, sizeof brand) == 0) {
		proc_value("cpu family", family, sizeof family);
		proc_value("model", model, sizeof model);
		proc_value("stepping", stepping, sizeof stepping);
		tap_ok(ci.family == atoi(family) && ci.model == atoi(model) &&
		       ci.stepping == atoi(stepping), "live family/model/stepping %d/%d/%d match "
		       "/proc/cpuinfo", ci.family, ci.model, ci.stepping);
	}
	tap_ok(!ptb_cpuinfo_has_flag("/proc/cpuinfo", "hypervisor") || ci.hypervisor[0],
	       "a guest names its hypervisor (\"%s\")", ci.hypervisor);

	if (proc_value("model name", brand, sizeof brand) == 0)
		tap_ok(ptb_cpuinfo_from_proc(&proc, "/proc/cpuinfo") == 0 &&
		       strcmp(proc.brand, brand) == 0,
		       "the fallback's brand is /proc/cpuinfo's model name (\"%s\")", proc.brand);
	else
		tap_ok(ptb_cpuinfo_from_proc(&proc, "/proc/cpuinfo") == 0 && proc.brand[0],
		       "the fallback names a brand (\"%s\")", proc.brand);
	check_caches("live", &ci);
	check_caches("fallback", &proc);
	if (l1d > 0)
		tap_ok(proc.ncaches > 0 && proc.caches[0].level == 1 &&
		       !strcmp(proc.caches[0].type, "data") && proc.caches[0].kib == l1d / 1024,
		       "fallback L1d %d KiB agrees with its source's %ld KiB (%s)",
		       proc.ncaches ? proc.caches[0].kib : -1, l1d / 1024, l1d_source);
}

int main(void)
{
	if (!getenv("TESTDATA"))
		tap_skip_all("TESTDATA not set (run through make check)");
	check_proc_samples();
	check_dump();
	check_live();
	tap_done();
	return tap_exit();
}
