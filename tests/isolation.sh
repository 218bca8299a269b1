#!/bin/sh
# SPDX-License-Identifier: MIT
# The runner contains misbehaving benchmarks.  A trial that hangs is killed
# by the watchdog and one that crashes is lost; either is recorded in its
# point's trials and the point goes on, until two in a row are lost, which
# fails the point (`timeout`, `crashed`); the suite goes on after both.
# SIGINT, SIGTERM and SIGHUP keep every point with trials in a valid file
# marked `interrupted`.  Uses the test-only benchmarks of
# tests/bench-faulty.c, linked into $PTBENCH_T.
. "$top_srcdir/tests/tap.sh"

work=$(cd "$(mktemp -d)" && pwd -P)
marks=$(mktemp -d)
trap 'rm -rf "$work" "$marks"' EXIT
cd "$work" || exit 1
q="--quick --format json"

# statuses FILE BENCH: the statuses of BENCH's records, on one line.
statuses() {
	$JGET "$1" 'results.*.bench' >benches.tmp
	$JGET "$1" 'results.*.status' >statuses.tmp
	paste -d' ' benches.tmp statuses.tmp | awk -v b="$2" '$1 == b {print $2}' | tr '\n' ' ' | sed 's/ $//'
	rm -f benches.tmp statuses.tmp
}

# left_behind: ptbench-t processes started here (their working directory is
# this test's) that still run; other test suites may run beside this one.
left_behind() {
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = ptbench-t ] &&
			[ "$(readlink "$p/cwd" 2>/dev/null)" = "$work" ] && echo "${p#/proc/}"
	done
}

# record FILE BENCH: the index of BENCH's first record.
record() {
	$JGET "$1" 'results.*.bench' | awk -v b="$2" '$1 == b {print NR - 1; exit}'
}

start=$(date +%s)
"$PTBENCH_T" run -b test.hang -p k=1,2 -b cond.signal --timeout 1 $q -o hang.json >/dev/null 2>err.txt
rc=$?
took=$(( $(date +%s) - start ))
check "a hang exits 1 (a point failed), got $rc" test "$rc" = 1
check "the watchdog fired in time (${took}s for 4 hung trials of 1 s)" test "$took" -lt 12
check "the hung benchmark's two points are timeout" \
	test "$(statuses hang.json test.hang)" = "timeout timeout"
check "each names the watchdog and its two lost trials" \
	sh -c "$JGET hang.json 'results.*.reason' |
	       grep -c '^2 trials in a row lost: no answer within --timeout 1 s\$' | grep -qx 2"
h=$(record hang.json test.hang)
check "the lost trials are in the record, with their round" \
	sh -c "test \"\$($JGET hang.json results.$h.trials.0.status)\" = timeout &&
	       test \"\$($JGET hang.json results.$h.trials.1.round)\" = 2"
st=$(statuses hang.json cond.signal)
check "the suite went on: cond.signal was measured among the hangs ($st)" \
	test "$st" = ok -o "$st" = unstable
check "the file is complete" test "$($JGET hang.json status)" = complete

# The watchdog times each trial, not the point: six trials of 0.3 s
# each outlast a 1.5 s timeout together but not one by one.  The margin
# of one trial (1.2 s) is for a loaded machine: the first trial of a
# worker is timed from the request, so it includes the worker's start.
"$PTBENCH_T" run -b test.slow -p k=1,2 --trials 6 --timeout 1.5 $q -o slow.json >/dev/null 2>err.txt
rc=$?
check "trials within --timeout are not killed, however many (exit $rc)" \
	sh -c "test $rc = 0 && test \"\$($JGET slow.json 'results.#')\" = 2 &&
	       ! $JGET slow.json 'results.*.status' | grep -q timeout"
for i in 0 1; do
	n=$($JGET slow.json "results.$i.ntrials")
	sum=$($JGET slow.json "results.$i.trials.*.elapsed_s" | awk '{ s += $1 } END { print s + 0 }')
	check "... point $i: its $n trials together took ${sum}s, more than the timeout" \
		awk -v n="$n" -v s="$sum" 'BEGIN { exit !(n == 6 && s > 1.5) }'
done

"$PTBENCH_T" run -b test.crash -p k=1,2,3 $q -o crash.json >/dev/null 2>err.txt
rc=$?
c=$($JGET crash.json 'results.*.params.k' | awk '$1 == 2 {print NR - 1}')
check "a crash exits 1, got $rc" test "$rc" = 1
check "the crashing point is crashed with the signal named" \
	sh -c "test \"\$($JGET crash.json results.$c.status)\" = crashed &&
	       $JGET crash.json results.$c.reason | grep -q 'killed by signal 11'"
check "the other points were measured" \
	test "$($JGET crash.json 'results.*.status' | grep -c -e '^ok$' -e '^unstable$')" = 2
check "no process was left behind" test -z "$(left_behind)"

for mode in crash hang; do
	touch flaky
	PTB_TEST_FLAKY=$PWD/flaky "$PTBENCH_T" run -b test.flaky -p mode=$mode --timeout 1 \
		$q -o flaky-$mode.json >/dev/null 2>err.txt
	rc=$?
	check "one lost trial ($mode) does not fail the point (exit $rc)" \
		sh -c "test $rc = 0 && $JGET flaky-$mode.json results.0.status | grep -qx -e ok -e unstable"
	check "the lost trial is recorded beside the three kept ($mode)" \
		sh -c "test \"\$($JGET flaky-$mode.json results.0.trials.#)\" = 4 &&
		       test \"\$($JGET flaky-$mode.json results.0.ntrials)\" = 3 &&
		       $JGET flaky-$mode.json results.0.trials.0.status | grep -qx -e crashed -e timeout"
done
check "the kept trials came from different processes" \
	test "$($JGET flaky-crash.json 'results.0.trials.*.worker' | sort -u | wc -l)" -ge 3

# test.slow spends 0.3 s in each trial: six points of three trials take
# about 6 s.  Each signal interrupts a run in its first round, once its
# first trial is kept: test.slow notes in $PTB_TEST_SLOW_LOG each trial it
# starts, and trials run one after another, so the second note says the
# first trial was answered.  Waiting for that, not for a fixed time, holds
# however long a loaded machine takes to start the run; the signal then
# has four trials (1.2 s) to land in before the round is over.
# after_first_trial LOG PID: wait (60 s at most) for LOG's second note.
after_first_trial() {
	i=0
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 600 ] &&
		kill -0 "$2" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
}
for sig in INT TERM HUP; do
	PTB_TEST_SLOW_LOG=$marks/$sig "$PTBENCH_T" run -b test.slow $q -o int-$sig.json >/dev/null 2>err.txt &
	pid=$!
	after_first_trial "$marks/$sig" $pid
	kill -$sig $pid
	wait $pid
	rc=$?
	n=$($JGET int-$sig.json 'results.#')
	check "SIG$sig: the run exits 130, got $rc" test "$rc" = 130
	check "SIG$sig: the file is marked interrupted" test "$($JGET int-$sig.json status)" = interrupted
	check "SIG$sig: points with trials were kept ($n of 6)" test "$n" -ge 1 -a "$n" -lt 6
	check "SIG$sig: each kept point says it was interrupted, none crashed" \
		sh -c "! $JGET int-$sig.json 'results.*.stop' | grep -qvx interrupted &&
		       ! $JGET int-$sig.json 'results.*.status' | grep -q -e crashed -e timeout"
done

# A signal to the whole process group reaches the workers too: that is an
# interrupt, not a crash.
PTB_TEST_SLOW_LOG=$marks/group setsid "$PTBENCH_T" run -b test.slow $q -o group.json >/dev/null 2>err.txt &
pid=$!
after_first_trial "$marks/group" $pid
kill -TERM -- -$pid 2>/dev/null || kill -TERM $pid
wait $pid
check "SIGTERM to the process group: interrupted, no point crashed" \
	sh -c "test \"\$($JGET group.json status)\" = interrupted &&
	       ! $JGET group.json 'results.*.status' | grep -q -e crashed -e timeout &&
	       ! $JGET group.json 'results.*.trials.*.status' | grep -q -e crashed -e timeout"
# The rounds' order comes from the seed: the same seed, the same order.
order() {
	for i in $(seq 0 $(( $($JGET "$1" 'results.#') - 1 ))); do
		echo "$($JGET "$1" results.$i.bench) $($JGET "$1" "results.$i.trials.*.seq" | paste -sd,)"
	done | sort
}
for f in 1 2 3; do
	seed=42
	[ $f = 3 ] && seed=43
	"$PTBENCH_T" run -b test.crash -p k=1,3,4,5,6 $q --seed $seed -o seed$f.json >/dev/null 2>&1
done
check "the same --seed gives the same rounds" test "$(order seed1.json)" = "$(order seed2.json)"
check "another seed, other rounds" test "$(order seed1.json)" != "$(order seed3.json)"
check "the seed is recorded" test "$($JGET seed1.json context.harness.trials.seed)" = 42

check "no temporary file is left" test -z "$(ls | grep -v -e '\.json$' -e '^err.txt$')"
check "the interrupted file reads back" sh -c "'$PTBENCH' report int-INT.json --format csv >/dev/null"
sleep 0.2
check "no process was left behind" test -z "$(left_behind)"
done_testing
