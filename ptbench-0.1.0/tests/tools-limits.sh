#!/bin/sh
# SPDX-License-Identifier: MIT
# The readers' limits: a file with no results, control characters in its
# strings, long UTF-8 names, points that one row would merge, a point
# written twice, and many distinct reasons and benchmarks.  report and
# table must print such a file whole and harmless; the figures are not
# timed here (see the commit that made the footnotes and gbench linear).
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
H='"context": {"host": "h", "cpu": {"brand": "b"}}'
esc=$(printf '\033')

# file NAME SCHEMA RECORDS: a complete result file.
file() {
	printf '{"schema": "ptbench/%s", "status": "complete", %s, "results": [%s]}\n' "$2" "$H" "$3" >"$1"
}

file empty1.json 1 ""
file empty2.json 2 ""
for f in empty1 empty2; do
	"$PTBENCH" table "$f.json" >out.txt 2>err.txt
	check "table of $f.json (no results): exit 0, nothing on stderr" \
		sh -c "test $? = 0 && test ! -s err.txt && test -s out.txt"
	"$PTBENCH" report "$f.json" >out.txt 2>err.txt
	check "report of $f.json (no results): exit 0" test $? = 0
done

# ESC, BEL and a C1 CSI (U+009B) in a bench name, a reason and the host.
file ctl.json 2 '{"bench": "x.\u001b[31mred", "params": {}, "status": "na", "reason": "bell\u0007 and \u009b2J"}'
sed -i 's/"host": "h"/"host": "h\\u001b]0;title\\u0007"/' ctl.json
for cmd in "table ctl.json" "table --format csv ctl.json" "table --format html ctl.json" \
	   "report ctl.json" "report --format csv ctl.json"; do
	"$PTBENCH" $cmd >out.txt 2>err.txt
	rc=$?
	check "$cmd: exit 0 (got $rc), no control character printed" \
		sh -c "test $rc = 0 && ! tr -d '\\n' <out.txt | LC_ALL=C grep -q '[[:cntrl:]]'"
	check "$cmd: the name escaped" grep -qF 'x.\x1B[31mred' out.txt
done
"$PTBENCH" report ctl.json >out.txt
check "BEL and C1 controls are escaped too" grep -qF 'bell\x07 and \u009B2J' out.txt

# Long UTF-8 names (300 x "é", 600 bytes): never cut mid-character, and two
# points whose names differ only after the first 200 bytes keep two rows.
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "\303\251" }')
file long.json 2 "{\"bench\": \"y.$long\", \"params\": {}, \"status\": \"na\", \"reason\": \"one\"},
  {\"bench\": \"y.${long}a\", \"params\": {}, \"status\": \"na\", \"reason\": \"two\"},
  {\"bench\": \"y.${long}b\", \"params\": {}, \"status\": \"na\", \"reason\": \"three\"}"
for fmt in md csv html; do
	"$PTBENCH" table --format $fmt long.json >out.txt 2>err.txt
	check "table --format $fmt of long UTF-8 names is valid UTF-8" \
		sh -c "test $? = 0 && iconv -f UTF-8 -t UTF-8 out.txt >/dev/null"
	check "table --format $fmt keeps all three points" \
		sh -c "grep -q one out.txt && grep -q two out.txt && grep -q three out.txt"
done
for fmt in table csv gbench json; do
	"$PTBENCH" report --format $fmt long.json >out.txt 2>err.txt
	check "report --format $fmt of long UTF-8 names is valid UTF-8" \
		sh -c "test $? = 0 && iconv -f UTF-8 -t UTF-8 out.txt >/dev/null"
done

# A point written twice: the table shows the first and says so.
file twice.json 2 '{"bench": "z.p", "params": {}, "status": "na", "reason": "first"},
  {"bench": "z.p", "params": {}, "status": "na", "reason": "second"}'
"$PTBENCH" table twice.json >out.txt 2>err.txt
check "a point twice: table shows the first, one line on stderr says so" \
	sh -c "test $? = 0 && grep -q first out.txt && test \$(wc -l <err.txt) = 1 &&
	       grep -q \"point 'z.p' appears twice\" err.txt"

# Many distinct reasons and benchmarks: every one printed once.
awk 'BEGIN { for (i = 0; i < 3000; i++)
	printf "%s{\"bench\": \"w.b%d\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"reason\": \"r%d\", \"trials\": [{\"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1]}]}", i ? "," : "", i, i }' >recs.txt
file many.json 2 "$(cat recs.txt)"
"$PTBENCH" table many.json >out.txt
check "3000 distinct reasons: 3000 footnotes" test "$(grep -c '^\[[0-9]*\] r[0-9]*$' out.txt)" = 3000
"$PTBENCH" report --format gbench many.json >out.txt
check "3000 benchmarks: 3000 gbench families" \
	test "$(grep -o '"family_index": [0-9]*' out.txt | sort -u | wc -l)" = 3000

done_testing
