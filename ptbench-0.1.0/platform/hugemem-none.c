/* SPDX-License-Identifier: MIT */
/*
 * Working-set memory where configure found no MADV_HUGEPAGE
 * (platform/hugemem.h): ordinary pages, and the reason says so.
 */
#include "config.h"

#include <stdio.h>

#include "hugemem.h"

size_t ptb_hugemem_page_size(void)
{
	return 0;
}

int ptb_hugemem_advise(void *p, size_t bytes, char *why, size_t len)
{
	(void)p;
	(void)bytes;
	snprintf(why, len, "no transparent huge pages (MADV_HUGEPAGE) on this system");
	return -1;
}
