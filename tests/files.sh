#!/bin/sh
# SPDX-License-Identifier: MIT
# The files around a run: -o is refused before anything is measured when
# it cannot be written (a directory that does not take the temporary file,
# a name too long for it) or must not be replaced (a symbolic link, a
# device node, a FIFO); a killed run's temporary file is removed by the
# next run; a file name that is not UTF-8 still gives a readable file; the
# readers refuse a FIFO instead of blocking on it; and output that cannot
# be written is an error.  Uses test.slow of tests/bench-faulty.c.
. "$top_srcdir/tests/tap.sh"

work=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
q="--quick --format json"

# refused DESCRIPTION -o-ARGUMENT: exit 2 at once, one line on stderr,
# nothing measured (no progress line), the path left as it was.
refused() {
	d=$1; before=$(ls -la "$2" 2>&1)
	"$PTBENCH" run -b cond.signal $q -o "$2" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && [ ! -s out.txt ] &&
	   [ "$(ls -la "$2" 2>&1)" = "$before" ]; then ok "$d"; else
		not_ok "$d (exit $rc)"; sed 's/^/# /' err.txt | head -3
	fi
	rm -f out.txt err.txt
}

# writer_refused WHAT ARGS...: a ptbench command told to write the device
# node cdev exits 2 with one line and leaves the node as it was.
writer_refused() {
	what=$1; shift
	"$PTBENCH" "$@" >out.txt 2>err.txt
	rc=$?
	check "$what onto a character device is refused, the node kept" \
		sh -c "test $rc = 2 && test \$(wc -l <err.txt) = 1 && test -c cdev"
	rm -f out.txt err.txt
}

mkfifo fifo
ln -s target.json link.json
echo kept >target.json
refused "-o a FIFO is refused" fifo
refused "-o a symbolic link is refused, and its target kept" link.json
check "the link's target is untouched" test "$(cat target.json)" = kept
# A device node of its own (root only): were the check to regress, the
# test must not replace the system's /dev/null.
if mknod cdev c 1 3 2>/dev/null; then
	refused "-o a character device is refused" cdev
	check "the device node is still one" test -c cdev
	# Every other writer of a file through a rename: the same refusal.
	"$PTBENCH" record -o ok.trace -- true >/dev/null 2>&1
	writer_refused "record -o" record -o cdev -- true
	writer_refused "predict --chrome-trace" predict ok.trace --chrome-trace cdev
	[ "$PTB_HAVE_PROFILE" = yes ] && writer_refused "profile -o" profile -o cdev -- true
else
	diag "mknod not permitted: -o on a device node not tested"
fi
long=$(printf "%0250d" 0).json
refused "-o a name too long for its temporary file is refused" "$long"
check "no file of that name was left" sh -c "! ls | grep -q '^0000'"
if [ -d /proc/self ]; then
	refused "-o into /proc is refused before measuring" /proc/ptbench-x.json
fi
mkdir ro && chmod 555 ro
if ! touch ro/probe 2>/dev/null; then
	refused "-o into a read-only directory is refused" ro/x.json
fi

# A run killed with SIGKILL may leave x.json.tmp.PID; the next run with the
# same -o removes it, and only the files whose process is gone.
sh -c 'exit 0' & dead=$!
wait $dead
echo '{}' >x.json.tmp.$dead
echo '{}' >x.json.tmp.$$
echo '{}' >y.json.tmp.$dead
"$PTBENCH" run -b cond.signal $q -o x.json >/dev/null 2>err.txt
check "a run saves beside stale temporary files" test "$($JGET x.json status)" = complete
check "the temporary file of a dead process is removed" test ! -e x.json.tmp.$dead
check "that of a live process is kept" test -e x.json.tmp.$$
check "that of another file is kept" test -e y.json.tmp.$dead
rm -f x.json.tmp.$$ y.json.tmp.$dead

"$PTBENCH_T" run -b test.slow $q -o killed.json >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
"$PTBENCH" run -b cond.signal $q -o killed.json >/dev/null 2>&1
check "after SIGKILL, the next run leaves no killed.json.tmp.*" \
	sh -c "! ls | grep -q '^killed\.json\.tmp\.'"
check "and its file is whole" test "$($JGET killed.json status)" = complete

# A name that is not UTF-8 (Latin-1 "café") still gives a file report reads.
latin=$(printf 'caf\351.json')
"$PTBENCH" run -b cond.signal $q -o "$latin" >/dev/null 2>err.txt
check "a Latin-1 -o name: the run saves its file" test -s "$latin"
check "its context is whole, the byte replaced by U+FFFD in the command" \
	sh -c "$JGET '$latin' context.command | grep -q \"caf$(printf '\357\277\275').json\""
check "report reads it" sh -c "'$PTBENCH' report '$latin' >/dev/null"

# The readers refuse a FIFO (nobody writes it: reading would block).
for cmd in "report fifo" "table fifo" "compare fifo x.json" "compare x.json fifo"; do
	timeout 20 "$PTBENCH" $cmd >out.txt 2>err.txt
	rc=$?
	check "$cmd: refused with one line, exit 2 (got $rc)" \
		sh -c "test $rc = 2 && test \$(wc -l <err.txt) = 1 && grep -q FIFO err.txt"
done
"$PTBENCH" report /dev/zero >out.txt 2>err.txt
check "report of a device is refused (exit $?)" grep -q 'not a result file' err.txt

# Output that cannot be written is an error, said once.
if [ -w /dev/full ]; then
	for cmd in list info "report x.json" "table x.json" "compare x.json x.json" \
		   "run -b cond.signal --quick -o full.json"; do
		"$PTBENCH" $cmd >/dev/full 2>err.txt
		rc=$?
		check "$cmd >/dev/full: exit 2 (got $rc), saying so once" \
			sh -c "test $rc = 2 && test \$(grep -c 'cannot write the output' err.txt) = 1"
	done
	check "run >/dev/full still saved its file" test "$($JGET full.json status)" = complete
else
	diag "no writable /dev/full: output errors not tested"
fi

done_testing
