#!/bin/sh
# SPDX-License-Identifier: MIT
# Two commands never write one file: while a run writes -o FILE, a second
# run with the same -o is refused at once (exit 2, one line naming the
# holder), and so is a plot to that file; the file keeps the first run;
# the lock goes with the run that held it, and the path is free again.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
first=""
trap '[ -n "$first" ] && kill "$first" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1

# A run that lasts: test.slow takes 0.3 s a point, for many trials.
"$PTBENCH_T" run -b test.slow --trials 100 --timeout 10 -o shared.svg >first.out 2>first.err &
first=$!
for i in $(seq 1 300); do    # until its run document is on disk (30 s)
	[ -s shared.svg ] && break
	sleep 0.1
done
check "the first run has written its document" test -s shared.svg
check "and holds the lock file, with its pid" test "$(cat shared.svg.lock 2>/dev/null)" = "$first"

"$PTBENCH" run -b cond.signal --quick -o shared.svg >second.out 2>second.err
rc=$?
check "a second run with the same -o: exit 2 (got $rc)" test "$rc" = 2
check "one line on stderr" test "$(wc -l <second.err)" = 1
check "it names the holder ($(cat second.err))" grep -q "another ptbench is writing it.*pid $first" second.err
check "nothing measured (nothing on stdout)" test ! -s second.out
check "the file still holds the first run" \
	sh -c "$JGET shared.svg context.command | grep -q test.slow"

if command -v gnuplot >/dev/null 2>&1; then
	"$PTBENCH" plot "$TESTDATA/run-golden-v2.json" -o shared.svg >plot.out 2>plot.err
	rc=$?
	check "plot -o the same file: exit 2 (got $rc)" test "$rc" = 2
	check "it says why ($(cat plot.err))" grep -q "another ptbench is writing it" plot.err
else
	skip "plot -o the same file: no gnuplot"
fi

kill -INT "$first"
wait "$first"
first=""
check "the lock file goes with its run" test ! -e shared.svg.lock
check "the interrupted first run kept its file" \
	test "$($JGET shared.svg status)" = interrupted

"$PTBENCH" run -b cond.signal --quick --trials 3 -o shared.svg >third.out 2>third.err
rc=$?
check "the path is free again: a third run writes it (exit $rc)" test "$rc" = 0
check "no lock file after it" test ! -e shared.svg.lock
done_testing
