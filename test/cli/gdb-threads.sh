#!/bin/sh
# utrace --gdb on threaded programs against gdbserver (issue 20): every
# thread, with or without -f, spawned, attached with -p and joined to
# another utrace.  Each gdb script runs through gdbserver and through
# utrace in three forms, and the outputs must agree once addresses and
# pids are normalised:
#   alone   utrace --gdb PROG (no -f: the log is the main thread's only,
#           but gdb still debugs every thread, as under gdbserver)
#   -f      utrace -f -o LOG --gdb PROG
#   joined  utrace --stops-only -f -o LOG PROG, then utrace --gdb -p PID
#           joins it (against gdbserver --attach, the program started the
#           same way).  --stops-only: on the record path a thread blocked
#           in a recorded syscall is inside the placed code, and gdb's
#           frames would start there (utrace(1), RECORDS AND STOPS).
# The program is test/progs/gdb_thr, whose threads are always at a known
# place when gdb can stop them.  Only 127.0.0.1 is used.
here=$(cd "$(dirname "$0")" && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs/gdb_thr
for tool in gdb gdbserver; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "ok - gdb thread tests # SKIP $tool missing (scripts/deps installs it)"
		exit 0
	fi
done
tmp=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill -9 "$server" 2>/dev/null
	# This test's only (its session: run-tests gives each test one).
	pkill -9 -s 0 -f "^$P " 2>/dev/null
	[ -n "$GDB_TEST_KEEP" ] || rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
. "$here/gdb.inc"

# Hardware breakpoints and watchpoints: some virtual machines never trap.
hw=$("$O/test/progs/hostcap" hwbp 2>&1)
hw_ok=$?
[ $hw_ok -eq 0 ] || hw=${hw#hwbp: no: }

gdb_run() {	# script, output
	timeout 60 gdb -nx -batch -ex 'set sysroot /' \
		-ex "target remote 127.0.0.1:$port" -x "$1" "$P" >"$2" 2>&1
}

# A spawned program: one script through gdbserver and utrace (alone, -f).
spawned() {	# tag, name, mode, script
	tag=$1 name=$2 mode=$3 script=$4
	for kind in gdbserver alone f; do
		rm -f srv.err log
		case $kind in
		gdbserver) gdbserver 127.0.0.1:0 "$P" $mode >prog.$kind 2>srv.err & ;;
		alone) "$U" -o log --gdb=127.0.0.1:0 "$P" $mode >prog.$kind 2>srv.err & ;;
		f) "$U" -f -o log --gdb=127.0.0.1:0 "$P" $mode >prog.$kind 2>srv.err & ;;
		esac
		server=$!
		if ! get_port srv.err; then
			nok "$name ($kind): the server did not start" srv.err
			kill -9 $server 2>/dev/null
			server=
			return
		fi
		gdb_run "$script" gdb.raw
		reap $server
		server=
		norm <gdb.raw >"out.$tag.$kind"
		cp log "log.$tag.$kind" 2>/dev/null
	done
	for kind in alone f; do
		if cmp -s out.$tag.gdbserver out.$tag.$kind &&
		   cmp -s prog.gdbserver prog.$kind; then
			ok "$name ($kind): same gdb and program output as gdbserver"
		else
			{ diff out.$tag.gdbserver out.$tag.$kind
			  diff prog.gdbserver prog.$kind; } >d
			nok "$name ($kind): same gdb and program output as gdbserver" d
		fi
	done
}

# A running program (mode late or idle): gdbserver --attach against utrace
# -p (alone, -f) and joined.  The frames of the stop at attach depend on
# timing and are left out.
attached() {	# tag, name, mode, script
	tag=$1 name=$2 mode=$3 script=$4
	for kind in gdbserver alone f joined; do
		rm -f mark go srv.err log log2 first.err
		if [ $kind = joined ]; then
			"$U" --stops-only -f -o log2 "$P" $mode "$tmp/mark" \
				"$tmp/go" >prog.$kind 2>first.err &
			first=$!
		else
			"$P" $mode "$tmp/mark" "$tmp/go" >prog.$kind &
			first=$!
		fi
		wait_for_file mark
		tp=$(pgrep -f "^$P $mode $tmp/mark" | head -1)
		case $kind in
		gdbserver) gdbserver --attach 127.0.0.1:0 $tp >/dev/null 2>srv.err & ;;
		alone|joined) "$U" --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
		f) "$U" -f -o log --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
		esac
		server=$!
		if ! get_port srv.err; then
			nok "$name ($kind): the server did not start" srv.err
			kill -9 $server $tp 2>/dev/null
			server=
			continue
		fi
		sed "s|GO|$tmp/go|" "$script" >s.run
		gdb_run s.run gdb.raw
		reap $server
		server=
		reap $first
		# The first line: the frame where the attach stopped it.
		sed 1d gdb.raw | grep -v '^0x[0-9a-f]* in \|^[0-9]*	' | norm \
			>"out.$tag.$kind"
		[ $kind = joined ] && cp log2 "log.$tag.joined"
	done
	for kind in alone f joined; do
		if cmp -s out.$tag.gdbserver out.$tag.$kind &&
		   cmp -s prog.gdbserver prog.$kind; then
			ok "$name ($kind): same gdb and program output as gdbserver --attach"
		else
			{ diff out.$tag.gdbserver out.$tag.$kind
			  diff prog.gdbserver prog.$kind; } >d
			nok "$name ($kind): same gdb and program output as gdbserver --attach" d
		fi
	done
}

# Issue 20's first program: a breakpoint in a thread born after target
# remote (it killed the program with SIGTRAP without -f).  Where main is
# then (still in clone3, or waiting in its join) is up to the scheduler.
cat >s.once <<'EOF'
break touch
continue
thread
print $_inferior_thread_count
continue
EOF
spawned once "a breakpoint in a thread born after target remote" once s.once
t "without -f the log is the main thread's, no SIGTRAP" \
	'grep -q "+++ exited with 0 +++" log.once.alone && ! grep -q "^\[pid\|SIGTRAP" log.once.alone' \
	log.once.alone

cat >s.tbt <<'EOF'
break hit
continue
info threads
thread apply all bt
continue
EOF
spawned tbt "threads at a breakpoint: info threads, thread apply all bt" \
	park s.tbt

# Stepping in a worker; the worker exits while the other one is held.
cat >s.twork <<'EOF'
break work
continue
info threads
next
next
step
bt
finish
continue
info threads
thread apply all bt 1
delete
continue
EOF
spawned twork "breakpoints and stepping in workers, a worker exiting" \
	park s.twork
t "-f: every thread logged, no SIGTRAP" \
	'[ "$(cut -d" " -f1 log.twork.f | sort -u | wc -l)" -eq 3 ] && grep -q "+++ exited with 0 +++" log.twork.f && ! grep -q SIGTRAP log.twork.f' \
	log.twork.f

# Debug registers set before the workers are born are in force in them.
cat >s.twatch <<'EOF'
watch total
continue
bt 1
continue
bt 1
delete
continue
EOF
cat >s.thbreak <<'EOF'
hbreak twice
continue
bt 1
continue
bt 1
delete
continue
EOF
if [ $hw_ok -eq 0 ]; then
	spawned twatch "a watchpoint set before the threads are born" park \
		s.twatch
	spawned thbreak "a hardware breakpoint set before the threads are born" \
		park s.thbreak
else
	for n in "a watchpoint" "a hardware breakpoint"; do
		for kind in alone f; do
			echo "ok - $n set before the threads are born ($kind) # SKIP $hw"
		done
	done
fi

# -p of a process whose threads exist already.
cat >s.pthreads <<'EOF'
info threads
thread apply all bt
kill
EOF
attached pthreads "-p of a threaded process: every thread, numbered as gdbserver" \
	idle s.pthreads

# Threads born after gdb attached or joined.
cat >s.late <<'EOF'
break work
shell touch GO
continue
info threads
bt 1
continue
info threads
delete
continue
EOF
attached late "-p, threads born later: breakpoints in them" late s.late
t "joined: the first utrace logged every thread, no SIGTRAP" \
	'grep -q "+++ exited with 0 +++" log.late.joined && ! grep -q SIGTRAP log.late.joined' \
	log.late.joined

cat >s.latewatch <<'EOF'
watch total
shell touch GO
continue
continue
delete
continue
EOF
if [ $hw_ok -eq 0 ]; then
	attached latewatch "-p, threads born later: a watchpoint in them" late \
		s.latewatch
else
	for kind in alone f joined; do
		echo "ok - -p, threads born later: a watchpoint in them ($kind) # SKIP $hw"
	done
fi

# Reconnect: a gdb killed (kill -9) while it holds the process, then a
# new gdb.  gdbserver keeps the process stopped for the next gdb; utrace
# lets it run on as it found it (issue 18) and stops it again for the new
# one: with every thread asleep, both show the next gdb the same.
cat >s.recon1 <<'EOF'
info threads
shell kill -9 $PPID
EOF
cat >s.recon2 <<'EOF'
info threads
thread apply all bt
kill
EOF
for kind in gdbserver alone f joined; do
	rm -f mark go srv.err log log2
	if [ $kind = joined ]; then
		"$U" --stops-only -f -o log2 "$P" idle "$tmp/mark" \
			>prog.$kind 2>first.err &
	else
		"$P" idle "$tmp/mark" >prog.$kind &
	fi
	first=$!
	wait_for_file mark
	tp=$(pgrep -f "^$P idle $tmp/mark" | head -1)
	case $kind in
	gdbserver) gdbserver --attach 127.0.0.1:0 $tp >/dev/null 2>srv.err & ;;
	alone|joined) "$U" --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
	f) "$U" -f -o log --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
	esac
	server=$!
	if ! get_port srv.err; then
		nok "reconnect ($kind): the server did not start" srv.err
		kill -9 $server $tp 2>/dev/null
		server=
		continue
	fi
	gdb_run s.recon1 gdb1.raw
	gdb_run s.recon2 gdb.raw
	reap $server
	server=
	reap $first
	norm <gdb.raw >"out.recon.$kind"
	cat srv.err >"out.recon.$kind.err"
done
for kind in alone f joined; do
	if [ -s out.recon.$kind ] &&
	   cmp -s out.recon.gdbserver out.recon.$kind; then
		ok "reconnect after kill -9 of gdb ($kind): the next gdb sees what it sees through gdbserver"
	else
		diff out.recon.gdbserver out.recon.$kind >d
		nok "reconnect after kill -9 of gdb ($kind): the next gdb sees what it sees through gdbserver" \
			d out.recon.$kind.err
	fi
done

# Ctrl-C while the process is stopped (gdb sends one when interrupted
# while it reads files through the target): the next resume stops at once
# with SIGINT, as under gdbserver; utrace used to drop it, and gdb then
# waited for a stop that never came.
if command -v python3 >/dev/null 2>&1; then
	cat >intr.py <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(20)
def pkt(d): return b"$" + d + b"#" + b"%02x" % (sum(d) & 0xff)
def reply():
    buf = b""
    while True:
        c = s.recv(1)
        if not c: return buf
        buf += c
        if b"$" in buf and len(buf) >= 3 and buf[-3:-2] == b"#": return buf
s.sendall(pkt(b"qSupported:multiprocess+")); reply(); s.sendall(b"+")
s.sendall(pkt(b"QStartNoAckMode")); reply(); s.sendall(b"+")
s.sendall(pkt(b"?")); reply()
s.sendall(b"\x03")
s.sendall(pkt(b"vCont;c"))
r = reply()
print(r[r.index(b"$") + 1:][:3].decode())
s.sendall(pkt(b"vKill;" + sys.argv[2].encode()))
EOF
	for kind in gdbserver alone; do
		rm -f srv.err mark
		if [ $kind = gdbserver ]; then
			gdbserver 127.0.0.1:0 "$P" idle "$tmp/mark" >/dev/null 2>srv.err &
		else
			"$U" --gdb=127.0.0.1:0 "$P" idle "$tmp/mark" >/dev/null 2>srv.err &
		fi
		server=$!
		get_port srv.err
		tp=$(pgrep -f "^$P idle $tmp/mark" | head -1)
		timeout 30 python3 intr.py "$port" "$(printf %x "$tp")" >intr.$kind 2>&1
		reap $server
		server=
	done
	t "Ctrl-C while stopped: the next resume stops with SIGINT, as under gdbserver" \
		'grep -q "^T02" intr.gdbserver && cmp -s intr.gdbserver intr.alone' intr.alone
fi
exit 0
