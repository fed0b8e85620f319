// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Network: sockets, addresses, messages, socket options.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <linux/netlink.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <sys/un.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

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
	size_t pos;

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
	pos = dec_sym_begin(c);
	if (fam)
		dec_puts(c, fam);
	else
		dec_printf(c, "%u /* AF_??? */", u.sa.sa_family);
	dec_sym_end(c, pos, u.sa.sa_family, DEC_NUM_HEX);
	switch (u.sa.sa_family) {
	case AF_UNIX: {
		size_t n = (size_t)len - offsetof(struct sockaddr_un, sun_path);

		if ((size_t)len <= offsetof(struct sockaddr_un, sun_path))
			break;
		dec_puts(c, ", sun_path=");
		if (!u.un.sun_path[0] && n > 0) {
			dec_puts(c, "@");
			dec_quote(c->out, c->hexstr,
				   (unsigned char *)u.un.sun_path + 1, n - 1,
				   0);
		} else {
			dec_quote(c->out, c->hexstr, (unsigned char *)u.un.sun_path, n,
				   QUOTE_0_TERMINATED);
		}
		break;
	}
	case AF_INET: {
		char ip[INET_ADDRSTRLEN];

		/* The address is a quoted string: -xx writes it in hex. */
		dec_puts(c, ", sin_port=");
		if (dec_xraw_begin(c, &u.in.sin_port, 2)) {
			dec_printf(c, "htons(%u)", ntohs(u.in.sin_port));
			dec_xraw_end(c);
		}
		dec_puts(c, ", sin_addr=");
		if (dec_xraw_begin(c, &u.in.sin_addr, 4)) {
			inet_ntop(AF_INET, &u.in.sin_addr, ip, sizeof(ip));
			dec_puts(c, "inet_addr(");
			dec_quote(c->out, c->hexstr, (unsigned char *)ip,
				   strlen(ip), 0);
			dec_puts(c, ")");
			dec_xraw_end(c);
		}
		break;
	}
	case AF_INET6: {
		char ip[INET6_ADDRSTRLEN];
		bool abbrev = c->xlat_style == DEC_XLAT_ABBREV;

		dec_puts(c, ", sin6_port=");
		if (dec_xraw_begin(c, &u.in6.sin6_port, 2)) {
			dec_printf(c, "htons(%u)", ntohs(u.in6.sin6_port));
			dec_xraw_end(c);
		}
		dec_puts(c, ", sin6_flowinfo=");
		if (dec_xraw_begin(c, &u.in6.sin6_flowinfo, 4)) {
			dec_printf(c, "htonl(%u)", ntohl(u.in6.sin6_flowinfo));
			dec_xraw_end(c);
		}
		/* -X raw/verbose name the field; the default does not. */
		dec_puts(c, abbrev ? ", " : ", sin6_addr=");
		if (dec_xraw_begin(c, &u.in6.sin6_addr, 16)) {
			inet_ntop(AF_INET6, &u.in6.sin6_addr, ip, sizeof(ip));
			dec_puts(c, "inet_pton(AF_INET6, ");
			dec_quote(c->out, c->hexstr, (unsigned char *)ip,
				   strlen(ip), 0);
			dec_puts(c, abbrev ? ", &sin6_addr)" : ")");
			dec_xraw_end(c);
		}
		dec_printf(c, ", sin6_scope_id=%u", u.in6.sin6_scope_id);
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

bool d_socket(struct dec_ctx *c)
{
	unsigned long type = A(1);
	const char *t;
	size_t pos;

	dec_xval(c, xlat_address_families, A(0), "AF_???");
	SEP();
	pos = dec_sym_begin(c);
	t = xlat_name(xlat_socktypes, type & 0xf);
	if (t)
		dec_puts(c, t);
	else
		dec_printf(c, "%#lx /* SOCK_??? */", type & 0xf);
	dec_sym_end(c, pos, type & 0xf, DEC_NUM_HEX);
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

bool d_connect(struct dec_ctx *c)
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

bool d_accept(struct dec_ctx *c)
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

bool d_getsockname(struct dec_ctx *c)
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

bool d_listen(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

bool d_shutdown(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_xval(c, xlat_shutdown, A(1), "SHUT_???");
	return true;
}

bool d_sendto(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_sockbuf(c, IA(0), A(1), A(2));
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

bool d_recvfrom(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		save_socklen(c, A(5));
		return false;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		dec_sockbuf(c, IA(0), A(1), (unsigned long)c->ret);
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
		       long in_namelen, int fd)
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
	dec_iov_nl(c, (unsigned long)m.msg_iov, m.msg_iovlen, data_len,
		   m.msg_iovlen ? dec_netlink_proto(c, fd) : -2);
	dec_printf(c, ", msg_iovlen=%zu", m.msg_iovlen);
	if (m.msg_controllen) {
		dec_puts(c, ", msg_control=");
		dec_ptr(c, (unsigned long)m.msg_control);
	}
	dec_printf(c, ", msg_controllen=%zu, msg_flags=", m.msg_controllen);
	dec_flags(c, xlat_msg_flags, (unsigned)m.msg_flags, NULL);
	dec_puts(c, "}");
}

bool d_sendmsg(struct dec_ctx *c)
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
	put_msghdr(c, A(1), total, -1, IA(0));
	SEP();
	dec_flags(c, xlat_msg_flags, A(2), NULL);
	return true;
}

bool d_recvmsg(struct dec_ctx *c)
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
		put_msghdr(c, A(1), c->ret, (long)(unsigned)c->saved,
			   IA(0));
	SEP();
	dec_flags(c, xlat_msg_flags, A(2), NULL);
	return true;
}

/*
 * The messages of sendmmsg and recvmmsg, as strace: at most -s of them
 * (without -v), and no more than there are msg_namelen values saved at
 * entry for recvmmsg; msg_len for the first msg_len_n ones.
 */
static void put_mmsgvec(struct dec_ctx *c, unsigned long addr,
			unsigned long vlen, unsigned long msg_len_n,
			bool recv)
{
	struct mmsghdr m;
	unsigned long i;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!vlen || vlen > ULONG_MAX / sizeof(m) ||
	    addr + vlen * sizeof(m) <= addr) {
		dec_ptr(c, addr);
		return;
	}
	for (i = 0; i < vlen; i++) {
		unsigned long at = addr + i * sizeof(m);

		if (i)
			dec_puts(c, ", ");
		if (!dec_read(c, at, &m, sizeof(m))) {
			if (!i) {
				dec_ptr(c, addr);
				return;
			}
			dec_printf(c, "... /* %#lx */", at);
			break;
		}
		if (!i)
			dec_puts(c, "[");
		if ((!c->no_abbrev && i >= (unsigned long)c->strsize) ||
		    i >= 1024 || (recv && i >= c->nnamelen &&
				  c->nnamelen < 16)) {
			dec_puts(c, "...");
			break;
		}
		dec_puts(c, "{msg_hdr=");
		put_msghdr(c, at, recv ? (long)m.msg_len : LONG_MAX,
			   recv && i < c->nnamelen ? c->namelen[i] : -1,
			   IA(0));
		if (i < msg_len_n)
			dec_printf(c, ", msg_len=%u", m.msg_len);
		dec_puts(c, "}");
	}
	dec_puts(c, "]");
}

bool d_sendmmsg(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	put_mmsgvec(c, A(1), (unsigned)A(2), failed(c) ? 0 : (unsigned long)c->ret,
		    false);
	SEP();
	dec_uint(c, (unsigned)A(2));
	SEP();
	dec_flags(c, xlat_msg_flags, (unsigned)A(3), NULL);
	return true;
}

bool d_recvmmsg(struct dec_ctx *c)
{
	struct timespec ts;
	unsigned i;

	if (!c->exiting) {
		struct mmsghdr m;

		dec_fd(c, IA(0));
		SEP();
		for (i = 0; i < (unsigned)A(2) && i < 16; i++) {
			if (!dec_read(c, A(1) + i * sizeof(m), &m, sizeof(m)))
				break;
			c->namelen[i] = (int)m.msg_hdr.msg_namelen;
		}
		c->nnamelen = i;
		/* The timeout as it was at entry. */
		c->saved = A(4) && dec_read(c, A(4), &ts, sizeof(ts));
		if (c->saved) {
			c->saved2[0] = (unsigned long long)ts.tv_sec;
			c->saved2[1] = (unsigned long long)ts.tv_nsec;
		}
		return false;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		put_mmsgvec(c, A(1), (unsigned long)c->ret,
			    (unsigned long)c->ret, true);
	SEP();
	dec_uint(c, (unsigned)A(2));
	SEP();
	dec_flags(c, xlat_msg_flags, (unsigned)A(3), NULL);
	SEP();
	if (!A(4))
		dec_puts(c, "NULL");
	else if (c->saved)
		dec_printf(c, "{tv_sec=%lld, tv_nsec=%lld}",
			   (long long)c->saved2[0], (long long)c->saved2[1]);
	else
		dec_ptr(c, A(4));
	if (!failed(c)) {
		if (!c->ret) {
			dec_note(c, " (Timeout)");
		} else if (A(4) && dec_read(c, A(4), &ts, sizeof(ts))) {
			dec_note(c, " (left {tv_sec=%lld, tv_nsec=%ld})",
				 (long long)ts.tv_sec, ts.tv_nsec);
		}
	}
	return true;
}

bool d_socketpair(struct dec_ctx *c)
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

bool d_setsockopt(struct dec_ctx *c)
{
	put_sockopt_name(c);
	put_optval(c, A(3), (long)(int)A(4), false);
	SEP();
	dec_int(c, IA(4));
	return true;
}

bool d_getsockopt(struct dec_ctx *c)
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
