# SPDX-License-Identifier: MIT
# Minimal TAP helpers for the shell tests; source it.
tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
# verdict DESC: ok or not ok by the status of the command list just run, so
# that a condition of several commands is asserted whole:
#   [ "$a" = 1 ] && grep -q x file
#   verdict "a is 1 and the file has x"
# (`check DESC [ ... ] && grep ...` would assert the first command alone).
verdict() { if [ "$?" = 0 ]; then ok "$1"; else not_ok "$1"; fi; }
diag() { echo "# $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# preload_or_skip DIR: skip the whole test, saying why, when `ptbench
# record` cannot preload its interposer into this machine's programs for a
# known reason: a cross build run under an emulator (the loader cannot open
# a library of another architecture) or a sanitizer build (its runtime must
# come first in the library list).  Any other failure is left to the test's
# own checks.
preload_or_skip() {
	"$PTBENCH" record -o "$1/probe.trace" -- true >/dev/null 2>"$1/probe.err"
	if grep -q -e 'cannot be preloaded' -e 'runtime does not come first' "$1/probe.err"; then
		skip_all "the interposer cannot be preloaded here: $(head -n 1 "$1/probe.err" | cut -c1-100)"
	fi
	rm -f "$1/probe.trace" "$1/probe.err"
	record_alone
}

# record_alone: the rest of this test records while no other test does.
# Every recording picks the same PU under SCHED_FIFO, and two at once take
# turns on it: a wait's end then queues behind the other program, and an
# exact answer is missed by that much (make check -j2: a timer's 50 ms
# wait came out 58).  The lock is held until the test exits (descriptor
# 9); without flock, or after 5 minutes, the test goes on regardless.
record_alone() {
	command -v flock >/dev/null 2>&1 || return 0
	exec 9>>tests/record.lock || return 0
	flock -w 300 9 || diag "another test kept the recording lock for 5 minutes: going on"
}

# within5 WHAT PREDICTED EXPECTED: a prediction within 5 % of its exact answer.
near5() { awk -v p="$1" -v e="$2" 'BEGIN { r = p / e; exit !(r > 0.95 && r < 1.05) }'; }
within5() {
	near5 "$2" "$3"
	rc=$?
	check "$1: predicted $2 s, expected $3 s" test $rc -eq 0
}

# misses5 TRACE EXPECT N...: the counts of CPUs whose prediction of TRACE
# is not within 5 % of `EXPECT N`, with both figures; nothing when all are.
# Tests that record once more after a miss (a recording disturbed by other
# load misses, a defect of the replay misses every recording) ask it.
misses5() {
	_t=$1 _f=$2
	shift 2
	for _n; do
		_p=$(predicted "$_t" "$_n") _e=$($_f "$_n")
		near5 "$_p" "$_e" || printf ' %s CPUs: %s s for %s s;' "$_n" "$_p" "$_e"
	done
}

# predicted TRACE CPUS [FIELD]: a field of `predict`'s JSON (default the
# predicted wall time), through the caller's folder $tmp.
# The exact answers are those of the replay with wake-ups free: what
# record measured of a remote wake-up on this machine is left out here
# (--remote-wake 0; test_trace and trace.sh check that cost on its own).
# And of the program's structure: the default, the wall time, is less the
# program's start before the interposer (recorded.start_s: the exec, the
# loader, 0.7 ms for the smallest program here), which the replay holds
# as the main thread's first work and no formula of a test program's
# threads does (trace.sh checks that part on its own).
predicted() {
	"$PTBENCH" predict "$1" --cpus "$2" --remote-wake 0 --format json > "$tmp/p.json" || return
	[ -n "${3:-}" ] && { "$JGET" "$tmp/p.json" "$3"; return; }
	awk -v w="$("$JGET" "$tmp/p.json" predictions.0.wall_s)" \
		-v s="$("$JGET" "$tmp/p.json" recorded.start_s)" 'BEGIN { printf "%.9g\n", w - s }'
}

# plot_golden KIND DIR: the data and script `plot --script DIR` wrote for
# KIND against tests/data/plot-KIND.dat and .gp; with PTB_REGEN set, they
# become the golden files instead.
plot_golden() {
	for ext in dat gp; do
		golden=$TESTDATA/plot-$1.$ext
		if [ ! -f "$2/$1.$ext" ]; then
			not_ok "$1: --script wrote no $1.$ext"
		elif [ -n "$PTB_REGEN" ]; then
			cp "$2/$1.$ext" "$golden" && ok "$1: regenerated $golden"
		elif cmp -s "$golden" "$2/$1.$ext"; then
			ok "$1.$ext matches $(basename "$golden")"
		else
			not_ok "$1.$ext differs from $(basename "$golden")"
			diff -u "$golden" "$2/$1.$ext" | sed 's/^/# /'
		fi
	done
}
