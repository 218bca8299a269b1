#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the automake fragment that compiles every benchmark file named in
# bench/list.h (each once, in list order), so that the list is the only
# place a new benchmark is registered.  Usage: mksources.sh bench/list.h
#
# It also compiles each file once per code layout (docs/design.md section
# 17): copy k is bench/layout/FILE-k.o, its descriptors renamed
# ptb_bench_SYMBOL_Lk for bench/registry.c's table of layouts, with the
# layout's flags after CFLAGS so that they win over any alignment flag the
# build was given.  Each copy depends on the file's own object, whose
# dependency tracking then stands for the copy's.
set -e
LAYOUTS="0 1 2 3 4 5 6 7"
files=$(sed -n 's/^PTB_BENCH( *\([a-z0-9_]*\) *,.*/\1/p' "$1" | awk '!seen[$0]++')
[ -n "$files" ] || { echo "mksources.sh: no PTB_BENCH lines in $1" >&2; exit 1; }
echo "# Generated from bench/list.h by bench/mksources.sh; do not edit."
printf 'libptb_a_SOURCES +='
for f in $files; do printf ' \\\n\tbench/%s.c' "$f"; done
echo
echo
printf 'PTB_LAYOUT_OBJS ='
for f in $files; do
	for k in $LAYOUTS; do printf ' \\\n\tbench/layout/%s-%s.$(OBJEXT)' "$f" "$k"; done
done
echo
for f in $files; do
	renames=$(sed -n "s/^PTB_BENCH( *$f *, *\([a-z0-9_]*\) *).*/\1/p" "$1" |
		  awk '{ printf " -Dptb_bench_%s=ptb_bench_%s_L@K@", $1, $1 }')
	for k in $LAYOUTS; do
		echo
		echo "bench/layout/$f-$k.\$(OBJEXT): \$(srcdir)/bench/$f.c bench/$f.\$(OBJEXT)"
		printf '\t@$(MKDIR_P) bench/layout\n'
		printf '\t$(AM_V_CC)$(COMPILE) $(PTB_LAYOUT_CFLAGS) $(PTB_LAYOUT_CFLAGS_%s)%s \\\n' \
			"$k" "$(echo "$renames" | sed "s/@K@/$k/g")"
		printf '\t\t-c -o $@ $(srcdir)/bench/%s.c\n' "$f"
	done
done
