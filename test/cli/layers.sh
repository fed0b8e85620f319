#!/bin/sh
# The utrace command's folders and what each may use (docs/DESIGN.md):
#   util/     nothing of the command, nor the library
#   decode/   util/ only: never engines/, options/, the command or the
#             library (it reads memory through the mem_read_fn it is given)
#   engines/  decode/, util/, cli.h, the library; never options/ or the
#             command's own files (command.h)
#   options/  cli.h and options/; never an engine's inside or the command
#   gdb/framing.c  the gdb connection: never the library nor cli.h (gdb.h
#             and gdbstub.h only)
# (The library's layers: scripts/check-layers, test/cli/library-layers.sh.)
# Checked twice: the #include lines of the sources, and the symbols the
# objects use (a decode/ or util/ object may use nothing defined by
# another folder's objects or by libutrace).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
src=$(dirname "$0")/../../tools/utrace
obj=$O/tools/utrace

# includes DIR PATTERN WHAT: no file of DIR includes a header matching
# the extended regex PATTERN.
includes() {
	bad=$(grep -nE "^#include ($2)" "$src/$1"/*.[ch] 2>/dev/null)
	if [ -z "$bad" ]; then
		echo "ok - $1/ includes no $3"
	else
		echo "not ok - $1/ includes $3"
		echo "$bad" | sed "s|^$src/|# |"
	fi
}
includes util '<utrace\.h>|"(cli|command)\.h"|"(decode|engines|options|gdb)/' \
	"header of the command or the library"
includes decode '<utrace\.h>|"(cli|command)\.h"|"(engines|options|gdb)/' \
	"header of engines/, options/, the command or the library"
includes engines '"command\.h"|"options/' "header of options/ or the command"
includes options '"command\.h"|"engines/|"gdb/' \
	"header of an engine's inside or the command"

# What the objects of DIRS use must not come from the other objects.
defined() {	# objects...
	nm --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' |
		sort -u
}
used() {	# objects...
	nm -u "$@" 2>/dev/null | awk '{ print $2 }' | sort -u
}
if [ ! -d "$obj/decode" ] || [ ! -f "$O/libutrace.a" ]; then
	echo "not ok - symbols: no objects in $obj (build first)"
	exit 1
fi
low="$obj/decode/*.o $obj/util/*.o"
high=$(ls "$obj"/*.o "$obj"/engines/*.o "$obj"/options/*.o \
	"$obj"/gdb/*.o 2>/dev/null)
# shellcheck disable=SC2086
defined $high "$O/libutrace.a" >"${TMPDIR:-/tmp}/layers.$$.hi"
# shellcheck disable=SC2086
used $low | comm -12 - "${TMPDIR:-/tmp}/layers.$$.hi" \
	>"${TMPDIR:-/tmp}/layers.$$.bad"
if [ -s "${TMPDIR:-/tmp}/layers.$$.bad" ]; then
	echo "not ok - decode/ and util/ use symbols of the layers above"
	sed 's/^/# /' "${TMPDIR:-/tmp}/layers.$$.bad"
else
	echo "ok - decode/ and util/ use no symbol of engines/, options/," \
		"the command or libutrace"
fi
rm -f "${TMPDIR:-/tmp}/layers.$$.hi" "${TMPDIR:-/tmp}/layers.$$.bad"

# gdb/framing.c: packets and sockets, nothing of the library.
bad=$(grep -nE '^#include (<utrace\.h>|"(cli|command)\.h")' "$src/gdb/framing.c")
lib=$(used "$obj/gdb/framing.o" | grep '^utrace_')
if [ -z "$bad$lib" ] && [ -f "$obj/gdb/framing.o" ]; then
	echo "ok - gdb/framing.c includes and uses nothing of the library"
else
	echo "not ok - gdb/framing.c includes or uses the library"
	echo "$bad$lib" | sed 's/^/# /'
fi
