#!/bin/sh
# SPDX-License-Identifier: MIT
# What `ptbench record` leaves of the recorded program's process as it
# was: its environment (the recorder's variables taken out once the trace
# is claimed), its children and the images it execs (no recorder in
# them, no trace file of theirs in any directory), except an exec from an
# image that never started a thread (env, a shell's exec, a shim), whose
# new image goes on with the trace; the CPUs it may use; the signals sent
# to ptbench, passed on to the program; and an end by a signal, which
# ptbench ends by too.
. "$top_srcdir/tests/tap.sh"
: "${TRACE_PHASES:=./tests/trace-phases}"
[ -x "$TRACE_PHASES" ] || skip_all "test programs not built"
command -v perl > /dev/null || skip_all "perl is needed to tell a signal's end from an exit"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"
PTBENCH=$(cd "$(dirname "$PTBENCH")" && pwd)/$(basename "$PTBENCH")
PHASES=$(cd "$(dirname "$TRACE_PHASES")" && pwd)/$(basename "$TRACE_PHASES")
cd "$tmp" || exit 1
field() { "$JGET" "$1" "$2"; }
# how CMD... ended, as its parent sees it: "exit N" or "signal N"
how() { perl -e 'system(@ARGV); print $? & 127 ? "signal " . ($? & 127) : "exit " . ($? >> 8)' -- "$@"; }

# --- the environment: the program's own ------------------------------------
env | grep -v '^_=' | sort > plain.env
"$PTBENCH" record -o env.trace -- env > rec.out 2> /dev/null
grep -v '^_=' rec.out | sort > rec.env
check "the program's environment as unrecorded, LD_PRELOAD and all ($(diff plain.env rec.env | grep -c '^[<>]') lines differ)" \
	cmp -s plain.env rec.env

# --- the CPUs it may use: those it would have had, not the recording's one
# (a program that sizes its pool by them, xz -T0, started one worker);
# one that binds itself is told what it set, and stays on its PU
for cmd in nproc "taskset -c 0 nproc"; do
	plain=$($cmd)
	got=$("$PTBENCH" record -o np.trace -- $cmd 2> /dev/null)
	check "$cmd: $plain, as unrecorded (got $got)" test "$got" = "$plain"
done

# a thread bound by its kernel number to the last CPU: recorded, it stays
# on the recording's PU with its creator (it ran beside it)
got=$("$PTBENCH" record -o bind.trace -- "${PHASES%/*}/trace-bind" 2> /dev/null | sort | tr '\n' ' ')
check "a sibling bound by its thread number: on its creator's PU ($got)" \
	sh -c "echo '$got' | awk '{ exit !(NF == 6 && \$3 == \$6) }'"

# --- children and execs record nothing and leave nothing -----------------
# a shell that changes directory and runs a program there (the trace's
# name was relative: a child claimed a file of its own beside it), and a
# child started after ptbench ended
mkdir sub
"$PTBENCH" record -o rel.trace -- sh -c '(sleep 1; ls > /dev/null) & cd sub && "$0" 1 1 1000 1000 > /dev/null' \
	"$PHASES" > /dev/null 2> rel.err
rc=$?
sleep 1.5
check "a shell's child in another directory: status 0 (got $rc), nothing left there ($(ls -A sub | tr '\n' ' '))" \
	sh -c "[ $rc -eq 0 ] && [ -z \"\$(ls -A sub)\" ]"
check "  nor beside the trace after ptbench ended ($(ls -A | grep tmp | tr '\n' ' '))" \
	sh -c "! ls -A | grep -q tmp"

# --- work in processes the program started is not in the trace: said ----
"$PTBENCH" record -o procs.trace -- sh -c '"$0" 2 2 20000000 0 > /dev/null & "$0" 2 2 20000000 0 > /dev/null; wait' \
	"$PHASES" > /dev/null 2> procs.err
rc=$?
check "two children's work, not in the trace: status 0 (got $rc), a warning ($(grep -c 'not in the trace' procs.err))" \
	sh -c "[ $rc -eq 0 ] && grep -q 'not in the trace' procs.err"
"$PTBENCH" record -o threads.trace -- "$PHASES" 2 2 20000000 0 > /dev/null 2> threads.err
check "  the same work in threads: no warning ($(head -c 120 threads.err))" \
	sh -c "! grep -q 'not in the trace' threads.err"
# ... and the trace says so: predict --check refuses it (it passed a
# rustup proxy, its threads' 4 ms recorded and rustc's 1.8 s not)
"$PTBENCH" predict procs.trace --check > /dev/null 2> procs.check
rc=$?
check "  predict --check refuses it: exit 2 (got $rc), one line ($(head -c 100 procs.check))" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l < procs.check) -eq 1 ] && grep -q 'outside the trace' procs.check"
"$PTBENCH" predict threads.trace --cpus 1 --format json > threads.json
check "  and the threads' trace is not marked (untraced_cpu $(field threads.json recorded.untraced_cpu))" \
	test "$(field threads.json recorded.untraced_cpu)" = false

# --- an exec from an image that never started a thread: followed ---------
"$PTBENCH" record -o direct.trace -- "$PHASES" 3 4 1000000 500000 > /dev/null 2>&1
"$PTBENCH" predict direct.trace --cpus 1 --format json > direct.json
for via in env shell; do
	case $via in
	env) set -- env "$PHASES" ;;
	shell) set -- sh -c 'exec "$0" 3 4 1000000 500000' "$PHASES" ;;
	esac
	[ $via = env ] && set -- "$@" 3 4 1000000 500000
	"$PTBENCH" record -o $via.trace -- "$@" > /dev/null 2> $via.err
	rc=$?
	"$PTBENCH" predict $via.trace --cpus 1 --format json > $via.json 2>> $via.err
	check "through $via: the exec'd program recorded, named and with its 4 threads ($rc; $(field $via.json program), $(field $via.json recorded.threads); $(head -c 100 $via.err))" \
		test $rc -eq 0 -a "$(field $via.json program)" = trace-phases \
		-a "$(field $via.json recorded.threads)" = "$(field direct.json recorded.threads)"
done

# --- signals sent to ptbench reach the program ---------------------------
# killed SIG: ptbench records sleep 30 and gets SIG once the program runs;
# the program ends by it, ptbench ends by it too, the trace is kept
# (through perl, which puts back the default action of SIGINT that a
# shell's background job starts without)
killed() {
	perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV' -- \
		"$PTBENCH" record -o k$1.trace -- sleep 30 > /dev/null 2>&1 &
	rp=$!
	i=0
	while ! ls k$1.trace.tmp* > /dev/null 2>&1 && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.2
	kill -$1 $rp
	wait $rp
	rc=$?
	check "SIG$1 sent to ptbench alone: the program ended by it (status $rc), the trace kept" \
		sh -c "[ $rc -gt 128 ] && [ \"\$(kill -l $rc)\" = $1 ] && '$PTBENCH' predict k$1.trace > /dev/null && ! ls k$1.trace.tmp* > /dev/null 2>&1"
	# ptbench ends by the signal, which skips atexit: its lock went before
	check "... and no k$1.trace.lock left" test ! -e k$1.trace.lock
}
killed INT
killed USR1

# once each: timeout sends SIGTERM to ptbench and to its process group
# (the program had it twice: its own, and ptbench's; then ptbench passed
# on both when it ran beside the program, 2 runs of 60 under load, as
# the two came from the same sender at once); and one the program
# sends its parent is not sent back to it (it died of it)
SIGNALS=${PHASES%/*}/trace-signals
# (1.5 s: under load, ptbench and the program took over 0.5 s to start
# and the program died of the signal before it handled it)
got=$(timeout 1.5 "$PTBENCH" record -o count.trace -- "$SIGNALS" count 2> /dev/null)
check "timeout's SIGTERM: the program got it once (got: $got)" test "$got" = "1 TERM"
# ... but three sent 50 ms apart are three (taken as one by a 200 ms rule)
"$PTBENCH" record -o three.trace -- "$SIGNALS" count > three.out 2> /dev/null &
rp=$!
sleep 1
for i in 1 2 3; do kill -TERM $rp; sleep 0.05; done
wait $rp
check "three SIGTERMs 50 ms apart: the program got three (got: $(cat three.out))" test "$(cat three.out)" = "3 TERM"
got=$(perl -e '$SIG{USR1} = "DEFAULT"; exec @ARGV' -- "$PTBENCH" record -o parent.trace -- \
	"$SIGNALS" parent 2> /dev/null)
check "a signal the program sends its parent, ptbench: not sent back (got: $got)" test "$got" = "0 USR1"

got=$(how "$PTBENCH" record -o sig.trace -- sh -c 'kill -TERM $$')
want=$(how sh -c 'kill -TERM $$')
check "a program a signal ended: ptbench ends by it too ($got; unrecorded: $want)" test "$got" = "$want"
check "... and no sig.trace.lock left" test ! -e sig.trace.lock
# a wait for a child process (here the shell's for sleep 0.3) is a delay
# kept on any count of CPUs: untraced, it counted for nothing (perl's
# system of a 0.5 s sleep was predicted 3 ms)
"$PTBENCH" record -o child.trace -- sh -c 'sleep 0.3; true' > /dev/null 2>&1
"$PTBENCH" predict child.trace --cpus 1,2 --format json > child.json 2> /dev/null
p1=$("$JGET" child.json predictions.0.wall_s) p2=$("$JGET" child.json predictions.1.wall_s)
check "a shell waiting 0.3 s for its child: predicted $p1 s on 1 CPU, $p2 s on 2 (at least 0.3)" \
	awk -v a="$p1" -v b="$p2" 'BEGIN { exit !(a >= 0.295 && b >= 0.295 && a < 2 && b < 2) }'

# what the program leaves running (a daemon it started, gpg-agent under
# gpg) runs on off the recording's PU and real-time policy: it kept both
# for good
bgpid=$("$PTBENCH" record -o bg.trace -- sh -c 'sleep 30 > /dev/null 2>&1 & echo $!' 2> /dev/null)
policy=$(chrt -p "$bgpid" 2> /dev/null | sed -n 's/.*policy: //p')
mask=$(taskset -p "$bgpid" 2> /dev/null | sed 's/.*: //')
want=$(taskset -p $$ | sed 's/.*: //')
kill "$bgpid" 2> /dev/null
check "a process the program left running: $policy, CPUs $mask as unrecorded ($want)" \
	test "$policy" = SCHED_OTHER -a "$mask" = "$want"
done_testing
