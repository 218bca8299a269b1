#!/bin/sh
# SPDX-License-Identifier: MIT
# The runner contains misbehaving benchmarks: a hang is killed by the
# watchdog and its points are `timeout`, a crash marks its points `crashed`,
# the suite goes on after both, and SIGINT keeps every finished point in a
# valid file marked `interrupted`.  Uses the test-only benchmarks of
# tests/bench-faulty.c, linked into $PTBENCH_T.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
q="--quick --format json"

# statuses FILE BENCH: the statuses of BENCH's records, on one line.
statuses() {
	$JGET "$1" 'results.*.bench' >benches.tmp
	$JGET "$1" 'results.*.status' >statuses.tmp
	paste -d' ' benches.tmp statuses.tmp | awk -v b="$2" '$1 == b {print $2}' | tr '\n' ' ' | sed 's/ $//'
	rm -f benches.tmp statuses.tmp
}

start=$(date +%s)
"$PTBENCH_T" run -b test.hang -b cond.signal --timeout 2 $q -o hang.json >/dev/null 2>err.txt
rc=$?
took=$(( $(date +%s) - start ))
check "a hang exits 1 (a point failed), got $rc" test "$rc" = 1
check "the watchdog fired in time (${took}s)" test "$took" -lt 15
check "the hung benchmark's six points are timeout" \
	test "$(statuses hang.json test.hang)" = "timeout timeout timeout timeout timeout timeout"
check "the first names the watchdog, the others an earlier point" \
	sh -c "$JGET hang.json 'results.*.reason' | grep -c 'no result within --timeout 2 s\$' | grep -qx 1 &&
	       $JGET hang.json 'results.*.reason' | grep -c 'earlier point' | grep -qx 5"
check "the suite went on: cond.signal ran after the hang" \
	sh -c "$JGET hang.json 'results.*.bench' | grep -qx cond.signal"
check "the file is complete" test "$($JGET hang.json status)" = complete

# The watchdog times each point, not the benchmark: six points of 0.3 s
# each (about 0.6 s with measuring) outlast a 1.5 s timeout together but
# not one by one.
"$PTBENCH_T" run -b test.slow --timeout 1.5 $q -o slow.json >/dev/null 2>err.txt
rc=$?
check "points within --timeout are not killed, however many (exit $rc)" \
	sh -c "test $rc = 0 && test \"\$($JGET slow.json 'results.#')\" = 6 &&
	       ! $JGET slow.json 'results.*.status' | grep -q timeout"

"$PTBENCH_T" run -b test.crash $q -o crash.json >/dev/null 2>err.txt
rc=$?
check "a crash exits 1, got $rc" test "$rc" = 1
check "the point before the crash finished (ok or unstable)" \
	sh -c "$JGET crash.json results.0.status | grep -qx -e ok -e unstable"
check "the crashing point is crashed with the signal named" \
	sh -c "test \"\$($JGET crash.json results.1.status)\" = crashed &&
	       $JGET crash.json results.1.reason | grep -q 'signal 11'"
check "the points after it are crashed too" \
	test "$($JGET crash.json 'results.*.status' | tail -4 | sort -u)" = crashed
# Only this test's own processes count (they run in its directory): other
# builds on the same machine may be running ptbench-t at the same time.
ours_left() {
	for pid in $(pgrep -x ptbench-t); do
		[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(pwd -P)" ] && return 0
	done
	return 1
}
check "no process was left behind" eval '! ours_left'


# test.slow spends 0.3 s in each of its six points.
"$PTBENCH_T" run -b test.slow $q -o int.json >/dev/null 2>err.txt &
pid=$!
sleep 1.2
kill -INT $pid
wait $pid
rc=$?
n=$($JGET int.json 'results.#')
check "an interrupted run exits 130, got $rc" test "$rc" = 130
check "the file is marked interrupted" test "$($JGET int.json status)" = interrupted
check "finished points were kept ($n of 6)" test "$n" -ge 1 -a "$n" -lt 6
check "every kept point finished (ok or unstable, never cut short)" \
	sh -c "! $JGET int.json 'results.*.status' | grep -qv -e '^ok\$' -e '^unstable\$'"
check "no temporary file is left" test -z "$(ls | grep -v -e '\.json$' -e '^err.txt$')"
check "the interrupted file reads back" sh -c "'$PTBENCH' report int.json --format csv >/dev/null"
done_testing
