#!/bin/sh
# -k: stacks after each syscall and signal, compared with recordings of
# strace 6.1 -k running test/progs/stack (its own functions, a thread, a
# forked child, an execve of itself, a C++ name to demangle).  Masked: addresses and offsets, the
# pids, and the names inside libc and the dynamic loader, which depend on
# the installed debugging symbols and on strace's unwinder (Debian builds
# strace with libunwind, which names the nearest exported symbol and does
# not step back into the call instruction; libdw, which utrace uses as
# strace's other backend does, finds local symbols in libc6-dbg).  Where
# libdw stops at an address in no module ("no matching address range"),
# utrace ends the stack silently, as libunwind does.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(cd "$(dirname "$0")/expected" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$O/test/progs/stack" "$tmp/prog"
real=$(readlink -f "$O/test/progs/stack")
# No network lookups of debugging symbols from the test.
unset DEBUGINFOD_URLS

norm() {
	sed -E -e "s|$real|PROG|g" -e 's/^[0-9]+ +/PID /' \
	    -e 's/si_pid=[0-9]+/si_pid=PID/' \
	    -e 's/parent_tid=\[[0-9]+\]\}, 88\) += [0-9]+$/parent_tid=[TID]}, 88) = TID/' \
	    -e 's/0x[0-9a-f]{8,}/ADDR/g' -e 's|/\* [0-9]+ vars \*/|/* N vars */|' \
	    -e 's/\+0x[0-9a-f]+\) \[0x[0-9a-f]+\]$/+OFF) [ADDR]/' \
	    -e 's/\) \[0x[0-9a-f]+\]$/) [ADDR]/' \
	    -e 's|^ > [^ ]*/(libc\.so\.6\|ld-linux[^(]*)\([^)]*\)| > \1(FN)|' \
	    -e 's/ +=/ =/'
}

check() {	# name, expected file, options...
	name=$1; file=$2; shift 2
	case " $* " in
	*" -- "*) ;;		# the options end with the command
	*) set -- "$@" ./prog ;;
	esac
	(cd "$tmp" && "$U" -o "$tmp/out" "$@" >/dev/null 2>"$tmp/err")
	rc=$?
	norm <"$tmp/out" >"$tmp/got"
	norm <"$exp/$file" >"$tmp/want"
	if [ $rc -ne 0 ]; then
		echo "not ok - $name: exit status $rc"
		sed 's/^/# /' "$tmp/err"
	elif diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

check "-k -f: threads, a child, execve, exit_group" stack-k1.out \
	-f -qq -k -e trace=write,execve,exit_group -e signal=none
check "-k: a signal's stack, exit_group's after +++ exited" stack-k2.out \
	-k -e trace=exit_group
check "-k: C++ names demangled" stack-k3.out -k -e trace=write -- ./prog cplus

# A frame line is exactly strace's: " > module(symbol+0xoff) [0xaddr]".
(cd "$tmp" && "$U" -o "$tmp/out" -k -e trace=write ./prog >/dev/null 2>&1)
if grep -qE '^ > [^ ]+/stack\(stk_inner\+0x[0-9a-f]+\) \[0x[0-9a-f]+\]$' \
	"$tmp/out"; then
	echo "ok - frame format"
else
	echo "not ok - frame format"
	sed 's/^/# /' "$tmp/out"
fi

# -k has no effect with -c, and says so as strace does.
"$U" -c -k -o /dev/null "$O/test/progs/stack" >/dev/null 2>"$tmp/err"
if grep -qx 'utrace: -k/--stack-traces has no effect with -c/--summary-only' \
	"$tmp/err"; then
	echo "ok - -k with -c warns"
else
	echo "not ok - -k with -c warns"
	sed 's/^/# /' "$tmp/err"
fi

# Modules loaded after start (dlopen: mmap, which -e trace=write does not
# show) appear in the frames: the module list is read again after them.
if python3 -c 'import ctypes' 2>/dev/null; then
	# The first write reads the module list, before ctypes is loaded.
	"$U" -k -e trace=write -o "$tmp/out" python3 -c "import os; \
os.write(1, b'a'); import ctypes; ctypes.CDLL(None).write(1, b'x', 1)" \
		>/dev/null
	if sed -n '/^write(1, "x", 1)/,/^[^ ]/p' "$tmp/out" |
	   grep -q '^ > [^ ]*/_ctypes[^ /]*\.so('; then
		echo "ok - -k: a module dlopen()ed later is in the frames"
	else
		echo "not ok - -k: a module dlopen()ed later is in the frames"
		sed 's/^/# /' "$tmp/out" | tail -20
	fi
else
	echo "ok - -k: a module dlopen()ed later # SKIP no python3 ctypes"
fi
check "-k: clone3's stack ends in libc, without an error line" stack-k4.out \
	-f -qq -k -e trace=clone3 -e signal=none
