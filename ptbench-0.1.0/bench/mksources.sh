#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the automake fragment that compiles every benchmark file named in
# bench/list.h (each once, in list order), so that the list is the only
# place a new benchmark is registered.  Usage: mksources.sh bench/list.h
set -e
files=$(sed -n 's/^PTB_BENCH( *\([a-z0-9_]*\) *,.*/\1/p' "$1" | awk '!seen[$0]++')
[ -n "$files" ] || { echo "mksources.sh: no PTB_BENCH lines in $1" >&2; exit 1; }
echo "# Generated from bench/list.h by bench/mksources.sh; do not edit."
printf 'libptb_a_SOURCES +='
for f in $files; do printf ' \\\n\tbench/%s.c' "$f"; done
echo
