#!/bin/sh
# Transparency: each program of test/progs/tp_*.c (and the static one)
# runs natively and under `utrace -f -o LOG`; both runs must print the same
# and end with the same status, and LOG must hold every system call the
# program says it made, exactly once (tp-count.py against the lines the
# program wrote to $TP_EXPECT; see test/progs/tp_common.h).
#
# Both ways: when utrace has a switch for the record path (--records; the
# default is the stop path), each program runs a second time, under utrace
# --records -f: that trace must pass the same checks and hold the same
# lines as the default's, process by process,
# after strace-lines.py's normalisation (pids, addresses, times) and
# without the lines the program says may vary (a timer's signals, polls).
#
# TP_RECORDS_SWITCH=OPT gives the switch by name.
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

# The switch for the record path (utrace(1), RECORDS AND STOPS): an option
# --records in `utrace --help`; TP_RECORDS_SWITCH=OPT names another.
SW=${TP_RECORDS_SWITCH:-}
[ -n "$SW" ] || ! "$U" --help 2>&1 | grep -q -- '--records\b' || SW=--records
# Known differences of the record path, documented in utrace(1) (RECORDS
# AND STOPS) and reported as visible skips until fixed: the library's
# SIGSYS handler and mask show through rt_sigaction/rt_sigprocmask and a
# handler's frame.
KNOWN=${TP_RECORDS_KNOWN-"vfork restart registers threads-slow-reader"}

ok() { echo "ok - $1"; }
nok() {
	if [ -n "${known:-}" ]; then
		echo "ok - $1 # SKIP known record-path difference (utrace(1)," \
			"RECORDS AND STOPS)"
	else
		echo "not ok - $1"
	fi
	shift
	for f in "$@"; do
		[ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | head -30
	done
}

# check NAME [-o OUT] PROGRAM ARGS...: the program natively, then under
# utrace -f -o NAME.log (or -o OUT, which must write the trace there).
check() {
	known=
	name=$1
	out=$name.log
	shift
	if [ "$1" = -o ]; then
		out=$2
		shift 2
	fi
	TP_EXPECT=$tmp/$name.native timeout 60 "$@" >"$name.out" 2>&1
	nrc=$?
	traced "$name" "$out" "$name.expect" "$@"
	[ -n "$SW" ] || return 0
	sout=$(printf '%s' "$out" | sed "s|$name.log|$name.rec.log|")
	known=
	case " $KNOWN " in *" $name "*) known=1 ;; esac
	traced "$name, $SW" "$sout" "$name.rec.expect" "$SW" "$@"
	if $COUNT --same "$name.rec.log" "$name.log" "$name.expect" \
	    >"$name.same"; then
		ok "$name: the same lines with $SW and with stops"
	else
		sed 's/^/# /' "$name.same"
		nok "$name: the same lines with $SW and with stops"
	fi
}

# traced NAME OUT EXPECT [SWITCH] PROGRAM ARGS...: the run under utrace -f
# -o OUT against the native one (output, status: $name.out, $nrc), and
# the trace against the program's expectations.
traced() {
	tname=$1
	tout=$2
	texp=$3
	shift 3
	# The same path both ways: it is in the trace.
	rm -f tp.expect
	TP_EXPECT=$tmp/tp.expect timeout 300 "$U" -f -o "$tout" "$@" \
		>"$texp.out" 2>&1
	trc=$?
	mv tp.expect "$texp" 2>/dev/null
	if [ $nrc = $trc ] && cmp -s "$name.out" "$texp.out"; then
		ok "$tname: output and exit status ($nrc) as natively"
	else
		echo "# native exit status $nrc, traced $trc"
		nok "$tname: output and exit status as natively" \
			"$name.out" "$texp.out"
	fi
	log=$(printf '%s' "$tout" | sed 's/^|.* //')
	if $COUNT "$log" "$texp" >"$texp.count"; then
		ok "$tname: each of its system calls once in the trace ($(grep \
			-c '^ok' "$texp.count") counts)"
	else
		grep -v '^ok' "$texp.count" | sed 's/^/# /'
		nok "$tname: each of its system calls once in the trace"
	fi
}

[ -n "$SW" ] || ok "records and stops compared # SKIP this utrace has \
no switch for the record path"

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

# A static binary: no dynamic loader, libc inside.  Position-independent
# where the toolchain can (its addresses are then masked as others are).
if ${CC:-cc} -static-pie -O1 -pthread -D_GNU_SOURCE -o tp_static \
	"$SRC/test/progs/static/tp_static.c" 2>cc.err ||
    ${CC:-cc} -static -O1 -pthread -D_GNU_SOURCE -o tp_static \
	"$SRC/test/progs/static/tp_static.c" 2>cc.err; then
	check static ./tp_static
else
	ok "static # SKIP no static libc: $(head -1 cc.err)"
fi
