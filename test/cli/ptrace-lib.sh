#!/bin/sh
# The library's own tests, traced: each test/lib program runs under
# utrace -f -o /dev/null, so libutrace traces its tracees while itself
# traced by libutrace (the ptrace emulation, utrace(7)).  Checks of what
# only the kernel writes in /proc (TracerPid, the 'T' of a group stop) and
# of not being traced at all end as visible SKIPs (tlib.h); the rest pass.
# Nested, the 19 programs take about 7 minutes plain on 2 CPUs, and more
# under the sanitizers: the runner's limit for this script, and each
# program's, are longer than the usual 600 s.
# test-timeout: 3600
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
export O
U=$O/utrace
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
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

for t in order sig sigcorner syscall stress attach control filter \
	 filter_equiv sigkill teardown regset events step jctl remote \
	 spawn tracer queue; do
	[ -x "$O/test/lib/$t" ] || { echo "not ok - lib/$t: not built"; continue; }
	timeout -k 30 1200 "$U" -f -o /dev/null "$O/test/lib/$t" >"$tmp" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || grep -q '^not ok' "$tmp"; then
		# The programs' own deadlines (a few seconds) were made for
		# one tracer; nested on a loaded machine one may pass: once
		# more, and the first failure is shown.
		echo "# lib/$t under utrace -f failed once (exit $rc), again:"
		grep -B3 '^not ok' "$tmp" | sed 's/^/# /' | head -10
		timeout -k 30 1200 "$U" -f -o /dev/null "$O/test/lib/$t" >"$tmp" 2>&1
		rc=$?
	fi
	n=$(grep -c '^ok - ' "$tmp")
	s=$(grep -c '^ok - .*# SKIP' "$tmp")
	if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && ! grep -q '^not ok' "$tmp"; then
		echo "ok - lib/$t under utrace -f: $n ok ($s skipped)"
	else
		echo "not ok - lib/$t under utrace -f (exit $rc)"
		grep -B3 '^not ok' "$tmp" | sed 's/^/# /' | head -20
	fi
done
