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
#include <termios.h>
#include <sys/ioctl.h>
#include <netinet/in.h>

#include "decode.h"
#include "xlat.h"

#define A(i)	(c->a[i])
#define IA(i)	((int)c->a[i])
#define SEP()	dec_sep(c)
#define MAX_ARRAY 32

static bool failed(struct dec_ctx *c)
{
	return c->ret < 0 && c->ret >= -4095;
}

static void dec_int(struct dec_ctx *c, int v)
{
	dec_printf(c, "%d", v);
}

static void dec_ulong(struct dec_ctx *c, unsigned long v)
{
	dec_printf(c, "%lu", v);
}

static void dec_hex(struct dec_ctx *c, unsigned long v)
{
	dec_printf(c, v ? "%#lx" : "0", v);
}

/* [N] for a pointer to an int, printed at exit. */
static void dec_int_ptr(struct dec_ctx *c, unsigned long addr)
{
	int v;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &v, sizeof(v)))
		dec_printf(c, "[%d]", v);
	else
		dec_ptr(c, addr);
}

static void dec_timespec(struct dec_ctx *c, unsigned long addr)
{
	struct timespec ts;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &ts, sizeof(ts)))
		dec_printf(c, "{tv_sec=%lld, tv_nsec=%ld}",
			   (long long)ts.tv_sec, ts.tv_nsec);
	else
		dec_ptr(c, addr);
}

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

		if (i >= MAX_ARRAY) {
			dec_puts(c, ", ...");
			break;
		}
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

	for (i = 0; i < A(2) && i < MAX_ARRAY; i++) {
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
	dec_flags(c, xlat_at_flags, A(3), NULL);
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

static bool d_mknod(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	put_mode_type(c, (unsigned)A(1));
	if (S_ISCHR(A(1)) || S_ISBLK(A(1))) {
		SEP();
		put_dev(c, A(2));
	}
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

static bool d_fcntl(struct dec_ctx *c)
{
	unsigned long cmd = A(1);

	if (c->exiting) {
		struct sbuf tmp = { 0 };
		struct sbuf *save = c->out;

		if (failed(c))
			return true;
		if (cmd == F_GETFD || cmd == F_GETFL) {
			c->out = &tmp;
			if (cmd == F_GETFD)
				dec_flags(c, xlat_fd_flags, (unsigned long)c->ret,
					  NULL);
			else
				put_open_flags(c, (unsigned long)c->ret);
			c->out = save;
			c->rval = RV_HEX;
			snprintf(c->rval_extra, sizeof(c->rval_extra),
				 " (flags %s)", sb_str(&tmp));
			sb_free(&tmp);
		} else if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
			SEP();
			put_flock(c, A(2));
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
		dec_flags(c, xlat_fd_flags, A(2), NULL);
		return true;
	case F_SETFL:
		SEP();
		put_open_flags(c, A(2));
		return true;
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		return false;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		SEP();
		put_flock(c, A(2));
		return true;
	case F_GETLK:
	case F_OFD_GETLK:
		return false;
	case F_SETSIG:
		SEP();
		dec_puts(c, signame(IA(2)));
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
			else
				dec_printf(c, "{tv_sec=%lld, tv_nsec=%ld}",
					   (long long)ts[i].tv_sec,
					   ts[i].tv_nsec);
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

	if (!out_ok(c, addr))
		return true;
	if (!dec_read(c, addr, &sf, sizeof(sf))) {
		dec_ptr(c, addr);
		return true;
	}
	dec_printf(c, "{f_type=%#lx, f_bsize=%ld, f_blocks=%lu, f_bfree=%lu, "
		   "f_bavail=%lu, f_files=%lu, f_ffree=%lu, "
		   "f_fsid={val=[%#x, %#x]}, f_namelen=%ld, f_frsize=%ld, "
		   "f_flags=%#lx}",
		   (unsigned long)sf.f_type, (long)sf.f_bsize,
		   (unsigned long)sf.f_blocks, (unsigned long)sf.f_bfree,
		   (unsigned long)sf.f_bavail, (unsigned long)sf.f_files,
		   (unsigned long)sf.f_ffree, (unsigned)sf.f_fsid.__val[0],
		   (unsigned)sf.f_fsid.__val[1], (long)sf.f_namelen,
		   (long)sf.f_frsize, (unsigned long)sf.f_flags);
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

static bool d_ioctl(struct dec_ctx *c)
{
	static const struct xlat reqs[] = {
		XLAT(TCGETS), XLAT(TCSETS), XLAT(TCSETSW), XLAT(TCSETSF),
		XLAT(TIOCGWINSZ), XLAT(TIOCSWINSZ), XLAT(TIOCGPGRP),
		XLAT(TIOCSPGRP), XLAT(FIONREAD), XLAT(FIONBIO), XLAT(FIOCLEX),
		XLAT(FIONCLEX), XLAT(TIOCSCTTY), XLAT(TIOCNOTTY),
		XLAT(TIOCGPTN), XLAT(TIOCSPTLCK), XLAT(FIOASYNC), XLAT_END
	};
	unsigned long req = (unsigned)A(1);

	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		dec_xval(c, reqs, req, NULL);
		if (!xlat_name(reqs, req)) {
			c->out->len = c->argpos[c->nargs - 1];
			dec_printf(c, "%#lx", req);
		}
		switch (req) {
		case TCGETS:
		case TIOCGWINSZ:
		case TIOCGPGRP:
		case FIONREAD:
		case TIOCGPTN:
			SEP();
			return false;
		case FIOCLEX:
		case FIONCLEX:
		case TIOCNOTTY:
			return true;
		case TIOCSPGRP:
		case FIONBIO:
		case FIOASYNC:
		case TIOCSPTLCK:
			SEP();
			dec_int_ptr(c, A(2));
			return true;
		case TIOCSCTTY:
			SEP();
			dec_int(c, IA(2));
			return true;
		case TIOCSWINSZ:
			SEP();
			c->saved = 1;
			break;
		case TCSETS:
		case TCSETSW:
		case TCSETSF:
			SEP();
			c->saved = 2;
			break;
		default:
			SEP();
			dec_hex(c, A(2));
			return true;
		}
	}
	if (req == TCGETS || c->saved == 2) {
		struct termios t;

		if ((c->exiting && req == TCGETS && failed(c)) ||
		    !dec_read(c, A(2), &t, sizeof(t))) {
			dec_ptr(c, A(2));
		} else {
			static const char *bauds[] = {
				"B0", "B50", "B75", "B110", "B134", "B150",
				"B200", "B300", "B600", "B1200", "B1800",
				"B2400", "B4800", "B9600", "B19200", "B38400"
			};
			unsigned sp = t.c_cflag & CBAUD;

			if (sp < 16)
				dec_printf(c, "{%s ", bauds[sp]);
			else
				dec_printf(c, "{%#x ", sp);
			dec_printf(c, "%sopost %sisig %sicanon %secho ...}",
				   t.c_oflag & OPOST ? "" : "-",
				   t.c_lflag & ISIG ? "" : "-",
				   t.c_lflag & ICANON ? "" : "-",
				   t.c_lflag & ECHO ? "" : "-");
		}
	} else if (req == TIOCGWINSZ || c->saved == 1) {
		struct winsize ws;

		if ((req == TIOCGWINSZ && failed(c)) ||
		    !dec_read(c, A(2), &ws, sizeof(ws)))
			dec_ptr(c, A(2));
		else
			dec_printf(c, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, "
				   "ws_ypixel=%u}", ws.ws_row, ws.ws_col,
				   ws.ws_xpixel, ws.ws_ypixel);
	} else {
		if (failed(c))
			dec_ptr(c, A(2));
		else
			dec_int_ptr(c, A(2));
	}
	return true;
}

/* -- Polling ---------------------------------------------------------------- */

static void put_pollfds(struct dec_ctx *c, unsigned long addr,
			unsigned long n, bool revents, long count)
{
	unsigned long i;
	bool first = true;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		struct pollfd p;

		if (i >= MAX_ARRAY) {
			dec_puts(c, ", ...");
			break;
		}
		if (!dec_read(c, addr + i * sizeof(p), &p, sizeof(p)))
			break;
		if (revents && !p.revents)
			continue;
		dec_printf(c, "%s{fd=", first ? "" : ", ");
		first = false;
		dec_fd(c, p.fd);
		dec_puts(c, revents ? ", revents=" : ", events=");
		dec_flags(c, xlat_poll_events,
			  (unsigned short)(revents ? p.revents : p.events),
			  NULL);
		dec_puts(c, "}");
		if (revents && --count <= 0)
			break;
	}
	dec_puts(c, "]");
}

static void poll_result(struct dec_ctx *c, unsigned long addr,
			unsigned long n)
{
	struct sbuf tmp = { 0 };
	struct sbuf *save = c->out;

	if (failed(c) || c->ret == 0) {
		if (c->ret == 0)
			snprintf(c->rval_extra, sizeof(c->rval_extra),
				 " (Timeout)");
		return;
	}
	c->out = &tmp;
	put_pollfds(c, addr, n, true, c->ret);
	c->out = save;
	snprintf(c->rval_extra, sizeof(c->rval_extra), " (%s)", sb_str(&tmp));
	sb_free(&tmp);
}

static bool d_poll(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_pollfds(c, A(0), A(1), false, 0);
		SEP();
		dec_ulong(c, A(1));
		SEP();
		dec_int(c, IA(2));
		return false;
	}
	poll_result(c, A(0), A(1));
	return true;
}

static bool d_ppoll(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_pollfds(c, A(0), A(1), false, 0);
		SEP();
		dec_ulong(c, A(1));
		SEP();
		dec_timespec(c, A(2));
		SEP();
		dec_sigset(c, A(3), A(4));
		SEP();
		dec_ulong(c, A(4));
		return false;
	}
	poll_result(c, A(0), A(1));
	return true;
}

static void put_fdset(struct dec_ctx *c, unsigned long addr, int nfds)
{
	unsigned long set[16];
	int i;
	bool first = true;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (nfds > 1024)
		nfds = 1024;
	if (!dec_read(c, addr, set, (size_t)(nfds + 63) / 64 * 8)) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < nfds; i++) {
		if (!(set[i / 64] >> (i % 64) & 1))
			continue;
		dec_printf(c, "%s%d", first ? "" : " ", i);
		first = false;
	}
	dec_puts(c, "]");
}

static bool d_select(struct dec_ctx *c)
{
	int i;

	if (c->exiting)
		return true;
	dec_int(c, IA(0));
	for (i = 1; i <= 3; i++) {
		SEP();
		put_fdset(c, A(i), IA(0));
	}
	SEP();
	if (c->nr == sys_number("select"))
		dec_timeval(c, A(4));
	else
		dec_timespec(c, A(4));
	if (c->nr != sys_number("select")) {
		SEP();
		dec_ptr(c, A(5));
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
		for (i = 0; i < c->ret && i < MAX_ARRAY; i++) {
			struct epoll_event ev;

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
	if (!failed(c)) {
		c->rval = RV_NONE;
		snprintf(c->rval_extra, sizeof(c->rval_extra), "%s",
			 signame((int)c->ret));
	}
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
		if (i >= (unsigned long)MAX_ARRAY) {
			dec_puts(c, ", ...");
			break;
		}
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

static bool d_clone(struct dec_ctx *c)
{
	unsigned long fl = A(0);

	if (c->exiting)
		return true;
	dec_puts(c, "child_stack=");
	dec_ptr(c, A(1));
	SEP();
	dec_puts(c, "flags=");
	put_clone_flags(c, fl, true);
	if (fl & CLONE_PARENT_SETTID) {
		SEP();
		dec_printf(c, "parent_tid=%#lx", A(2));
	}
	if (fl & CLONE_SETTLS) {
		SEP();
		dec_printf(c, "tls=%#lx", A(4));
	}
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		SEP();
		dec_printf(c, "child_tidptr=%#lx", A(3));
	}
	c->rval = RV_DEC;
	return false;
}

static bool d_clone3(struct dec_ctx *c)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal,
			 stack, stack_size, tls;
	} ca;

	if (c->exiting) {
		int tid;

		if (!failed(c) && (c->saved & CLONE_PARENT_SETTID) &&
		    dec_read(c, A(0) + 24, &ca.parent_tid, 8) &&
		    dec_read(c, ca.parent_tid, &tid, sizeof(tid))) {
			c->out->len -= 2;
			c->nargs--;
			dec_printf(c, " => {parent_tid=[%d]}", tid);
			SEP();
			dec_ulong(c, A(1));
		}
		return true;
	}
	if (!dec_read(c, A(0), &ca, sizeof(ca))) {
		dec_ptr(c, A(0));
		SEP();
		dec_ulong(c, A(1));
		return true;
	}
	c->saved = ca.flags;
	dec_puts(c, "{flags=");
	put_clone_flags(c, ca.flags, false);
	if (ca.flags & CLONE_PIDFD)
		dec_printf(c, ", pidfd=%#llx", (unsigned long long)ca.pidfd);
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		dec_printf(c, ", child_tid=%#llx",
			   (unsigned long long)ca.child_tid);
	if (ca.flags & CLONE_PARENT_SETTID)
		dec_printf(c, ", parent_tid=%#llx",
			   (unsigned long long)ca.parent_tid);
	dec_printf(c, ", exit_signal=%s", ca.exit_signal ?
		   signame((int)ca.exit_signal) : "0");
	dec_printf(c, ", stack=%#llx, stack_size=%#llx",
		   (unsigned long long)ca.stack,
		   (unsigned long long)ca.stack_size);
	if (ca.flags & CLONE_SETTLS)
		dec_printf(c, ", tls=%#llx", (unsigned long long)ca.tls);
	dec_puts(c, "}");
	SEP();
	dec_ulong(c, A(1));
	return false;
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
		si.si_signo ? format_siginfo(c->out, &si) : dec_puts(c, "{}");
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
	if (dec_read(c, A(0), &t, sizeof(t)))
		dec_printf(c, "{tms_utime=%ld, tms_stime=%ld, tms_cutime=%ld, "
			   "tms_cstime=%ld}", (long)t.tms_utime,
			   (long)t.tms_stime, (long)t.tms_cutime,
			   (long)t.tms_cstime);
	else
		dec_ptr(c, A(0));
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

static bool d_getgroups(struct dec_ctx *c)
{
	long i;

	if (!c->exiting) {
		dec_int(c, IA(0));
		SEP();
		return false;
	}
	if (!IA(0) || failed(c)) {
		dec_ptr(c, A(1));
		return true;
	}
	dec_puts(c, "[");
	for (i = 0; i < c->ret && i < MAX_ARRAY; i++) {
		unsigned g;

		if (!dec_read(c, A(1) + (unsigned long)i * 4, &g, 4))
			break;
		dec_printf(c, "%s%u", i ? ", " : "", g);
	}
	if (c->ret > MAX_ARRAY)
		dec_puts(c, ", ...");
	dec_puts(c, "]");
	return true;
}

static bool d_prctl(struct dec_ctx *c)
{
	unsigned long op = A(0);

	if (!c->exiting) {
		dec_xval(c, xlat_prctl, op, "PR_???");
		switch (op) {
		case 15:	/* PR_SET_NAME */
			SEP();
			dec_cstr(c, A(1));
			return true;
		case 16:	/* PR_GET_NAME */
			SEP();
			return false;
		case 3:
		case 21:
		case 39:
			return true;
		case 1:
		case 4:
		case 22:
		case 23:
		case 36:
			SEP();
			dec_ulong(c, A(1));
			return true;
		case 38:
			SEP();
			dec_ulong(c, A(1));
			SEP();
			dec_ulong(c, A(2));
			SEP();
			dec_ulong(c, A(3));
			SEP();
			dec_ulong(c, A(4));
			return true;
		default:
			SEP();
			dec_hex(c, A(1));
			return true;
		}
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		dec_cstr(c, A(1));
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

static bool d_nanosleep(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_timespec(c, A(0));
		SEP();
		return false;
	}
	if (A(1) && c->ret == -4)
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
	if (A(3) && c->ret == -4)
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

static bool d_sched_getaffinity(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_int(c, IA(0));
		SEP();
		dec_ulong(c, A(1));
		SEP();
		return false;
	}
	if (failed(c)) {
		dec_ptr(c, A(2));
	} else {
		unsigned long mask[16] = { 0 };
		size_t n = (size_t)c->ret < sizeof(mask) ? (size_t)c->ret :
			   sizeof(mask);
		size_t i;
		bool first = true;

		if (!dec_read(c, A(2), mask, n)) {
			dec_ptr(c, A(2));
			return true;
		}
		dec_puts(c, "[");
		for (i = 0; i < n * 8; i++) {
			if (!(mask[i / 64] >> (i % 64) & 1))
				continue;
			dec_printf(c, "%s%zu", first ? "" : ", ", i);
			first = false;
		}
		dec_puts(c, "]");
	}
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
	default: {
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

static void put_msghdr(struct dec_ctx *c, unsigned long addr, long data_len)
{
	struct msghdr m;

	if (!dec_read(c, addr, &m, sizeof(m))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{msg_name=");
	if (m.msg_name)
		put_sockaddr(c, (unsigned long)m.msg_name, m.msg_namelen);
	else
		dec_puts(c, "NULL");
	dec_printf(c, ", msg_namelen=%u, msg_iov=", m.msg_namelen);
	dec_iov(c, (unsigned long)m.msg_iov, m.msg_iovlen, data_len);
	dec_printf(c, ", msg_iovlen=%zu", m.msg_iovlen);
	if (m.msg_controllen)
		dec_printf(c, ", msg_control=%p", m.msg_control);
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
		for (i = 0; i < m.msg_iovlen && i < MAX_ARRAY; i++) {
			struct iovec iov;

			if (!dec_read(c, (unsigned long)m.msg_iov +
				      i * sizeof(iov), &iov, sizeof(iov)))
				break;
			total += (long)iov.iov_len;
		}
	}
	dec_fd(c, IA(0));
	SEP();
	put_msghdr(c, A(1), total);
	SEP();
	dec_flags(c, xlat_msg_flags, A(2), NULL);
	return true;
}

static bool d_recvmsg(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		put_msghdr(c, A(1), c->ret);
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

static void put_sockopt_name(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_xval(c, xlat_sockopt_levels, A(1), "SOL_???");
	SEP();
	if (A(1) == SOL_SOCKET)
		dec_xval(c, xlat_sol_socket, A(2), "SO_???");
	else
		dec_int(c, IA(2));
	SEP();
}

static void put_optval(struct dec_ctx *c, unsigned long addr, long len)
{
	int v;

	if (len == (long)sizeof(int) && dec_read(c, addr, &v, sizeof(v)))
		dec_printf(c, "[%d]", v);
	else if (len >= 0)
		dec_buf(c, addr, (unsigned long)len);
	else
		dec_ptr(c, addr);
}

static bool d_setsockopt(struct dec_ctx *c)
{
	put_sockopt_name(c);
	put_optval(c, A(3), (long)(int)A(4));
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
		put_optval(c, A(3), len);
	SEP();
	put_socklen_out(c, A(4));
	return true;
}

/* -- Dispatch ----------------------------------------------------------- */

typedef bool (*decoder_fn)(struct dec_ctx *c);

static const struct {
	const char *name;
	decoder_fn fn;
} decoders[] = {
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
	{ "mknod", d_mknod }, { "unlinkat", d_unlinkat },
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
	{ "ioctl", d_ioctl }, { "poll", d_poll }, { "ppoll", d_ppoll },
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
	{ "getresgid", d_getresuid }, { "getgroups", d_getgroups },
	{ "setpgid", d_int2 }, { "getpgid", d_int1 }, { "getsid", d_int1 },
	{ "prctl", d_prctl }, { "arch_prctl", d_arch_prctl },
	{ "set_tid_address", d_set_tid_address },
	{ "set_robust_list", d_set_robust_list }, { "rseq", d_rseq },
	{ "getrandom", d_getrandom }, { "futex", d_futex },
	{ "nanosleep", d_nanosleep }, { "clock_nanosleep", d_clock_nanosleep },
	{ "clock_gettime", d_clock_gettime },
	{ "clock_getres", d_clock_gettime },
	{ "gettimeofday", d_gettimeofday }, { "time", d_time },
	{ "sched_getaffinity", d_sched_getaffinity },
	{ "getitimer", d_getitimer }, { "setitimer", d_getitimer },
	{ "socket", d_socket }, { "connect", d_connect }, { "bind", d_connect },
	{ "accept", d_accept }, { "accept4", d_accept },
	{ "getsockname", d_getsockname }, { "getpeername", d_getsockname },
	{ "listen", d_listen }, { "shutdown", d_shutdown },
	{ "sendto", d_sendto }, { "recvfrom", d_recvfrom },
	{ "sendmsg", d_sendmsg }, { "recvmsg", d_recvmsg },
	{ "socketpair", d_socketpair }, { "setsockopt", d_setsockopt },
	{ "getsockopt", d_getsockopt },
};

/* Syscalls that take no arguments print "name()". */
static const char *const noargs[] = {
	"getpid", "getppid", "gettid", "getuid", "geteuid", "getgid",
	"getegid", "getpgrp", "setsid", "fork", "vfork", "pause",
	"sched_yield", "sync", "munlockall", "inotify_init", "vhangup",
	"restart_syscall",
};

static decoder_fn table[NR_MAX];
static signed char is_noargs[NR_MAX];
static bool table_ready;

static void build_table(void)
{
	size_t i;
	long nr;

	for (i = 0; i < sizeof(decoders) / sizeof(decoders[0]); i++) {
		nr = sys_number(decoders[i].name);
		if (nr >= 0)
			table[nr] = decoders[i].fn;
	}
	for (i = 0; i < sizeof(noargs) / sizeof(noargs[0]); i++) {
		nr = sys_number(noargs[i]);
		if (nr >= 0)
			is_noargs[nr] = 1;
	}
	table_ready = true;
}

bool decode_syscall(struct dec_ctx *c)
{
	int i;

	if (!table_ready)
		build_table();
	if (c->nr >= 0 && c->nr < NR_MAX && table[c->nr])
		return table[c->nr](c);
	if (c->nr >= 0 && c->nr < NR_MAX && is_noargs[c->nr])
		return true;
	if (c->exiting)
		return true;
	for (i = 0; i < 6; i++) {
		if (i)
			SEP();
		dec_hex(c, A(i));
	}
	return true;
}
