#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line's contract: every bad input exits 2 with exactly one line
# on stderr and writes no file; --help agrees with the manual page.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# bad_input DESCRIPTION ARGS...: exit 2, one line on stderr, no file left.
bad_input() {
	d=$1; shift
	"$PTBENCH" "$@" >out.txt 2>err.txt
	rc=$?
	lines=$(wc -l <err.txt)
	left=$(ls | grep -v -e '^out.txt$' -e '^err.txt$' | tr '\n' ' ')
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && [ -z "$left" ]; then
		ok "$d"
	else
		not_ok "$d (exit $rc, $lines stderr lines, files: $left)"
		sed 's/^/# /' err.txt
	fi
	rm -f out.txt err.txt
}

bad_input "unknown command"              frobnicate
bad_input "unknown benchmark"            run -b no.such.bench
bad_input "unknown variable"             run -b mutex.pingpong -p colour=red
bad_input "unknown placement value"      run -b mutex.pingpong -p placement=moon
bad_input "assignment without ="         run -b mutex.pingpong -p placement
bad_input "malformed --max-sd"           run --max-sd 2x
bad_input "negative --budget"            run --budget -1
bad_input "malformed --min-timings"      run --min-timings 1.5
bad_input "--min-timings above --max"    run --min-timings 50 --max-timings 10
bad_input "unknown --stop rule"          run --stop median
bad_input "unknown --format"             run --format xml
bad_input "unknown option"               run --frobnicate
bad_input "option without its value"     run --timeout
bad_input "stray argument"               run mutex.pingpong
bad_input "unwritable -o directory"      run -b cond.signal -o /nonexistent/dir/x.json
bad_input "-o naming a directory"        run -b cond.signal -o .
bad_input "info with a stray argument"   info --yaml
bad_input "report of a missing file"     report /nonexistent.json
bad_input "report without a file"        report
bad_input "list with an argument"        list extra
bad_input "malformed numeric variable"   run -b mutex.lock -p mutexes=12abc
bad_input "numeric variable out of range" run -b mutex.lock -p mutexes=0

# Every long option of the --help of run, ab, compare, report, table, plot, record, corun,
# predict and profile, and
# every command of `--help`, is in the manual page (--help, which every
# command has, aside); and every option the manual names is one of theirs.
man="$top_srcdir/man/ptbench.1"
: >all-help.txt
for cmd in run ab compare report table plot record predict corun profile; do
	"$PTBENCH" $cmd --help >help.txt
	cat help.txt >>all-help.txt
	missing=""
	for opt in $(grep -o -- '--[a-z][a-z-]*' help.txt | grep -vx -- --help | sort -u); do
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$man" || missing="$missing $opt"
	done
	check "$cmd --help options are all in the manual${missing:+ (missing:$missing)}" test -z "$missing"
done
missing=""
for opt in $(grep -o -- '\\-\\-[a-z][a-z\\-]*' "$man" | sed 's/\\//g' | sort -u); do
	case $opt in --stat|--json|--help|--version) continue ;; esac
	grep -q -- "$opt" all-help.txt || missing="$missing $opt"
done
check "manual's options are all in a command's --help${missing:+ (missing:$missing)}" test -z "$missing"
rm -f all-help.txt
"$PTBENCH" --help >help.txt
missing=""
# the commands as the dispatch table names them (cli.c), but the internal one
cmds=$(sed -n 's/^\t{ "\([a-z]*\)", *ptb_cmd_[a-z]* },.*/\1/p' "$top_srcdir/harness/cli/cli.c" | grep -vx worker)
check "the dispatch table read ($(echo $cmds))" test "$(echo "$cmds" | wc -l)" -ge 11
for cmd in $cmds; do
	grep -q "^  $cmd " help.txt || missing="$missing $cmd"
	grep -q "^\.B $cmd\$" "$man" || missing="$missing man:$cmd"
done
check "every command in --help and the manual${missing:+ (missing:$missing)}" test -z "$missing"
missing=""
# The manual describes benchmarks in prose; what it names must exist (a
# benchmark's own summary and variables are in 'list', so a new one needs
# no edit here to be documented).
"$PTBENCH" list | awk '/^[a-z]/ {print $1}' >list.txt
for b in $(sed -n '/^\.SH BENCHMARKS/,/^\.SH [A-Z]/p' "$man" | sed 's/\\f[RPBI]//g' |
	   grep -o '[a-z][a-z0-9_]*\.[a-z][a-z0-9_.]*[a-z]' | sort -u); do
	grep -qx "$b" list.txt || missing="$missing $b"
done
check "every benchmark the manual names is in 'list'${missing:+ (missing:$missing)}" test -z "$missing"
rm -f list.txt
check "--version names the package" sh -c "'$PTBENCH' --version | grep -q '^ptbench '"
rm -f help.txt
check "no file was left behind" test -z "$(ls)"
done_testing
