#!/bin/sh
# -yy / --decode-fds: descriptors decorated as strace 6.1 does, compared
# with recordings of strace 6.1 running test/progs/sockets (TCP listener,
# client and accepted ends on 127.0.0.1, bound and connected UDP, a UNIX
# socketpair, a UNIX socket bound to "sock", a NETLINK_ROUTE socket,
# /dev/null, a pidfd, an unlinked file with "<>\n" in its name, a memfd).
# Ports, inodes and pids change from run to run: every number of 1024 or more is renamed N1, N2... in order of first
# appearance, so the same port or inode keeps one name in a trace; the
# pid (which can be small) is PID where it appears.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(cd "$(dirname "$0")/expected" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$O/test/progs/sockets

norm() {
	sed -n '/^close_range/,$p' | sed -E -e "s|$tmp|CWD|g" \
	    -e 's/AT_FDCWD<[^>]*>/AT_FDCWD<CWD>/' |
	python3 -c '
import re, sys
names = {}
def rename(m):
    return names.setdefault(m.group(0), "N%d" % (len(names) + 1))
for line in sys.stdin:
    line = re.sub(r"\) +=", ") =", line)
    line = re.sub(r"(ROUTE:|getpid\(\) = |pidfd_open\(|<pid:)[0-9]+", r"\1PID",
                  line)
    sys.stdout.write(re.sub(r"(?<![0-9])[0-9]{4,}(?![0-9])", rename, line))
'
}

# The kernel must answer sock_diag queries (not every container does).
(cd "$tmp" && "$U" -yy -e trace=listen -o "$tmp/probe" "$P" 2>/dev/null)
if ! grep -q '^listen(3<TCP:\[127\.0\.0\.1:' "$tmp/probe"; then
	echo "ok - -yy # SKIP NETLINK_SOCK_DIAG does not answer here"
	exit 0
fi

check() {	# name, expected file, options...
	name=$1; file=$2; shift 2
	(cd "$tmp" && "$U" -o "$tmp/out" "$@" "$P" >/dev/null 2>"$tmp/err")
	rc=$?
	norm <"$tmp/out" >"$tmp/got"
	norm <"$exp/$file" >"$tmp/want"
	if [ $rc -ne 0 ]; then
		echo "not ok - $name: exit status $rc"
		sed 's/^/# /' "$tmp/err"
	elif diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

check "-yy: TCP, UDP, UNIX, NETLINK, char device, pidfd" sockets-yy.out -yy
check "--decode-fds=all" sockets-yy.out --decode-fds=all
check "-e decode-fds=socket,dev" sockets-socket-dev.out -e decode-fds=socket,dev
check "--decode-fds=!socket,dev,pidfd (paths only)" sockets-y.out \
	'--decode-fds=!socket,dev,pidfd'
check "-y: sockets as socket:[INODE]" sockets-y.out -y

# strace's refusals, with its messages and status 1.
refused() {	# name, message, options...
	name=$1; msg=$2; shift 2
	"$U" "$@" true >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(head -1 "$tmp/err")" = "utrace: $msg" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name: status $rc"
		sed 's/^/# /' "$tmp/err"
	fi
}
refused "-y with --decode-fds" \
	"-y and --decode-fds cannot be provided simultaneously" \
	-y --decode-fds=all
refused "--decode-fds=foo" "invalid decode-fds 'foo'" --decode-fds=foo
