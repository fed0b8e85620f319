#!/bin/sh
# Differential test against strace: trace the same programs with both
# tracers (ASLR off, same environment) and compare, per process, the
# sequence of syscall names and return values.  Prints the match figure.
# Then whole lines (strace-lines.py: what changes from run to run masked)
# for programs whose traces do not depend on timing: name resolution
# (netlink), ip and ss (netlink), coreutils, a shell pipeline.
#
# Both ways: utrace prints from in-process records by default and from
# ptrace stops with --stops-only (utrace(1)); the whole lines are compared
# with strace's both ways, and the two traces with each other.
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
	for how in records --stops-only; do
		sw=$how
		[ $how = records ] && sw=--records
		norand "$UTRACE" $sw -f -o "$tmp/u" "$@" >/dev/null 2>&1
		read -r n of pct <<-EOF
		$(python3 "$dir/strace-compare.py" "$tmp/s" "$tmp/u")
		EOF
		echo "# $name ($how): $n of $of syscall/return pairs match ($pct%)"
		if awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p >= m) }'; then
			echo "ok - differential $name ($how) $pct%"
		else
			echo "not ok - differential $name ($how) $pct% (below $min%)"
		fi
	done
}

if [ "${1:-}" != --in-netns ]; then
compare "ls -la /" ls -la /
compare "sh -c 'echo a | cat'" sh -c 'echo a | cat'
# The interpreter itself, not a wrapper script in front of it (pyenv's shim
# runs a dozen processes whose order varies from run to run).
py=$(python3 -c 'import sys; print(sys.executable)')
compare "python3 -c 'print(1)'" "$py" -c 'print(1)'
compare "cat /etc/passwd" cat /etc/passwd
fi

# -- whole lines --------------------------------------------------------------

# A few lines may differ where the order of events between processes does
# (a shell pipeline); in one process's trace (netlink answers) none should.
same() {	# what, minimum percent, trace, trace
	set -- "$1" "$2" $(python3 "$dir/strace-lines.py" "$3" "$4" 8 \
		2>"$tmp/d")
	echo "# $1: $3 of $4 lines the same ($5%)"
	if awk -v p="$5" -v m="$2" 'BEGIN { exit !(p >= m) }'; then
		echo "ok - lines $1 $5%"
	else
		echo "not ok - lines $1 $5% (below $2%)"
		sed 's/^/# /' "$tmp/d"
	fi
}

lines() {	# name, minimum percent, command...
	name=$1; lmin=${DIFF_LINES_MIN:-$2}; shift 2
	norand strace -f -o "$tmp/s" "$@" >/dev/null 2>&1 </dev/null
	norand "$UTRACE" --records -f -o "$tmp/u" "$@" >/dev/null 2>&1 </dev/null
	norand "$UTRACE" --stops-only -f -o "$tmp/v" "$@" >/dev/null 2>&1 \
		</dev/null
	same "$name, as strace's" "$lmin" "$tmp/s" "$tmp/u"
	same "$name, --stops-only, as strace's" "$lmin" "$tmp/s" "$tmp/v"
	same "$name, records as --stops-only" "$lmin" "$tmp/v" "$tmp/u"
}

if [ "${1:-}" != --in-netns ]; then
lines "ls -la /" 99 ls -la /
lines "stat /etc/passwd" 99 stat /etc/passwd
lines "id" 99 id
lines "sh -c 'echo a | cat'" 95 sh -c 'echo a | cat'
fi
# ip and ss show the machine's links and sockets, which other programs
# change between the two runs: they run in a network namespace of their
# own (the loopback link up, one listener of ours), the same for both.
netlink_progs() {
	for prog in "getent ahosts localhost" "ip addr" "ss -tln"; do
		set -- $prog
		if command -v "$1" >/dev/null 2>&1; then
			lines "$prog" 99 $prog
		else
			echo "ok - lines $prog # SKIP $1 not installed"
		fi
	done
}
if [ "${1:-}" = --in-netns ]; then
	ip link set lo up
	python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 8123))
s.listen()
open(sys.argv[1], "w").close()
time.sleep(600)' "$tmp/listening" &
	listener=$!
	i=0
	while [ ! -e "$tmp/listening" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	netlink_progs
	kill $listener
	exit 0
fi
if unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
	O=${O:-build} unshare -n sh "$0" --in-netns
else
	echo "ok - lines ip and ss # SKIP no network namespace (unshare -n)"
fi
