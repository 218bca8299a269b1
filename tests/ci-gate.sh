#!/bin/sh
# SPDX-License-Identifier: MIT
# The CI recipe of docs/ci.md is code (docs/ptbench-gate.sh); this runs it on
# tiny inputs.  Fake "ptbench" programs stand in for the base and head builds:
# each `run ... -o FILE` copies the next file of a list of fixed runs, so the
# gate's logic meets known outcomes (a steady head, a slower head, a slowdown
# in one round only, a runner that drifts, a broken run); the real compare
# judges.  A last case runs the gate end to end with the real ptbench.
. "$top_srcdir/tests/tap.sh"

gate="$top_srcdir/docs/ptbench-gate.sh"
D=$TESTDATA
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fake NAME FIXTURE...: a program NAME whose n-th run writes the n-th FIXTURE.
fake() {
	name=$1; shift
	: >"$work/$name.list"
	for f in "$@"; do echo "$f" >>"$work/$name.list"; done
	rm -f "$work/$name.count"
	cat >"$work/$name" <<'EOF'
#!/bin/sh
n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >"$0.count"
fixture=$(sed -n "${n}p" "$0.list")
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cp "$fixture" "$out"
EOF
	chmod +x "$work/$name"
}

# gate_case DESCRIPTION WANT_EXIT BASE_FIXTURES HEAD_FIXTURES: runs the gate.
gate_case() {
	d=$1 want=$2
	fake base $3
	fake head $4
	rm -rf "$work/out"
	sh "$gate" -o "$work/out" -c "$PTBENCH" "$work/base" "$work/head" >"$work/stdout" 2>"$work/stderr"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$d: exit $want"; else
		not_ok "$d: exit $rc, want $want"; sed 's/^/# /' "$work/stderr"; fi
}

gate_case "steady head passes" 0 "$D/tools-base.json $D/tools-base.json" \
	"$D/tools-base.json $D/tools-base.json"
check "steady head: summary says pass" grep -q '^## ptbench gate: pass$' "$work/out/gate.md"
check "steady head: base and head ran in both rounds" \
	test -s "$work/out/base-1.json" -a -s "$work/out/head-1.json" -a -s "$work/out/base-2.json" -a -s "$work/out/head-2.json"

gate_case "head 25 % slower fails" 1 "$D/tools-base.json $D/tools-base.json" \
	"$D/tools-slower.json $D/tools-slower.json"
check "slower head: summary says FAIL" grep -q '^## ptbench gate: FAIL$' "$work/out/gate.md"
check "slower head: names a regressed point" grep -qx -- '- cond.signal' "$work/out/gate.md"
check "slower head: names every steady point" \
	test "$(grep -c -x -e '- mutex.lockunlock threads=2' -e '- mutex.lock mutexes=1024' \
		-e '- mutex.unlock mutexes=1024' "$work/out/gate.md")" = 3
check "slower head: an unstable point is not named" \
	sh -c "! grep -q 'cond.pingpong' '$work/out/failed.txt'"

gate_case "slower in one round only passes" 0 "$D/tools-base.json $D/tools-base.json" \
	"$D/tools-slower.json $D/tools-base.json"

# The runner drifts: the second base run is 20 % faster than the first, the
# head is slower in both rounds.  The points that moved between the two base
# runs are distrusted; the noisy ping-pong, which the base-vs-base
# comparison could not tell apart, still fails.
gate_case "drifting runner" 1 "$D/tools-base.json $D/tools-faster.json" \
	"$D/tools-slower.json $D/tools-slower.json"
check "drifting runner: cond.signal distrusted, not failed" \
	sh -c "grep -qx 'cond.signal' '$work/out/distrusted.txt' && ! grep -qx 'cond.signal' '$work/out/failed.txt'"
check "drifting runner: the point steady between base runs fails" \
	grep -qx 'mutex.pingpong placement=unbound' "$work/out/failed.txt"

printf 'not json\n' >"$work/broken.json"
gate_case "a broken run is an error" 2 "$D/tools-base.json $D/tools-base.json" \
	"$work/broken.json $work/broken.json"
check "broken run: the last line on stderr says what is wrong" \
	sh -c "tail -n 1 '$work/stderr' | grep -q 'compare.*not JSON'"

sh "$gate" >/dev/null 2>&1
check "no arguments: exit 2" test $? = 2
sh "$gate" -r 1 a b >/dev/null 2>&1
check "one round: exit 2 (the base needs a second run)" test $? = 2

# End to end with the real program on one quick benchmark: the gate runs,
# compares and writes its summary (verdicts on a real machine are not asserted).
rm -rf "$work/out"
sh "$gate" -o "$work/out" "$PTBENCH" "$PTBENCH" -b cond.signal --quick >"$work/stdout" 2>"$work/stderr"
rc=$?
check "real ptbench: the gate completes (exit $rc)" test "$rc" = 0 -o "$rc" = 1
check "real ptbench: summary and comparisons written" \
	test -s "$work/out/gate.md" -a -s "$work/out/round-2.md" -a -s "$work/out/noise.md"

done_testing
