#!/bin/sh
# SPDX-License-Identifier: MIT
# The order of a recording (docs/design.md section 12) on a program nobody
# here wrote: pbzip2, when installed, with 8 workers on 15 blocks of
# 900 kB.  Its reader signals each block under the queue's lock; on 8
# CPUs the first 8 blocks wake 8 workers, each taking one, and the other
# 7 go to the first workers back: no worker compresses more than 2.  On
# one PU the reader took the lock back before the woken worker had run
# and filled the queue first, and one worker took every block it found
# there after its own: three workers were recorded with 3 blocks each,
# and the replay on 8 CPUs, bound to those, came out at a speed-up of
# 4.5.  The input is 15 whole blocks: with at most 2 blocks a worker the
# replay takes 2 blocks' time and the reading, a speed-up of at most 7.5
# and, the reading being short, above 5.5; with 3 on one worker it cannot
# exceed 15 / 3 = 5 (a half block as the last would let 3 come to 2.5
# blocks' time, 5.8).  tests/trace-feed.c is the same pattern with an
# exact answer.
. "$top_srcdir/tests/tap.sh"
command -v pbzip2 > /dev/null || skip_all "pbzip2 is not installed"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"
# 13.5 MB of log text: 15 blocks of 900 kB
awk 'BEGIN { srand(7); for (i = 0; i < 270000; i++)
	printf "%06d host-%d GET /item/%d status=%d bytes=%d\n", i, int(rand() * 40),
		int(rand() * 5000), rand() < 0.9 ? 200 : 404, int(rand() * 90000) }' |
	head -c 13500000 > "$tmp/in.txt"
check "the input is 15 whole blocks of 900 kB ($(wc -c < "$tmp/in.txt") bytes)" \
	test "$(wc -c < "$tmp/in.txt")" -eq 13500000
pbzip2 -p8 -c < "$tmp/in.txt" > "$tmp/plain.bz2"
"$PTBENCH" record -o "$tmp/pb.trace" -- pbzip2 -p8 -c < "$tmp/in.txt" > "$tmp/rec.bz2" 2> "$tmp/rec.err"
rc=$?
check "record of pbzip2 -p8: exit 0 (got $rc: $(head -c 200 "$tmp/rec.err"))" test $rc -eq 0
check "pbzip2's output is byte-identical under record" cmp -s "$tmp/plain.bz2" "$tmp/rec.bz2"
"$PTBENCH" predict "$tmp/pb.trace" --cpus 1,8 --format json > "$tmp/p.json"
rc=$?
check "predict of its trace: exit 0 (got $rc)" test $rc -eq 0
if [ "$("$JGET" "$tmp/p.json" recorded.sched)" != fifo ]; then
	# under the normal policy the recording keeps no virtual time: the
	# reader may run ahead of the workers wherever the kernel lets it
	skip "recorded under the normal policy (SCHED_FIFO refused here): the order is not kept"
else
	sp=$("$JGET" "$tmp/p.json" predictions.1.speedup)
	check "no worker recorded with 3 of the 15 blocks: a speed-up on 8 CPUs above 5.5, below 7.9 (got $sp)" \
		awk -v s="$sp" 'BEGIN { exit !(s > 5.5 && s < 7.9) }'
fi
done_testing
