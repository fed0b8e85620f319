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
# Poll a shell condition every 0.1 s, 20 s at most: waits for a state,
# never for a guessed time.
wait_until() {	# shell condition
	_i=0
	while ! eval "$1" && [ $_i -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# SIGINT ignored by process $1 (bit 2 of SigIgn).
sigint_ignored() {
	_m=$(awk '/^SigIgn:/ {print $2}' /proc/$1/status 2>/dev/null)
	[ -n "$_m" ] && [ $(( 0x$_m & 2 )) -ne 0 ]
}
t() {	# name, shell condition
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}

# A command that cannot be executed: its failed execve, strace's message,
# its exit, as strace 6.1 prints them (run on the same files).
printf '#!/bin/sh\n' >noexec
chmod 644 noexec
mkdir -p adir
for c in ./noexec ./adir; do
	strace "$c" >/dev/null 2>want.raw
	src=$?
	"$U" "$c" >/dev/null 2>got.raw
	urc=$?
	for f in want got; do
		sed -E -e 's/0x[0-9a-f]+ \/\*/ADDR \/*/' -e 's/^(strace|utrace):/TRACER:/' \
			$f.raw >$f
	done
	t "$c, not executable: strace's lines and status" \
		'[ $src -eq $urc ] && cmp -s want got || { diff want got | sed "s/^/# /"; false; }'
done
PATH=$(pwd):$PATH "$U" noexec >/dev/null 2>err
t "a command found along PATH but not executable: not found, as in strace" \
	'[ $? -eq 1 ] && grep -q "^utrace: Can.t stat .noexec.: No such file or directory$" err'

# -p of a zombie: ptrace's EPERM, as strace says it.
python3 -c 'import os, sys, time
p = os.fork()
if p == 0:
    os._exit(0)
print(p, file=open("zpid", "w"))
time.sleep(30)' &
zsh=$!
wait_until '[ -s zpid ] &&
	[ "$(sed "s/.*) \(.\).*/\1/" /proc/$(cat zpid)/stat 2>/dev/null)" = Z ]'
"$U" -p "$(cat zpid)" >/dev/null 2>err
t "-p of a zombie: Operation not permitted, as strace" \
	'[ $? -eq 1 ] && grep -q "^utrace: attach: ptrace(PTRACE_SEIZE, [0-9]*): Operation not permitted$" err'
kill "$zsh" 2>/dev/null
wait "$zsh" 2>/dev/null
# -p of a process strace traces: strace's EPERM, then who traces it.
strace -qq -o /dev/null sh -c 'echo $$ >tpid; exec sleep 30' &
tr=$!
wait_until '[ -s tpid ]'
"$U" -p "$(cat tpid)" >/dev/null 2>err
t "-p of a process strace traces: EPERM, then TracerPid and its name" \
	'[ $? -eq 1 ] && grep -q "^utrace: attach: ptrace(PTRACE_SEIZE, [0-9]*): Operation not permitted$" err &&
	 grep -q "^utrace: process [0-9]* is traced by process $tr (strace), which does not let other programs join its trace$" err'
kill "$tr" 2>/dev/null
wait "$tr" 2>/dev/null

"$U" -q -o log sh -c 'exit 7'
t "exit status is the tracee's" '[ $? -eq 7 ]'

"$U" -o log sh -c 'kill -9 $$'
rc=$?
t "killed tracee: utrace dies of the same signal" '[ $rc -eq 137 ]'
t "+++ killed by SIGKILL +++" 'grep -q "^+++ killed by SIGKILL +++$" log'
"$U" -qq -o log sh -c 'kill -9 $$'
t "-qq keeps +++ killed by +++ (it hides exits only)" \
	'tail -1 log | grep -q "^+++ killed by SIGKILL +++$"'
"$U" -qq -e signal=none -o log sh -c 'kill -9 $$'
t "-e signal=none hides it" '! grep -q "killed by" log'

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
assert c[\"args\"] == [{\"text\": \"\\\"/utrace-marker\\\"\",
			  \"value\": {\"string\": \"/utrace-marker\"}}], c
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
# strace 6.1's form of -t with -r: "12:00:00 (+     0.000123) ".
"$U" -t -r -e trace=chdir,access -o log "$P"
t "-t -r: the time, then (+ the relative one)" \
	'grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2} \(\+ +[0-9]+\.[0-9]{6}\) chdir\(" log'
"$U" -ttt --relative-timestamps=ms -e trace=chdir,access -o log "$P"
t "-ttt -r=ms" \
	'grep -Eq "^[0-9]{10}\.[0-9]{6} \(\+ +[0-9]+\.[0-9]{3}\) chdir\(" log'

"$U" -qq -o log "$P"
t "-qq: no exit status line" '! grep -q "^+++" log'

"$U" -o log -e signal=none "$P" 10
t "-e signal=none" '! grep -q "^---" log'

sleep 30 &
spid=$!
"$U" -o log -p $spid 2>err &
upid=$!
# Interrupt once it has attached (however loaded the machine is).
i=0
while ! grep -q "Process $spid attached" err 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $upid
wait $upid
rc=$?
# Back asleep in its nanosleep once it runs again.
i=0
while st=$(awk '{print $3}' /proc/$spid/stat 2>/dev/null) &&
      [ "$st" != S ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
t "-p: Ctrl-C detaches, the process runs on, utrace dies of SIGINT" \
	'[ $rc -eq 130 ] && [ "$st" = S ] && grep -q "Process $spid attached" err && grep -q "Process $spid detached" err && ! grep -q TracerPid:.[1-9] /proc/$spid/status'
kill $spid 2>/dev/null
wait $spid 2>/dev/null

# -- strace's messages and where they go ----------------------------------

# The message about a new child never splits a line: the line ends first,
# or the child's first line cuts it, and then, as in strace, the message
# comes just before the " <unfinished ...>" ("vfork(utrace: Process N...").
"$U" -f sh -c '/bin/true & wait; /bin/true' 2>log >/dev/null
t "-f: Process N attached at a line start or just before <unfinished ...>" \
	'[ $(grep -c "utrace: Process [0-9]* attached$" log) -eq 2 ] && awk "cut { if (\$0 != \" <unfinished ...>\") bad = 1; cut = 0 }
		/.utrace: Process/ { cut = 1 } END { exit bad || cut }" log'
"$U" -f -o log sh -c '/bin/true' 2>err
t "-f -o FILE PROG: no attach messages (strace's implied -q)" \
	'[ ! -s err ] && grep -q "exited with 0" log'
"$U" -f -o log --quiet=exit sh -c '/bin/true' 2>err
t "-o FILE PROG --quiet=exit: attach messages again, no exit lines" \
	'grep -q "^utrace: Process [0-9]* attached$" err && ! grep -q "+++" log'
"$U" -e trace=none -f -e quiet=attach,exit sh -c /bin/true 2>err
t "-e quiet=attach,exit" '! grep -q "attached\|+++" err && grep -q "^--- SIGCHLD" err'
"$U" -e trace=none --quiet=all -f sh -c /bin/true 2>err
t "--quiet=all" '[ $? -eq 0 ] && grep -q "^--- SIGCHLD" err && ! grep -q "attached\|+++" err'
"$U" -e trace=none '--quiet=!exit' -f sh -c /bin/true 2>err
t "--quiet=!exit" '! grep -q "attached" err && grep -q "^+++ exited with 0 +++$" err'

# A thread other than the leader executes: strace's lines, leader's pid.
E=$O/test/progs/exec_thread
"$U" -f -e trace=execve,pause,exit_group "$E" /bin/true 2>log
rc=$?
t "-f: execve in a thread: superseded, resumed under the leader's pid" \
	'[ $rc -eq 0 ] && sed -n "/superseded/,\$p" log >tail && [ "$(sed "s/[0-9][0-9]*/N/g; s/  */ /g" tail)" = "+++ superseded by execve in pid N +++
<... execve resumed>) = N
exit_group(N) = ?
+++ exited with N +++" ] && [ $(grep -c "+++ exited" log) -eq 1 ]'
"$U" -f -o log -e trace=execve "$E" /bin/true
leader=$(head -1 log | cut -d" " -f1)
t "-f -o: <pid changed to ...>, then the leader's pid goes on" \
	'grep -q "^[0-9]* *execve(\"/bin/true\".* <pid changed to $leader ...>$" log && grep -q "^$leader  *+++ superseded by execve in pid [0-9]* +++$" log && grep -q "^$leader  *<\.\.\. execve resumed>) *= 0$" log && tail -1 log | grep -q "^$leader  *+++ exited with 0 +++$"'
rm -f ff.*
"$U" -ff -o ff -e trace=execve,pause "$E" /bin/true
# The leader's file: it starts with the execve of exec_thread (the leader
# may or may not reach pause() before the other thread's execve).
l=$(grep -l "^execve(\"$E\"" ff.*)
t "-ff: the exec'ing thread continues in the leader's file" \
	'[ $(ls ff.* | wc -l) -eq 2 ] && grep -q "^+++ superseded by execve in pid [0-9]* +++$" $l && grep -q "^<\.\.\. execve resumed>) *= 0$" $l && tail -1 $l | grep -q "^+++ exited with 0 +++$"'

# -p: one thread without -f; every thread with -f, strace's messages.
I=$O/test/progs/threads_idle
# Killed below.  It must outlive both attaches however slow: each
# wait_until may take 20 s on a loaded machine, and threads that end
# before the second utrace detaches print no "detached" line.  600 s is
# the runner's limit for this whole script.
"$I" 3 600 &
ipid=$!
wait_until '[ $(ls /proc/$ipid/task 2>/dev/null | wc -l) -eq 4 ]'
"$U" -e trace=getppid -p $ipid 2>log &
upid=$!
wait_until 'grep -q "^getppid()" log'
kill -INT $upid
wait $upid
t "-p PID (no -f) traces only that thread" \
	'grep -q "^getppid() *= [0-9]*$" log && ! grep -q "\[pid" log'
"$U" -f -e trace=getppid -o log -p $ipid 2>err &
upid=$!
wait_until '[ $(cut -d" " -f1 log 2>/dev/null | sort -u | wc -l) -eq 4 ]'
kill -INT $upid
wait $upid
rc=$?
t "-f -p: attached with 4 threads, one detached line per thread" \
	'[ $rc -eq 130 ] && grep -qx "utrace: Process $ipid attached with 4 threads" err && [ $(grep -c "^utrace: Process [0-9]* detached$" err) -eq 4 ] && [ "$(grep detached err | head -1)" = "utrace: Process $ipid detached" ] && [ $(cut -d" " -f1 log | sort -u | wc -l) -eq 4 ]'
kill $ipid 2>/dev/null
wait $ipid 2>/dev/null

"$U" -p 999999 -e trace=exit_group true 2>err
rc=$?
t "-p 999999 with a command: message, then the command is traced" \
	'[ $rc -eq 0 ] && grep -qx "utrace: attach: ptrace(PTRACE_SEIZE, 999999): No such process" err && grep -q "^exit_group(0)" err'
"$U" -p 999999 2>err
t "-p 999999 alone: exit 1" '[ $? -eq 1 ] && grep -q "PTRACE_SEIZE, 999999" err'

printf 'x' >noexec
chmod 644 noexec
"$U" ./noexec 2>err
t "non-executable file: strace's exec: Permission denied, exit 1" \
	'[ $? -eq 1 ] && grep -qx "utrace: exec: Permission denied" err &&
	 grep -qx "+++ exited with 1 +++" err'
chmod 755 noexec
"$U" -f ./noexec 2>err
t "not a program: ENOEXEC, the child exits 1 as strace's" \
	'[ $? -eq 1 ] && grep -q "^execve(\"./noexec\", .* = -1 ENOEXEC (Exec format error)$" err &&
	 grep -qx "utrace: exec: Exec format error" err && grep -qx "+++ exited with 1 +++" err'

# -o FILE PROG ignores SIGINT and SIGTERM (strace's -I never default).
"$U" -o log "$O/test/progs/sleeper" 1 &
upid=$!
wait_until 'grep -q "^execve(" log && sigint_ignored $upid'
kill -INT $upid
kill -TERM $upid
wait $upid
t "-o FILE PROG: SIGINT and SIGTERM do not stop the trace" \
	'[ $? -eq 0 ] && tail -1 log | grep -q "^+++ exited with 0 +++$"'

# A tracee dumping core: utrace dies of the signal but leaves no core.
mkdir cored
(cd cored && ulimit -c unlimited 2>/dev/null &&
	"$U" -o /dev/null python3 -c 'import os, resource
resource.setrlimit(resource.RLIMIT_CORE, (0, 0)); os.abort()' 2>/dev/null
	echo $? >rc)
t "tracee killed by SIGABRT: exit 134, no core of utrace" \
	'[ "$(cat cored/rc)" = 134 ] && [ -z "$(ls cored | grep -v "^rc$")" ]'

# -- Options ----------------------------------------------------------------

"$U" -qq -e trace=getppid --inject=getppid:error=EPERM:when=2+ \
	"$O/test/progs/getppid_loop" 5 2>log
t "--inject when=2+: from the second call on" \
	'[ $(grep -c "^getppid() *= [0-9]*$" log) -eq 1 ] && [ $(grep -c "(INJECTED)$" log) -eq 4 ]'
"$U" -qq -e trace=getppid --inject=getppid:error=EPERM:when=2..3 \
	"$O/test/progs/getppid_loop" 5 2>log
t "--inject when=2..3" '[ $(grep -c "(INJECTED)$" log) -eq 2 ]'
"$U" -T -e trace=chdir,getppid --inject=chdir:error=EPERM:delay_enter=1000 --inject=getppid:delay_exit=1000 -o log "$P"
t "delay_enter/delay_exit: (DELAYED), after (INJECTED), before -T" \
	'grep -q "^chdir(\"/utrace-marker\") *= -1 EPERM (Operation not permitted) (INJECTED) (DELAYED) <[0-9.]*>$" log'
"$U" -qq -e trace=getppid --inject=getppid:delay_exit=1000:when=2 \
	"$O/test/progs/getppid_loop" 3 2>log
t "delay_exit: (DELAYED) on that call only" \
	'[ $(grep -c "^getppid() *= [0-9]* (DELAYED)$" log) -eq 1 ] && [ $(grep -c "^getppid() *= [0-9]*$" log) -eq 2 ]'
"$U" -o '|cat >piped' -e trace=chdir "$P"
t "-o '|cmd' pipes the trace to cmd" 'grep -q "^chdir(\"/utrace-marker\")" piped'
"$U" -o '!cat >piped2' -e trace=chdir "$P"
t "-o '!cmd' too" 'grep -q "^chdir(\"/utrace-marker\")" piped2'

"$U" --help >help
missing=
for o in follow-forks output-separately output= trace= signal= status= \
	inject= string-limit= decode-fds syscall-times timestamps \
	relative-timestamps summary-only summary summary-sort-by= \
	summary-wall-clock quiet quiet= silent= silence= failed-only \
	successful-only attach= json timeline= version help debug \
	summary-syscall-overhead= tips pidns-translation verbose= raw= \
	kvm= decode-pids=; do
	grep -q -- "--$o" help || missing="$missing $o"
done
t "--help names every long option" '[ -z "$missing" ] || { echo "# missing:$missing"; false; }'

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
bad "unknown -e qualifier: a syscall set, as in strace" -e nosuch=1 true
bad "missing program" /nonexistent/program
bad "bad -S" -S bogus true
bad "bad signal" -e signal=SIGBOGUS true

"$U" -h >out 2>&1
t "-h lists every option" \
	'for o in -f -ff -o -e -s -y -T -t -r -c -C -S -w -q -Z -z -p -V -h --inject --json --timeline; do grep -q -- "$o" out || exit 1; done'
"$U" -V >out
t "-V" 'grep -q "^utrace -- version" out'
bad "-ff with a piped -o" -ff -o '|cat' true
bad "-yy with --decode-fds" -yy --decode-fds=socket true
bad "--decode-fds=bogus" --decode-fds=bogus true
bad "-q with --quiet=" -q --quiet=exit true
bad "invalid quiet" --quiet=bogus true
bad "--inject when=0" --inject=getpid:error=EPERM:when=0 true
bad "--inject when=3..2" --inject=getpid:error=EPERM:when=3..2 true

# strace's prefixes and columns: -n, -i, -a, -Y; -E; the timestamp forms.
"$U" -o log -n -i -e trace=getpid,kill sh -c 'kill -USR1 $$'
t "-n -i: [  39] [0000...] getpid()" \
	'grep -Eq "^\[  39\] \[[0-9a-f]{16}\] getpid\(\) += [0-9]+$" log'
t "-n -i: signal line has the kill's number and an address" \
	'grep -Eq "^\[  62\] \[[0-9a-f]{16}\] --- SIGUSR1 " log'
t "-n -i: exit line [????????????????]" \
	'grep -Eq "^\[  62\] \[\?{16}\] \+\+\+ killed by SIGUSR1 \+\+\+$" log'
"$U" -o log --syscall-number --instruction-pointer -e trace=getpid sh -c :
t "--syscall-number --instruction-pointer" 'grep -Eq "^\[  39\] \[[0-9a-f]{16}\] getpid" log'
"$U" -o log -a 20 -e trace=getpid sh -c :
t "-a 20" 'grep -Eq "^getpid\(\) {12}= [0-9]+$" log'
"$U" -o log --columns=0 -e trace=getpid sh -c :
t "--columns=0" 'grep -Eq "^getpid\(\) = [0-9]+$" log'
bad "bad -a" -a x true
"$U" -o log -Y -f -e trace=execve sh -c 'exec true'
t "-Y: pid<comm> prefixes follow execve" \
	'grep -Eq "^[0-9]+<utrace> +execve\(\"[^\"]*sh\"" log && grep -Eq "^[0-9]+<true> +\+\+\+ exited with 0 \+\+\+$" log'
FOO=1 BAR=2 "$U" -o log -E FOO -E BAZ=3 --env=BAR=4 sh -c 'echo "[$FOO][$BAR][$BAZ]"' >out
t "-E VAR removes, -E VAR=VAL sets" 'grep -qx "\[\]\[4\]\[3\]" out'
"$U" -o log -I 1 sh -c : && "$U" -o log --interruptible=never_tstp sh -c :
t "-I 1, --interruptible=never_tstp" '[ $? -eq 0 ]'
bad "bad -I" -I 5 true
"$U" --seccomp-bpf -o log -e trace=getpid sh -c : 2>err
t "--seccomp-bpf without -f warns as strace" \
	'grep -qx "utrace: --seccomp-bpf cannot be used without -f/--follow-forks, disabling" err'
"$U" --seccomp-bpf -f -o log -e trace=getpid sh -c : 2>err
t "--seccomp-bpf -f is silent" '[ ! -s err ]'
"$U" -o log --timestamps=format:unix,precision:ms -e trace=getpid sh -c :
t "--timestamps=format:unix,precision:ms" 'grep -Eq "^[0-9]{10}\.[0-9]{3} getpid" log'
"$U" -o log --absolute-timestamps=precision:ns -e trace=getpid sh -c :
t "--absolute-timestamps=precision:ns" 'grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9} getpid" log'
"$U" -o log --relative-timestamps=ms --syscall-times=ns -e trace=getpid sh -c :
t "--relative-timestamps=ms --syscall-times=ns" \
	'grep -Eq "^ +[0-9]+\.[0-9]{3} getpid\(\) += [0-9]+ <[0-9]+\.[0-9]{9}>$" log'
bad "-t with --absolute-timestamps" -t --absolute-timestamps true
bad "bad --timestamps" --timestamps=bogus true
"$U" -h >out 2>&1
t "-h lists the strace options added" \
	'for o in -n -i -a -E -I -Y --syscall-number --instruction-pointer --columns --env --interruptible --seccomp-bpf --absolute-timestamps --decode-pids; do grep -q -- "$o" out || exit 1; done'
"$U" -I 3 -e trace=none sleep 1 2>/dev/null &
up=$!; wait_until "sigint_ignored $up"; kill -INT $up; wait $up
t "-I 3: SIGINT to utrace is ignored" '[ $? -eq 0 ]'
"$U" -I 1 -o log sleep 1 &
up=$!; wait_until 'grep -q "^execve(" log'; kill -INT $up; wait $up
t "-I 1 beats -o FILE PROG's never: SIGINT ends utrace" '[ $? -eq 130 ]'
