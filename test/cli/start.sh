#!/bin/sh
# How utrace starts and lets go of processes, as strace 6.1: -u USER,
# -D/-DD/-DDD (the tracer out of the command's process tree) and
# -b execve (detach on execve).  -b is checked against recordings of
# strace 6.1 (expected/opt-b*.out); -u and -D against what the command
# sees of itself, and against strace when it is installed.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(cd "$(dirname "$0")" && pwd)/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | head -20; }
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}
# Wait until a shell condition holds: up to 30 s, polled.  With -D the
# tracer outlives the command: its last lines come after the command ends.
waitfor() {
	i=0
	while [ $i -lt 300 ]; do
		eval "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# pids, addresses, times and the column padding that depends on them.
norm() {
	sed -E -e 's/0x[0-9a-f]+ \/\* [0-9]+ vars \*\//ENV/' -e 's/^[0-9]+ +/PID /' \
	    -e 's/si_pid=[0-9]+/si_pid=N/' -e 's/Process [0-9]+/Process N/' \
	    -e 's/si_utime=[0-9]+, si_stime=[0-9]+.*\}/TIMES}/' \
	    -e 's/\[pid +[0-9]+\]/[pid N]/' -e 's/\) +=/) =/' \
	    -e 's/^(strace|utrace):/TRACER:/' -e 's/(ENV)(strace|utrace):/\1TRACER:/'
}

# -- The seccomp filter ----------------------------------------------------------
# A command utrace starts with --stops-only -e trace=SET runs under the
# library's seccomp filter (it stops only for SET); with every syscall
# traced it has none, nor on the record path (--records), where syscall
# user dispatch catches the syscalls: what /proc says of the command.
"$U" --stops-only -f -e trace=getppid -o log \
	grep '^Seccomp:' /proc/self/status >out 2>&1
t "--stops-only -e trace=SET: the command runs under a seccomp filter" \
	"grep -q '^Seccomp:[[:space:]]*2' out"
"$U" -f -e trace=getppid -o log grep '^Seccomp:' /proc/self/status >out 2>&1
t "-e trace=SET (stops, the default): a seccomp filter" \
	"grep -q '^Seccomp:[[:space:]]*2' out"
"$U" --records -f -e trace=getppid -o log \
	grep '^Seccomp:' /proc/self/status >out 2>&1
t "--records -e trace=SET: no seccomp filter" \
	"grep -q '^Seccomp:[[:space:]]*0' out"
"$U" -f -o log grep '^Seccomp:' /proc/self/status >out 2>&1
t "every syscall traced: no filter" "grep -q '^Seccomp:[[:space:]]*0' out"

# -- -b execve ------------------------------------------------------------------

"$U" -f -b execve -o log -e trace=execve,exit_group sh -c '/bin/true; echo x' >out
norm <log >got
if [ "$(cat out)" = x ] && diff -u "$exp/opt-b.out" got | sed 's/^/# /' >&2 &&
   cmp -s "$exp/opt-b.out" got; then
	ok "-f -b execve -o FILE: the child's execve ends <detached ...>"
else
	nok "-f -b execve -o FILE: the child's execve ends <detached ...>"
fi
"$U" -f -b execve -e trace=execve,exit_group sh -c '/bin/true; echo x' \
	2>log >/dev/null
norm <log >got
if diff -u "$exp/opt-b-stderr.out" got | sed 's/^/# /' >&2 &&
   cmp -s "$exp/opt-b-stderr.out" got; then
	ok "-f -b execve on stderr: 'Process N detached' inside the open line"
else
	nok "-f -b execve on stderr: 'Process N detached' inside the open line"
fi
# The detached child runs on untraced: its own exec'd program is free.
"$U" -f -b execve -e trace=none -o log sh -c \
	'sh -c "grep TracerPid /proc/self/status"' >out
t "-b execve: the detached process is not traced any more" \
	'grep -q "^TracerPid:.0$" out'
# With a syscall set (no seccomp filter is left behind in the child).
"$U" -f -b execve -e trace=getppid -o log sh -c \
	'sh -c "cat /proc/self/status >/dev/null; echo ok"' >out
t "-b execve -e trace=SET: the detached child's syscalls work" \
	'[ "$(cat out)" = ok ]'

# -- -u USER --------------------------------------------------------------------

# A second uid, probed (test/progs/hostcap): root's CAP_SETUID.
if ! id nobody >/dev/null 2>&1; then
	echo "ok - -u USER # SKIP no user 'nobody'"
elif ! why=$("$O/test/progs/hostcap" uid2); then
	echo "ok - -u USER # SKIP ${why#*: no: }"
else
	want="$(id -u nobody) $(id -g nobody) $(id -G nobody)"
	"$U" -u nobody -o log -e trace=execve,getuid,getgid sh -c \
		'echo $(id -u) $(id -g) $(id -G)' >out
	t "-u nobody: the user's uid, gid and groups" \
		'[ "$(cat out)" = "$want" ] && head -n 1 log | grep -q "^execve(\"/usr/bin/sh\"\|^execve(\"/bin/sh\""'
	t "-u: nothing before the command's execve is traced" \
		'[ $(grep -c "^execve(" log) -ge 1 ] && head -n 1 log | grep -q "^execve("'
	if command -v strace >/dev/null 2>&1; then
		strace -u nobody -o slog -e trace=execve,getuid,getgid,getgroups id >/dev/null
		"$U" -u nobody -o log -e trace=execve,getuid,getgid,getgroups id >/dev/null
		norm <slog >want
		norm <log >got
		if diff -u want got | sed 's/^/# /' >&2 && cmp -s want got; then
			ok "-u nobody id: the trace strace prints"
		else
			nok "-u nobody id: the trace strace prints"
		fi
	else
		echo "ok - -u nobody id: the trace strace prints # SKIP no strace"
	fi
	# A set-user-ID program keeps its owner as effective uid, as strace
	# (not on a nosuid mount, nor with no_new_privs).
	if why=$("$O/test/progs/hostcap" suid "$tmp"); then
		cp "$(command -v id)" suid-id
		chown root suid-id
		chmod 4755 suid-id
		chmod 755 "$tmp"
		"$U" -u nobody -o log ./suid-id -u >out 2>err
		t "-u: a set-user-ID program runs with its owner's euid" \
			'[ "$(cat out)" = 0 ]'
		"$U" -u nobody -o log ./suid-id -ru >out 2>err
		t "-u: ... and the user's real uid" \
			'[ "$(cat out)" = "$(id -u nobody)" ]'
	else
		echo "ok - -u: a set-user-ID program # SKIP ${why#*: no: }"
	fi
fi

# -- -D, -DD, -DDD ----------------------------------------------------------------

# The command prints its parent, its tracer's process group and session,
# and its own; $$ of the outer shell is the parent it must see.
cat >probe <<'EOF'
t=$(awk '/^TracerPid:/ {print $2}' /proc/$$/status)
echo "$PPID $t $(cut -d' ' -f5,6 /proc/$t/stat) $(cut -d' ' -f5,6 /proc/$$/stat)"
EOF
for d in D DD DDD; do
	rm -f log res outer
	sh -c 'echo $$ >outer; exec sh -c "\"$0\" -$1 -o log -e trace=execve,getppid sh probe >res"' "$U" $d
	waitfor 'grep -q "^+++ exited with 0 +++$" log'
	read ppid tr tpg tsid pg sid <res
	outer=$(cat outer)
	case $d in
	D)   cond='[ "$tpg" = "$pg" ] && [ "$tsid" = "$sid" ]' ;;
	DD)  cond='[ "$tpg" = "$tr" ] && [ "$tpg" != "$pg" ] && [ "$tsid" = "$sid" ]' ;;
	DDD) cond='[ "$tsid" = "$tr" ] && [ "$tsid" != "$sid" ]' ;;
	esac
	t "-$d: the command's parent is the shell, the tracer as strace's -$d" \
		'[ "$ppid" = "$outer" ] && [ "$tr" != 0 ] && [ "$tr" != "$outer" ] && eval "$cond" && grep -q "^getppid() *= $outer$" log && head -n 1 log | grep -q "^execve("'
done
"$U" -D -e trace=none sh -c 'exit 5' 2>err
rc=$?
t "-D: the exit status is the command's, utrace says it attached" \
	'[ $rc -eq 5 ] && grep -q "^utrace: Process [0-9]* attached$" err'
