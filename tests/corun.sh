#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench corun` (cli/cmd-corun.c: a program's own co-running slowdown,
# copies of it at once, one per core) and `predict --corun FILE`
# (docs/design.md, "the program's own co-running slowdown").  The
# measurement's figure depends on the machine, so it is checked for its
# mechanism (every copy read the whole input, the schema, the rounds) and
# a generous bound; the prediction with a made-up file has an exact answer.
. "$top_srcdir/tests/tap.sh"
: "${TRACE_PHASES:=./tests/trace-phases}"
[ -x "$TRACE_PHASES" ] || skip_all "test programs not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# refused WHAT PATTERN ARGS...: exit 2, nothing on stdout, one line on
# stderr, and that line says PATTERN (not another refusal met first)
refused() {
	d=$1 pat=$2; shift 2
	"$PTBENCH" "$@" > "$tmp/r.out" 2> "$tmp/r.err" < /dev/null
	rc=$?
	check "$d: exit 2 (got $rc), one line on '$pat', no output ($(head -n 1 "$tmp/r.err"))" said "$pat"
}
said() {
	[ "$rc" -eq 2 ] && [ "$(wc -l < "$tmp/r.err")" -eq 1 ] && [ ! -s "$tmp/r.out" ] &&
		grep -q -- "$1" "$tmp/r.err"
}
# gone FILE: no process of the pids listed in FILE runs any more (a
# zombie is gone: killed, its parent dead, and in a container whose pid
# 1 reaps nothing it stays a zombie)
gone() {
	for p in $(cat "$1"); do
		state=$(sed 's/.*) //' "/proc/$p/stat" 2> /dev/null | cut -c1)
		[ -n "$state" ] && [ "$state" != Z ] && return 1
	done
	return 0
}

# --- bad input, on any machine ----------------------------------------------
refused "corun without a program" "no program given" corun --
refused "corun of a missing program" "no such program" corun -- "$tmp/no-such-program"
refused "corun --copies 1 (a copy beside none)" "--copies: '1'" corun --copies 1 -- true
refused "corun --copies 4,2" "not ascending" corun --copies 4,2 -- true
refused "corun --copies 2,,4" "--copies: ''" corun --copies 2,,4 -- true
refused "corun --rounds 0" "--rounds" corun --rounds 0 -- true
refused "corun --sched rr" "--sched" corun --sched rr -- true
refused "predict --sched rr" "--sched" predict --sched rr "$top_srcdir/tests/data/corun-made-up.json"
refused "predict --sched fifo without --corun" "needs --corun" predict --sched fifo \
	"$top_srcdir/tests/data/corun-made-up.json"
refused "corun --format xml" "--format" corun --format xml -- true
refused "corun --copies 64 (more than the cores)" "allowed" corun --copies 64 -- true

# --- the measurement, where two cores are allowed ------------------------------
# The program checks that all of stdin arrived (else exit 5), works 4
# phases of one thread (0.1-0.5 s of CPU: 4 times the least corun takes
# on a CPU twice this VM's speed), and logs its PUs, start, end and
# policy.  The measuring runs take the normal policy but one (below):
# SCHED_FIFO may be refused (a user, a container), and would hold both
# PUs of a 2-CPU machine from the other tests.
head -c 1000000 /dev/zero > "$tmp/in"
phases="$(cd "$(dirname "$TRACE_PHASES")" && pwd)/$(basename "$TRACE_PHASES")"
{
	echo '#!/bin/sh'
	echo 'test "$(wc -c)" -eq 1000000 || exit 5'
	echo 'a=$(date +%s.%N)'
	echo "\"$phases\" 1 4 40000000 0 > /dev/null"
	echo 'b=$(date +%s.%N)'
	echo "echo \"\$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) \$a \$b \$(chrt -p \$\$ | sed -n 's/.*policy: //p')\" >> \"$tmp/log\""
} > "$tmp/prog"
chmod +x "$tmp/prog"
"$PTBENCH" corun --sched other --rounds 1 --copies 2 -- "$tmp/prog" < "$tmp/in" \
	> "$tmp/one.out" 2> "$tmp/one.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'allowed' "$tmp/one.err"; then
	skip "one core allowed ($(cat "$tmp/one.err")): no copies at once to measure"
else
	check "corun of a program reading stdin (a file), each copy all of it from its start (it exits 5 otherwise): exit 0 (got $rc: $(head -c 200 "$tmp/one.err"))" \
		test $rc -eq 0
	check "  the table gives the count" grep -q '^ *2 ' "$tmp/one.out"
	diag "log: $(tr '\n' ';' < "$tmp/log")"
	# the lone copy, the two copies (either order), the lone copy again
	check "  four runs: alone, two at once, alone" test "$(wc -l < "$tmp/log")" -eq 4
	check "  the two copies at once on two PUs, one each, and both running at once" \
		awk 'NR == 2 { p = $1; s = $2; e = $3 }
		     NR == 3 { q = $1; s = $2 > s ? $2 : s; e = $3 < e ? $3 : e }
		     END { exit !(p != q && p !~ /[,-]/ && q !~ /[,-]/ && s < e) }' "$tmp/log"
	check "  the lone copy on the first of them, both times" \
		awk 'NR == 1 { a = $1 } NR == 2 || NR == 3 { c[$1] = 1 } NR == 4 { b = $1 }
		     END { exit !(a == b && (a in c)) }' "$tmp/log"

	# three rounds: a round that the host stopped (steal time) is one of
	# three, and moves no median
	"$PTBENCH" corun --sched other --rounds 3 --copies 2 --input "$tmp/in" -o "$tmp/c.json" \
		-- "$tmp/prog" > "$tmp/c.out" 2> "$tmp/c.err"
	rc=$?
	check "corun --input -o FILE: exit 0 (got $rc: $(head -c 200 "$tmp/c.err"))" test $rc -eq 0
	check "  the file's schema is ptbench-corun/1, the policy named" \
		test "$("$JGET" "$tmp/c.json" schema)" = ptbench-corun/1 -a "$("$JGET" "$tmp/c.json" sched)" = other
	diag "alone $("$JGET" "$tmp/c.json" alone_cpu_s.0) $("$JGET" "$tmp/c.json" alone_cpu_s.1)" \
		"$("$JGET" "$tmp/c.json" alone_cpu_s.2) s; factors $("$JGET" "$tmp/c.json" slowdown.1.rounds.0)" \
		"$("$JGET" "$tmp/c.json" slowdown.1.rounds.1) $("$JGET" "$tmp/c.json" slowdown.1.rounds.2)"
	check "  three rounds, each with the lone copy's CPU time" \
		test "$("$JGET" "$tmp/c.json" rounds)" = 3 -a -n "$("$JGET" "$tmp/c.json" alone_cpu_s.2)"
	check "  one copy alone is the base: factor 1 at 1 copy" \
		test "$("$JGET" "$tmp/c.json" slowdown.0.copies)" = 1 -a "$("$JGET" "$tmp/c.json" slowdown.0.factor)" = 1.0
	f=$("$JGET" "$tmp/c.json" slowdown.1.factor)
	check "  the factor at 2 copies of a loop on registers is plausible, 0.5 to 2 (got $f)" \
		awk -v f="$f" 'BEGIN { exit !(f > 0.5 && f < 2) }'
	check "  each round's factor is kept, the figure their median (the middle of three), min their least" \
		awk -v f="$f" -v a="$("$JGET" "$tmp/c.json" slowdown.1.rounds.0)" \
			-v b="$("$JGET" "$tmp/c.json" slowdown.1.rounds.1)" \
			-v c="$("$JGET" "$tmp/c.json" slowdown.1.rounds.2)" \
			-v lo="$("$JGET" "$tmp/c.json" slowdown.1.min)" \
			'BEGIN { m = (a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b)))
				 l = a < b ? (a < c ? a : c) : (b < c ? b : c)
				 exit !(a > 0 && b > 0 && c > 0 && f - m < 1e-12 && m - f < 1e-12 && lo == l) }'
	check "  the program's name and arguments are kept" \
		test "$("$JGET" "$tmp/c.json" program)" = prog -a "$("$JGET" "$tmp/c.json" argv.0)" = "$tmp/prog"
	check "  under the normal policy no time slices are measured: sliced is null" \
		test "$("$JGET" "$tmp/c.json" sliced)" = null

	# A machine whose speed changes within a round: this program does its
	# work once on its first run and twice on every later one, so the
	# round's second lone run takes twice its first, and a round of its
	# own says so (no other round to disagree with).
	{
		echo '#!/bin/sh'
		echo "n=\$(cat \"$tmp/runs\" 2> /dev/null || echo 0); echo \$((n + 1)) > \"$tmp/runs\""
		echo "\"$phases\" 1 4 40000000 0 > /dev/null"
		echo "[ \$n -gt 0 ] && \"$phases\" 1 4 40000000 0 > /dev/null; exit 0"
	} > "$tmp/slows"
	chmod +x "$tmp/slows"
	"$PTBENCH" corun --sched other --rounds 1 --copies 2 --format json -- "$tmp/slows" \
		> "$tmp/d.json" 2> "$tmp/d.err" < /dev/null
	rc=$?
	d=$("$JGET" "$tmp/d.json" alone_drift.0)
	check "corun of a program whose lone runs differ within the round: exit 0 (got $rc), alone_drift 1.6 to 2.4 for twice the work (got $d)" \
		awk -v rc=$rc -v d="$d" 'BEGIN { exit !(rc == 0 && d > 1.6 && d < 2.4) }'
	check "  one warning line, naming the round and the change within it ($(head -c 200 "$tmp/d.err"))" \
		sh -c "[ \$(wc -l < '$tmp/d.err') -eq 1 ] && grep -q 'in round 1 the lone copy took .* changed within the round' '$tmp/d.err'"

	# Under SCHED_FIFO (where permitted) each round also runs the lone
	# copy under the normal policy, where its threads take turns in time
	# slices: after the copies, on the lone copy's PU.  This program does
	# its work twice under the normal policy, so the factor is about 2.
	# (The one exception to the normal policy here: one round, SCHED_FIFO
	# holding one PU or both for a quarter of a second at a time.)
	{
		echo '#!/bin/sh'
		echo 'test "$(wc -c)" -eq 1000000 || exit 5'
		echo 'p=$(chrt -p $$ | sed -n "s/.*policy: //p")'
		echo 'a=$(date +%s.%N)'
		echo "\"$phases\" 1 4 40000000 0 > /dev/null"
		echo "[ \"\$p\" = SCHED_OTHER ] && \"$phases\" 1 4 40000000 0 > /dev/null"
		echo 'b=$(date +%s.%N)'
		echo "echo \"\$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) \$a \$b \$p\" >> \"$tmp/log\""
	} > "$tmp/prog2"
	chmod +x "$tmp/prog2"
	# ptbench itself under SCHED_BATCH: the copy must be set to the
	# normal policy, not inherit ptbench's
	: > "$tmp/log"
	chrt -b 0 "$PTBENCH" corun --rounds 1 --copies 2 --input "$tmp/in" --format json -- "$tmp/prog2" \
		> "$tmp/s.json" 2> "$tmp/s.err"
	rc=$?
	diag "log: $(tr '\n' ';' < "$tmp/log")"
	if grep -q 'SCHED_FIFO not permitted' "$tmp/s.err"; then
		check "corun where SCHED_FIFO is refused: exit 0 (got $rc), no time slices measured" \
			test $rc -eq 0 -a "$("$JGET" "$tmp/s.json" sliced)" = null
	else
		check "corun under SCHED_FIFO: exit 0 (got $rc: $(head -c 200 "$tmp/s.err"))" test $rc -eq 0
		check "  five runs: alone, two at once, alone under the normal policy, alone" \
			test "$(wc -l < "$tmp/log")" -eq 5
		check "  the fourth under the normal policy on the lone copy's PU, the others under SCHED_FIFO" \
			awk '{ p[NR] = $4 } NR == 1 { a = $1 } NR == 4 { b = $1 }
			     END { exit !(a == b && p[4] == "SCHED_OTHER" && p[1] == "SCHED_FIFO" &&
					  p[2] == "SCHED_FIFO" && p[3] == "SCHED_FIFO" && p[5] == "SCHED_FIFO") }' \
			"$tmp/log"
		f=$("$JGET" "$tmp/s.json" sliced.factor)
		check "  its factor in the JSON: the normal policy's CPU time over SCHED_FIFO's, 1.6 to 2.4 for twice the work (got $f)" \
			awk -v f="$f" 'BEGIN { exit !(f > 1.6 && f < 2.4) }'
		check "  the same as its one round's" \
			test "$f" = "$("$JGET" "$tmp/s.json" sliced.rounds.0)"
		check "  each count's entry names its copies first" \
			sh -c "grep -A1 '\"copies\": 2' '$tmp/s.json' | grep -q '\"factor\"'"
	fi

	# What ptbench was given is not what the copies get: a closed stdin
	# (the start line's pipe would take fd 0, and a copy would read its
	# input one byte short) and SIGCHLD ignored (no copy could be waited for).
	"$PTBENCH" corun --sched other --rounds 1 --copies 2 --input "$tmp/in" -- "$tmp/prog" \
		<&- > /dev/null 2> "$tmp/r.err"
	rc=$?
	check "corun with stdin closed: exit 0 (got $rc: $(head -c 200 "$tmp/r.err"))" test $rc -eq 0
	if command -v perl > /dev/null; then
		perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 127' "$PTBENCH" corun --sched other \
			--rounds 1 --copies 2 --input "$tmp/in" -- "$tmp/prog" > /dev/null 2> "$tmp/r.err"
		rc=$?
		check "corun started with SIGCHLD ignored: exit 0 (got $rc: $(head -c 200 "$tmp/r.err"))" \
			test $rc -eq 0
	else
		skip "SIGCHLD ignored: no perl to start ptbench so"
	fi

	cat "$tmp/in" | "$PTBENCH" corun --rounds 1 -- "$tmp/prog" > "$tmp/r.out" 2> "$tmp/r.err"
	rc=$?
	check "corun with stdin a pipe, which copies cannot each read: exit 2, one line" said "pipe"
	refused "corun of a program that fails (exit 3)" "status 3" corun --rounds 1 -o "$tmp/f.json" -- sh -c 'exit 3'
	check "  its -o file is not written, nor any temporary file" \
		test -z "$(ls "$tmp" | grep '^f\.json')"
	refused "corun of a program with too little CPU time to measure" "too little" corun --rounds 1 -- true
	refused "corun --input of a missing file" "--input" corun --input "$tmp/none" -- "$tmp/prog"

	# Where SCHED_FIFO is refused (a user without a real-time limit), a
	# run that fails still says one line, and one that succeeds says
	# once, after its figures, that the normal policy was taken.
	as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups sh -c 'ulimit -r 0 2> /dev/null; "$@"' sh "$@"; }
	if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && as_nobody "$PTBENCH" list > /dev/null 2>&1; then
		as_nobody "$PTBENCH" corun --rounds 1 -- sh -c 'exit 3' > "$tmp/r.out" 2> "$tmp/r.err" < /dev/null
		rc=$?
		check "corun as nobody (SCHED_FIFO refused) of a program that fails: one line, exit 2 (got $rc)" \
			said "status 3"
		# the program and its input where nobody may read them
		chmod 755 "$tmp" && chmod 644 "$tmp/in"
		{
			echo '#!/bin/sh'
			echo "exec \"$phases\" 1 4 40000000 0 > /dev/null"
		} > "$tmp/nprog"
		chmod 755 "$tmp/nprog"
		as_nobody "$PTBENCH" corun --rounds 1 --copies 2 --input "$tmp/in" -- "$tmp/nprog" \
			> "$tmp/r.out" 2> "$tmp/r.err"
		rc=$?
		# (a round of a busy machine may also say that its speed changed)
		check "  and of one that works: exit 0 (got $rc), the table, one warning line naming SCHED_FIFO" \
			sh -c "[ $rc -eq 0 ] && [ -s '$tmp/r.out' ] && [ \$(grep -v 'speed changed' '$tmp/r.err' | wc -l) -eq 1 ] && [ \$(grep -c 'speed changed' '$tmp/r.err') -le 1 ] && grep -q 'SCHED_FIFO not permitted' '$tmp/r.err'"
	else
		skip "corun as an unprivileged user: not root, no setpriv, or this build unreadable to nobody"
	fi

	# The copies are a process group of their own: a daemon a copy
	# leaves behind is killed when the copies end, and a signal that ends
	# ptbench ends the copies and their children.
	{
		echo '#!/bin/sh'
		echo 'sleep 29 < /dev/null > /dev/null 2>&1 &'
		echo "echo \$! >> \"$tmp/left\""
	} > "$tmp/forker"
	{
		echo '#!/bin/sh'
		echo "echo \$\$ >> \"$tmp/left2\""
		echo 'sleep 29 &'
		echo "echo \$! >> \"$tmp/left2\""
		echo 'wait'
	} > "$tmp/sleeper"
	chmod +x "$tmp/forker" "$tmp/sleeper"
	: > "$tmp/left"
	"$PTBENCH" corun --sched other --rounds 1 --copies 2 -- "$tmp/forker" > /dev/null 2>&1
	sleep 0.2
	check "what a copy left running is gone once corun ends ($(wc -l < "$tmp/left") left)" \
		gone "$tmp/left"
	: > "$tmp/left2"
	"$PTBENCH" corun --sched other --rounds 1 --copies 2 -- "$tmp/sleeper" > /dev/null 2>&1 &
	bg=$!
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		[ "$(wc -l < "$tmp/left2")" -ge 2 ] && break
		sleep 0.2
	done
	kill -TERM $bg
	wait $bg
	rc=$?
	sleep 0.2
	check "SIGTERM to corun: it ends by it (status $rc), and so do the copy and its child ($(wc -l < "$tmp/left2") pids)" \
		sh -c "[ $rc -eq 143 ] && [ \$(wc -l < '$tmp/left2') -ge 2 ]"
	check "  none of them left" gone "$tmp/left2"
fi

# --- predict --corun: a made-up slowdown, x1.25 for two threads at once and
# x1.5 for four.  The phases program's serial part runs alone; its T workers
# run min(T, N) at once, so each phase takes serial + work * max(1, T/N) * s,
# as with --machine's curve of the same factors (tests/trace.sh).
# (not preload_or_skip: the checks above have run, and a plan of 0 would
# now be a lie; where the interposer cannot be preloaded -- a sanitizer
# build, a cross build under an emulator -- this part is one skip)
"$PTBENCH" record -o "$tmp/probe.trace" -- true > /dev/null 2> "$tmp/probe.err"
if grep -q -e 'cannot be preloaded' -e 'runtime does not come first' "$tmp/probe.err"; then
	skip "predict --corun: the interposer cannot be preloaded here: $(head -n 1 "$tmp/probe.err" | cut -c1-100)"
	done_testing
	exit
fi
record_alone
T=4 P=8
made_up=$top_srcdir/tests/data/corun-made-up.json
stretch() { awk -v n=$1 'BEGIN { print n == 2 ? 1.25 : 1.5 }'; }
stretched_exp() {
	awk -v p=$P -v s="$serial" -v w="$work" -v t=$T -v n=$1 -v k="$(stretch $1)" \
		'BEGIN { f = t / n; if (f < 1) f = 1; printf "%.6f", p * (s + w * f * k) * 1e-9 }'
}
stretched() {
	"$PTBENCH" predict "$tmp/phases.trace" --cpus $1 --corun "$made_up" --remote-wake 0 \
		--format json > "$tmp/p.json"
	"$JGET" "$tmp/p.json" predictions.0.wall_s
}
# --- the time slices' cost: the made-up file with "sliced" 1.3 as well.  On
# one CPU the replay then takes 1.3 times as long (all of it CPU work).  On
# N CPUs, while the T workers outnumber them, each phase's parallel part
# stretches by 1 + c (T - N) as well, where c = 0.3 x the CPU time over the
# integral of the threads beyond the one CPU in the 1-CPU replay: with s
# serial and w per worker, a phase's is (T - 1) T w.
sliced_file=$top_srcdir/tests/data/corun-sliced.json
sliced() {
	"$PTBENCH" predict "$tmp/phases.trace" --cpus $1 --corun "$sliced_file" --remote-wake 0 \
		--format json > "$tmp/s.json"
	"$JGET" "$tmp/s.json" predictions.0.wall_s
}
sliced_exp() {
	awk -v p=$P -v s="$serial" -v w="$work" -v t=$T -v n=$1 -v k="$(stretch $1)" \
		'BEGIN { c = 0.3 * (s + t * w) / ((t - 1) * t * w); f = t / n; if (f < 1) f = 1
			 if (n == 1) k = 1; x = t > n ? 1 + c * (t - n) : 1
			 printf "%.6f", p * (s + w * f * k * x) * 1e-9 }'
}
# a recording whose slowest piece stood out under other load is made once
# more, as in tests/trace.sh: a defect of the replay would miss both
for attempt in 1 2; do
	"$PTBENCH" record -o "$tmp/phases.trace" -- "$TRACE_PHASES" $T $P 1500000 800000 \
		> "$tmp/phases.out" 2> /dev/null
	rc=$?
	read -r _ work _ serial < "$tmp/phases.out"
	missed=
	for n in 2 4 8; do
		near5 "$(stretched $n)" "$(stretched_exp $n)" || missed="$missed $n CPUs;"
	done
	for n in 1 2 4 8; do
		near5 "$(sliced $n)" "$(sliced_exp $n)" || missed="$missed $n CPUs sliced;"
	done
	[ -z "$missed" ] && break
	[ $attempt = 1 ] && diag "phases, first recording missed ($missed) -- recording it once more"
done
check "record of the phases program: exit 0 (got $rc)" test $rc -eq 0
for n in 2 4 8; do
	within5 "--corun on $n CPUs: the parallel part x$(stretch $n)" "$(stretched $n)" "$(stretched_exp $n)"
	"$PTBENCH" predict "$tmp/phases.trace" --cpus $n --machine "$top_srcdir/tests/data/predict-corun.json" \
		--working-set 256K --remote-wake 0 --format json > "$tmp/m.json"
	check "  the same replay as --machine's curve of the same factors" \
		test "$("$JGET" "$tmp/p.json" predictions.0.wall_s)" = "$("$JGET" "$tmp/m.json" predictions.0.wall_s)"
done
check "the JSON names the file and its factor at 4 threads, 1.5" \
	test "$("$JGET" "$tmp/p.json" corun.file)" = "$made_up" -a "$("$JGET" "$tmp/p.json" corun.slowdown.2.slowdown)" = 1.5
"$PTBENCH" predict "$tmp/phases.trace" --cpus 1 --corun "$made_up" --format json > "$tmp/p1.json"
"$PTBENCH" predict "$tmp/phases.trace" --cpus 1 --format json > "$tmp/p0.json"
check "1 CPU as without it (a thread alone is never stretched)" \
	test "$("$JGET" "$tmp/p1.json" predictions.0.wall_s)" = "$("$JGET" "$tmp/p0.json" predictions.0.wall_s)"
check "without --corun the JSON's corun is null" grep -q '"corun": null' "$tmp/p0.json"
"$PTBENCH" predict "$tmp/phases.trace" --cpus 2 --corun "$made_up" > "$tmp/p.txt"
check "the table says which slowdown it applied" \
	grep -q 'co-running slowdown of trace-phases, measured by ptbench corun' "$tmp/p.txt"

for n in 1 2 4 8; do
	within5 "time slices on $n CPUs: x1.3 on one" "$(sliced $n)" "$(sliced_exp $n)"
done
check "  the JSON says it was charged for the normal policy" \
	test "$("$JGET" "$tmp/s.json" corun.sched)" = other -a "$("$JGET" "$tmp/s.json" corun.sliced)" = 1.3
"$PTBENCH" predict "$tmp/phases.trace" --cpus 2 --corun "$sliced_file" --sched fifo --remote-wake 0 \
	--format json > "$tmp/f.json"
check "--sched fifo: none charged, as without the figure" \
	test "$("$JGET" "$tmp/f.json" predictions.0.wall_s)" = "$(stretched 2)" -a \
	"$("$JGET" "$tmp/f.json" corun.slice_cost)" = 0.0
"$PTBENCH" predict "$tmp/phases.trace" --cpus 2 --corun "$sliced_file" > "$tmp/p.txt"
check "the table says what the time slices cost" grep -q 'time slices: x1.300 on one PU' "$tmp/p.txt"
refused "predict --corun of a file whose time slices' factor is 0" '"sliced" must be' predict \
	"$tmp/phases.trace" --corun "$top_srcdir/tests/data/corun-bad-sliced.json"
"$PTBENCH" predict "$tmp/phases.trace" --cpus 2 --corun "$top_srcdir/tests/data/corun-sliced-below1.json" \
	--remote-wake 0 --format json > "$tmp/b.json"
check "a time slices' factor below 1 (noise: slices save nothing): none charged" \
	test "$("$JGET" "$tmp/b.json" corun.slice_cost)" = 0.0 -a \
	"$("$JGET" "$tmp/b.json" predictions.0.wall_s)" = "$(stretched 2)"
# one worker: no thread ever waits for the one CPU, nothing to charge
"$PTBENCH" record -o "$tmp/one.trace" -- "$TRACE_PHASES" 1 8 1500000 800000 > /dev/null 2>&1
"$PTBENCH" predict "$tmp/one.trace" --cpus 2 --corun "$sliced_file" > "$tmp/o.txt"
check "a program whose threads never take turns: none charged, and the table says why" \
	grep -q 'none charged: only 0 % of' "$tmp/o.txt"
# recorded under the normal policy: the bursts hold the slices already
"$PTBENCH" record --sched other -o "$tmp/other.trace" -- "$TRACE_PHASES" $T $P 1500000 800000 \
	> /dev/null 2>&1
"$PTBENCH" predict "$tmp/other.trace" --cpus 1 --corun "$sliced_file" --format json > "$tmp/o1.json"
"$PTBENCH" predict "$tmp/other.trace" --cpus 1 --format json > "$tmp/o0.json"
check "a trace recorded under the normal policy: none charged again, 1 CPU as without" \
	test "$("$JGET" "$tmp/o1.json" corun.slice_cost)" = 0.0 -a \
	"$("$JGET" "$tmp/o1.json" predictions.0.wall_s)" = "$("$JGET" "$tmp/o0.json" predictions.0.wall_s)"
"$PTBENCH" predict "$tmp/other.trace" --cpus 2 --corun "$sliced_file" > "$tmp/o.txt"
check "  and the table says why" grep -q 'recorded under the normal policy: its bursts hold them' "$tmp/o.txt"

for bad in corun-nobase corun-descending corun-zero; do
	refused "predict --corun of a bad file ($bad)" "must list copies" predict "$tmp/phases.trace" --corun "$top_srcdir/tests/data/$bad.json"
done
refused "predict --corun of a result file, not corun's" "not a file of ptbench corun" predict "$tmp/phases.trace" \
	--corun "$top_srcdir/tests/data/predict-corun.json"
refused "predict --corun of a missing file" "none.json" predict "$tmp/phases.trace" --corun "$tmp/none.json"
if mkfifo "$tmp/fifo" 2> /dev/null; then
	timeout 20 "$PTBENCH" predict "$tmp/phases.trace" --corun "$tmp/fifo" > "$tmp/r.out" 2> "$tmp/r.err" < /dev/null
	rc=$?
	check "predict --corun of a FIFO: not waited on (exit 2, got $rc), one line" said FIFO
fi
refused "predict --corun with --working-set" "one at a time" predict "$tmp/phases.trace" --corun "$made_up" \
	--machine "$top_srcdir/tests/data/predict-corun.json" --working-set 1M
done_testing
