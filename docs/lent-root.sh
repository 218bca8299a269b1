#!/bin/sh
# SPDX-License-Identifier: MIT
# A root for a lent machine that has none of ptbench's libraries and no
# package manager: this build (ptbench, the interposer, the test programs
# and scripts), the compressors of docs/predict-scaling.sh, the shell tools
# the scripts call, and every library they load, all from this machine,
# so that the lent machine runs them under `chroot` with this machine's C
# library.  It is packed into ARCHIVE (a .tar.gz); docs/lent-run.sh
# unpacks and runs it there.
#
#   docs/lent-root.sh BUILD-DIR ARCHIVE
set -eu
B=$1 A=$2
[ -x "$B/ptbench" ] && [ -f "$B/trace/.libs/libptbtrace.so" ] ||
	{ echo "usage: $0 BUILD-DIR ARCHIVE (a built tree with its check programs)" >&2; exit 2; }
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R/usr/bin" "$R/usr/lib" "$R/usr/lib64" "$R/etc" "$R/tmp" "$R/proc" \
	"$R/sys" "$R/dev" "$R/out" "$R/b/tests" "$R/b/trace/.libs" "$R/b/docs"
ln -s usr/bin "$R/bin"
ln -s usr/bin "$R/sbin"
ln -s usr/lib "$R/lib"
ln -s usr/lib64 "$R/lib64"
chmod 1777 "$R/tmp"

# the tools: the scripts' own calls, and what the tests call
tools="sh bash awk sed grep cat head tail tr cut sort uniq wc mktemp rm mkdir rmdir
	cp mv ln ls chmod touch date sleep timeout env id uname nproc getconf
	basename dirname readlink stat seq expr tee dd split od cmp diff bc
	taskset chrt flock setpriv pkill pgrep ps kill find xargs true false
	printf test nice time gzip pigz pbzip2 bzip2 xz zstd lbzip2 plzip perl"
for t in $tools; do
	# the program, not the shell's builtin of the same name (chrt and
	# timeout run true, kill and printf as programs)
	for d in /usr/bin /bin /usr/sbin /sbin; do
		[ -x "$d/$t" ] && { cp -L "$d/$t" "$R/usr/bin/$t"; break; }
	done
	[ -x "$R/usr/bin/$t" ] || echo "$0: $t is not on this machine: the root goes without it" >&2
done
# the C library loads it at run time, for pthread_exit and cancellation:
# no program names it
g=$(gcc -print-file-name=libgcc_s.so.1 2> /dev/null)
[ -f "$g" ] || g=$(ldconfig -p | sed -n 's/.*libgcc_s.so.1 .*=> //p' | head -n 1)
[ -f "$g" ] && mkdir -p "$R$(dirname "$g")" && cp -L "$g" "$R$(dirname "$g")/"
# perl's own modules, for the tests that run programs through it
pb=/usr/lib/x86_64-linux-gnu/perl-base
[ -d "$pb" ] && mkdir -p "$R$pb" && cp -r "$pb/." "$R$pb/"

# the build: the command, its interposer, the test programs and scripts
cp "$B/ptbench" "$R/b/"
cp "$B/trace/.libs/libptbtrace.so" "$R/b/trace/.libs/"
for f in "$B"/tests/*; do
	case $f in *.c | *.o | *.h | *.log | *.trs | *.am | *.lock) continue ;; esac
	[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$R/b/tests/"
done
S=$(cd "$B" && pwd)
# the sources of a build made elsewhere (make distcheck's VPATH)
[ -f "$S/tests/tap.sh" ] || S=$(sed -n 's/^abs_top_srcdir = //p' "$B/Makefile")
cp "$S"/tests/*.sh "$R/b/tests/"
cp -r "$S/tests/data" "$R/b/tests/"
cp "$S/docs/predict-scaling.sh" "$S/docs/predict-validation.sh" "$S/docs/lent-run.sh" \
	"$R/b/docs/"

# every library those programs load, by the loader's own account
find "$R/usr/bin" "$R/b" -type f -perm -u+x -o -name '*.so' -type f |
	while read -r f; do ldd "$f" 2> /dev/null || :; done |
	sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p' |
	sort -u | while read -r lib; do
		d=$R$(dirname "$lib")
		mkdir -p "$d"
		cp -L "$lib" "$d/"
	done

# the users and groups the tests name (the unprivileged recording)
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' > "$R/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$R/etc/group"
tar -C "$R" -czf "$A" .
echo "$A: $(du -h "$A" | cut -f1)"
