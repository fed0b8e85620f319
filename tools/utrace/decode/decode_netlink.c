// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink messages in the buffers of send, sendto, sendmsg, recv, recvfrom
 * and recvmsg on a netlink socket, as strace 6.1 prints them:
 *
 *   [{nlmsg_len=20, nlmsg_type=RTM_GETADDR, nlmsg_flags=NLM_F_REQUEST|
 *   NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, {ifa_family=AF_UNSPEC, ...}]
 *
 * One message is [header, payload]; several are an array of those, walked
 * by nl_walk() as the attributes are.  The socket's protocol comes from
 * /proc/PID/net/netlink (the line with the socket's inode).  This file has
 * the headers, NLMSG_ERROR and NLMSG_DONE; NETLINK_ROUTE's payloads are in
 * decode_rtnetlink.c, NETLINK_SOCK_DIAG's in decode_sock_diag.c, the
 * attributes in decode_nlattr.c.  Other payloads are hex strings, as strace
 * writes those it does not know.
 */
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "decode/netlink.h"
#include "decode/xlat.h"

static const struct xlat netlink_types[] = {
	XLAT(NLMSG_NOOP), XLAT(NLMSG_ERROR), XLAT(NLMSG_DONE),
	XLAT(NLMSG_OVERRUN), XLAT_END
};
static const struct xlat nl_route_types[] = {
	XLAT(RTM_NEWLINK), XLAT(RTM_DELLINK), XLAT(RTM_GETLINK),
	XLAT(RTM_SETLINK), XLAT(RTM_NEWADDR), XLAT(RTM_DELADDR),
	XLAT(RTM_GETADDR), XLAT(RTM_NEWROUTE), XLAT(RTM_DELROUTE),
	XLAT(RTM_GETROUTE), XLAT(RTM_NEWNEIGH), XLAT(RTM_DELNEIGH),
	XLAT(RTM_GETNEIGH), XLAT(RTM_NEWRULE), XLAT(RTM_DELRULE),
	XLAT(RTM_GETRULE), XLAT(RTM_NEWQDISC), XLAT(RTM_DELQDISC),
	XLAT(RTM_GETQDISC), XLAT(RTM_NEWTCLASS), XLAT(RTM_DELTCLASS),
	XLAT(RTM_GETTCLASS), XLAT(RTM_NEWTFILTER), XLAT(RTM_DELTFILTER),
	XLAT(RTM_GETTFILTER), XLAT(RTM_NEWACTION), XLAT(RTM_DELACTION),
	XLAT(RTM_GETACTION), XLAT(RTM_NEWPREFIX), XLAT(RTM_GETMULTICAST),
	XLAT(RTM_GETANYCAST), XLAT(RTM_NEWNEIGHTBL), XLAT(RTM_GETNEIGHTBL),
	XLAT(RTM_SETNEIGHTBL), XLAT(RTM_NEWNDUSEROPT),
	XLAT(RTM_NEWADDRLABEL), XLAT(RTM_DELADDRLABEL),
	XLAT(RTM_GETADDRLABEL), XLAT(RTM_GETDCB), XLAT(RTM_SETDCB),
	XLAT(RTM_NEWNETCONF), XLAT(RTM_DELNETCONF), XLAT(RTM_GETNETCONF),
	XLAT(RTM_NEWMDB), XLAT(RTM_DELMDB), XLAT(RTM_GETMDB),
	XLAT(RTM_NEWNSID), XLAT(RTM_DELNSID), XLAT(RTM_GETNSID),
	XLAT(RTM_NEWSTATS), XLAT(RTM_GETSTATS), XLAT(RTM_NEWCACHEREPORT),
	XLAT(RTM_NEWCHAIN), XLAT(RTM_DELCHAIN), XLAT(RTM_GETCHAIN),
	XLAT(RTM_NEWNEXTHOP), XLAT(RTM_DELNEXTHOP), XLAT(RTM_GETNEXTHOP),
	XLAT(RTM_NEWLINKPROP), XLAT(RTM_DELLINKPROP),
	XLAT(RTM_GETLINKPROP), XLAT(RTM_NEWVLAN), XLAT(RTM_DELVLAN),
	XLAT(RTM_GETVLAN), XLAT(RTM_NEWNEXTHOPBUCKET),
	XLAT(RTM_DELNEXTHOPBUCKET), XLAT(RTM_GETNEXTHOPBUCKET),
	XLAT_END
};
static const struct xlat nl_sock_diag_types[] = {
	XLAT_PAIR(20, "SOCK_DIAG_BY_FAMILY"), XLAT_PAIR(21, "SOCK_DESTROY"),
	XLAT_END
};

/* NLM_F_* common to all messages, then those of a kind of request. */
#define NLM_COMMON XLAT(NLM_F_REQUEST), XLAT(NLM_F_MULTI), XLAT(NLM_F_ACK), \
	XLAT(NLM_F_ECHO), XLAT(NLM_F_DUMP_INTR), XLAT(NLM_F_DUMP_FILTERED)
static const struct xlat nlm_flags[] = { NLM_COMMON, XLAT_END };
static const struct xlat nlm_get_flags[] = {
	NLM_COMMON, XLAT(NLM_F_DUMP), XLAT(NLM_F_ROOT), XLAT(NLM_F_MATCH),
	XLAT(NLM_F_ATOMIC), XLAT_END
};
static const struct xlat nlm_new_flags[] = {
	NLM_COMMON, XLAT(NLM_F_REPLACE), XLAT(NLM_F_EXCL), XLAT(NLM_F_CREATE),
	XLAT(NLM_F_APPEND), XLAT_END
};
static const struct xlat nlm_delete_flags[] = {
	NLM_COMMON, XLAT(NLM_F_NONREC), XLAT_END
};
static const struct xlat nlm_ack_flags[] = {
	NLM_COMMON, XLAT(NLM_F_CAPPED), XLAT(NLM_F_ACK_TLVS), XLAT_END
};

static const struct xlat nlmsgerr_attrs[] = {
	XLAT_PAIR(0, "NLMSGERR_ATTR_UNUSED"), XLAT_PAIR(1, "NLMSGERR_ATTR_MSG"),
	XLAT_PAIR(2, "NLMSGERR_ATTR_OFFS"),
	XLAT_PAIR(3, "NLMSGERR_ATTR_COOKIE"),
	XLAT_PAIR(4, "NLMSGERR_ATTR_POLICY"), XLAT_END
};


/*
 * The protocol of socket fd of the tracee, if it is a netlink socket: -1
 * when it is not known (a socket not bound yet is not listed), -2 for
 * another file.  A socket is named "NETLINK" by the sockprotoname
 * attribute of its /proc link; its protocol is the Eth column of
 * /proc/PID/net/netlink on the line of its inode.
 */
int dec_netlink_proto(struct dec_ctx *c, int fd)
{
	char path[64], buf[64], line[256];
	unsigned long ino, lino;
	ssize_t n;
	int proto = -1, eth;
	FILE *f;

	if (fd < 0)
		return -2;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)c->tid, fd);
	n = getxattr(path, "system.sockprotoname", buf, sizeof(buf) - 1);
	if (n < 0)
		return -2;
	buf[n] = 0;
	if (strcmp(buf, "NETLINK"))
		return -2;
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "socket:[%lu]", &ino) != 1)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/net/netlink", (int)c->tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode */
		if (sscanf(line, "%*x %d %*u %*x %*d %*d %*d %*d %*d %lu",
			   &eth, &lino) == 2 && lino == ino) {
			proto = eth;
			break;
		}
	}
	fclose(f);
	return proto;
}

/* printstr_ex(QUOTE_FORCE_HEX): a quoted hex string, -s long at most. */
void nl_hex(struct dec_ctx *c, unsigned long addr, unsigned long len)
{
	int saved = c->hexstr;

	c->hexstr = DEC_HEX_ALL;
	dec_buf(c, addr, len);
	c->hexstr = saved;
}


void nl_walk(struct dec_ctx *c, const struct nl_walk *w, unsigned long addr,
	     unsigned long len)
{
	unsigned char hdr[32];
	bool is_array = false;
	unsigned elt;

	for (elt = 0;; elt++) {
		unsigned long elen, alen, next = 0, next_len = 0;
		uint32_t l32 = 0;
		uint16_t l16 = 0;

		if (len < w->hdr_size) {
			nl_hex(c, addr, len);
			break;
		}
		if (!dec_read(c, addr, hdr, w->hdr_size)) {
			if (is_array)
				dec_printf(c, "... /* %#lx */", addr);
			else
				dec_ptr(c, addr);
			break;
		}
		if (!c->no_abbrev && elt == (unsigned)c->strsize) {
			dec_puts(c, "...");
			break;
		}
		if (w->len_size == 2) {
			memcpy(&l16, hdr, 2);
			elen = l16;
		} else {
			memcpy(&l32, hdr, 4);
			elen = l32;
		}
		alen = (elen + 3) & ~3UL;
		if (elen >= w->min_len) {
			next_len = len >= alen ? len - alen : 0;
			if (next_len)
				next = addr + alen;
		}
		if (!is_array && next) {
			dec_puts(c, "[");
			is_array = true;
		}
		w->print(c, hdr, addr, len, w->arg);
		if (!next)
			break;
		dec_puts(c, ", ");
		addr = next;
		len = next_len;
	}
	if (is_array)
		dec_puts(c, "]");
}

/* A payload strace has no decoder for: the family, the rest in hex. */
void nl_family(struct dec_ctx *c, uint8_t family, unsigned long addr,
		      unsigned len)
{
	dec_puts(c, "{family=");
	dec_xval(c, xlat_address_families, family, "AF_???");
	if (len > 1) {
		dec_puts(c, ", data=");
		nl_hex(c, addr + 1, len - 1);
	}
	dec_puts(c, "}");
}


static bool nlmsgerr_attr(struct dec_ctx *c, unsigned type,
			  unsigned long addr, unsigned len, const void *ctx)
{
	(void)ctx;
	if (type == 1) {
		nla_str(c, addr, len);
		return true;
	}
	if (type == 2)
		return nla_u32(c, addr, len, false);
	return false;
}


static void nl_message(struct dec_ctx *c, int proto,
		       const struct nlmsghdr *h, unsigned long addr,
		       unsigned long len);

static void nl_header(struct dec_ctx *c, int proto, const struct nlmsghdr *h)
{
	const struct xlat *types = netlink_types, *flags = nlm_flags;
	const char *dflt = "NLMSG_???";

	if (h->nlmsg_type >= NLMSG_MIN_TYPE) {
		if (proto == NETLINK_ROUTE) {
			types = nl_route_types;
			dflt = "RTM_???";
			if (h->nlmsg_type == RTM_DELACTION)
				flags = nlm_get_flags;
			else if ((h->nlmsg_type & 3) == 0)
				flags = nlm_new_flags;
			else if ((h->nlmsg_type & 3) == 1)
				flags = nlm_delete_flags;
			else if ((h->nlmsg_type & 3) == 2)
				flags = nlm_get_flags;
		} else if (proto == NETLINK_SOCK_DIAG) {
			types = nl_sock_diag_types;
			dflt = "SOCK_DIAG_???";
			flags = nlm_get_flags;
		}
	} else if (h->nlmsg_type == NLMSG_ERROR) {
		flags = nlm_ack_flags;
	}
	dec_printf(c, "{nlmsg_len=%u, nlmsg_type=", h->nlmsg_len);
	dec_xval(c, types, h->nlmsg_type, dflt);
	dec_puts(c, ", nlmsg_flags=");
	dec_flags(c, flags, h->nlmsg_flags, "NLM_F_???");
	dec_printf(c, ", nlmsg_seq=%u, nlmsg_pid=%d}", h->nlmsg_seq,
		   (int)h->nlmsg_pid);
}

/* struct nlmsgerr: the error, the message it answers, extended ACK. */
static void nl_error(struct dec_ctx *c, int proto, unsigned long addr,
		     unsigned len, bool capped)
{
	struct nlmsghdr h;
	int err;
	unsigned payload;

	if (len < sizeof(err)) {
		nl_hex(c, addr, len);
		return;
	}
	if (!dec_read(c, addr, &err, sizeof(err))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{error=");
	if (err < 0 && strerrorname_np(-err)) {
		if (c->xlat_style != DEC_XLAT_ABBREV)
			dec_printf(c, "%d", err);
		if (c->xlat_style == DEC_XLAT_VERBOSE)
			dec_printf(c, " /* -%s */", strerrorname_np(-err));
		else if (c->xlat_style == DEC_XLAT_ABBREV)
			dec_printf(c, "-%s", strerrorname_np(-err));
	} else {
		dec_printf(c, "%d", err);
	}
	addr += sizeof(err);
	len -= sizeof(err);
	if (len) {
		dec_puts(c, ", msg=");
		if (len < sizeof(h)) {
			nl_hex(c, addr, len);
		} else if (!dec_read(c, addr, &h, sizeof(h))) {
			dec_ptr(c, addr);
		} else {
			payload = capped ? sizeof(h) : h.nlmsg_len;
			if (payload > len)
				payload = len;
			nl_message(c, proto, &h, addr, payload);
			if (len > payload) {
				dec_puts(c, ", ");
				nl_attrs(c, addr + payload, len - payload,
					 nlmsgerr_attrs, "NLMSGERR_ATTR_???",
					 nlmsgerr_attr, NULL);
			}
		}
	}
	dec_puts(c, "}");
}

static void nl_payload(struct dec_ctx *c, int proto,
		       const struct nlmsghdr *h, unsigned long addr,
		       unsigned len)
{
	int num;

	if (h->nlmsg_type == NLMSG_ERROR) {
		nl_error(c, proto, addr, len, h->nlmsg_flags & NLM_F_CAPPED);
		return;
	}
	if (h->nlmsg_type >= NLMSG_MIN_TYPE && proto == NETLINK_ROUTE &&
	    nl_route_payload(c, h->nlmsg_type, addr, len))
		return;
	if (h->nlmsg_type >= NLMSG_MIN_TYPE && proto == NETLINK_SOCK_DIAG &&
	    nl_diag_payload(c, h, addr, len))
		return;
	if (h->nlmsg_type == NLMSG_DONE && len == sizeof(num)) {
		if (!dec_read(c, addr, &num, sizeof(num)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "%d", num);
		return;
	}
	nl_hex(c, addr, len);
}

/* [header, payload], or the header alone when there is no payload. */
static void nl_message(struct dec_ctx *c, int proto,
		       const struct nlmsghdr *h, unsigned long addr,
		       unsigned long len)
{
	unsigned n = h->nlmsg_len < len ? h->nlmsg_len : (unsigned)len;

	if (n > NLMSG_HDRLEN)
		dec_puts(c, "[");
	nl_header(c, proto, h);
	if (n > NLMSG_HDRLEN) {
		dec_puts(c, ", ");
		nl_payload(c, proto, h, addr + NLMSG_HDRLEN, n - NLMSG_HDRLEN);
		dec_puts(c, "]");
	}
}

/* One message of a buffer, for nl_walk(). */
static void msg_print(struct dec_ctx *c, const void *hdr, unsigned long addr,
		      unsigned long len, const void *arg)
{
	struct nlmsghdr h;

	memcpy(&h, hdr, sizeof(h));
	nl_message(c, *(const int *)arg, &h, addr, len);
}

void dec_netlink(struct dec_ctx *c, int proto, unsigned long addr,
		 unsigned long len)
{
	const struct nl_walk w = {
		.hdr_size = sizeof(struct nlmsghdr), .len_size = 4,
		.min_len = NLMSG_HDRLEN, .print = msg_print, .arg = &proto,
	};

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	nl_walk(c, &w, addr, len);
}

void dec_sockbuf(struct dec_ctx *c, int fd, unsigned long addr,
		 unsigned long len)
{
	/* -e verbose= without it: strace does not look for netlink then. */
	int proto = c->hide_structs ? -2 : dec_netlink_proto(c, fd);

	if (proto >= -1)
		dec_netlink(c, proto, addr, len);
	else
		dec_buf(c, addr, len);
}

