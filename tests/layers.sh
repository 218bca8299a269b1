#!/bin/sh
# SPDX-License-Identifier: MIT
# The layering of docs/design.md, enforced: every #include of a source file
# names a folder its own folder may use (the table "may include" in
# docs/design.md is read here, so the document and the check cannot
# drift apart); the benchmarks call nothing of the harness but the
# contract; no source file outgrows 500 lines; and harness/ names no
# benchmark.
. "$top_srcdir/tests/tap.sh"
build=$(pwd)
cd "$top_srcdir" || exit 1
design=docs/design.md
[ -f "$design" ] || skip_all "no $design"

# "| `folder` | `a`, `b` |" rows of the dependency table -> "folder: a b"
rules=$(sed -n '/^<!-- layers -->/,/^<!-- \/layers -->/p' "$design" |
	awk -F'|' '/^\| `/ { f = $2; a = $3; gsub(/[` ]/, "", f); gsub(/[`,]/, " ", a); print f ":" a }')
check "docs/design.md has the dependency table" test -n "$rules"

allowed() {   # allowed FOLDER -> the folders it may include
	echo "$rules" | awk -F: -v f="$1" '$1 == f { print $2 }'
}

# Every quoted include of every source file, as "file folder-it-names".
bad=""
for f in harness/*.h harness/*/*.[ch] bench/*.[ch] platform/*.[ch] trace/*.[ch] profile/*.[ch] cluster/*.[ch]; do
	case $f in
	harness/*/*) folder=${f#harness/}; folder=${folder%%/*} ;;
	harness/*)   folder=contract ;;
	*)           folder=${f%%/*} ;;
	esac
	may=" $(allowed "$folder") "
	[ "$may" = "  " ] && { bad="$bad $f(folder '$folder' not in the table)"; continue; }
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		config.h) continue ;;
		ptbench.h) target=contract ;;
		*/*) target=${inc%%/*} ;;
		*) [ "$folder" = platform ] && continue   # a platform file's sibling
		   bad="$bad $f($inc: name its folder)"; continue ;;
		esac
		[ "$target" = "$folder" ] && continue
		case $may in *" $target "*) ;; *) bad="$bad $f($inc)" ;; esac
	done
done
check "every include follows the dependency table${bad:+:$bad}" test -z "$bad"

# The benchmarks use the harness only through the contract: every ptb_
# function their objects call is defined in bench/ or in harness/engine/
# (which implements harness/ptbench.h), never in platform/ directly.
objs=$(ls "$build"/bench/*.o 2>/dev/null)
if [ -n "$objs" ] && command -v nm >/dev/null; then
	defined=$(nm -g --defined-only "$build"/bench/*.o "$build"/bench/layout/*.o "$build"/harness/engine/*.o 2>/dev/null |
		awk 'NF == 3 { print $3 }' | sort -u)
	used=$(nm -g --undefined-only $objs | awk '$2 ~ /^ptb_/ { print $2 }' | sort -u)
	outside=$(echo "$used" | while read -r s; do
		echo "$defined" | grep -qx "$s" || printf ' %s' "$s"; done)
	check "bench/ calls only the contract${outside:+ (also:$outside)}" test -z "$outside"
else
	skip "bench/ calls only the contract: no objects or no nm"
fi

long=$(wc -l harness/*.h harness/*/*.[ch] bench/*.[ch] platform/*.[ch] trace/*.[ch] profile/*.[ch] cluster/*.[ch] |
	awk '$2 != "total" && $1 > 500 { printf " %s(%d)", $2, $1 }')
check "no source file is over 500 lines${long:+:$long}" test -z "$long"

named=""
for b in $("$PTBENCH" list | awk '/^[a-z]/ { print $1 }'); do
	grep -rqF "\"$b\"" harness && named="$named $b"
	grep -rqE "[^a-z_.]$(echo "$b" | sed 's/\./\\./g')[^a-z_]" --include='*.[ch]' harness &&
		case $b in *.*) named="$named $b" ;; esac
done
check "harness/ names no benchmark${named:+ (names:$named)}" test -z "$named"
done_testing
