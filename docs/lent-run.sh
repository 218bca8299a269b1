#!/bin/sh
# SPDX-License-Identifier: MIT
# What ran on a lent machine of 16 CPUs, in the root docs/lent-root.sh
# packed: `docs/lent-run.sh ARCHIVE OUT [SECONDS]` unpacks it, moves the
# work (not this shell, which the machine's job supervisor follows) to the
# root cgroup, where SCHED_FIFO is permitted to root, and runs under chroot,
# each part's log written to OUT as it ends:
#   probe.txt     the machine: CPUs, kernel, policy, cgroup
#   unit.txt      the C unit tests (TAP), on this machine's topology
#   machine.json  `ptbench run` of cond.pingpong, mutex.pingpong, create
#                 (the costs of `predict --machine`)
#   scaling-other.txt, scaling-fifo.txt
#                 docs/predict-scaling.sh with real runs under the normal
#                 policy and under SCHED_FIFO
#   tests.txt     the shell tests of record and predict (TAP)
# With LENT_PART=targets, after the probe, only the issue's targets on 2
# CPUs of this quiet machine instead:
#   targets-K-T2.txt, targets-K-T4.txt
#                 docs/predict-validation.sh with 2 and 4 threads, real runs
#                 under SCHED_FIFO and the normal policy, each program's
#                 own co-running slowdown measured first (CORUN); sittings
#                 K = 1, 2, ... of three rounds, T = 2 and 4 alternating
# With LENT_PART=corun, after the probe, only corun.txt: each compressor's
# own co-running slowdown (ptbench corun, three rounds).
# With LENT_PART=scaling-corun, after the probe, only scaling-corun.txt:
# docs/predict-scaling.sh at 4 and 8 CPUs with each compressor's co-running
# slowdown measured in each round (CORUN=1), real runs under the normal
# policy and under SCHED_FIFO (LINES default 120000, about 13 MB; up to
# five rounds, as many as start 170 s before SECONDS run out: four in
# 480 s on a 16-vCPU guest).
# SECONDS (default 480) bounds the whole: the sittings start no round
# past their share of it.
# A lent machine's call brings back 8 files of OUT at most: give it a
# folder of its own and pack that into one archive under OUT at the end.
set -u
case ${1:-} in
inside) ;;
mounted)
	# in a mount namespace of its own whose mounts are the host's slaves:
	# nothing mounted or unmounted here reaches the host's /dev, /sys or
	# /proc, and every mount goes with the namespace, however this ends
	A=$2 O=$3 S=${4:-480}
	R=/tmp/lent-root
	rm -rf "$R" && mkdir -p "$R" && tar -C "$R" -xzf "$A" || exit 1
	for d in proc sys dev; do mount --rbind "/$d" "$R/$d" || exit 1; done
	mount -t tmpfs tmpfs "$R/tmp" && mount --bind "$O" "$R/out" || exit 1
	mkdir -p "$R/dev/shm" && mount -t tmpfs tmpfs "$R/dev/shm"
	# cgroup v2 only: under v1 the file is not there, and writing would make one
	exec sh -c '[ -f /sys/fs/cgroup/cgroup.controllers ] && echo $$ > /sys/fs/cgroup/cgroup.procs
		exec chroot "$1" /bin/sh /b/docs/lent-run.sh inside "$2"' sh "$R" "$S" ;;
*)
	[ $# -ge 2 ] || { echo "usage: $0 ARCHIVE OUT [SECONDS]" >&2; exit 2; }
	exec unshare -m --propagation slave sh "$0" mounted "$@" ;;
esac
S=$2
start=$(date +%s)
left() { echo $((S - ($(date +%s) - start))); }
cd /b || exit 1
export LANG=C LC_ALL=C PATH=/usr/bin TESTDATA=/b/tests/data top_srcdir=/b PTBENCH=/b/ptbench \
	PTBENCH_T=/b/tests/ptbench-t JGET=/b/tests/jget PTB_HAVE_OPENMP=yes

{
	echo "date $(date -u +%FT%TZ) cpus $(nproc) kernel $(uname -r)"
	grep -m1 'model name' /proc/cpuinfo
	echo "cgroup $(cat /proc/self/cgroup)"
	echo "rt_runtime $(cat /proc/sys/kernel/sched_rt_runtime_us)" \
		"fifo $(chrt -f 1 true 2> /dev/null && echo yes || echo no)"
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		printf '%s:%s ' "${c##*cpu}" "$(cat "$c/topology/thread_siblings_list" 2> /dev/null)"
	done
	echo
} > /out/probe.txt 2>&1
cat /out/probe.txt

if [ "${LENT_PART:-all}" = corun ]; then
	# only each compressor's own co-running slowdown, 2 threads, 3 rounds
	CORUN=3 sh docs/predict-validation.sh ./ptbench 2 0 > /out/corun.txt 2>&1
	cat /out/corun.txt
	exit 0
fi
if [ "${LENT_PART:-all}" = scaling-corun ]; then
	# a round of the 2-vCPU VM's took 25 s at 2 threads and 6 MB; this one,
	# with 4 and 8 threads, 2-3 times the copies and twice the text, is
	# started no later than 170 s before the end
	LINES=${LINES:-120000} CORUN=1 REAL_SCHED=both PLAIN=0 DEADLINE=$(($(left) - 170)) \
		sh docs/predict-scaling.sh ./ptbench tests "${THREADS:-4 8}" 5 > /out/scaling-corun.txt 2>&1
	echo "scaling with corun: $(grep -c ' real=' /out/scaling-corun.txt) lines, $(left) s left"
	exit 0
fi
if [ "${LENT_PART:-all}" = targets ]; then
	# a round of seven compressors took 25-35 s on the development VM,
	# and their corun figures (3 rounds) about 50 s
	k=1
	while [ "$(left)" -gt 100 ]; do
		for t in 2 4; do
			[ "$(left)" -gt 100 ] || break
			CORUN=3 REAL_SCHED=both DEADLINE=$(($(left) - 100)) \
				sh docs/predict-validation.sh ./ptbench $t 3 > /out/targets-$k-T$t.txt 2>&1
			echo "sitting $k, $t threads: $(grep -c ' real2=' /out/targets-$k-T$t.txt) lines, $(left) s left"
		done
		k=$((k + 1))
	done
	exit 0
fi

for t in tests/test_*; do
	[ "$t" = tests/test_report ] && continue
	echo "# $t"
	timeout 60 "$t" 2>&1
	echo "# $t exit $?"
done > /out/unit.txt
echo "unit tests: $(grep -c '^ok' /out/unit.txt) ok, $(grep -c '^not ok' /out/unit.txt) not ok," \
	"$(grep -c '^# .* exit [1-9]' /out/unit.txt) programs failed"

./ptbench run -b cond.pingpong -b mutex.pingpong -b create --run-budget 15 \
	-o /out/machine.json > /out/machine.txt 2>&1
echo "machine: exit $?"

# two sittings, each starting no round past its share of the time left
# after them and the tests (about 90 s)
share=$((($(left) - 90) / 2))
[ $share -gt 0 ] || share=1
# (a round takes 40-45 s on the development VM: its last starts 45 s early)
first=$((share - 45))
[ $first -gt 0 ] || first=1
MACHINE=/out/machine.json PLAIN=0 REAL_SCHED=other DEADLINE=$first \
	sh docs/predict-scaling.sh ./ptbench tests "2 4 8" 5 > /out/scaling-other.txt 2>&1
echo "sitting, normal policy: $(grep -c ' real=' /out/scaling-other.txt) lines, $(left) s left"

for t in trace trace-io trace-odd trace-spin trace-queue trace-pigz record-process; do
	[ "$(left)" -gt 60 ] || { echo "# $t: no time left"; continue; }
	a=$(date +%s)
	echo "# tests/$t.sh"
	timeout 120 sh "tests/$t.sh" 2>&1
	echo "# tests/$t.sh exit $? in $(($(date +%s) - a)) s"
done > /out/tests.txt
echo "shell tests: $(grep -c '^ok' /out/tests.txt) ok, $(grep -c '^not ok' /out/tests.txt) not ok"
grep -e '^not ok' -e '^# .* exit [1-9]' -e 'no time left' /out/tests.txt

[ "$(left)" -gt 85 ] &&
	MACHINE=/out/machine.json PLAIN=0 REAL_SCHED=fifo DEADLINE=$(($(left) - 85)) \
	sh docs/predict-scaling.sh ./ptbench tests "2 4 8" 5 > /out/scaling-fifo.txt 2>&1
echo "sitting, SCHED_FIFO: $(grep -c ' real=' /out/scaling-fifo.txt 2> /dev/null) lines, $(left) s left"
