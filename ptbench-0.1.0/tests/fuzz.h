/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz tests share: a seeded generator, so that every run tries
 * the same inputs, and byte-level mutations of a file (flips, cuts,
 * duplicated stretches, stray JSON tokens, truncation).
 */
#ifndef PTB_TESTS_FUZZ_H
#define PTB_TESTS_FUZZ_H

#include <stdint.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static const char *const tokens[] = {
	"{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "1e999", "0.5", "\"ok\"",
	"\"na\"", "\"samples\"", "\"ptbench/1\"", "\\u0000", "\xff", "{}", "[]",
};
#define NTOKENS (sizeof tokens / sizeof tokens[0])

/* Apply 1-4 random edits to buf (len bytes of cap); the new length. */
static size_t mutate_bytes(char *buf, size_t len, size_t cap)
{
	for (int k = 1 + (int)below(4); k > 0; k--) {
		size_t at = below(len + 1), n = 1 + below(64);
		switch (below(5)) {
		case 0:   /* flip */
			if (len)
				buf[below(len)] = (char)rnd();
			break;
		case 1:   /* cut */
			if (at + n > len)
				n = len - at;
			memmove(buf + at, buf + at + n, len - at - n);
			len -= n;
			break;
		case 2:   /* duplicate a stretch */
			if (at + n > len)
				n = len - at;
			if (len + n < cap) {
				memmove(buf + at + n, buf + at, len - at);
				len += n;
			}
			break;
		case 3: { /* insert a token */
			const char *t = tokens[below(NTOKENS)];
			size_t tl = strlen(t);
			if (len + tl < cap) {
				memmove(buf + at + tl, buf + at, len - at);
				memcpy(buf + at, t, tl);
				len += tl;
			}
			break;
		}
		case 4:   /* truncate */
			len = at;
			break;
		}
	}
	return len;
}

#endif
