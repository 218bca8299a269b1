#!/bin/sh
# SPDX-License-Identifier: MIT
# What `ptbench record` must survive (tests/trace-odd.c): a program that
# closes every descriptor it did not open and is handed the trace's
# number for a file of its own, a vfork child's exec, an exec that fails,
# the ends by signals whose default action ends a process, quick_exit,
# execl, a query of its signal handlers, a handler for one delivery that
# raises its signal again, a signal handler's call inside a
# blocking read, more condition variables than the first table holds, and
# thousands of threads one after another, waits with a time limit on a
# named clock, children forked while other threads signal, buffers
# written while their threads add to them, waits that time out
# behind working threads, a million lock and unlock pairs.  Each must come
# out as it does unrecorded -- output, files, exit status -- with a complete trace that
# holds what the program did.
. "$top_srcdir/tests/tap.sh"
: "${TRACE_ODD:=./tests/trace-odd}"
[ -x "$TRACE_ODD" ] || skip_all "test program not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"

limit= opts=
# odd NAME ARGS...: recorded into $tmp/NAME.trace (each step under $limit, with
# record's $opts), then run unrecorded;
# rc and plain_rc, the outputs in $tmp/NAME.out and $tmp/NAME.plain, the
# prediction for 1 and 2 CPUs in $tmp/NAME.json
odd() {
	name=$1; shift
	$limit "$PTBENCH" record $opts -o "$tmp/$name.trace" -- "$TRACE_ODD" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
	(exec "$TRACE_ODD" "$@" > "$tmp/$name.plain" 2> /dev/null)
	plain_rc=$?
	$limit "$PTBENCH" predict "$tmp/$name.trace" --cpus 1,2 --format json > "$tmp/$name.json" 2> "$tmp/$name.perr"
	prc=$?
}
# same NAME: status, output and a complete trace as unrecorded
same() {
	check "$1: status $plain_rc as unrecorded (got $rc), the same output, a complete trace ($(head -c 120 "$tmp/$1.perr"))" \
		sh -c "[ $rc -eq $plain_rc ] && cmp -s '$tmp/$1.out' '$tmp/$1.plain' && [ $prc -eq 0 ]"
}
field() { "$JGET" "$tmp/$1.json" "$2"; }

odd closeall closeall "$tmp/mine.txt"
same closeall
check "  its file holds what it wrote and no byte of trace ($(wc -c < "$tmp/mine.txt") bytes)" \
	test "$(cat "$tmp/mine.txt")" = hello

odd vfork vfork
same vfork
check "  all 5 threads recorded, the ones after the vfork child's exec too ($(field vfork recorded.threads))" \
	test "$(field vfork recorded.threads)" = 5

odd failexec failexec
same failexec
check "  an exec that failed: the 2 threads after it recorded ($(field failexec recorded.threads) threads)" \
	test "$(field failexec recorded.threads)" = 3

for s in alarm usr1 rt; do
	odd signal-$s signal $s
	check "an end by $s: status $plain_rc as unrecorded (got $rc), a complete trace" \
		test $rc -eq $plain_rc -a $rc -gt 128 -a $prc -eq 0
done

# the same under the normal policy, where a thread's CPU clock is read at
# every event: the last stretch before an exec is kept
opts="--sched other"
odd failexec-other failexec
odd execwork-other execwork
opts=
check "failexec and execwork under the normal policy: their work kept ($(field failexec-other predictions.0.wall_s) s, $(field execwork-other predictions.0.wall_s) s; 0.1 and 0.05 worked)" \
	awk -v a="$(field failexec-other predictions.0.wall_s)" -v b="$(field execwork-other predictions.0.wall_s)" \
	'BEGIN { exit !(a > 0.08 && b > 0.04) }'
odd fexecve fexecve
same fexecve
check "  fexecve: its 3 threads recorded before the exec ($(field fexecve recorded.threads))" \
	test "$(field fexecve recorded.threads)" = 3

odd quickexit quickexit
same quickexit
odd execl execl
same execl

odd handlers handlers
same handlers
check "  the handlers it never set are the default, as unrecorded" \
	sh -c "! grep -q handled '$tmp/handlers.out'"

# a handler for one delivery that raises its signal again, as a crash
# handler does: the second delivery takes the default action, the trace
# written first (the kernel's own reset skipped the recorder: no trace)
# (tests/trace-signals.c); and a library's one-shot handler that calls the
# application's it replaced must be handed that one (it was handed itself)
TRACE_ODD_WAS=$TRACE_ODD TRACE_ODD=${TRACE_ODD%/*}/trace-signals
for how in sigaction sysv; do
	odd resethand-$how resethand $how
	same resethand-$how
	check "  told its own handler, then the default inside it" \
		sh -c "grep -q 'before: its handler, once' '$tmp/resethand-$how.out' && grep -q 'inside: the default' '$tmp/resethand-$how.out'"
done
odd chain chain
same chain
check "  the library's handler, then the application's ($(tr '\n' ' ' < "$tmp/chain.out"))" \
	test "$(tr '\n' ' ' < "$tmp/chain.out")" = "library's handler application's handler "
TRACE_ODD=$TRACE_ODD_WAS

odd sigread sigread
same sigread

# 10000 condition variables, all alive: past the first table's 8192 every
# signal must still be matched to its wait
odd manycv manycv 10000 10000
same manycv
"$PTBENCH" predict "$tmp/manycv.trace" --cpus 1,2 > "$tmp/manycv.txt"
check "  no wait released by force in the replay" sh -c "! grep -q 'by force' '$tmp/manycv.txt'"
check "  a pipeline: speed-up above 1.7 on 2 CPUs ($(field manycv predictions.1.speedup))" \
	awk -v s="$(field manycv predictions.1.speedup)" 'BEGIN { exit !(s > 1.7) }'

# 300 children forked while two threads signal each other, each starting
# a thread and waiting on a condition variable: they record nothing and
# must not hang in a table lock of the recorder that a sibling held at the
# fork (the child skips the tables; that window is narrow -- runs of 1000
# forks without the guard never hit it -- so this checks the children's
# way through the recorder, not the window itself)
limit="timeout -k 5 120"
odd fork fork 300
limit=
same fork

# a real-time priority 2 thread preempting a priority 1 one inside the
# recorder's lock: the recording ends (it spun for ever on yields, which
# never hand the PU to a lower priority)
limit="timeout -k 5 60"
odd priorities priorities
limit=
if [ $rc -ge 124 ] && command -v pkill > /dev/null; then
	pkill -KILL -f "trace-odd priorities"      # left spinning at priority 2
fi
same priorities

# turns through pthread_mutex_clocklock and pthread_cond_clockwait: the
# waits are seen, so the replay keeps the turns serial (1.02 with no
# remote wake-up charged, the few microseconds around each hand-over
# overlapping; unseen, 1.99)
odd clockwait clockwait 1000 100000
same clockwait
check "  serial: speed-up below 1.1 on 2 CPUs ($(field clockwait predictions.1.speedup))" \
	awk -v s="$(field clockwait predictions.1.speedup)" 'BEGIN { exit !(s < 1.1) }'
check "  no time off the CPU outside traced calls ($(field clockwait recorded.untraced_share))" \
	awk -v s="$(field clockwait recorded.untraced_share)" 'BEGIN { exit !(s < 0.1) }'
check "  no thread put behind another: its threads take turns ($(field clockwait recorded.put_behind))" \
	test "$(field clockwait recorded.put_behind)" = false

# buffers written by another thread while their own threads add to them:
# 3 threads take and release a mutex 50000 times each while the main
# thread's 100 execs fail, each writing every buffer as it stands; a pause
# after each buffer written (a test hook) stands for the writer losing its
# PU there, under the normal policy.  Each thread's trylocks and unlocks
# must all be in the trace, once each (the recorder before started the
# buffer again from 0 after writing it, losing what was added meanwhile
# and writing again what was being added: a damaged trace)
TRACE_RACE=${TRACE_ODD%/*}/trace-race COUNT=${TRACE_ODD%/*}/trace-count
PTB_TRACE_TEST_PAUSE_US=200 "$PTBENCH" record --sched other -o "$tmp/race.trace" -- \
	"$TRACE_RACE" 3 50000 100 > /dev/null 2> "$tmp/race.err"
rc=$?
check "race: recorded with status 0 (got $rc; $(head -c 160 "$tmp/race.err"))" test $rc -eq 0
for kind in 7 8; do          # PTB_EV_TRYLOCK, PTB_EV_UNLOCK
	got=$("$COUNT" "$tmp/race.trace" $kind 2> /dev/null | tr '\n' ' ')
	check "  each thread's 50000 events of kind $kind, once each (got: $got)" \
		test "$got" = "1 50000 2 50000 3 50000 "
done

# a housekeeping thread whose waits time out every 10 ms while two
# workers run 200 ms each: recorded on one PU, each timeout fires while a
# worker holds the PU, and the time behind it is no part of the wait on 2
# CPUs (taken as one, it kept the speed-up at 1.00)
TIMED=${TRACE_ODD%/*}/trace-timed
for how in cond sem lock; do
	"$PTBENCH" record -o "$tmp/timed-$how.trace" -- "$TIMED" $how 200 > /dev/null 2>&1
	"$PTBENCH" predict "$tmp/timed-$how.trace" --cpus 1,2 --format json > "$tmp/timed-$how.json" 2>&1
	check "timeouts ($how) behind working threads: speed-up above 1.8 on 2 CPUs ($(field timed-$how predictions.1.speedup))" \
		awk -v s="$(field timed-$how predictions.1.speedup)" 'BEGIN { exit !(s > 1.8) }'
done

# a program in a folder whose name is not UTF-8 (Latin-1): the JSON holds
# its call sites, made valid (jansson refused the bytes, and the limits
# were left out without a word)
latin=$(printf '%s/caf\351' "$tmp")
mkdir "$latin" && cp "$TRACE_ODD" "$latin/"
"$PTBENCH" record -o "$tmp/latin.trace" -- "$latin/${TRACE_ODD##*/}" clockwait 100 100000 > /dev/null 2>&1
"$PTBENCH" predict "$tmp/latin.trace" --cpus 1,2 --format json > "$tmp/latin.json" 2>&1
check "a program in a folder named in Latin-1: the limits in the JSON ($(field latin limits.0.site 2>&1 | head -c 100))" \
	sh -c "'$JGET' '$tmp/latin.json' limits.0.site | grep -q 'caf.*trace-odd'"

# 50000 threads, one after another: all recorded, and the recording's
# memory no more than 200 MB above the program's own (each thread's
# buffer is 512 KiB: kept, 5000 of them took 2.5 GB); predicted within a
# generous 30 s (every step of the replay looked at every thread: 115 s)
limit="timeout -k 5 30"
odd threads threads 50000
limit=
check "threads: status 0 (got $rc), a complete trace ($(head -c 120 "$tmp/threads.perr"))" \
	test $rc -eq 0 -a $prc -eq 0
check "  50001 threads recorded ($(field threads recorded.threads))" \
	test "$(field threads recorded.threads)" = 50001
read -r _ vm_rec < "$tmp/threads.out"
read -r _ vm_plain < "$tmp/threads.plain"
check "  address space recorded ${vm_rec} kB, unrecorded ${vm_plain} kB: under 200 MB apart" \
	test "$vm_rec" -lt $((vm_plain + 204800))

# an OpenMP program: libgomp sizes its teams in its own constructor, which
# runs before the interposer's, and was answered the one PU -- teams of one
# thread recorded, of as many as the CPUs unrecorded
TRACE_OMP=${TRACE_ODD%/*}/trace-omp
if [ -x "$TRACE_OMP" ]; then
	TRACE_ODD_WAS=$TRACE_ODD TRACE_ODD=$TRACE_OMP
	odd omp
	TRACE_ODD=$TRACE_ODD_WAS
	same omp
	if grep -q 'team 1$' "$tmp/omp.plain"; then
		skip "one CPU here: a team of one either way ($(cat "$tmp/omp.plain"))"
	else
		check "  the team as unrecorded: $(cat "$tmp/omp.out")" grep -Eq 'team ([2-9]|[1-9][0-9]+)$' "$tmp/omp.out"
	fi
else
	skip "built without OpenMP"
	skip "built without OpenMP"
fi

# daemon(): glibc's parent ends by an _exit inside the C library, which no
# wrapper saw; the trace was never written, and record exited 2 where the
# program exited 0
odd daemon daemon
same daemon

# a million lock and unlock pairs on one thread: the recording is almost
# all the probes' cost, which comes off -- a bare event's alone left over
# half of it in, and a burst too short to pay its share paid nothing (1
# CPU came to 0.55 of the recorded wall; now 0.11-0.2 alone).  Beside a
# loaded CPU each event took a third longer than the cost measured at the
# start (CI: 0.337), so a miss is recorded once more, as trace-io.sh does;
# a probe cost left in misses both.
pairs_off() {
	awk -v p="$(field pairs predictions.0.wall_s)" -v r="$(field pairs recorded.wall_s)" 'BEGIN { exit !(p < r / 3) }'
}
odd pairs pairs 1000000
if ! pairs_off; then
	diag "pairs: first recording missed ($(field pairs predictions.0.wall_s) of $(field pairs recorded.wall_s) s) -- recording it once more"
	odd pairs pairs 1000000
fi
same pairs
check "  the probes' cost off: 1 CPU $(field pairs predictions.0.wall_s) s, under a third of the recorded $(field pairs recorded.wall_s) s" \
	pairs_off
done_testing
