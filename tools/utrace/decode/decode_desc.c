// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Descriptors and polling: read/write, dup, pipes, fcntl, poll,
 * select, epoll, eventfd, inotify.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/un.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

bool d_read(struct dec_ctx *c)
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

bool d_write(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_buf(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	return true;
}

bool d_pread(struct dec_ctx *c)
{
	if (!d_read(c))
		return false;
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

bool d_pwrite(struct dec_ctx *c)
{
	d_write(c);
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

void dec_iov(struct dec_ctx *c, unsigned long addr, unsigned long cnt,
		    long data_len)
{
	dec_iov_nl(c, addr, cnt, data_len, -2);
}

/*
 * The buffers as netlink messages when proto is a netlink protocol, or -1
 * (one not known); -2: strings.
 */
void dec_iov_nl(struct dec_ctx *c, unsigned long addr, unsigned long cnt,
		long data_len, int proto)
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

			if (proto >= -1)
				dec_netlink(c, proto,
					    (unsigned long)iov.iov_base, n);
			else
				dec_buf(c, (unsigned long)iov.iov_base, n);
			data_len -= (long)n;
		}
		dec_printf(c, ", iov_len=%zu}", iov.iov_len);
	}
	dec_puts(c, "]");
}

/* preadv2 and pwritev2 flags. */
static const struct xlat rwf_flags[] = {
	XLAT_PAIR(0x01, "RWF_HIPRI"), XLAT_PAIR(0x02, "RWF_DSYNC"),
	XLAT_PAIR(0x04, "RWF_SYNC"), XLAT_PAIR(0x08, "RWF_NOWAIT"),
	XLAT_PAIR(0x10, "RWF_APPEND"), XLAT_END
};

/* readv, preadv (c->saved 1: the offset) and preadv2 (2: and flags). */
static bool readv_common(struct dec_ctx *c)
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
	if (c->saved == 2) {
		SEP();
		dec_flags(c, rwf_flags, A(5), "RWF_???");
	}
	return true;
}

bool d_readv(struct dec_ctx *c)
{
	c->saved = 0;
	return readv_common(c);
}

bool d_writev(struct dec_ctx *c)
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

bool d_preadv(struct dec_ctx *c)
{
	c->saved = 1;
	return readv_common(c);
}

bool d_pwritev(struct dec_ctx *c)
{
	d_writev(c);
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

bool d_vmsplice(struct dec_ctx *c)
{
	static const struct xlat splice_flags[] = {
		XLAT_PAIR(1, "SPLICE_F_MOVE"), XLAT_PAIR(2, "SPLICE_F_NONBLOCK"),
		XLAT_PAIR(4, "SPLICE_F_MORE"), XLAT_PAIR(8, "SPLICE_F_GIFT"),
		XLAT_END
	};

	dec_fd(c, IA(0));
	SEP();
	dec_iov(c, A(1), A(2), LONG_MAX);
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_flags(c, splice_flags, (unsigned)A(3), "SPLICE_F_???");
	return true;
}

bool d_preadv2(struct dec_ctx *c)
{
	c->saved = 2;
	return readv_common(c);
}

bool d_pwritev2(struct dec_ctx *c)
{
	d_pwritev(c);
	SEP();
	dec_flags(c, rwf_flags, A(5), "RWF_???");
	return true;
}

bool d_lseek(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_printf(c, "%ld", (long)A(1));
	SEP();
	dec_xval(c, xlat_seek, A(2), "SEEK_???");
	return true;
}

bool d_dup(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	c->rval = RV_FD;
	return true;
}

bool d_dup2(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_fd(c, IA(1));
	c->rval = RV_FD;
	return true;
}

bool d_dup3(struct dec_ctx *c)
{
	d_dup2(c);
	SEP();
	dec_flags(c, xlat_pipe_flags, A(2), NULL);
	return true;
}

void put_fd_pair(struct dec_ctx *c, unsigned long addr)
{
	int fds[2];

	if (!dec_read_out(c, addr, fds, sizeof(fds)))
		return;
	dec_puts(c, "[");
	dec_fd(c, fds[0]);
	dec_puts(c, ", ");
	dec_fd(c, fds[1]);
	dec_puts(c, "]");
}

bool d_pipe(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	put_fd_pair(c, A(0));
	return true;
}

bool d_pipe2(struct dec_ctx *c)
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
	if (c->exiting) {
		dec_puts(c, ", l_pid=");
		dec_pid(c, fl.l_pid);
	}
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
	dec_puts(c, ", pid=");
	if (o.type == F_OWNER_PGRP)
		dec_pgid(c, o.pid);
	else
		dec_pid(c, o.pid);
	dec_puts(c, "}");
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
		c->sym_depth++;		/* as strace, names even with -X */
		put_open_flags(c, r);
		c->sym_depth--;
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

bool d_fcntl(struct dec_ctx *c)
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
		SEP();
		dec_pid_or_pgid(c, IA(2));
		return true;
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
		c->rval = RV_PID;
		return true;
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

bool d_flock(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, xlat_flock_ops, A(1), NULL);
	return true;
}

bool d_fadvise(struct dec_ctx *c)
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

bool d_sendfile(struct dec_ctx *c)
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

bool d_copy_file_range(struct dec_ctx *c)
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
		if (!c->no_abbrev && printed + 1 > c->strsize) {
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

bool d_poll(struct dec_ctx *c)
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

bool d_ppoll(struct dec_ctx *c)
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

bool d_select(struct dec_ctx *c)
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

bool d_epoll_ctl(struct dec_ctx *c)
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

bool d_epoll_wait(struct dec_ctx *c)
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

bool d_epoll_create1(struct dec_ctx *c)
{
	dec_flags(c, xlat_epoll_flags, A(0), NULL);
	c->rval = RV_FD;
	return true;
}

bool d_eventfd2(struct dec_ctx *c)
{
	dec_ulong(c, (unsigned)A(0));
	SEP();
	dec_flags(c, xlat_efd_flags, A(1), NULL);
	c->rval = RV_FD;
	return true;
}

bool d_memfd_create(struct dec_ctx *c)
{
	dec_cstr(c, A(0));
	SEP();
	dec_flags(c, xlat_mfd_flags, A(1), NULL);
	c->rval = RV_FD;
	return true;
}

bool d_close_range(struct dec_ctx *c)
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

static const struct xlat in_init_flags[] = {
	XLAT(IN_NONBLOCK), XLAT(IN_CLOEXEC), XLAT_END
};

static const struct xlat in_mask[] = {
	XLAT(IN_ACCESS), XLAT(IN_MODIFY), XLAT(IN_ATTRIB),
	XLAT(IN_CLOSE_WRITE), XLAT(IN_CLOSE_NOWRITE), XLAT(IN_OPEN),
	XLAT(IN_MOVED_FROM), XLAT(IN_MOVED_TO), XLAT(IN_CREATE),
	XLAT(IN_DELETE), XLAT(IN_DELETE_SELF), XLAT(IN_MOVE_SELF),
	XLAT(IN_UNMOUNT), XLAT(IN_Q_OVERFLOW), XLAT(IN_IGNORED),
	XLAT(IN_ONLYDIR), XLAT(IN_DONT_FOLLOW), XLAT(IN_EXCL_UNLINK),
	XLAT(IN_MASK_CREATE), XLAT(IN_MASK_ADD), XLAT(IN_ISDIR),
	XLAT(IN_ONESHOT), XLAT_END
};

bool d_inotify_init1(struct dec_ctx *c)
{
	dec_flags(c, in_init_flags, A(0), "IN_???");
	c->rval = RV_FD;
	return true;
}

bool d_inotify_add_watch(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	dec_flags(c, in_mask, (unsigned)A(2), "IN_???");
	return true;
}

bool d_inotify_rm_watch(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

bool d_fallocate(struct dec_ctx *c)
{
	static const struct xlat modes[] = {
		XLAT(FALLOC_FL_KEEP_SIZE), XLAT(FALLOC_FL_PUNCH_HOLE),
		XLAT(FALLOC_FL_NO_HIDE_STALE), XLAT(FALLOC_FL_COLLAPSE_RANGE),
		XLAT(FALLOC_FL_ZERO_RANGE), XLAT(FALLOC_FL_INSERT_RANGE),
		XLAT(FALLOC_FL_UNSHARE_RANGE), XLAT_END
	};

	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, modes, (unsigned)A(1), "FALLOC_FL_???");
	SEP();
	dec_printf(c, "%ld", (long)A(2));
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}
