#!/bin/sh
# -v / --no-abbrev: run the "verbose" section of test/progs/cli_paths with
# -s 4, with and without -v, and diff with recordings of strace 6.1 made
# with the same options (fields that depend on the file system, the
# machine or the clock masked: device, inode, ids, blocks, ctime, uname's
# strings, rusage counts).
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
exp=$(dirname "$0")/expected
case $exp in /*) ;; *) exp=$(pwd)/$exp ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$O/test/progs/cli_paths
T=chdir,execve,newfstatat,fstat,stat,lstat,statx,uname,wait4,poll
T=$T,getdents64,getdents

norm() {
	sed -E -e 's/0x[0-9a-f]{8,}/ADDR/g' \
	    -e 's/st_dev=makedev\([^)]*\)/st_dev=DEV/' \
	    -e 's/(st_ino|st_uid|st_gid|st_blksize|st_blocks)=[0-9]+/\1=N/g' \
	    -e 's|st_ctime=[0-9]+ /\* [^*]* \*/, st_ctime_nsec=[0-9]+|st_ctime=CTIME|' \
	    -e 's/stx_mask=[A-Z_|]+/stx_mask=MASK/' \
	    -e 's/(stx_attributes|stx_attributes_mask)=[A-Z_|0-9]+/\1=ATTRS/g' \
	    -e 's/(stx_blksize|stx_uid|stx_gid|stx_ino|stx_blocks|stx_dev_major|stx_dev_minor)=[0-9]+/\1=N/g' \
	    -e 's|, stx_btime=\{[^}]*\} /\* [^*]* \*/||' \
	    -e 's|stx_ctime=\{[^}]*\} /\* [^*]* \*/|stx_ctime=CTIME|' \
	    -e 's/stx_mnt_id=0x[0-9a-f]+/stx_mnt_id=ID/' \
	    -e 's/(nodename|release|version|domainname)="[^"]*"/\1=S/g' \
	    -e 's/^wait4\([0-9]+,(.*) = [0-9]+$/wait4(PID,\1 = PID/' \
	    -e 's/(ru_[a-z]+|tv_usec)=[0-9]+/\1=N/g' \
	    -e 's/d_ino=[0-9]+, d_off=[0-9]+/d_ino=N, d_off=N/g' \
	    -e 's/d_name="\.\.?"/d_name=DOT/g' \
	    -e 's/\) +(= [^=]*)$/) \1/'
}

check() {	# name, expected file, options...
	name=$1; file=$2; shift 2
	rm -rf "$tmp/w" && mkdir "$tmp/w"
	(cd "$tmp/w" && TZ=UTC exec "$U" -o "$tmp/out" -s 4 -e signal=none \
		-e trace=$T "$@" "$P" verbose </dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	sed -n '/utrace-marker/,$p' "$tmp/out" | norm >"$tmp/got"
	if [ $rc -ne 3 ]; then
		echo "not ok - $name: exit status $rc, expected 3"
		sed 's/^/# /' "$tmp/err"
	elif grep -v '^--- SIG' "$exp/$file" | norm >"$tmp/want" &&
	     diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
	     cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

check "without -v: stat, statx, uname, rusage, execve, poll, getdents abbreviated" \
	verbose-abbrev.out
check "-v: in full" verbose-v.out -v
check "--no-abbrev" verbose-v.out --no-abbrev

# termios with -v: c_line and c_cc too (test/progs/cli_decode's "term").
ln -s "$O/test/progs/cli_decode" "$tmp/prog"
(cd /tmp && exec "$U" -v -o "$tmp/out" "$tmp/prog" term \
	</dev/null >/dev/null 2>"$tmp/err")
rc=$?
sed -n '/utrace-marker/,$p' "$tmp/out" | norm >"$tmp/got"
if [ $rc -eq 3 ] && norm <"$exp/verbose-term.out" >"$tmp/want" &&
   diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' >&2 &&
   cmp -s "$tmp/want" "$tmp/got"; then
	echo "ok - -v: termios in full"
else
	echo "not ok - -v: termios in full (exit $rc)"
fi

# -e abbrev=SET: only the syscalls of SET abbreviated; the last of -v and
# -e abbrev= wins.  The -v recording with the abbreviated statx and
# execve lines of the other one.
grep -v '^--- SIG' "$exp/verbose-v.out" | norm >"$tmp/v"
grep -v '^--- SIG' "$exp/verbose-abbrev.out" | norm >"$tmp/a"
awk 'NR == FNR { if ($0 ~ /^(statx|execve)\(/) ab[$0 ~ /^statx/] = $0; next }
     /^statx\(/ { print ab[1]; next } /^execve\(/ { print ab[0]; next }
     { print }' "$tmp/a" "$tmp/v" >"$tmp/mixed"
check_mixed() {	# name, options...
	name=$1; shift
	rm -rf "$tmp/w" && mkdir "$tmp/w"
	(cd "$tmp/w" && TZ=UTC exec "$U" -o "$tmp/out" -s 4 -e signal=none \
		-e trace=$T "$@" "$P" verbose </dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	sed -n '/utrace-marker/,$p' "$tmp/out" | norm >"$tmp/got"
	if [ $rc -eq 3 ] && diff -u "$tmp/mixed" "$tmp/got" |
	   sed 's/^/# /' >&2 && cmp -s "$tmp/mixed" "$tmp/got"; then
		echo "ok - $name"
	else
		echo "not ok - $name (exit $rc)"
	fi
}
check_mixed "-e abbrev=statx,execve" -e abbrev=statx,execve
check_mixed "-e abbrev=all then -v then --abbrev=" -e abbrev=all -v \
	--abbrev=statx,execve
check_mixed "-e abbrev=!...: all but these" \
	-e 'abbrev=!newfstatat,uname,wait4,poll,getdents64,getdents'
