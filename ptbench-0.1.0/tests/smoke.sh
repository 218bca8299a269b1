#!/bin/sh
# SPDX-License-Identifier: MIT
# Smoke test: every registered benchmark runs with --quick and every record
# is ok/unstable within physical-plausibility bounds, or na with a reason,
# with the binding it asked for (tests/smoke_check.c judges the files).
. "$top_srcdir/tests/tap.sh"
[ -x "$PTBENCH" ] || skip_all "no ptbench at $PTBENCH"
dir=$(mktemp -d "${TMPDIR:-/tmp}/ptb-smoke.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
names=$("$PTBENCH" list | awk '/^[^ ]/ { print $1 }')
[ -n "$names" ] || { echo "1..1"; echo "not ok 1 - ptbench list names no benchmark"; exit 1; }
failed=
for b in $names; do
	"$PTBENCH" run -b "$b" --quick --format json -o "$dir/$b.json" >/dev/null 2>"$dir/$b.err" ||
		{ [ $? -eq 1 ] || failed="$failed $b"; }
done
for b in $failed; do echo "# ptbench run -b $b failed: $(cat "$dir/$b.err")"; done
exec ./tests/smoke_check $(for b in $names; do echo "$dir/$b.json"; done)
