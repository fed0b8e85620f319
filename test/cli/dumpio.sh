#!/bin/sh
# -e read=SET / -e write=SET: run the "dump" section of test/progs/cli_paths
# and diff the trace, hex dumps included, with recordings of strace 6.1
# made with the same options (addresses and the time recvmmsg leaves of
# its timeout masked).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(dirname "$0")/expected
case $exp in /*) ;; *) exp=$(pwd)/$exp ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$O/test/progs/cli_paths
T=chdir,write,pwrite64,writev,pwritev,pwritev2,read,pread64,readv,preadv
T=$T,preadv2,sendto,recvfrom,sendmsg,recvmsg,sendmmsg,recvmmsg,vmsplice
T=$T,mq_open,mq_timedsend,mq_timedreceive,mq_unlink

norm() {
	sed -E -e 's/0x[0-9a-f]{8,}/ADDR/g' \
	    -e 's/left \{tv_sec=[0-9]+, tv_nsec=[0-9]+\}/left {TIME}/' \
	    -e 's/utrace-dump-[0-9]+/utrace-dump-PID/' \
	    -e 's/\) +(= [^=]*)$/) \1/'
}

check() {	# name, expected file, options...
	name=$1; file=$2; shift 2
	rm -rf "$tmp/w" && mkdir "$tmp/w"
	(cd "$tmp/w" && exec "$U" -o "$tmp/out" -e trace=$T "$@" "$P" dump \
		</dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	sed -n '/utrace-marker/,$p' "$tmp/out" | norm >"$tmp/got"
	if [ $rc -ne 3 ]; then
		echo "not ok - $name: exit status $rc, expected 3"
		sed 's/^/# /' "$tmp/err"
	elif norm <"$exp/$file" >"$tmp/want" &&
	     diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

check "-e read=3,5,6,7,8 -e write=3,4,6,7,8: every dumped call" \
	dump-rw.out -e read=3,5,6,7,8 -e write=3,4,6,7,8
check "--read=, --write= and -e r=, -e w=" dump-rw.out \
	--read=1 -e r=3,5,6,7,8 --write=3,4,6,7,8
check "-e read=all -e write=!3" dump-all.out -e read=all -e 'write=!3'
check "--read-fds=, --write-fds= (aliases)" dump-all.out \
	--read-fds=all --write-fds='!3'

# Bad sets: strace's messages.
for bad in "read=x:x" "write=:" "write=3,,x:x" "read=!:!" "read=-1:-1" \
	   "r=1a:1a" "write=,:,"; do
	arg=${bad%:*}
	tok=${bad##*:}
	"$U" -e "$arg" true >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] &&
	   [ "$(cat "$tmp/err")" = "utrace: invalid descriptor '$tok'" ]; then
		echo "ok - -e $arg: refused"
	else
		echo "not ok - -e $arg: refused (exit $rc)"
		sed 's/^/# /' "$tmp/err"
	fi
done
