#!/bin/sh
# SPDX-License-Identifier: MIT
# ptbench-mpi on 2 ranks x 2 threads, oversubscribed on this one host with
# --as-nodes: the file's context and clocks (an injected offset found
# within the sync's bound), the hybrid barrier's correctness check (no
# thread leaves before every thread of every rank entered; the control
# without the MPI step must be caught), the cross-node rows and their
# table, and the faults (a rank that hangs or dies, no launcher, ranks
# sharing a host): one line naming the rank, exit 2, no hang.
# Mechanisms only, never speed (the 120 s limit only guards against a
# hang).  Skips where MPI or a launcher is missing.
. "$top_srcdir/tests/tap.sh"

[ -x "$PTBENCH_MPI" ] || skip_all "ptbench-mpi not built (configure found no MPI)"
[ -n "$MPIRUN" ] && [ -x "$MPIRUN" ] || skip_all "no MPI launcher (mpirun, mpiexec)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# In a sanitizer build, LeakSanitizer must find ptbench-mpi's own leaks and
# not the MPI library's (Open MPI leaves, among others, an 8 KB block of
# orte_init's unfreed).  Those are told by the libraries on their stacks:
# full stacks (the fast unwinder stops in MPI's plugins), and the plugins
# kept loaded, or their frames would be named after whatever module holds
# their old addresses (ptbench-mpi itself).
if [ -n "$ASAN_OPTIONS" ]; then
	for lib in libmpi.so libopen-rte.so libopen-pal.so libpmix.so libhwloc.so libevent \
		/openmpi/lib/ libmpich.so; do
		echo "leak:$lib"
	done >"$work/lsan.supp"
	export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
	export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$work/lsan.supp:print_suppressions=0"
	export OMPI_MCA_mca_base_component_disable_dlclose=1
fi

# Open MPI refuses root (CI) unless told twice; MPICH ignores these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
flags=
# (Debian's mpirun.openmpi says "OpenRTE", others "Open MPI")
if "$MPIRUN" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
	flags="--oversubscribe --bind-to none"
	export OMPI_MCA_mpi_yield_when_idle=1
fi
# shellcheck disable=SC2086
# Each job has a temporary folder of its own ($job_tmp, else $work/t-main):
# Open MPI's mpirun makes its session folder there, and two started at once
# in the same /tmp raced to create /tmp/ompi.HOST.UID ("mkdir: File exists",
# exit 1 at once: 1 job in 100 here, four at a time beside a make check).
mpi() {
	mpi_tmp=${job_tmp:-$work/t-main}
	mkdir -p "$mpi_tmp"
	TMPDIR=$mpi_tmp timeout 120 "$MPIRUN" $flags -n "${ranks:-2}" "$PTBENCH_MPI" cluster --threads 2 "$@"
}
hybrid() { mpi --suite hybrid "$@"; }
j() { "$JGET" "$work/c.json" "$1"; }
# rec BENCH STYLE FIELD: the field of the first record of BENCH with style
rec() {
	n=$(j results.#); i=0
	while [ "$i" -lt "$n" ]; do
		if [ "$(j results.$i.bench)" = "$1" ] && [ "$(j results.$i.params.style)" = "$2" ]; then
			j "results.$i.$3"; return
		fi
		i=$((i + 1))
	done
}

# The usage and the manual name the same options (the manual's own, on
# .B/.BR/.BI lines; the examples' launcher options are not ptbench-mpi's).
man=$top_srcdir/man/ptbench-mpi.1
miss=
for o in $("$PTBENCH_MPI" --help | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$man" || miss="$miss $o"
done
for o in $(sed -n 's/^\.B[IR]* \(\\-\\-[a-z\\-]*\).*/\1/p' "$man" | sed 's/\\//g' | sort -u); do
	"$PTBENCH_MPI" --help | grep -q -- "$o" || miss="$miss $o"
done
check "--help and man/ptbench-mpi.1 name the same options${miss:+ (not both:$miss)}" [ -z "$miss" ]

if ldd "$PTBENCH" 2>/dev/null | grep -q libmpi; then not_ok "ptbench links no MPI library"
else ok "ptbench links no MPI library"; fi

# Rank r's clock runs r x 3 ms ahead: the sync must find it, and the check
# must still see no violation (it compares stamps on rank 0's clock).
inject=3000000
PTB_MPI_INJECT_OFFSET_NS=$inject hybrid --as-nodes --rounds 2 --episodes 10 --control \
	-o "$work/c.json" >"$work/out" 2>"$work/err"
rc=$?
check "a 2-rank run succeeds (exit $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || sed 's/^/# /' "$work/err" | head -20
check "schema ptbench-cluster/1, complete" [ "$(j schema) $(j status)" = "ptbench-cluster/1 complete" ]
[ "$(j context.nodes.#)" = 2 ] && [ -n "$(j context.nodes.1.cpuset)" ]
verdict "two nodes, with host and cpuset"
[ -n "$(j context.mpi.library)" ] && [ -n "$(j context.mpi.provided)" ] && [ -n "$(j context.mpi.launcher)" ]
verdict "MPI library, thread levels and launcher recorded"
off=$(j context.clock.offsets.1.offset_ns); width=$(j context.clock.offsets.1.width_ns)
err=$((off - inject)); [ "$err" -lt 0 ] && err=$((-err))
check "injected offset $inject ns found as $off ns, within the bound $width ns" \
	[ "$((2 * err))" -le "$((width + 2))" ]
[ "$(rec hybrid.barrier.check funneled violations)" = 0 ] &&
	[ "$(rec hybrid.barrier.check funneled episodes)" = 300 ]
verdict "funneled: 0 violations in 300 episodes"
if [ "$(j context.mpi.provided)" = multiple ]; then
	check "multiple: 0 violations in 300 episodes" [ "$(rec hybrid.barrier.check multiple violations)" = 0 ]
else
	check "multiple: na below MPI_THREAD_MULTIPLE" [ "$(rec hybrid.barrier.check multiple status)" = na ]
fi
v=$(rec hybrid.barrier.check none violations)
check "the control without MPI_Barrier is caught ($v violations)" [ "${v:-0}" -gt 0 ]
[ -n "$(rec hybrid.barrier funneled value)" ] && [ "$(rec hybrid.barrier funneled trials.#)" = 2 ]
verdict "hybrid.barrier funneled: a figure from 2 rounds"
# ok exactly when the CI is within the target (2 %), else unstable
st=$(rec hybrid.barrier funneled status)
want=$(echo "$(rec hybrid.barrier funneled value) $(rec hybrid.barrier funneled ci95)" | tr '[],' '   ' |
	awk '{ print (($3 - $2) / 2 / $1 * 100 <= 2) ? "ok" : "unstable" }')
check "... whose status ($st) follows its CI against the target ($want)" [ "$st" = "$want" ]
check "mpi.pingpong funneled: a figure" [ -n "$(rec mpi.pingpong funneled value)" ]
[ "$(j context.clock.resyncs.#) $(j context.clock.resyncs.0.round)" = "1 2" ] &&
	[ -n "$(j context.clock.resyncs.0.offsets.1.width_ns)" ] &&
	[ "$(rec hybrid.barrier funneled trials.1.round)" = 2 ]
verdict "round 2 starts with the clocks synchronised again, its trials marked round 2"
# The exit skew of the timed episodes (rank 1's clock 3 ms ahead: only
# stamps put on rank 0's clock by the offset come near the bound).  Each
# rank's exit of episode k+1 comes after every rank's exit of episode k,
# and its episodes lie within the slowest rank's time, n x estimate: the
# skews of the first n-1 episodes add up to at most that, so at least
# n - n/2 - 1 of them at or above the median m give (n - n/2 - 1)(m -
# bound) <= n x estimate (n = 10 episodes).
bad=; seen=0; n=$(j results.#); i=0
while [ "$i" -lt "$n" ]; do
	if [ "$(j results.$i.bench)" = hybrid.barrier ] && [ -n "$(j results.$i.value)" ]; then
		[ -n "$(j results.$i.exit_skew_ns_median)" ] && [ -n "$(j results.$i.exit_skew_bound_ns)" ] ||
			bad="$bad results[$i] has no exit skew;"
		for t in 0 1; do
			tr=results.$i.trials.$t; seen=$((seen + 1))
			bad=$bad$(echo "$(j $tr.estimate) $(j $tr.exit_skew_ns) $(j $tr.exit_skew_bound_ns)" |
				awk -v at="$tr" '{ lim = 10 * $1 / (10 - 5 - 1) + $3
					if ($2 == "" || $3 == "" || $2 < 0 || $2 > lim)
						printf " %s: skew %s ns, bound %s ns, limit %.0f ns;", at, $2, $3, lim }')
		done
	fi
	i=$((i + 1))
done
[ "$seen" -ge 2 ] && [ -z "$bad" ]
verdict "hybrid.barrier's timed episodes: exit skew on the synchronised clocks, >= 0 and within the bound ($seen trials)${bad:+ (not:$bad)}"
[ -n "$(j context.nodes.1.context.cpu.brand)" ] && [ -n "$(j context.nodes.0.context.os)" ]
verdict "each node's context as ptbench/2 records it (--suite hybrid: ptbench info)"
"$PTBENCH" report "$work/c.json" >"$work/table" 2>&1
[ "$(grep -c '^rank[01] ' "$work/table")" = 2 ] && grep -q '^hybrid.barrier ' "$work/table" &&
	grep -q '^mpi.pingpong ' "$work/table" && grep -q 'Trials  *Exit skew (µs)$' "$work/table"
verdict "ptbench report prints both nodes and the cross-node rows, with the exit skew"

# 4 ranks, funneled, clocks by the hierarchical method: the binomial tree
# (rank 3 measured against rank 2, rank 2 and 1 against rank 0), rank 3's
# injected offset found within the bound composed along its path.
# (one thread per rank: 4 ranks already fill a small machine twice)
ranks=4 PTB_MPI_INJECT_OFFSET_NS=$inject hybrid --as-nodes --thread-level funneled --threads 1 \
	--clock hierarchical --rounds 1 --episodes 5 --check-episodes 5 \
	-o "$work/c.json" >/dev/null 2>"$work/err"
why=$(rec hybrid.barrier multiple reason)
[ "$(rec hybrid.barrier multiple status)" = na ] && [ "${why#*MULTIPLE}" != "$why" ]
verdict "funneled: the multiple points are na, saying why ($why)"
[ "$(j context.clock.method)" = hierarchical ] &&
	[ "$(j context.clock.offsets.3.parent) $(j context.clock.offsets.2.parent) $(j context.clock.offsets.1.parent)" = "2 0 0" ]
verdict "--clock hierarchical: a binomial tree, rank 3 under rank 2, ranks 1 and 2 under rank 0"
off=$(j context.clock.offsets.3.offset_ns); width=$(j context.clock.offsets.3.width_ns)
err=$((off - 3 * inject)); [ "$err" -lt 0 ] && err=$((-err))
check "... rank 3's injected $((3 * inject)) ns found as $off ns, within its bound $width ns" \
	[ "$((2 * err))" -le "$((width + 2))" ]
check "... and the check across 4 ranks: 0 violations" \
	[ "$(rec hybrid.barrier.check funneled violations)" = 0 ]

# The faults, each its own job, run at once: they spend their time
# waiting (a roll call's time-out, the launcher's second between SIGTERM
# and SIGKILL), not computing, so together they take the longest one's
# time rather than the sum, and the jobs that end at once on bad input
# run meanwhile.  (--timeout 4 rather than 1: four jobs start at once
# on a small machine, and a healthy rank must not miss a phase; with 2, a
# job's clock synchronisation timed out in 1 of 100 such jobs here while
# a make check -j4 ran beside them.)
# fault NAME [launch [MS]]: in the background, its status, time and stderr
# in $work/NAME.*; with launch, under `ptbench-mpi launch` (its file
# $work/NAME-launch.*), each of rank 0's writes MS ms slower
fault() {
	(
		start=$(date +%s) name=$1${2:+-$2}
		fault_tmp=$work/t-$(echo "$name" | tr : _)
		mkdir -p "$fault_tmp"
		# shellcheck disable=SC2086
		TMPDIR=$fault_tmp PTB_MPI_FAULT=$1 PTB_MPI_TEST_SLOW_WRITE_MS=${3:-0} timeout 120 ${2:+"$PTBENCH_MPI" launch} "$MPIRUN" $flags -n 2 \
			"$PTBENCH_MPI" cluster --threads 2 --suite hybrid --as-nodes --rounds 1 \
			--episodes 5 --timeout 4 -o "$work/$name.json" >/dev/null 2>"$work/$name.err"
		echo "$? $(( $(date +%s) - start ))" >"$work/$name.rc"
	) &
}
# result NAME: rc, took and err of a fault's job
result() { read -r rc took <"$work/$1.rc"; err=$work/$1.err; f=$work/$1.json; }
fault hang:1
fault die:1
if [ -n "$flags" ]; then
	fault term:1
	# a disk busy with other work: rank 1 dies while rank 0 is still
	# writing its first file, which the death's own write must wait for
	# (it waited 300 ms, and under a parallel build's load the file stayed
	# "running" while rank 0's line said "incomplete")
	fault die:1 launch 500
fi
# Meanwhile, while they wait, the jobs that fail at once (bad input: they
# take their start-up's CPU, one at a time).
hybrid --as-nodes -o /nonexistent-dir/c.json >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] &&
	[ "$(grep -c '^ptbench-mpi: ' "$work/err")" = 1 ] && grep -q "cannot write '/nonexistent-dir" "$work/err"
verdict "an output it cannot write: exit 2 before measuring, one line"
if mknod "$work/cdev" c 1 3 2>/dev/null; then
	# (mpirun's second of grace before SIGKILL is not needed: no file)
	OMPI_MCA_odls_base_sigkill_timeout=0 hybrid --as-nodes -o "$work/cdev" >/dev/null 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] &&
		[ "$(grep -c '^ptbench-mpi: ' "$work/err")" = 1 ] && [ -c "$work/cdev" ]
	verdict "-o a character device: exit 2, one line, the node kept"
fi

"$PTBENCH_MPI" report "$TESTDATA/run-golden.json" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
	grep -q 'not a ptbench-cluster/1 file' "$work/err"
verdict "report of a ptbench/2 file: exit 2, one line"

mpi --as-nodes --node-args "-b nosuch" -o "$work/c.json" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && grep -q '^ptbench-mpi: rank 0 (rank0): ptbench run failed on this node: ptbench: ' "$work/err"
verdict "a node whose suite fails: exit 2, the rank and ptbench's reason named"

env -u OMPI_COMM_WORLD_SIZE -u PMI_RANK -u PMIX_RANK -u SLURM_STEP_ID \
	"$PTBENCH_MPI" cluster >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
	grep -q 'not started by an MPI launcher' "$work/err"
verdict "no launcher: exit 2 and one line"
hybrid --rounds 1 --episodes 5 >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && grep -q '^ptbench-mpi: ranks 0 and 1 share host' "$work/err"
verdict "two ranks on one host without --as-nodes: exit 2, naming the host"
wait
result hang:1
# --timeout 4 ends the wait in seconds; a wait that ignored it would last
# the default timeout (60 s) or for ever.  Under a loaded machine the
# four jobs' start-ups alone took up to 28 s here, so the bound is 50 s.
[ "$rc" = 2 ] && [ "$took" -lt 50 ] && [ "$(grep -c '^ptbench-mpi: ' "$err")" = 1 ] &&
	grep -q '^ptbench-mpi: rank 1 did not answer' "$err"
verdict "a rank that never answers: exit 2 (got $rc) in ${took}s, one line naming it"
check "... and the file kept, marked incomplete" [ "$("$JGET" "$f" status)" = incomplete ]
result die:1
if [ -n "$flags" ]; then
	[ "$rc" != 0 ] && [ "$rc" != 124 ] && grep -qi 'rank 1[^0-9]' "$err"
	verdict "a rank that dies: the job ends (exit $rc) in ${took}s, the rank named"
else
	# MPICH's Hydra kills the other ranks as soon as one dies, often
	# before rank 0's lifeline has seen it (3 jobs of 6 here): the job
	# must end, and a line of ours, if any, must name the dead rank.
	ours=$(grep -c '^ptbench-mpi: ' "$err")
	[ "$rc" != 0 ] && [ "$rc" != 124 ] &&
		{ [ "$ours" = 0 ] || grep -q '^ptbench-mpi: rank 1 ' "$err"; }
	verdict "a rank that dies: the job ends (exit $rc) in ${took}s; $ours line(s) of ours, naming rank 1"
fi
if [ -n "$flags" ]; then
	# Rank 1's lifeline to rank 0 closes without a word as it dies: rank 0
	# names it and its host in one line and keeps the file, before Open
	# MPI's mpirun, which exits 137 itself (the killed rank's signal), ends
	# it with SIGTERM.
	line=$(grep '^ptbench-mpi: ' "$err")
	[ "$(grep -c '^ptbench-mpi: ' "$err")" = 1 ] &&
		[ "${line#ptbench-mpi: rank 1 (*) died}" != "$line" ]
	verdict "... one line of ours, rank 0's, naming rank 1 and its host ($line)"
	check "... the file kept, marked incomplete" [ "$("$JGET" "$f" status)" = incomplete ]
	# The same under `ptbench-mpi launch`, which makes mpirun's 137 ours: 2,
	# and with rank 0's writes each 500 ms slower.
	result die:1-launch
	line=$(grep '^ptbench-mpi: ' "$err")
	[ "$rc" = 2 ] && [ "$(grep -c '^ptbench-mpi: ' "$err")" = 1 ] &&
		[ "${line#ptbench-mpi: rank 1 (*) died}" != "$line" ] &&
		[ "$("$JGET" "$f" status)" = incomplete ]
	verdict "ptbench-mpi launch, a rank that dies while rank 0 writes slowly: exit 2 (got $rc), one line naming it, the file incomplete"
	# What ptbench-mpi itself returns when the launcher ends it: 2, which
	# mpirun passes on when no rank was killed by a signal.
	result term:1
	[ "$rc" = 2 ] && [ "$(grep -c '^ptbench-mpi: ' "$err")" = 1 ] &&
		[ "$("$JGET" "$f" status)" = incomplete ]
	verdict "a rank sent SIGTERM: exit 2 (got $rc), one line of ours, the file incomplete"
fi

# The per-node suite: ptbench run on each node, started before MPI_Init,
# its rounds started together on both nodes, its figures gathered.  Rank
# 1's clock is made to run 200 ms ahead (the test hook): a round's start
# on rank 0's clock must be turned into rank 1's by the offset the sync
# found and back to CLOCK_MONOTONIC by the injection -- either alone would
# start rank 1's suite 200 ms away from rank 0's, more than half a round.
job_tmp=$work/tmp
PTB_MPI_INJECT_OFFSET_NS=200000000 mpi --as-nodes --node-args "-b yield --quick" \
	--rounds 1 --episodes 5 --check-episodes 0 -o "$work/c.json" >"$work/out" 2>"$work/err"
rc=$?
job_tmp=
[ "$rc" = 0 ] && [ "$(j node_rows.0.bench)" = yield ] && [ "$(j node_rows.0.per_node.#)" = 2 ] &&
	[ -n "$(j node_rows.0.per_node.rank1.status)" ]
verdict "--suite default: a node row for yield with both nodes (exit $rc)"
check "... the suite's temporary files removed" [ -z "$(ls "$work/tmp")" ]
# --quick: 3 trials, one per round.  Each round: both nodes' starts within
# half the shorter node's round of each other, on the synchronised clocks,
# and no node's round before the other's previous one ended (its gap after
# the previous round's last end at least minus the clocks' bound).
[ "$(j context.node_suite.rounds_together)" = true ] && [ "$(j context.node_suite.rounds.#)" = 3 ]
verdict "the suite's 3 rounds recorded as started together"
bad=; width=$(j context.node_suite.clock_width_ns)
for k in 0 1 2; do
	r=context.node_suite.rounds.$k
	skew=$(j $r.start_skew_ns); a=$(j $r.lengths_ns.0); b=$(j $r.lengths_ns.1)
	short=$a; [ "$b" -lt "$short" ] && short=$b
	[ "$(j $r.nodes)" = 2 ] && [ $((2 * skew)) -lt "$short" ] || bad="$bad round $((k + 1)): skew $skew ns, lengths $a $b ns;"
	if [ "$k" -gt 0 ]; then
		gap=$(j $r.gap_ns)
		[ "$gap" -ge $((-width)) ] || bad="$bad round $((k + 1)) starts $((-gap)) ns before the previous one's last end;"
	fi
done
check "... each round's starts within half a round, none before the previous round ended${bad:+ (not:$bad)}" [ -z "$bad" ]
"$PTBENCH" report "$work/c.json" >"$work/table"
check "... and the table says so" grep -q "rounds started together on all nodes" "$work/table"
if [ "$(j node_rows.0.per_node.rank0.status)" = na ]; then
	skip "node row figures: yield is na here"
else
	[ -n "$(j node_rows.0.median)" ] &&
		[ -n "$(j node_rows.0.p95)" ] && [ -n "$(j node_rows.0.spread_pct)" ]
	verdict "... with median, p5, p95 and spread"
fi
"$PTBENCH" table "$work/c.json" --format csv >"$work/table"
grep -q '^per_node,Benchmark,Parameters,rank0,rank1,Median,' "$work/table" &&
	grep -q '^per_node,yield,' "$work/table" && grep -q '^cross_node,hybrid.barrier,' "$work/table"
verdict "... and ptbench table shows a column per node and the cross-node rows"
cmd=$(j context.nodes.1.context.command)
check "... the node's context from its suite's file ($cmd)" [ "${cmd#ptbench run -b yield }" != "$cmd" ]
done_testing
