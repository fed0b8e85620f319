#!/bin/sh
# What real programs found out, reduced: a debugger (test/progs/debugger,
# gdb's start-up in small) runs under utrace with and without -f and with
# a syscall set, and its ptrace(2) calls print as strace 6.1 prints them
# (compared with strace when it is installed).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | head -20; }
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}
# pids, addresses and register values, and the padding before " = ".
norm() {
	sed -E -e 's/^[0-9]+ +//' -e 's/^(ptrace\([^,]*, )[0-9]+/\1PID/' \
	    -e 's/si_pid=[0-9]+/si_pid=N/' -e 's/0x[0-9a-f]+/HEX/g' \
	    -e 's/\) +=/) =/'
}

# -- the debugged program runs ------------------------------------------------

# Without -f and with a syscall set, the command's children are not traced
# (as strace: no seccomp filter without -f), so the debugger's own child
# can ask for PTRACE_TRACEME.  A filter would keep them traced by utrace.
for opts in "" "-e trace=ptrace" "-f" "-f -e trace=ptrace" \
	    "-f -e trace=%process"; do
	"$U" $opts -o log "$P/debugger" >out 2>err
	rc=$?
	t "utrace $opts: a debugger under utrace debugs its child (exit $rc)" \
		'[ $rc = 0 ] && [ "$(cat out)" = debugged ]'
done

# A background child of a command traced without -f outlives utrace, as
# with strace (a filter would keep it traced and PTRACE_O_EXITKILL kill it).
"$U" -e trace=execve -o log sh -c "exec $P/sleeper 30 & echo \$! >pid"
pid=$(cat pid)
t "utrace -e trace=execve (no -f): a background child is left running, untraced" \
	'kill -0 "$pid" 2>/dev/null && ! grep -q "^State:.*[ZX]" /proc/$pid/status && grep -q "^TracerPid:[[:space:]]*0$" /proc/$pid/status'
kill -9 "$pid" 2>/dev/null

# -- ptrace(2) decoded ------------------------------------------------------------

"$U" -e trace=ptrace -o log "$P/debugger" >/dev/null
norm <log >got
for re in \
	'^ptrace\(PTRACE_SETOPTIONS, PID, NULL, PTRACE_O_TRACESYSGOOD\|PTRACE_O_EXITKILL\) = 0$' \
	'^ptrace\(PTRACE_PEEKDATA, PID, HEX, \[HEX\]\) = 0$' \
	'^ptrace\(PTRACE_PEEKUSER, PID, 8\*RIP, \[HEX\]\) = 0$' \
	'^ptrace\(PTRACE_PEEKUSER, PID, 8\*SS\+8, \[HEX\]\) = 0$' \
	'^ptrace\(PTRACE_PEEKUSER, PID, offsetof\(struct user, u_debugreg\)\+56, \[NULL\]\) = 0$' \
	'^ptrace\(PTRACE_GETREGS, PID, \{r15=[^}]*, orig_rax=HEX, rip=HEX, cs=HEX, eflags=HEX, rsp=HEX, ss=HEX, fs_base=HEX, gs_base=[^}]*, gs=[0-9A-Z]+\}\) = 0$' \
	'^ptrace\(PTRACE_GETREGSET, PID, NT_PRSTATUS, \{iov_base=\{r15=[^}]*\}, iov_len=216\}\) = 0$' \
	'^ptrace\(PTRACE_GETREGSET, PID, NT_FPREGSET, \{iov_base=\{cwd=HEX, swd=[^,]*, ftw=[^,]*, fop=[^,]*, rip=[^,}]*\}, iov_len=16\}\) = 0$' \
	'^ptrace\(PTRACE_GETEVENTMSG, PID, NULL, \[0\]\) = 0$' \
	'^ptrace\(PTRACE_GETSIGINFO, PID, NULL, \{si_signo=SIGSTOP, si_code=SI_TKILL, si_pid=N, si_uid=0\}\) = 0$' \
	'^ptrace\(PTRACE_SINGLESTEP, PID, NULL, 0\) = 0$' \
	'^ptrace\(PTRACE_CONT, PID, NULL, 0\) = 0$'; do
	req=$(echo "$re" | sed -E 's/^[^,]*(PTRACE_[A-Z]+),.*$/\1/')
	t "ptrace decoded: $req as strace 6.1 ($(echo "$re" | cut -c1-60)...)" \
		'grep -Eq "$re" got'
done
if command -v strace >/dev/null 2>&1 &&
   strace -V 2>/dev/null | grep -q 'version 6\.1$'; then
	strace -e trace=ptrace -o slog "$P/debugger" >/dev/null
	norm <slog >want
	t "ptrace: the whole trace as strace 6.1's (pids, addresses aside)" \
		'diff -u want got | sed "s/^/# /" >&2; cmp -s want got'
	for x in raw verbose; do
		"$U" -X$x -e trace=ptrace -o log "$P/debugger" >/dev/null
		strace -X$x -e trace=ptrace -o slog "$P/debugger" >/dev/null
		norm <log >got
		norm <slog >want
		t "ptrace -X$x: the whole trace as strace 6.1's" \
			'diff -u want got | sed "s/^/# /" >&2; cmp -s want got'
	done
else
	echo "ok - ptrace: the whole trace as strace 6.1's # SKIP strace 6.1 not installed"
fi

# -- options of strace's own test suite -------------------------------------------

"$U" --interruptible=always -e trace=none -o log true
t "--interruptible=always: strace's other name for anywhere" '[ $? = 0 ]'
