#!/bin/sh
# Every manual page lints clean: mandoc -Tlint (every level, style
# included) and groff -ww (all warnings), each page on its own.  Pages
# that only name another are symbolic links (mandoc finds .so fragile).
cd "$(dirname "$0")/../../man" || exit 1
if command -v mandoc >/dev/null 2>&1; then
	bad=0
	for f in man[1-9]/*; do
		out=$(mandoc -Tlint "$f" 2>&1)
		if [ -n "$out" ]; then
			echo "$out" | sed 's/^/# /'
			bad=$((bad + 1))
		fi
	done
	if [ $bad -eq 0 ]; then
		echo "ok - mandoc -Tlint: every page clean"
	else
		echo "not ok - mandoc -Tlint: $bad pages with messages"
	fi
else
	echo "ok - mandoc -Tlint # SKIP mandoc not installed (scripts/deps installs it)"
fi
if command -v groff >/dev/null 2>&1; then
	bad=0
	for f in man[1-9]/*; do
		out=$(groff -ww -man -Tutf8 -z "$f" 2>&1)
		if [ -n "$out" ]; then
			echo "$out" | sed 's/^/# /'
			bad=$((bad + 1))
		fi
	done
	if [ $bad -eq 0 ]; then
		echo "ok - groff -ww: every page clean"
	else
		echo "not ok - groff -ww: $bad pages with warnings"
	fi
else
	echo "ok - groff -ww # SKIP groff not installed (scripts/deps installs it)"
fi
bad=$(grep -l '^\.so ' man[1-9]/* 2>/dev/null)
if [ -z "$bad" ]; then
	echo "ok - no page is a .so request (links instead)"
else
	echo "not ok - pages with .so: $bad"
fi
