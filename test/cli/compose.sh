#!/bin/sh
# Tools compose: several tools act on one process at once, in the serving
# tracer ("local": the first utrace -p, or utraced) and joined to it
# (utrace -p on a traced process, a queue consumer, utrace --gdb -p); each
# votes, and the most constrained vote wins (utrace(7)).  Every case checks
# what the program saw (its own output) and what each tool's log says: a
# printer beside an injector shows the injected result, and only the tool
# whose injection took effect marks it (INJECTED).
#
# No timing: test/progs/join_prog does one thing per line read from a FIFO
# this script holds, and each tool is known to be in place (it said so)
# before the next line is written.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
UD=$O/utraced
QR=$O/test/cli/qreply
PROG=$O/test/progs/join_prog
KILLS=${COMPOSE_KILLS:-20}
tmp=$(mktemp -d)
pids=
cleanup() {
	exec 3>&- 2>/dev/null
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() {
	echo "not ok - $1"
	for f in out log* err* q* gdbout; do
		[ -s "$f" ] && { echo "# $f:"; sed "s/^/#   /" "$f" | tail -12; }
	done
}
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}
# Wait until a shell condition holds: up to 30 s, polled.
waitfor() {
	w=0
	while [ $w -lt 300 ]; do
		eval "$1" && return 0
		sleep 0.1
		w=$((w + 1))
	done
	return 1
}
state() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }

# Start join_prog, untraced, reading the FIFO in; P its pid.
start_prog() {
	rm -f in out log* err* q*
	tools=
	mkfifo in
	exec 3<>in
	"$PROG" <in >out &
	P=$!
	pids="$pids $P"
	# Blocked in read(0, ...): past its exec and its start, always here.
	waitfor "[ \"\$(cut -d' ' -f1 /proc/$P/syscall 2>/dev/null)\" = 0 ]"
}
# A tool in the background; its pid joins the list waited for at the end.
bg() { "$@" & pids="$pids $!"; tools="$tools $!"; }
# The serving tracer: utrace -p with options (log logN, stderr errN).
serve() {	# N, options...
	n=$1; shift
	bg "$U" -p "$P" -o "log$n" "$@" 2>"err$n"
	waitfor "grep -qs 'attached' err$n"
}
# utraced -p as the serving tracer.
serve_d() {
	bg "$UD" -v -p "$P" 2>errd
	waitfor "grep -qs 'serves' errd"
}
# A joined utrace -p (it must say it joined).
join() {	# N, options...
	n=$1; shift
	bg "$U" -p "$P" -o "log$n" "$@" 2>"err$n"
	waitfor "grep -qs 'attached.*joined' err$n"
}
# A joined queue consumer replying MODE (test/cli/qreply.c).
qreply() {	# N, mode
	bg "$QR" "$P" "$2" >"q$1" 2>"qerr$1"
	waitfor "grep -qs watching q$1"
}
# Send the commands, then q; wait for the program and every tool.
finish() {
	cmds=
	for c in "$@"; do cmds="$cmds$c
"; done
	printf '%sq\n' "$cmds" >&3
	wait "$P"
	prc=$?
	exec 3>&-
	for p in $tools; do wait "$p" 2>/dev/null; done
	tools=
}
# A log's line for an openat of PATH.
line() { grep "openat(AT_FDCWD, \"$2\"" "$1"; }
ENOENT='= -1 ENOENT (No such file or directory)'
injected() { line "$1" "$2" | grep -q "$3 (INJECTED)\$"; }
plain() { line "$1" "$2" | grep -q "$3\$" && ! injected "$1" "$2" "$3"; }
H=/etc/hostname
INJ=--inject=openat:error=ENOENT

# -- An injector and printers on the same syscall ---------------------------

start_prog
serve 1 -e trace=openat "$INJ"
join 2 -e trace=openat
finish "o $H"
t "local injector + joined printer: the program gets ENOENT" \
	"grep -q 'open $H: -2' out"
t "local injector + joined printer: the injector's log marks it, the printer shows it" \
	"injected log1 $H '$ENOENT' && plain log2 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat "$INJ"
join 2 -e trace=openat
join 3 -e trace=openat
finish "o $H"
t "local injector + two joined printers: ENOENT, seen by both printers" \
	"grep -q 'open $H: -2' out && injected log1 $H '$ENOENT' &&
	 plain log2 $H '$ENOENT' && plain log3 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat
join 2 -e trace=openat "$INJ"
finish "o $H"
t "local printer + joined injector: ENOENT, marked by the injector only" \
	"grep -q 'open $H: -2' out && plain log1 $H '$ENOENT' &&
	 injected log2 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat
join 2 -e trace=openat
join 3 -e trace=openat "$INJ"
finish "o $H"
t "local printer + joined printer + joined injector: ENOENT everywhere" \
	"grep -q 'open $H: -2' out && plain log1 $H '$ENOENT' &&
	 plain log2 $H '$ENOENT' && injected log3 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat
join 2 -e trace=openat "$INJ"
join 3 -e trace=openat
finish "o $H"
t "the same, joined in the other order" \
	"grep -q 'open $H: -2' out && plain log1 $H '$ENOENT' &&
	 injected log2 $H '$ENOENT' && plain log3 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat,getppid "$INJ"
join 2 -e trace=getppid --inject=getppid:retval=42
finish "o $H" p
t "local injector + a joiner injecting into another syscall: both happen" \
	"grep -q 'open $H: -2' out && grep -q '^ppid: 42\$' out &&
	 injected log1 $H '$ENOENT' && grep -q '^getppid() *= 42\$' log1 &&
	 grep -q '^getppid() *= 42 (INJECTED)\$' log2"

start_prog
serve 1 -e trace=openat "$INJ"
join 2 -e trace=openat --inject=openat:error=EACCES
finish "o $H"
out=$(grep "open $H" out)
t "two injectors on one syscall: one result, marked by its injector alone" \
	"{ [ \"\$out\" = 'open $H: -2' ] && injected log1 $H '$ENOENT' && plain log2 $H '$ENOENT'; } ||
	 { [ \"\$out\" = 'open $H: -13' ] && injected log2 $H '= -1 EACCES (Permission denied)' &&
	   ! grep -q INJECTED log1; }"

# -- utraced serves; joiners in both orders ---------------------------------

start_prog
serve_d
join 1 -e trace=openat "$INJ"
join 2 -e trace=openat
finish "o $H" "o /nonexistent/x"
t "utraced: joined injector then joined printer" \
	"grep -q 'open $H: -2' out && injected log1 $H '$ENOENT' && plain log2 $H '$ENOENT' &&
	 plain log2 /nonexistent/x '$ENOENT'"

start_prog
serve_d
join 1 -e trace=openat
join 2 -e trace=openat "$INJ"
finish "o $H"
t "utraced: joined printer then joined injector" \
	"grep -q 'open $H: -2' out && plain log1 $H '$ENOENT' && injected log2 $H '$ENOENT'"

# -- Other kinds of injection ------------------------------------------------

start_prog
serve 1 -e trace=getppid --inject=getppid:retval=42
join 2 -e trace=getppid
finish p
t "local retval= + joined printer: the program and both logs see 42" \
	"grep -q '^ppid: 42\$' out && grep -q '^getppid() *= 42 (INJECTED)\$' log1 &&
	 grep -q '^getppid() *= 42\$' log2"

start_prog
serve 1 -e trace=getppid --inject=getppid:signal=SIGUSR1
join 2 -e trace=getppid
finish p s
t "local signal= + joined printer: the handler runs once, both logs show the signal" \
	"grep -q '^usr1 1 usr2 0\$' out && grep -q -- '--- SIGUSR1 ' log1 &&
	 grep -q -- '--- SIGUSR1 ' log2"

start_prog
serve 1 -e trace=openat --inject=openat:delay_enter=200000
join 2 -e trace=openat "$INJ"
finish "o $H"
t "local delay_enter= + joined injector: delayed and failed" \
	"grep -q 'open $H: -2' out && line log1 $H | grep -q '(DELAYED)\$' &&
	 injected log2 $H '$ENOENT'"

start_prog
serve 1 -c "$INJ"
join 2 -e trace=openat
finish "o $H" "o $H"
t "local -c with an injector + joined printer: the table counts both errors" \
	"grep -q 'open $H: -2' out && awk '\$NF == \"openat\" && \$4 == 2' log1 | grep -q . &&
	 [ \"\$(grep -c \"$ENOENT\" log2)\" -eq 2 ]"

start_prog
serve 1 -c
join 2 -e trace=openat "$INJ"
finish "o $H"
t "local -c + joined injector: the counter counts the joiner's error" \
	"grep -q 'open $H: -2' out && awk '\$NF == \"openat\" && \$4 == 1' log1 | grep -q ."

# -- A queue consumer's replies beside an injector and printers --------------

start_prog
serve 1 -e trace=openat "$INJ"
qreply 1 resume
join 2 -e trace=openat
finish "o $H"
t "queue consumer replying RESUME does not undo a local abort" \
	"grep -q 'open $H: -2' out && injected log1 $H '$ENOENT' && plain log2 $H '$ENOENT'"

start_prog
serve 1 -e trace=openat
qreply 1 abort
join 2 -e trace=openat
finish "o $H"
t "queue consumer replying ABORT + return: the program and both printers see EACCES" \
	"grep -q 'open $H: -13' out && plain log1 $H '= -1 EACCES (Permission denied)' &&
	 plain log2 $H '= -1 EACCES (Permission denied)'"

start_prog
serve 1 -e trace=openat
join 2 -e trace=openat
qreply 1 args
finish "o /nonexistent$H"
t "queue consumer replying new arguments: the call opens the new path" \
	"grep -q 'open /nonexistent$H: 0' out && grep -q '^args $H\$' q1"

start_prog
serve 1 -e trace=openat
qreply 1 return
join 2 -e trace=openat
finish "o $H"
t "queue consumer replying a return value at exit: the program sees it" \
	"grep -q 'open $H: -1\$' out && grep -q '^return\$' q1"

start_prog
serve 1 -e trace=getppid --inject=getppid:signal=SIGUSR1
qreply 1 ign
finish p s
t "queue consumer dropping a held signal beside a signal injector" \
	"grep -q '^usr1 0 usr2 0\$' out && grep -q '^ign\$' q1"

start_prog
serve 1 -e trace=none
join 2 -e trace=none
qreply 1 siginfo
kill -USR1 "$P"
finish s
t "queue consumer replacing a held signal's siginfo: the handler sees SIGUSR2" \
	"grep -q '^usr1 0 usr2 1\$' out && grep -q -- '--- SIGUSR1 ' log2"

# -- gdb with a breakpoint on the same syscall's code path -------------------

start_prog
serve 1 -e trace=openat "$INJ"
bg "$U" --gdb=127.0.0.1:0 -p "$P" 2>errg
waitfor "grep -qs 'port [0-9]' errg"
port=$(grep -o 'port [0-9]*' errg | head -1 | cut -d' ' -f2)
printf 'o %s\n' "$H" >&3
timeout 60 gdb -nx -batch -ex 'set sysroot /' -ex "target remote 127.0.0.1:$port" \
	-ex 'break open_path' -ex continue -ex 'print (char *)path' \
	-ex 'finish' -ex detach "$PROG" >gdbout 2>&1
finish
t "joined gdb breaking in the function that opens + local injector" \
	"grep -q 'Breakpoint 1[.0-9]*, open_path' gdbout && grep -q 'Value returned is .* = -2' gdbout &&
	 grep -q 'open $H: -2' out && injected log1 $H '$ENOENT' && ! grep -q SIGTRAP log1"

# -- A tool that dies leaves no mark -----------------------------------------

k=0 bad=0
while [ $k -lt "$KILLS" ]; do
	start_prog
	serve 1 -e trace=openat
	qreply 1 hang
	printf 'o %s\n' "$H" >&3
	waitfor "grep -qs holding q1"
	kill -9 $(echo $tools | cut -d' ' -f2)
	finish "o $H"
	[ "$(grep -c "open $H: 0" out)" = 2 ] && [ $prc = 0 ] &&
		[ "$(grep -c "openat(AT_FDCWD, \"$H\", O_RDONLY) = [0-9]" log1)" = 2 ] ||
		bad=$((bad + 1))
	k=$((k + 1))
done
t "kill -9 of a queue consumer holding a syscall entry, $KILLS times: the program goes on" \
	"[ $bad = 0 ]"

k=0 bad=0
while [ $k -lt "$KILLS" ]; do
	start_prog
	serve 1 -e trace=openat
	join 2 -e trace=openat --inject=openat:error=ENOENT:when=2
	kill -9 $(echo $tools | cut -d' ' -f2)
	finish "o $H" "o $H"
	[ "$(grep -c "open $H: 0" out)" = 2 ] && [ $prc = 0 ] || bad=$((bad + 1))
	k=$((k + 1))
done
t "kill -9 of a joined injector, $KILLS times: no injection after its death" \
	"[ $bad = 0 ]"

t "nothing is left stopped" "[ -z \"\$(ps -o stat= -p $(echo $pids | tr ' ' ,) 2>/dev/null | grep '^[tT]')\" ]"
exit 0
