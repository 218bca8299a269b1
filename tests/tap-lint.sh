#!/bin/sh
# SPDX-License-Identifier: MIT
# No shell test asserts part of a condition: `check DESC [ a ] && [ b ]` is
# read by the shell as `(check DESC [ a ]) && [ b ]`, so [ b ] runs outside
# the check and its failure goes unseen.  A condition of several commands is
# written `check DESC sh -c '...'` or run whole and followed by `verdict
# DESC` (tests/tap.sh).  tests/check-compound.awk finds the pattern; it is
# first shown to find it, and to pass the forms that are right, in examples.
. "$top_srcdir/tests/tap.sh"
lint=$top_srcdir/tests/check-compound.awk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Lines 3, 4, 6, 9, 11, 14 and 16 start a check whose command list goes on.
cat >"$work/bad.sh" <<'BAD'
#!/bin/sh
x=1
check "and" [ "$x" = 1 ] && [ -f y ]
check "or" test -f a || test -f b
if true; then
	check "and on the next line" grep -q a f &&
		grep -q b f
fi
check "continued" \
	[ 1 = 1 ] || [ 2 = 2 ]
check "redirection then and" cmd >/dev/null 2>&1 && test -s out
f() {
	# a comment's ' does not open a quote
	check "in a function" test -n "$(echo "a b")" && true; }
echo "'" >/dev/null
check "a pipe" "$PTBENCH" list | grep -q mutex
BAD
cat >"$work/good.sh" <<'GOOD'
#!/bin/sh
check "quoted" sh -c "test \$(wc -l <err) = 1 && grep -q x err"
check "single-quoted, two lines" sh -c 'test -s a &&
	test -s b'
check "awk" awk -v s="$s" 'BEGIN { exit !(s > 1 && s < 3) }'
check "a command substitution" test "$(grep -c a f || echo 0)" = 1
check "backquotes" test `echo a && echo b | wc -l` = 1
[ -f a ] && [ -f b ]
verdict "a and b"
[ -n "$x" ] && check "after the condition" test -f a
check "a here-document" python3 - <<'PY'
print('x' and "y" && ')
PY
check "redirection" cmd >out 2>&1
case $x in a|b) check "case" true ;; esac
GOOD
out=$(awk -f "$lint" "$work/bad.sh")
check "examples of the defect: a non-zero exit" test $? != 0
lines=$(echo "$out" | cut -d: -f2 | tr '\n' ' ')
check "examples of the defect: each found, nothing else (lines $lines)" \
	test "$lines" = "3 4 6 9 11 14 16 "
out=$(awk -f "$lint" "$work/good.sh")
rc=$?
[ "$rc" = 0 ] && [ -z "$out" ]
verdict "the right forms pass (exit $rc): ${out:-nothing reported}"

out=$(cd "$top_srcdir" && ls tests/*.sh | grep -v '^tests/tap\.sh$' | xargs awk -f "$lint")
rc=$?
[ "$rc" = 0 ] && [ -z "$out" ]
verdict "no check in tests/*.sh asserts only part of its condition (exit $rc)"
[ -z "$out" ] || echo "$out" | sed 's/^/# /'

# `verdict DESC` reads the status of the command before it; a command
# substitution in DESC runs first and replaces that status with its own,
# so the verdict would judge the substitution.  None is allowed there.
subst='^[[:space:]]*verdict[[:space:]].*(\$\(|`)'
printf '%s\n' 'verdict "x $(wc -l < f)"' '	verdict "y `date`"' 'verdict "z ${a:-b} $rc"' > "$work/v.sh"
check "examples: a substitution in verdict's text is found, an expansion is not" \
	test "$(grep -cE "$subst" "$work/v.sh")" = 2
out=$(cd "$top_srcdir" && grep -nE "$subst" tests/*.sh)
check "no verdict in tests/*.sh has a command substitution in its text" test -z "$out"
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
done_testing
