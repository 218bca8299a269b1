#!/bin/sh
# SPDX-License-Identifier: MIT
# Sanitizer builds, out of tree, for .ci/run (after ./bootstrap):
#   1. -fsanitize=address,undefined,float-cast-overflow: the whole `make check`,
#      any finding fatal;
#   2. -fsanitize=thread: the client-protocol and yield tests, and runs of the
#      ping-pong, condition-variable and yield benchmarks, any report fatal
#      except the one in tests/tsan.supp (the paper's cyclic lock order).
# By hand:  tests/sanitize.sh [WORKDIR]
# Exit 0 clean, 1 a finding or a failure, 77 skipped (the reason printed).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP: sanitizer builds: $*"; exit 77; }
[ -f "$top/Makefile" ] || skip "$top is not configured: run ./bootstrap first"
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/ptb-sanitize.XXXXXX")}
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
rm -rf "$work/src" "$work/asan" "$work/tsan"
make -s -C "$top" distdir distdir="$work/src" >"$work/distdir.log" 2>&1 ||
	{ tail -20 "$work/distdir.log"; echo "FAIL: make distdir"; exit 1; }
status=0

# build NAME FLAGS: configure and make in $work/NAME; 77 when the compiler
# cannot link a sanitized program at all.
build() {
	mkdir -p "$work/$1" && cd "$work/$1" || return 1
	echo 'int main(void){return 0;}' >probe.c
	${CC:-cc} $2 probe.c -o probe 2>/dev/null && ./probe || return 77
	"$work/src/configure" CFLAGS="-O1 -g -fno-omit-frame-pointer $2" LDFLAGS="$2" \
		>configure.log 2>&1 || { tail -20 configure.log; return 1; }
	make -j2 >make.log 2>&1 || { tail -20 make.log; return 1; }
}

# findings DIR...: sanitizer reports in the logs under DIR, printed.
findings() {
	grep -l -r -E 'runtime error:|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|WARNING: ThreadSanitizer' \
		--include='*.log' --include='*.err' "$@" 2>/dev/null
}

# 1. AddressSanitizer and UndefinedBehaviorSanitizer over make check, with
# float-cast-overflow, which GCC leaves out of "undefined" (a NaN read from
# a file and cast to int is what it finds; the fuzzer of result files runs
# in make check, and the report of the input a finding stops at stays in
# the scratch folder its log names).  The
# deliberately crashing test benchmark must still die by its signal, so
# ASan leaves SIGSEGV alone (its checks catch bad accesses before a fault).
build asan "-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
rc=$?
if [ "$rc" = 77 ]; then
	echo "SKIP: -fsanitize=address,undefined cannot link here"
elif [ "$rc" != 0 ]; then
	echo "FAIL: ASan/UBSan build"; status=1
else
	ASAN_OPTIONS=handle_segv=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		make check -j2 >check.log 2>&1 || status=1
	bad=$(findings "$work/asan/tests" "$work/asan/test-suite.log")
	[ -z "$bad" ] || { status=1; for f in $bad; do echo "== $f"; grep -A12 -E 'runtime error|Sanitizer' "$f" | head -40; done; }
	pass=$(sed -n 's/^# PASS: *//p' test-suite.log); fail=$(sed -n 's/^# FAIL: *//p' test-suite.log)
	err=$(sed -n 's/^# ERROR: *//p' test-suite.log)
	[ "$status" = 0 ] || grep -E '^(FAIL|ERROR):' test-suite.log | head -20
	echo "ASan+UBSan make check: ${pass:-0} passed, $(( ${fail:-0} + ${err:-0} )) failed, findings in ${bad:-no} log"
fi

# 2. ThreadSanitizer over the thread tests and the threaded benchmarks.
build tsan "-fsanitize=thread"
rc=$?
if [ "$rc" = 77 ]; then
	echo "SKIP: -fsanitize=thread cannot link or run here"
elif [ "$rc" != 0 ]; then
	echo "FAIL: TSan build"; status=1
else
	TSAN_OPTIONS="suppressions=$top/tests/tsan.supp:second_deadlock_stack=1:die_after_fork=0"
	export TSAN_OPTIONS
	make check -j2 TESTS="tests/test_client tests/test_yield_check" >check.log 2>&1 || status=1
	for b in mutex.pingpong cond.pingpong cond.signal cond.wait cond.gap mutex.gap yield; do
		./ptbench run -b "$b" --quick --format json -o "$b.json" >/dev/null 2>"$b.err"
		[ $? -le 1 ] || { echo "FAIL: TSan ptbench run -b $b: $(tail -3 "$b.err")"; status=1; }
	done
	bad=$(findings "$work/tsan")
	[ -z "$bad" ] || { status=1; for f in $bad; do echo "== $f"; grep -A20 'WARNING: ThreadSanitizer' "$f" | head -40; done; }
	echo "TSan: thread tests $(sed -n 's/^# PASS: *//p' test-suite.log) passed, 7 benchmarks run, findings in ${bad:-no} log"
fi
exit $status
