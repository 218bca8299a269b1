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

refused() {
	d=$1; shift
	"$PTBENCH" "$@" > "$tmp/r.out" 2> "$tmp/r.err" < /dev/null
	rc=$?
	check "$d: exit 2 (got $rc), one line, no output ($(head -n 1 "$tmp/r.err"))" \
		test $rc -eq 2 -a "$(wc -l < "$tmp/r.err")" -eq 1 -a ! -s "$tmp/r.out"
}

# --- bad input, on any machine ----------------------------------------------
refused "corun without a program" corun --
refused "corun of a missing program" corun -- "$tmp/no-such-program"
refused "corun --copies 1 (a copy beside none)" corun --copies 1 -- true
refused "corun --copies 4,2 (not ascending)" corun --copies 4,2 -- true
refused "corun --copies 2,,4" corun --copies 2,,4 -- true
refused "corun --rounds 0" corun --rounds 0 -- true
refused "corun --sched rr" corun --sched rr -- true
refused "corun --format xml" corun --format xml -- true
refused "corun --copies 64 (more than the cores)" corun --copies 64 -- true

# --- the measurement, where two cores are allowed ------------------------------
# The program: check that all of stdin arrived, then 4 phases of CPU work
# of one thread (about 0.1-0.3 s).
head -c 1000000 /dev/zero > "$tmp/in"
cat > "$tmp/prog" <<EOF
#!/bin/sh
test "\$(wc -c)" -eq 1000000 || exit 5
exec "$(cd "$(dirname "$TRACE_PHASES")" && pwd)/$(basename "$TRACE_PHASES")" 1 4 16000000 0 > /dev/null
EOF
chmod +x "$tmp/prog"
"$PTBENCH" corun --rounds 1 --copies 2 -- "$tmp/prog" < "$tmp/in" > "$tmp/one.out" 2> "$tmp/one.err"
rc=$?
if [ $rc -eq 2 ] && grep -q -e 'core allowed' -e 'cores\{0,1\} allowed' "$tmp/one.err"; then
	skip "one core allowed ($(cat "$tmp/one.err")): no copies at once to measure"
else
	check "corun of a program reading stdin (a file), each copy all of it from its start (it exits 5 otherwise): exit 0 (got $rc: $(head -c 200 "$tmp/one.err"))" \
		test $rc -eq 0
	check "  the table names the program and the count" \
		grep -q '^ *2 ' "$tmp/one.out"
	# three rounds: a round that the host stopped (steal time) is one of
	# three, and moves no median
	"$PTBENCH" corun --rounds 3 --copies 2 --input "$tmp/in" -o "$tmp/c.json" -- "$tmp/prog" \
		> "$tmp/c.out" 2> "$tmp/c.err"
	rc=$?
	check "corun --input -o FILE: exit 0 (got $rc: $(head -c 200 "$tmp/c.err"))" test $rc -eq 0
	check "  the file's schema is ptbench-corun/1" \
		test "$("$JGET" "$tmp/c.json" schema)" = ptbench-corun/1
	diag "alone $("$JGET" "$tmp/c.json" alone_cpu_s.0) $("$JGET" "$tmp/c.json" alone_cpu_s.1)" \
		"$("$JGET" "$tmp/c.json" alone_cpu_s.2) s; factors $("$JGET" "$tmp/c.json" slowdown.1.rounds.0)" \
		"$("$JGET" "$tmp/c.json" slowdown.1.rounds.1) $("$JGET" "$tmp/c.json" slowdown.1.rounds.2)"
	check "  three rounds, each with the lone copy's CPU time" \
		test "$("$JGET" "$tmp/c.json" rounds)" = 3 -a -n "$("$JGET" "$tmp/c.json" alone_cpu_s.2)"
	check "  one copy alone is the base: factor 1 at 1 copy" \
		test "$("$JGET" "$tmp/c.json" slowdown.0.copies)" = 1 -a "$("$JGET" "$tmp/c.json" slowdown.0.factor)" = 1.0
	check "  the copies ran on two PUs" \
		test "$("$JGET" "$tmp/c.json" pus.0)" != "$("$JGET" "$tmp/c.json" pus.1)"
	f=$("$JGET" "$tmp/c.json" slowdown.1.factor)
	check "  the factor at 2 copies of a loop on registers is plausible, 0.5 to 2 (got $f)" \
		awk -v f="$f" 'BEGIN { exit !(f > 0.5 && f < 2) }'
	check "  and lies within its rounds' range" \
		awk -v f="$f" -v lo="$("$JGET" "$tmp/c.json" slowdown.1.min)" \
			-v hi="$("$JGET" "$tmp/c.json" slowdown.1.max)" 'BEGIN { exit !(lo > 0 && lo <= f && f <= hi) }'
	check "  each round's factor is kept, and the figure is their median, the middle one of three" \
		awk -v f="$f" -v a="$("$JGET" "$tmp/c.json" slowdown.1.rounds.0)" \
			-v b="$("$JGET" "$tmp/c.json" slowdown.1.rounds.1)" \
			-v c="$("$JGET" "$tmp/c.json" slowdown.1.rounds.2)" \
			'BEGIN { m = (a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b)))
				 exit !(a > 0 && b > 0 && c > 0 && f - m < 1e-12 && m - f < 1e-12) }'
	check "  the program's name and arguments are kept" \
		test "$("$JGET" "$tmp/c.json" program)" = prog -a "$("$JGET" "$tmp/c.json" argv.0)" = "$tmp/prog"
	cat "$tmp/in" | "$PTBENCH" corun --rounds 1 -- "$tmp/prog" > "$tmp/r.out" 2> "$tmp/r.err"
	rc=$?
	check "corun with stdin a pipe, which copies cannot each read: exit 2 (got $rc), one line" \
		test $rc -eq 2 -a "$(wc -l < "$tmp/r.err")" -eq 1
	refused "corun of a program that fails (exit 3)" corun --rounds 1 -o "$tmp/f.json" -- sh -c 'exit 3'
	check "  its -o file is not written, nor any temporary file" \
		test -z "$(ls "$tmp" | grep '^f\.json')"
	refused "corun of a program with too little CPU time to measure" corun --rounds 1 -- true
	refused "corun --input of a missing file" corun --input "$tmp/none" -- "$tmp/prog"
fi

# --- predict --corun: a made-up slowdown, x1.25 for two threads at once and
# x1.5 for four.  The phases program's serial part runs alone; its T workers
# run min(T, N) at once, so each phase takes serial + work * max(1, T/N) * s,
# as with --machine's curve of the same factors (tests/trace.sh).
preload_or_skip "$tmp"
T=4 P=8
"$PTBENCH" record -o "$tmp/phases.trace" -- "$TRACE_PHASES" $T $P 1500000 800000 \
	> "$tmp/phases.out" 2> /dev/null
check "record of the phases program: exit 0" test $? -eq 0
read -r _ work _ serial < "$tmp/phases.out"
made_up=$top_srcdir/tests/data/corun-made-up.json
for n in 2 4 8; do
	s=$(awk -v n=$n 'BEGIN { print n == 2 ? 1.25 : 1.5 }')
	"$PTBENCH" predict "$tmp/phases.trace" --cpus $n --corun "$made_up" --remote-wake 0 \
		--format json > "$tmp/p.json"
	exp=$(awk -v p=$P -v s="$serial" -v w="$work" -v t=$T -v n=$n -v k="$s" \
		'BEGIN { f = t / n; if (f < 1) f = 1; printf "%.6f", p * (s + w * f * k) * 1e-9 }')
	within5 "--corun on $n CPUs: the parallel part x$s" \
		"$("$JGET" "$tmp/p.json" predictions.0.wall_s)" "$exp"
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

for bad in corun-nobase corun-descending corun-zero; do
	refused "predict --corun of a bad file ($bad)" predict "$tmp/phases.trace" --corun "$top_srcdir/tests/data/$bad.json"
done
refused "predict --corun of a result file, not corun's" predict "$tmp/phases.trace" \
	--corun "$top_srcdir/tests/data/predict-corun.json"
refused "predict --corun of a missing file" predict "$tmp/phases.trace" --corun "$tmp/none.json"
refused "predict --corun with --working-set" predict "$tmp/phases.trace" --corun "$made_up" \
	--machine "$top_srcdir/tests/data/predict-corun.json" --working-set 1M
done_testing
