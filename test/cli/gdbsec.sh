#!/bin/sh
# utrace --gdb from other uids: the stub serves a gdb only if that gdb
# could ptrace(2) the program itself, and each peer's verdict is compared
# with the kernel's own (a native PTRACE_SEIZE of an untraced twin with
# the program's credentials).  Over TCP on 127.0.0.1 and over a Unix
# socket, with the program run as root and as uid 65534, peers of uid
# 65534, of another uid, root without CAP_SYS_PTRACE and root; vFile with
# the peer's rights (/etc/shadow); a set-user-ID exec under a connected
# gdb; addresses other hosts reach; then random malformed packets against
# a live stub, which must answer each, never crash or hang, and leave the
# program as it was.
here=$(cd "$(dirname "$0")" && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs/gdbsec_prog
HC=$O/test/progs/hostcap
. "$here/gdb.inc"

# Python for every uid: a per-user shim (pyenv) may be root's only.
PY=/usr/bin/python3
if [ ! -x "$PY" ]; then
	echo "ok - gdb port from other uids # SKIP no /usr/bin/python3"
	exit 0
fi
for cap in uid2 uid2-exec; do
	if ! why=$("$HC" $cap); then
		echo "ok - gdb port from other uids # SKIP ${why#*: no: }"
		exit 0
	fi
done
# Root without CAP_SYS_PTRACE (util-linux's setpriv drops it).
caps_ok=yes
setpriv --inh-caps=-sys_ptrace --bounding-set=-sys_ptrace true 2>/dev/null ||
	caps_ok=
tmp=$(mktemp -d)
chmod 755 "$tmp"
srv=
twin=
cleanup() {
	[ -n "$srv" ] && kill -9 "$srv" 2>/dev/null
	[ -n "$twin" ] && kill -9 "$twin" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

cat >client.py <<'EOF'
import ctypes, os, random, socket, sys, time

def native(pid):
    # The kernel's own verdict: may this process ptrace pid?
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                            ctypes.c_void_p]
    if libc.ptrace(0x4206, pid, None, None) == 0:   # PTRACE_SEIZE
        return "allowed"                           # detached at our exit
    return "denied"

def connect(addr):
    if addr.startswith("/"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(addr)
    else:
        host, port = addr.rsplit(":", 1)
        s = socket.create_connection((host, int(port)))
        # As gdb: an ack and the next packet are not held back.
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.settimeout(10)
    return s

def frame(d):
    return b"$" + d + b"#" + b"%02x" % (sum(d) & 0xff)

class Gdb:
    def __init__(self, addr):
        self.s = connect(addr)
        self.buf = b""

    def raw(self, data):
        self.s.sendall(data)

    def read_reply(self):
        # The data of the next packet, acks and noise skipped; None at EOF.
        while True:
            i = self.buf.find(b"$")
            j = self.buf.find(b"#", i) if i >= 0 else -1
            if i >= 0 and j >= 0 and len(self.buf) >= j + 3:
                d = self.buf[i + 1:j]
                self.buf = self.buf[j + 3:]
                self.s.sendall(b"+")
                return d
            c = self.s.recv(65536)
            if not c:
                return None
            self.buf += c

    def ask(self, d):
        self.s.sendall(frame(d))
        return self.read_reply()

def hexs(t):
    return t.encode().hex().encode()

def show(r):
    return "EOF" if r is None else r.decode("latin1")[:120]

def probe(addr, twin):
    print("native", native(int(twin)))
    if os.environ.get("UNDUMP"):
        # Not dumpable: an unprivileged server cannot look at our
        # /proc/PID/ns (our maps tell it our user namespace).
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)      # PR_SET_DUMPABLE
    try:
        g = Gdb(addr)
    except OSError as e:
        print("connect", "EACCES" if e.errno == 13 else e.strerror)
        return
    print("qSupported", show(g.ask(b"qSupported:multiprocess+"))[:20])
    stop = g.ask(b"?")
    print("stop", show(stop))
    regs = g.ask(b"g")
    print("regs", "hex" if regs and regs[:1] not in (b"E", b"") else show(regs))
    rip = b"0"
    if regs and regs[:1] != b"E":
        rip = int.from_bytes(bytes.fromhex(regs[256:272].decode()),
                             "little")
        rip = b"%x" % rip
    mem = g.ask(b"m" + rip + b",4")
    print("mem", "hex" if mem and mem[:1] != b"E" else show(mem))
    for f in ("/etc/shadow", "/etc/passwd"):
        r = g.ask(b"vFile:open:" + hexs(f) + b",0,0")
        print("vFile", f, show(r))
        if r and r.startswith(b"F") and not r.startswith(b"F-"):
            g.ask(b"vFile:close:" + r[1:])
    if os.environ.get("END"):
        print("end", show(g.ask(os.environ["END"].encode())))

def setuid_exec(addr):
    # Served, then the program executes a set-user-ID one: the
    # connection ends rather than the peer keep a root process.
    g = Gdb(addr)
    print("stop", show(g.ask(b"?"))[:3])
    g.raw(frame(b"vCont;c"))
    r = g.read_reply()
    print("after exec", show(r))

# -- Random malformed packets --------------------------------------------
# Packets that would change the program are only ever sent malformed;
# the read-only ones are sent any way.  Each must be answered.
def bad_hex(rng):
    return rng.choice([b"zz", b"g", b"0x1", b"-1", b"", b"1 2", b"\x7f"])

def mutate_write(rng, page):
    a = b"%x" % (page + rng.randrange(0, 4096))
    n = rng.randrange(1, 9)
    data = bytes(rng.randrange(256) for _ in range(n))
    esc = bytearray()
    for c in data:
        if c in b"$#}*":
            esc += b"}" + bytes([c ^ 0x20])
        else:
            esc.append(c)
    esc = bytes(esc)
    hx = data.hex().encode()
    k = rng.randrange(14)
    if k == 0:
        return b"X" + a + b",%x:" % n + esc + b"}"          # lone escape
    if k == 1:
        return b"X" + a + b",%x:" % (n + rng.randrange(1, 4)) + esc
    if k == 2:
        return b"X" + a + b",%x:" % n + esc + b"a"
    if k == 3:
        return b"M" + a + b",%x:" % n + hx[:-1]            # odd
    if k == 4:
        return b"M" + a + b",%x:" % n + hx[:-2] + bad_hex(rng)[:2].ljust(2, b"q")
    if k == 5:
        return b"M" + a + b",%x" % n + hx                  # no ':'
    if k == 6:
        return rng.choice([b"X", b"M"]) + bad_hex(rng) + b",%x:" % n + hx
    if k == 7:
        return b"G" + b"00" * rng.randrange(1, 40) + b"0"  # half a byte
    if k == 8:
        return b"G" + b"00" * rng.randrange(0, 8) + b"zz"
    if k == 9:
        return b"P%x=" % rng.randrange(0, 80) + hx[:rng.randrange(0, 6)] + bad_hex(rng)
    if k == 10:
        return rng.choice([b"Z", b"z"]) + b"%d," % rng.randrange(0, 5) + a + \
            rng.choice([b"", b",", b",1;X2,00", b",1x", b";1"])
    if k == 11:
        return rng.choice([b"c", b"s"]) + bad_hex(rng)[:1].replace(b"", b"q", 1) + b"x"
    if k == 12:
        return rng.choice([b"C", b"S"]) + rng.choice([b"", b"zz", b"05;", b"05;zz", b"05x"])
    return rng.choice([b"vCont;", b"vCont;cx", b"vCont;c:pzz", b"vCont;q",
                       b"vCont;C", b"vCont;c;s:p1.zz", b"Dx", b"D;zz",
                       b"vKill;", b"vKill;1x", b"vAttach;x", b"vRun;zz",
                       b"vRun;2f6", b"vRun;2f;zz", b"QCatchSyscalls:2",
                       b"QCatchSyscalls:1;zz", b"QPassSignals:zz",
                       b"QStartNoAckModeX", b"Hgzz", b"Hc", b"T1x"])

def read_only(rng, page):
    k = rng.randrange(8)
    if k == 0:
        return b"m%x,%x" % (rng.choice([page, 0, rng.getrandbits(64)]),
                            rng.randrange(0, 0x5000))
    if k == 1:
        return b"p%x" % rng.randrange(0, 90)
    if k == 2:
        return rng.choice([b"g", b"?", b"qC", b"qfThreadInfo",
                           b"qsThreadInfo", b"qAttached", b"vCont?",
                           b"qXfer:threads:read::0,100"])
    if k == 3:
        return b"qXfer:features:read:target.xml:%x,%x" % (
            rng.randrange(0, 0x4000), rng.randrange(0, 0x5000))
    if k == 4:
        return b"vFile:open:" + hexs(rng.choice(["/proc/self/maps",
               "/nonexistent", "/etc/passwd"])) + b",0,0"
    if k == 5:
        return b"vFile:pread:%x,%x,%x" % (rng.randrange(0, 20),
               rng.randrange(0, 0x5000), rng.randrange(0, 100))
    if k == 6:
        return b"vFile:close:%x" % rng.randrange(0, 20)
    return b"q" + bytes(rng.randrange(0x20, 0x7f) for _ in
                        range(rng.randrange(0, 30))).replace(b"$", b"").replace(b"#", b"")

def fuzz(addr, out, count, seed):
    rng = random.Random(seed)
    g = Gdb(addr)
    assert g.ask(b"?")[:1] == b"T"
    g.raw(frame(b"vCont;c"))
    stop = g.read_reply()                  # the program's SIGUSR1
    assert stop.startswith(b"T1e"), stop
    page = int(open(out).read().split()[1], 16)
    regs = g.ask(b"g")
    mem = g.ask(b"m%x,1000" % page)
    answered = 0
    for i in range(count):
        k = rng.randrange(10)
        if k < 6:
            p = mutate_write(rng, page)
            r = g.ask(p)
            assert r is not None, "no answer to %r" % p
            assert not r.startswith(b"OK") and r[:1] not in b"TSWX" or r == b"", \
                "%r answered %r" % (p, r)
            answered += 1
        elif k < 9:
            p = read_only(rng, page)
            assert g.ask(p) is not None, "no answer to %r" % p
            answered += 1
        else:
            # Framing: a bad checksum (a '-'), noise, a NUL, an overlong one.
            j = rng.randrange(4)
            if j == 0:
                g.raw(b"$m0,1#00")
                c = b""
                while c != b"-":
                    c = g.s.recv(1)
                    assert c, "EOF after a bad checksum"
            elif j == 1:
                g.raw(bytes(rng.randrange(0x20, 0x7f) for _ in range(20))
                      .replace(b"$", b"").replace(b"-", b"").replace(b"\x03", b""))
            elif j == 2:
                assert g.ask(b"m0\x00,1")[:1] == b"E"
            else:
                assert g.ask(b"m" + b"0" * 40000) == b"E01"
            answered += 1
    assert g.ask(b"g") == regs, "registers changed"
    assert g.ask(b"m%x,1000" % page) == mem, "memory changed"
    print("fuzz", count, "packets answered", answered, "seed", seed)
    print("detach", show(g.ask(b"D")))

what = sys.argv[1]
if what == "probe":
    probe(sys.argv[2], sys.argv[3])
elif what == "setuid":
    setuid_exec(sys.argv[2])
else:
    fuzz(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
EOF
chmod 644 client.py

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_other() { setpriv --reuid=12345 --regid=12345 --clear-groups "$@"; }
as_rootnocap() { setpriv --inh-caps=-sys_ptrace --bounding-set=-sys_ptrace "$@"; }

# utrace ARGS... in the background: $srv, and $addr once it listens.
serve() {	# addr-kind (tcp|path), utrace args...
	kind=$1
	shift
	rm -f srv.err log out
	"$@" >out 2>srv.err &
	srv=$!
	wait_for srv.err 'listening on' || { cat srv.err; return 1; }
	if [ "$kind" = tcp ]; then
		addr=127.0.0.1:$(grep -o 'port [0-9]*' srv.err | cut -d' ' -f2)
	else
		addr=$kind
	fi
}
finish() {
	i=0
	while kill -0 "$srv" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	srv=
}
# An untraced process with the program's credentials: what ptrace says
# of it natively is what the stub must say of the program.
twin_start() {	# uid
	setpriv --reuid="$1" --regid="$1" --clear-groups sleep 100 &
	twin=$!
}
twin_stop() { kill -9 "$twin" 2>/dev/null; wait "$twin" 2>/dev/null; twin=; }

# The peer was refused everything: each request got the refusal.
refused() {	# file
	grep -q '^native denied' "$1" &&
	grep -q '^stop E.utrace: ' "$1" || return 1
	for k in regs mem; do
		grep -q "^$k E.utrace: uid [0-9]* (pid [0-9]*) may not debug process [0-9]* (it could not ptrace it)" "$1" || return 1
	done
	[ "$(grep -c '^vFile .* E.utrace: ' "$1")" -eq 2 ]
}
# The peer was served, and read files as itself.
served() {	# file, what /etc/shadow gave
	grep -q '^native allowed' "$1" && grep -q '^stop T' "$1" &&
	grep -q '^regs hex' "$1" && grep -q '^mem hex' "$1" &&
	grep -q "^vFile /etc/shadow $2\$" "$1" &&
	grep -q '^vFile /etc/passwd F[0-9]' "$1"
}

# -- TCP, the program run as root -----------------------------------------

serve tcp "$U" -o log --gdb=127.0.0.1:0 "$P" wait || exit 1
twin_start 0
as_nobody "$PY" client.py probe "$addr" "$twin" >nobody.out 2>&1
t "TCP, root's program: uid 65534 gets nothing (registers, memory, vFile /etc/shadow), as ptrace" \
	'refused nobody.out && grep -q "refused a gdb connection: uid 65534 (pid [0-9]*) may not debug" srv.err' \
	nobody.out
if [ -n "$caps_ok" ]; then
	as_rootnocap "$PY" client.py probe "$addr" "$twin" >nocap.out 2>&1
	t "TCP, root's program: root without CAP_SYS_PTRACE is refused, as by ptrace" \
		'refused nocap.out && grep -q "uid 0 (pid [0-9]*) may not debug" nocap.out' nocap.out
else
	ok "root without CAP_SYS_PTRACE # SKIP setpriv cannot drop capabilities"
fi
END=k "$PY" client.py probe "$addr" "$twin" >root.out 2>&1
twin_stop
finish
t "TCP, root's program: root is served, vFile with root's rights" \
	'served root.out "F[0-9]*" && grep -q "gdb connected to process [0-9]*: uid 0" srv.err' \
	root.out

# -- TCP, the program run as uid 65534 --------------------------------------

serve tcp "$U" -u nobody -o log --gdb=127.0.0.1:0 "$P" wait || exit 1
twin_start 65534
END=D as_nobody "$PY" client.py probe "$addr" "$twin" >own.out 2>&1
{ cat own.out; cat srv.err; } >own.all
t "TCP, uid 65534's program: uid 65534 is served, vFile as uid 65534 (/etc/shadow: EACCES)" \
	'served own.out "F-1,d" && grep -q "^end OK" own.out' own.all
# The process it left waits for the next gdb, checked again.
as_other "$PY" client.py probe "$addr" "$twin" >other.out 2>&1
t "TCP, uid 65534's program: another uid (12345) is refused, as by ptrace" \
	'refused other.out' other.out
if [ -n "$caps_ok" ]; then
	as_rootnocap "$PY" client.py probe "$addr" "$twin" >nocap2.out 2>&1
	t "TCP, uid 65534's program: root without CAP_SYS_PTRACE is refused, as by ptrace" \
		'refused nocap2.out' nocap2.out
fi
END=k as_nobody "$PY" client.py probe "$addr" "$twin" >own2.out 2>&1
twin_stop
finish
t "TCP, uid 65534's program: served again after the refusals" \
	'served own2.out "F-1,d"' own2.out

# -- A Unix socket, the program run as root ---------------------------------

serve "$tmp/g.sock" "$U" -o log --gdb="$tmp/g.sock" "$P" wait || exit 1
mode=$(stat -c %a "$tmp/g.sock")
twin_start 0
as_nobody "$PY" client.py probe "$tmp/g.sock" "$twin" >unobody.out 2>&1
t "Unix socket: its owner's only (mode $mode); uid 65534 cannot connect" \
	'[ "$mode" = 600 ] && grep -q "^native denied" unobody.out && grep -q "^connect EACCES" unobody.out' \
	unobody.out
if [ -n "$caps_ok" ]; then
	as_rootnocap "$PY" client.py probe "$tmp/g.sock" "$twin" >unocap.out 2>&1
	t "Unix socket: root without CAP_SYS_PTRACE connects and is refused (SO_PEERCRED)" \
		'refused unocap.out' unocap.out
fi
END=k "$PY" client.py probe "$tmp/g.sock" "$twin" >uroot.out 2>&1
twin_stop
finish
t "Unix socket: root is served" 'served uroot.out "F[0-9]*"' uroot.out

# -- A Unix socket of a utrace run by uid 65534 ------------------------------

mkdir nb && chown 65534:65534 nb
serve "$tmp/nb/g.sock" as_nobody "$U" -o nb/log --gdb="$tmp/nb/g.sock" "$P" wait ||
	exit 1
twin_start 65534
if [ -n "$caps_ok" ]; then
	as_rootnocap "$PY" client.py probe "$tmp/nb/g.sock" "$twin" >nnocap.out 2>&1
	t "uid 65534's utrace: root without CAP_SYS_PTRACE is refused (SO_PEERCRED)" \
		'refused nnocap.out' nnocap.out
fi
END=D UNDUMP=1 as_nobody "$PY" client.py probe "$tmp/nb/g.sock" "$twin" \
	>nundump.out 2>&1
END=k as_nobody "$PY" client.py probe "$tmp/nb/g.sock" "$twin" >nown.out 2>&1
twin_stop
finish
t "uid 65534's utrace: its own uid is served, dumpable or not (/etc/shadow: EACCES)" \
	'served nundump.out "F-1,d" && served nown.out "F-1,d"' nundump.out

# -- Addresses other hosts reach ----------------------------------------------

"$U" --gdb=0.0.0.0:0 "$P" >any.out 2>&1
rc=$?
t "--gdb=0.0.0.0:PORT without --gdb-any-host is an error that says why" \
	'[ $rc -ne 0 ] && grep -q "not a loopback address.*--gdb-any-host" any.out' any.out
"$U" --gdb-any-host "$P" >any2.out 2>&1
rc=$?
t "--gdb-any-host alone is an error" \
	'[ $rc -ne 0 ] && grep -q "gdb-any-host goes with --gdb" any2.out' any2.out
serve tcp "$U" -o log --gdb=0.0.0.0:0 --gdb-any-host "$P" wait || exit 1
twin_start 0
as_nobody "$PY" client.py probe "$addr" "$twin" >anynb.out 2>&1
END=k "$PY" client.py probe "$addr" "$twin" >anyroot.out 2>&1
twin_stop
finish
t "--gdb-any-host: a peer on this host is still checked (uid 65534 refused)" \
	'refused anynb.out && served anyroot.out "F[0-9]*"' anynb.out

# -- A set-user-ID exec under a connected gdb ---------------------------------

suid=
for f in /usr/bin/passwd /bin/passwd; do
	[ -u "$f" ] && [ "$(stat -c %u "$f")" = 0 ] && suid=$f && break
done
# It gives uid 65534 root's privileges natively (not on a nosuid mount).
if [ -n "$suid" ] && as_nobody "$suid" -S >/dev/null 2>&1; then
	serve tcp "$U" -u nobody -o log --gdb=127.0.0.1:0 /bin/sh -c \
		"exec $suid -S" || exit 1
	as_nobody "$PY" client.py setuid "$addr" >suid.out 2>&1
	finish
	{ cat suid.out; cat srv.err; cat log; } >suid.all
	t "a set-user-ID exec ends uid 65534's connection; the program runs on" \
		'grep -q "^stop T" suid.out && grep -q "^after exec EOF" suid.out && grep -q "executed a program that uid 65534 (pid [0-9]*) may not debug: closing the connection" srv.err && grep -q "+++ exited with 0 +++" log' \
		suid.all
else
	ok "a set-user-ID exec ends the connection # SKIP no set-user-ID passwd that runs as root here"
fi

# -- Random malformed packets against a live stub --------------------------

seed=${GDBSEC_SEED:-19}
serve tcp "$U" -o log --gdb=127.0.0.1:0 "$P" || exit 1
timeout 120 "$PY" client.py fuzz "$addr" "$tmp/out" 3000 "$seed" >fuzz.out 2>&1
rc=$?
finish
{ cat fuzz.out; echo ---; cat srv.err; echo ---; cat out; tail -3 log; } >fuzz.all
t "3000 random malformed packets: every one answered, nothing changed, no crash" \
	'[ $rc -eq 0 ] && grep -q "^fuzz 3000 packets answered 3000" fuzz.out && grep -q "^detach OK" fuzz.out && grep -q "^intact$" out && grep -q "+++ exited with 0 +++" log' \
	fuzz.all
exit 0
