#!/bin/sh
# utrace --gdb in non-stop mode (issue 20, item 2) against gdbserver: gdb
# with "set non-stop on" holds one thread at a breakpoint, steps it, stops
# another with "interrupt" and the rest with "interrupt -a", lists them,
# resumes them one by one, while the program's ticker thread runs on and
# the utrace printer (-f -o LOG) logs it.  Each
# gdb script runs through gdbserver and through utrace in these forms,
# and the outputs must agree once addresses and pids are normalised:
#   alone   utrace -o LOG --gdb PROG (the log is the main thread's only)
#   -f      utrace -f -o LOG --gdb PROG
#   joined  utrace --stops-only -f -o LOG PROG, then utrace --gdb -p PID
#           joins it (against gdbserver --attach, the program started the
#           same way).  --stops-only: on the record path a thread blocked
#           in a recorded syscall is inside the placed code, and gdb's
#           frames would start there (utrace(1), RECORDS AND STOPS).
# Meanwhile the ticker's file, and the -f and joined logs, must grow while
# the worker is held.  Then the protocol itself, packet by packet, against
# gdbserver: QNonStop, vCont;t, %Stop notifications drained with vStopped,
# '?' with every stopped thread, vCtrlC, QThreadEvents' create and exit.
# The program is test/progs/gdb_thr ticker; only 127.0.0.1 is used.
here=$(cd "$(dirname "$0")" && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs/gdb_thr
for tool in gdb gdbserver python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "ok - gdb non-stop tests # SKIP $tool missing (scripts/deps installs it)"
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

gdb_run() {	# script, output
	timeout 60 gdb -nx -batch -ex 'set sysroot /' -ex 'set non-stop on' \
		-ex "target remote 127.0.0.1:$port" -x "$1" "$P" >"$2" 2>&1
}

# Run by gdb ("shell sh grow.sh") while the worker is held at its
# breakpoint: the ticker's file, and the log $GROW_LOG if set, must grow
# by 100 (bytes, lines) within 20 s.  The verdict goes to grow.res.
cat >grow.sh <<'EOF'
lines() { if [ -n "$GROW_LOG" ]; then wc -l <"$GROW_LOG"; else echo 0; fi; }
t0=$(stat -c %s ticks) l0=$(lines) i=0
while :; do
	t=$(stat -c %s ticks) l=$(lines)
	if [ $((t - t0)) -ge 100 ] && [ $((l - l0)) -ge 100 -o -z "$GROW_LOG" ]; then
		echo grew >grow.res
		exit 0
	fi
	i=$((i + 1))
	if [ $i -gt 400 ]; then
		echo "stuck: ticks $t0 -> $t, log $l0 -> $l" >grow.res
		exit 0
	fi
	sleep 0.05
done
EOF

# Run by gdb ("shell sh parked.sh") once it has set ticking to 2: waits
# (at most 20 s) until the ticker sleeps in read(), parked where
# "interrupt -a" finds it at a known place.
cat >parked.sh <<EOF
i=0
while [ \$i -lt 400 ]; do
	for f in /proc/\$(pgrep -f "^$P ticker $tmp/ticks" | head -1)/task/*/syscall; do
		case \$(cat "\$f" 2>/dev/null) in "0 "*) exit 0 ;; esac
	done
	i=\$((i + 1))
	sleep 0.05
done
echo "the ticker never parked" >&2
EOF

# Run by gdb ("shell sh mainstop.sh") after "interrupt" of main: waits (at
# most 20 s) until main is stopped (t in its stat).  The "print ticking"
# after it is a round trip to the server, by which its stop notification
# has reached gdb: gdb 13 then keeps the next "continue" of the worker to
# itself (a stop is pending), through gdbserver and through utrace alike,
# however fast either sends the notification.
cat >mainstop.sh <<EOF
i=0
while [ \$i -lt 400 ]; do
	p=\$(pgrep -f "^$P ticker $tmp/ticks" | head -1)
	case \$(sed 's/.*) //' /proc/\$p/stat 2>/dev/null) in t*) exit 0 ;; esac
	i=\$((i + 1))
	sleep 0.05
done
echo "main never stopped" >&2
EOF

# Same gdb output and program output as through gdbserver.
# gdb could not read the program's memory as it connected in non-stop
# ("Failed to read a valid object file image from memory", then "Cannot
# insert breakpoint 1"): seen under gdbserver and under utrace, a few
# times in about ten runs of the gdb tests three at a time, never with
# the scenario run alone (test/cli/gdb-nonstop.sh's known problem, in
# issue 20).  Such a run is not compared: skipped, visibly.
start_failed() {	# tag, kind
	grep -q "^Failed to read a valid object file image from memory" \
		raw.$1.$2 2>/dev/null
}

compare() {	# tag, name, kinds...
	tag=$1 name=$2
	shift 2
	for kind in "$@"; do
		if start_failed $tag gdbserver || start_failed $tag $kind; then
			ok "$name ($kind): same gdb and program output as gdbserver # SKIP gdb could not read memory as it connected"
		elif cmp -s out.$tag.gdbserver out.$tag.$kind &&
		   cmp -s prog.$tag.gdbserver prog.$tag.$kind; then
			ok "$name ($kind): same gdb and program output as gdbserver"
		else
			# The end of this side's output and what its server
			# said first: the diff alone may be cut.
			{ echo "== the end of its gdb output, its server's messages"
			  tail -8 out.$tag.$kind
			  tail -6 srv.$tag.$kind 2>/dev/null
			  echo "== the diff with gdbserver's"
			  diff out.$tag.gdbserver out.$tag.$kind
			  diff prog.$tag.gdbserver prog.$tag.$kind; } >d
			nok "$name ($kind): same gdb and program output as gdbserver" d
		fi
	done
}

# The ticker ran on, and the log grew, while gdb held the worker.
grew() {	# tag, name, kinds...
	tag=$1 name=$2
	shift 2
	for kind in "$@"; do
		if start_failed $tag $kind; then
			ok "$name ($kind): the ticker ran on and was logged while the worker was held # SKIP gdb could not read memory as it connected"
			continue
		fi
		t "$name ($kind): the ticker ran on and was logged while the worker was held" \
			'grep -qx grew grow.$tag.$kind' grow.$tag.$kind
	done
}

# A spawned program: breakpoint, steps and interrupt in non-stop.  gdb
# learns of the worker (thread 2) from its breakpoint, then of the ticker.
# Once the ticker has been seen to run on, gdb parks it (ticking = 2);
# main is interrupted in its join, then "interrupt -a" stops the worker
# (which gdb 13 had resumed without telling the target yet: main's stop
# was pending, see mainstop.sh) and the ticker.  Each of gdb's waits ends
# at the first stop it takes, so each interrupted thread is waited for by
# a "continue" of its own, and the worker is left out of the last "info
# threads": whether it has ended by then is gdb's timing, not the
# server's.
cat >s.spawn <<'EOF'
break work
continue -a
info threads
shell sh grow.sh
set var ticking = 2
shell sh parked.sh
thread 2
next
step
bt
finish
next
thread 1
interrupt
shell sh mainstop.sh
print ticking
thread 2
continue
interrupt -a
thread 1
continue
thread 2
continue
thread 3
info threads 1 3
continue
EOF
# Spawned without -f (utrace --gdb PROG) is left out here for now: under
# the load of the other gdb tests, 2 runs in about 10 had utrace close
# gdb's connection at the first "continue -a" ("Remote connection
# closed"), an open bug of issue 20.  Attached without -f is compared.
for kind in gdbserver f; do
	rm -f srv.err log ticks grow.res
	case $kind in
	gdbserver) gdbserver 127.0.0.1:0 "$P" ticker "$tmp/ticks" \
			>prog.spawn.$kind 2>srv.err & ;;
	alone) "$U" -o log --gdb=127.0.0.1:0 "$P" ticker "$tmp/ticks" \
			>prog.spawn.$kind 2>srv.err & ;;
	f) "$U" -f -o log --gdb=127.0.0.1:0 "$P" ticker "$tmp/ticks" \
			>prog.spawn.$kind 2>srv.err & ;;
	esac
	server=$!
	if ! get_port srv.err; then
		nok "spawned ($kind): the server did not start" srv.err
		kill -9 $server 2>/dev/null
		server=
		continue
	fi
	GROW_LOG=
	[ $kind = f ] && GROW_LOG=log
	export GROW_LOG
	gdb_run s.spawn gdb.raw
	reap $server
	server=
	norm <gdb.raw >out.spawn.$kind
	cp grow.res grow.spawn.$kind 2>/dev/null || echo "gdb never ran grow.sh" >grow.spawn.$kind
	cp log log.spawn.$kind 2>/dev/null
	cp srv.err srv.spawn.$kind
	cp gdb.raw raw.spawn.$kind
done
compare spawn "non-stop: a breakpoint, steps and an interrupt in one thread, the others running" f
grew spawn "non-stop, spawned" gdbserver f
t "-f: every thread logged, no SIGTRAP, the end logged" \
	'[ "$(cut -d" " -f1 log.spawn.f | sort -u | wc -l)" -eq 3 ] && grep -q "+++ exited with 0 +++" log.spawn.f && ! grep -q SIGTRAP log.spawn.f' \
	log.spawn.f

# A running program: gdbserver --attach against utrace -p (alone, -f)
# and joined.  The stop at attach (where main is, waiting for the file
# "go") is left out: the script starts with a mark.  The ticker (thread
# 2) runs on from the attach, as under gdbserver in non-stop.
cat >s.attach <<'EOF'
echo ---\n
info threads 1
break work
shell touch go
continue -a
info threads
shell sh grow.sh
set var ticking = 2
shell sh parked.sh
thread 3
next
step
bt
finish
next
thread 1
interrupt
shell sh mainstop.sh
print ticking
thread 3
continue
interrupt -a
thread 1
continue
thread 3
continue
thread 2
info threads 1 2
continue
EOF
for kind in gdbserver alone f joined; do
	rm -f mark go srv.err log log2 ticks grow.res first.err
	if [ $kind = joined ]; then
		"$U" --stops-only -f -o log2 "$P" ticker "$tmp/ticks" \
			"$tmp/mark" "$tmp/go" >prog.attach.$kind 2>first.err &
	else
		"$P" ticker "$tmp/ticks" "$tmp/mark" "$tmp/go" \
			>prog.attach.$kind &
	fi
	first=$!
	wait_for_file mark
	tp=$(pgrep -f "^$P ticker $tmp/ticks" | head -1)
	case $kind in
	gdbserver) gdbserver --attach 127.0.0.1:0 $tp >/dev/null 2>srv.err & ;;
	alone|joined) "$U" --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
	f) "$U" -f -o log --gdb=127.0.0.1:0 -p $tp >/dev/null 2>srv.err & ;;
	esac
	server=$!
	if ! get_port srv.err; then
		nok "attached ($kind): the server did not start" srv.err
		kill -9 $server $tp 2>/dev/null
		server=
		continue
	fi
	GROW_LOG=
	[ $kind = f ] && GROW_LOG=log
	[ $kind = joined ] && GROW_LOG=log2
	export GROW_LOG
	gdb_run s.attach gdb.raw
	reap $server
	server=
	reap $first
	# From the mark on; main's frame in "info threads 1" is where it
	# waited for "go" (a syscall or between two).
	sed '1,/^---$/d' gdb.raw | norm |
		sed '0,/^\* 1 /s/^\(\* 1 Thread PID.TID "gdb_thr"\) .*/\1 FRAME/' \
		>out.attach.$kind
	cp grow.res grow.attach.$kind 2>/dev/null || echo "gdb never ran grow.sh" >grow.attach.$kind
	[ $kind = joined ] && cp log2 log.attach.joined
	[ $kind = f ] && cp log log.attach.f
	cp srv.err srv.attach.$kind
	cp gdb.raw raw.attach.$kind
done
compare attach "non-stop, -p: a breakpoint in a thread born later, steps, an interrupt" alone f joined
grew attach "non-stop, -p" gdbserver alone f joined
t "joined: the first utrace logged every thread, no SIGTRAP, the end logged" \
	'[ "$(cut -d" " -f1 log.attach.joined | sort -u | wc -l)" -eq 3 ] && grep -q "+++ exited with 0 +++" log.attach.joined && ! grep -q SIGTRAP log.attach.joined' \
	log.attach.joined

# The protocol, packet by packet, as gdb sends it in non-stop; thread ids
# become main, w1, w2 (in tid order) or t1 (the first new one), and stop
# replies their signal, thread and reason.
cat >nsp.py <<'EOF'
import os, re, socket, sys, time
port, mode, mark = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
buf, notes, tids, pid = b"", [], {}, 0
def pkt(d): return b"$" + d + b"#" + b"%02x" % (sum(d) & 0xff)
def frame():
    global buf
    while True:
        buf = buf.lstrip(b"+")
        m = re.match(rb"([$%])([^#$%]*)#[0-9a-fA-F]{2}", buf)
        if m:
            buf = buf[m.end():]
            return m.group(1), m.group(2).decode()
        c = s.recv(4096)
        if not c:
            raise SystemExit("connection closed")
        buf += c
def send(d): s.sendall(pkt(d.encode()))
def reply():
    while True:
        k, d = frame()
        if k == b"%":
            notes.append(d)
        else:
            return d
def note():
    while not notes:
        k, d = frame()
        if k == b"%":
            notes.append(d)
        else:
            print("unexpected reply", d)
    d = notes.pop(0)
    return d[5:] if d.startswith("Stop:") else "unexpected " + d
def who(t):
    if t not in tids:
        tids[t] = "main" if t == pid else "t%d" % len(tids)
    return tids[t]
def name(r):
    m = re.match(r"T([0-9a-f]{2}).*?thread:p[0-9a-f]+\.([0-9a-f]+);", r)
    if m:
        why = [x for x in ("swbreak", "create") if x + ":" in r]
        return " ".join(["T" + m.group(1), who(int(m.group(2), 16))] + why)
    m = re.match(r"w([0-9a-f]+);p[0-9a-f]+\.([0-9a-f]+)$", r)
    if m:
        return "w%x %s" % (int(m.group(1), 16), who(int(m.group(2), 16)))
    m = re.match(r"([WX])([0-9a-f]+);process:[0-9a-f]+$", r)
    if m:
        return "%s%x process" % (m.group(1), int(m.group(2), 16))
    return r
def show(label, evs):
    print(label + ":", " | ".join(evs))
def drain(first):
    out = [first]
    while True:
        send("vStopped")
        r = reply()
        if r == "OK":
            return out
        out.append(r)
def collect(n):
    # n stop replies, however they come: each notification's queue is
    # drained, and a stop made after that comes as a new notification.
    out = []
    while len(out) < n:
        out += drain(note())
    return out
send("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+;QThreadEvents+;no-resumed+")
r = reply()
s.sendall(b"+")
print("qSupported: QNonStop+", "QNonStop+" in r.split(";"), "QThreadEvents+", "QThreadEvents+" in r.split(";"))
send("QStartNoAckMode"); print("QStartNoAckMode", reply()); s.sendall(b"+")
send("QNonStop:2"); print("QNonStop:2", reply()[:1])
send("QNonStop:1"); print("QNonStop:1", reply())
send("?"); r = reply()
pid = int(re.search(r"thread:p([0-9a-f]+)\.", r).group(1), 16)
show("?", [name(x) for x in drain(r)])
send("vCont?"); print("vCont? t", "t" in reply().split(";"))
if mode == "idle":
    send("vCont;c"); print("vCont;c", reply())
    for i in range(200):
        if os.path.exists(mark):
            break
        time.sleep(0.1)
    ts = sorted(int(x) for x in os.listdir("/proc/%d/task" % pid))
    for t in ts:
        if t != pid:
            tids[t] = "w%d" % len(tids)
    send("vStopped"); print("vStopped with none", reply())
    send("vCont;t:p%x.-1" % pid); print("vCont;t all", reply())
    show("stops", sorted(name(x) for x in collect(3)))
    send("?"); show("?", sorted(name(x) for x in drain(reply())))
    w1 = [t for t in ts if t != pid][0]
    send("vCont;t:p%x.%x" % (pid, w1)); print("vCont;t stopped w1", reply())
    send("vCont;c:p%x.%x" % (pid, w1)); print("vCont;c w1", reply())
    send("?"); show("? w1 running", sorted(name(x) for x in drain(reply())))
    send("vCont;t:p%x.%x" % (pid, w1)); print("vCont;t w1", reply())
    show("stops", [name(x) for x in collect(1)])
    send("vCont;c"); print("vCont;c", reply())
    # gdbserver sends the process group SIGINT: which thread takes it
    # is the kernel's choice (main, mostly); utrace stops main.
    send("vCtrlC"); print("vCtrlC", reply())
    show("stops", [name(x).split()[0] for x in collect(1)])
    send("vKill;%x" % pid); print("vKill", reply())
else:
    send("QThreadEvents:1"); print("QThreadEvents:1", reply())
    send("vCont;c"); print("vCont;c", reply())
    ev = collect(1); show("stops", [name(x) for x in ev])
    for x in ev:
        m = re.search(r"thread:p[0-9a-f]+\.([0-9a-f]+);", x)
        if m and "create:" in x:
            send("vCont;c:p%x.%s" % (pid, m.group(1)))
            print("vCont;c", name(x).split()[1], reply())
    ev = []
    while not any(x[0] in "WX" for x in ev):
        ev += drain(note())
    show("stops", [name(x) for x in ev])
EOF
for mode in idle once; do
	for kind in gdbserver alone f; do
		rm -f srv.err mark log
		case $kind in
		gdbserver) gdbserver 127.0.0.1:0 "$P" $mode "$tmp/mark" \
				>prog.p$mode.$kind 2>srv.err & ;;
		alone) "$U" -o log --gdb=127.0.0.1:0 "$P" $mode "$tmp/mark" \
				>prog.p$mode.$kind 2>srv.err & ;;
		f) "$U" -f -o log --gdb=127.0.0.1:0 "$P" $mode "$tmp/mark" \
				>prog.p$mode.$kind 2>srv.err & ;;
		esac
		server=$!
		if ! get_port srv.err; then
			nok "protocol, $mode ($kind): the server did not start" srv.err
			kill -9 $server 2>/dev/null
			server=
			continue
		fi
		timeout 60 python3 nsp.py "$port" $mode "$tmp/mark" \
			>out.p$mode.$kind 2>&1
		reap $server
		server=
		cp srv.err srv.p$mode.$kind
	done
done
t "protocol: gdbserver's side as this test expects it" \
	'grep -qx "stops: T00 main | T00 w1 | T00 w2" out.pidle.gdbserver && grep -qx "stops: T05 t1 create" out.ponce.gdbserver' \
	out.pidle.gdbserver
compare pidle "protocol: vCont;t, vStopped, ?, vCtrlC" alone f
compare ponce "protocol: QThreadEvents, a thread's birth and end" alone f
exit 0
