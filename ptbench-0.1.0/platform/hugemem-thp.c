/* SPDX-License-Identifier: MIT */
/*
 * Huge pages through Linux's transparent huge pages (platform/hugemem.h):
 * madvise(MADV_HUGEPAGE) on a region aligned to the PMD size, which the
 * kernel honours when THP is "always" or "madvise" and may still decline
 * (fragmented memory), which is why the caller measures the outcome.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "hugemem.h"

#define THP_ENABLED  "/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_PMD_SIZE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
#define DEFAULT_HUGE (2u << 20)

size_t ptb_hugemem_page_size(void)
{
	FILE *f = fopen(THP_PMD_SIZE, "r");
	unsigned long size = 0;
	if (f) {
		if (fscanf(f, "%lu", &size) != 1)
			size = 0;
		fclose(f);
	}
	return size ? size : DEFAULT_HUGE;
}

int ptb_hugemem_advise(void *p, size_t bytes, char *why, size_t len)
{
	char mode[128] = "";
	FILE *f = fopen(THP_ENABLED, "r");
	if (f) {
		if (!fgets(mode, sizeof mode, f))
			mode[0] = 0;
		fclose(f);
	}
	if (strstr(mode, "[never]")) {
		snprintf(why, len, "transparent huge pages are off (%s is never)", THP_ENABLED);
		return -1;
	}
	if (madvise(p, bytes, MADV_HUGEPAGE) != 0) {
		snprintf(why, len, "madvise(MADV_HUGEPAGE): %s", strerror(errno));
		return -1;
	}
	return 0;
}
