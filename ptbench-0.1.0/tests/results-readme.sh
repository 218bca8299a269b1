#!/bin/sh
# SPDX-License-Identifier: MIT
# results/README.md is the table of every file in results/ as ptbench prints
# it today: regenerate it and compare (`make results-readme` fixes a stale one).
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh "$top_srcdir/results/mkreadme.sh" "$PTBENCH" "$top_srcdir/results" >"$work/README.md" 2>"$work/err"
check "the README's table can be made (every result file loads)" test $? = 0 -a ! -s "$work/err"
sed 's/^/# /' "$work/err"
if diff -u "$top_srcdir/results/README.md" "$work/README.md" >"$work/diff"; then
	ok "results/README.md is current"
else
	not_ok "results/README.md is out of date: run 'make results-readme'"
	head -30 "$work/diff" | sed 's/^/# /'
fi
check "the README shows the paper's machines" grep -q '| Digital AlphaServer 4100 (Alpha ev5 533 MHz) | IBM SP2 CTR' "$top_srcdir/results/README.md"
done_testing
