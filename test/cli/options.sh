#!/bin/sh
# strace 6.1's everyday options, checked against recordings of strace 6.1
# (test/cli/expected/opt-*.out, made by running strace with the same
# arguments on test/progs/cli_basic): -U, -S, -e fault=, -A, the option
# messages and -o /dev/full.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(cd "$(dirname "$0")" && pwd)/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A short program path, as in forms.sh.
ln -s "$O/test/progs/cli_basic" "$tmp/prog"
P=$tmp/prog
cd "$tmp" || exit 1

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; }
same() {	# name, expected file, file
	if diff -u "$2" "$3" | sed 's/^/# /' >&2 && cmp -s "$2" "$3"; then
		ok "$1"
	else
		nok "$1"
	fi
}
# Run utrace on cli_basic from /, with fd 10 closed (cli_basic dup2()s
# onto it) so that the trace is the same everywhere.
run() {
	(cd / && exec bash -c 'exec 10>&-; exec "$@"' - "$U" "$@" "$P" \
		>/dev/null 2>"$tmp/err")
}

# -- -c columns (-U) and sort keys (-S) ------------------------------------

run -c -S name -U name,calls,errors -o "$tmp/out"
same "-c -S name -U name,calls,errors" "$exp/opt-U-name.out" out
run -c -S calls -U calls,errors,syscall -o "$tmp/out"
same "-c -S calls -U calls,errors,syscall (ties in syscall order)" \
	"$exp/opt-U-calls.out" out
run -c -S name -U time,shortest,longest,avg_time,total_time,calls,errors -o "$tmp/out"
head -n 2 out >got
head -n 2 "$exp/opt-U-time.out" >want
same "-U with every time column: header and rules" want got
cut -c 50- out >got
cut -c 50- "$exp/opt-U-time.out" >want
same "-U with every time column: calls, errors, syscall (name added)" want got
if sed -n '3,$p' out | grep -v '^---' | grep -Evq \
	'^ *[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+\.[0-9]{6} '; then
	nok "-U with every time column: strace's number formats"
else
	ok "-U with every time column: strace's number formats"
fi
run -C -U calls,name -e trace=chdir -o "$tmp/out"
if grep -q '^chdir("/utrace-marker")' out &&
   [ "$(tail -n 5 out | head -n 2)" = "    calls syscall
--------- ----------------" ]; then
	ok "-C -U calls,name: the trace, then the table"
else
	nok "-C -U calls,name: the trace, then the table"
fi

# -- -e fault= ----------------------------------------------------------------

run -o "$tmp/out" -e fault=write:when=1 -e fault=chdir:error=EACCES \
	-e fault=lseek:error=ESPIPE:when=1..2 -e fault=socket:when=1+
sed -n '/utrace-marker/,$p' out >got
same "-e fault=: ENOSYS by default, error=, when=" "$exp/opt-fault.out" got

# -- -A -----------------------------------------------------------------------

echo first >out
run -A -o "$tmp/out" -e trace=chdir
if [ "$(head -n 1 out)" = first ] && grep -q '^chdir("/utrace-marker")' out &&
   tail -n 1 out | grep -q '^+++ exited with 3 +++$'; then
	ok "-A -o FILE appends"
else
	nok "-A -o FILE appends"
fi
run -o "$tmp/out" -e trace=chdir
t=$(head -n 1 out)
[ "$t" != first ] && ok "-o FILE without -A truncates" ||
	nok "-o FILE without -A truncates"
rm -f ff.*
(cd / && exec "$U" -ff -o "$tmp/ff" -e trace=exit_group true)
for f in ff.*; do echo first >"$f"; done
(cd / && exec "$U" -A -ff -o "$tmp/ff" -e trace=exit_group true)
n=0
for f in ff.*; do [ "$(head -n 1 "$f")" = first ] && n=$((n + 1)); done
[ $n -ge 1 ] && ok "-A -ff appends to an existing FILE.PID" ||
	nok "-A -ff appends to an existing FILE.PID"

# -- Messages and exit statuses, as strace 6.1's ------------------------------

# Each case of opt-msgs.out: the arguments, strace's exit status and its
# messages (the tracer's name replaced by TRACER).
sed -n 's/^\[\(.*\)\] rc=[0-9]*$/\1/p' "$exp/opt-msgs.out" >cases
while IFS= read -r a; do
	eval "set -- $a"
	"$U" "$@" >/dev/null 2>o
	rc=$?
	echo "[$a] rc=$rc"
	grep "^utrace: \|^Try " o | sed 's/utrace/TRACER/g'
done <cases >got
same "option messages and exit statuses as strace 6.1's" "$exp/opt-msgs.out" got

# -- -O, -d, --tips -------------------------------------------------------------

# -O: the overhead taken off every call; 1 s leaves none of their time.
run -c -O 1s -o "$tmp/out"
if sed -n '3,$p' out | grep -v '^---' | awk '$2 != "0.000000" { bad = 1 }
	END { exit bad }' && grep -q total out; then
	ok "-c -O 1s: every call's time taken off"
else
	nok "-c -O 1s: every call's time taken off"
	sed 's/^/# /' out
fi
# -d: utrace's own messages, beside a trace that is otherwise the same.
run -d -e trace=chdir -o "$tmp/out"
if grep -q "^utrace: thread [0-9]* of process [0-9]*: engines keeper" err &&
   grep -q "^utrace: thread [0-9]* died: wait status 0x300" err &&
   [ "$(grep -v '^+++' out)" = 'chdir("/utrace-marker")                 = -1 ENOENT (No such file or directory)' ]; then
	ok "-d: utrace's own messages on stderr"
else
	nok "-d: utrace's own messages on stderr"
	sed 's/^/# /' err
fi
# --tips: a tip in a box on stderr after everything else.
run --tips=id:2,full -e trace=none
if [ "$(tail -n 1 err)" = "  tip 3 of 10 (--tips=id:2)" ] &&
   tail -n 6 err | head -n 1 | grep -q '^  ___*$' &&
   grep -q '^ / --json writes one JSON object per event, *\\$' err; then
	ok "--tips=id:2,full: the tip after the trace"
else
	nok "--tips=id:2,full: the tip after the trace"
	sed 's/^/# /' err
fi
run --tips=format:none -e trace=none -o "$tmp/out"
[ ! -s err ] && ok "--tips=format:none: no tip" || nok "--tips=format:none: no tip"

# -- -o /dev/full ---------------------------------------------------------------

if [ -w /dev/full ]; then
	"$U" -o /dev/full -e trace=exit_group true 2>err
	rc=$?
	if [ $rc -eq 1 ] && grep -qx "utrace: /dev/full: No space left on device" err
	then
		ok "-o /dev/full: the write error, exit status 1"
	else
		nok "-o /dev/full: the write error, exit status 1 (got $rc)"
		sed 's/^/# /' err
	fi
	"$U" -c -o /dev/full true 2>err
	rc=$?
	[ $rc -eq 1 ] && grep -q "^utrace: /dev/full: " err &&
		ok "-c -o /dev/full: the write error, exit status 1" ||
		nok "-c -o /dev/full: the write error, exit status 1"
else
	echo "ok - -o /dev/full # SKIP no writable /dev/full"
fi

"$U" --help >help
m=
for o in -A --output-append-mode -U --summary-columns "-e fault=" -S -X --const-print-style -u --user -D --daemonize "-b execve" --detach-on; do
	grep -q -- "$o" help || m="$m $o"
done
[ -z "$m" ] && ok "--help names -A, -U, -e fault=" || nok "--help lacks:$m"

# -- -X raw|abbrev|verbose ----------------------------------------------------

for x in raw verbose; do
	run -X $x -o "$tmp/out"
	sed -n '/utrace-marker/,$p' out >got
	same "-X $x" "$exp/opt-X-$x.out" got
done
run -X abbrev -o "$tmp/out"
sed -n '/utrace-marker/,$p' out >got
same "-X abbrev (the default)" "$exp/basic.out" got
