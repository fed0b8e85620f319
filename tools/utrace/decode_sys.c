// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-syscall decoders.  Each is called at entry and, unless it returned
 * true there, again at exit; output arguments are printed at exit, like
 * strace does.  Dispatch is by name, resolved through libseccomp.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/sysmacros.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>

#include "decode.h"
#include "xlat.h"

#define A(i)	(c->a[i])
#define IA(i)	((int)c->a[i])
#define SEP()	dec_sep(c)
/* Bound on the iovecs summed to find how much a writev() wrote. */
#define MAX_IOV 1024

#define failed(c)	dec_failed(c)

static void put_timeval(struct dec_ctx *c, const struct timeval *tv)
{
	dec_printf(c, "{tv_sec=%lld, tv_usec=%ld}", (long long)tv->tv_sec,
		   (long)tv->tv_usec);
}

static void dec_timeval(struct dec_ctx *c, unsigned long addr)
{
	struct timeval tv;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &tv, sizeof(tv)))
		put_timeval(c, &tv);
	else
		dec_ptr(c, addr);
}

/* Pointer printed at exit only if the call succeeded, else the address. */
static bool out_ok(struct dec_ctx *c, unsigned long addr)
{
	if (!addr) {
		dec_puts(c, "NULL");
		return false;
	}
	if (failed(c)) {
		dec_ptr(c, addr);
		return false;
	}
	return true;
}

static void put_mode_type(struct dec_ctx *c, unsigned mode)
{
	static const struct xlat types[] = {
		XLAT(S_IFREG), XLAT(S_IFSOCK), XLAT(S_IFIFO), XLAT(S_IFLNK),
		XLAT(S_IFDIR), XLAT(S_IFBLK), XLAT(S_IFCHR), XLAT_END
	};
	const char *t = xlat_name(types, mode & S_IFMT);

	if (t)
		dec_printf(c, "%s|", t);
	if (mode & S_ISUID)
		dec_puts(c, "S_ISUID|");
	if (mode & S_ISGID)
		dec_puts(c, "S_ISGID|");
	if (mode & S_ISVTX)
		dec_puts(c, "S_ISVTX|");
	dec_printf(c, "%#03o", mode & 0777);
}

static void put_dev(struct dec_ctx *c, unsigned long long dev)
{
	dec_printf(c, "makedev(%#x, %#x)", major(dev), minor(dev));
}

static void dec_stat(struct dec_ctx *c, unsigned long addr)
{
	struct stat st;

	if (!out_ok(c, addr))
		return;
	if (!dec_read(c, addr, &st, sizeof(st))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{st_mode=");
	put_mode_type(c, st.st_mode);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		dec_puts(c, ", st_rdev=");
		put_dev(c, st.st_rdev);
	} else {
		dec_printf(c, ", st_size=%lld", (long long)st.st_size);
	}
	dec_puts(c, ", ...}");
}

static void dec_statx(struct dec_ctx *c, unsigned long addr)
{
	struct statx st;

	if (!out_ok(c, addr))
		return;
	if (!dec_read(c, addr, &st, sizeof(st))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{stx_mask=");
	dec_flags(c, xlat_statx_mask, st.stx_mask, NULL);
	dec_puts(c, ", stx_attributes=");
	dec_flags(c, xlat_statx_attrs, st.stx_attributes, NULL);
	dec_puts(c, ", stx_mode=");
	put_mode_type(c, st.stx_mode);
	dec_printf(c, ", stx_size=%llu, ...}", (unsigned long long)st.stx_size);
}

/* -- Files and descriptors ---------------------------------------------- */

static bool d_fd_only(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	return true;
}

static bool d_read(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		dec_buf(c, A(1), (unsigned long)c->ret);
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_write(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_buf(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_pread(struct dec_ctx *c)
{
	if (!d_read(c))
		return false;
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

static bool d_pwrite(struct dec_ctx *c)
{
	d_write(c);
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

static void dec_iov(struct dec_ctx *c, unsigned long addr, unsigned long cnt,
		    long data_len)
{
	unsigned long i;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < cnt; i++) {
		struct iovec iov;

		if (dec_array_cut(c, i))
			break;
		if (!dec_read(c, addr + i * sizeof(iov), &iov, sizeof(iov))) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			dec_puts(c, ", ...");
			break;
		}
		dec_printf(c, "%s{iov_base=", i ? ", " : "");
		if (data_len < 0) {
			dec_ptr(c, (unsigned long)iov.iov_base);
		} else {
			unsigned long n = iov.iov_len < (unsigned long)data_len ?
					  iov.iov_len : (unsigned long)data_len;

			dec_buf(c, (unsigned long)iov.iov_base, n);
			data_len -= (long)n;
		}
		dec_printf(c, ", iov_len=%zu}", iov.iov_len);
	}
	dec_puts(c, "]");
}

static bool d_readv(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	dec_iov(c, A(1), A(2), failed(c) ? -1 : c->ret);
	SEP();
	dec_ulong(c, A(2));
	if (c->saved) {
		SEP();
		dec_printf(c, "%ld", (long)A(3));
	}
	return true;
}

static bool d_writev(struct dec_ctx *c)
{
	long total = 0;
	unsigned long i;

	for (i = 0; i < A(2) && i < MAX_IOV; i++) {
		struct iovec iov;

		if (!dec_read(c, A(1) + i * sizeof(iov), &iov, sizeof(iov)))
			break;
		total += (long)iov.iov_len;
	}
	dec_fd(c, IA(0));
	SEP();
	dec_iov(c, A(1), A(2), total);
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_preadv(struct dec_ctx *c)
{
	c->saved = 1;
	return d_readv(c);
}

static bool d_pwritev(struct dec_ctx *c)
{
	d_writev(c);
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

static void put_open_flags(struct dec_ctx *c, unsigned long flags)
{
	const char *acc = xlat_name(xlat_open_access, flags & O_ACCMODE);

	if (acc) {
		dec_puts(c, acc);
		flags &= ~(unsigned long)O_ACCMODE;
		if (!flags)
			return;
		dec_puts(c, "|");
	}
	dec_flags(c, xlat_open_flags, flags, NULL);
}

static void open_tail(struct dec_ctx *c, unsigned long flags,
		      unsigned long mode)
{
	put_open_flags(c, flags);
	if (flags & (O_CREAT | 020000000)) {
		SEP();
		dec_mode(c, (unsigned)mode);
	}
}

static bool d_open(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	open_tail(c, A(1), A(2));
	c->rval = RV_FD;
	return true;
}

static bool d_openat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	open_tail(c, A(2), A(3));
	c->rval = RV_FD;
	return true;
}

static bool d_openat2(struct dec_ctx *c)
{
	struct {
		uint64_t flags, mode, resolve;
	} how;

	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	if (dec_read(c, A(2), &how, sizeof(how))) {
		dec_puts(c, "{flags=");
		put_open_flags(c, how.flags);
		dec_printf(c, ", mode=%#03llo, resolve=%#llx}",
			   (unsigned long long)how.mode,
			   (unsigned long long)how.resolve);
	} else {
		dec_ptr(c, A(2));
	}
	SEP();
	dec_ulong(c, A(3));
	c->rval = RV_FD;
	return true;
}

static bool d_creat(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_mode(c, (unsigned)A(1));
	c->rval = RV_FD;
	return true;
}

static bool d_path_stat(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_path(c, A(0));
		SEP();
		return false;
	}
	dec_stat(c, A(1));
	return true;
}

static bool d_fstat(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	dec_stat(c, A(1));
	return true;
}

static bool d_newfstatat(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_dirfd(c, IA(0));
		SEP();
		dec_path(c, A(1));
		SEP();
		return false;
	}
	dec_stat(c, A(2));
	SEP();
	dec_flags(c, xlat_at_flags, A(3), NULL);
	return true;
}

static bool d_statx(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_dirfd(c, IA(0));
		SEP();
		dec_path(c, A(1));
		SEP();
		if ((A(2) & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_AS_STAT) {
			dec_puts(c, "AT_STATX_SYNC_AS_STAT");
			if (A(2))
				dec_puts(c, "|");
		}
		if (A(2))
			dec_flags(c, xlat_statx_flags, A(2), NULL);
		SEP();
		dec_flags(c, xlat_statx_mask, A(3), NULL);
		SEP();
		return false;
	}
	dec_statx(c, A(4));
	return true;
}

static bool d_lseek(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_printf(c, "%ld", (long)A(1));
	SEP();
	dec_xval(c, xlat_seek, A(2), "SEEK_???");
	return true;
}

static void put_access_mode(struct dec_ctx *c, unsigned long m)
{
	if (!m)
		dec_puts(c, "F_OK");
	else
		dec_flags(c, xlat_access_modes, m, NULL);
}

static bool d_access(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	put_access_mode(c, A(1));
	return true;
}

static bool d_faccessat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	put_access_mode(c, A(2));
	return true;
}

static bool d_faccessat2(struct dec_ctx *c)
{
	d_faccessat(c);
	SEP();
	dec_flags(c, xlat_faccessat_flags, A(3), "AT_???");
	return true;
}

static void put_out_str(struct dec_ctx *c, unsigned long addr, long len)
{
	if (failed(c) || len < 0)
		dec_ptr(c, addr);
	else
		dec_buf(c, addr, (unsigned long)len);
}

static bool d_readlink(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_path(c, A(0));
		SEP();
		return false;
	}
	put_out_str(c, A(1), c->ret);
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_readlinkat(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_dirfd(c, IA(0));
		SEP();
		dec_path(c, A(1));
		SEP();
		return false;
	}
	put_out_str(c, A(2), c->ret);
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_getdents(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	dec_ptr(c, A(1));
	if (!failed(c)) {
		unsigned char *buf = malloc((size_t)c->ret + 1);
		long off = 0, n = 0;

		if (buf && dec_read(c, A(1), buf, (size_t)c->ret)) {
			while (off + 18 < c->ret) {
				unsigned short reclen;

				memcpy(&reclen, buf + off + 16, sizeof(reclen));
				if (!reclen)
					break;
				off += reclen;
				n++;
			}
		}
		free(buf);
		dec_printf(c, " /* %ld entries */", n);
	}
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_getcwd(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (failed(c))
		dec_ptr(c, A(0));
	else
		dec_path(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static bool d_path(struct dec_ctx *c)
{
	dec_path(c, A(0));
	return true;
}

static bool d_path_path(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_path(c, A(1));
	return true;
}

static bool d_path_mode(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_mode(c, (unsigned)A(1));
	return true;
}

static bool d_fd_mode(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_mode(c, (unsigned)A(1));
	return true;
}

static bool d_dirfd_path_mode(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	dec_mode(c, (unsigned)A(2));
	return true;
}

static bool d_fchmodat(struct dec_ctx *c)
{
	return d_dirfd_path_mode(c);
}

static void put_mknod(struct dec_ctx *c, unsigned long path, unsigned mode,
		      unsigned long dev)
{
	dec_path(c, path);
	SEP();
	put_mode_type(c, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		SEP();
		put_dev(c, dev);
	}
}

static bool d_mknod(struct dec_ctx *c)
{
	put_mknod(c, A(0), (unsigned)A(1), A(2));
	return true;
}

static bool d_mknodat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	put_mknod(c, A(1), (unsigned)A(2), A(3));
	return true;
}

static bool d_unlinkat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	dec_flags(c, xlat_at_flags, A(2), NULL);
	return true;
}

static bool d_renameat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	dec_dirfd(c, IA(2));
	SEP();
	dec_path(c, A(3));
	return true;
}

static bool d_renameat2(struct dec_ctx *c)
{
	d_renameat(c);
	SEP();
	dec_flags(c, xlat_rename_flags, A(4), NULL);
	return true;
}

static bool d_linkat(struct dec_ctx *c)
{
	d_renameat(c);
	SEP();
	dec_flags(c, xlat_at_flags, A(4), NULL);
	return true;
}

static bool d_symlinkat(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_dirfd(c, IA(1));
	SEP();
	dec_path(c, A(2));
	return true;
}

static void put_id(struct dec_ctx *c, unsigned long id)
{
	dec_int(c, (int)id);
}

static bool d_chown(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	put_id(c, A(1));
	SEP();
	put_id(c, A(2));
	return true;
}

static bool d_fchown(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	put_id(c, A(1));
	SEP();
	put_id(c, A(2));
	return true;
}

static bool d_fchownat(struct dec_ctx *c)
{
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	put_id(c, A(2));
	SEP();
	put_id(c, A(3));
	SEP();
	dec_flags(c, xlat_at_flags, A(4), NULL);
	return true;
}

static bool d_truncate(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_printf(c, "%ld", (long)A(1));
	return true;
}

static bool d_ftruncate(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_printf(c, "%ld", (long)A(1));
	return true;
}

static bool d_umask(struct dec_ctx *c)
{
	dec_mode(c, (unsigned)A(0));
	c->rval = RV_OCT;
	return true;
}

static bool d_dup(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	c->rval = RV_FD;
	return true;
}

static bool d_dup2(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_fd(c, IA(1));
	c->rval = RV_FD;
	return true;
}

static bool d_dup3(struct dec_ctx *c)
{
	d_dup2(c);
	SEP();
	dec_flags(c, xlat_pipe_flags, A(2), NULL);
	return true;
}

static void put_fd_pair(struct dec_ctx *c, unsigned long addr)
{
	int fds[2];

	if (!out_ok(c, addr))
		return;
	if (!dec_read(c, addr, fds, sizeof(fds))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "[");
	dec_fd(c, fds[0]);
	dec_puts(c, ", ");
	dec_fd(c, fds[1]);
	dec_puts(c, "]");
}

static bool d_pipe(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	put_fd_pair(c, A(0));
	return true;
}

static bool d_pipe2(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	put_fd_pair(c, A(0));
	SEP();
	dec_flags(c, xlat_pipe_flags, A(1), NULL);
	return true;
}

static void put_flock(struct dec_ctx *c, unsigned long addr)
{
	struct flock fl;

	if (!dec_read(c, addr, &fl, sizeof(fl))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{l_type=");
	dec_xval(c, xlat_lock_types, (unsigned)fl.l_type, "F_???");
	dec_puts(c, ", l_whence=");
	dec_xval(c, xlat_seek, (unsigned)fl.l_whence, "SEEK_???");
	dec_printf(c, ", l_start=%lld, l_len=%lld", (long long)fl.l_start,
		   (long long)fl.l_len);
	if (c->exiting)
		dec_printf(c, ", l_pid=%d", fl.l_pid);
	dec_puts(c, "}");
}

static void put_owner_ex(struct dec_ctx *c, unsigned long addr)
{
	static const struct xlat types[] = {
		XLAT(F_OWNER_TID), XLAT(F_OWNER_PID), XLAT(F_OWNER_PGRP),
		XLAT_END
	};
	struct f_owner_ex o;

	if (!dec_read(c, addr, &o, sizeof(o))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{type=");
	dec_xval(c, types, (unsigned)o.type, "F_OWNER_???");
	dec_printf(c, ", pid=%d}", o.pid);
}

/* The note after a result: " (flags O_RDWR)" and the like. */
static void fcntl_result(struct dec_ctx *c, unsigned long cmd)
{
	struct sbuf tmp = { 0 };
	struct sbuf *save = c->out;
	unsigned long r = (unsigned long)c->ret;
	const char *n;

	switch (cmd) {
	case F_GETFD:
	case F_GET_SEALS:
		if (!r)
			return;
		c->out = &tmp;
		dec_flags(c, cmd == F_GETFD ? xlat_fd_flags : xlat_seals, r,
			  NULL);
		c->out = save;
		dec_note(c, " (%s %s)", cmd == F_GETFD ? "flags" : "seals",
			 sb_str(&tmp));
		break;
	case F_GETFL:
		c->out = &tmp;
		put_open_flags(c, r);
		c->out = save;
		dec_note(c, " (flags %s)", sb_str(&tmp));
		break;
	case F_GETLEASE:
		n = xlat_name(xlat_lock_types, r);
		if (n)
			dec_note(c, " (%s)", n);
		break;
	case F_GETSIG:
		if (r)
			dec_note(c, " (%s)", signame((int)r));
		return;
	default:
		return;
	}
	c->rval = RV_HEX;
	sb_free(&tmp);
}

static bool d_fcntl(struct dec_ctx *c)
{
	unsigned long cmd = (unsigned)A(1);

	if (c->exiting) {
		if (failed(c))
			return true;
		switch (cmd) {
		case F_GETLK:
		case F_OFD_GETLK:
			SEP();
			put_flock(c, A(2));
			break;
		case F_GETOWN_EX:
			SEP();
			put_owner_ex(c, A(2));
			break;
		default:
			fcntl_result(c, cmd);
			break;
		}
		return true;
	}
	dec_fd(c, IA(0));
	SEP();
	dec_xval(c, xlat_fcntl_cmds, cmd, "F_???");
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		SEP();
		dec_int(c, IA(2));
		c->rval = RV_FD;
		return true;
	case F_SETFD:
		SEP();
		dec_flags(c, xlat_fd_flags, A(2), "FD_???");
		return true;
	case F_SETFL:
		SEP();
		put_open_flags(c, A(2));
		return true;
	case F_SETOWN:
	case F_SETPIPE_SZ:
		SEP();
		dec_int(c, IA(2));
		return true;
	case F_SETOWN_EX:
		SEP();
		put_owner_ex(c, A(2));
		return true;
	case F_NOTIFY:
		SEP();
		dec_flags(c, xlat_dn_flags, A(2), "DN_???");
		return true;
	case F_SETLEASE:
		SEP();
		dec_xval(c, xlat_lock_types, A(2), "F_???");
		return true;
	case F_ADD_SEALS:
		SEP();
		dec_flags(c, xlat_seals, A(2), "F_SEAL_???");
		return true;
	case F_SETSIG:
		SEP();
		dec_signal(c, (unsigned)A(2));
		return true;
	case F_GETOWN:
	case F_GETPIPE_SZ:
		return true;
	case F_GETFD:
	case F_GETFL:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GET_SEALS:
	case F_GETLK:
	case F_OFD_GETLK:
	case F_GETOWN_EX:
		return false;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		SEP();
		put_flock(c, A(2));
		return true;
	default:
		SEP();
		dec_hex(c, A(2));
		return true;
	}
}

static bool d_flock(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, xlat_flock_ops, A(1), NULL);
	return true;
}

static bool d_fadvise(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_printf(c, "%ld", (long)A(1));
	SEP();
	dec_printf(c, "%ld", (long)A(2));
	SEP();
	dec_xval(c, xlat_fadvise, A(3), "POSIX_FADV_???");
	return true;
}

static bool d_sendfile(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		dec_fd(c, IA(1));
		SEP();
		if (A(2)) {
			long long off = 0;

			dec_read(c, A(2), &off, sizeof(off));
			c->saved = (unsigned long long)off;
		}
		return false;
	}
	if (!A(2)) {
		dec_puts(c, "NULL");
	} else {
		long long off;

		if (!failed(c) && dec_read(c, A(2), &off, sizeof(off)))
			dec_printf(c, "[%lld => %lld]", (long long)c->saved,
				   off);
		else
			dec_printf(c, "[%lld]", (long long)c->saved);
	}
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_copy_file_range(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_ptr(c, A(1));
	SEP();
	dec_fd(c, IA(2));
	SEP();
	dec_ptr(c, A(3));
	SEP();
	dec_ulong(c, A(4));
	SEP();
	dec_flags(c, xlat_fd_flags, A(5), NULL);
	return true;
}

static void put_xattr_value(struct dec_ctx *c, unsigned long addr, long len)
{
	if (!addr)
		dec_puts(c, "NULL");
	else
		put_out_str(c, addr, len);
}

static bool d_getxattr(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_path(c, A(0));
		SEP();
		dec_cstr(c, A(1));
		SEP();
		return false;
	}
	put_xattr_value(c, A(2), A(3) ? c->ret : -1);
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_fgetxattr(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		dec_cstr(c, A(1));
		SEP();
		return false;
	}
	put_xattr_value(c, A(2), A(3) ? c->ret : -1);
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_setxattr(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_cstr(c, A(1));
	SEP();
	dec_buf(c, A(2), A(3));
	SEP();
	dec_ulong(c, A(3));
	SEP();
	dec_hex(c, A(4));
	return true;
}

static bool d_listxattr(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_path(c, A(0));
		SEP();
		return false;
	}
	put_xattr_value(c, A(1), A(2) ? c->ret : -1);
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_utimensat(struct dec_ctx *c)
{
	struct timespec ts[2];

	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	if (!A(2)) {
		dec_puts(c, "NULL");
	} else if (dec_read(c, A(2), ts, sizeof(ts))) {
		int i;

		dec_puts(c, "[");
		for (i = 0; i < 2; i++) {
			if (i)
				dec_puts(c, ", ");
			if (ts[i].tv_nsec == UTIME_NOW)
				dec_puts(c, "UTIME_NOW");
			else if (ts[i].tv_nsec == UTIME_OMIT)
				dec_puts(c, "UTIME_OMIT");
			else {
				dec_printf(c, "{tv_sec=%lld, tv_nsec=%ld}",
					   (long long)ts[i].tv_sec,
					   ts[i].tv_nsec);
				dec_time_comment(c, (long long)ts[i].tv_sec,
						 ts[i].tv_nsec);
			}
		}
		dec_puts(c, "]");
	} else {
		dec_ptr(c, A(2));
	}
	SEP();
	dec_flags(c, xlat_at_flags, A(3), NULL);
	return true;
}

static bool d_statfs_common(struct dec_ctx *c, unsigned long addr)
{
	struct statfs sf;
	const char *fs;

	if (!out_ok(c, addr))
		return true;
	if (!dec_read(c, addr, &sf, sizeof(sf))) {
		dec_ptr(c, addr);
		return true;
	}
	fs = xlat_name(xlat_fsmagic, (unsigned long)sf.f_type);
	if (fs)
		dec_printf(c, "{f_type=%s", fs);
	else
		dec_printf(c, "{f_type=%#lx", (unsigned long)sf.f_type);
	dec_printf(c, ", f_bsize=%ld, f_blocks=%lu, f_bfree=%lu, "
		   "f_bavail=%lu, f_files=%lu, f_ffree=%lu, "
		   "f_fsid={val=[%#x, %#x]}, f_namelen=%ld, f_frsize=%ld, "
		   "f_flags=",
		   (long)sf.f_bsize,
		   (unsigned long)sf.f_blocks, (unsigned long)sf.f_bfree,
		   (unsigned long)sf.f_bavail, (unsigned long)sf.f_files,
		   (unsigned long)sf.f_ffree, (unsigned)sf.f_fsid.__val[0],
		   (unsigned)sf.f_fsid.__val[1], (long)sf.f_namelen,
		   (long)sf.f_frsize);
	dec_flags(c, xlat_statfs_flags, (unsigned long)sf.f_flags, "ST_???");
	dec_puts(c, "}");
	return true;
}

static bool d_statfs(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_path(c, A(0));
		SEP();
		return false;
	}
	return d_statfs_common(c, A(1));
}

static bool d_fstatfs(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	return d_statfs_common(c, A(1));
}

/* -- Polling ---------------------------------------------------------------- */

/* The size of strace's buffers for the poll() and select() results. */
#define STRACE_BUF	1024

/* Append to a bounded buffer; never moves p past end - 1. */
static char *app(char *p, char *end, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static char *app(char *p, char *end, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p >= end - 1)
		return p;
	va_start(ap, fmt);
	n = vsnprintf(p, (size_t)(end - p), fmt, ap);
	va_end(ap);
	if (n < 0)
		return p;
	return p + n < end - 1 ? p + n : end - 1;
}

static void put_pollfds(struct dec_ctx *c, unsigned long addr,
			unsigned long n)
{
	unsigned long i;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		struct pollfd p;

		if (!dec_read(c, addr + i * sizeof(p), &p, sizeof(p))) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			dec_printf(c, ", ...");
			break;
		}
		if (dec_array_cut(c, i))
			break;
		dec_puts(c, i ? ", {fd=" : "{fd=");
		dec_fd(c, p.fd);
		if (p.fd >= 0) {
			dec_puts(c, ", events=");
			dec_flags(c, xlat_poll_events, (unsigned short)p.events,
				  "POLL???");
		}
		dec_puts(c, "}");
	}
	dec_puts(c, "]");
}

/*
 * The note after the result: the descriptors with events (no -y paths),
 * then what is left of the timeout; cut with "..." where strace's 1024
 * byte buffer would be full.
 */
static void poll_result(struct dec_ctx *c, unsigned long addr,
			unsigned long n, unsigned long ts)
{
	/* strace's buffer, after our " (" */
	char *out = c->rval_extra, *start = out + 2, *end = start + STRACE_BUF;
	char *p = start;
	unsigned long i;
	long printed = 0;

	if (failed(c))
		return;
	if (c->ret == 0) {
		dec_note(c, " (Timeout)");
		return;
	}
	if (!addr || !n)
		return;
	for (i = 0; i < n; i++) {
		struct sbuf fl = { 0 }, *save = c->out;
		struct pollfd pf;
		char fd[32];

		if (!dec_read(c, addr + i * sizeof(pf), &pf, sizeof(pf))) {
			p = app(p, end, "%s%#lx", p == start ? "[" : ", ",
				addr + i * sizeof(pf));
			break;
		}
		if (!pf.revents)
			continue;
		p = app(p, end, "%s", p == start ? "[" : ", ");
		if (printed + 1 > c->strsize) {
			p = app(p, end, "...");
			break;
		}
		snprintf(fd, sizeof(fd), "{fd=%d, revents=", pf.fd);
		c->out = &fl;
		dec_flags(c, xlat_poll_events, (unsigned short)pf.revents,
			  NULL);
		c->out = save;
		if (p + strlen(fd) + fl.len + 1 >=
		    end - (2 + 2 * sizeof(long) + sizeof(", ], ..."))) {
			p = app(p, end, "...");
			sb_free(&fl);
			break;
		}
		p = app(p, end, "%s%s}", fd, sb_str(&fl));
		sb_free(&fl);
		printed++;
	}
	if (p != start)
		p = app(p, end, "]");
	if (ts) {
		struct sbuf tmp = { 0 }, *save = c->out;

		c->out = &tmp;
		dec_timespec(c, ts);
		c->out = save;
		if (p + sizeof(", left ") + tmp.len < end)
			p = app(p, end, "%sleft %s", p == start ? "" : ", ",
				sb_str(&tmp));
		else
			p = app(p, end, ", ...");
		sb_free(&tmp);
	}
	if (p == start) {
		out[0] = '\0';
		return;
	}
	out[0] = ' ';
	out[1] = '(';
	snprintf(p, sizeof(c->rval_extra) - (size_t)(p - out), ")");
}

static bool d_poll(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_pollfds(c, A(0), (unsigned)A(1));
		SEP();
		dec_uint(c, (unsigned)A(1));
		SEP();
		dec_int(c, IA(2));
		return false;
	}
	poll_result(c, A(0), (unsigned)A(1), 0);
	return true;
}

static bool d_ppoll(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_pollfds(c, A(0), (unsigned)A(1));
		SEP();
		dec_uint(c, (unsigned)A(1));
		SEP();
		dec_timespec(c, A(2));
		SEP();
		dec_sigset(c, A(3), A(4));
		SEP();
		dec_ulong(c, A(4));
		return false;
	}
	poll_result(c, A(0), (unsigned)A(1), A(2));
	return true;
}

/* select's nfds, bounded as strace bounds it; bytes of each fd_set. */
static int select_nfds(struct dec_ctx *c, size_t *size)
{
	int nfds = IA(0);

	if (nfds < 0)
		nfds = 0;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	*size = (((size_t)nfds + 7) / 8 + sizeof(long) - 1) &
		~(sizeof(long) - 1);
	return nfds;
}

static void put_fdset(struct dec_ctx *c, unsigned long addr, int nfds,
		      unsigned long *set, size_t size)
{
	if (!set || !size || !dec_read(c, addr, set, size)) {
		dec_ptr(c, addr);
		return;
	}
	dec_bitset(c, set, (size_t)nfds, true);
}

/* The note after the result: " (in [3], out [4], left {...})". */
static void select_result(struct dec_ctx *c, int nfds, unsigned long *set,
			  size_t size)
{
	static const char *const names[] = { "in", "out", "except" };
	/* strace's buffer, after our " (" */
	char *out = c->rval_extra, *start = out + 2, *end = start + STRACE_BUF;
	char *p = start;
	const char *sep = "";
	int ready = (int)c->ret, i, j;

	if (!ready) {
		dec_note(c, " (Timeout)");
		return;
	}
	for (i = 0; i < 3 && ready > 0; i++) {
		bool first = true;

		if (!A(i + 1) || !set || !dec_read(c, A(i + 1), set, size))
			continue;
		for (j = 0; j < nfds; j++) {
			if (!(set[j / (8 * sizeof(long))] >>
			      (j % (8 * sizeof(long))) & 1))
				continue;
			if (p < end - (sizeof(", except [") + 3 * sizeof(int) +
				       2)) {
				if (first)
					p = app(p, end, "%s%s [%d", sep,
						names[i], j);
				else
					p = app(p, end, " %d", j);
				first = false;
				sep = ", ";
			}
			if (--ready == 0)
				break;
		}
		/* strace closes a bracket here even after an empty set */
		if (p != start)
			p = app(p, end + 1, "]");
	}
	if (A(4)) {
		struct sbuf tmp = { 0 }, *save = c->out;

		c->out = &tmp;
		if (c->nr == sys_number("select"))
			dec_timeval(c, A(4));
		else
			dec_timespec(c, A(4));
		c->out = save;
		if (p + sizeof("left ") + strlen(sep) + tmp.len < end)
			p = app(p, end, "%sleft %s", sep, sb_str(&tmp));
		sb_free(&tmp);
	}
	out[0] = ' ';
	out[1] = '(';
	snprintf(p, sizeof(c->rval_extra) - (size_t)(p - out), ")");
}

static bool d_select(struct dec_ctx *c)
{
	size_t size;
	int nfds = select_nfds(c, &size), i;
	unsigned long *set = size ? malloc(size) : NULL;

	if (c->exiting) {
		if (!failed(c))
			select_result(c, nfds, set, size);
		free(set);
		return true;
	}
	dec_int(c, IA(0));
	for (i = 1; i <= 3; i++) {
		SEP();
		put_fdset(c, A(i), nfds, set, size);
	}
	free(set);
	SEP();
	if (c->nr == sys_number("select")) {
		dec_timeval(c, A(4));
		return false;
	}
	dec_timespec(c, A(4));
	SEP();
	if (!A(5)) {
		dec_puts(c, "NULL");
	} else {
		unsigned long ss[2];

		if (!dec_read(c, A(5), ss, sizeof(ss))) {
			dec_ptr(c, A(5));
		} else {
			dec_puts(c, "{sigmask=");
			dec_sigset(c, ss[0], ss[1]);
			dec_printf(c, ", sigsetsize=%lu}", ss[1]);
		}
	}
	return false;
}

static void put_epoll_event(struct dec_ctx *c, const struct epoll_event *ev)
{
	dec_puts(c, "{events=");
	dec_flags(c, xlat_epoll_events, ev->events, NULL);
	dec_printf(c, ", data={u32=%u, u64=%llu}}", ev->data.u32,
		   (unsigned long long)ev->data.u64);
}

static bool d_epoll_ctl(struct dec_ctx *c)
{
	struct epoll_event ev;

	dec_fd(c, IA(0));
	SEP();
	dec_xval(c, xlat_epoll_ctl, A(1), "EPOLL_CTL_???");
	SEP();
	dec_fd(c, IA(2));
	SEP();
	if (!A(3))
		dec_puts(c, "NULL");
	else if (A(1) == EPOLL_CTL_DEL)	/* strace: only the address */
		dec_ptr(c, A(3));
	else if (dec_read(c, A(3), &ev, sizeof(ev)))
		put_epoll_event(c, &ev);
	else
		dec_ptr(c, A(3));
	return true;
}

static bool d_epoll_wait(struct dec_ctx *c)
{
	long i;

	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	if (failed(c)) {
		dec_ptr(c, A(1));
	} else {
		dec_puts(c, "[");
		for (i = 0; i < c->ret; i++) {
			struct epoll_event ev;

			if (dec_array_cut(c, (unsigned long)i))
				break;
			if (!dec_read(c, A(1) + (unsigned long)i * sizeof(ev),
				      &ev, sizeof(ev)))
				break;
			if (i)
				dec_puts(c, ", ");
			put_epoll_event(c, &ev);
		}
		dec_puts(c, "]");
	}
	SEP();
	dec_int(c, IA(2));
	SEP();
	dec_int(c, IA(3));
	if (c->nr == sys_number("epoll_pwait")) {
		SEP();
		dec_sigset(c, A(4), A(5));
		SEP();
		dec_ulong(c, A(5));
	}
	return true;
}

static bool d_epoll_create1(struct dec_ctx *c)
{
	dec_flags(c, xlat_epoll_flags, A(0), NULL);
	c->rval = RV_FD;
	return true;
}

static bool d_eventfd2(struct dec_ctx *c)
{
	dec_ulong(c, (unsigned)A(0));
	SEP();
	dec_flags(c, xlat_efd_flags, A(1), NULL);
	c->rval = RV_FD;
	return true;
}

static bool d_memfd_create(struct dec_ctx *c)
{
	dec_cstr(c, A(0));
	SEP();
	dec_flags(c, xlat_mfd_flags, A(1), NULL);
	c->rval = RV_FD;
	return true;
}

static bool d_close_range(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_fd(c, IA(1));
	c->out->len = c->argpos[c->nargs - 1];
	dec_printf(c, "%u", (unsigned)A(1));
	SEP();
	dec_hex(c, A(2));
	return true;
}

/* -- Memory ------------------------------------------------------------- */

static void put_prot(struct dec_ctx *c, unsigned long prot)
{
	if (!prot)
		dec_puts(c, "PROT_NONE");
	else
		dec_flags(c, xlat_prot, prot, NULL);
}

static bool d_mmap(struct dec_ctx *c)
{
	unsigned long fl = A(3);
	const char *type = xlat_name(xlat_map_type, fl & 3);

	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	put_prot(c, A(2));
	SEP();
	if (type)
		dec_puts(c, type);
	else
		dec_printf(c, "%#lx /* MAP_??? */", fl & 3);
	fl &= ~3UL;
	if (fl) {
		dec_puts(c, "|");
		dec_flags(c, xlat_map_flags, fl, NULL);
	}
	SEP();
	dec_fd(c, IA(4));
	SEP();
	dec_hex(c, A(5));
	c->rval = RV_HEX;
	return true;
}

static bool d_mprotect(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	put_prot(c, A(2));
	return true;
}

static bool d_munmap(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static bool d_brk(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	c->rval = RV_HEX;
	return true;
}

static bool d_mremap(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_flags(c, xlat_mremap_flags, A(3), NULL);
	if (A(3) & 2) {
		SEP();
		dec_ptr(c, A(4));
	}
	c->rval = RV_HEX;
	return true;
}

static bool d_madvise(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_xval(c, xlat_madvise, A(2), "MADV_???");
	return true;
}

static bool d_msync(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_flags(c, xlat_msync, A(2), NULL);
	return true;
}

static bool d_addr_len(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

/* -- Signals ------------------------------------------------------------ */

struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};

static void put_sigaction(struct dec_ctx *c, unsigned long addr)
{
	struct k_sigaction sa;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &sa, sizeof(sa))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{sa_handler=");
	if (sa.handler == (unsigned long)SIG_DFL)
		dec_puts(c, "SIG_DFL");
	else if (sa.handler == (unsigned long)SIG_IGN)
		dec_puts(c, "SIG_IGN");
	else
		dec_printf(c, "%#lx", sa.handler);
	dec_puts(c, ", sa_mask=");
	dec_sigmask_val(c->out, &sa.mask, 1);
	dec_puts(c, ", sa_flags=");
	dec_flags(c, xlat_sa_flags, sa.flags, NULL);
	if (sa.flags & 0x04000000)
		dec_printf(c, ", sa_restorer=%#lx", sa.restorer);
	dec_puts(c, "}");
}

static bool d_rt_sigaction(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_puts(c, signame(IA(0)));
		SEP();
		put_sigaction(c, A(1));
		SEP();
		return false;
	}
	if (out_ok(c, A(2)))
		put_sigaction(c, A(2));
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_rt_sigprocmask(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_sigprocmask, A(0), "SIG_???");
		SEP();
		dec_sigset(c, A(1), A(3));
		SEP();
		return false;
	}
	if (out_ok(c, A(2)))
		dec_sigset(c, A(2), A(3));
	SEP();
	dec_ulong(c, A(3));
	return true;
}

static bool d_rt_sigreturn(struct dec_ctx *c)
{
	/* After the return address was popped, sp points at the ucontext. */
	uint64_t mask;

	if (c->exiting)
		return true;
	if (dec_read(c, c->saved + 296, &mask, sizeof(mask))) {
		dec_puts(c, "{mask=");
		dec_sigmask_val(c->out, &mask, 1);
		dec_puts(c, "}");
	}
	return false;
}

static bool d_rt_sigsuspend(struct dec_ctx *c)
{
	dec_sigset(c, A(0), A(1));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static bool d_rt_sigpending(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (out_ok(c, A(0)))
		dec_sigset(c, A(0), A(1));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static bool d_rt_sigtimedwait(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_sigset(c, A(0), A(3));
		SEP();
		return false;
	}
	if (A(1) && !failed(c)) {
		siginfo_t si;

		if (dec_read(c, A(1), &si, sizeof(si)))
			format_siginfo(c->out, &si);
		else
			dec_ptr(c, A(1));
	} else {
		dec_ptr(c, A(1));
	}
	SEP();
	dec_timespec(c, A(2));
	SEP();
	dec_ulong(c, A(3));
	if (!failed(c))
		dec_note(c, " (%s)", signame((int)c->ret));
	return true;
}

static void put_siginfo_at(struct dec_ctx *c, unsigned long addr)
{
	siginfo_t si;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &si, sizeof(si)))
		format_siginfo(c->out, &si);
	else
		dec_ptr(c, addr);
}

static bool d_rt_sigqueueinfo(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_signal(c, (unsigned)A(1));
	SEP();
	put_siginfo_at(c, A(2));
	return true;
}

static bool d_rt_tgsigqueueinfo(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	SEP();
	dec_signal(c, (unsigned)A(2));
	SEP();
	put_siginfo_at(c, A(3));
	return true;
}

static void put_stack(struct dec_ctx *c, unsigned long addr)
{
	stack_t ss;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &ss, sizeof(ss))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{ss_sp=");
	dec_ptr(c, (unsigned long)ss.ss_sp);
	dec_puts(c, ", ss_flags=");
	dec_flags(c, xlat_sigaltstack_flags, (unsigned)ss.ss_flags, NULL);
	dec_printf(c, ", ss_size=%zu}", ss.ss_size);
}

static bool d_sigaltstack(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_stack(c, A(0));
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		put_stack(c, A(1));
	return true;
}

static bool d_kill(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_puts(c, IA(1) ? signame(IA(1)) : "0");
	return true;
}

static bool d_tgkill(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	SEP();
	dec_puts(c, IA(2) ? signame(IA(2)) : "0");
	return true;
}

static bool d_alarm(struct dec_ctx *c)
{
	dec_ulong(c, (unsigned)A(0));
	return true;
}

/* -- Processes ---------------------------------------------------------- */

static void put_str_array(struct dec_ctx *c, unsigned long addr, bool full)
{
	unsigned long i;
	unsigned long p;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!full) {
		for (i = 0; i < 4096; i++)
			if (!dec_read(c, addr + i * 8, &p, sizeof(p)) || !p)
				break;
		dec_printf(c, "%#lx /* %lu var%s */", addr, i,
			   i == 1 ? "" : "s");
		return;
	}
	dec_puts(c, "[");
	for (i = 0;; i++) {
		if (!dec_read(c, addr + i * 8, &p, sizeof(p))) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			break;
		}
		if (!p)
			break;
		if (dec_array_cut(c, i))
			break;
		if (i)
			dec_puts(c, ", ");
		dec_cstr(c, p);
	}
	dec_puts(c, "]");
}

static bool d_execve(struct dec_ctx *c)
{
	if (c->exiting)
		return true;
	dec_path(c, A(0));
	SEP();
	put_str_array(c, A(1), true);
	SEP();
	put_str_array(c, A(2), false);
	return false;
}

static bool d_execveat(struct dec_ctx *c)
{
	if (c->exiting)
		return true;
	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	put_str_array(c, A(2), true);
	SEP();
	put_str_array(c, A(3), false);
	SEP();
	dec_flags(c, xlat_at_flags, A(4), NULL);
	return false;
}

static bool d_exit(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	c->rval = RV_NONE;
	return true;
}

static void put_clone_flags(struct dec_ctx *c, unsigned long long fl,
			    bool with_sig)
{
	unsigned sig = with_sig ? (unsigned)(fl & 0xff) : 0;

	fl &= with_sig ? ~0xffULL : ~0ULL;
	if (fl)
		dec_flags(c, xlat_clone_flags, fl, NULL);
	if (sig)
		dec_printf(c, "%s%s", fl ? "|" : "", signame((int)sig));
	if (!fl && !sig)
		dec_puts(c, "0");
}

#define CLONE_EXIT_ARGS	(CLONE_PARENT_SETTID | CLONE_PIDFD | CLONE_SETTLS | \
			 CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)

/*
 * As strace: the stack and flags at entry, the rest at exit, where the
 * parent's tid (or pidfd) has been written.  So when another thread's line
 * cuts in, the entry part ends after the flags.
 */
static bool d_clone(struct dec_ctx *c)
{
	unsigned long fl = A(0);

	if (!c->exiting) {
		dec_puts(c, "child_stack=");
		dec_ptr(c, A(1));
		SEP();
		dec_puts(c, "flags=");
		put_clone_flags(c, fl, true);
		return !(fl & CLONE_EXIT_ARGS);
	}
	if (fl & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		SEP();
		dec_puts(c, "parent_tid=");
		dec_int_ptr(c, A(2));
	}
	if (fl & CLONE_SETTLS) {
		SEP();
		dec_printf(c, "tls=");
		dec_ptr(c, A(4));
	}
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		SEP();
		dec_puts(c, "child_tidptr=");
		dec_ptr(c, A(3));
	}
	return true;
}

struct clone_args_v0 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		 stack_size, tls;
};

static void put_addr64(struct dec_ctx *c, const char *name, uint64_t v)
{
	dec_printf(c, ", %s=", name);
	dec_ptr(c, (unsigned long)v);
}

/*
 * The structure at entry; at exit " => {parent_tid=[N]}" for what the
 * kernel wrote, then the size.
 */
static bool d_clone3(struct dec_ctx *c)
{
	struct clone_args_v0 ca;

	if (c->exiting) {
		if (!failed(c) && (c->saved & (CLONE_PIDFD |
					       CLONE_PARENT_SETTID)) &&
		    dec_read(c, A(0), &ca, sizeof(ca))) {
			const char *pre = " => {";

			if (ca.flags & CLONE_PIDFD) {
				dec_printf(c, "%spidfd=", pre);
				dec_int_ptr(c, (unsigned long)ca.pidfd);
				pre = ", ";
			}
			if (ca.flags & CLONE_PARENT_SETTID) {
				dec_printf(c, "%sparent_tid=", pre);
				dec_int_ptr(c, (unsigned long)ca.parent_tid);
			}
			dec_puts(c, "}");
		}
		SEP();
		dec_ulong(c, A(1));
		return true;
	}
	if (A(1) < sizeof(ca) || !dec_read(c, A(0), &ca, sizeof(ca))) {
		dec_ptr(c, A(0));
		SEP();
		dec_ulong(c, A(1));
		return true;
	}
	c->saved = ca.flags;
	dec_puts(c, "{flags=");
	put_clone_flags(c, ca.flags, false);
	if (ca.flags & CLONE_PIDFD)
		put_addr64(c, "pidfd", ca.pidfd);
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		put_addr64(c, "child_tid", ca.child_tid);
	if (ca.flags & CLONE_PARENT_SETTID)
		put_addr64(c, "parent_tid", ca.parent_tid);
	dec_puts(c, ", exit_signal=");
	if (ca.exit_signal < 0x7fffffff)
		dec_signal(c, (unsigned)ca.exit_signal);
	else
		dec_printf(c, "%llu", (unsigned long long)ca.exit_signal);
	put_addr64(c, "stack", ca.stack);
	dec_printf(c, ", stack_size=%#llx",
		   (unsigned long long)ca.stack_size);
	if (ca.flags & CLONE_SETTLS)
		put_addr64(c, "tls", ca.tls);
	dec_puts(c, "}");
	if (ca.flags & (CLONE_PIDFD | CLONE_PARENT_SETTID))
		return false;
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static void put_wstatus(struct dec_ctx *c, int s)
{
	if (WIFEXITED(s))
		dec_printf(c, "[{WIFEXITED(s) && WEXITSTATUS(s) == %d}]",
			   WEXITSTATUS(s));
	else if (WIFSIGNALED(s))
		dec_printf(c, "[{WIFSIGNALED(s) && WTERMSIG(s) == %s%s}]",
			   signame(WTERMSIG(s)),
			   WCOREDUMP(s) ? " && WCOREDUMP(s)" : "");
	else if (WIFSTOPPED(s))
		dec_printf(c, "[{WIFSTOPPED(s) && WSTOPSIG(s) == %s}]",
			   signame(WSTOPSIG(s)));
	else if (WIFCONTINUED(s))
		dec_puts(c, "[{WIFCONTINUED(s)}]");
	else
		dec_printf(c, "[%#x]", s);
}

static void put_rusage(struct dec_ctx *c, unsigned long addr)
{
	struct rusage ru;

	if (!out_ok(c, addr))
		return;
	if (!dec_read(c, addr, &ru, sizeof(ru))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{ru_utime=");
	put_timeval(c, &ru.ru_utime);
	dec_puts(c, ", ru_stime=");
	put_timeval(c, &ru.ru_stime);
	dec_puts(c, ", ...}");
}

static bool d_wait4(struct dec_ctx *c)
{
	int s;

	if (!c->exiting) {
		dec_int(c, IA(0));
		SEP();
		return false;
	}
	if (!A(1))
		dec_puts(c, "NULL");
	else if (c->ret > 0 && dec_read(c, A(1), &s, sizeof(s)))
		put_wstatus(c, s);
	else
		dec_ptr(c, A(1));
	SEP();
	dec_flags(c, xlat_wait_opts, A(2), NULL);
	SEP();
	put_rusage(c, A(3));
	return true;
}

static bool d_waitid(struct dec_ctx *c)
{
	siginfo_t si;

	if (!c->exiting) {
		dec_xval(c, xlat_idtype, A(0), "P_???");
		SEP();
		dec_int(c, IA(1));
		SEP();
		return false;
	}
	if (!A(2))
		dec_puts(c, "NULL");
	else if (!failed(c) && dec_read(c, A(2), &si, sizeof(si)))
		format_siginfo(c->out, &si);
	else
		dec_ptr(c, A(2));
	SEP();
	dec_flags(c, xlat_wait_opts, A(3), NULL);
	SEP();
	put_rusage(c, A(4));
	return true;
}

static bool d_uname(struct dec_ctx *c)
{
	struct utsname u;

	if (!c->exiting)
		return false;
	if (!out_ok(c, A(0)))
		return true;
	if (!dec_read(c, A(0), &u, sizeof(u))) {
		dec_ptr(c, A(0));
		return true;
	}
	dec_puts(c, "{sysname=");
	dec_quoted(c->out, (unsigned char *)u.sysname, sizeof(u.sysname), true);
	dec_puts(c, ", nodename=");
	dec_quoted(c->out, (unsigned char *)u.nodename, sizeof(u.nodename),
		   true);
	dec_puts(c, ", ...}");
	return true;
}

static bool d_sysinfo(struct dec_ctx *c)
{
	struct sysinfo si;

	if (!c->exiting)
		return false;
	if (!out_ok(c, A(0)))
		return true;
	if (!dec_read(c, A(0), &si, sizeof(si))) {
		dec_ptr(c, A(0));
		return true;
	}
	dec_printf(c, "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, "
		   "freeram=%lu, sharedram=%lu, bufferram=%lu, totalswap=%lu, "
		   "freeswap=%lu, procs=%u, totalhigh=%lu, freehigh=%lu, "
		   "mem_unit=%u}", si.uptime, si.loads[0], si.loads[1],
		   si.loads[2], si.totalram, si.freeram, si.sharedram,
		   si.bufferram, si.totalswap, si.freeswap, si.procs,
		   si.totalhigh, si.freehigh, si.mem_unit);
	return true;
}

static void put_rlim(struct dec_ctx *c, uint64_t v, const char *inf)
{
	if (v == UINT64_MAX)
		dec_puts(c, inf);
	else if (v > 1024 && v % 1024 == 0)
		dec_printf(c, "%llu*1024", (unsigned long long)(v / 1024));
	else
		dec_printf(c, "%llu", (unsigned long long)v);
}

static void put_rlimit(struct dec_ctx *c, unsigned long addr, const char *inf)
{
	uint64_t r[2];

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, r, sizeof(r))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{rlim_cur=");
	put_rlim(c, r[0], inf);
	dec_puts(c, ", rlim_max=");
	put_rlim(c, r[1], inf);
	dec_puts(c, "}");
}

static bool d_prlimit64(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_int(c, IA(0));
		SEP();
		dec_xval(c, xlat_rlimits, A(1), "RLIMIT_???");
		SEP();
		put_rlimit(c, A(2), "RLIM64_INFINITY");
		SEP();
		return false;
	}
	if (out_ok(c, A(3)))
		put_rlimit(c, A(3), "RLIM64_INFINITY");
	return true;
}

static bool d_getrlimit(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_rlimits, A(0), "RLIMIT_???");
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		put_rlimit(c, A(1), "RLIM_INFINITY");
	return true;
}

static bool d_setrlimit(struct dec_ctx *c)
{
	dec_xval(c, xlat_rlimits, A(0), "RLIMIT_???");
	SEP();
	put_rlimit(c, A(1), "RLIM_INFINITY");
	return true;
}

static bool d_getrusage(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_rusage_who, (unsigned long)(long)IA(0),
			 "RUSAGE_???");
		SEP();
		return false;
	}
	put_rusage(c, A(1));
	return true;
}

static bool d_times(struct dec_ctx *c)
{
	struct tms t;

	if (!c->exiting)
		return false;
	if (!out_ok(c, A(0)))
		return true;
	if (!dec_read(c, A(0), &t, sizeof(t))) {
		dec_ptr(c, A(0));
		return true;
	}
	dec_puts(c, "{tms_utime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_utime);
	dec_puts(c, ", tms_stime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_stime);
	dec_puts(c, ", tms_cutime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_cutime);
	dec_puts(c, ", tms_cstime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_cstime);
	dec_puts(c, "}");
	return true;
}

static bool d_int1(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	return true;
}

static bool d_int2(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

static bool d_int3(struct dec_ctx *c)
{
	d_int2(c);
	SEP();
	dec_int(c, IA(2));
	return true;
}

static bool d_getresuid(struct dec_ctx *c)
{
	int i;

	if (!c->exiting)
		return false;
	for (i = 0; i < 3; i++) {
		if (i)
			SEP();
		if (out_ok(c, A(i)))
			dec_int_ptr(c, A(i));
	}
	return true;
}

static bool d_arch_prctl(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_arch_prctl, A(0), "ARCH_???");
		SEP();
		if (A(0) == 0x1003 || A(0) == 0x1004)
			return false;
		dec_hex(c, A(1));
		return true;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else {
		unsigned long v;

		if (dec_read(c, A(1), &v, sizeof(v)))
			dec_printf(c, "[%#lx]", v);
		else
			dec_ptr(c, A(1));
	}
	return true;
}

static bool d_set_tid_address(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	return true;
}

static bool d_set_robust_list(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static bool d_rseq(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_hex(c, (unsigned)A(1));
	SEP();
	dec_hex(c, (unsigned)A(2));
	SEP();
	dec_hex(c, (unsigned)A(3));
	return true;
}

static bool d_getrandom(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (failed(c)) {
		dec_ptr(c, A(0));
	} else {
		size_t n = (size_t)c->ret, i;
		unsigned char *b;

		if (n > (size_t)c->strsize)
			n = (size_t)c->strsize;
		b = malloc(n + 1);
		if (b && dec_read(c, A(0), b, n)) {
			dec_puts(c, "\"");
			for (i = 0; i < n; i++)
				dec_printf(c, "\\x%02x", b[i]);
			dec_puts(c, "\"");
			if ((size_t)c->ret > n)
				dec_puts(c, "...");
		} else {
			dec_ptr(c, A(0));
		}
		free(b);
	}
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_flags(c, xlat_grnd_flags, A(2), NULL);
	return true;
}

static bool d_futex(struct dec_ctx *c)
{
	unsigned op = (unsigned)A(1);
	unsigned cmd = op & 127;
	const char *name = xlat_name(xlat_futex_cmds, cmd);

	dec_ptr(c, A(0));
	SEP();
	if (name)
		dec_puts(c, name);
	else
		dec_printf(c, "%#x", cmd);
	if (op & 128)
		dec_puts(c, "_PRIVATE");
	if (op & 256)
		dec_puts(c, "|FUTEX_CLOCK_REALTIME");
	SEP();
	dec_int(c, IA(2));
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
		SEP();
		dec_timespec(c, A(3));
		break;
	case FUTEX_WAIT_BITSET:
		SEP();
		dec_timespec(c, A(3));
		SEP();
		if ((unsigned)A(5) == 0xffffffff)
			dec_puts(c, "FUTEX_BITSET_MATCH_ANY");
		else
			dec_hex(c, (unsigned)A(5));
		break;
	case FUTEX_WAKE_BITSET:
		SEP();
		if ((unsigned)A(5) == 0xffffffff)
			dec_puts(c, "FUTEX_BITSET_MATCH_ANY");
		else
			dec_hex(c, (unsigned)A(5));
		break;
	case FUTEX_REQUEUE:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		SEP();
		dec_int(c, IA(5));
		break;
	case FUTEX_WAKE_OP:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		SEP();
		dec_hex(c, (unsigned)A(5));
		break;
	}
	return true;
}

/* strace's is_erestart(): the remaining time is only printed then. */
static bool dec_erestart(const struct dec_ctx *c)
{
	return c->ret == -512 || c->ret == -513 || c->ret == -514 ||
	       c->ret == -516;
}

static bool d_nanosleep(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_timespec(c, A(0));
		SEP();
		return false;
	}
	if (dec_erestart(c))
		dec_timespec(c, A(1));
	else
		dec_ptr(c, A(1));
	return true;
}

static bool d_clock_nanosleep(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
		SEP();
		if (A(1) == 1)
			dec_puts(c, "TIMER_ABSTIME");
		else
			dec_hex(c, A(1));
		SEP();
		dec_timespec(c, A(2));
		SEP();
		return false;
	}
	if (!A(1) && dec_erestart(c))
		dec_timespec(c, A(3));
	else
		dec_ptr(c, A(3));
	return true;
}

static bool d_clock_gettime(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		dec_timespec(c, A(1));
	return true;
}

static bool d_gettimeofday(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (out_ok(c, A(0)))
		dec_timeval(c, A(0));
	SEP();
	dec_ptr(c, A(1));
	return true;
}

static bool d_time(struct dec_ctx *c)
{
	long t;

	if (!c->exiting)
		return false;
	if (!A(0))
		dec_puts(c, "NULL");
	else if (dec_read(c, A(0), &t, sizeof(t)))
		dec_printf(c, "[%ld]", t);
	else
		dec_ptr(c, A(0));
	return true;
}

static bool d_getitimer(struct dec_ctx *c)
{
	struct itimerval it;

	if (!c->exiting) {
		dec_xval(c, xlat_itimers, A(0), "ITIMER_???");
		SEP();
		if (c->nr == sys_number("getitimer"))
			return false;
		if (dec_read(c, A(1), &it, sizeof(it))) {
			dec_puts(c, "{it_interval=");
			put_timeval(c, &it.it_interval);
			dec_puts(c, ", it_value=");
			put_timeval(c, &it.it_value);
			dec_puts(c, "}");
		} else {
			dec_ptr(c, A(1));
		}
		SEP();
		return false;
	}
	{
		unsigned long addr = c->nr == sys_number("getitimer") ? A(1) :
				     A(2);

		if (!out_ok(c, addr))
			return true;
		if (dec_read(c, addr, &it, sizeof(it))) {
			dec_puts(c, "{it_interval=");
			put_timeval(c, &it.it_interval);
			dec_puts(c, ", it_value=");
			put_timeval(c, &it.it_value);
			dec_puts(c, "}");
		} else {
			dec_ptr(c, addr);
		}
	}
	return true;
}

/* -- Network ------------------------------------------------------------ */

static void put_sockaddr(struct dec_ctx *c, unsigned long addr, long len)
{
	union {
		struct sockaddr sa;
		struct sockaddr_un un;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_nl nl;
		unsigned char raw[128];
	} u;
	const char *fam;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (len <= 0 || len > (long)sizeof(u)) {
		dec_ptr(c, addr);
		return;
	}
	memset(&u, 0, sizeof(u));
	if (!dec_read(c, addr, &u, (size_t)len)) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{sa_family=");
	fam = xlat_name(xlat_address_families, u.sa.sa_family);
	if (fam)
		dec_puts(c, fam);
	else
		dec_printf(c, "%u /* AF_??? */", u.sa.sa_family);
	switch (u.sa.sa_family) {
	case AF_UNIX: {
		size_t n = (size_t)len - offsetof(struct sockaddr_un, sun_path);

		if ((size_t)len <= offsetof(struct sockaddr_un, sun_path))
			break;
		dec_puts(c, ", sun_path=");
		if (!u.un.sun_path[0] && n > 0) {
			dec_puts(c, "@");
			dec_quoted(c->out,
				   (unsigned char *)u.un.sun_path + 1, n - 1,
				   false);
		} else {
			dec_quoted(c->out, (unsigned char *)u.un.sun_path, n,
				   true);
		}
		break;
	}
	case AF_INET: {
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &u.in.sin_addr, ip, sizeof(ip));
		dec_printf(c, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")",
			   ntohs(u.in.sin_port), ip);
		break;
	}
	case AF_INET6: {
		char ip[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &u.in6.sin6_addr, ip, sizeof(ip));
		dec_printf(c, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), "
			   "inet_pton(AF_INET6, \"%s\", &sin6_addr), "
			   "sin6_scope_id=%u", ntohs(u.in6.sin6_port),
			   ntohl(u.in6.sin6_flowinfo), ip,
			   u.in6.sin6_scope_id);
		break;
	}
	case AF_NETLINK:
		if ((size_t)len < sizeof(struct sockaddr_nl))
			goto raw;
		dec_printf(c, ", nl_pid=%u, nl_groups=%08x", u.nl.nl_pid,
			   u.nl.nl_groups);
		break;
	default:
	raw: {
		long i;

		dec_puts(c, ", sa_data=\"");
		for (i = 2; i < len && i < 16; i++)
			dec_printf(c, "\\%o", u.raw[i]);
		dec_puts(c, "\"");
		break;
	}
	}
	dec_puts(c, "}");
}

static bool d_socket(struct dec_ctx *c)
{
	unsigned long type = A(1);
	const char *t;

	dec_xval(c, xlat_address_families, A(0), "AF_???");
	SEP();
	t = xlat_name(xlat_socktypes, type & 0xf);
	if (t)
		dec_puts(c, t);
	else
		dec_printf(c, "%#lx /* SOCK_??? */", type & 0xf);
	if (type & ~0xfUL) {
		dec_puts(c, "|");
		dec_flags(c, xlat_sock_flags, type & ~0xfUL, NULL);
	}
	SEP();
	if (A(0) == AF_INET || A(0) == AF_INET6)
		dec_xval(c, xlat_inet_protos, A(2), "IPPROTO_???");
	else if (A(0) == AF_NETLINK)
		dec_xval(c, xlat_netlink_protos, A(2), "NETLINK_???");
	else
		dec_int(c, IA(2));
	c->rval = RV_FD;
	return true;
}

static bool d_connect(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	put_sockaddr(c, A(1), (long)(int)A(2));
	SEP();
	dec_int(c, IA(2));
	return true;
}

static void put_socklen_out(struct dec_ctx *c, unsigned long addr)
{
	int out;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (failed(c) || !dec_read(c, addr, &out, sizeof(out))) {
		if (c->saved)
			dec_printf(c, "[%d]", (int)c->saved);
		else
			dec_ptr(c, addr);
		return;
	}
	if ((int)c->saved != out)
		dec_printf(c, "[%d => %d]", (int)c->saved, out);
	else
		dec_printf(c, "[%d]", out);
}

static void sockaddr_out(struct dec_ctx *c, unsigned long sa,
			 unsigned long lenp)
{
	int len = 0;

	if (!sa) {
		dec_puts(c, "NULL");
	} else if (failed(c) || !dec_read(c, lenp, &len, sizeof(len))) {
		dec_ptr(c, sa);
	} else {
		put_sockaddr(c, sa, len < (int)c->saved ? len : (long)c->saved);
	}
	SEP();
	put_socklen_out(c, lenp);
}

static void save_socklen(struct dec_ctx *c, unsigned long lenp)
{
	int len = 0;

	if (lenp && dec_read(c, lenp, &len, sizeof(len)))
		c->saved = (unsigned)len;
	else
		c->saved = 0;
}

static bool d_accept(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		save_socklen(c, A(2));
		return false;
	}
	sockaddr_out(c, A(1), A(2));
	if (c->nr == sys_number("accept4")) {
		SEP();
		dec_flags(c, xlat_sock_flags, A(3), NULL);
	}
	c->rval = RV_FD;
	return true;
}

static bool d_getsockname(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		save_socklen(c, A(2));
		return false;
	}
	sockaddr_out(c, A(1), A(2));
	return true;
}

static bool d_listen(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

static bool d_shutdown(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_xval(c, xlat_shutdown, A(1), "SHUT_???");
	return true;
}

static bool d_sendto(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_buf(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_flags(c, xlat_msg_flags, A(3), NULL);
	SEP();
	put_sockaddr(c, A(4), (long)(int)A(5));
	SEP();
	dec_int(c, IA(5));
	return true;
}

static bool d_recvfrom(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		save_socklen(c, A(5));
		return false;
	}
	put_out_str(c, A(1), c->ret);
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_flags(c, xlat_msg_flags, A(3), NULL);
	SEP();
	sockaddr_out(c, A(4), A(5));
	return true;
}

/*
 * A struct msghdr.  For recvmsg (in_namelen >= 0) msg_namelen shows the
 * value before and after the call ("128 => 16"), and the address is only
 * decoded when the kernel filled one in.
 */
static void put_msghdr(struct dec_ctx *c, unsigned long addr, long data_len,
		       long in_namelen)
{
	struct msghdr m;

	if (!dec_read(c, addr, &m, sizeof(m))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{msg_name=");
	if (!m.msg_name)
		dec_puts(c, "NULL");
	else if (in_namelen >= 0 && !m.msg_namelen)
		dec_ptr(c, (unsigned long)m.msg_name);
	else
		put_sockaddr(c, (unsigned long)m.msg_name,
			     in_namelen >= 0 && in_namelen < m.msg_namelen ?
			     in_namelen : (long)m.msg_namelen);
	if (in_namelen >= 0 && in_namelen != m.msg_namelen)
		dec_printf(c, ", msg_namelen=%ld => %u", in_namelen,
			   m.msg_namelen);
	else
		dec_printf(c, ", msg_namelen=%u", m.msg_namelen);
	dec_puts(c, ", msg_iov=");
	dec_iov(c, (unsigned long)m.msg_iov, m.msg_iovlen, data_len);
	dec_printf(c, ", msg_iovlen=%zu", m.msg_iovlen);
	if (m.msg_controllen) {
		dec_puts(c, ", msg_control=");
		dec_ptr(c, (unsigned long)m.msg_control);
	}
	dec_printf(c, ", msg_controllen=%zu, msg_flags=", m.msg_controllen);
	dec_flags(c, xlat_msg_flags, (unsigned)m.msg_flags, NULL);
	dec_puts(c, "}");
}

static bool d_sendmsg(struct dec_ctx *c)
{
	struct msghdr m;
	long total = 0;
	size_t i;

	if (dec_read(c, A(1), &m, sizeof(m))) {
		for (i = 0; i < m.msg_iovlen && i < MAX_IOV; i++) {
			struct iovec iov;

			if (!dec_read(c, (unsigned long)m.msg_iov +
				      i * sizeof(iov), &iov, sizeof(iov)))
				break;
			total += (long)iov.iov_len;
		}
	}
	dec_fd(c, IA(0));
	SEP();
	put_msghdr(c, A(1), total, -1);
	SEP();
	dec_flags(c, xlat_msg_flags, A(2), NULL);
	return true;
}

static bool d_recvmsg(struct dec_ctx *c)
{
	struct msghdr m;

	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		c->saved = dec_read(c, A(1), &m, sizeof(m)) ? m.msg_namelen : 0;
		return false;
	}
	if (failed(c))
		dec_printf(c, "{msg_namelen=%u}", (unsigned)c->saved);
	else
		put_msghdr(c, A(1), c->ret, (long)(unsigned)c->saved);
	SEP();
	dec_flags(c, xlat_msg_flags, A(2), NULL);
	return true;
}

static bool d_socketpair(struct dec_ctx *c)
{
	if (!c->exiting) {
		d_socket(c);
		c->rval = RV_DEC;
		SEP();
		return false;
	}
	put_fd_pair(c, A(3));
	return true;
}

static const struct xlat *sockopt_names(unsigned long level)
{
	switch (level) {
	case SOL_SOCKET: return xlat_sol_socket;
	case SOL_IP: return xlat_sol_ip;
	case SOL_IPV6: return xlat_sol_ipv6;
	case SOL_TCP: return xlat_sol_tcp;
	case SOL_UDP: return xlat_sol_udp;
	case SOL_NETLINK: return xlat_sol_netlink;
	}
	return NULL;
}

static void put_sockopt_name(struct dec_ctx *c)
{
	const struct xlat *names = sockopt_names((unsigned)A(1));
	const char *lv = xlat_name(xlat_sockopt_levels, (unsigned)A(1));

	dec_fd(c, IA(0));
	SEP();
	if (lv)
		dec_puts(c, lv);
	else
		dec_printf(c, "%#x /* SOL_?? */", (unsigned)A(1));
	SEP();
	if (names)
		dec_xval(c, names, (unsigned)A(2),
			 (unsigned)A(1) == SOL_SOCKET ? "SO_???" :
			 (unsigned)A(1) == SOL_IP ? "IP_???" :
			 (unsigned)A(1) == SOL_IPV6 ? "IPV6_???" :
			 (unsigned)A(1) == SOL_TCP ? "TCP_???" :
			 (unsigned)A(1) == SOL_UDP ? "UDP_???" : "NETLINK_???");
	else
		dec_uint(c, (unsigned)A(2));
	SEP();
}

/* SOL_SOCKET options whose value strace does not read as an int. */
static bool sol_socket_raw(unsigned name)
{
	switch (name) {
	case SO_BINDTODEVICE:
	case SO_RCVTIMEO_OLD:
	case SO_SNDTIMEO_OLD:
	case SO_RCVTIMEO_NEW:
	case SO_SNDTIMEO_NEW:
	case SO_PEERNAME:
	case SO_PEERSEC:
	case SO_PEERGROUPS:
	case SO_MEMINFO:
	case SO_COOKIE:
	case SO_NETNS_COOKIE:
	case SO_TIMESTAMPING_OLD:
	case SO_TIMESTAMPING_NEW:
	case SO_TXTIME:
		return true;
	}
	return false;
}

static void put_linger(struct dec_ctx *c, unsigned long addr, long len)
{
	struct linger l;

	if (len < (long)sizeof(int) || !dec_read(c, addr, &l,
	    len < (long)sizeof(l) ? sizeof(int) : sizeof(l))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{l_onoff=%d", l.l_onoff);
	if (len >= (long)sizeof(l))
		dec_printf(c, ", l_linger=%d", l.l_linger);
	dec_puts(c, "}");
}

/* The value of a socket option, len bytes at addr, as strace shows it. */
static void put_optval(struct dec_ctx *c, unsigned long addr, long len,
		       bool get)
{
	unsigned level = (unsigned)A(1), name = (unsigned)A(2);
	int v;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (level == SOL_SOCKET && name == SO_LINGER) {
		put_linger(c, addr, len);
		return;
	}
	if (level == SOL_SOCKET && name == SO_PEERCRED && get) {
		struct ucred cr;

		if (len < (long)sizeof(cr) || !dec_read(c, addr, &cr,
							 sizeof(cr)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "{pid=%d, uid=%d, gid=%d}", cr.pid,
				   (int)cr.uid, (int)cr.gid);
		return;
	}
	if (level == SOL_SOCKET && name == SO_ERROR && get &&
	    len == (long)sizeof(int) && dec_read(c, addr, &v, sizeof(v))) {
		const char *e = v > 0 ? strerrorname_np(v) : NULL;

		if (e)
			dec_printf(c, "[%s]", e);
		else
			dec_printf(c, "[%d]", v);
		return;
	}
	if (level == SOL_SOCKET && !sol_socket_raw(name) && !get) {
		/* setsockopt reads an int if there are at least 4 bytes */
		if (len >= (long)sizeof(int))
			dec_int_ptr(c, addr);
		else
			dec_ptr(c, addr);
		return;
	}
	if (len == (long)sizeof(int))
		dec_int_ptr(c, addr);
	else if (len >= 0)
		dec_buf(c, addr, (unsigned long)len);
	else
		dec_ptr(c, addr);
}

static bool d_setsockopt(struct dec_ctx *c)
{
	put_sockopt_name(c);
	put_optval(c, A(3), (long)(int)A(4), false);
	SEP();
	dec_int(c, IA(4));
	return true;
}

static bool d_getsockopt(struct dec_ctx *c)
{
	int len = 0;

	if (!c->exiting) {
		put_sockopt_name(c);
		save_socklen(c, A(4));
		return false;
	}
	if (failed(c) || !dec_read(c, A(4), &len, sizeof(len)))
		dec_ptr(c, A(3));
	else
		put_optval(c, A(3), len, true);
	SEP();
	put_socklen_out(c, A(4));
	return true;
}

/* -- Dispatch ----------------------------------------------------------- */

static const struct decoder decoders[] = {
	{ "read", d_read }, { "write", d_write }, { "pread64", d_pread },
	{ "pwrite64", d_pwrite }, { "readv", d_readv }, { "writev", d_writev },
	{ "preadv", d_preadv }, { "pwritev", d_pwritev },
	{ "open", d_open }, { "openat", d_openat }, { "openat2", d_openat2 },
	{ "creat", d_creat }, { "close", d_fd_only },
	{ "stat", d_path_stat }, { "lstat", d_path_stat },
	{ "fstat", d_fstat }, { "newfstatat", d_newfstatat },
	{ "statx", d_statx }, { "lseek", d_lseek },
	{ "access", d_access }, { "faccessat", d_faccessat },
	{ "faccessat2", d_faccessat2 }, { "readlink", d_readlink },
	{ "readlinkat", d_readlinkat }, { "getdents", d_getdents },
	{ "getdents64", d_getdents }, { "getcwd", d_getcwd },
	{ "chdir", d_path }, { "fchdir", d_fd_only }, { "chroot", d_path },
	{ "rmdir", d_path }, { "unlink", d_path }, { "acct", d_path },
	{ "rename", d_path_path }, { "link", d_path_path },
	{ "symlink", d_path_path }, { "mkdir", d_path_mode },
	{ "chmod", d_path_mode }, { "fchmod", d_fd_mode },
	{ "mkdirat", d_dirfd_path_mode }, { "fchmodat", d_fchmodat },
	{ "mknod", d_mknod }, { "mknodat", d_mknodat },
	{ "unlinkat", d_unlinkat },
	{ "renameat", d_renameat }, { "renameat2", d_renameat2 },
	{ "linkat", d_linkat }, { "symlinkat", d_symlinkat },
	{ "chown", d_chown }, { "lchown", d_chown }, { "fchown", d_fchown },
	{ "fchownat", d_fchownat }, { "truncate", d_truncate },
	{ "ftruncate", d_ftruncate }, { "umask", d_umask },
	{ "fsync", d_fd_only }, { "fdatasync", d_fd_only },
	{ "syncfs", d_fd_only }, { "dup", d_dup }, { "dup2", d_dup2 },
	{ "dup3", d_dup3 }, { "pipe", d_pipe }, { "pipe2", d_pipe2 },
	{ "fcntl", d_fcntl }, { "flock", d_flock },
	{ "fadvise64", d_fadvise }, { "sendfile", d_sendfile },
	{ "copy_file_range", d_copy_file_range },
	{ "getxattr", d_getxattr }, { "lgetxattr", d_getxattr },
	{ "fgetxattr", d_fgetxattr }, { "setxattr", d_setxattr },
	{ "lsetxattr", d_setxattr }, { "listxattr", d_listxattr },
	{ "llistxattr", d_listxattr }, { "utimensat", d_utimensat },
	{ "statfs", d_statfs }, { "fstatfs", d_fstatfs },
	{ "poll", d_poll }, { "ppoll", d_ppoll },
	{ "select", d_select }, { "pselect6", d_select },
	{ "epoll_ctl", d_epoll_ctl }, { "epoll_wait", d_epoll_wait },
	{ "epoll_pwait", d_epoll_wait }, { "epoll_create1", d_epoll_create1 },
	{ "epoll_create", d_int1 }, { "eventfd2", d_eventfd2 },
	{ "memfd_create", d_memfd_create }, { "close_range", d_close_range },
	{ "mmap", d_mmap }, { "mprotect", d_mprotect },
	{ "munmap", d_munmap }, { "brk", d_brk }, { "mremap", d_mremap },
	{ "madvise", d_madvise }, { "msync", d_msync },
	{ "mlock", d_addr_len }, { "munlock", d_addr_len },
	{ "rt_sigaction", d_rt_sigaction },
	{ "rt_sigprocmask", d_rt_sigprocmask },
	{ "rt_sigreturn", d_rt_sigreturn },
	{ "rt_sigsuspend", d_rt_sigsuspend },
	{ "rt_sigpending", d_rt_sigpending },
	{ "rt_sigtimedwait", d_rt_sigtimedwait },
	{ "rt_sigqueueinfo", d_rt_sigqueueinfo },
	{ "rt_tgsigqueueinfo", d_rt_tgsigqueueinfo },
	{ "sigaltstack", d_sigaltstack }, { "kill", d_kill },
	{ "tkill", d_kill }, { "tgkill", d_tgkill }, { "alarm", d_alarm },
	{ "execve", d_execve }, { "execveat", d_execveat },
	{ "exit", d_exit }, { "exit_group", d_exit },
	{ "clone", d_clone }, { "clone3", d_clone3 }, { "wait4", d_wait4 },
	{ "waitid", d_waitid }, { "uname", d_uname },
	{ "sysinfo", d_sysinfo }, { "prlimit64", d_prlimit64 },
	{ "getrlimit", d_getrlimit }, { "setrlimit", d_setrlimit },
	{ "getrusage", d_getrusage }, { "times", d_times },
	{ "setuid", d_int1 }, { "setgid", d_int1 }, { "setfsuid", d_int1 },
	{ "setfsgid", d_int1 }, { "setreuid", d_int2 },
	{ "setregid", d_int2 }, { "setresuid", d_int3 },
	{ "setresgid", d_int3 }, { "getresuid", d_getresuid },
	{ "getresgid", d_getresuid }, 
	{ "setpgid", d_int2 }, { "getpgid", d_int1 }, { "getsid", d_int1 },
	{ "arch_prctl", d_arch_prctl },
	{ "set_tid_address", d_set_tid_address },
	{ "set_robust_list", d_set_robust_list }, { "rseq", d_rseq },
	{ "getrandom", d_getrandom }, { "futex", d_futex },
	{ "nanosleep", d_nanosleep }, { "clock_nanosleep", d_clock_nanosleep },
	{ "clock_gettime", d_clock_gettime },
	{ "clock_getres", d_clock_gettime },
	{ "gettimeofday", d_gettimeofday }, { "time", d_time },
	{ "getitimer", d_getitimer }, { "setitimer", d_getitimer },
	{ "socket", d_socket }, { "connect", d_connect }, { "bind", d_connect },
	{ "accept", d_accept }, { "accept4", d_accept },
	{ "getsockname", d_getsockname }, { "getpeername", d_getsockname },
	{ "listen", d_listen }, { "shutdown", d_shutdown },
	{ "sendto", d_sendto }, { "recvfrom", d_recvfrom },
	{ "sendmsg", d_sendmsg }, { "recvmsg", d_recvmsg },
	{ "socketpair", d_socketpair }, { "setsockopt", d_setsockopt },
	{ "getsockopt", d_getsockopt },
	{ NULL, NULL }
};

/* Print the arguments by a signature from sys_args(); see syscalls.c. */
static bool decode_args(struct dec_ctx *c, const char *sig)
{
	int i;

	if (!sig) {
		for (i = 0; i < 6; i++) {
			if (i)
				SEP();
			dec_hex(c, A(i));
		}
		return true;
	}
	for (i = 0; sig[i] && sig[i] != '>' && i < 6; i++) {
		if (i)
			SEP();
		switch (sig[i]) {
		case 'd': dec_int(c, IA(i)); break;
		case 'D': dec_printf(c, "%ld", (long)A(i)); break;
		case 'U': dec_uint(c, (unsigned)A(i)); break;
		case 'u': dec_ulong(c, A(i)); break;
		case 'p': dec_ptr(c, A(i)); break;
		case 'f': dec_fd(c, IA(i)); break;
		case 'a': dec_dirfd(c, IA(i)); break;
		case 's': dec_path(c, A(i)); break;
		case 'c': dec_cstr(c, A(i)); break;
		case 'o': dec_mode(c, (unsigned)A(i)); break;
		case 'S': dec_signal(c, (unsigned)A(i)); break;
		case 'C': dec_xval(c, xlat_clocks, A(i), "CLOCK_???"); break;
		case 'T': dec_timespec(c, A(i)); break;
		default: dec_hex(c, A(i)); break;
		}
	}
	if (sig[i] == '>')
		c->rval = sig[i + 1] == 'f' ? RV_FD : RV_HEX;
	return true;
}

static decoder_fn table[NR_MAX];
static bool table_ready;

static void build_table(void)
{
	static const struct decoder *const tables[] = {
		decoders, decoders_ioctl, decoders_misc,
	};
	const struct decoder *d;
	size_t i;
	long nr;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		for (d = tables[i]; d->name; d++) {
			nr = sys_number(d->name);
			if (nr >= 0)
				table[nr] = d->fn;
		}
	}
	table_ready = true;
}

bool decode_syscall(struct dec_ctx *c)
{
	if (!table_ready)
		build_table();
	if (c->nr >= 0 && c->nr < NR_MAX && table[c->nr])
		return table[c->nr](c);
	if (c->exiting)
		return true;
	return decode_args(c, sys_args(c->nr));
}
