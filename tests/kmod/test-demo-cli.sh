#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-demo-cli.sh CHRONOSCOPE: `chronoscope demo` where it cannot run, on
# this host, whose kernel has no chronoscope_tracer (and must not be given
# one): every failure is one clear line naming what is missing, and nothing
# is recorded.  The demos themselves run in the QEMU guest
# (run-guest-test.sh).  Skipped (77) on a machine where the module is
# installed or loaded, so that it never loads a module there.
set -eu

[ $# -eq 1 ] || { echo "usage: test-demo-cli.sh CHRONOSCOPE" >&2; exit 2; }
cs=$1
release=$(uname -r)
if [ -d /sys/module/chronoscope_tracer ] ||
   grep -q '/chronoscope_tracer\.ko' "/lib/modules/$release/modules.dep" 2>/dev/null; then
	echo "SKIP: chronoscope_tracer is installed or loaded here"
	exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cs-demo-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0

# expect_fail TEXT COMMAND...: COMMAND fails (1) and says TEXT on stderr.
expect_fail() {
	want=$1
	shift
	rc=0
	"$@" >out.txt 2>err.txt || rc=$?
	if [ $rc -ne 1 ] || ! grep -qF -- "$want" err.txt; then
		echo "FAIL: $* exited $rc and said: $(cat err.txt)"
		echo "      expected: $want"
		failed=1
	else
		echo "ok: $*: $(cat err.txt)"
	fi
}

# --list: three scenarios, one line each.
"$cs" demo --list >list.txt
for name in wakeup-latency irqs-off preemption; do
	grep -q "^$name " list.txt || { echo "FAIL: --list lacks $name"; failed=1; }
done
[ "$(wc -l <list.txt)" -ge 3 ] || { echo "FAIL: --list: $(cat list.txt)"; failed=1; }

# No module for this kernel: the message names the kernel and DKMS.
for name in irqs-off wakeup-latency preemption; do
	expect_fail "chronoscope_tracer is not installed for kernel $release: install it with DKMS" \
		"$cs" demo "$name" --no-open -o "$work/$name.dat"
	[ ! -e "$work/$name.dat" ] || { echo "FAIL: $name left a file"; failed=1; }
done
expect_fail "docs/teaching.md" "$cs" demo irqs-off --no-open
expect_fail "Cannot read the module /nonexistent/chronoscope_tracer.ko" \
	"$cs" demo irqs-off --no-open --module /nonexistent/chronoscope_tracer.ko
# A built module for another kernel ($CS_KMOD_MODULE, from -Dkmod=true, is
# for Debian's kernel): refused before the kernel is handed it, naming the
# file and both kernels.
if [ -n "${CS_KMOD_MODULE:-}" ] && [ -r "$CS_KMOD_MODULE" ] && [ "$(id -u)" = 0 ]; then
	built_for=$(modinfo -F vermagic "$CS_KMOD_MODULE" 2>/dev/null | cut -d' ' -f1 || true)
	if [ -n "$built_for" ] && [ "$built_for" != "$release" ]; then
		expect_fail "The module $CS_KMOD_MODULE was built for kernel $built_for, but this kernel is $release" \
			"$cs" demo irqs-off --no-open -o "$work/built.dat" --module "$CS_KMOD_MODULE"
		[ ! -e "$work/built.dat" ] || { echo "FAIL: the built module left a file"; failed=1; }
		[ ! -d /sys/module/chronoscope_tracer ] || { echo "FAIL: the module got loaded"; failed=1; }
	fi
fi
expect_fail "no demo is called “bogus”" "$cs" demo bogus --no-open
expect_fail "Which demo?" "$cs" demo

# Root is named when it is missing (as nobody, with a readable module file).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	echo "not a module" >"$work/fake.ko"
	chmod 755 "$work"
	chmod 644 "$work/fake.ko"
	expect_fail "The demos need root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$work" "$cs" demo irqs-off --no-open --module "$work/fake.ko"
	expect_fail "The demos also need root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$work" "$cs" demo irqs-off --no-open
fi

# A recording without the module's events: --from says what is missing.
if [ -n "${CS_TESTDATA:-}" ] && [ -r "$CS_TESTDATA/sched-irq-v6.dat" ]; then
	expect_fail "has no irqs-off section of chronoscope_tracer" env XDG_CACHE_HOME="$work/cache" \
		"$cs" demo irqs-off --from "$CS_TESTDATA/sched-irq-v6.dat" --no-open
	expect_fail "no wakeup_latency event of cs-demo-sleeper" env XDG_CACHE_HOME="$work/cache" \
		"$cs" demo wakeup-latency --from "$CS_TESTDATA/sched-irq-v6.dat" --no-open
fi

# Run with sudo by a user with no desktop session here (nobody: no
# /run/user/65534, no display kept): the markers are printed and, instead
# of a window that could not open, the command that opens it later.
if [ "$(id -u)" = 0 ] && [ ! -e /run/user/65534 ] && [ -n "${CS_TESTDATA:-}" ] &&
   [ -r "$CS_TESTDATA/kmod-sections-v7.dat" ]; then
	rc=0
	env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR SUDO_UID=65534 XDG_CACHE_HOME="$work/cache" \
		"$cs" demo irqs-off --from "$CS_TESTDATA/kmod-sections-v7.dat" >out.txt 2>err.txt || rc=$?
	want="open it with: chronoscope --demo=irqs-off $(realpath "$CS_TESTDATA/kmod-sections-v7.dat")"
	if [ $rc -ne 0 ] || ! grep -qF -- "$want" err.txt || ! grep -q "^Marker A:" out.txt; then
		echo "FAIL: sudo without a session exited $rc and said: $(cat out.txt err.txt)"
		echo "      expected: $want"
		failed=1
	else
		echo "ok: sudo without a session: $(cat err.txt)"
	fi
fi

[ $failed -eq 0 ] && echo "PASS"
exit $failed
