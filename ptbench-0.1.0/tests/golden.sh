# SPDX-License-Identifier: MIT
# Golden output: the four reporters on the fixed ptbench/1 run
# tests/data/run-golden.json (ok, unstable and N/A points, shared and
# distinct N/A reasons, a numeric variable, placements, a benchmark the
# paper lacks, one nobody knows, a timeout and LogP records), compared byte
# for byte with tests/data/golden.{table,csv,json,gbench.json}; and on the
# ptbench/2 run tests/data/run-golden-v2.json (points made of trials, their
# CIs, LogP from them) with tests/data/golden-v2.*.  The table folds points
# N/A at a placement the machine lacks into one line; with all rows
# (golden*.all-rows.table) it keeps a row for each, as it did before.
#
# After an intended change of a format, regenerate the golden files with
#     PTB_REGEN=1 make check TESTS=tests/golden.sh
# and read the diff of tests/data/golden.* before committing it.
. "$top_srcdir/tests/tap.sh"

prog=./tests/test_report
input=$TESTDATA/run-golden.json
[ -x "$prog" ] || skip_all "$prog is not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for v in 1 2; do
	case $v in
	1) input=$TESTDATA/run-golden.json; tag= ;;
	2) input=$TESTDATA/run-golden-v2.json; tag=-v2 ;;
	esac
for fmt in table all-rows csv json gbench; do
	args=$fmt
	case $fmt in
	gbench)   golden=$TESTDATA/golden$tag.gbench.json ;;
	all-rows) golden=$TESTDATA/golden$tag.all-rows.table; args="table all-rows" ;;
	*)        golden=$TESTDATA/golden$tag.$fmt ;;
	esac
	if ! "$prog" "$input" $args >"$tmp/$fmt" 2>"$tmp/err"; then
		not_ok "ptbench/$v $fmt: the reporter failed: $(cat "$tmp/err")"
	elif [ -n "$PTB_REGEN" ]; then
		cp "$tmp/$fmt" "$golden" && ok "$fmt: regenerated $golden"
	elif cmp -s "$golden" "$tmp/$fmt"; then
		ok "ptbench/$v $fmt output matches $(basename "$golden")"
	else
		not_ok "ptbench/$v $fmt output differs from $(basename "$golden")"
		diff -u "$golden" "$tmp/$fmt" | sed 's/^/# /'
	fi
done
done
# The JSON format is the result file itself: reading it back and printing
# it again must give the same bytes.
"$prog" "$tmp/json" json >"$tmp/json2" 2>"$tmp/err"
check "json output reads back and prints identically" cmp -s "$tmp/json" "$tmp/json2"

# Google Benchmark's tools index every entry by these fields; an entry
# without them would be dropped or crash compare.py.
if command -v python3 >/dev/null 2>&1; then
	check "gbench output has the fields compare.py reads" python3 - "$tmp/gbench" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
need = {"name", "run_name", "run_type", "repetitions", "threads", "real_time", "cpu_time", "time_unit"}
bench = doc["benchmarks"]
assert bench and isinstance(doc["context"], dict)
for b in bench:
    assert need <= set(b), b
    assert b["time_unit"] == "ns", b
    assert b["real_time"] > 0 or b.get("aggregate_name") == "stddev", b
    if b["run_type"] == "aggregate":
        assert b["aggregate_name"] in ("mean", "median", "stddev"), b
    else:
        assert b["run_type"] == "iteration" and "repetition_index" in b, b
PY
else
	ok "# SKIP python3 not found"
fi

done_testing
