#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench record` and `ptbench predict` on a program nobody here wrote:
# pigz, when installed, compressing generated text with 2 threads.  Its
# output must be byte-identical to an unrecorded run; the prediction for
# 2 CPUs must show a speed-up in generous bounds (the threads compress
# independent blocks; the reading and writing thread is light), and the
# replay on 1 CPU must account for the recorded time.
. "$top_srcdir/tests/tap.sh"
command -v pigz > /dev/null || skip_all "pigz is not installed"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"
awk 'BEGIN { srand(7); for (i = 0; i < 60000; i++)
	printf "%06d host-%d GET /item/%d status=%d bytes=%d\n", i, int(rand() * 40),
		int(rand() * 5000), rand() < 0.9 ? 200 : 404, int(rand() * 90000) }' > "$tmp/in.txt"
pigz -6 -p 2 -c < "$tmp/in.txt" > "$tmp/plain.gz"
"$PTBENCH" record -o "$tmp/pigz.trace" -- pigz -6 -p 2 -c < "$tmp/in.txt" > "$tmp/rec.gz"
check "record of pigz: exit 0" test $? -eq 0
check "pigz's output is byte-identical under record" cmp -s "$tmp/plain.gz" "$tmp/rec.gz"
"$PTBENCH" predict "$tmp/pigz.trace" --cpus 1,2 --format json > "$tmp/p.json"
check "predict of pigz's trace: exit 0" test $? -eq 0
threads=$("$JGET" "$tmp/p.json" recorded.threads)
check "pigz ran with more than 2 threads (got $threads)" test "$threads" -gt 2
rec=$("$JGET" "$tmp/p.json" recorded.wall_s)
one=$("$JGET" "$tmp/p.json" predictions.0.wall_s)
sp=$("$JGET" "$tmp/p.json" predictions.1.speedup)
check "the replay on 1 CPU takes 70-105 % of the recorded $rec s (got $one)" \
	awk -v a="$one" -v b="$rec" 'BEGIN { exit !(a > 0.7 * b && a < 1.05 * b) }'
check "a speed-up on 2 CPUs between 1.3 and 2.05 (got $sp)" \
	awk -v s="$sp" 'BEGIN { exit !(s > 1.3 && s < 2.05) }'
done_testing
