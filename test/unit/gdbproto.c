// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The gdb stub's framing, packet parsers and peer checks
 * (tools/utrace/gdb/), without ptrace: a stub with a real but empty queue
 * and one made-up held thread, fed raw bytes through a socket pair as gdb
 * would send them.  A malformed packet must be answered E01 (or the empty
 * reply, or the File-I/O error) before anything reaches the target; a
 * well-formed one reaches it and fails there (E0e: the thread is not
 * traced), which tells the two apart.  Then who a peer is over a Unix
 * socket and over TCP (NETLINK_SOCK_DIAG), and vFile with the peer's
 * rights (the ptrace rule itself is test/unit/ptrace_access's).
 */
#include <grp.h>
#include <poll.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <utrace.h>

#include "harness.h"
#include "gdb/gdb.h"

#define NOBODY 65534

struct rig {
	struct utrace_tracer *t;
	struct gdbstub *s;
	int gdb;		/* our end: what gdb would write and read */
};

/* A stub listening on 127.0.0.1, with a fake process and held thread. */
static void rig_new(struct rig *r)
{
	char why[256];
	int sv[2];
	struct gproc *p;
	struct gthr *g;

	CHECK_EQ(utrace_tracer_new(&r->t), 0);
	CHECK_EQ(gdbstub_new(r->t, "127.0.0.1:0", 0, &r->s, why, sizeof(why)),
		 0);
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	r->s->cfd = sv[0];
	r->gdb = sv[1];
	r->s->active = true;
	r->s->noack = false;
	p = gproc_new(r->s, getpid());
	CHECK(p);
	g = gthr_add(r->s, p, getpid());
	CHECK(g);
	g->stopped = true;
	r->s->last_pid = r->s->last_tid = getpid();
}

/* What the stub wrote back, up to nothing more within 50 ms. */
static char *drain(struct rig *r)
{
	static char buf[65536];
	size_t n = 0;
	struct pollfd pf = { r->gdb, POLLIN, 0 };

	while (n < sizeof(buf) - 1 && poll(&pf, 1, 50) == 1) {
		ssize_t k = read(r->gdb, buf + n, sizeof(buf) - 1 - n);

		if (k <= 0)
			break;
		n += (size_t)k;
	}
	buf[n] = 0;
	return buf;
}

/* Raw bytes in, as far as the stub reads them all. */
static void feed_raw(struct rig *r, const char *data, size_t n)
{
	struct pollfd pf = { r->s->cfd, POLLIN, 0 };
	size_t off = 0;

	while (off < n || poll(&pf, 1, 0) == 1) {
		if (off < n) {
			ssize_t w = write(r->gdb, data + off, n - off > 4096 ?
					  4096 : n - off);

			CHECK(w > 0);
			off += (size_t)w;
		}
		if (poll(&pf, 1, 0) == 1)
			gdb_client_read(r->s);
	}
}

/* One packet, framed with its checksum; the reply, acks included. */
static const char *pkt(struct rig *r, const char *data, size_t n)
{
	char *frame = malloc(n + 5);
	unsigned cs = 0;
	size_t i;

	CHECK(frame);
	for (i = 0; i < n; i++)
		cs += (unsigned char)data[i];
	frame[0] = '$';
	memcpy(frame + 1, data, n);
	snprintf(frame + n + 1, 4, "#%02x", cs & 0xff);
	feed_raw(r, frame, n + 4);
	free(frame);
	return drain(r);
}

static const char *spkt(struct rig *r, const char *data)
{
	return pkt(r, data, strlen(data));
}

/* The reply's data: "+$DATA#cs" -> DATA (a static copy). */
static const char *data_of(const char *reply)
{
	static char buf[65536];
	const char *d = strchr(reply, '$'), *h;

	if (!d)
		return "(no reply)";
	h = strrchr(d, '#');
	if (!h)
		return "(no end)";
	snprintf(buf, sizeof(buf), "%.*s", (int)(h - d - 1), d + 1);
	return buf;
}

#define EXPECT(r, packet, want) CHECK_STR(data_of(spkt(r, packet)), want)

TEST(framing_checksums_noise_and_acks)
{
	struct rig r;

	rig_new(&r);
	feed_raw(&r, "$g#00", 5);
	CHECK_STR(drain(&r), "-");		/* wrong checksum */
	feed_raw(&r, "$m0,1#zz", 8);
	CHECK_STR(drain(&r), "-");		/* checksum not hex */
	feed_raw(&r, "+++noise", 8);
	CHECK_STR(drain(&r), "");		/* acks and noise: nothing */
	CHECK_STR(spkt(&r, "qFooBar"), "+$#00");	/* unknown: empty */
	CHECK_STR(spkt(&r, "qSupportedX"), "+$#00");
	CHECK_STR(spkt(&r, "qAttachedX"), "+$#00");
}

TEST(framing_escapes)
{
	struct rig r;
	char x[64];

	rig_new(&r);
	/* An escape with nothing after it: refused, nothing written. */
	snprintf(x, sizeof(x), "X%x,1:}", getpid());
	EXPECT(&r, x, "E01");
	EXPECT(&r, "qSupported}", "E01");
	/* "}]" is ']' ^ 0x20 = '}': one byte, so this one is well formed. */
	EXPECT(&r, "X1000,1:}]", "E0e");
	/* '*' is data in what gdb sends, never a run length. */
	EXPECT(&r, "m0,1*!", "E01");
	EXPECT(&r, "X1000,3:a*!", "E0e");
	/* A NUL inside a text packet. */
	CHECK_STR(data_of(pkt(&r, "m0\0,1", 5)), "E01");
	CHECK_STR(data_of(pkt(&r, "X1000,2:\0\0", 10)), "E0e");
}

TEST(framing_overlong_packet)
{
	struct rig r;
	size_t n = 3 * PKT_MAX, i;
	char *big = malloc(n + 8);
	const char *out;

	CHECK(big);
	rig_new(&r);
	big[0] = '$';
	for (i = 1; i <= n; i++)
		big[i] = 'a';
	memcpy(big + n + 1, "#00", 3);
	feed_raw(&r, big, n + 4);
	out = drain(&r);
	/* One E01 for the whole of it; then the next packet is served. */
	CHECK_STR(out, "+$E01#a6");
	EXPECT(&r, "QStartNoAckMode", "OK");
	EXPECT(&r, "m0,1x", "E01");
	free(big);
}

TEST(numbers_and_ids)
{
	unsigned long v;
	const char *p;
	pid_t pid, tid;
	unsigned char b[4];
	char e[8];

	p = "ffffffffffffffff,";
	CHECK(gdb_parse_ulong(&p, &v) && v == ~0UL && *p == ',');
	p = "00000000000000000000001";
	CHECK(gdb_parse_ulong(&p, &v) && v == 1 && !*p);
	p = "10000000000000000";		/* 65 bits */
	CHECK(!gdb_parse_ulong(&p, &v));
	p = "x1";
	CHECK(!gdb_parse_ulong(&p, &v));
	p = "-1";
	CHECK(!gdb_parse_ulong(&p, &v));
	p = "0x10";				/* "0", then 'x' is not its */
	CHECK(gdb_parse_ulong(&p, &v) && v == 0 && *p == 'x');
	CHECK(gdb_parse_addr_len("10,20", &v, &v) && v == 0x20);
	CHECK(!gdb_parse_addr_len("10,20x", &v, &v));
	CHECK(!gdb_parse_addr_len("10,", &v, &v));
	CHECK(!gdb_parse_addr_len(",2", &v, &v));
	CHECK(!gdb_parse_addr_len("10;2", &v, &v));
	CHECK_EQ(gdb_get_hex(b, "0aFf", 2), 2);
	CHECK(b[0] == 0x0a && b[1] == 0xff);
	CHECK_EQ(gdb_get_hex(b, "0g", 1), -1);
	CHECK_EQ(gdb_get_hex(b, "0a0", 2), -1);
	p = "p1a.2b";
	CHECK(gdb_parse_ptid(&p, &pid, &tid) && pid == 0x1a && tid == 0x2b);
	p = "p-1.-1";
	CHECK(gdb_parse_ptid(&p, &pid, &tid) && pid == -1 && tid == -1);
	p = "p80000000.1";			/* not a pid */
	CHECK(!gdb_parse_ptid(&p, &pid, &tid));
	p = "pzz";
	CHECK(!gdb_parse_ptid(&p, &pid, &tid));
	strcpy(e, "a}");
	CHECK_EQ(gdb_unescape(e, 2), -1);
	strcpy(e, "}]*}");
	CHECK_EQ(gdb_unescape(e, 4), -1);
	strcpy(e, "}]*");
	CHECK_EQ(gdb_unescape(e, 3), 2);
	CHECK(e[0] == '}' && e[1] == '*');
}

TEST(memory_packets)
{
	struct rig r;

	rig_new(&r);
	EXPECT(&r, "m1000,4", "E0e");		/* well formed: reaches it */
	EXPECT(&r, "m1000,4x", "E01");
	EXPECT(&r, "m1000", "E01");
	EXPECT(&r, "m,4", "E01");
	EXPECT(&r, "m0x1000,4", "E01");
	EXPECT(&r, "m10000000000000000,4", "E01");
	EXPECT(&r, "m1000,", "E01");
	EXPECT(&r, "mffffffffffffffff,2", "E0e");	/* past the end */
	EXPECT(&r, "M1000,2:aabb", "E0e");
	EXPECT(&r, "M1000,2:aab", "E01");
	EXPECT(&r, "M1000,2:aabbcc", "E01");
	EXPECT(&r, "M1000,2:aazz", "E01");
	EXPECT(&r, "M1000,2aabb", "E01");
	EXPECT(&r, "M1000,2:", "E01");
	EXPECT(&r, "X1000,2:a", "E01");		/* data shorter */
	EXPECT(&r, "X1000,1:ab", "E01");	/* data longer */
	EXPECT(&r, "X1000,1:a", "E0e");
	EXPECT(&r, "X1000,0:", "OK");		/* gdb's probe */
	EXPECT(&r, "Xffffffffffffffff,2:ab", "E01");
	EXPECT(&r, "Z0,1000,1", "E0e");
	EXPECT(&r, "Z0,1000,1;X2,0a", "E01");	/* conditions: not offered */
	EXPECT(&r, "Z0,1000", "E01");
	EXPECT(&r, "Z0,,1", "E01");
	EXPECT(&r, "Z9,1000,1", "");
	EXPECT(&r, "z0,1000,1x", "E01");
}

TEST(register_packets)
{
	struct rig r;

	rig_new(&r);
	/* Nothing parses as a register write that is not exactly one. */
	EXPECT(&r, "p10x", "E01");
	EXPECT(&r, "pzz", "E01");
	EXPECT(&r, "P10=0011", "E01");		/* rip is 8 bytes */
	EXPECT(&r, "P10=00112233445566778", "E01");
	EXPECT(&r, "P10=001122334455667g", "E01");
	EXPECT(&r, "P10", "E01");
	EXPECT(&r, "Gzz", "E01");
	EXPECT(&r, "G0011", "E01");		/* half a register */
	EXPECT(&r, "G", "E01");
}

TEST(resume_and_thread_packets)
{
	struct rig r;

	rig_new(&r);
	EXPECT(&r, "vCont;cx", "E01");
	EXPECT(&r, "vCont;", "E01");
	EXPECT(&r, "vCont;c:zz", "E01");
	EXPECT(&r, "vCont;C", "E01");
	EXPECT(&r, "vCont;t", "E01");
	EXPECT(&r, "vCont;c;", "E01");
	EXPECT(&r, "Cxx", "E01");
	EXPECT(&r, "C05;", "E01");
	EXPECT(&r, "C05;zz", "E01");
	EXPECT(&r, "c1x", "E01");
	EXPECT(&r, "sx", "E01");
	EXPECT(&r, "Hgzz", "E01");
	EXPECT(&r, "Hg1x", "E01");
	EXPECT(&r, "Hc-1", "OK");
	EXPECT(&r, "Hc", "E01");
	EXPECT(&r, "H", "E01");
	EXPECT(&r, "Tzz", "E01");
	EXPECT(&r, "T1x", "E01");
	EXPECT(&r, "D;zz", "E01");
	EXPECT(&r, "Dx", "E01");
	EXPECT(&r, "vKill;1x", "E01");
	EXPECT(&r, "vAttach;1x", "E01");
	EXPECT(&r, "vAttach;", "E01");
	EXPECT(&r, "qAttached:1x", "E01");
}

TEST(query_packets)
{
	struct rig r;

	rig_new(&r);
	EXPECT(&r, "QPassSignals:zz", "E01");
	EXPECT(&r, "QPassSignals:e;x", "E01");
	EXPECT(&r, "QPassSignals:e;14", "OK");
	CHECK(r.s->pass[SIGALRM] && r.s->pass[SIGCHLD] && !r.s->pass[SIGINT]);
	EXPECT(&r, "QPassSignals:", "OK");
	CHECK(!r.s->pass[SIGALRM]);
	EXPECT(&r, "QProgramSignals:1;g", "E01");
	EXPECT(&r, "QCatchSyscalls:0x", "E01");
	EXPECT(&r, "QCatchSyscalls:1;zz", "E01");
	EXPECT(&r, "QCatchSyscalls:1;1x", "E01");
	EXPECT(&r, "QCatchSyscalls:2", "E01");
	EXPECT(&r, "QDisableRandomization:10", "E01");
	EXPECT(&r, "qXfer:features:read:target.xml:0", "E01");
	EXPECT(&r, "qXfer:features:read:target.xml:0,10x", "E01");
	EXPECT(&r, "qXfer:features:read:target.xml", "E01");
	EXPECT(&r, "qXfer:auxv:read:junk:0,10", "E01");
	EXPECT(&r, "qXfer:features:read:other.xml:0,10", "E00");
	CHECK(!strncmp(data_of(spkt(&r,
		"qXfer:features:read:target.xml:0,10")), "m<?xml", 6));
	EXPECT(&r, "qXfer:exec-file:read:zz:0,10", "E01");
}

TEST(vfile_packets)
{
	struct rig r;

	rig_new(&r);
	EXPECT(&r, "vFile:open:2f,0", "F-1,16");	/* EINVAL */
	EXPECT(&r, "vFile:open:2f6,0,0", "F-1,16");
	EXPECT(&r, "vFile:open:2f00,0,0", "F-1,16");	/* a NUL inside */
	EXPECT(&r, "vFile:open:,0,0", "F-1,16");
	EXPECT(&r, "vFile:open:2f,0,0x", "F-1,16");
	EXPECT(&r, "vFile:open:2f,1,0", "F-1,d");	/* read only */
	EXPECT(&r, "vFile:open:2f,200,1a4", "F-1,16");	/* O_CREAT */
	EXPECT(&r, "vFile:pread:0,10", "F-1,16");
	EXPECT(&r, "vFile:pread:0,10,0", "F-1,9");	/* not open */
	EXPECT(&r, "vFile:close:x", "F-1,16");
	EXPECT(&r, "vFile:close:3", "F-1,9");
	EXPECT(&r, "vFile:setfs:0x", "F-1,16");
	EXPECT(&r, "vFile:setfs:0", "F0");
	/* "/" opens (the peer is unknown here: utrace's rights). */
	EXPECT(&r, "vFile:open:2f,0,0", "F0");
	EXPECT(&r, "vFile:pread:0,10,8000000000000000", "F-1,16");
	EXPECT(&r, "vFile:pread:0,10,0,0", "F-1,16");
	EXPECT(&r, "vFile:close:0", "F0");
}

/* -- Peers from the kernel ------------------------------------------------ */

static void need_uid2(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "%s uid2 >/dev/null", test_prog("hostcap"));
	if (system(cmd) != 0)
		SKIP("no second uid (test/progs/hostcap uid2)");
}

/*
 * A child of uid 65534 that waits, made dumpable again (a change of ids
 * made it not) or not: that uid may ptrace it only if it is dumpable.
 * Returns once it is nobody.
 */
static pid_t nobody_child(bool dumpable)
{
	int p[2];
	pid_t pid;
	char c;

	CHECK_EQ(pipe(p), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY) ||
		    prctl(PR_SET_DUMPABLE, dumpable) || write(p[1], "c", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

/* A child of uid 65534 that connects to @sa and holds the connection. */
static pid_t nobody_connect(const struct sockaddr *sa, socklen_t len,
			    int *ready)
{
	int p[2];
	pid_t pid;
	char c;

	CHECK_EQ(pipe(p), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int fd;

		close(p[0]);
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		fd = socket(sa->sa_family, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, sa, len) < 0)
			_exit(2);
		if (write(p[1], "c", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[0]);
	*ready = 1;
	return pid;
}

static void check_nobody_peer(struct rig *r, int fd, pid_t peer)
{
	struct gpeer pe;
	char why[200];
	pid_t mine = nobody_child(true), closed = nobody_child(false);

	CHECK_EQ(gdb_peer_identify(r->s, fd, &pe, why, sizeof(why)), 0);
	CHECK(pe.known);
	CHECK_EQ(pe.npids, 1);
	CHECK_EQ(pe.pids[0], peer);
	CHECK_EQ(pe.cred.uid[0], NOBODY);
	/* Not us (root); its own uid's process, yes. */
	CHECK_EQ(gdb_peer_may(&pe, getpid(), why, sizeof(why)), -EPERM);
	CHECK(strstr(why, "uid 65534") && strstr(why, "could not ptrace"));
	CHECK_EQ(gdb_peer_may(&pe, mine, why, sizeof(why)), 0);
	/* Not dumpable: its files are root's; ptrace would refuse. */
	CHECK_EQ(gdb_peer_may(&pe, closed, why, sizeof(why)), -EPERM);
	kill(closed, SIGKILL);
	waitpid(closed, NULL, 0);
	kill(mine, SIGKILL);
	waitpid(mine, NULL, 0);
}

TEST(a_tcp_peer_from_sock_diag)
{
	struct rig r;
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	pid_t peer;
	int fd, ready = 0;

	need_uid2();
	rig_new(&r);
	CHECK_EQ(getsockname(r.s->lfd, (struct sockaddr *)&sa, &sl), 0);
	peer = nobody_connect((struct sockaddr *)&sa, sl, &ready);
	fd = accept4(r.s->lfd, NULL, NULL, SOCK_CLOEXEC);
	CHECK(fd >= 0);
	check_nobody_peer(&r, fd, peer);
	/* The peer gone: nothing holds its socket, nothing is served. */
	kill(peer, SIGKILL);
	waitpid(peer, NULL, 0);
	{
		struct gpeer pe;
		char why[200];

		CHECK(gdb_peer_identify(r.s, fd, &pe, why, sizeof(why)) < 0);
	}
}

TEST(a_unix_peer_from_so_peercred)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct rig r;
	pid_t peer;
	int lfd, fd, ready = 0;

	need_uid2();
	rig_new(&r);
	snprintf(un.sun_path, sizeof(un.sun_path), "/tmp/gdbproto-%d.sock",
		 getpid());
	unlink(un.sun_path);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(lfd >= 0);
	CHECK_EQ(bind(lfd, (struct sockaddr *)&un, sizeof(un)), 0);
	CHECK_EQ(chmod(un.sun_path, 0666), 0);	/* this test's own */
	CHECK_EQ(listen(lfd, 1), 0);
	peer = nobody_connect((struct sockaddr *)&un, sizeof(un), &ready);
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	unlink(un.sun_path);
	CHECK(fd >= 0);
	check_nobody_peer(&r, fd, peer);
	kill(peer, SIGKILL);
	waitpid(peer, NULL, 0);
}

/* Our thread's credentials line by line, to see them put back. */
static void thread_creds(char *out, size_t n)
{
	char buf[8192], *p;
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
	ssize_t k;
	size_t o = 0;

	CHECK(fd >= 0);
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	CHECK(k > 0);
	buf[k] = 0;
	for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n"))
		if (!strncmp(p, "Uid:", 4) || !strncmp(p, "Gid:", 4) ||
		    !strncmp(p, "Groups:", 7) || !strncmp(p, "Cap", 3))
			o += (size_t)snprintf(out + o, n - o, "%s\n", p);
}

static void hexpath(char *out, const char *path)
{
	for (; *path; path++, out += 2)
		sprintf(out, "%02x", (unsigned char)*path);
}

TEST(vfile_with_the_peers_rights)
{
	char before[4096], after[4096], p[256], h[128];
	struct rig r;
	pid_t who;

	need_uid2();
	rig_new(&r);
	if (access("/etc/shadow", R_OK))
		SKIP("no /etc/shadow to read as root");
	who = nobody_child(true);
	r.s->peer.known = true;
	r.s->peer.npids = 1;
	r.s->peer.pids[0] = who;
	CHECK_EQ(utrace_cred_read(who, &r.s->peer.cred), 0);
	thread_creds(before, sizeof(before));
	hexpath(h, "/etc/shadow");
	snprintf(p, sizeof(p), "vFile:open:%s,0,0", h);
	EXPECT(&r, p, "F-1,d");			/* EACCES, as for nobody */
	hexpath(h, "/etc/passwd");
	snprintf(p, sizeof(p), "vFile:open:%s,0,0", h);
	EXPECT(&r, p, "F0");
	CHECK(!strncmp(data_of(spkt(&r, "vFile:pread:0,5,0")), "F5;", 3));
	thread_creds(after, sizeof(after));
	CHECK_STR(after, before);		/* our own, back */
	/* Root's again (the peer unknown: a remote one). */
	r.s->peer.known = false;
	hexpath(h, "/etc/shadow");
	snprintf(p, sizeof(p), "vFile:open:%s,0,0", h);
	EXPECT(&r, p, "F1");
	kill(who, SIGKILL);
	waitpid(who, NULL, 0);
}

int main(void)
{
	return test_main();
}
