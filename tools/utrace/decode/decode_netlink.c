// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink messages in the buffers of send, sendto, sendmsg, recv, recvfrom
 * and recvmsg on a netlink socket, as strace 6.1 prints them:
 *
 *   [{nlmsg_len=20, nlmsg_type=RTM_GETADDR, nlmsg_flags=NLM_F_REQUEST|
 *   NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, {ifa_family=AF_UNSPEC, ...}]
 *
 * One message is [header, payload]; several are an array of those; the
 * same for the attributes after a family header ([{nla_len=8, nla_type=
 * IFA_ADDRESS}, inet_addr("127.0.0.1")]).  The socket's protocol comes
 * from /proc/PID/net/netlink (the line with the socket's inode).  Payloads
 * decoded: NLMSG_ERROR, NLMSG_DONE, and NETLINK_ROUTE's address messages
 * (what getaddrinfo() asks); other payloads are hex strings, as strace
 * writes those it does not know.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "decode/decoders.h"
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

static const struct xlat ifaddrflags[] = {
	XLAT(IFA_F_SECONDARY), XLAT(IFA_F_NODAD), XLAT(IFA_F_OPTIMISTIC),
	XLAT(IFA_F_DADFAILED), XLAT(IFA_F_HOMEADDRESS),
	XLAT(IFA_F_DEPRECATED), XLAT(IFA_F_TENTATIVE), XLAT(IFA_F_PERMANENT),
	XLAT(IFA_F_MANAGETEMPADDR), XLAT(IFA_F_NOPREFIXROUTE),
	XLAT(IFA_F_MCAUTOJOIN), XLAT(IFA_F_STABLE_PRIVACY), XLAT_END
};
static const struct xlat routing_scopes[] = {
	XLAT(RT_SCOPE_UNIVERSE), XLAT(RT_SCOPE_SITE), XLAT(RT_SCOPE_LINK),
	XLAT(RT_SCOPE_HOST), XLAT(RT_SCOPE_NOWHERE), XLAT_END
};
static const struct xlat rtnl_addr_attrs[] = {
	XLAT(IFA_UNSPEC), XLAT(IFA_ADDRESS), XLAT(IFA_LOCAL), XLAT(IFA_LABEL),
	XLAT(IFA_BROADCAST), XLAT(IFA_ANYCAST), XLAT(IFA_CACHEINFO),
	XLAT(IFA_MULTICAST), XLAT(IFA_FLAGS), XLAT(IFA_RT_PRIORITY),
	XLAT(IFA_TARGET_NETNSID), XLAT_PAIR(11, "IFA_PROTO"), XLAT_END
};
static const struct xlat nlmsgerr_attrs[] = {
	XLAT_PAIR(0, "NLMSGERR_ATTR_UNUSED"), XLAT_PAIR(1, "NLMSGERR_ATTR_MSG"),
	XLAT_PAIR(2, "NLMSGERR_ATTR_OFFS"),
	XLAT_PAIR(3, "NLMSGERR_ATTR_COOKIE"),
	XLAT_PAIR(4, "NLMSGERR_ATTR_POLICY"), XLAT_END
};

static const struct xlat arp_hardware_types[] = {
	XLAT(ARPHRD_NETROM), XLAT(ARPHRD_ETHER), XLAT(ARPHRD_EETHER),
	XLAT(ARPHRD_AX25), XLAT(ARPHRD_PRONET), XLAT(ARPHRD_CHAOS),
	XLAT(ARPHRD_IEEE802), XLAT(ARPHRD_ARCNET), XLAT(ARPHRD_APPLETLK),
	XLAT(ARPHRD_DLCI), XLAT(ARPHRD_ATM), XLAT(ARPHRD_METRICOM),
	XLAT(ARPHRD_IEEE1394), XLAT(ARPHRD_EUI64), XLAT(ARPHRD_INFINIBAND),
	XLAT(ARPHRD_SLIP), XLAT(ARPHRD_CSLIP), XLAT(ARPHRD_SLIP6),
	XLAT(ARPHRD_CSLIP6), XLAT(ARPHRD_RSRVD), XLAT(ARPHRD_ADAPT),
	XLAT(ARPHRD_ROSE), XLAT(ARPHRD_X25), XLAT(ARPHRD_HWX25),
	XLAT(ARPHRD_CAN), XLAT_PAIR(290, "ARPHRD_MCTP"), XLAT(ARPHRD_PPP),
	XLAT(ARPHRD_CISCO), XLAT(ARPHRD_LAPB), XLAT(ARPHRD_DDCMP),
	XLAT(ARPHRD_RAWHDLC), XLAT(ARPHRD_RAWIP), XLAT(ARPHRD_TUNNEL),
	XLAT(ARPHRD_TUNNEL6), XLAT(ARPHRD_FRAD), XLAT(ARPHRD_SKIP),
	XLAT(ARPHRD_LOOPBACK), XLAT(ARPHRD_LOCALTLK), XLAT(ARPHRD_FDDI),
	XLAT(ARPHRD_BIF), XLAT(ARPHRD_SIT), XLAT(ARPHRD_IPDDP),
	XLAT(ARPHRD_IPGRE), XLAT(ARPHRD_PIMREG), XLAT(ARPHRD_HIPPI),
	XLAT(ARPHRD_ASH), XLAT(ARPHRD_ECONET), XLAT(ARPHRD_IRDA),
	XLAT(ARPHRD_FCPP), XLAT(ARPHRD_FCAL), XLAT(ARPHRD_FCPL),
	XLAT(ARPHRD_FCFABRIC), XLAT(ARPHRD_IEEE802_TR),
	XLAT(ARPHRD_IEEE80211), XLAT(ARPHRD_IEEE80211_PRISM),
	XLAT(ARPHRD_IEEE80211_RADIOTAP), XLAT(ARPHRD_IEEE802154),
	XLAT(ARPHRD_IEEE802154_MONITOR), XLAT(ARPHRD_PHONET),
	XLAT(ARPHRD_PHONET_PIPE), XLAT(ARPHRD_CAIF), XLAT(ARPHRD_IP6GRE),
	XLAT(ARPHRD_NETLINK), XLAT(ARPHRD_6LOWPAN), XLAT(ARPHRD_VSOCKMON),
	XLAT(ARPHRD_VOID), XLAT(ARPHRD_NONE), XLAT_END
};
static const struct xlat iffflags[] = {
	XLAT_PAIR(0x1, "IFF_UP"), XLAT_PAIR(0x2, "IFF_BROADCAST"),
	XLAT_PAIR(0x4, "IFF_DEBUG"), XLAT_PAIR(0x8, "IFF_LOOPBACK"),
	XLAT_PAIR(0x10, "IFF_POINTOPOINT"), XLAT_PAIR(0x20, "IFF_NOTRAILERS"),
	XLAT_PAIR(0x40, "IFF_RUNNING"), XLAT_PAIR(0x80, "IFF_NOARP"),
	XLAT_PAIR(0x100, "IFF_PROMISC"), XLAT_PAIR(0x200, "IFF_ALLMULTI"),
	XLAT_PAIR(0x400, "IFF_MASTER"), XLAT_PAIR(0x800, "IFF_SLAVE"),
	XLAT_PAIR(0x1000, "IFF_MULTICAST"), XLAT_PAIR(0x2000, "IFF_PORTSEL"),
	XLAT_PAIR(0x4000, "IFF_AUTOMEDIA"), XLAT_PAIR(0x8000, "IFF_DYNAMIC"),
	XLAT_PAIR(0x10000, "IFF_LOWER_UP"), XLAT_PAIR(0x20000, "IFF_DORMANT"),
	XLAT_PAIR(0x40000, "IFF_ECHO"), XLAT_END
};
/* IFLA_*, as far as strace 6.1 names them (IFLA_ALLMULTI, 61). */
static const struct xlat rtnl_link_attrs[] = {
	XLAT_PAIR(0, "IFLA_UNSPEC"), XLAT_PAIR(1, "IFLA_ADDRESS"),
	XLAT_PAIR(2, "IFLA_BROADCAST"), XLAT_PAIR(3, "IFLA_IFNAME"),
	XLAT_PAIR(4, "IFLA_MTU"), XLAT_PAIR(5, "IFLA_LINK"),
	XLAT_PAIR(6, "IFLA_QDISC"), XLAT_PAIR(7, "IFLA_STATS"),
	XLAT_PAIR(8, "IFLA_COST"), XLAT_PAIR(9, "IFLA_PRIORITY"),
	XLAT_PAIR(10, "IFLA_MASTER"), XLAT_PAIR(11, "IFLA_WIRELESS"),
	XLAT_PAIR(12, "IFLA_PROTINFO"), XLAT_PAIR(13, "IFLA_TXQLEN"),
	XLAT_PAIR(14, "IFLA_MAP"), XLAT_PAIR(15, "IFLA_WEIGHT"),
	XLAT_PAIR(16, "IFLA_OPERSTATE"), XLAT_PAIR(17, "IFLA_LINKMODE"),
	XLAT_PAIR(18, "IFLA_LINKINFO"), XLAT_PAIR(19, "IFLA_NET_NS_PID"),
	XLAT_PAIR(20, "IFLA_IFALIAS"), XLAT_PAIR(21, "IFLA_NUM_VF"),
	XLAT_PAIR(22, "IFLA_VFINFO_LIST"), XLAT_PAIR(23, "IFLA_STATS64"),
	XLAT_PAIR(24, "IFLA_VF_PORTS"), XLAT_PAIR(25, "IFLA_PORT_SELF"),
	XLAT_PAIR(26, "IFLA_AF_SPEC"), XLAT_PAIR(27, "IFLA_GROUP"),
	XLAT_PAIR(28, "IFLA_NET_NS_FD"), XLAT_PAIR(29, "IFLA_EXT_MASK"),
	XLAT_PAIR(30, "IFLA_PROMISCUITY"), XLAT_PAIR(31, "IFLA_NUM_TX_QUEUES"),
	XLAT_PAIR(32, "IFLA_NUM_RX_QUEUES"), XLAT_PAIR(33, "IFLA_CARRIER"),
	XLAT_PAIR(34, "IFLA_PHYS_PORT_ID"),
	XLAT_PAIR(35, "IFLA_CARRIER_CHANGES"),
	XLAT_PAIR(36, "IFLA_PHYS_SWITCH_ID"),
	XLAT_PAIR(37, "IFLA_LINK_NETNSID"),
	XLAT_PAIR(38, "IFLA_PHYS_PORT_NAME"), XLAT_PAIR(39, "IFLA_PROTO_DOWN"),
	XLAT_PAIR(40, "IFLA_GSO_MAX_SEGS"), XLAT_PAIR(41, "IFLA_GSO_MAX_SIZE"),
	XLAT_PAIR(42, "IFLA_PAD"), XLAT_PAIR(43, "IFLA_XDP"),
	XLAT_PAIR(44, "IFLA_EVENT"), XLAT_PAIR(45, "IFLA_NEW_NETNSID"),
	XLAT_PAIR(46, "IFLA_IF_NETNSID"),
	XLAT_PAIR(47, "IFLA_CARRIER_UP_COUNT"),
	XLAT_PAIR(48, "IFLA_CARRIER_DOWN_COUNT"),
	XLAT_PAIR(49, "IFLA_NEW_IFINDEX"), XLAT_PAIR(50, "IFLA_MIN_MTU"),
	XLAT_PAIR(51, "IFLA_MAX_MTU"), XLAT_PAIR(52, "IFLA_PROP_LIST"),
	XLAT_PAIR(53, "IFLA_ALT_IFNAME"), XLAT_PAIR(54, "IFLA_PERM_ADDRESS"),
	XLAT_PAIR(55, "IFLA_PROTO_DOWN_REASON"),
	XLAT_PAIR(56, "IFLA_PARENT_DEV_NAME"),
	XLAT_PAIR(57, "IFLA_PARENT_DEV_BUS_NAME"),
	XLAT_PAIR(58, "IFLA_GRO_MAX_SIZE"), XLAT_PAIR(59, "IFLA_TSO_MAX_SIZE"),
	XLAT_PAIR(60, "IFLA_TSO_MAX_SEGS"), XLAT_PAIR(61, "IFLA_ALLMULTI"),
	XLAT_END
};
static const struct xlat rtext_filters[] = {
	XLAT_PAIR(1, "RTEXT_FILTER_VF"), XLAT_PAIR(2, "RTEXT_FILTER_BRVLAN"),
	XLAT_PAIR(4, "RTEXT_FILTER_BRVLAN_COMPRESSED"),
	XLAT_PAIR(8, "RTEXT_FILTER_SKIP_STATS"),
	XLAT_PAIR(16, "RTEXT_FILTER_MRP"),
	XLAT_PAIR(32, "RTEXT_FILTER_CFM_CONFIG"),
	XLAT_PAIR(64, "RTEXT_FILTER_CFM_STATUS"), XLAT_END
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
static void nl_hex(struct dec_ctx *c, unsigned long addr, unsigned long len)
{
	int saved = c->hexstr;

	c->hexstr = DEC_HEX_ALL;
	dec_buf(c, addr, len);
	c->hexstr = saved;
}

/*
 * A string attribute (strace's QUOTE_OMIT_TRAILING_0 and
 * QUOTE_EXPECT_TRAILING_0): a NUL in the last place shown is left out; a
 * string without it is followed by "...".  In hex (-xx, or -x and a byte
 * to escape, the NUL among them) every byte is shown, then "...".
 */
static void nla_str(struct dec_ctx *c, unsigned long addr, unsigned len)
{
	dec_buf_ex(c, addr, len,
		   QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0);
}

/* An address in family af (IFA_ADDRESS ...): false if not one. */
static bool nla_inet(struct dec_ctx *c, unsigned long addr, unsigned len,
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
	if (c->xlat_style != DEC_XLAT_ABBREV)
		dec_quote(c->out, DEC_HEX_ALL, a, need, 0);
	if (c->xlat_style == DEC_XLAT_RAW)
		return true;
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " /* ");
	inet_ntop(af, a, ip, sizeof(ip));
	dec_puts(c, af == AF_INET ? "inet_addr(" : "inet_pton(AF_INET6, ");
	dec_quote(c->out, c->hexstr, (unsigned char *)ip, strlen(ip), 0);
	dec_puts(c, ")");
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " */");
	return true;
}

static bool nla_u32(struct dec_ctx *c, unsigned long addr, unsigned len,
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

/* What an attribute's payload is: decoded, or false for a hex string. */
typedef bool (*nla_decoder)(struct dec_ctx *c, unsigned type,
			    unsigned long addr, unsigned len, const void *ctx);

static bool ifa_attr(struct dec_ctx *c, unsigned type, unsigned long addr,
		     unsigned len, const void *ctx)
{
	const struct ifaddrmsg *ifa = ctx;

	switch (type) {
	case IFA_ADDRESS:
	case IFA_LOCAL:
	case IFA_BROADCAST:
	case IFA_ANYCAST:
	case IFA_MULTICAST:
		if (!nla_inet(c, addr, len, ifa->ifa_family))
			nl_hex(c, addr, len);
		return true;
	case IFA_LABEL:
		nla_str(c, addr, len);
		return true;
	case IFA_CACHEINFO: {
		struct ifa_cacheinfo ci;

		if (len < sizeof(ci))
			return false;
		if (!dec_read(c, addr, &ci, sizeof(ci)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "{ifa_prefered=%u, ifa_valid=%u, "
				   "cstamp=%u, tstamp=%u}", ci.ifa_prefered,
				   ci.ifa_valid, ci.cstamp, ci.tstamp);
		return true;
	}
	case IFA_FLAGS: {
		uint32_t v;

		if (len < sizeof(v) || len > 8)
			return false;
		if (!dec_read(c, addr, &v, sizeof(v)))
			dec_ptr(c, addr);
		else
			dec_flags(c, ifaddrflags, v, "IFA_F_???");
		return true;
	}
	case IFA_RT_PRIORITY:
		return nla_u32(c, addr, len, false);
	case IFA_TARGET_NETNSID:
		return nla_u32(c, addr, len, true);
	}
	return false;
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

static bool nla_int(struct dec_ctx *c, unsigned long addr, unsigned len,
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

/* rtnl_link_stats(64): the counters up to those len holds. */
static bool link_stats(struct dec_ctx *c, unsigned long addr, unsigned len,
		       bool wide)
{
	static const char *const names[] = {
		"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
		"rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
		"multicast", "collisions", "rx_length_errors",
		"rx_over_errors", "rx_crc_errors", "rx_frame_errors",
		"rx_fifo_errors", "rx_missed_errors", "tx_aborted_errors",
		"tx_carrier_errors", "tx_fifo_errors", "tx_heartbeat_errors",
		"tx_window_errors", "rx_compressed", "tx_compressed",
		"rx_nohandler", "rx_otherhost_dropped",
	};
	unsigned w = wide ? 8 : 4, n, i;
	unsigned char buf[25 * 8];

	if (len >= (wide ? 25 : 24) * w)
		n = wide ? 25 : 24;
	else if (len >= 24 * w)
		n = 24;
	else if (len == 23 * w)
		n = 23;
	else
		return false;
	if (!dec_read(c, addr, buf, n * w)) {
		dec_ptr(c, addr);
		return true;
	}
	for (i = 0; i < n; i++) {
		unsigned long long v;

		if (wide) {
			uint64_t x;

			memcpy(&x, buf + i * 8, 8);
			v = x;
		} else {
			uint32_t x;

			memcpy(&x, buf + i * 4, 4);
			v = x;
		}
		dec_printf(c, "%s%s=%llu", i ? ", " : "{", names[i], v);
	}
	dec_puts(c, "}");
	return true;
}

static bool ifla_attr(struct dec_ctx *c, unsigned type, unsigned long addr,
		      unsigned len, const void *ctx)
{
	(void)ctx;
	switch (type) {
	case IFLA_ADDRESS:
	case IFLA_BROADCAST:
	case 54:	/* IFLA_PERM_ADDRESS */ {
		unsigned char hw[32];
		unsigned i;

		if (len > sizeof(hw))
			return false;
		if (!dec_read(c, addr, hw, len)) {
			dec_ptr(c, addr);
			return true;
		}
		if (c->xlat_style != DEC_XLAT_ABBREV)
			dec_quote(c->out, DEC_HEX_ALL, hw, len, 0);
		if (c->xlat_style == DEC_XLAT_RAW)
			return true;
		if (c->xlat_style == DEC_XLAT_VERBOSE)
			dec_puts(c, " /* ");
		for (i = 0; i < len; i++)
			dec_printf(c, i ? ":%02x" : "%02x", hw[i]);
		if (c->xlat_style == DEC_XLAT_VERBOSE)
			dec_puts(c, " */");
		return true;
	}
	case IFLA_IFNAME:
	case IFLA_QDISC:
	case IFLA_IFALIAS:
	case 38:	/* IFLA_PHYS_PORT_NAME */
	case 53:	/* IFLA_ALT_IFNAME */
	case 56:	/* IFLA_PARENT_DEV_NAME */
	case 57:	/* IFLA_PARENT_DEV_BUS_NAME */
		nla_str(c, addr, len);
		return true;
	case IFLA_STATS:
		return link_stats(c, addr, len, false);
	case IFLA_STATS64:
		return link_stats(c, addr, len, true);
	case IFLA_MAP: {
		struct rtnl_link_ifmap m;

		if (len < offsetof(struct rtnl_link_ifmap, port) + 1)
			return false;
		if (!dec_read(c, addr, &m, sizeof(m)))
			dec_ptr(c, addr);
		else
			dec_printf(c, "{mem_start=%#llx, mem_end=%#llx, "
				   "base_addr=%#llx, irq=%u, dma=%u, port=%u}",
				   (unsigned long long)m.mem_start,
				   (unsigned long long)m.mem_end,
				   (unsigned long long)m.base_addr, m.irq,
				   m.dma, m.port);
		return true;
	}
	case IFLA_EXT_MASK: {
		uint32_t v;

		if (len < sizeof(v))
			return false;
		if (!dec_read(c, addr, &v, sizeof(v)))
			dec_ptr(c, addr);
		else
			dec_flags(c, rtext_filters, v, "RTEXT_FILTER_???");
		return true;
	}
	case IFLA_OPERSTATE:
	case IFLA_LINKMODE:
	case IFLA_CARRIER:
	case 39:	/* IFLA_PROTO_DOWN */
		return nla_int(c, addr, len, 1);
	case IFLA_MTU:
	case IFLA_LINK:
	case IFLA_MASTER:
	case IFLA_TXQLEN:
	case IFLA_WEIGHT:
	case IFLA_NET_NS_PID:
	case IFLA_NUM_VF:
	case IFLA_GROUP:
	case IFLA_PROMISCUITY:
	case IFLA_NUM_TX_QUEUES:
	case IFLA_NUM_RX_QUEUES:
	case 35:	/* IFLA_CARRIER_CHANGES */
	case 40:	/* IFLA_GSO_MAX_SEGS */
	case 41:	/* IFLA_GSO_MAX_SIZE */
	case 47:	/* IFLA_CARRIER_UP_COUNT */
	case 48:	/* IFLA_CARRIER_DOWN_COUNT */
	case 50:	/* IFLA_MIN_MTU */
	case 51:	/* IFLA_MAX_MTU */
	case 58:	/* IFLA_GRO_MAX_SIZE */
	case 59:	/* IFLA_TSO_MAX_SIZE */
	case 60:	/* IFLA_TSO_MAX_SEGS */
	case 61:	/* IFLA_ALLMULTI */
		return nla_int(c, addr, len, 4);
	case 37:	/* IFLA_LINK_NETNSID */
	case 45:	/* IFLA_NEW_NETNSID */
	case 46:	/* IFLA_IF_NETNSID */
		return nla_u32(c, addr, len, true);
	}
	return false;
}

/* A list of attributes: [hdr, data] for one, an array of those for more. */
static void nl_attrs(struct dec_ctx *c, unsigned long addr, unsigned len,
		     const struct xlat *names, const char *dflt,
		     nla_decoder dec, const void *ctx)
{
	bool is_array = false;
	unsigned elt;

	for (elt = 0;; elt++) {
		struct nlattr nla;
		unsigned alen, dlen;
		unsigned long next = 0;
		unsigned next_len = 0;

		if (len < sizeof(nla)) {
			nl_hex(c, addr, len);
			break;
		}
		if (!dec_read(c, addr, &nla, sizeof(nla))) {
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
		alen = NLA_ALIGN(nla.nla_len);
		if (nla.nla_len >= NLA_HDRLEN) {
			next_len = len >= alen ? len - alen : 0;
			if (next_len)
				next = addr + alen;
		}
		if (!is_array && next) {
			dec_puts(c, "[");
			is_array = true;
		}
		dlen = nla.nla_len < len ? nla.nla_len : len;
		if (dlen > NLA_HDRLEN)
			dec_puts(c, "[");
		dec_printf(c, "{nla_len=%u, nla_type=", nla.nla_len);
		if (nla.nla_type & NLA_F_NESTED)
			dec_puts(c, "NLA_F_NESTED|");
		if (nla.nla_type & NLA_F_NET_BYTEORDER)
			dec_puts(c, "NLA_F_NET_BYTEORDER|");
		dec_xval(c, names, nla.nla_type & NLA_TYPE_MASK, dflt);
		dec_puts(c, "}");
		if (dlen > NLA_HDRLEN) {
			dec_puts(c, ", ");
			if (!dec || !dec(c, nla.nla_type & NLA_TYPE_MASK,
					 addr + NLA_HDRLEN, dlen - NLA_HDRLEN,
					 ctx))
				nl_hex(c, addr + NLA_HDRLEN,
				       dlen - NLA_HDRLEN);
			dec_puts(c, "]");
		}
		if (!next)
			break;
		dec_puts(c, ", ");
		addr = next;
		len = next_len;
	}
	if (is_array)
		dec_puts(c, "]");
}

/* The index of a network interface: if_nametoindex("lo") when known. */
static void put_ifindex(struct dec_ctx *c, unsigned idx)
{
	char name[IF_NAMESIZE];

	if (idx && if_indextoname(idx, name) &&
	    c->xlat_style != DEC_XLAT_RAW) {
		if (c->xlat_style == DEC_XLAT_VERBOSE)
			dec_printf(c, "%u /* ", idx);
		dec_puts(c, "if_nametoindex(");
		dec_quote(c->out, c->hexstr, (unsigned char *)name,
			   strlen(name), 0);
		dec_puts(c, ")");
		if (c->xlat_style == DEC_XLAT_VERBOSE)
			dec_puts(c, " */");
	} else {
		dec_printf(c, "%u", idx);
	}
}

/* struct ifaddrmsg and the IFA_* attributes after it. */
static void rtnl_addr(struct dec_ctx *c, uint8_t family, unsigned long addr,
		      unsigned len)
{
	struct ifaddrmsg ifa;
	bool attrs = false;

	dec_puts(c, "{ifa_family=");
	dec_xval(c, xlat_address_families, family, "AF_???");
	dec_puts(c, ", ");
	if (len >= sizeof(ifa)) {
		if (!dec_read(c, addr, &ifa, sizeof(ifa))) {
			dec_ptr(c, addr + 1);
		} else {
			dec_printf(c, "ifa_prefixlen=%u, ifa_flags=",
				   ifa.ifa_prefixlen);
			dec_flags(c, ifaddrflags, ifa.ifa_flags, "IFA_F_???");
			dec_puts(c, ", ifa_scope=");
			dec_xval(c, routing_scopes, ifa.ifa_scope, NULL);
			dec_puts(c, ", ifa_index=");
			put_ifindex(c, ifa.ifa_index);
			attrs = true;
		}
	} else {
		dec_puts(c, "...");
	}
	dec_puts(c, "}");
	if (attrs && len > NLMSG_ALIGN(sizeof(ifa))) {
		dec_puts(c, ", ");
		nl_attrs(c, addr + NLMSG_ALIGN(sizeof(ifa)),
			 len - NLMSG_ALIGN(sizeof(ifa)), rtnl_addr_attrs,
			 "IFA_???", ifa_attr, &ifa);
	}
}

/* struct ifinfomsg and the IFLA_* attributes after it. */
static void rtnl_link(struct dec_ctx *c, uint8_t family, unsigned long addr,
		      unsigned len)
{
	struct ifinfomsg ifi;
	bool attrs = false;

	dec_puts(c, "{ifi_family=");
	dec_xval(c, xlat_address_families, family, "AF_???");
	dec_puts(c, ", ");
	if (len >= sizeof(ifi)) {
		if (!dec_read(c, addr, &ifi, sizeof(ifi))) {
			dec_ptr(c, addr + 1);
		} else {
			dec_puts(c, "ifi_type=");
			dec_xval(c, arp_hardware_types, ifi.ifi_type,
				 "ARPHRD_???");
			dec_puts(c, ", ifi_index=");
			put_ifindex(c, (unsigned)ifi.ifi_index);
			dec_puts(c, ", ifi_flags=");
			dec_flags(c, iffflags, ifi.ifi_flags, "IFF_???");
			dec_puts(c, ", ifi_change=");
			dec_hex(c, ifi.ifi_change);
			attrs = true;
		}
	} else {
		dec_puts(c, "...");
	}
	dec_puts(c, "}");
	if (attrs && len > NLMSG_ALIGN(sizeof(ifi))) {
		dec_puts(c, ", ");
		nl_attrs(c, addr + NLMSG_ALIGN(sizeof(ifi)),
			 len - NLMSG_ALIGN(sizeof(ifi)), rtnl_link_attrs,
			 "IFLA_???", ifla_attr, &ifi);
	}
}

/* -- NETLINK_SOCK_DIAG: inet_diag requests and answers --------------- */

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

/*
 * A field shown decoded (-X abbrev), as its bytes in hex (-X raw), or both
 * (-X verbose: the bytes, then the decoded text in a comment):
 * dec_xraw_begin() before the decoded text (false: none to print),
 * dec_xraw_end() after it.
 */
bool dec_xraw_begin(struct dec_ctx *c, const void *raw, size_t n)
{
	if (c->xlat_style != DEC_XLAT_ABBREV)
		dec_quote(c->out, DEC_HEX_ALL, raw, n, 0);
	if (c->xlat_style == DEC_XLAT_RAW)
		return false;
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " /* ");
	return true;
}

void dec_xraw_end(struct dec_ctx *c)
{
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " */");
}

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

/* A payload strace has no decoder for: the family, the rest in hex. */
static void nl_family(struct dec_ctx *c, uint8_t family, unsigned long addr,
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
static bool diag_payload(struct dec_ctx *c, const struct nlmsghdr *h,
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

/* A NETLINK_ROUTE payload: false if left to the generic printer. */
static bool route_payload(struct dec_ctx *c, uint16_t type,
			  unsigned long addr, unsigned len)
{
	uint8_t family;

	if (type == NLMSG_DONE)
		return false;
	if (!dec_read(c, addr, &family, 1)) {
		dec_ptr(c, addr);
		return true;
	}
	switch (type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
	case RTM_GETLINK:
	case RTM_SETLINK:
		rtnl_link(c, family, addr, len);
		return true;
	case RTM_NEWADDR:
	case RTM_DELADDR:
	case RTM_GETADDR:
	case RTM_GETMULTICAST:
	case RTM_GETANYCAST:
		rtnl_addr(c, family, addr, len);
		return true;
	}
	/* Not decoded here: as strace writes a family it has no decoder for. */
	nl_family(c, family, addr, len);
	return true;
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
	    route_payload(c, h->nlmsg_type, addr, len))
		return;
	if (h->nlmsg_type >= NLMSG_MIN_TYPE && proto == NETLINK_SOCK_DIAG &&
	    diag_payload(c, h, addr, len))
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

void dec_netlink(struct dec_ctx *c, int proto, unsigned long addr,
		 unsigned long len)
{
	bool is_array = false;
	unsigned elt;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	for (elt = 0;; elt++) {
		struct nlmsghdr h;
		unsigned long mlen, next = 0, next_len = 0;

		if (len < sizeof(h)) {
			nl_hex(c, addr, len);
			break;
		}
		if (!dec_read(c, addr, &h, sizeof(h))) {
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
		mlen = NLMSG_ALIGN(h.nlmsg_len);
		if (h.nlmsg_len >= NLMSG_HDRLEN) {
			next_len = len >= mlen ? len - mlen : 0;
			if (next_len)
				next = addr + mlen;
		}
		if (!is_array && next) {
			dec_puts(c, "[");
			is_array = true;
		}
		nl_message(c, proto, &h, addr, len);
		if (!next)
			break;
		dec_puts(c, ", ");
		addr = next;
		len = next_len;
	}
	if (is_array)
		dec_puts(c, "]");
}

void dec_sockbuf(struct dec_ctx *c, int fd, unsigned long addr,
		 unsigned long len)
{
	int proto = dec_netlink_proto(c, fd);

	if (proto >= -1)
		dec_netlink(c, proto, addr, len);
	else
		dec_buf(c, addr, len);
}
