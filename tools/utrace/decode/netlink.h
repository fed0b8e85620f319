/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the netlink decoders share, split as strace splits them:
 * decode_netlink.c (messages: headers, errors, the walker over a buffer),
 * decode_nlattr.c (attributes), decode_rtnetlink.c (NETLINK_ROUTE links and
 * addresses), decode_sock_diag.c (NETLINK_SOCK_DIAG inet and unix).
 */
#ifndef UT_NETLINK_H
#define UT_NETLINK_H

#include <linux/netlink.h>

#include "decode/decoders.h"

/*
 * The one walker over netlink elements in the tracee's memory, messages
 * (struct nlmsghdr) and attributes (struct nlattr) alike: each starts with
 * a header whose first field is the element's length, and the next one
 * starts at that length rounded up to 4.  One element prints alone,
 * several as an array; after -s elements (without -v) "..."; a tail too
 * short for a header in hex; a header that cannot be read as its address.
 * print gets the header read and the rest of the buffer from the element.
 */
struct nl_walk {
	size_t hdr_size;	/* the header read before print */
	size_t len_size;	/* its length field: 4 (nlmsg_len), 2 (nla_len) */
	unsigned long min_len;	/* the shortest length that has a next */
	void (*print)(struct dec_ctx *c, const void *hdr, unsigned long addr,
		      unsigned long len, const void *arg);
	const void *arg;
};
void nl_walk(struct dec_ctx *c, const struct nl_walk *w, unsigned long addr,
	     unsigned long len);

/* printstr_ex(QUOTE_FORCE_HEX): a quoted hex string, -s long at most. */
void nl_hex(struct dec_ctx *c, unsigned long addr, unsigned long len);
/* A payload strace has no decoder for: {family=..., data="\x..."}. */
void nl_family(struct dec_ctx *c, uint8_t family, unsigned long addr,
	       unsigned len);

/*
 * Attributes (decode_nlattr.c): a list, [hdr, data] for one and an array
 * of those for more; each one's data through dec (false: in hex), ctx
 * handed on.
 */
typedef bool (*nla_decoder)(struct dec_ctx *c, unsigned type,
			    unsigned long addr, unsigned len, const void *ctx);
void nl_attrs(struct dec_ctx *c, unsigned long addr, unsigned len,
	      const struct xlat *names, const char *dflt, nla_decoder dec,
	      const void *ctx);
/* Typed attribute data; false when len does not fit the type. */
void nla_str(struct dec_ctx *c, unsigned long addr, unsigned len);
bool nla_inet(struct dec_ctx *c, unsigned long addr, unsigned len, int af);
bool nla_u32(struct dec_ctx *c, unsigned long addr, unsigned len, bool sign);
bool nla_int(struct dec_ctx *c, unsigned long addr, unsigned len,
	     unsigned size);

/* The index of a network interface: if_nametoindex("lo") when known. */
void put_ifindex(struct dec_ctx *c, unsigned idx);

/*
 * A NETLINK_ROUTE or NETLINK_SOCK_DIAG payload (decode_rtnetlink.c,
 * decode_sock_diag.c): false when left to the generic printer.
 */
bool nl_route_payload(struct dec_ctx *c, uint16_t type, unsigned long addr,
		      unsigned len);
bool nl_diag_payload(struct dec_ctx *c, const struct nlmsghdr *h,
		     unsigned long addr, unsigned len);

#endif
