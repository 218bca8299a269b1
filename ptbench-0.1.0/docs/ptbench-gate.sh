#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance-regression gate of a pull request (docs/ci.md): one
# `ptbench ab` of the base and head builds on this runner, their trials
# interleaved in random pairs so that a drift of the runner hits both
# alike.  Exit 0 pass, 1 regression, 2 error (a side failed, bad input).
# DIR/gate.md is a summary to post on the pull request, with each point's
# smallest detectable change on this runner; DIR/ab.json the same for tools.
usage="usage: ptbench-gate.sh [-o DIR] [-c PTBENCH] [-a ALPHA] [-t PCT] [-T SECONDS] BASE HEAD [RUN-OPTION...]"

out=ptbench-gate compare='' alpha=0.05 threshold=5 seconds=120

die() { echo "ptbench-gate: $*" >&2; exit 2; }

while getopts o:c:a:t:T:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	c) compare=$OPTARG ;;
	a) alpha=$OPTARG ;;
	t) threshold=$OPTARG ;;
	T) seconds=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "$usage"
base=$1 head=$2
shift 2
# The head's ptbench runs the comparison: the code under review brings its
# own gate.
compare=${compare:-$head}
mkdir -p "$out" || die "cannot create $out"

"$compare" ab --format json --alpha "$alpha" --threshold "$threshold" --time "$seconds" \
	"$base" "$head" "$@" >"$out/ab.json" 2>"$out/ab.log"
rc=$?
case $rc in
0) verdict=pass ;;
1) verdict=regression ;;
*) verdict=error ;;
esac

# The summary: the verdict, then one line per point from ab.json.
{
	echo "## ptbench gate: $verdict"
	echo
	echo "base: \`$base\`, head: \`$head\`; a regression is a whole CI of head/base above +$threshold %,"
	echo "with at most $alpha chance of any false verdict in the comparison."
	echo
	if [ "$verdict" = error ]; then
		echo '```'
		cat "$out/ab.log"
		echo '```'
	fi
} >"$out/gate.md"
if [ -s "$out/ab.json" ] && ! command -v python3 >/dev/null 2>&1; then
	echo "(the table of points needs python3; see $out/ab.json)" >>"$out/gate.md"
elif [ -s "$out/ab.json" ]; then
	python3 - "$out/ab.json" >>"$out/gate.md" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("| Point | Verdict | Head/base | CI | Pairs | Smallest detectable slowdown |")
print("|---|---|---:|---|---:|---:|")
def pct(r):
    return "-" if r is None else "%+.1f %%" % (100 * (r - 1))
for p in doc["points"]:
    name = " ".join([p["bench"]] + ["%s=%s" % kv for kv in sorted(p["params"].items())])
    if p["verdict"] == "failed":
        print("| %s | not compared: %s | | | | |" % (name, p["reason"]))
        continue
    ci = p["ratio_ci95"]
    det = p.get("detectable_pct")
    print("| %s | **%s** | %s | [%s, %s] | %d | %s |" % (name, p["verdict"], pct(p["ratio"]),
          pct(ci[0]), pct(ci[1]), p["pairs"], "-" if det is None else "+%.1f %%" % det))
PY
fi
[ "$verdict" = error ] && die "ptbench ab failed (exit $rc): $(tail -1 "$out/ab.log")"
echo "ptbench-gate: $verdict (see $out/gate.md)" >&2
exit "$rc"
