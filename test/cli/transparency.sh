#!/bin/sh
# Transparency: each program of test/progs/tp_*.c (and the static one)
# runs natively and under `utrace -f -o LOG`; both runs must print the same
# and end with the same status, and LOG must hold every system call the
# program says it made, exactly once (tp-count.py against the lines the
# program wrote to $TP_EXPECT; see test/progs/tp_common.h).
#
# TP_LONG=1 adds the long run of tp_threads (16 threads x 1,000,000
# getppid through a slow reader), minutes under the stop path: for manual
# runs only.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs
SRC=$(pwd)
COUNT="python3 $SRC/test/cli/tp-count.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() {
	echo "not ok - $1"
	shift
	for f in "$@"; do
		[ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | head -30
	done
}

# check NAME [-o OUT] PROGRAM ARGS...: the program natively, then under
# utrace -f -o NAME.log (or -o OUT, which must write the trace there).
check() {
	name=$1
	out=$name.log
	shift
	if [ "$1" = -o ]; then
		out=$2
		shift 2
	fi
	TP_EXPECT=$tmp/$name.native timeout 60 "$@" >"$name.out" 2>&1
	nrc=$?
	rm -f "$name.expect"
	TP_EXPECT=$tmp/$name.expect timeout 300 "$U" -f -o "$out" "$@" \
		>"$name.tout" 2>&1
	trc=$?
	if [ $nrc = $trc ] && cmp -s "$name.out" "$name.tout"; then
		ok "$name: output and exit status ($nrc) as natively"
	else
		echo "# native exit status $nrc, traced $trc"
		nok "$name: output and exit status as natively" \
			"$name.out" "$name.tout"
	fi
	if $COUNT "$name.log" "$name.expect" >"$name.count"; then
		ok "$name: each of its system calls once in the trace ($(grep -c \
			'^ok' "$name.count") counts)"
	else
		grep -v '^ok' "$name.count" | sed 's/^/# /'
		nok "$name: each of its system calls once in the trace"
	fi
}

check clone "$P/tp_clone"
check vfork "$P/tp_vfork"
check signal "$P/tp_signal"
check restart "$P/tp_restart"
check registers "$P/tp_regs"
check redzone "$P/tp_redzone"
check altstack "$P/tp_altstack"
check seccomp "$P/tp_seccomp"
if "$P/tp_sud" | grep -q 'not in this kernel'; then
	ok "sud # SKIP no syscall user dispatch in this kernel"
else
	check sud "$P/tp_sud"
fi
check jit "$P/tp_jit"
check exec-thread "$P/tp_exec_thread"
check threads-slow-reader -o "|$P/slow_reader threads-slow-reader.log" \
	"$P/tp_threads" 1000
if [ "${TP_LONG:-}" = 1 ]; then
	check threads-long -o "|$P/slow_reader threads-long.log" \
		"$P/tp_threads" 1000000
fi

# A static binary: no dynamic loader, libc inside.
if ${CC:-cc} -static -O1 -pthread -D_GNU_SOURCE -o tp_static \
	"$SRC/test/progs/static/tp_static.c" 2>cc.err; then
	check static ./tp_static
else
	ok "static # SKIP no static libc: $(head -1 cc.err)"
fi
