#!/bin/sh
# SPDX-License-Identifier: MIT
# The gate's power and its false alarms, as docs/design.md section 17
# measured them: ROUNDS rounds of three `ptbench ab` gates on
# cond.signal and mutex.lockunlock threads=2 -- a pthread_mutex_lock made
# slower by ADDS dependent adds (docs/gate-power.c, preloaded on both
# sides, base with 0), the same again, and an A/A gate -- and a tally of
# verdicts.  Beside it, an independent loop of lock and unlock times the
# slowdown the shim makes, interleaved.  A benchmark note, not a test.
#   docs/gate-power.sh [PTBENCH [ROUNDS [ADDS]]]
set -e
PTBENCH=${1:-./ptbench}
ROUNDS=${2:-3}
ADDS=${3:-3}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -shared -fPIC "$here/gate-power.c" -o "$work/adds.so" -ldl
cat >"$work/loop.c" <<'EOC'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static void *idle(void *a) { pause(); return a; }
int main(void)
{
	pthread_t t;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	double best = 1e9;
	pthread_create(&t, NULL, idle, NULL);
	for (int r = 0; r < 15; r++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < 2000000; i++) {
			pthread_mutex_lock(&m);
			pthread_mutex_unlock(&m);
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 2e6;
		best = ns < best ? ns : best;
	}
	printf("%.3f\n", best);
	return 0;
}
EOC
${CC:-cc} -O2 -pthread "$work/loop.c" -o "$work/loop"
sides="--base-env LD_PRELOAD=$work/adds.so --base-env PTB_LOCK_ADDS=0
       --head-env LD_PRELOAD=$work/adds.so --head-env PTB_LOCK_ADDS=$ADDS"
points="-b cond.signal -b mutex.lockunlock -p threads=2"
gate() {   # NAME [AB-OPTION...]: one gate, one line
	name=$1
	shift
	start=$(date +%s)
	rc=0
	"$PTBENCH" ab --format csv "$@" "$PTBENCH" "$PTBENCH" $points >"$work/ab.csv" 2>/dev/null || rc=$?
	verdicts=$(awk -F, 'NR > 1 { printf " %s %s", $1, $3 }' "$work/ab.csv")
	echo "$name: exit $rc in $(( $(date +%s) - start )) s:$verdicts"
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
	base=$(LD_PRELOAD=$work/adds.so PTB_LOCK_ADDS=0 "$work/loop")
	head=$(LD_PRELOAD=$work/adds.so PTB_LOCK_ADDS=$ADDS "$work/loop")
	awk -v r="$r" -v b="$base" -v h="$head" 'BEGIN {
		printf "round %d: the independent loop reads %.3f -> %.3f ns (%+.1f %%)\n", r, b, h,
		       (h - b) / b * 100 }'
	gate "round $r slower lock" $sides
	gate "round $r slower lock again" $sides
	gate "round $r A/A"
	r=$((r + 1))
done
