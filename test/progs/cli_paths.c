// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracee for the utrace CLI tests of -P (paths), -v (unabbreviated
 * structures) and -e read=/-e write= (I/O dumps).  It works in the current
 * directory, which the test makes a fresh empty one, and ends with
 * exit_group(3).  Sections: paths, fork, verbose, dump.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Syscalls that touch "a" (by name or through a descriptor) and others. */
static void paths(void)
{
	struct pollfd pf;
	struct stat st;
	struct epoll_event ev = { .events = EPOLLIN };
	fd_set rs;
	char buf[64];
	void *m;
	int fd, b, d, ep, dir;

	fd = open("a", O_RDWR | O_CREAT | O_TRUNC, 0644);
	b = open("b", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "hello\n", 6);
	write(b, "other\n", 6);
	lseek(fd, 0, SEEK_SET);
	read(fd, buf, sizeof(buf));
	pread(b, buf, 4, 0);
	fstat(fd, &st);
	stat("a", &st);
	access("a", R_OK);
	access("b", R_OK);
	d = dup(fd);
	dup2(b, 20);
	dup2(fd, 21);
	close(21);
	close(20);
	fcntl(d, F_GETFL);
	m = mmap(NULL, 6, PROT_READ, MAP_SHARED, fd, 0);
	munmap(m, 6);
	pf.fd = fd;
	pf.events = POLLIN;
	poll(&pf, 1, 0);
	pf.fd = b;
	poll(&pf, 1, 0);
	FD_ZERO(&rs);
	FD_SET(fd, &rs);
	select(fd + 1, &rs, NULL, NULL, &(struct timeval){ 0, 0 });
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	epoll_ctl(ep, EPOLL_CTL_ADD, b, &ev);
	close(ep);
	dir = open(".", O_RDONLY | O_DIRECTORY);
	faccessat(dir, "a", R_OK, 0);
	/* The directory descriptor is not "a": only the path matches. */
	faccessat(dir, "b", R_OK, 0);
	symlink("a", "l");
	readlink("l", buf, sizeof(buf));
	link("a", "h");
	/* strace looks only at rename's first path. */
	rename("h", "a2");
	rename("a2", "h");
	rename("a", "a3");
	rename("a3", "a");
	unlink("h");
	unlink("l");
	ftruncate(fd, 0);
	close(dir);
	close(d);
	close(b);
	close(fd);
	unlink("b");
	unlink("a");
	open("a", O_RDONLY);
}

/* -P with -f: a child reads through an inherited descriptor. */
static void forked(void)
{
	char buf[16];
	pid_t pid;
	int fd, st;

	fd = open("a", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "x", 1);
	pid = fork();
	if (pid == 0) {
		int c;

		pread(fd, buf, sizeof(buf), 0);
		close(fd);
		c = open("a", O_RDONLY);
		read(c, buf, sizeof(buf));
		close(c);
		open("b", O_RDONLY);
		syscall(SYS_exit_group, 0);
	}
	waitpid(pid, &st, 0);
	close(fd);
	unlink("a");
}

/* Data read and written through every call strace dumps. */
static void dump(void)
{
	static char big[300];
	char b1[4], b2[8], b3[64], buf[512];
	struct iovec w[3] = {
		{ "ab", 2 }, { "", 0 }, { "cd", 2 },
	}, r[2] = { { b1, sizeof(b1) }, { b2, sizeof(b2) } };
	struct iovec m1[2] = { { "ping", 4 }, { "-pong", 5 } };
	struct iovec m2[1] = { { b3, sizeof(b3) } };
	struct msghdr mh = { .msg_iov = m1, .msg_iovlen = 2 };
	struct mmsghdr mm[2];
	struct sockaddr_storage sa;
	static char qbuf[1 << 16];
	char mq[64];
	unsigned prio;
	int fd, sv[2], p[2], i, q;

	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = (char)(i < 256 ? i : 'a' + i % 26);
	fd = open("f", O_RDWR | O_CREAT | O_TRUNC, 0644);	/* 3 */
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);			/* 4, 5 */
	pipe(p);						/* 6, 7 */
	write(fd, "hello, world\n", 13);
	write(fd, big, sizeof(big));
	pwrite(fd, "xyz", 3, 2);
	/* The empty buffer ends the dump, as strace's. */
	writev(fd, w, 3);
	pwritev(fd, w + 2, 1, 0);
	pwritev2(fd, w, 1, 0, 0);
	/* Failed: written data is dumped anyway, read data is not. */
	write(p[0], "bad", 3);
	read(p[1], buf, 1);
	lseek(fd, 0, SEEK_SET);
	read(fd, buf, 5);
	pread(fd, buf, 4, 1);
	/* 4 + 3 bytes: the second buffer is cut at what was read. */
	lseek(fd, 0, SEEK_SET);
	r[1].iov_len = 3;
	readv(fd, r, 2);
	r[1].iov_len = sizeof(b2);
	preadv(fd, r, 2, 300);
	preadv2(fd, r, 1, 0, 0);
	read(fd, buf, 0);
	sendto(sv[0], "hi there", 8, 0, NULL, 0);
	recvfrom(sv[1], buf, sizeof(buf), 0, NULL, NULL);
	sendmsg(sv[0], &mh, 0);
	mh.msg_iov = m2;
	mh.msg_iovlen = 1;
	recvmsg(sv[1], &mh, 0);
	memset(mm, 0, sizeof(mm));
	mm[0].msg_hdr.msg_iov = m1;
	mm[0].msg_hdr.msg_iovlen = 2;
	mm[1].msg_hdr.msg_iov = w;
	mm[1].msg_hdr.msg_iovlen = 1;
	sendmmsg(sv[0], mm, 2, 0);
	mm[0].msg_hdr.msg_iov = r;
	mm[0].msg_hdr.msg_iovlen = 2;
	mm[1].msg_hdr.msg_iov = m2;
	mm[1].msg_hdr.msg_iovlen = 1;
	recvmmsg(sv[1], mm, 2, MSG_DONTWAIT, NULL);
	/* recvmmsg: nothing queued; then names and a timeout. */
	recvmmsg(sv[1], mm, 2, MSG_DONTWAIT, NULL);
	sendto(sv[0], "named", 5, 0, NULL, 0);
	mm[0].msg_hdr.msg_name = &sa;
	mm[0].msg_hdr.msg_namelen = sizeof(sa);
	recvmmsg(sv[1], mm, 1, 0, &(struct timespec){ 5, 0 });
	vmsplice(p[1], m1, 2, 0);
	read(p[0], buf, sizeof(buf));
	write(p[1], "to 7", 4);
	read(p[0], buf, sizeof(buf));
	/* A message queue (its name is the test's: several may run). */
	snprintf(mq, sizeof(mq), "utrace-dump-%d", (int)getpid());
	q = syscall(SYS_mq_open, mq, O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	syscall(SYS_mq_timedsend, q, "queued", 6, 1, NULL);
	syscall(SYS_mq_timedreceive, q, qbuf, sizeof(qbuf), &prio, NULL);
	syscall(SYS_mq_timedreceive, q, qbuf, sizeof(qbuf), &prio,
		&(struct timespec){ 0, 0 });
	syscall(SYS_mq_unlink, mq);
	close(q);
}

/* Structures strace abbreviates without -v, arrays longer than -s 4. */
static void verbose(void)
{
	static const struct timespec ts[2] = {
		{ 1577934245, 123456789 }, { 1577934245, 0 },
	};
	char *args[] = { "a", "b", "c", "d", "e", "f", NULL };
	char *env[] = { "A=1", "B=2", "C=3", "D=4", "E=5", "F=6", NULL };
	static char dents[1024];
	struct pollfd pf[6];
	struct rusage ru;
	struct utsname u;
	struct statx stx;
	struct stat st;
	pid_t pid;
	int fd, i, ws;

	fd = open("v", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "hello", 5);
	futimens(fd, ts);
	stat("v", &st);
	lstat("v", &st);
	fstat(fd, &st);
	fstatat(AT_FDCWD, "v", &st, 0);
	statx(AT_FDCWD, "v", 0, STATX_BASIC_STATS, &stx);
	uname(&u);
	pid = fork();
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	wait4(pid, &ws, 0, &ru);
	execve("/nonexistent/prog", args, env);
	for (i = 0; i < 6; i++) {
		pf[i].fd = fd;
		pf[i].events = POLLIN;
	}
	poll(pf, 6, 0);
	close(fd);
	/* An empty directory: "." and ".." (in the file system's order). */
	mkdir("d", 0755);
	fd = open("d", O_RDONLY | O_DIRECTORY);
	syscall(SYS_getdents64, fd, dents, sizeof(dents));
	syscall(SYS_getdents64, fd, dents, sizeof(dents));
	close(fd);
	fd = open("d", O_RDONLY | O_DIRECTORY);
	syscall(SYS_getdents, fd, dents, sizeof(dents));
	close(fd);
}

int main(int argc, char **argv)
{
	const char *sec = argc > 1 ? argv[1] : "";

	/* Whatever the caller left open: descriptors start at 3. */
	syscall(SYS_close_range, 3, ~0U, 0);
	if (chdir("/utrace-marker") == 0)
		return 2;
	if (!strcmp(sec, "paths"))
		paths();
	else if (!strcmp(sec, "fork"))
		forked();
	else if (!strcmp(sec, "dump"))
		dump();
	else if (!strcmp(sec, "verbose"))
		verbose();
	else
		return 2;
	syscall(SYS_exit_group, 3);
	return 3;
}
