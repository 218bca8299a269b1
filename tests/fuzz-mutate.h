/* SPDX-License-Identifier: MIT */
/*
 * Structure-aware mutations of a result document (jansson), for the fuzz
 * tests: what a crafted or damaged file does to the values a reader takes
 * from it.  A number becomes inf's nearest neighbours (1e308), a negative,
 * zero, a huge integer; a string becomes "inf", "nan", "1e999", a quote, a
 * backquoted command, a control sequence, a benchmark or status name, or
 * thousands of bytes; a point's variable becomes such a string; an array
 * grows to tens of thousands of elements; any value takes another type or
 * is deleted.  The generator is fuzz.h's, so a seed replays an input.
 */
#ifndef PTB_TESTS_FUZZ_MUTATE_H
#define PTB_TESTS_FUZZ_MUTATE_H

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* A value of a document: its parent and its place there. */
struct node {
	json_t *parent;
	const char *key;   /* NULL: array element */
	size_t index;
};

/* The values of v, up to cap of them (a grown array shares its elements:
 * a walk without the cap could visit millions). */
static void collect(json_t *v, struct node *nodes, size_t *n, size_t cap)
{
	const char *key;
	json_t *e;
	size_t i;
	if (*n >= cap)
		return;
	json_object_foreach(v, key, e) {
		if (*n < cap)
			nodes[(*n)++] = (struct node){ v, key, 0 };
		collect(e, nodes, n, cap);
	}
	json_array_foreach(v, i, e) {
		if (*n < cap)
			nodes[(*n)++] = (struct node){ v, NULL, i };
		collect(e, nodes, n, cap);
	}
}

static json_t *node_value(const struct node *p)
{
	return p->key ? json_object_get(p->parent, p->key) : json_array_get(p->parent, p->index);
}

static void node_set(const struct node *p, json_t *v)
{
	if (p->key)
		json_object_set_new(p->parent, p->key, v);
	else
		json_array_set_new(p->parent, p->index, v);
}

static void node_drop(const struct node *p)
{
	if (p->key)
		json_object_del(p->parent, p->key);
	else
		json_array_remove(p->parent, p->index);
}

static json_t *random_value(void)
{
	static const char *const texts[] = { "", "ok", "na", "unstable", "logp.mutex", "x" };
	switch (below(9)) {
	case 0: return json_null();
	case 1: return json_true();
	case 2: return json_integer((json_int_t)below(5) - 2);
	case 3: return json_real(below(2) ? 1e308 : -0.5);
	case 4: return json_string(texts[below(6)]);
	case 5: return json_array();
	case 6: return json_object();
	case 7: return json_pack("[i, s, n]", 1, "a");
	default: return json_pack("{s:i}", "a", 1);
	}
}

/* Numbers at and beyond every bound a reader might rely on. */
static json_t *special_number(void)
{
	static const double reals[] = {
		1e308, -1e308, -1, -0.0, 0.5, 1e-300, 4.9e-324, 1e15, 1.000001e15, 0x1p63,
		1e19, 2147483648.0, 1e12, 3.5,
	};
	static const json_int_t ints[] = {
		INT64_MAX, INT64_MIN, -1, 0, 1, 2, 2147483647, 2147483648LL, -2147483649LL,
		4294967296LL, 1000000,
	};
	if (below(2))
		return json_real(reals[below(sizeof reals / sizeof *reals)]);
	return json_integer(ints[below(sizeof ints / sizeof *ints)]);
}

static const char *const special_texts[] = {
	"inf", "-inf", "nan", "1e999", "-1e999", "1e300", "0x1p9999", "9.3e18", "-1", "0",
	"", "65536", "1e-400", " 12", "'", "'q\"`touch PWNED`@m $y \\", "\x1b[31m\x07",
	"\xc3\xa9\xe2\x80\x8f", "<b>&amp;</b>", "ok", "unstable", "na", "error", "crashed",
	"complete", "running", "cache.latency", "cache.line", "cache.levels", "logp.mutex",
	"logp.cond", "c2c", "c2c.pair", "mutex.contention", "barrier", "mutex.pingpong",
	"cond.pingpong", "same_pu", "cross_core", "smt", "cross_package", "compact", "spread",
	"ptbench/1", "ptbench/2", "ns", "us",
};
#define NSPECIAL (sizeof special_texts / sizeof *special_texts)

/* Variables readers take numbers or names from. */
static const char *const var_names[] = {
	"size", "threads", "stride", "placement", "order", "impl", "signal", "mutexes",
};

/* A string of n bytes: a name far past any bound, or just within. */
static json_t *long_string(size_t n)
{
	char *s = malloc(n + 1);
	json_t *v;
	if (!s)
		abort();
	for (size_t i = 0; i < n; i++)
		s[i] = "ab'\"c\xc3\xa9 "[i % 8];
	if (n && (unsigned char)s[n - 1] == 0xc3)
		s[n - 1] = 'x';                 /* no half character at the end */
	s[n] = 0;
	v = json_stringn_nocheck(s, n);
	free(s);
	return v;
}

/* The size of v, counted up to limit: a value is one, a string one more
 * per 32 bytes (the printed size, over 16 or so). */
static size_t count_values(const json_t *v, size_t limit)
{
	const char *key;
	json_t *e;
	size_t i, n = 1 + (json_is_string(v) ? json_string_length(v) / 32 : 0);
	json_object_foreach((json_t *)v, key, e)
		if ((n += count_values(e, limit - n)) >= limit)
			return limit;
	json_array_foreach(v, i, e)
		if ((n += count_values(e, limit - n)) >= limit)
			return limit;
	return n;
}

/* About the bytes of v as a file: eight a value, and its text. */
static size_t approx_bytes(const json_t *v)
{
	const char *key;
	json_t *e;
	size_t i, n = 8 + (json_is_string(v) ? json_string_length(v) : 0);
	json_object_foreach((json_t *)v, key, e)
		n += strlen(key) + approx_bytes(e);
	json_array_foreach(v, i, e)
		n += approx_bytes(e);
	return n;
}

/* The most a document may hold after growing an array (count_values): a
 * file of a few megabytes, which every reader takes in seconds and prints
 * in far less than the fuzzer's OUT_MAX. */
#define GROWN_MAX 200000

/* An array grown to n elements by copies of its own (or of one value),
 * short of GROWN_MAX values in the document. */
static void grow_array(json_t *doc, json_t *a, size_t n)
{
	size_t have = json_array_size(a), total = count_values(doc, GROWN_MAX);
	json_t *seed = have ? json_deep_copy(json_array_get(a, below(have))) : json_real(1);
	size_t each = count_values(seed, GROWN_MAX);
	if (total + (n - have) * each > GROWN_MAX)
		n = have + (GROWN_MAX - total) / each;
	while (json_array_size(a) < n && json_array_append(a, seed) == 0)
		;                             /* one value, shared: cheap */
	json_decref(seed);
}

/* The nodes of a kind: numbers, strings, arrays, or a point's variables. */
enum pick { ANY_NODE, NUMBER_NODE, STRING_NODE, ARRAY_NODE, PARAMS_NODE };

static bool node_is(const struct node *p, enum pick k)
{
	json_t *v = node_value(p);
	switch (k) {
	case ANY_NODE:    return true;
	case NUMBER_NODE: return json_is_number(v);
	case STRING_NODE: return json_is_string(v);
	case ARRAY_NODE:  return json_is_array(v);
	case PARAMS_NODE: return p->key && !strcmp(p->key, "params") && json_is_object(v);
	}
	return false;
}

/* A random node of that kind, or of any when there is none. */
static struct node *pick_node(struct node *nodes, size_t n, enum pick k)
{
	size_t count = 0, chosen;
	for (size_t i = 0; i < n; i++)
		count += node_is(&nodes[i], k);
	if (!count)
		return n ? &nodes[below(n)] : NULL;
	chosen = below(count);
	for (size_t i = 0; i < n; i++)
		if (node_is(&nodes[i], k) && chosen-- == 0)
			return &nodes[i];
	return NULL;
}

/* One mutation of doc, chosen at random; nodes is scratch space. */
static void mutate_doc(json_t *doc, struct node *nodes, size_t cap)
{
	size_t n = 0;
	struct node *p;
	collect(doc, nodes, &n, cap);
	switch (below(16)) {
	case 0: case 1: case 2: case 3:        /* a number at a bound */
		if ((p = pick_node(nodes, n, NUMBER_NODE)))
			node_set(p, special_number());
		break;
	case 4: case 5: case 6:                /* a string that means more */
		if ((p = pick_node(nodes, n, STRING_NODE)))
			node_set(p, json_string(special_texts[below(NSPECIAL)]));
		break;
	case 7: case 8: case 9: {              /* a variable's value */
		if (!(p = pick_node(nodes, n, PARAMS_NODE)) || !json_is_object(node_value(p)))
			break;
		const char *var = var_names[below(sizeof var_names / sizeof *var_names)];
		json_object_set_new(node_value(p), var,
				    below(8) ? json_string(special_texts[below(NSPECIAL)])
					     : special_number());
		break;
	}
	case 10:                               /* a long string */
		if ((p = pick_node(nodes, n, STRING_NODE))) {
			static const size_t lens[] = { 4095, 4096, 4097, 70000 };
			node_set(p, long_string(lens[below(4)]));
		}
		break;
	case 11:                               /* a huge array, now and then */
		if (below(8) == 0 && (p = pick_node(nodes, n, ARRAY_NODE)) &&
		    json_is_array(node_value(p))) {
			static const size_t sizes[] = { 1000, 5000, 30000 };
			grow_array(doc, node_value(p), sizes[below(3)]);
		}
		break;
	case 12: case 13:                      /* another type */
		if (n)
			node_set(&nodes[below(n)], random_value());
		break;
	default:                               /* gone */
		if (n)
			node_drop(&nodes[below(n)]);
		break;
	}
}

#endif
