/* SPDX-License-Identifier: MIT */
/*
 * Working-set memory on huge pages (platform/hugemem.h): the mapping and
 * its accounting, common to every variant.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hugemem.h"

#define SMALL_ALIGN 4096

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) / to * to;
}

int ptb_hugemem_alloc(struct ptb_hugemem *m, size_t bytes)
{
	size_t huge = ptb_hugemem_page_size(), align = huge ? huge : SMALL_ALIGN;
	size_t region = round_up(bytes, align);
	memset(m, 0, sizeof *m);
	m->bytes = bytes;
	m->huge_fraction = -1;
	m->map_bytes = region + align;
	m->map = mmap(NULL, m->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (m->map == MAP_FAILED) {
		snprintf(m->why, sizeof m->why, "mmap of %zu bytes: %s", m->map_bytes, strerror(errno));
		m->map = NULL;
		return -1;
	}
	m->base = (void *)round_up((uintptr_t)m->map, align);
	if (!huge)
		ptb_hugemem_advise(m->base, region, m->why, sizeof m->why);
	else if (ptb_hugemem_advise(m->base, region, m->why, sizeof m->why) < 0)
		huge = 0;
	for (size_t off = 0; off < region; off += SMALL_ALIGN)
		((volatile char *)m->base)[off] = 0;
	m->huge_fraction = huge ? ptb_hugemem_fraction(m->base, region) : 0;
	if (huge && m->huge_fraction >= 0 && m->huge_fraction < 1)
		snprintf(m->why, sizeof m->why, "the kernel put %.0f %% of %zu KiB on huge pages",
			 100 * m->huge_fraction, region >> 10);
	return 0;
}

void ptb_hugemem_free(struct ptb_hugemem *m)
{
	if (m->map)
		munmap(m->map, m->map_bytes);
	m->map = m->base = NULL;
}

/* A VMA header of smaps: "start-end perms ..."; 1 when parsed. */
static int vma_range(const char *line, uintptr_t *lo, uintptr_t *hi)
{
	unsigned long a, b;
	char dash;
	if (sscanf(line, "%lx%c%lx", &a, &dash, &b) != 3 || dash != '-')
		return 0;
	*lo = a;
	*hi = b;
	return 1;
}

double ptb_hugemem_fraction(const void *p, size_t bytes)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	uintptr_t lo = (uintptr_t)p, hi = lo + bytes, a = 0, b = 0;
	unsigned long kb, total = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (vma_range(line, &a, &b))
			continue;
		if (a < hi && b > lo && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			total += kb;
	}
	fclose(f);
	double frac = bytes ? (double)total * 1024 / (double)bytes : 0;
	return frac > 1 ? 1 : frac;
}
