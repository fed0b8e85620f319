#!/bin/sh
# utrace behaviour: exit status, -f, -ff, -c, --inject, --json, --timeline,
# timestamps, -p attach/detach and option errors.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
P=$O/test/progs/cli_basic
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | head -20; }
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}

"$U" -q -o log sh -c 'exit 7'
t "exit status is the tracee's" '[ $? -eq 7 ]'

"$U" -o log sh -c 'kill -9 $$'
rc=$?
t "killed tracee: utrace dies of the same signal" '[ $rc -eq 137 ]'
t "+++ killed by SIGKILL +++" 'grep -q "^+++ killed by SIGKILL +++$" log'

"$U" -o log "$P"
t "+++ exited with 3 +++ and exit_group = ?" \
	'grep -q "^exit_group(3) *= ?$" log && tail -1 log | grep -q "^+++ exited with 3 +++$"'

"$U" -o log "$P" 10
t "--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, ...} ---" \
	'grep -Eq "^--- SIGUSR1 \{si_signo=SIGUSR1, si_code=SI_USER, si_pid=[0-9]+, si_uid=[0-9]+\} ---$" log'

"$U" -f -o log sh -c 'echo a | cat' >out
t "-f: pipeline traced with PID prefixes" \
	'[ "$(cat out)" = a ] && [ $(grep -Ec "^[0-9]+ +execve\(" log) -ge 2 ] && grep -Eq "^[0-9]+ +\+\+\+ exited with 0 \+\+\+$" log && grep -q "SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED" log'

"$U" -ff -o ff sh -c '/bin/true; /bin/true' >/dev/null
t "-ff -o: one file per process" '[ $(ls ff.* | wc -l) -eq 3 ] && grep -lq "execve(\"/bin/true\"" ff.*'

"$U" -f -o log "$O/test/progs/threads" >/dev/null 2>&1 || true
t "-f with threads: <unfinished ...> / <... resumed>" \
	'! grep -q "<unfinished ...>" log || grep -q "resumed>" log'

"$U" -c -o log "$P" >/dev/null
t "-c: table only" \
	'head -1 log | grep -q "^% time     seconds  usecs/call     calls    errors syscall$" && grep -Eq "^ *[0-9.]+ +[0-9.]+ +[0-9]+ +1 +1 +chdir$" log && tail -1 log | grep -Eq "^100\.00 .* total$" && ! grep -q "= " log'

"$U" -C -S calls -o log "$P" >/dev/null
t "-C -S calls: trace and table" \
	'grep -q "^chdir(\"/utrace-marker\")" log && grep -q "total$" log'

"$U" -c -w -S name -o log "$P" >/dev/null
t "-c -w -S name: sorted by name" \
	'sed -n "3,/^---/p" log | grep -v "^---" | awk "{print \$NF}" >names && sort -c names'

"$U" -e trace=openat --inject=openat:error=EACCES:when=3 -o log cat /etc/hostname >/dev/null 2>&1
t "--inject error= with when=" \
	'[ $(grep -c "(INJECTED)" log) -eq 1 ] && grep -q "= -1 EACCES (Permission denied) (INJECTED)$" log'

"$U" -e trace=chdir --inject=chdir:retval=42 -o log "$P"
t "--inject retval= (printer and injector on one thread)" \
	'grep -q "^chdir(\"/utrace-marker\") *= 42 (INJECTED)$" log'

"$U" -e trace=chdir --inject=chdir:error=ENOENT:signal=SIGUSR1 -o log "$P"
rc=$?
t "--inject signal=" '[ $rc -eq 138 ] && grep -q "^--- SIGUSR1 " log'

start=$(date +%s%N)
"$U" -q -e trace=nanosleep,clock_nanosleep --inject=clock_nanosleep:delay_enter=300000 -o log "$P"
end=$(date +%s%N)
t "--inject delay_enter= holds the thread" '[ $(( (end - start) / 1000000 )) -ge 300 ]'

"$U" -c --inject=write:error=EIO:when=1 -o log "$P" >/dev/null
t "-c with --inject: counter sees injected errors" \
	'grep -Eq "^ *[0-9.]+ +[0-9.]+ +[0-9]+ +2 +1 +write$" log'

"$U" --json -o log "$P" 10
t "--json: one valid JSON object per line" \
	'python3 -c "
import json, sys
ev = [json.loads(l) for l in open(\"log\")]
sc = [e for e in ev if e[\"type\"] == \"syscall\"]
c = [e for e in sc if e[\"syscall\"] == \"chdir\"][0]
assert c[\"errno\"] == \"ENOENT\" and c[\"retval\"] == -2, c
assert c[\"args\"] == [\"\\\"/utrace-marker\\\"\"], c
assert len(c[\"raw_args\"]) == 6 and c[\"duration\"] >= 0
assert any(e[\"type\"] == \"signal\" and e[\"signal\"] == \"SIGUSR1\" for e in ev)
assert ev[-1][\"type\"] == \"exited\" and ev[-1][\"status\"] == 3
"'

"$U" -f --timeline tl.json -o log sh -c 'echo a | cat' >/dev/null
t "--timeline: Chrome trace-event JSON" \
	'python3 -c "
import json
d = json.load(open(\"tl.json\"))
ev = d[\"traceEvents\"]
x = [e for e in ev if e[\"ph\"] == \"X\"]
assert len(x) > 50 and all(\"dur\" in e and \"tid\" in e for e in x)
assert len(set(e[\"tid\"] for e in x)) >= 3
assert any(e[\"ph\"] == \"M\" for e in ev)
" && grep -q "execve(" log'

"$U" -T -e trace=chdir -o log "$P"
t "-T: <seconds>" 'grep -Eq "^chdir\(.*\) += -1 ENOENT \(No such file or directory\) <[0-9]+\.[0-9]{6}>$" log'
"$U" -t -e trace=chdir -o log "$P"
t "-t: HH:MM:SS" 'grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2} chdir\(" log'
"$U" -tt -e trace=chdir -o log "$P"
t "-tt: microseconds" 'grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} chdir\(" log'
"$U" -ttt -e trace=chdir -o log "$P"
t "-ttt: epoch" 'grep -Eq "^[0-9]{10}\.[0-9]{6} chdir\(" log'
"$U" -r -e trace=chdir,access -o log "$P"
t "-r: relative" 'grep -Eq "^ +[0-9]+\.[0-9]{6} chdir\(" log'

"$U" -qq -o log "$P"
t "-qq: no exit status line" '! grep -q "^+++" log'

"$U" -o log -e signal=none "$P" 10
t "-e signal=none" '! grep -q "^---" log'

sleep 30 &
spid=$!
"$U" -o log -p $spid 2>err &
upid=$!
sleep 0.5
kill -INT $upid
wait $upid
rc=$?
st=$(awk '{print $3}' /proc/$spid/stat 2>/dev/null)
t "-p: Ctrl-C detaches, the process runs on" \
	'[ $rc -eq 0 ] && [ "$st" = S ] && grep -q "Process $spid attached" err && grep -q "Process $spid detached" err && ! grep -q TracerPid:.[1-9] /proc/$spid/status'
kill $spid 2>/dev/null
wait $spid 2>/dev/null

bad() {	# name, args...
	name=$1; shift
	"$U" "$@" >out 2>err
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^utrace: " err; then ok "$name"
	else echo "not ok - $name (exit $rc)"; sed 's/^/# /' err; fi
}
bad "no command" -f
bad "unknown option" --bogus true
bad "unknown syscall" -e trace=nosuchcall true
bad "bad -s" -s x true
bad "-c with -C" -c -C true
bad "--inject without action" --inject=open true
bad "--inject error and retval" --inject=open:error=EPERM:retval=1 true
bad "unknown -e qualifier" -e raw=all true
bad "missing program" /nonexistent/program
bad "bad -S" -S bogus true
bad "bad signal" -e signal=SIGBOGUS true

"$U" -h >out 2>&1
t "-h lists every option" \
	'for o in -f -ff -o -e -s -y -T -t -r -c -C -S -w -q -Z -z -p -V -h --inject --json --timeline; do grep -q -- "$o" out || exit 1; done'
"$U" -V >out
t "-V" 'grep -q "^utrace -- version" out'
