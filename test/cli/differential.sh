#!/bin/sh
# Differential test against strace: trace the same programs with both
# tracers (ASLR off, same environment) and compare, per process, the
# sequence of syscall names and return values.  Prints the match figure.
UTRACE=${O:-build}/utrace
dir=$(cd "$(dirname "$0")" && pwd)
if ! command -v strace >/dev/null 2>&1; then
	echo "ok - differential # SKIP strace not installed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "ok - differential # SKIP python3 not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
min=${DIFF_MIN:-90}
norand() { setarch "$(uname -m)" -R "$@"; }

compare() {	# name, command...
	name=$1; shift
	norand strace -f -o "$tmp/s" "$@" >/dev/null 2>&1
	norand "$UTRACE" -f -o "$tmp/u" "$@" >/dev/null 2>&1
	set -- $(python3 "$dir/strace-compare.py" "$tmp/s" "$tmp/u")
	echo "# $name: $1 of $2 syscall/return pairs match ($3%)"
	if awk -v p="$3" -v m="$min" 'BEGIN { exit !(p >= m) }'; then
		echo "ok - differential $name $3%"
	else
		echo "not ok - differential $name $3% (below $min%)"
	fi
}

compare "ls -la /" ls -la /
compare "sh -c 'echo a | cat'" sh -c 'echo a | cat'
# The interpreter itself, not a wrapper script in front of it (pyenv's shim
# runs a dozen processes whose order varies from run to run).
py=$(python3 -c 'import sys; print(sys.executable)')
compare "python3 -c 'print(1)'" "$py" -c 'print(1)'
compare "cat /etc/passwd" cat /etc/passwd
