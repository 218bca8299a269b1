#!/bin/sh
# SPDX-License-Identifier: MIT
# The omp.* benchmarks (bench/omp.c, docs/design.md section 15).  Built
# without OpenMP: the family is absent, `list` says so in one line and no
# -b selects it.  Built with it: every benchmark's point at threads=1 and 2
# gives a finite figure (positive but for noise) or a clear na, names the runtime that ran
# and its wait policy, shows the team's threads on their places; ptbench
# itself does not link the runtime; bad -p values are refused.  No figure
# is asserted against a speed.
. "$top_srcdir/tests/tap.sh"
[ -z "$PTB_EMULATED" ] ||
	skip_all "under $PTB_EMULATED the threads' places and the runtime's binding are the emulator's"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$PTBENCH" list >list.txt

# A record with a reference (its notes carry reference_ns) is a difference,
# whose timings a noisy machine may put below zero: accepted; the same
# negative sample in a plain record is refused.
neg='s/"samples":\[6.3541292778361225/"samples":[-6.3541292778361225/'
ref='s/"padded_timings":1.0},"trials"/"padded_timings":1.0,"reference_ns":70.0},"trials"/'
sed "$neg" "$TESTDATA/run-golden-v2.json" >plain.json
sed -e "$neg" -e "$ref" "$TESTDATA/run-golden-v2.json" >diff.json
"$PTBENCH" report plain.json >/dev/null 2>plain.err
check "a negative sample in a plain record is refused" \
	sh -c "test $? -eq 2 && grep -q 'is not a duration' plain.err"
"$PTBENCH" report diff.json >/dev/null 2>diff.err
check "a negative sample in a difference (reference_ns) is accepted" test $? -eq 0

# The reference of the contract (EPCC's method): test.negative's run is
# 1 us an iteration, its reference 2 us, so its figure is about -1 us and
# the reference about 2 us; `ab` takes no ratio of such figures.
"$PTBENCH_T" run -b test.negative -p k=1 --quick -o neg.json >/dev/null 2>&1
check "a benchmark's reference is subtracted and noted (test.negative)" \
	awk -v v="$($JGET neg.json results.0.value)" -v r="$($JGET neg.json results.0.notes.reference_ns)" \
	'BEGIN { exit !(v < -500 && v > -1e6 && r > 1500) }'
"$PTBENCH_T" report neg.json >/dev/null 2>&1
check "its file reads back" test $? -eq 0
# (the side whose trial fails first, base or head, is drawn at random)
"$PTBENCH_T" ab "$PTBENCH_T" "$PTBENCH_T" -b test.negative -p k=1 --time 20 >ab.txt 2>&1
check "ab: a figure below zero is not compared (exit 2)" \
	sh -c "test $? -eq 2 && grep -q 'not compared: \(base\|head\): .*positive estimate' ab.txt"

if [ "$PTB_HAVE_OPENMP" != yes ]; then
	check "list: the omp family absent, in one line" \
		sh -c "test \$(grep -c '^omp' list.txt) -eq 1 && grep -q '^omp\\.\\* .*absent: built without OpenMP' list.txt"
	"$PTBENCH" run -b omp --quick -o r.json >/dev/null 2>err.txt
	check "-b omp is refused (exit 2) without OpenMP" test $? -eq 2
	done_testing
	exit
fi

n=$(grep -c '^omp\.' list.txt)
check "list: ten omp benchmarks ($n)" test "$n" -eq 10
if command -v ldd >/dev/null; then
	check "ptbench does not link an OpenMP runtime" \
		sh -c "! ldd '$PTBENCH' | grep -Eq 'libgomp|libomp|libiomp'"
fi

for bad in threads=0 threads=258 threads=x schedule=auto; do
	"$PTBENCH" run -b omp.for -p "$bad" --quick -o bad.json >/dev/null 2>err.txt
	rc=$?
	check "-p $bad refused with exit 2 and one line" \
		sh -c "test $rc -eq 2 && test \$(wc -l <err.txt) -eq 1 && test ! -e bad.json"
done

"$PTBENCH" run -b omp -p threads=1 -p threads=2 --quick --min-trials 3 -o r.json \
	>table.txt 2>err.txt
check "run -b omp threads=1,2 completes" test $? -eq 0
count=$($JGET r.json results.#)
check "24 points (12 benchmarks x 2 team sizes): $count" test "$count" -eq 24
pus=$(nproc 2>/dev/null || echo 1)
i=0
while [ "$i" -lt "$count" ]; do
	b=$($JGET r.json results.$i.bench)
	t=$($JGET r.json results.$i.params.threads)
	s=$($JGET r.json results.$i.status)
	v=$($JGET r.json results.$i.value)
	case $s in
	ok|unstable)
		# A difference of two timings: the cheap directives (atomic,
		# critical at one thread) are a few ns above a ~100 ns delay,
		# and a loaded machine may put them a little below zero; never
		# below minus the whole reference.
		# A point measured while others took its PUs may be anything
		# finite: a preempted reference timing moves it down.
		ref=$($JGET r.json results.$i.notes.reference_ns)
		dist=$($JGET r.json results.$i.disturbed)
		check "$b threads=$t: a finite figure above minus its reference, unless disturbed ($v ns, reference $ref ns, disturbed $dist)" \
			awk -v v="$v" -v r="$ref" -v d="$dist" 'BEGIN {
				exit !(r + 0 > 0 && (v + 0 > -r || d == "true") && v + 0 > -1e9 && v + 0 < 1e9) }'
		check "$b threads=$t: the runtime and wait policy recorded" \
			sh -c "$JGET r.json results.$i.notes.runtime | grep -Eq '^lib' &&
			       test -e \"\$($JGET r.json results.$i.notes.runtime_file)\" &&
			       $JGET r.json results.$i.notes.wait_policy | grep -q OMP_WAIT_POLICY=" ;;
	na)
		r=$($JGET r.json results.$i.reason)
		check "$b threads=$t: na with a reason ($r)" test -n "$r" ;;
	*)
		not_ok "$b threads=$t: status $s ($($JGET r.json results.$i.reason))" ;;
	esac
	if [ "$t" = 2 ] && [ "$pus" -ge 2 ] && [ "$b" = omp.barrier ]; then
		check "omp.barrier threads=2: the team on two PUs" \
			sh -c "test \"\$($JGET r.json results.$i.binding.clients.#)\" -eq 1 &&
			       test \"\$($JGET r.json results.$i.binding.main)\" != \
			            \"\$($JGET r.json results.$i.binding.clients.0)\""
	fi
	i=$((i + 1))
done

if command -v gnuplot >/dev/null; then
	"$PTBENCH" plot --kind scaling -o scaling.svg r.json >/dev/null 2>&1
	check "plot --kind scaling draws a curve per directive" \
		sh -c "grep -q 'omp.barrier' scaling.svg && grep -q 'omp.for schedule=guided' scaling.svg"
else
	skip "no gnuplot for the scaling plot"
fi

OMP_WAIT_POLICY=passive "$PTBENCH" run -b omp.atomic -p threads=1 --quick -o wait.json \
	>/dev/null 2>&1
check "the wait policy set for the run: in the context and the point" \
	sh -c "test \"\$($JGET wait.json context.environment.OMP_WAIT_POLICY)\" = passive &&
	       $JGET wait.json results.0.notes.wait_policy | grep -q OMP_WAIT_POLICY=passive"

# LLVM's runtime, where installed, preloaded: the point names it.
libomp=$(ls /usr/lib/*/libomp.so.5 /usr/lib/llvm-*/lib/libomp.so.5 2>/dev/null | head -n 1)
if [ -n "$ASAN_OPTIONS" ]; then
	skip "a preloaded libomp would come before the sanitizer's runtime"
elif [ -n "$libomp" ]; then
	ls /dev/shm 2> /dev/null | grep __KMP_REGISTERED_LIB > kmp.before
	LD_PRELOAD=$libomp "$PTBENCH" run -b omp.barrier -p threads=1 --quick -o llvm.json \
		>/dev/null 2>&1
	check "LD_PRELOAD=$libomp: the point names libomp" \
		sh -c "test \"\$($JGET llvm.json results.0.notes.runtime)\" = libomp"
	ls /dev/shm 2> /dev/null | grep __KMP_REGISTERED_LIB > kmp.after
	# a file new since, of a process that has ended (another test's may run)
	left=$(grep -vxFf kmp.before kmp.after | while read -r f; do
		pid=${f#__KMP_REGISTERED_LIB_}; [ -d "/proc/${pid%%_*}" ] || echo "$f"; done)
	check "  and its trial processes leave no registration file in /dev/shm ($left)" \
		test -z "$left"
else
	skip "no libomp.so.5 to preload"
fi

if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$PTBENCH" run -b omp.parallel -p threads=2 --quick -o one.json \
		>/dev/null 2>&1
	check "a team of 2 on one allowed PU is na" \
		sh -c "test \"\$($JGET one.json results.0.status)\" = na"
fi
done_testing
