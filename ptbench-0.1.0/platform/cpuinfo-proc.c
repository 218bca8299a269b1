/* SPDX-License-Identifier: MIT */
/*
 * CPU identity without libcpuid: the first processor of a /proc/cpuinfo
 * format file (x86 "vendor_id"/"model name"/"cpu family", or aarch64
 * "CPU implementer"/"CPU part", decoded through the tables below), and the
 * caches from /sys/devices/system/cpu/cpu0/cache or, failing that,
 * sysconf.  A file other than the live /proc/cpuinfo describes some other
 * machine, so caches and the hypervisor's name -- which come from this
 * machine -- are only added for the live file.
 */
#include "config.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuinfo.h"

#define LIVE_CPUINFO "/proc/cpuinfo"
#define LIVE_CACHES  "/sys/devices/system/cpu/cpu0/cache"

/* The first processor's lines that matter, as text. */
struct proc_fields {
	char vendor_id[32], model_name[96], family[16], model[16], stepping[16];
	char implementer[16], architecture[16], variant[16], part[16], revision[16];
};

#define PF(f) offsetof(struct proc_fields, f), sizeof(((struct proc_fields *)0)->f)
static const struct {
	const char *key;           size_t off, size;
} proc_keys[] = {
	{ "vendor_id",             PF(vendor_id)    },
	{ "model name",            PF(model_name)   },
	{ "cpu family",            PF(family)       },
	{ "model",                 PF(model)        },
	{ "stepping",              PF(stepping)     },
	{ "CPU implementer",       PF(implementer)  },
	{ "CPU architecture",      PF(architecture) },
	{ "CPU variant",           PF(variant)      },
	{ "CPU part",              PF(part)         },
	{ "CPU revision",          PF(revision)     },
};

/* Arm's MIDR implementer codes. */
static const struct {
	int code;  const char *name;
} arm_implementers[] = {
	{ 0x41,    "ARM"       },
	{ 0x42,    "Broadcom"  },
	{ 0x43,    "Cavium"    },
	{ 0x46,    "Fujitsu"   },
	{ 0x48,    "HiSilicon" },
	{ 0x4e,    "NVIDIA"    },
	{ 0x50,    "APM"       },
	{ 0x51,    "Qualcomm"  },
	{ 0x53,    "Samsung"   },
	{ 0x61,    "Apple"     },
	{ 0x69,    "Intel"     },
	{ 0xc0,    "Ampere"    },
};

/* MIDR part numbers of common server and board cores. */
static const struct {
	int implementer, part;  const char *name;
} arm_parts[] = {
	{ 0x41,  0xd03,         "Cortex-A53"   },
	{ 0x41,  0xd04,         "Cortex-A35"   },
	{ 0x41,  0xd05,         "Cortex-A55"   },
	{ 0x41,  0xd07,         "Cortex-A57"   },
	{ 0x41,  0xd08,         "Cortex-A72"   },
	{ 0x41,  0xd09,         "Cortex-A73"   },
	{ 0x41,  0xd0a,         "Cortex-A75"   },
	{ 0x41,  0xd0b,         "Cortex-A76"   },
	{ 0x41,  0xd0c,         "Neoverse-N1"  },
	{ 0x41,  0xd0d,         "Cortex-A77"   },
	{ 0x41,  0xd40,         "Neoverse-V1"  },
	{ 0x41,  0xd41,         "Cortex-A78"   },
	{ 0x41,  0xd44,         "Cortex-X1"    },
	{ 0x41,  0xd46,         "Cortex-A510"  },
	{ 0x41,  0xd47,         "Cortex-A710"  },
	{ 0x41,  0xd48,         "Cortex-X2"    },
	{ 0x41,  0xd49,         "Neoverse-N2"  },
	{ 0x41,  0xd4f,         "Neoverse-V2"  },
	{ 0x43,  0x0af,         "ThunderX2"    },
	{ 0x46,  0x001,         "A64FX"        },
	{ 0x48,  0xd01,         "Kunpeng-920"  },
	{ 0xc0,  0xac3,         "Ampere-1"     },
};

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* "key\t\t: value\n" -> key and value without surrounding blanks. */
static int split_line(char *line, char **key, char **val)
{
	char *colon = strchr(line, ':'), *end;

	if (!colon)
		return -1;
	*colon = '\0';
	for (end = colon; end > line && isspace((unsigned char)end[-1]); end--)
		end[-1] = '\0';
	*key = line;
	for (*val = colon + 1; isspace((unsigned char)**val); (*val)++)
		;
	for (end = *val + strlen(*val); end > *val && isspace((unsigned char)end[-1]); end--)
		end[-1] = '\0';
	return 0;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* Reads the first processor block; flag_of_interest, when given, is
 * looked up in its flags/Features line.  -1 when the file is unreadable. */
static int read_first_block(const char *path, struct proc_fields *f,
			    const char *flag_of_interest, bool *has_flag)
{
	FILE *in = fopen(path, "r");
	char line[4096], *key, *val;
	bool seen_processor = false;

	if (!in)
		return -1;
	memset(f, 0, sizeof *f);
	while (fgets(line, sizeof line, in)) {
		if (split_line(line, &key, &val) != 0) {
			if (seen_processor)
				break;             /* blank line: end of the first block */
			continue;
		}
		seen_processor |= strcmp(key, "processor") == 0;
		if (flag_of_interest && (!strcmp(key, "flags") || !strcmp(key, "Features")))
			*has_flag = word_in(val, flag_of_interest);
		for (size_t i = 0; i < COUNT(proc_keys); i++)
			if (strcmp(key, proc_keys[i].key) == 0)
				snprintf((char *)f + proc_keys[i].off, proc_keys[i].size, "%s", val);
	}
	fclose(in);
	return 0;
}

bool ptb_cpuinfo_has_flag(const char *path, const char *flag)
{
	struct proc_fields f;
	bool has = false;

	return read_first_block(path, &f, flag, &has) == 0 && has;
}

static int number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	return *s && end != s ? (int)v : -1;
}

static void identify_arm(struct ptb_cpuinfo *ci, const struct proc_fields *f)
{
	int impl = number(f->implementer), part = number(f->part);
	const char *vendor = NULL, *core = NULL;
	char partname[24];

	for (size_t i = 0; i < COUNT(arm_implementers); i++)
		if (arm_implementers[i].code == impl)
			vendor = arm_implementers[i].name;
	for (size_t i = 0; i < COUNT(arm_parts); i++)
		if (arm_parts[i].implementer == impl && arm_parts[i].part == part)
			core = arm_parts[i].name;
	snprintf(partname, sizeof partname, "part %#x", part);
	if (vendor)
		snprintf(ci->vendor, sizeof ci->vendor, "%s", vendor);
	else
		snprintf(ci->vendor, sizeof ci->vendor, "implementer %#x", impl);
	/* Decoded even when a "model name" line exists: on arm64 that line
	 * says little more than "ARMv8 Processor". */
	snprintf(ci->brand, sizeof ci->brand, "%s %s r%dp%d", ci->vendor,
			 core ? core : partname, number(f->variant), number(f->revision));
	ci->family = number(f->architecture);
	ci->model = part;
	ci->stepping = number(f->revision);
}

/* "32K", "1024K", "16M" -> KiB. */
static int kib_of(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return (int)(*end == 'M' ? v * 1024 : *end == 'G' ? v * 1024 * 1024 : v);
}

static int read_word(const char *dir, const char *name, char buf[64])
{
	char path[512];
	FILE *in;
	int ok;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(in = fopen(path, "r")))
		return -1;
	ok = fscanf(in, "%63s", buf) == 1;
	fclose(in);
	return ok ? 0 : -1;
}

/* sysfs names "Data", "Instruction", "Unified". */
static void add_sysfs_cache(struct ptb_cpuinfo *ci, const char *dir)
{
	char level[64], type[64], size[64], line[64], ways[64];
	struct ptb_cache *c = &ci->caches[ci->ncaches];

	if (read_word(dir, "level", level) || read_word(dir, "type", type))
		return;
	c->level = atoi(level);
	for (size_t i = 0; i < sizeof c->type - 1 && type[i]; i++)
		c->type[i] = (char)tolower((unsigned char)type[i]);
	c->kib = read_word(dir, "size", size) ? 0 : kib_of(size);
	c->line = read_word(dir, "coherency_line_size", line) ? 0 : atoi(line);
	c->ways = read_word(dir, "ways_of_associativity", ways) ? 0 : atoi(ways);
	ci->ncaches++;
}

static void caches_from_sysfs(struct ptb_cpuinfo *ci, const char *root)
{
	char dir[512];

	for (int i = 0; ci->ncaches < PTB_MAX_CACHES; i++) {
		snprintf(dir, sizeof dir, "%s/index%d", root, i);
		if (access(dir, R_OK) != 0)
			break;
		add_sysfs_cache(ci, dir);
	}
}

#ifdef _SC_LEVEL1_DCACHE_SIZE
/* glibc's view of the caches, for kernels without cache sysfs. */
static const struct {
	int level;  const char *type;     int size, line, ways;
} sysconf_caches[] = {
	{ 1,        "data",               _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE, _SC_LEVEL1_DCACHE_ASSOC },
	{ 1,        "instruction",        _SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_LINESIZE, _SC_LEVEL1_ICACHE_ASSOC },
	{ 2,        "unified",            _SC_LEVEL2_CACHE_SIZE,  _SC_LEVEL2_CACHE_LINESIZE,  _SC_LEVEL2_CACHE_ASSOC  },
	{ 3,        "unified",            _SC_LEVEL3_CACHE_SIZE,  _SC_LEVEL3_CACHE_LINESIZE,  _SC_LEVEL3_CACHE_ASSOC  },
};

static void caches_from_sysconf(struct ptb_cpuinfo *ci)
{
	for (size_t i = 0; i < COUNT(sysconf_caches); i++) {
		long size = sysconf(sysconf_caches[i].size);
		struct ptb_cache *c = &ci->caches[ci->ncaches];
		if (size <= 0)
			continue;
		c->level = sysconf_caches[i].level;
		snprintf(c->type, sizeof c->type, "%s", sysconf_caches[i].type);
		c->kib = (int)(size / 1024);
		c->line = (int)(sysconf(sysconf_caches[i].line) > 0 ? sysconf(sysconf_caches[i].line) : 0);
		c->ways = (int)(sysconf(sysconf_caches[i].ways) > 0 ? sysconf(sysconf_caches[i].ways) : 0);
		ci->ncaches++;
	}
}
#else
static void caches_from_sysconf(struct ptb_cpuinfo *ci)
{
}
#endif

/* Level first, then data before instruction before unified. */
static int cache_order(const void *a, const void *b)
{
	const struct ptb_cache *x = a, *y = b;
	return x->level != y->level ? x->level - y->level : strcmp(x->type, y->type);
}

static void live_extras(struct ptb_cpuinfo *ci, bool hypervisor_flag)
{
	caches_from_sysfs(ci, LIVE_CACHES);
	if (ci->ncaches == 0)
		caches_from_sysconf(ci);
	qsort(ci->caches, (size_t)ci->ncaches, sizeof ci->caches[0], cache_order);
	if (hypervisor_flag)
		ptb_cpuid_hypervisor(ci->hypervisor, sizeof ci->hypervisor);
}

int ptb_cpuinfo_from_proc(struct ptb_cpuinfo *ci, const char *path)
{
	struct proc_fields f;
	bool hypervisor_flag = false;

	memset(ci, 0, sizeof *ci);
	ci->family = ci->model = ci->stepping = -1;
	snprintf(ci->source, sizeof ci->source, "procfs");
	if (read_first_block(path, &f, "hypervisor", &hypervisor_flag) != 0) {
		snprintf(ci->note, sizeof ci->note, "%.120s: cannot read", path);
		return -1;
	}
	snprintf(ci->vendor, sizeof ci->vendor, "%s", f.vendor_id);
	snprintf(ci->brand, sizeof ci->brand, "%s", f.model_name);
	if (f.implementer[0]) {
		identify_arm(ci, &f);
	} else {
		ci->family = number(f.family);
		ci->model = number(f.model);
		ci->stepping = number(f.stepping);
	}
	if (strcmp(path, LIVE_CPUINFO) == 0)
		live_extras(ci, hypervisor_flag);
	if (hypervisor_flag && !ci->hypervisor[0])
		snprintf(ci->hypervisor, sizeof ci->hypervisor, "unidentified");
	if (!ci->vendor[0] && !ci->brand[0]) {
		snprintf(ci->note, sizeof ci->note, "%.100s: no vendor_id, model name "
			 "or CPU implementer line", path);
		return -1;
	}
	return 0;
}
