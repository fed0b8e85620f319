#!/bin/sh
# utrace's output is live: every line reaches its sink (a file, a pipe,
# stderr, -ff files, -o '|cmd') while the tracee is still running, as soon
# as the tracee waits; and a kill of utrace leaves only whole lines.
#
# No timing: the tracee writes, then blocks reading a FIFO this script
# holds; the script waits (up to a generous bound) for the line to appear
# and only then lets the tracee go on.  Output that waits for utrace's end
# can never appear, and the test fails at the bound.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
tmp=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | head -20; }
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}
# Wait until a shell condition holds: up to 30 s, polled.
waitfor() {
	i=0
	while [ $i -lt 300 ]; do
		eval "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

mkfifo go
# The tracee: opens the FIFO without blocking (read-write), says "a",
# waits for a line on the FIFO, says it back, and ends.
TR='exec 3<>go; echo a; read x <&3; echo "$x"'
A='write(1, "a\n", 2)'
B='write(1, "b\n", 2)'

live() {	# name, file to watch, utrace options...
	name=$1; f=$2; shift 2
	rm -f log err
	if [ "$f" = err ]; then
		# stderr is a pipe (to cat), not a file.
		sh -c '"$0" "$@" 2>&1 >/dev/null | cat >err' \
			"$U" "$@" -e trace=write sh -c "$TR" &
	else
		"$U" "$@" -e trace=write sh -c "$TR" >/dev/null 2>err &
	fi
	up=$!
	pids="$pids $up"
	if waitfor "grep -qsF '$A' $f"; then
		# Still blocked in read: nothing after the line is written.
		got=$(grep -F -A1 "$A" $f | tail -n +2)
		echo b >go
		wait $up
		rc=$?
		t "$name: the line is out while the tracee runs" \
			'[ $rc -eq 0 ] && [ -z "$got" ] && grep -qsF "$B" $f'
	else
		nok "$name: the line is out while the tracee runs"
		echo b >go
		wait $up
	fi
}

live "-o FILE" log -o log
live "stderr, a pipe" err
live "-o '|cmd'" piped -o '|cat >piped'
live "-o FILE -q (implied quiet)" log -q -o log
rm -f ff.*
"$U" -ff -o ff -e trace=write sh -c "$TR" >/dev/null 2>err &
up=$!
pids="$pids $up"
if waitfor "grep -qsF '$A' ff.*"; then r=0; else r=1; fi
echo b >go
wait $up
t "-ff: the line is out in the process's file while it runs" '[ $r -eq 0 ]'

# A terminal sees the open line too, as with strace: "read(0, " while
# the call blocks.  script(1) gives utrace a terminal.
if command -v script >/dev/null 2>&1; then
	script -qfc "$U -e trace=read sh -c 'exec 3<>go; read x <&3'" \
		/dev/null </dev/null >ttyout 2>&1 &
	up=$!
	pids="$pids $up"
	waitfor '[ "$(tail -c 8 ttyout)" = "read(0, " ]'
	r=$?
	echo b >go
	wait $up
	t "a terminal gets the open line of a blocked call" '[ $r -eq 0 ]'
else
	echo "ok - a terminal gets the open line # SKIP no script(1)"
fi

# -p PID on a quiet process: "attached" at once, then each line.
sh -c "$TR" >/dev/null &
sp=$!
pids="$pids $sp"
waitfor "grep -q '^State:.S' /proc/$sp/status && [ \"\$(readlink /proc/$sp/fd/3)\" ]"
"$U" -p $sp 2>err &
up=$!
pids="$pids $up"
waitfor "grep -q 'Process $sp attached' err"
r=$?
echo b >go
waitfor "grep -qF '$B' err"
r2=$?
t "-p PID: attached message and lines as they happen" \
	'[ $r -eq 0 ] && [ $r2 -eq 0 ]'
wait $up

# A file after a kill -9 of utrace: whole lines only, however much was
# written (more than one batch of 64 KiB).
"$U" -o big sh -c "echo \$\$ >pid; exec $O/test/progs/getppid_loop 100000000" &
up=$!
pids="$pids $up"
waitfor '[ -s pid ] && [ $(stat -c %s big) -gt 300000 ]'
kill -9 $up
wait $up 2>/dev/null
kill -9 "$(cat pid)" 2>/dev/null
last=$(tail -c 1 big | od -An -c | tr -d ' ')
t "kill -9 of utrace: the file ends with a whole line" \
	'[ $(stat -c %s big) -gt 300000 ] && [ "$last" = "\\n" ] && tail -n 1 big | grep -Eq "^getppid\(\) += [0-9]+$"'

# The same through a pipe to a command that outlives utrace.
"$U" -o '|cat >bigp; echo >catdone' sh -c "echo \$\$ >pid2; exec $O/test/progs/getppid_loop 100000000" &
up=$!
pids="$pids $up"
waitfor '[ -s pid2 ] && [ $(stat -c %s bigp) -gt 300000 ]'
kill -9 $up
wait $up 2>/dev/null
kill -9 "$(cat pid2)" 2>/dev/null
waitfor '[ -f catdone ]'
last=$(tail -c 1 bigp | od -An -c | tr -d ' ')
t "kill -9 of utrace: -o '|cmd' got whole lines" \
	'[ "$last" = "\\n" ] && tail -n 1 bigp | grep -Eq "^getppid\(\) += [0-9]+$"'
