# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# oq_source_for_vpath SRCDIR COPY: the source tree a second, VPATH build
# (tests/run-sanitized, tests/opensm/check-release) configures from.
# A tree configured in place (./configure && make, as in the README)
# cannot serve a VPATH build: configure refuses, and make would find the
# tree's own objects through VPATH.  Then the tree is copied to COPY and
# cleaned there (once, and again when a source, build fragment or script
# changed since); otherwise SRCDIR itself is used.  Prints the directory;
# returns 1 (with a message on stderr) when the copy fails.  Source it
# from bash.
oq_source_for_vpath() {
	local src=$1 top=$2 skip
	if [ ! -f "$src/config.status" ]; then
		echo "$src"
		return 0
	fi
	# Stale: configure or a source, build fragment or script of the
	# source folders changed since the copy (the build directories below
	# an in-tree build, whose generated config.h and env.sh are always
	# newer, are not looked at).  Everything is compared with the copy's
	# time, never with the copied files' own: tar keeps whole seconds
	# of a time only, so a copy is older than its original.
	if [ ! -f "$top/configure" ] || [ ! -f "$top/.copied" ] ||
	   [ -n "$(cd "$src" && find configure include policy plugin contrib \
		   tests configure.ac Makefile.am -path tests/e2e/tmp -prune -o \
		   -newer "$top/.copied" -type f \( -name '*.[ch]' -o \
		   -name '*.am' -o -name '*.sh' -o -name '*.in' -o \
		   -name '*.ac' -o -name configure \) -print -quit \
		   2>/dev/null)" ]; then
		echo "copying the configured source tree $src to $top" >&2
		rm -rf "$top"
		mkdir -p "$top" || return 1
		# Build directories below SRCDIR stay out of the copy (this
		# one's, the sanitized build's, the OpenSM releases'), and so
		# do the end-to-end tests' scratch directories of a suite that
		# may be running there.
		skip=${top#"$src"/}
		tar -C "$src" --exclude="./${skip%%/*}" --exclude=./asan \
			--exclude=./opensm-builds --exclude=./tests/e2e/tmp \
			--exclude='./sys-[0-9]*' --warning=no-file-changed \
			--warning=no-file-removed -cf - . |
			tar -C "$top" -xf - ||
			{ echo "cannot copy $src to $top" >&2; return 1; }
		(cd "$top" && env -u MAKEFLAGS -u MAKELEVEL make -s distclean \
			>/dev/null 2>&1)
		rm -f "$top/config.status"
		touch "$top/.copied"
	fi
	echo "$top"
}
