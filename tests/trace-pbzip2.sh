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
# 4.5.  With at most 2 blocks a worker its replay takes 2 blocks' time
# and the reading, a speed-up above 5.5; with 3 blocks on one worker it
# cannot exceed 14.6 / 3, about 4.9 (tests/trace-feed.c is the same
# pattern with an exact answer).
. "$top_srcdir/tests/tap.sh"
command -v pbzip2 > /dev/null || skip_all "pbzip2 is not installed"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"
# 13.1 MB of log text: 15 blocks, the last about half of one
awk 'BEGIN { srand(7); for (i = 0; i < 250000; i++)
	printf "%06d host-%d GET /item/%d status=%d bytes=%d\n", i, int(rand() * 40),
		int(rand() * 5000), rand() < 0.9 ? 200 : 404, int(rand() * 90000) }' > "$tmp/in.txt"
blocks=$(awk -v b="$(wc -c < "$tmp/in.txt")" 'BEGIN { printf "%d", (b + 899999) / 900000 }')
check "the input makes 15 blocks of 900 kB (got $blocks)" test "$blocks" -eq 15
pbzip2 -p8 -c < "$tmp/in.txt" > "$tmp/plain.bz2"
"$PTBENCH" record -o "$tmp/pb.trace" -- pbzip2 -p8 -c < "$tmp/in.txt" > "$tmp/rec.bz2" 2> "$tmp/rec.err"
check "record of pbzip2 -p8: exit 0 ($(head -c 200 "$tmp/rec.err"))" test $? -eq 0
check "pbzip2's output is byte-identical under record" cmp -s "$tmp/plain.bz2" "$tmp/rec.bz2"
"$PTBENCH" predict "$tmp/pb.trace" --cpus 1,8 --format json > "$tmp/p.json"
check "predict of its trace: exit 0" test $? -eq 0
if [ "$("$JGET" "$tmp/p.json" recorded.sched)" != fifo ]; then
	# under the normal policy the recording keeps no virtual time: the
	# reader may run ahead of the workers wherever the kernel lets it
	skip "recorded under the normal policy (SCHED_FIFO refused here): the order is not kept"
else
	sp=$("$JGET" "$tmp/p.json" predictions.1.speedup)
	check "no worker recorded with 3 of the 15 blocks: a speed-up on 8 CPUs above 5.5, at most 7.6 (got $sp)" \
		awk -v s="$sp" 'BEGIN { exit !(s > 5.5 && s < 7.6) }'
fi
done_testing
