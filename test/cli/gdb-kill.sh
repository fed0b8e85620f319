#!/bin/sh
# A debugger that dies leaves the program as it found it (issue 18 item
# 3): gdb, or the joining utrace --gdb -p, is killed with SIGKILL at a
# breakpoint, in the middle of stepping and in the middle of continuing,
# and the program (test/progs/gdb_thr count: two threads, one born before
# the join and one after, 800 calls of the function gdb breaks in) must
# print its native "count 800", exit 0, and leave nothing stopped.
#   local   utrace -f -o LOG --gdb PROG; gdb killed
#   joined  utrace -f -o LOG PROG, utrace --gdb -p PID joined to it; gdb
#           killed, or the joining utrace killed (the serving utrace puts
#           its int3 bytes back and takes the traps it leaves behind)
# Each case runs UTRACE_GDB_KILL_RUNS times (default 3; 20 for the full
# check).  Only 127.0.0.1 is used.
here=$(cd "$(dirname "$0")" && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs/gdb_thr
runs=${UTRACE_GDB_KILL_RUNS:-3}
if ! command -v gdb >/dev/null 2>&1; then
	echo "ok - gdb kill tests # SKIP gdb missing (scripts/deps installs it)"
	exit 0
fi
tmp=$(mktemp -d)
srv=
cleanup() {
	[ -n "$srv" ] && kill -9 "$srv" 2>/dev/null
	pkill -9 -s 0 -f "^$P " 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
. "$here/gdb.inc"

# One run; 0 when the program ran as natively.  Leaves why in run.err.
one() {	# form (local|joined), what (bp|step|cont), victim (gdb|joiner)
	form=$1 what=$2 victim=$3
	rm -f mark go srv.err log out first.err
	if [ "$form" = local ]; then
		touch go
		"$U" -f -o log --gdb=127.0.0.1:0 "$P" count "$tmp/mark" \
			"$tmp/go" >out 2>srv.err &
		first=$!
		srv=$first
	else
		"$U" -f -o log "$P" count "$tmp/mark" "$tmp/go" >out \
			2>first.err &
		first=$!
		wait_for_file mark
		tp=$(pgrep -f "^$P count $tmp/mark" | head -1)
		"$U" --gdb=127.0.0.1:0 -p "$tp" >/dev/null 2>srv.err &
		srv=$!
	fi
	if ! wait_for srv.err 'port [0-9]'; then
		echo "no port" >run.err
		return 1
	fi
	port=$(grep -o 'port [0-9]*' srv.err | head -1 | cut -d' ' -f2)
	if [ "$victim" = gdb ]; then k='$PPID'; else k=$srv; fi
	{
		echo "break bump"
		[ "$form" = joined ] && echo "shell touch $tmp/go"
		echo continue
		case $what in
		bp)	echo "shell kill -9 $k" ;;
		step)	echo "shell (sleep 0.1; kill -9 $k) &"
			i=0
			while [ $i -lt 3000 ]; do echo stepi; i=$((i + 1)); done ;;
		cont)	echo "shell (sleep 0.1; kill -9 $k) &"
			i=0
			while [ $i -lt 3000 ]; do echo continue; i=$((i + 1)); done ;;
		esac
	} >s.kill
	timeout 60 gdb -nx -batch -ex "target remote 127.0.0.1:$port" \
		-x s.kill "$P" >gdb.out 2>&1
	i=0
	while kill -0 "$first" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	stopped=$(for p in $(pgrep -s 0 -f "^$P count"); do
		grep -l '^State:.*[tT]' /proc/$p/task/*/status 2>/dev/null
	done | wc -l)
	pkill -9 -s 0 -f "^$P count" 2>/dev/null
	wait "$first"
	rc=$?
	[ "$srv" != "$first" ] && { kill -9 "$srv" 2>/dev/null; wait "$srv"; }
	srv=
	echo "output '$(cat out)', status $rc, threads left stopped $stopped" \
		>run.err
	grep 'SIGTRAP' log >>run.err
	[ "$(cat out)" = "count 800" ] && [ $rc -eq 0 ] && [ "$stopped" -eq 0 ]
}

for c in "local bp gdb" "local step gdb" "local cont gdb" \
	 "joined bp gdb" "joined step gdb" "joined cont gdb" \
	 "joined bp joiner" "joined step joiner" "joined cont joiner"; do
	# shellcheck disable=SC2086
	set -- $c
	bad=0
	: >bad.err
	n=0
	while [ $n -lt "$runs" ]; do
		n=$((n + 1))
		if ! one "$@"; then
			bad=$((bad + 1))
			{ echo "run $n:"; cat run.err; } >>bad.err
		fi
	done
	case $2 in
	bp) when="at a breakpoint" ;;
	step) when="while stepping" ;;
	cont) when="while continuing" ;;
	esac
	case $3 in
	gdb) who="gdb" ;;
	joiner) who="the joining utrace --gdb -p" ;;
	esac
	t "$1: kill -9 of $who $when, $runs times: native output and status, nothing stopped" \
		'[ $bad -eq 0 ]' bad.err
done
exit 0
