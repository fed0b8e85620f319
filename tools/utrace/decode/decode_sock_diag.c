// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NETLINK_SOCK_DIAG payloads, as strace 6.1's netlink_inet_diag.c and
 * netlink_unix_diag.c print them: inet_diag_req_v2 and inet_diag_msg with
 * the INET_DIAG_* attributes, unix_diag_req and unix_diag_msg with the
 * UNIX_DIAG_* ones (what ss asks and reads).  Other families show the
 * family and the rest in hex.  (fd_decorate.c asks the kernel the same
 * questions for -yy; this file reads the tracee's.)
 */
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/sysmacros.h>
#include <string.h>

#include "decode/netlink.h"
#include "decode/xlat.h"

static const struct xlat tcp_states[] = {
	XLAT_PAIR(1, "TCP_ESTABLISHED"), XLAT_PAIR(2, "TCP_SYN_SENT"),
	XLAT_PAIR(3, "TCP_SYN_RECV"), XLAT_PAIR(4, "TCP_FIN_WAIT1"),
	XLAT_PAIR(5, "TCP_FIN_WAIT2"), XLAT_PAIR(6, "TCP_TIME_WAIT"),
	XLAT_PAIR(7, "TCP_CLOSE"), XLAT_PAIR(8, "TCP_CLOSE_WAIT"),
	XLAT_PAIR(9, "TCP_LAST_ACK"), XLAT_PAIR(10, "TCP_LISTEN"),
	XLAT_PAIR(11, "TCP_CLOSING"), XLAT_PAIR(12, "TCP_NEW_SYN_RECV"),
	XLAT_END
};
static const struct xlat tcp_state_flags[] = {
	XLAT_PAIR(1 << 1, "1<<TCP_ESTABLISHED"),
	XLAT_PAIR(1 << 2, "1<<TCP_SYN_SENT"),
	XLAT_PAIR(1 << 3, "1<<TCP_SYN_RECV"),
	XLAT_PAIR(1 << 4, "1<<TCP_FIN_WAIT1"),
	XLAT_PAIR(1 << 5, "1<<TCP_FIN_WAIT2"),
	XLAT_PAIR(1 << 6, "1<<TCP_TIME_WAIT"),
	XLAT_PAIR(1 << 7, "1<<TCP_CLOSE"),
	XLAT_PAIR(1 << 8, "1<<TCP_CLOSE_WAIT"),
	XLAT_PAIR(1 << 9, "1<<TCP_LAST_ACK"),
	XLAT_PAIR(1 << 10, "1<<TCP_LISTEN"),
	XLAT_PAIR(1 << 11, "1<<TCP_CLOSING"),
	XLAT_PAIR(1 << 12, "1<<TCP_NEW_SYN_RECV"), XLAT_END
};
static const struct xlat inet_diag_extended_flags[] = {
	XLAT_PAIR(1 << 0, "1<<(INET_DIAG_MEMINFO-1)"),
	XLAT_PAIR(1 << 1, "1<<(INET_DIAG_INFO-1)"),
	XLAT_PAIR(1 << 2, "1<<(INET_DIAG_VEGASINFO-1)"),
	XLAT_PAIR(1 << 3, "1<<(INET_DIAG_CONG-1)"),
	XLAT_PAIR(1 << 4, "1<<(INET_DIAG_TOS-1)"),
	XLAT_PAIR(1 << 5, "1<<(INET_DIAG_TCLASS-1)"),
	XLAT_PAIR(1 << 6, "1<<(INET_DIAG_SKMEMINFO-1)"),
	XLAT_PAIR(1 << 7, "1<<(INET_DIAG_SHUTDOWN-1)"), XLAT_END
};
static const struct xlat inet_diag_attrs[] = {
	XLAT_PAIR(0, "INET_DIAG_NONE"), XLAT_PAIR(1, "INET_DIAG_MEMINFO"),
	XLAT_PAIR(2, "INET_DIAG_INFO"), XLAT_PAIR(3, "INET_DIAG_VEGASINFO"),
	XLAT_PAIR(4, "INET_DIAG_CONG"), XLAT_PAIR(5, "INET_DIAG_TOS"),
	XLAT_PAIR(6, "INET_DIAG_TCLASS"), XLAT_PAIR(7, "INET_DIAG_SKMEMINFO"),
	XLAT_PAIR(8, "INET_DIAG_SHUTDOWN"), XLAT_PAIR(9, "INET_DIAG_DCTCPINFO"),
	XLAT_PAIR(10, "INET_DIAG_PROTOCOL"),
	XLAT_PAIR(11, "INET_DIAG_SKV6ONLY"), XLAT_PAIR(12, "INET_DIAG_LOCALS"),
	XLAT_PAIR(13, "INET_DIAG_PEERS"), XLAT_PAIR(14, "INET_DIAG_PAD"),
	XLAT_PAIR(15, "INET_DIAG_MARK"), XLAT_PAIR(16, "INET_DIAG_BBRINFO"),
	XLAT_PAIR(17, "INET_DIAG_CLASS_ID"), XLAT_PAIR(18, "INET_DIAG_MD5SIG"),
	XLAT_PAIR(19, "INET_DIAG_ULP_INFO"),
	XLAT_PAIR(20, "INET_DIAG_SK_BPF_STORAGES"),
	XLAT_PAIR(21, "INET_DIAG_CGROUP_ID"),
	XLAT_PAIR(22, "INET_DIAG_SOCKOPT"), XLAT_END
};
static const struct xlat inet_diag_req_attrs[] = {
	XLAT_PAIR(0, "INET_DIAG_REQ_NONE"),
	XLAT_PAIR(1, "INET_DIAG_REQ_BYTECODE"),
	XLAT_PAIR(2, "INET_DIAG_REQ_SK_BPF_STORAGES"),
	XLAT_PAIR(3, "INET_DIAG_REQ_PROTOCOL"), XLAT_END
};
static const struct xlat shutdown_flags[] = {
	XLAT_PAIR(1, "RCV_SHUTDOWN"), XLAT_PAIR(2, "SEND_SHUTDOWN"), XLAT_END
};


/* struct inet_diag_sockid: ports, addresses, interface, cookie. */
static void put_sockid(struct dec_ctx *c, const struct inet_diag_sockid *id,
		       int af)
{
	char ip[INET6_ADDRSTRLEN];
	int i;

	dec_puts(c, "id={");
	for (i = 0; i < 2; i++) {
		const __be16 *port = i ? &id->idiag_dport : &id->idiag_sport;

		dec_puts(c, i ? ", idiag_dport=" : "idiag_sport=");
		if (dec_xraw_begin(c, port, sizeof(*port))) {
			dec_printf(c, "htons(%u)", ntohs(*port));
			dec_xraw_end(c);
		}
	}
	for (i = 0; i < 2; i++) {
		const void *a = i ? (const void *)id->idiag_dst :
				    (const void *)id->idiag_src;
		const char *f = i ? "idiag_dst" : "idiag_src";

		if (af == AF_INET || af == AF_INET6) {
			bool pton = af == AF_INET6 &&
				    c->xlat_style == DEC_XLAT_ABBREV;

			if (!pton)
				dec_printf(c, ", %s=", f);
			else
				dec_puts(c, ", ");
			if (dec_xraw_begin(c, a, 16)) {
				inet_ntop(af, a, ip, sizeof(ip));
				dec_puts(c, af == AF_INET ? "inet_addr(" :
					 "inet_pton(AF_INET6, ");
				dec_quote(c->out, c->hexstr,
					   (unsigned char *)ip, strlen(ip),
					   0);
				if (pton)
					dec_printf(c, ", &%s)", f);
				else
					dec_puts(c, ")");
				dec_xraw_end(c);
			}
		} else {
			dec_printf(c, ", %s=", f);
			dec_quote(c->out, DEC_HEX_ALL, a, 16, 0);
		}
	}
	dec_puts(c, ", idiag_if=");
	put_ifindex(c, id->idiag_if);
	dec_printf(c, ", idiag_cookie=[%u, %u]}", id->idiag_cookie[0],
		   id->idiag_cookie[1]);
}

/* SK_MEMINFO_*: the u32 array of INET_DIAG_SKMEMINFO, UNIX_DIAG_MEMINFO. */
static bool nla_meminfo(struct dec_ctx *c, unsigned long addr, unsigned len)
{
	static const struct xlat idx[] = {
		XLAT_PAIR(0, "SK_MEMINFO_RMEM_ALLOC"),
		XLAT_PAIR(1, "SK_MEMINFO_RCVBUF"),
		XLAT_PAIR(2, "SK_MEMINFO_WMEM_ALLOC"),
		XLAT_PAIR(3, "SK_MEMINFO_SNDBUF"),
		XLAT_PAIR(4, "SK_MEMINFO_FWD_ALLOC"),
		XLAT_PAIR(5, "SK_MEMINFO_WMEM_QUEUED"),
		XLAT_PAIR(6, "SK_MEMINFO_OPTMEM"),
		XLAT_PAIR(7, "SK_MEMINFO_BACKLOG"),
		XLAT_PAIR(8, "SK_MEMINFO_DROPS"), XLAT_END
	};
	unsigned i, n = len / 4;
	uint32_t v;

	if (!n)
		return false;
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		const char *name = xlat_name(idx, i);

		if (dec_array_cut(c, i))
			break;
		if (i)
			dec_puts(c, ", ");
		if (!dec_read(c, addr + i * 4, &v, 4)) {
			dec_printf(c, "... /* %#lx */", addr + i * 4);
			break;
		}
		/* The index in decimal, named as -X asks. */
		if (c->xlat_style == DEC_XLAT_RAW)
			dec_printf(c, "[%u]=%u", i, v);
		else if (c->xlat_style == DEC_XLAT_VERBOSE || !name)
			dec_printf(c, "[%u /* %s */]=%u", i,
				   name ? name : "SK_MEMINFO_???", v);
		else
			dec_printf(c, "[%s]=%u", name, v);
	}
	dec_puts(c, "]");
	return true;
}

static bool inet_diag_attr(struct dec_ctx *c, unsigned type,
			   unsigned long addr, unsigned len, const void *ctx)
{
	(void)ctx;
	switch (type) {
	case INET_DIAG_MEMINFO: {
		struct inet_diag_meminfo m;

		if (len < sizeof(m))
			return false;
		if (!dec_read(c, addr, &m, sizeof(m)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "{idiag_rmem=%u, idiag_wmem=%u, "
				   "idiag_fmem=%u, idiag_tmem=%u}", m.idiag_rmem,
				   m.idiag_wmem, m.idiag_fmem, m.idiag_tmem);
		return true;
	}
	case INET_DIAG_CONG:
		nla_str(c, addr, len);
		return true;
	case INET_DIAG_SKMEMINFO:
		return nla_meminfo(c, addr, len);
	case INET_DIAG_TOS:
	case INET_DIAG_TCLASS:
	case INET_DIAG_PROTOCOL:
	case INET_DIAG_SKV6ONLY:
		return nla_int(c, addr, len, 1);
	case INET_DIAG_MARK:
	case INET_DIAG_CLASS_ID:
		return nla_int(c, addr, len, 4);
	case INET_DIAG_SHUTDOWN: {
		uint8_t v;

		/* Not UAPI names: the value, the names in a comment. */
		if (len < 1 || len > 8)
			return false;
		if (!dec_read(c, addr, &v, 1)) {
			dec_ptr(c, addr);
		} else if (!v) {
			dec_puts(c, "0");
		} else {
			int saved = c->xlat_style;

			if (saved != DEC_XLAT_RAW)
				c->xlat_style = DEC_XLAT_VERBOSE;
			dec_flags(c, shutdown_flags, v, "???_SHUTDOWN");
			c->xlat_style = saved;
		}
		return true;
	}
	case 21: {	/* INET_DIAG_CGROUP_ID */
		uint64_t v;

		if (len < sizeof(v))
			return false;
		if (!dec_read(c, addr, &v, sizeof(v)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "%llu", (unsigned long long)v);
		return true;
	}
	case 22: {	/* INET_DIAG_SOCKOPT: the bits set */
		static const char *const bits[] = {
			"recverr", "is_icsk", "freebind", "hdrincl",
			"mc_loop", "transparent", "mc_all", "nodefrag",
			"bind_address_no_port", "recverr_rfc4884",
			"defer_connect",
		};
		uint16_t v;
		unsigned i, n = 0;

		if (len < sizeof(v))
			return false;
		if (!dec_read(c, addr, &v, sizeof(v))) {
			dec_ptr(c, addr);
			return true;
		}
		/* The bits set; all of them with -v. */
		dec_puts(c, "{");
		for (i = 0; i < 11; i++)
			if (c->no_abbrev || v & (1u << i))
				dec_printf(c, "%s%s=%u", n++ ? ", " : "",
					   bits[i], (v >> i) & 1);
		if (c->no_abbrev || v >> 11) {
			dec_printf(c, "%sunused=", n ? ", " : "");
			dec_hex(c, v >> 11);
			dec_puts(c, " /* bits 3..8 */");
		}
		dec_puts(c, "}");
		return true;
	}
	}
	return false;
}

static const struct xlat unix_diag_show[] = {
	XLAT(UDIAG_SHOW_NAME), XLAT(UDIAG_SHOW_VFS), XLAT(UDIAG_SHOW_PEER),
	XLAT(UDIAG_SHOW_ICONS), XLAT(UDIAG_SHOW_RQLEN),
	XLAT(UDIAG_SHOW_MEMINFO), XLAT_PAIR(0x40, "UDIAG_SHOW_UID"), XLAT_END
};
static const struct xlat unix_diag_attrs[] = {
	XLAT(UNIX_DIAG_NAME), XLAT(UNIX_DIAG_VFS), XLAT(UNIX_DIAG_PEER),
	XLAT(UNIX_DIAG_ICONS), XLAT(UNIX_DIAG_RQLEN), XLAT(UNIX_DIAG_MEMINFO),
	XLAT(UNIX_DIAG_SHUTDOWN), XLAT_PAIR(8, "UNIX_DIAG_UID"), XLAT_END
};

static bool unix_diag_attr(struct dec_ctx *c, unsigned type,
			   unsigned long addr, unsigned len, const void *ctx)
{
	(void)ctx;
	switch (type) {
	case UNIX_DIAG_NAME:
		nla_str(c, addr, len);
		return true;
	case UNIX_DIAG_VFS: {
		struct unix_diag_vfs v;

		if (len < sizeof(v))
			return false;
		if (!dec_read(c, addr, &v, sizeof(v)))
			dec_ptr(c, addr);
		else {
			/* -X raw: the number; verbose: and makedev(). */
			dec_puts(c, "{udiag_vfs_dev=");
			if (c->xlat_style != DEC_XLAT_ABBREV)
				dec_hex(c, v.udiag_vfs_dev);
			if (c->xlat_style == DEC_XLAT_VERBOSE)
				dec_puts(c, " /* ");
			if (c->xlat_style != DEC_XLAT_RAW)
				dec_printf(c, "makedev(%#x, %#x)",
					   major(v.udiag_vfs_dev),
					   minor(v.udiag_vfs_dev));
			if (c->xlat_style == DEC_XLAT_VERBOSE)
				dec_puts(c, " */");
			dec_printf(c, ", udiag_vfs_ino=%u}", v.udiag_vfs_ino);
		}
		return true;
	}
	case UNIX_DIAG_PEER:
	case 8:		/* UNIX_DIAG_UID */
		return nla_int(c, addr, len, 4);
	case UNIX_DIAG_SHUTDOWN:
		return nla_int(c, addr, len, 1);
	case UNIX_DIAG_MEMINFO:
		return nla_meminfo(c, addr, len);
	case UNIX_DIAG_ICONS: {
		uint32_t ino;
		unsigned i, n = len / sizeof(ino);

		if (!n)
			return false;
		dec_puts(c, "[");
		for (i = 0; i < n; i++) {
			if (dec_array_cut(c, i))
				break;
			if (i)
				dec_puts(c, ", ");
			if (!dec_read(c, addr + i * sizeof(ino), &ino,
				      sizeof(ino))) {
				dec_printf(c, "... /* %#lx */",
					   addr + i * sizeof(ino));
				break;
			}
			dec_printf(c, "%u", ino);
		}
		dec_puts(c, "]");
		return true;
	}
	case UNIX_DIAG_RQLEN: {
		struct unix_diag_rqlen r;

		if (len < sizeof(r))
			return false;
		if (!dec_read(c, addr, &r, sizeof(r)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "{udiag_rqueue=%u, udiag_wqueue=%u}",
				   r.udiag_rqueue, r.udiag_wqueue);
		return true;
	}
	}
	return false;
}

/* unix_diag_req (a request, no attributes) or unix_diag_msg. */
static void unix_diag(struct dec_ctx *c, bool request, uint8_t family,
		      unsigned long addr, unsigned len)
{
	union {
		struct unix_diag_req req;
		struct unix_diag_msg msg;
	} u;
	size_t size = request ? sizeof(u.req) : sizeof(u.msg);

	dec_puts(c, request ? "{sdiag_family=" : "{udiag_family=");
	dec_xval(c, xlat_address_families, family, "AF_???");
	dec_puts(c, ", ");
	if (len < size) {
		dec_puts(c, "...}");
		return;
	}
	if (!dec_read(c, addr, &u, size)) {
		dec_ptr(c, addr + 1);
		dec_puts(c, "}");
		return;
	}
	if (request) {
		dec_printf(c, "sdiag_protocol=%u, udiag_states=",
			   u.req.sdiag_protocol);
		dec_flags(c, tcp_state_flags, u.req.udiag_states,
			  "1<<TCP_???");
		dec_printf(c, ", udiag_ino=%u, udiag_show=", u.req.udiag_ino);
		dec_flags(c, unix_diag_show, u.req.udiag_show,
			  "UDIAG_SHOW_???");
		dec_printf(c, ", udiag_cookie=[%u, %u]}", u.req.udiag_cookie[0],
			   u.req.udiag_cookie[1]);
		return;
	}
	dec_puts(c, "udiag_type=");
	dec_xval(c, xlat_socktypes, u.msg.udiag_type, "SOCK_???");
	dec_puts(c, ", udiag_state=");
	dec_xval(c, tcp_states, u.msg.udiag_state, "TCP_???");
	dec_printf(c, ", udiag_ino=%u, udiag_cookie=[%u, %u]}", u.msg.udiag_ino,
		   u.msg.udiag_cookie[0], u.msg.udiag_cookie[1]);
	if (len > NLMSG_ALIGN(size)) {
		dec_puts(c, ", ");
		nl_attrs(c, addr + NLMSG_ALIGN(size), len - NLMSG_ALIGN(size),
			 unix_diag_attrs, "UNIX_DIAG_???", unix_diag_attr,
			 NULL);
	}
}

/* inet_diag_req_v2 (a request) or inet_diag_msg (an answer). */
static void inet_diag(struct dec_ctx *c, bool request, uint8_t family,
		      unsigned long addr, unsigned len)
{
	union {
		struct inet_diag_req_v2 req;
		struct inet_diag_msg msg;
	} u;
	size_t size = request ? sizeof(u.req) : sizeof(u.msg);
	bool attrs = false;

	dec_puts(c, request ? "{sdiag_family=" : "{idiag_family=");
	dec_xval(c, xlat_address_families, family, "AF_???");
	dec_puts(c, ", ");
	if (len < size) {
		dec_puts(c, "...");
	} else if (!dec_read(c, addr, &u, size)) {
		dec_ptr(c, addr + 1);
	} else if (request) {
		dec_puts(c, "sdiag_protocol=");
		dec_xval(c, xlat_inet_protos, u.req.sdiag_protocol,
			 "IPPROTO_???");
		dec_puts(c, ", idiag_ext=");
		dec_flags(c, inet_diag_extended_flags, u.req.idiag_ext,
			  "1<<INET_DIAG_\?\?\?-1");
		dec_puts(c, ", idiag_states=");
		dec_flags(c, tcp_state_flags, u.req.idiag_states,
			  "1<<TCP_???");
		dec_puts(c, ", ");
		put_sockid(c, &u.req.id, family);
		attrs = true;
	} else {
		dec_puts(c, "idiag_state=");
		dec_xval(c, tcp_states, u.msg.idiag_state, "TCP_???");
		dec_printf(c, ", idiag_timer=%u, idiag_retrans=%u, ",
			   u.msg.idiag_timer, u.msg.idiag_retrans);
		put_sockid(c, &u.msg.id, family);
		dec_printf(c, ", idiag_expires=%u, idiag_rqueue=%u, "
			   "idiag_wqueue=%u, idiag_uid=%u, idiag_inode=%u",
			   u.msg.idiag_expires, u.msg.idiag_rqueue,
			   u.msg.idiag_wqueue, u.msg.idiag_uid,
			   u.msg.idiag_inode);
		attrs = true;
	}
	dec_puts(c, "}");
	if (attrs && len > NLMSG_ALIGN(size)) {
		dec_puts(c, ", ");
		if (request)
			nl_attrs(c, addr + NLMSG_ALIGN(size),
				 len - NLMSG_ALIGN(size), inet_diag_req_attrs,
				 "INET_DIAG_REQ_???", NULL, NULL);
		else
			nl_attrs(c, addr + NLMSG_ALIGN(size),
				 len - NLMSG_ALIGN(size), inet_diag_attrs,
				 "INET_DIAG_???", inet_diag_attr, NULL);
	}
}

/* A NETLINK_SOCK_DIAG payload: false if left to the generic printer. */
bool nl_diag_payload(struct dec_ctx *c, const struct nlmsghdr *h,
		     unsigned long addr, unsigned len)
{
	uint8_t family;

	if (h->nlmsg_type == NLMSG_DONE)
		return false;
	if (!dec_read(c, addr, &family, 1)) {
		dec_ptr(c, addr);
		return true;
	}
	if ((family == AF_INET || family == AF_INET6) && len > 1 &&
	    h->nlmsg_type == SOCK_DIAG_BY_FAMILY) {
		inet_diag(c, h->nlmsg_flags & NLM_F_REQUEST, family, addr,
			  len);
		return true;
	}
	if (family == AF_UNIX && len > 1) {
		unix_diag(c, h->nlmsg_flags & NLM_F_REQUEST, family, addr, len);
		return true;
	}
	/* netlink_diag, packet_diag, smc_diag: not decoded here. */
	nl_family(c, family, addr, len);
	return true;
}

