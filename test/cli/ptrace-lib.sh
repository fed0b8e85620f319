#!/bin/sh
# The library's own tests, traced: each test/lib program (but those of the
# record path, lib/record*) runs under utrace -f -o /dev/null, so
# libutrace traces its tracees while itself traced by libutrace (the
# ptrace emulation, utrace(7)).  Checks of what
# only the kernel writes in /proc (TracerPid, the 'T' of a group stop) and
# of not being traced at all end as visible SKIPs (tlib.h); the rest pass.
# A failure is a failure: no program is run twice.
#
# The programs run two at a time (UTRACE_TEST_JOBS, 2 by default: most of
# their time is spent stopped, each waiting for ptrace stops of the other
# side), the longest first, and are reported in the order below, each with
# its wall time as a "# time" comment.  Nested, 19 of these programs took
# about 3.5 minutes one at a time plain on 2 CPUs; the runner's limit for this
# script, and each program's, are longer than the usual 600 s for the
# sanitizers.
# test-timeout: 3600
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
export O
U=$O/utrace
# A sanitized build (make SANITIZE=1): LeakSanitizer stops the world from a
# helper made with CLONE_UNTRACED, whose real ptrace fails on threads
# already traced; it cannot run under any tracer, so it is off here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
# Every system call of a program traced by the emulation costs several
# real ptrace stops: the programs' timeouts and deadlines (test/harness.h,
# DISPATCH_UNTIL) are made ten times longer.  Fixed waits are not.
TEST_TIMEOUT_SCALE=10
export TEST_TIMEOUT_SCALE

# Reported in this order; started longest first (the order of the second
# list, from their times in a plain run), so that the two lanes end close
# together.
progs="order sig sigcorner syscall stress attach control filter \
       filter_equiv follow sigkill teardown regset events step jctl remote \
       spawn tracer queue queue_accept queue_gdb"
start="queue remote jctl sigcorner teardown events control sigkill order \
       tracer sig attach syscall spawn step queue_gdb filter stress \
       filter_equiv queue_accept follow regset"

# One program, nested: its output, exit status and wall time in $tmp.
nested() {	# name
	t0=$(date +%s%3N)
	timeout -k 30 1200 "$U" -f -o /dev/null "$O/test/lib/$1" \
		>"$tmp/$1.out" 2>&1
	echo $? >"$tmp/$1.rc"
	echo $(($(date +%s%3N) - t0)) >"$tmp/$1.ms"
}

# ptrace-lib.sh --one DIR NAME: one lane's program (through xargs -P).
if [ "${1:-}" = --one ]; then
	tmp=$2
	nested "$3"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in $start; do
	[ -x "$O/test/lib/$t" ] && echo "$t"
done | xargs -P "${UTRACE_TEST_JOBS:-2}" -n 1 sh "$0" --one "$tmp"

for t in $progs; do
	if [ ! -x "$O/test/lib/$t" ]; then
		echo "not ok - lib/$t: not built"
		continue
	fi
	rc=$(cat "$tmp/$t.rc" 2>/dev/null || echo "not run")
	ms=$(cat "$tmp/$t.ms" 2>/dev/null || echo 0)
	out=$tmp/$t.out
	n=$(grep -c '^ok - ' "$out")
	s=$(grep -c '^ok - .*# SKIP' "$out")
	if [ "$rc" = 0 ] && [ "$n" -gt 0 ] && ! grep -q '^not ok' "$out"; then
		echo "ok - lib/$t under utrace -f: $n ok ($s skipped)"
	else
		echo "not ok - lib/$t under utrace -f (exit $rc)"
		grep -B3 '^not ok' "$out" | sed 's/^/# /' | head -20
		[ "$rc" = 0 ] || tail -5 "$out" | sed 's/^/# /'
	fi
	# Its cases of a second or more, then its own time.
	awk -v t="$t" '$1 == "#" && $2 == "time" && $4 >= 1 {
		printf "# time lib/%s nested: %s %s\n", t, $3, $4 }' "$out"
	printf '# time lib/%s nested %d.%02d\n' "$t" $((ms / 1000)) \
		$((ms % 1000 / 10))
done
