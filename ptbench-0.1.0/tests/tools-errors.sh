#!/bin/sh
# SPDX-License-Identifier: MIT
# Every malformed input to `ptbench table` and `ptbench compare` -- not JSON,
# another schema, a truncated file, missing fields, an empty file, a
# directory, a missing file, a duplicate point, bad options -- exits 2 with
# exactly one line on stderr and nothing on stdout.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
good="$TESTDATA/tools-base.json"
cd "$work" || exit 1

printf 'hello, world\n' >not-json.json
printf '{"schema": "other/2", "results": []}\n' >schema.json
head -c 700 "$good" >truncated.json
: >empty.json
mkdir adir.json
# A record without its status, and a run without its context.
sed '0,/"status": "ok",/s///' "$good" >no-status.json
printf '{"schema": "ptbench/1", "status": "complete", "results": []}\n' >no-context.json
# Two records of one point.
awk '/"results": \[/ { print; getline; print "  {\"bench\": \"cond.signal\", \"params\": {}, \"status\": \"na\", \"reason\": \"twice\"},"; } { print }' \
	"$good" >duplicate.json

# bad DESCRIPTION ARGS...
bad() {
	d=$1; shift
	"$PTBENCH" "$@" >out.txt 2>err.txt
	rc=$?
	lines=$(wc -l <err.txt)
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && [ ! -s out.txt ]; then ok "$d"; else
		not_ok "$d (exit $rc, $lines stderr lines, $(wc -c <out.txt) bytes on stdout)"
		sed 's/^/# /' err.txt | head -5
	fi
}

for f in not-json schema truncated empty adir no-status no-context nonexistent; do
	bad "table: $f" table "$good" "$f.json"
	bad "compare: $f as BASE" compare "$f.json" "$good"
	bad "compare: $f as NEW" compare "$good" "$f.json"
done
bad "compare: a point twice in one file" compare "$good" duplicate.json

bad "table: no files" table
bad "table: unknown --format" table --format xml "$good"
bad "table: unknown --stat" table --stat average "$good"
bad "table: unknown option" table --colour "$good"
bad "table: option without its value" table "$good" --format
bad "compare: one file" compare "$good"
bad "compare: three files" compare "$good" "$good" "$good"
bad "compare: --alpha above 1" compare --alpha 2 "$good" "$good"
bad "compare: --alpha not a number" compare --alpha 0.01x "$good" "$good"
bad "compare: negative --threshold" compare --threshold -5 "$good" "$good"
bad "compare: unknown --format" compare --format html "$good" "$good"
bad "compare: unknown option" compare --strict "$good" "$good"

done_testing
