#!/bin/sh
# SPDX-License-Identifier: MIT
# Command lines that were taken wrongly: `--version` or `--help` followed
# by more (exit 2, one line); a value outside a variable's domain -- here
# off its step, `-p stride=9 -b cache.line` -- refused before anything
# runs (exit 2, one line naming what is allowed, no file); and a repeated
# `-p` of one variable, whose values add up in order instead of the last
# one winning.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

for first in --version --help; do
	"$PTBENCH" $first --bogus >out.txt 2>err.txt
	rc=$?
	check "$first --bogus: exit 2 (got $rc)" test "$rc" = 2
	check "$first --bogus: one line on stderr ($(head -c 200 err.txt))" \
		test "$(wc -l <err.txt)" = 1
	check "$first --bogus: it names the extra argument" grep -q -- "--bogus" err.txt
	check "$first --bogus: nothing on stdout" test ! -s out.txt
done
"$PTBENCH" --version >out.txt 2>err.txt
check "--version alone still works" test "$?" = 0 -a -s out.txt

"$PTBENCH" run -b cache.line -p stride=9 --quick -o stride.json >out.txt 2>err.txt
rc=$?
check "-p stride=9 -b cache.line: exit 2 (got $rc)" test "$rc" = 2
check "one line that gives the allowed values ($(head -c 200 err.txt))" \
	sh -c 'test "$(wc -l <err.txt)" = 1 && grep -q "stride.*9.*multiple of" err.txt'
check "no file was written" test ! -e stride.json
"$PTBENCH" run -b cache.line -p stride=8..100 --quick -o stride.json >out.txt 2>err.txt
rc=$?
check "-p stride=8..100 (100 is off the step): exit 2 (got $rc)" test "$rc" = 2

"$PTBENCH" run -b mutex.pingpong -p placement=same_pu -p placement=unbound \
	--quick --trials 3 -o place.json >out.txt 2>err.txt
rc=$?
# The measured points (the derived LogP records repeat their placements),
# in the order they finished: sorted.
$JGET place.json 'results.*.bench' >bench.txt
got=$($JGET place.json 'results.*.params.placement' | paste -d' ' bench.txt - |
	awk '$1 == "mutex.pingpong" { print $2 }' | sort | tr '\n' ' ')
check "-p placement=same_pu -p placement=unbound: both placements, once each ($got; exit $rc)" \
	test "$got" = "same_pu unbound "
done_testing
