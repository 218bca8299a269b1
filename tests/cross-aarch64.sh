#!/bin/sh
# SPDX-License-Identifier: MIT
# Build ptbench for aarch64 with Debian's cross toolchain and arm64
# multiarch libraries, and run its `make check` (unit, golden and
# command-line tests) under qemu-user.  Called by .ci/run after ./bootstrap;
# by hand:  tests/cross-aarch64.sh [WORKDIR]
# Needs: gcc-aarch64-linux-gnu, qemu-user (or qemu-user-static), and
# libhwloc-dev:arm64 libjansson-dev:arm64 (dpkg --add-architecture arm64).
# libcpuid is x86-only, so the build takes the /proc/cpuinfo path.
# The test binaries are started by the kernel through binfmt_misc; where no
# handler for aarch64 is registered, root registers qemu for this boot.
# Exit 0 passed, 1 failed, 77 skipped (the reason on the first line).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
host=aarch64-linux-gnu
pcdir=/usr/lib/$host/pkgconfig
binfmt=/proc/sys/fs/binfmt_misc

skip() { echo "SKIP: aarch64 cross tests: $*"; exit 77; }

command -v $host-gcc >/dev/null || skip "no $host-gcc (apt-get install gcc-$host)"
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64) ||
	skip "no qemu-aarch64 (apt-get install qemu-user)"
[ -f $pcdir/hwloc.pc ] && [ -f $pcdir/jansson.pc ] ||
	skip "no arm64 hwloc or jansson in $pcdir (dpkg --add-architecture arm64;" \
	     "apt-get install libhwloc-dev:arm64 libjansson-dev:arm64)"
[ -f "$top/Makefile" ] || skip "$top is not configured: run ./bootstrap first"

work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/ptb-aarch64.XXXXXX")}
mkdir -p "$work" || exit 1
rm -rf "$work/src"
make -s -C "$top" distdir distdir="$work/src" >"$work/distdir.log" 2>&1 ||
	{ tail -20 "$work/distdir.log"; echo "FAIL: make distdir"; exit 1; }
cd "$work/src" || exit 1
echo "aarch64: configuring and building in $work/src"
PKG_CONFIG_LIBDIR=$pcdir:/usr/share/pkgconfig ./configure --host=$host \
	>"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; echo "FAIL: configure"; exit 1; }
make -j2 >"$work/make.log" 2>&1 || { tail -30 "$work/make.log"; echo "FAIL: make"; exit 1; }

# The arm64 loader is in / when libc6:arm64 is installed; else the cross
# toolchain's sysroot must stand in for it.
[ -e /lib/ld-linux-aarch64.so.1 ] || { QEMU_LD_PREFIX=/usr/$host; export QEMU_LD_PREFIX; }
if ! ./ptbench --version >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || skip "aarch64 binaries do not run and only root can register" \
		"qemu with binfmt_misc (apt-get install qemu-user-binfmt)"
	[ -w $binfmt/register ] || mount -t binfmt_misc binfmt_misc $binfmt 2>/dev/null
	[ -e $binfmt/qemu-aarch64 ] || { echo "aarch64: registering $qemu with binfmt_misc"
		printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$qemu"':' \
			>$binfmt/register 2>/dev/null; }
	./ptbench --version >/dev/null 2>&1 ||
		skip "aarch64 binaries do not run here even through binfmt_misc and $qemu"
fi

echo "aarch64: make check under $qemu"
# Tests that need native timing or the host's own programs skip, saying so.
PTB_EMULATED=$qemu; export PTB_EMULATED
make check -j2 >"$work/check.log" 2>&1
status=$?
count() { sed -n "s/^# $1: *\([0-9]*\)$/\1/p" test-suite.log | head -1; }
[ "$status" = 0 ] || grep -v '^ok ' test-suite.log | tail -60
echo "aarch64 under qemu: $(count PASS) passed, $(( $(count FAIL) + $(count ERROR) + $(count XPASS) )) failed, $(count SKIP) skipped"
exit $status
