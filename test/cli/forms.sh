#!/bin/sh
# strace's output forms: run test/progs/cli_basic under utrace with various
# options and diff the trace with the expected files (recorded from and
# checked against strace 6.1; addresses and inode numbers masked).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(dirname "$0")/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A short program path: strace's -s 32 would cut a long one in execve.
ln -s "$O/test/progs/cli_basic" "$tmp/prog"
P=$tmp/prog

norm() {
	sed -E -e 's/0x[0-9a-f]{8,}/ADDR/g' -e "s|$P|PROG|g" \
	    -e 's|/\* [0-9]+ vars \*/|/* N vars */|' \
	    -e 's/(pipe|socket):\[[0-9]+\]/\1:[INO]/g' \
	    -e 's/AT_FDCWD<[^>]*>/AT_FDCWD<CWD>/g' \
	    -e 's/st_size=[0-9]+/st_size=N/g' \
	    -e 's/^(set_tid_address\(ADDR\) +)= [0-9]+/\1= PID/' \
	    -e 's/\) +(= [^=]*)$/) \1/'
}

check() {	# name, expected file, marker (1: from the marker on), options...
	name=$1; file=$2; marker=$3; shift 3
	# cli_basic dup2()s onto fd 10: close it in case we inherited it, so
	# the -y decoding of the new descriptor is the same everywhere.
	(cd /tmp && exec bash -c 'exec 10>&-; exec "$@"' - \
		"$U" -o "$tmp/out" "$@" "$P" >/dev/null 2>"$tmp/err")
	rc=$?
	if [ "$marker" = 1 ]; then
		sed -n '/utrace-marker/,$p' "$tmp/out" | norm >"$tmp/got"
	else
		norm <"$tmp/out" >"$tmp/got"
	fi
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

check "default output" basic.out 1
check "-y -s 8" basic-y.out 1 -y -s 8
check "-e trace=%file" file.out 0 -e trace=%file
check "-e trace=!negation" neg.out 0 -e \
	'trace=!close,read,write,mmap,mprotect,brk,pread64,newfstatat,arch_prctl,set_tid_address,set_robust_list,rseq,prlimit64,munmap,access,execve,openat'
check "-e trace=/regex" regex.out 0 -e 'trace=/^(open|close)'
check "-e trace=?unknown" optional.out 0 -e 'trace=?nosuchcall,write,chdir'
check "-Z (failed only)" failed.out 0 -Z
check "-e raw=SET: those undecoded, results in hex" raw.out 1 \
	-e raw=openat,close,write,dup2,exit_group \
	-e trace=chdir,openat,close,write,dup2,exit_group
check "-e verbose=none: structures as addresses, strings kept" \
	verbose-none.out 1 -e verbose=none
check "-e status=successful with %network" network.out 0 \
	-e status=successful -e trace=%network
