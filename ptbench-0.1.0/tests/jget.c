/* SPDX-License-Identifier: MIT */
/*
 * A tiny JSON query for the shell tests, so that they need nothing beyond
 * what ptbench itself is built with: `jget FILE PATH` prints the value at a
 * dot-separated PATH ("results.0.status"); "#" is an array's length or an
 * object's size, "*" repeats the rest of the path for every element, one
 * line each.  Strings print bare, other values as compact JSON; a missing
 * value prints nothing and exits 1.  FILE "-" reads standard input.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int found;

static void print_value(const json_t *v)
{
	if (json_is_string(v)) {
		puts(json_string_value(v));
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
		puts(s);
		free(s);
	}
	found = 1;
}

static void walk(const json_t *v, char *path)
{
	if (!v)
		return;
	if (!path || !*path) {
		print_value(v);
		return;
	}
	char *rest = strchr(path, '.');
	if (rest)
		*rest++ = '\0';
	if (!strcmp(path, "#")) {
		printf("%zu\n", json_is_array(v) ? json_array_size(v) : json_object_size(v));
		found = 1;
	} else if (!strcmp(path, "*")) {
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			char *copy = rest ? strdup(rest) : NULL;
			walk(e, copy);
			free(copy);
		}
	} else if (json_is_array(v)) {
		walk(json_array_get(v, strtoul(path, NULL, 10)), rest);
	} else {
		walk(json_object_get(v, path), rest);
	}
}

int main(int argc, char **argv)
{
	json_error_t e;
	if (argc != 3) {
		fputs("usage: jget FILE PATH\n", stderr);
		return 2;
	}
	json_t *doc = strcmp(argv[1], "-") ? json_load_file(argv[1], 0, &e)
					    : json_loadf(stdin, 0, &e);
	if (!doc) {
		fprintf(stderr, "jget: %s: %s\n", argv[1], e.text);
		return 2;
	}
	walk(doc, argv[2]);
	json_decref(doc);
	return found ? 0 : 1;
}
