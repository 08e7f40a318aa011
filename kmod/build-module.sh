#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build chronoscope_tracer.ko outside the source tree.
#
#   build-module.sh newest-release
#       Print the newest kernel release in /lib/modules that has a build
#       directory (its headers).
#   build-module.sh build WORKDIR KDIR [OUTPUT.ko]
#       Copy the sources into WORKDIR, run Kbuild there against KDIR
#       (e.g. /lib/modules/<release>/build) and copy the module to OUTPUT.ko.
#   build-module.sh checkpatch
#       Run the kernel's checkpatch.pl on the sources if one can be found:
#       $CHECKPATCH, PATH, /usr/src/linux-*/scripts, or the tarball of
#       Debian's linux-source-<version> package.  Exits 77 if none is.
#
# Kbuild writes its objects next to the sources (M=), and Linux 6.1 has no
# separate output directory for external modules, hence the copy.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
sources="chronoscope_tracer.c chronoscope_trace.h Kbuild Makefile"

die() {
	echo "build-module.sh: $*" >&2
	exit 1
}

newest_release() {
	best=
	for dir in /lib/modules/*; do
		[ -e "$dir/build/Makefile" ] || continue
		best="$best$(basename "$dir")
"
	done
	[ -n "$best" ] || die "no kernel headers in /lib/modules/*/build (install linux-headers-amd64 or linux-headers-\$(uname -r))"
	printf '%s' "$best" | sort -V | tail -n 1
}

build() {
	[ $# -ge 2 ] || die "usage: build WORKDIR KDIR [OUTPUT.ko]"
	workdir=$1
	kdir=$2
	output=${3:-}
	[ -e "$kdir/Makefile" ] || die "$kdir has no kernel build tree (install the headers for that kernel)"
	mkdir -p "$workdir"
	for f in $sources; do
		# Keep the timestamps so that Kbuild rebuilds only what changed.
		cmp -s "$here/$f" "$workdir/$f" || cp -p "$here/$f" "$workdir/$f"
	done
	make -C "$kdir" M="$(cd "$workdir" && pwd)" modules
	if [ -n "$output" ]; then
		cp "$workdir/chronoscope_tracer.ko" "$output"
	fi
}

checkpatch() {
	cp=${CHECKPATCH:-}
	if [ -z "$cp" ]; then
		cp=$(command -v checkpatch.pl || true)
	fi
	if [ -z "$cp" ]; then
		for f in /usr/src/linux-*/scripts/checkpatch.pl; do
			[ -e "$f" ] && cp=$f && break
		done
	fi
	if [ -z "$cp" ]; then
		for tarball in /usr/src/linux-source-*.tar.*; do
			[ -e "$tarball" ] || continue
			tmp=$(mktemp -d "${TMPDIR:-/tmp}/cs-checkpatch.XXXXXX")
			trap 'rm -rf "$tmp"' EXIT
			top=$(basename "$tarball")
			top=${top%.tar.*}
			tar -xf "$tarball" -C "$tmp" \
				"$top/scripts/checkpatch.pl" \
				"$top/scripts/spelling.txt" \
				"$top/scripts/const_structs.checkpatch"
			cp=$tmp/$top/scripts/checkpatch.pl
			break
		done
	fi
	if [ -z "$cp" ]; then
		echo "checkpatch.pl not found (Debian's headers do not ship it: install linux-source-6.1 or set CHECKPATCH=/path/to/scripts/checkpatch.pl)" >&2
		exit 77
	fi
	cd "$here"
	# LINUX_VERSION_CODE is how an out-of-tree module supports several
	# kernels; checkpatch rightly warns about it in-tree only.
	perl "$cp" --no-tree --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		-f chronoscope_tracer.c chronoscope_trace.h
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
newest-release) newest_release ;;
build) build "$@" ;;
checkpatch) checkpatch ;;
*) die "usage: build-module.sh newest-release | build WORKDIR KDIR [OUTPUT.ko] | checkpatch" ;;
esac
