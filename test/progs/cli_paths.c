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

int main(int argc, char **argv)
{
	const char *sec = argc > 1 ? argv[1] : "";

	if (!strcmp(sec, "paths"))
		paths();
	else if (!strcmp(sec, "fork"))
		forked();
	else
		return 2;
	syscall(SYS_exit_group, 3);
	return 3;
}
