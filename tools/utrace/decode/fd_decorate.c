// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -y, -yy: what strace 6.1 prints after a file descriptor (fd_decorate).
 *
 * A socket's endpoints come, as in strace, from NETLINK_SOCK_DIAG, keyed by
 * the socket's inode (from the /proc/PID/fd/N link, "socket:[INODE]"): the
 * protocol named by the "system.sockprotoname" attribute of that link picks
 * the query (inet_diag for TCP, UDP and the other IP protocols, unix_diag,
 * netlink_diag); a protocol the kernel names otherwise tries them all.
 *
 *   TCP:[127.0.0.1:5000->127.0.0.1:41234]   TCP:[127.0.0.1:5000]
 *   TCPv6:[[::1]:5000->[::1]:41234]          UDP:[0.0.0.0:68]
 *   UNIX-STREAM:[INODE->PEER,"/run/sock"]   UNIX:[INODE,@"abstract"]
 *   NETLINK:[ROUTE:PORTID]                   TCP:[INODE] (not found)
 *
 * A character or block device prints "/dev/null<char 1:3>", a pidfd
 * "pid:1234".  Paths (-y) are quoted as strace quotes them, with
 * "(deleted)" after the ">" of a file no longer at its name.
 *
 * As strace 6.1, what the kernel answered is kept per inode, in a cache of
 * 1024 entries shared by all the tracees, and shown again from there: the
 * second end of a socketpair still shows its peer when the first was
 * closed, and a socket keeps the endpoints it had when first found.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "decode/decode.h"

#ifndef IPPROTO_L2TP
#define IPPROTO_L2TP	115
#endif

/* The answer of one diag query: what was found, or nothing. */
struct diag_query {
	unsigned long inode;
	const char *name;	/* strace's protocol name */
	struct sbuf *out;	/* details appended here when found */
	int hexstr;		/* -x: how a path is quoted */
};

/* > 0: found (details written), 0: not this one, < 0: give up. */
typedef int (*diag_parser)(const void *data, int len, struct diag_query *q);

static bool diag_send(int fd, void *req, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct iovec iov = { .iov_base = req, .iov_len = len };
	struct msghdr msg = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
	};

	while (sendmsg(fd, &msg, 0) < 0)
		if (errno != EINTR)
			return false;
	return true;
}

static bool diag_receive(int fd, diag_parser parse, struct diag_query *q)
{
	union {
		struct nlmsghdr h;
		long buf[8192 / sizeof(long)];
	} u;
	int flags = 0;

	for (;;) {
		struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
		struct iovec iov = { .iov_base = u.buf, .iov_len = sizeof(u) };
		struct msghdr msg = {
			.msg_name = &sa, .msg_namelen = sizeof(sa),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		const struct nlmsghdr *h = &u.h;
		ssize_t n = recvmsg(fd, &msg, flags);
		int len;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		len = (int)n;
		if (!NLMSG_OK(h, len))
			return false;
		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			int rc;

			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				return false;	/* NLMSG_DONE, an error */
			rc = parse(NLMSG_DATA(h), (int)h->nlmsg_len, q);
			if (rc > 0)
				return true;
			if (rc < 0)
				return false;
		}
		flags = MSG_DONTWAIT;
	}
}

/* -- inet_diag ------------------------------------------------------------ */

static int inet_parse(const void *data, int len, struct diag_query *q)
{
	const struct inet_diag_msg *m = data;
	static const unsigned char zero[16];
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	const char *ob, *cb;
	size_t asize;

	if (len < (int)NLMSG_LENGTH(sizeof(*m)))
		return -1;
	if (m->idiag_inode != q->inode)
		return 0;
	if (m->idiag_family == AF_INET)
		asize = 4;
	else if (m->idiag_family == AF_INET6)
		asize = 16;
	else
		return -1;
	ob = m->idiag_family == AF_INET6 ? "[" : "";
	cb = m->idiag_family == AF_INET6 ? "]" : "";
	if (!inet_ntop(m->idiag_family, m->id.idiag_src, src, sizeof(src)))
		return -1;
	if (m->id.idiag_dport || memcmp(zero, m->id.idiag_dst, asize)) {
		if (!inet_ntop(m->idiag_family, m->id.idiag_dst, dst,
			       sizeof(dst)))
			return -1;
		sb_printf(q->out, "%s:[%s%s%s:%u->%s%s%s:%u]", q->name,
			  ob, src, cb, ntohs(m->id.idiag_sport),
			  ob, dst, cb, ntohs(m->id.idiag_dport));
	} else {
		sb_printf(q->out, "%s:[%s%s%s:%u]", q->name, ob, src, cb,
			  ntohs(m->id.idiag_sport));
	}
	return 1;
}

static bool inet_get(int fd, int family, int proto, struct diag_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 idr;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_DUMP | NLM_F_REQUEST,
		},
		.idr = {
			.sdiag_family = (__u8)family,
			.sdiag_protocol = (__u8)proto,
			.idiag_states = ~0U,
		},
	};

	return diag_send(fd, &req, sizeof(req)) &&
	       diag_receive(fd, inet_parse, q);
}

/* -- unix_diag ------------------------------------------------------------ */

static int unix_parse(const void *data, int len, struct diag_query *q)
{
	const struct unix_diag_msg *m = data;
	int rta_len = len - (int)NLMSG_LENGTH(sizeof(*m));
	const struct rtattr *a;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	size_t path_len = 0;
	uint32_t peer = 0;

	if (rta_len < 0)
		return -1;
	if (m->udiag_ino != q->inode)
		return 0;
	if (m->udiag_family != AF_UNIX)
		return -1;
	for (a = (const struct rtattr *)(m + 1); RTA_OK(a, rta_len);
	     a = RTA_NEXT(a, rta_len)) {
		if (a->rta_type == UNIX_DIAG_NAME && !path_len) {
			path_len = RTA_PAYLOAD(a);
			if (path_len > sizeof(path) - 1)
				path_len = sizeof(path) - 1;
			memcpy(path, RTA_DATA(a), path_len);
			path[path_len] = '\0';
		} else if (a->rta_type == UNIX_DIAG_PEER &&
			   RTA_PAYLOAD(a) >= 4) {
			memcpy(&peer, RTA_DATA(a), sizeof(peer));
		}
	}
	/* "UNIX:[" INODE [ "->" PEER ] [ "," PATH ] "]" */
	if (!peer && !path_len)
		return -1;
	sb_printf(q->out, "%s:[%lu", q->name, q->inode);
	if (peer)
		sb_printf(q->out, "->%u", peer);
	if (path_len) {
		sb_putc(q->out, ',');
		if (!path[0]) {		/* abstract */
			sb_putc(q->out, '@');
			dec_quote(q->out, q->hexstr, (const unsigned char *)path + 1,
				   path_len - 1, QUOTE_0_TERMINATED);
		} else {
			dec_quote(q->out, q->hexstr, (const unsigned char *)path,
				   path_len, QUOTE_0_TERMINATED);
		}
	}
	sb_putc(q->out, ']');
	return 1;
}

static bool unix_get(int fd, int family, int proto, struct diag_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req udr;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.udr = {
			.sdiag_family = AF_UNIX,
			.udiag_ino = (__u32)q->inode,
			.udiag_states = ~0U,
			.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER,
			.udiag_cookie = { ~0U, ~0U },
		},
	};

	return diag_send(fd, &req, sizeof(req)) &&
	       diag_receive(fd, unix_parse, q);
}

/* -- netlink_diag --------------------------------------------------------- */

static const char *const netlink_protocols[] = {
	"ROUTE", "UNUSED", "USERSOCK", "FIREWALL", "SOCK_DIAG", "NFLOG",
	"XFRM", "SELINUX", "ISCSI", "AUDIT", "FIB_LOOKUP", "CONNECTOR",
	"NETFILTER", "IP6_FW", "DNRTMSG", "KOBJECT_UEVENT", "GENERIC", NULL,
	"SCSITRANSPORT", "ECRYPTFS", "RDMA", "CRYPTO", "SMC",
};

static int netlink_parse(const void *data, int len, struct diag_query *q)
{
	const struct netlink_diag_msg *m = data;
	unsigned proto;

	if (len < (int)NLMSG_LENGTH(sizeof(*m)))
		return -1;
	if (m->ndiag_ino != q->inode)
		return 0;
	if (m->ndiag_family != AF_NETLINK)
		return -1;
	proto = m->ndiag_protocol;
	if (proto < sizeof(netlink_protocols) / sizeof(netlink_protocols[0]) &&
	    netlink_protocols[proto])
		sb_printf(q->out, "%s:[%s:%u]", q->name,
			  netlink_protocols[proto], m->ndiag_portid);
	else
		sb_printf(q->out, "%s:[%u]", q->name, proto);
	return 1;
}

static bool netlink_get(int fd, int family, int proto, struct diag_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct netlink_diag_req ndr;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_DUMP | NLM_F_REQUEST,
		},
		.ndr = {
			.sdiag_family = AF_NETLINK,
			.sdiag_protocol = NDIAG_PROTO_ALL,
		},
	};

	return diag_send(fd, &req, sizeof(req)) &&
	       diag_receive(fd, netlink_parse, q);
}

/* -- Protocols, as the kernel names them ---------------------------------- */

static const struct sock_proto {
	const char *name;
	bool (*get)(int fd, int family, int proto, struct diag_query *q);
	int family;
	int proto;
} protocols[] = {
	{ "UNIX", unix_get, AF_UNIX, 0 },
	{ "UNIX-STREAM", unix_get, AF_UNIX, 0 },
	{ "TCP", inet_get, AF_INET, IPPROTO_TCP },
	{ "UDP", inet_get, AF_INET, IPPROTO_UDP },
	{ "UDPLITE", inet_get, AF_INET, IPPROTO_UDPLITE },
	{ "DCCP", inet_get, AF_INET, IPPROTO_DCCP },
	{ "SCTP", inet_get, AF_INET, IPPROTO_SCTP },
	{ "L2TP/IP", inet_get, AF_INET, IPPROTO_L2TP },
	{ "PING", inet_get, AF_INET, IPPROTO_ICMP },
	{ "RAW", inet_get, AF_INET, IPPROTO_RAW },
	{ "TCPv6", inet_get, AF_INET6, IPPROTO_TCP },
	{ "UDPv6", inet_get, AF_INET6, IPPROTO_UDP },
	{ "UDPLITEv6", inet_get, AF_INET6, IPPROTO_UDPLITE },
	{ "DCCPv6", inet_get, AF_INET6, IPPROTO_DCCP },
	{ "SCTPv6", inet_get, AF_INET6, IPPROTO_SCTP },
	{ "L2TP/IPv6", inet_get, AF_INET6, IPPROTO_L2TP },
	{ "PINGv6", inet_get, AF_INET6, IPPROTO_ICMP },
	{ "RAWv6", inet_get, AF_INET6, IPPROTO_RAW },
	{ "NETLINK", netlink_get, AF_NETLINK, 0 },
};

#define NPROTOS (sizeof(protocols) / sizeof(protocols[0]))

static const struct sock_proto *fd_proto(pid_t tid, int fd)
{
	char link[64], buf[256];
	ssize_t n;
	size_t i;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	n = getxattr(link, "system.sockprotoname", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	for (i = 0; i < NPROTOS; i++)
		if (!strcmp(buf, protocols[i].name))
			return &protocols[i];
	return NULL;
}

static unsigned long socket_inode(const char *path)
{
	const char *s;
	char *end;
	unsigned long ino;

	if (strncmp(path, "socket:[", 8))
		return 0;
	s = path + 8;
	if (*s < '0' || *s > '9')
		return 0;
	ino = strtoul(s, &end, 10);
	if (!ino || strcmp(end, "]"))
		return 0;
	return ino;
}

#define SOCK_CACHE_SIZE	1024U

struct sock_cache {
	int refs;
	struct {
		unsigned long inode;
		char *details;
	} e[SOCK_CACHE_SIZE];
};

struct sock_cache *sock_cache_new(void)
{
	struct sock_cache *c = calloc(1, sizeof(*c));

	if (c)
		c->refs = 1;
	return c;
}

struct sock_cache *sock_cache_get(struct sock_cache *c)
{
	if (c)
		c->refs++;
	return c;
}

void sock_cache_put(struct sock_cache *c)
{
	size_t i;

	if (!c || --c->refs > 0)
		return;
	for (i = 0; i < SOCK_CACHE_SIZE; i++)
		free(c->e[i].details);
	free(c);
}

static const char *cache_find(struct sock_cache *c, unsigned long inode)
{
	unsigned i = (unsigned)(inode & (SOCK_CACHE_SIZE - 1));

	if (!c || c->e[i].inode != inode)
		return NULL;
	return c->e[i].details;
}

static void cache_store(struct sock_cache *c, unsigned long inode,
			const char *details, size_t len)
{
	unsigned i = (unsigned)(inode & (SOCK_CACHE_SIZE - 1));
	char *d;

	if (!c || !(d = strndup(details, len)))
		return;
	free(c->e[i].details);
	c->e[i].inode = inode;
	c->e[i].details = d;
}

/* Details of the socket with this inode, appended to out; false if none. */
static bool sock_lookup(const struct sock_proto *p, unsigned long inode,
			struct sbuf *out, int hexstr)
{
	struct diag_query q = { .inode = inode, .out = out, .hexstr = hexstr };
	bool found = false;
	size_t i;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return false;
	if (p) {
		q.name = p->name;
		found = p->get(fd, p->family, p->proto, &q);
	} else {
		for (i = 0; i < NPROTOS && !found; i++) {
			q.name = protocols[i].name;
			found = protocols[i].get(fd, protocols[i].family,
						 protocols[i].proto, &q);
		}
	}
	close(fd);
	return found;
}

static bool fd_socket(struct sock_cache *cache, pid_t tid, int fd,
		      const char *path, struct sbuf *out, int hexstr)
{
	unsigned long inode = socket_inode(path);
	const struct sock_proto *p;
	const char *known;
	size_t start;

	if (!inode)
		return false;
	known = cache_find(cache, inode);
	if (known) {
		sb_printf(out, "<%s>", known);
		return true;
	}
	p = fd_proto(tid, fd);
	sb_putc(out, '<');
	start = out->len;
	if (sock_lookup(p, inode, out, hexstr)) {
		cache_store(cache, inode, out->p + start, out->len - start);
	} else {
		out->len = start;	/* drop a partial answer */
		if (p)
			sb_printf(out, "%s:[%lu]", p->name, inode);
		else
			sb_puts(out, path);
	}
	sb_putc(out, '>');
	return true;
}

static bool fd_dev(const char *path, struct sbuf *out, int hexstr)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) < 0)
		return false;
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		return false;
	sb_putc(out, '<');
	dec_quote(out, hexstr, (const unsigned char *)path, strlen(path),
		  QUOTE_PATH_IN_FD);
	sb_printf(out, "<%s %u:%u>>", S_ISBLK(st.st_mode) ? "block" : "char",
		  major(st.st_rdev), minor(st.st_rdev));
	return true;
}

static bool fd_pidfd(pid_t tid, int fd, const char *path, struct sbuf *out)
{
	char fdinfo[64], line[128];
	long pid = -1;
	FILE *f;

	if (strcmp(path, "anon_inode:[pidfd]"))
		return false;
	snprintf(fdinfo, sizeof(fdinfo), "/proc/%d/fdinfo/%d", (int)tid, fd);
	f = fopen(fdinfo, "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "Pid:\t", 5)) {
				pid = strtol(line + 5, NULL, 10);
				break;
			}
		fclose(f);
	}
	if (pid > 0)
		sb_printf(out, "<pid:%ld>", pid);
	else
		sb_printf(out, "<%s>", path);
	return true;
}

/*
 * The path of fd as strace 6.1 reads it: a " (deleted)" the kernel added
 * is taken off (and *deleted set) when the name no longer leads to the
 * file the descriptor holds.
 */
static void fd_path_deleted(pid_t tid, int fd, char *buf, size_t size,
			    bool *deleted)
{
	static const char sfx[] = " (deleted)";
	char link[64];
	struct stat sl, sp;
	size_t n;

	*deleted = false;
	fd_path(tid, fd, buf, size);
	n = strlen(buf);
	if (n <= sizeof(sfx) || strcmp(buf + n - (sizeof(sfx) - 1), sfx))
		return;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	if (stat(link, &sl) < 0)
		return;
	if (lstat(buf, &sp) < 0 || sl.st_ino != sp.st_ino ||
	    sl.st_dev != sp.st_dev) {
		buf[n - (sizeof(sfx) - 1)] = '\0';
		*deleted = true;
	}
}

void fd_decorate(struct sbuf *out, struct sock_cache *cache, pid_t tid,
		 int fd, unsigned set, int hexstr)
{
	char path[PATH_MAX];
	bool deleted;

	if (!set || fd < 0)
		return;
	fd_path_deleted(tid, fd, path, sizeof(path), &deleted);
	if (!path[0])
		return;
	if ((set & DF_SOCKET) && fd_socket(cache, tid, fd, path, out, hexstr))
		return;
	if ((set & DF_DEV) && fd_dev(path, out, hexstr))
		return;
	if ((set & DF_PIDFD) && fd_pidfd(tid, fd, path, out))
		return;
	if (set & DF_PATH) {
		sb_putc(out, '<');
		dec_quote(out, hexstr, (const unsigned char *)path, strlen(path),
		  QUOTE_PATH_IN_FD);
		sb_puts(out, deleted ? ">(deleted)" : ">");
	}
}
