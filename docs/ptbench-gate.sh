#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance-regression gate of a pull request (docs/ci.md).  Runs the
# base and the head build of ptbench on this machine in turn, ROUNDS times,
# alternating which goes first, then judges each round with `ptbench compare`.
# A point fails the gate only when it is a regression in EVERY round and did
# not move between two runs of the base itself: a runner that drifts during
# the job makes the base disagree with itself, and no verdict on such a
# point is trusted.  Exit 0 pass, 1 regression, 2 error.  DIR/gate.md is a
# summary to post on the pull request; the runs and comparisons stay in DIR.
usage="usage: ptbench-gate.sh [-r ROUNDS] [-o DIR] [-c PTBENCH] [-a ALPHA] [-t PCT] BASE HEAD [RUN-OPTION...]"

rounds=2 out=ptbench-gate compare='' alpha=0.01 threshold=5

die() { echo "ptbench-gate: $*" >&2; exit 2; }

while getopts r:o:c:a:t:h opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	c) compare=$OPTARG ;;
	a) alpha=$OPTARG ;;
	t) threshold=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "$usage"
base=$1 head=$2
shift 2
# The head's compare judges: the code under review brings its own gate.
compare=${compare:-$head}
case $rounds in
''|*[!0-9]*|0|1) die "-r: ROUNDS must be a number >= 2 (the base is compared with itself)" ;;
esac
mkdir -p "$out" || die "cannot create $out"

# One run of one side into DIR/SIDE-ROUND.json; the rest of the command line
# (RUN-OPTIONs) selects what to run.  Exit 1 (a point failed) still leaves a
# valid file whose failed points are simply not comparable.
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order="base head"; else order="head base"; fi
	for side in $order; do
		if [ "$side" = base ]; then exe=$base; else exe=$head; fi
		echo "ptbench-gate: round $r of $rounds: $side" >&2
		"$exe" run "$@" -o "$out/$side-$r.json" >"$out/$side-$r.txt" 2>"$out/$side-$r.log"
		rc=$?
		[ "$rc" -le 1 ] && [ -s "$out/$side-$r.json" ] ||
			die "the $side run of round $r failed (exit $rc; see $out/$side-$r.log)"
	done
	r=$((r + 1))
done

# judge NAME OLD NEW: `ptbench compare` into DIR/NAME.md; 0/1 are verdicts.
judge() {
	"$compare" compare --alpha "$alpha" --threshold "$threshold" "$2" "$3" >"$out/$1.md" \
		2>"$out/$1.err"
	[ $? -le 1 ] || die "ptbench compare $2 $3: $(cat "$out/$1.err")"
}

# The points of a comparison with a verdict (its Markdown rows), sorted.
points() {
	awk -F' [|] ' -v want="$2" '
		$NF == want " |" { sub(/^[|] /, "", $1); print $1 }' "$1" | LC_ALL=C sort -u
}

r=1
while [ "$r" -le "$rounds" ]; do
	judge "round-$r" "$out/base-$r.json" "$out/head-$r.json"
	points "$out/round-$r.md" '**regression**' >"$out/regressed-$r.txt"
	if [ "$r" = 1 ]; then
		cp "$out/regressed-1.txt" "$out/every.txt"
	else
		LC_ALL=C comm -12 "$out/every.txt" "$out/regressed-$r.txt" >"$out/every.tmp"
		mv "$out/every.tmp" "$out/every.txt"
	fi
	r=$((r + 1))
done
judge noise "$out/base-1.json" "$out/base-2.json"
{ points "$out/noise.md" '**regression**'; points "$out/noise.md" improvement; } |
	LC_ALL=C sort -u >"$out/noisy.txt"
LC_ALL=C comm -23 "$out/every.txt" "$out/noisy.txt" >"$out/failed.txt"
LC_ALL=C comm -12 "$out/every.txt" "$out/noisy.txt" >"$out/distrusted.txt"

list() { sed 's/^/- /' "$1"; }
{
	if [ -s "$out/failed.txt" ]; then echo "## ptbench gate: FAIL"; else echo "## ptbench gate: pass"; fi
	echo
	echo "$rounds rounds, base and head alternating; a regression needs p < $alpha and the"
	echo "whole 95 % CI of the shift above +$threshold % in every round, on a point that did"
	echo "not move between the base's own runs."
	if [ -s "$out/failed.txt" ]; then
		echo
		echo "Regressions:"
		list "$out/failed.txt"
	fi
	if [ -s "$out/distrusted.txt" ]; then
		echo
		echo "Regressions in every round, not trusted (the point also moved between two runs of the base):"
		list "$out/distrusted.txt"
	fi
	echo
	echo "<details><summary>Round 1</summary>"
	echo
	cat "$out/round-1.md"
	echo
	echo "</details>"
} >"$out/gate.md"
cat "$out/gate.md"
[ -s "$out/failed.txt" ] && exit 1
exit 0
