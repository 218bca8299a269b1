#!/bin/sh
# SPDX-License-Identifier: MIT
# Resources the system refuses are errors with their reason, never a crash:
# a thread that pthread_create cannot start (EAGAIN after a few, made by
# the test-only shim tests/failing.c), a process that fork cannot start,
# a worker that writes an answer without end, and a result file on a full
# filesystem (a tiny tmpfs, filled up: needs the right to mount, else that
# part is skipped).
. "$top_srcdir/tests/tap.sh"

noshim=""
[ -r "$FAILING" ] || noshim="the LD_PRELOAD shim $FAILING is not built"
asan=""
if ldd "$PTBENCH" 2>/dev/null | grep -q libasan; then
	asan=yes
	noshim="ptbench is built with AddressSanitizer, which must come first in LD_PRELOAD"
fi
work=$(mktemp -d)
mnt=""
cleanup() { [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cd "$work" || exit 1

refused_resources() {
	# 1. pthread_create refused after 6 threads: create's chain ends early.
	#    Before the fix the growth doubled n until realloc's size wrapped to 0
	#    and the trial process died of SIGSEGV ("crashed").
	timeout 120 env LD_PRELOAD="$FAILING" PTB_FAIL_CREATE_AFTER=6 "$PTBENCH" run -b create \
		-p detach=no -p scope=system --quick --timeout 20 -o create.json >out.txt 2>err.txt
	rc=$?
	check "refused threads: the run ends (exit 1: a point failed; got $rc)" test "$rc" = 1
	# The record of benchmark $1 (create.join is selected too): its index.
	at() { $JGET create.json 'results.*.bench' | awk -v b="$1" '$0 == b { print NR - 1; exit }'; }
	i=$(at create)
	st=$($JGET create.json results.$i.status)
	check "create's point is an error (got '$st')" test "$st" = error
	why=$($JGET create.json results.$i.reason)
	check "its reason says pthread_create failed ('$why')" \
		sh -c 'case "$1" in *"pthread_create failed after"*) exit 0 ;; esac; exit 1' - "$why"
	lost=$($JGET create.json "results.$i.trials.*.status" | grep -c -e crashed -e timeout)
	check "no trial crashed or timed out ($lost did)" test "$lost" = 0

	# 2. fork refused.  In the runner (PTB_FAIL_FORK_AFTER=0): no worker can
	#    start; in the worker (=1: the runner's one fork starts the worker, whose
	#    first trial gets a process and whose second does not).  Either way the
	#    point is an error naming the limit, not "crashed".
	timeout 60 env LD_PRELOAD="$FAILING" PTB_FAIL_FORK_AFTER=0 "$PTBENCH" run -b yield --quick \
		-o fork0.json >out.txt 2>err.txt
	rc=$?
	check "no process for a worker: exit 1 (got $rc)" test "$rc" = 1
	st=$($JGET fork0.json 'results.*.status' | sort -u | tr '\n' ' ')
	check "its points are errors (got '$st')" test "$st" = "error "
	why=$($JGET fork0.json results.0.reason)
	check "the reason names fork's refusal and the limit ('$why')" \
		sh -c 'case "$1" in *"cannot start a worker"*"limit"*) exit 0 ;; esac; exit 1' - "$why"

	timeout 60 env LD_PRELOAD="$FAILING" PTB_FAIL_FORK_AFTER=1 "$PTBENCH" run -b yield \
		-b cond.signal --quick -o fork1.json >out.txt 2>err.txt
	rc=$?
	check "no process for a trial: exit 1 (got $rc)" test "$rc" = 1
	crashed=$($JGET fork1.json 'results.*.status' | grep -c crashed)
	errors=$($JGET fork1.json 'results.*.status' | grep -c error)
	check "a point without a trial process is an error, none crashed ($errors errors, $crashed crashed)" \
		test "$errors" -ge 1 -a "$crashed" = 0
	check "the reason names the trial process and the limit" \
		sh -c "$JGET fork1.json 'results.*.reason' | grep -q 'cannot fork a trial process.*limit'"
}
if [ -n "$noshim" ]; then
	skip "refused threads and processes: $noshim"
else
	refused_resources
fi

# 3. A worker that answers without end (ab runs the programs it is given):
#    the runner reads at most 64 MiB of one answer line, then kills it --
#    not a buffer that grows until --timeout, searched anew on every read.
printf '#!/bin/sh\nexec cat /dev/zero\n' >noisy
chmod +x noisy
# (A bound on its memory, in case the cut-off fails; not under ASan, whose
# shadow memory needs more address space.)
([ -z "$asan" ] && ulimit -v 4000000 2>/dev/null; timeout 120 "$PTBENCH" ab ./noisy ./noisy -b cond.signal \
	--time 5 --timeout 30 >out.txt 2>err.txt)
rc=$?
check "an endless answer: exit 2, not compared (got $rc)" test "$rc" = 2
check "cut off at the bound, not at the timeout ($(tail -1 err.txt))" \
	grep -q "wrote 64 MiB without ending its answer's line" err.txt

# 4. A full filesystem: the run refuses at once, before measuring (exit 2,
#    one line), instead of measuring everything and then saving nothing.
mkdir mnt
if mount -t tmpfs -o size=64k,nr_inodes=64 tmpfs mnt 2>/dev/null; then
	mnt=$work/mnt
	dd if=/dev/zero of=mnt/fill bs=4096 count=64 2>/dev/null
	"$PTBENCH" run -b yield -b cond.signal -b mutex.lockunlock --quick -o mnt/r.json \
		>out.txt 2>err.txt
	rc=$?
	check "full filesystem: exit 2 (got $rc)" test "$rc" = 2
	check "one line on stderr" test "$(wc -l <err.txt)" = 1
	check "it says why ($(cat err.txt))" grep -q "No space left on device" err.txt
	check "refused before measuring: nothing on stdout" test ! -s out.txt
	check "no file, no temporary file left" \
		sh -c '! ls mnt | grep -q "r\.json"'
else
	skip "full filesystem: cannot mount a tmpfs here"
fi
done_testing
