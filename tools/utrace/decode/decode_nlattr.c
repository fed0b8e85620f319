// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink attributes (struct nlattr and its data), as strace 6.1's
 * nlattr.c prints them: [{nla_len=8, nla_type=IFA_ADDRESS},
 * inet_addr("127.0.0.1")], an array of those for several, and the typed
 * data the family decoders use.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "decode/netlink.h"
#include "decode/xlat.h"

/*
 * A string attribute (strace's QUOTE_OMIT_TRAILING_0 and
 * QUOTE_EXPECT_TRAILING_0): a NUL in the last place shown is left out; a
 * string without it is followed by "...".  In hex (-xx, or -x and a byte
 * to escape, the NUL among them) every byte is shown, then "...".
 */
void nla_str(struct dec_ctx *c, unsigned long addr, unsigned len)
{
	dec_buf_ex(c, addr, len,
		   QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0);
}

/* An address in family af (IFA_ADDRESS ...): false if not one. */
bool nla_inet(struct dec_ctx *c, unsigned long addr, unsigned len,
		     int af)
{
	unsigned char a[16];
	char ip[INET6_ADDRSTRLEN];
	unsigned need = af == AF_INET ? 4 : af == AF_INET6 ? 16 : 0;

	if (!need || len < need)
		return false;
	if (!dec_read(c, addr, a, need)) {
		dec_ptr(c, addr);
		return true;
	}
	/* -X raw: the bytes; -X verbose: the bytes, then the address. */
	if (!dec_xraw_begin(c, a, need))
		return true;
	inet_ntop(af, a, ip, sizeof(ip));
	dec_puts(c, af == AF_INET ? "inet_addr(" : "inet_pton(AF_INET6, ");
	dec_quote(c->out, c->hexstr, (unsigned char *)ip, strlen(ip), 0);
	dec_puts(c, ")");
	dec_xraw_end(c);
	return true;
}

bool nla_u32(struct dec_ctx *c, unsigned long addr, unsigned len,
		    bool sign)
{
	uint32_t v;

	if (len < sizeof(v))
		return false;
	if (!dec_read(c, addr, &v, sizeof(v)))
		dec_ptr(c, addr);
	else
		dec_printf(c, sign ? "%d" : "%u", v);
	return true;
}

bool nla_int(struct dec_ctx *c, unsigned long addr, unsigned len,
		    unsigned size)
{
	uint32_t v32;
	uint8_t v8;

	if (len < size)
		return false;
	if (size == 1) {
		if (!dec_read(c, addr, &v8, 1))
			dec_ptr(c, addr);
		else
			dec_printf(c, "%u", v8);
		return true;
	}
	if (!dec_read(c, addr, &v32, 4))
		dec_ptr(c, addr);
	else
		dec_printf(c, "%u", v32);
	return true;
}


/* One attribute: [hdr, data], or the header alone without data. */
struct attr_walk {
	const struct xlat *names;
	const char *dflt;
	nla_decoder dec;
	const void *ctx;
};

static void attr_print(struct dec_ctx *c, const void *hdr, unsigned long addr,
		       unsigned long len, const void *arg)
{
	const struct attr_walk *a = arg;
	struct nlattr nla;
	unsigned long dlen;

	memcpy(&nla, hdr, sizeof(nla));
	dlen = nla.nla_len < len ? nla.nla_len : len;
	if (dlen > NLA_HDRLEN)
		dec_puts(c, "[");
	dec_printf(c, "{nla_len=%u, nla_type=", nla.nla_len);
	if (nla.nla_type & NLA_F_NESTED)
		dec_puts(c, "NLA_F_NESTED|");
	if (nla.nla_type & NLA_F_NET_BYTEORDER)
		dec_puts(c, "NLA_F_NET_BYTEORDER|");
	dec_xval(c, a->names, nla.nla_type & NLA_TYPE_MASK, a->dflt);
	dec_puts(c, "}");
	if (dlen > NLA_HDRLEN) {
		dec_puts(c, ", ");
		if (!a->dec || !a->dec(c, nla.nla_type & NLA_TYPE_MASK,
				       addr + NLA_HDRLEN,
				       (unsigned)(dlen - NLA_HDRLEN), a->ctx))
			nl_hex(c, addr + NLA_HDRLEN, dlen - NLA_HDRLEN);
		dec_puts(c, "]");
	}
}

void nl_attrs(struct dec_ctx *c, unsigned long addr, unsigned len,
	      const struct xlat *names, const char *dflt, nla_decoder dec,
	      const void *ctx)
{
	const struct attr_walk a = { names, dflt, dec, ctx };
	const struct nl_walk w = {
		.hdr_size = sizeof(struct nlattr), .len_size = 2,
		.min_len = NLA_HDRLEN, .print = attr_print, .arg = &a,
	};

	nl_walk(c, &w, addr, len);
}
