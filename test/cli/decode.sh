#!/bin/sh
# Argument decoders: run sections of test/progs/cli_decode under utrace and
# diff each trace with an expected file recorded from strace 6.1 (with the
# same options; addresses, pids, ports and times that vary masked).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(dirname "$0")/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$O/test/progs/cli_decode" "$tmp/prog"
P=$tmp/prog

norm() {
	sed -E -e 's/[0-9]+<(prog|strace|utrace)>/PID<\1>/g' \
	    -e 's/<(strace|utrace)>/<TRACER>/g' \
	    -e "s#/\* [0-9]+ in (strace|utrace)'s PID NS \*/#/* N in TRACER's PID NS */#g" \
	    -e 's/^((getpgrp|getsid)\(.*\) +=) [1-9][0-9]*$/\1 N/' \
	    -e 's/^((getpgid|wait4)\(.*\) +=) [1-9][0-9]*$/\1 N/' \
	    -e 's/^kill\(-[0-9]+,/kill(-N,/' \
	    -e 's/0x[0-9a-f]{10,}/ADDR/g' -e "s|$P|PROG|g" \
	    -e 's|/\* [0-9]+ vars \*/|/* N vars */|' \
	    -e 's/^[0-9]+ +/PID /' \
	    -e 's/(pipe|socket):\[[0-9]+\]/\1:[INO]/g' \
	    -e 's/AT_FDCWD<[^>]*>/AT_FDCWD<CWD>/g' \
	    -e 's/tv_nsec=[0-9]{5,}/tv_nsec=NS/g' \
	    -e 's/^(timerfd_settime\(3, 0, .*it_value=\{tv_sec=0, tv_nsec=)[0-9]+\}\}\)/\1NS}})/' \
	    -e 's/htons\([0-9]+\)/htons(PORT)/g' \
	    -e 's/f_fsid=\{val=\[[^]]*\]\}/f_fsid={val=[FSID]}/' \
	    -e 's/(getpid\(\) +=) [0-9]+/\1 PID/' \
	    -e 's/(rt_sigqueueinfo|kill)\([0-9]+,/\1(PID,/' \
	    -e 's/(getppid\(\) +=) [0-9]+/\1 PID/' \
	    -e 's/parent_tid=\[[0-9]+\]/parent_tid=[PID]/' \
	    -e 's/nlmsg_pid=[1-9][0-9]*/nlmsg_pid=PID/g' \
	    -e 's/(resumed>.*\)) += [0-9]+$/\1 = PID/' \
	    -e 's/^(sched_getaffinity\(.*\)) += [0-9]+$/\1 = N/' \
	    -e 's/^(prctl\(PR_CAPBSET_READ, CAP_MAC_OVERRIDE\)) += [01]$/\1 = N/' \
	    -e 's/^(syscall_0x1c3\(.*\)) += -1 (EBADF|ENOSYS) .*/\1 = -1 ERR/' \
	    -e 's/\) +(= [^=]*)$/) \1/'
}

check() {	# name, expected file, options and sections...
	name=$1; file=$2; shift 2
	(cd /tmp && TZ=UTC exec "$U" -o "$tmp/out" "$@" \
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

check "termios and ioctl names" decode-term.out "$P" term
check "fcntl results" decode-fcntl.out "$P" fcntl
check "CPU sets" decode-cpu.out "$P" cpu
check "sigaction flags" decode-sigaction.out "$P" sigaction
check "select, pselect6" decode-select.out "$P" select
check "poll, ppoll" decode-poll.out "$P" poll
check "-y: descriptors in fd sets, not in results" decode-y.out -y \
	"$P" select poll
check "statfs" decode-statfs.out "$P" statfs
check "timers, inotify, capabilities, groups ..." decode-misc.out "$P" misc
check "prctl" decode-prctl.out "$P" prctl
check "socket options" decode-sockopt.out "$P" sockopt
check "recvmsg" decode-msg.out "$P" msg
check "utimensat, faccessat2" decode-time.out "$P" time
check "siginfo" decode-siginfo.out "$P" siginfo
check "clone, clone3 split across another process's lines" \
	decode-clone.out -f -qq -e trace=chdir,clone,clone3,getppid \
	-e signal=none "$P" clone
check "-s 0: arrays too" decode-s0.out -s 0 -e trace=chdir,write,poll \
	"$P" strs
check "-s 2" decode-s2.out -s 2 -e trace=chdir,write,poll "$P" strs
check "poll result cut where strace's buffer ends" decode-bigpoll.out -s 100 \
	-e trace=chdir,poll,ppoll "$P" bigpoll
check "umask, epoll_ctl DEL, 15-character names, interrupted sleeps" \
	decode-fixes.out "$P" fixes
check "int and mode arguments: the C type's width only" decode-widths.out \
	"$P" widths
check "O_SYNC and __O_SYNC" decode-osync.out "$P" osync
check "-y: a SIGIO's si_fd" decode-sigio.out -y \
	-e trace=chdir,write,exit_group "$P" sigio
check "%desc: no close_range" decode-classes.out -e trace=%desc,chdir \
	"$P" classes
check "%signal: io_uring_enter" decode-classes.out -e trace=%signal,chdir \
	"$P" classes
check "--inject signal=: si_code SI_KERNEL only" decode-inject.out \
	-e trace=chdir --inject=chdir:signal=SIGUSR2:when=2 "$P" inject
check "syscalls newer than strace 6.1: raw" decode-unknown.out \
	"$P" unknown
check "strings: octal escapes" decode-hex-plain.out -e trace=write,chdir \
	"$P" hex
check "-x: non-ASCII strings in hex" decode-hex-x.out -x \
	-e trace=write,chdir "$P" hex
check "--strings-in-hex=non-ascii-chars" decode-hex-non-ascii-chars.out \
	--strings-in-hex=non-ascii-chars -e trace=write,chdir "$P" hex
check "wait4 flags, seccomp, FIEMAP, FS_IOC_[GS]ETFLAGS (from real programs)" \
	decode-realprogs.out "$P" realprogs
check "-v: seccomp filter programs (BPF_STMT, BPF_JUMP)" \
	decode-realprogs-v.out -v "$P" realprogs
check "-X verbose: socket addresses' bytes, then the address" \
	decode-realprogs-xv.out -X verbose -e trace=chdir,connect,socket \
	"$P" realprogs
check "netlink messages: NETLINK_ROUTE links and addresses, inet and unix sock_diag, ACKs" \
	decode-netlink.out "$P" netlink
check "netlink messages: -s cuts strings, not the messages" \
	decode-netlink-s3.out -s 3 -e trace=chdir,sendto,recvmsg,recvfrom \
	"$P" netlink
check "netlink messages: -x (names in hex with their NUL), -X verbose" \
	decode-netlink-xv.out -x -X verbose \
	-e trace=chdir,sendto,recvmsg,recvfrom \
	"$P" netlink
check "netlink messages: -X raw" decode-netlink-xr.out -X raw \
	-e trace=chdir,sendto "$P" netlink
check "path and descriptor twins: one decoder each (xattr flags and values)" \
	decode-twins.out "$P" twins
check "path and descriptor twins: -x" decode-twins-x.out -x "$P" twins
check "-e verbose=none: structures as addresses, strings kept" \
	decode-twins-nov.out -e verbose=none "$P" twins
check "-Y: pids in arguments, results and siginfo with their names" \
	decode-pids-y.out -Y "$P" pids
# --pidns-translation: the program in a pid namespace of its own, its
# pids (1, 2) with utrace's in a comment; only the program's lines.
if unshare -pf true 2>/dev/null; then
	(cd /tmp && exec "$U" --pidns-translation -f -qq \
		-e 'trace=!set_robust_list,exit_group' -o "$tmp/out" \
		unshare -pf "$P" pids </dev/null >/dev/null 2>"$tmp/err")
	awk '/utrace-marker/ { p = $1 } p && $1 == p' "$tmp/out" | norm \
		>"$tmp/got"
	norm <"$exp/decode-pids-ns.out" >"$tmp/want"
	if diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	   cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - --pidns-translation: pids of another namespace"
	else
		echo "not ok - --pidns-translation: pids of another namespace"
	fi
else
	echo "ok - --pidns-translation # SKIP unshare -pf: no pid namespaces"
fi
# -e kvm=vcpu: KVM's requests and each KVM_RUN's exit reason, on a guest
# of seven bytes.
"$O/test/progs/kvm_run" >/dev/null 2>&1
if [ $? -eq 0 ]; then
	(cd /tmp && exec "$U" -e kvm=vcpu -e trace=ioctl -o "$tmp/out" \
		"$O/test/progs/kvm_run" </dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	norm <"$tmp/out" >"$tmp/got"
	norm <"$exp/decode-kvm.out" >"$tmp/want"
	if [ $rc -eq 0 ] && diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	   cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - -e kvm=vcpu: KVM requests, KVM_RUN's exit reasons"
	else
		echo "not ok - -e kvm=vcpu: KVM requests, KVM_RUN's exit reasons"
	fi
else
	echo "ok - -e kvm=vcpu # SKIP no usable /dev/kvm"
fi
# -xx writes the marker in hex too.
xx() {	# name, expected file, options and sections...
	name=$1; file=$2; shift 2
	(cd /tmp && exec "$U" -o "$tmp/out" -xx "$@" \
		</dev/null >/dev/null 2>&1)
	sed -n '/\\x6d\\x61\\x72\\x6b\\x65\\x72"/,$p' "$tmp/out" | norm >"$tmp/got"
	norm <"$exp/$file" >"$tmp/want"
	if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	   cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}
xx "-xx: all strings in hex" decode-hex-xx.out -e trace=write,chdir "$P" hex
xx "-xx: socket addresses in hex too" decode-realprogs-xx.out \
	-e trace=chdir,connect "$P" realprogs
