/*
 * For -yy: one of each kind of descriptor strace 6.1 decorates, used in a
 * fixed order from a clean descriptor table (close_range first):
 * a TCP listener on 127.0.0.1, a client connected to it and the accepted
 * end; a bound UDP socket and a connected one; a UNIX stream socketpair and
 * a UNIX datagram socket bound to "sock" in the current directory; a bound
 * NETLINK_ROUTE socket; /dev/null; a pidfd; a file named "we<ird>\n" in
 * the current directory, then unlinked; a memfd.  Exit status 0 when all
 * went well.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static int fail(const char *what)
{
	perror(what);
	return 1;
}

int main(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in udp = { .sin_family = AF_INET };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct sockaddr_nl snl = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sin);
	int lfd, cfd, afd, ufd, u2fd, pair[2], xfd, nfd, dfd, pfd, wfd, mfd;
	char c;

	syscall(SYS_close_range, 3U, ~0U, 0U);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len))
		return fail("listener");
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd < 0 || connect(cfd, (struct sockaddr *)&sin, sizeof(sin)))
		return fail("connect");
	afd = accept(lfd, NULL, NULL);
	if (afd < 0 || write(cfd, "x", 1) != 1 || read(afd, &c, 1) != 1)
		return fail("accept");

	udp.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	len = sizeof(udp);
	ufd = socket(AF_INET, SOCK_DGRAM, 0);
	if (ufd < 0 || bind(ufd, (struct sockaddr *)&udp, sizeof(udp)) ||
	    getsockname(ufd, (struct sockaddr *)&udp, &len))
		return fail("udp");
	u2fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (u2fd < 0 || connect(u2fd, (struct sockaddr *)&udp, sizeof(udp)) ||
	    write(u2fd, "y", 1) != 1 || read(ufd, &c, 1) != 1)
		return fail("udp connect");

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) ||
	    write(pair[0], "z", 1) != 1 || read(pair[1], &c, 1) != 1)
		return fail("socketpair");
	strcpy(sun.sun_path, "sock");
	unlink("sock");
	xfd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (xfd < 0 || bind(xfd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    fcntl(xfd, F_GETFD) < 0)
		return fail("unix");
	unlink("sock");

	nfd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (nfd < 0 || bind(nfd, (struct sockaddr *)&snl, sizeof(snl)) ||
	    fcntl(nfd, F_GETFD) < 0)
		return fail("netlink");

	dfd = open("/dev/null", O_RDONLY);
	if (dfd < 0 || fcntl(dfd, F_GETFD) < 0)
		return fail("/dev/null");
	pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pfd >= 0 && fcntl(pfd, F_GETFD) < 0)
		return fail("pidfd");

	wfd = open("we<ird>\n", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (wfd < 0 || fcntl(wfd, F_GETFD) < 0 || unlink("we<ird>\n") ||
	    fcntl(wfd, F_GETFD) < 0)
		return fail("weird file");
	mfd = (int)syscall(SYS_memfd_create, "mem", 0U);
	if (mfd >= 0 && fcntl(mfd, F_GETFD) < 0)
		return fail("memfd");

	for (int fd = 3; fd <= 15; fd++)
		close(fd);
	return 0;
}
