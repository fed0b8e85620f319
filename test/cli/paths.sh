#!/bin/sh
# -P PATH / --trace-path: run sections of test/progs/cli_paths in a fresh
# directory holding a file "a" under utrace -P a, and diff the trace (and
# the "Requested path" message) with recordings of strace 6.1 run the same
# way (the directory shown as TMP; addresses and pids masked).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(dirname "$0")/expected
case $exp in /*) ;; *) exp=$(pwd)/$exp ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$O/test/progs/cli_paths

norm() {
	sed -E -e 's/0x[0-9a-f]{8,}/ADDR/g' -e "s|$tmp/w|TMP|g" \
	    -e 's/^[0-9]+ +/PID /' -e 's/si_pid=[0-9]+/si_pid=PID/' \
	    -e 's/\) +(= [^=]*)$/) \1/'
}

# name, expected trace, expected stderr (or -), options...
check() {
	name=$1; file=$2; err=$3; shift 3
	rm -rf "$tmp/w" && mkdir "$tmp/w" && touch "$tmp/w/a"
	(cd "$tmp/w" && TZ=UTC exec "$U" -o "$tmp/out" "$@" \
		</dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	norm <"$tmp/out" >"$tmp/got"
	if [ "$err" = - ]; then
		: >"$tmp/wanterr"
	else
		sed 's/^strace: /utrace: /' "$exp/$err" >"$tmp/wanterr"
	fi
	if [ $rc -ne 3 ]; then
		echo "not ok - $name: exit status $rc, expected 3"
		sed 's/^/# /' "$tmp/err"
	elif norm <"$exp/$file" >"$tmp/want" &&
	     diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/want" "$tmp/got" &&
	     sed "s|$tmp/w|TMP|g" "$tmp/err" >"$tmp/goterr" &&
	     diff -u "$tmp/wanterr" "$tmp/goterr" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/wanterr" "$tmp/goterr"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

check "-P a: paths, descriptors, dup, mmap, poll, select, epoll_ctl" \
	paths-a.out paths-a.err -P a "$P" paths
check "--trace-path=a" paths-a.out paths-a.err --trace-path=a "$P" paths
check "-P twice, absolute and relative: one message" \
	paths-a.out paths-a.err -P "$tmp/w/a" -P a "$P" paths
check "-e quiet=path-resolution after -P: no message" \
	paths-a.out - -P a -e quiet=path-resolution "$P" paths
check "-P with -f: the child's inherited descriptor" \
	paths-fork.out paths-a.err -f -P a "$P" fork
check "-P of a path nothing touches" paths-none.out - -P /nonexistent/x \
	"$P" paths

# -c -P counts only the syscalls that touch the path (times vary).
rm -rf "$tmp/w" && mkdir "$tmp/w" && touch "$tmp/w/a"
(cd "$tmp/w" && exec "$U" -o "$tmp/out" -c -P a "$P" paths \
	</dev/null >/dev/null 2>/dev/null)
cols() { awk 'NF >= 5 && $1 ~ /^[0-9.]+$/ { print $4, (NF == 6 ? $5 : 0), $NF }' | sort; }
cols <"$tmp/out" >"$tmp/got"
cols <"$exp/paths-c.out" >"$tmp/want"
if diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
   cmp -s "$tmp/want" "$tmp/got" && [ -s "$tmp/want" ]; then
	echo "ok - -c -P: counts only what touches the path"
else
	echo "not ok - -c -P: counts only what touches the path"
fi

# -P with -k: an execve shown after the command's own one (not shown) has
# the caller's stack, taken at entry, as strace prints it.
"$U" -k -P /usr/bin/cat env /usr/bin/cat /dev/null >"$tmp/out" 2>&1
if sed -n 1p "$tmp/out" | grep -q '^execve("/usr/bin/cat"' &&
   sed -n 2p "$tmp/out" | grep -q '(execve+0x'; then
	echo "ok - -P with -k: a later execve has its caller's stack"
else
	echo "not ok - -P with -k: a later execve has its caller's stack"
	sed 's/^/# /' "$tmp/out" | head -5
fi
