// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NETLINK_ROUTE payloads, as strace 6.1's rtnl_link.c and rtnl_addr.c
 * print them: struct ifinfomsg with the IFLA_* attributes, struct
 * ifaddrmsg with the IFA_* ones (what getaddrinfo() and ip ask).  Other
 * messages show their family and the rest in hex.
 */
#include <net/if.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <stddef.h>
#include <string.h>

#include "decode/netlink.h"
#include "decode/xlat.h"

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
		if (!dec_xraw_begin(c, hw, len))
			return true;
		for (i = 0; i < len; i++)
			dec_printf(c, i ? ":%02x" : "%02x", hw[i]);
		dec_xraw_end(c);
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


void put_ifindex(struct dec_ctx *c, unsigned idx)
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

/* A NETLINK_ROUTE payload: false if left to the generic printer. */
bool nl_route_payload(struct dec_ctx *c, uint16_t type, unsigned long addr,
		      unsigned len)
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

