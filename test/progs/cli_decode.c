// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracee for test/cli/decode.sh: syscalls whose arguments need a real
 * decoder (termios, fcntl results, CPU sets, sigaction flags, pselect6,
 * statfs, timers, inotify, capabilities, prctl, socket options, utimensat,
 * poll results, path and descriptor twins ...), made with fixed arguments
 * so strace's output is the same on every machine.  Everything after
 * chdir("/utrace-marker") is compared with an expected file.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/seccomp.h>
#include <linux/mempolicy.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void handler(int sig)
{
	(void)sig;
}

static void terminal(void)
{
	struct termios t;
	int m, unlock = 0;

	m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	ioctl(m, TIOCSPTLCK, &unlock);
	memset(&t, 0, sizeof(t));
	t.c_iflag = ICRNL | IXON | IUTF8;
	t.c_oflag = OPOST | ONLCR | TAB3;
	t.c_cflag = B9600 | CS7 | CREAD | HUPCL;
	t.c_lflag = ISIG | ICANON | ECHO | ECHOE | IEXTEN;
	syscall(SYS_ioctl, m, TCSETS, &t);
	syscall(SYS_ioctl, m, TCSETSW, &t);
	t.c_oflag = 0;
	t.c_lflag = 0;
	t.c_iflag = 0;
	syscall(SYS_ioctl, m, TCSETSF, &t);
	syscall(SYS_ioctl, m, TCGETS, &t);
	syscall(SYS_ioctl, -1, TCGETS, &t);
	syscall(SYS_ioctl, m, FICLONE, 0);
	close(m);
}

static void fcntls(void)
{
	int p[2], fd;

	pipe2(p, O_CLOEXEC);
	fcntl(p[0], F_GETFD);
	fcntl(p[0], F_SETFD, 0);
	fcntl(p[0], F_GETFD);
	fcntl(p[1], F_GETFL);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_GETFL);
	fcntl(p[0], F_GETOWN);
	fcntl(p[0], F_GETSIG);
	fcntl(p[0], F_GETPIPE_SZ);
	fd = open("/dev/null", O_RDWR);
	fcntl(fd, F_GETFL);
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void cpus(void)
{
	unsigned long mask = 0x23, big[16];

	syscall(SYS_sched_setaffinity, 0, sizeof(mask), &mask);
	mask = 1;
	syscall(SYS_sched_setaffinity, 0, sizeof(mask), &mask);
	syscall(SYS_sched_getaffinity, 0, sizeof(big), big);
}

static void sigactions(void)
{
	struct sigaction sa;
	stack_t ss = { 0 };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART | SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
		      SA_RESETHAND | SA_NOCLDSTOP;
	sigaddset(&sa.sa_mask, SIGCHLD);
	sigaction(SIGUSR2, &sa, NULL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void selects(void)
{
	struct timespec ts = { 0, 0 };
	struct timeval tv = { 0, 0 };
	fd_set r, w;
	sigset_t mask;
	int p[2];

	pipe(p);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	pselect(p[0] + 1, &r, NULL, NULL, &ts, &mask);
	select(p[0] + 1, &r, NULL, NULL, &tv);
	write(p[1], "x", 1);
	FD_ZERO(&w);
	FD_SET(p[1], &w);
	FD_SET(p[0], &r);
	pselect(p[1] + 1, &r, &w, NULL, NULL, &mask);
	FD_SET(p[0], &r);
	tv.tv_sec = 100;
	select(p[1] + 1, &r, NULL, NULL, &tv);
	close(p[0]);
	close(p[1]);
}

static void polls(void)
{
	struct pollfd pf[6];
	int p[2], q[2], i;

	pipe(p);
	pipe(q);
	write(p[1], "x", 1);
	write(q[1], "x", 1);
	for (i = 0; i < 6; i++)
		pf[i].events = POLLIN | POLLOUT | POLLPRI;
	pf[0].fd = p[0];
	pf[1].fd = p[1];
	pf[2].fd = q[0];
	pf[3].fd = q[1];
	pf[4].fd = -1;
	pf[5].fd = 1000;
	poll(pf, 6, 0);
	ppoll(pf, 4, NULL, NULL);
	pf[0].events = POLLOUT;
	poll(pf, 1, 0);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

static void statfss(void)
{
	struct statfs sf;
	int p[2];

	pipe(p);
	fstatfs(p[0], &sf);
	statfs("/nonexistent", &sf);
	close(p[0]);
	close(p[1]);
}

static void simple(void)
{
	struct sigevent sev;
	struct itimerspec its = { { 1, 0 }, { 1000, 500 } }, old;
	struct __user_cap_header_struct ch = {
		_LINUX_CAPABILITY_VERSION_3, 0
	};
	struct __user_cap_data_struct cd[2];
	gid_t groups[2] = { 0, 1 };
	timer_t tid;
	sigset_t mask;
	unsigned long nodes = 0, head;
	struct sched_param sp;
	size_t len;
	int fd, wd, mode;

	syscall(SYS_setpriority, PRIO_PROCESS, 0, 19);
	syscall(SYS_getpriority, PRIO_PROCESS, 0);
	syscall(SYS_getpriority, PRIO_USER, -1);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	sev.sigev_value.sival_int = 7;
	syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tid);
	syscall(SYS_timer_settime, tid, 0, &its, &old);
	syscall(SYS_timer_gettime, tid, &old);
	syscall(SYS_timer_getoverrun, tid);
	syscall(SYS_timer_delete, tid);
	/*
	 * CLOCK_REALTIME: 1000 s after the epoch is always in the past, so the
	 * periodic timer has fired and what is left of its period (under 1 s)
	 * is all the next call returns.  CLOCK_MONOTONIC here made the output
	 * depend on whether the machine had been up for 1000 s.
	 */
	fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 0;
	timerfd_settime(fd, 0, &its, &old);
	timerfd_gettime(fd, &old);
	close(fd);
	fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	wd = inotify_add_watch(fd, "/", IN_MODIFY | IN_CREATE | IN_ONLYDIR);
	inotify_rm_watch(fd, wd);
	close(fd);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGTERM);
	fd = signalfd(-1, &mask, SFD_CLOEXEC);
	close(fd);
	syscall(SYS_capget, &ch, NULL);
	ch.version = 0x12345678;
	syscall(SYS_capget, &ch, cd);
	syscall(SYS_setgroups, -1, groups);
	syscall(SYS_getgroups, -1, NULL);
	syscall(SYS_unshare, CLONE_NEWNS | CLONE_NEWUTS | CLONE_VFORK);
	syscall(SYS_unshare, CLONE_FILES);
	syscall(SYS_mknodat, AT_FDCWD, "/nonexistent/fifo", S_IFIFO | 0600, 0);
	syscall(SYS_mknodat, AT_FDCWD, "/nonexistent/c", S_IFCHR | 0600,
		makedev(1, 3));
	syscall(SYS_ioprio_set, 1, 0, 2 << 13 | 4);
	syscall(SYS_ioprio_get, 1, 0);
	syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
	syscall(SYS_set_mempolicy, MPOL_BIND, &nodes, 1);
	syscall(SYS_pkey_alloc, 1, 0);
	syscall(SYS_getcpu, NULL, NULL, NULL);
	syscall(SYS_personality, 0xffffffff);
	syscall(SYS_sched_yield);
	syscall(SYS_mlockall, 0);
	syscall(SYS_mlockall, MCL_CURRENT | MCL_FUTURE | 8);
	syscall(SYS_fallocate, -1, FALLOC_FL_KEEP_SIZE, 0, 4096);
	syscall(SYS_fsetxattr, -1, "user.x", "v", 1, 0);
	syscall(SYS_sched_getscheduler, 0);
	syscall(SYS_sched_get_priority_max, SCHED_OTHER);
	syscall(SYS_sched_getparam, 0, &sp);
	syscall(SYS_get_robust_list, 0, &head, &len);
	syscall(SYS_eventfd2, 0, 0);
	syscall(SYS_readahead, -1, 0, 4096);
	syscall(SYS_tee, -1, -1, 0, 0);
}

static void prctls(void)
{
	char name[32];

	prctl(PR_CAPBSET_READ, 0x30);
	prctl(PR_CAPBSET_READ, CAP_MAC_OVERRIDE);
	prctl(PR_SET_NAME, "0123456789abcdefXYZ");
	prctl(PR_GET_NAME, name);
	prctl(PR_SET_NAME, "short");
	prctl(PR_GET_NAME, name);
	prctl(PR_GET_SECUREBITS);
	prctl(PR_SET_KEEPCAPS, 1);
	prctl(PR_GET_KEEPCAPS);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	prctl(PR_GET_PDEATHSIG, &name);
	prctl(PR_GET_DUMPABLE);
	prctl(PR_SET_DUMPABLE, 1);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_GET_CHILD_SUBREAPER, &name);
	prctl(PR_SET_TIMERSLACK, 50000);
	prctl(PR_GET_TIMERSLACK);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_CHOWN, 0, 0);
	prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
	prctl(0x7777, 1, 2, 3, 4);
}

static void sockopts(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct linger lg = { 1, 5 };
	struct pollfd pf;
	socklen_t len;
	int s, t, one = 1, v = 30, err;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	t = socket(AF_INET, SOCK_STREAM, 0);
	bind(t, (struct sockaddr *)&sin, sizeof(sin));
	len = sizeof(sin);
	getsockname(t, (struct sockaddr *)&sin, &len);
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, IPPROTO_TCP);
	setsockopt(s, SOL_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(s, SOL_TCP, TCP_KEEPIDLE, &v, sizeof(v));
	setsockopt(s, SOL_TCP, TCP_KEEPINTVL, &v, sizeof(v));
	setsockopt(s, SOL_TCP, TCP_KEEPCNT, &v, sizeof(v));
	setsockopt(s, SOL_IP, IP_RECVERR, &one, sizeof(one));
	setsockopt(s, SOL_IP, IP_TOS, &one, sizeof(one));
	setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	len = sizeof(lg);
	getsockopt(s, SOL_SOCKET, SO_LINGER, &lg, &len);
	len = sizeof(v);
	getsockopt(s, SOL_SOCKET, SO_TYPE, &v, &len);
	len = sizeof(v);
	getsockopt(s, SOL_TCP, TCP_NODELAY, &v, &len);
	connect(s, (struct sockaddr *)&sin, sizeof(sin));
	pf.fd = s;
	pf.events = POLLOUT;
	poll(&pf, 1, 5000);
	len = sizeof(err);
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	len = sizeof(err);
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	close(s);
	close(t);
}

static void msgs(void)
{
	struct sockaddr_storage ss;
	char buf[8];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = {
		.msg_name = &ss, .msg_namelen = sizeof(ss),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	int sv[2];

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	send(sv[0], "hi", 2, 0);
	recvmsg(sv[1], &mh, 0);
	close(sv[0]);
	close(sv[1]);
}

static void times_(void)
{
	struct timespec ts[2] = { { 5, 0 }, { 0, UTIME_NOW } };

	syscall(SYS_utimensat, AT_FDCWD, "/nonexistent", ts, 0);
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = 1700000000;
	ts[1].tv_nsec = 123;
	syscall(SYS_utimensat, AT_FDCWD, "/nonexistent", ts,
		AT_SYMLINK_NOFOLLOW);
	syscall(SYS_utimensat, AT_FDCWD, "/nonexistent", NULL, 0);
	syscall(SYS_faccessat2, AT_FDCWD, "/", R_OK, AT_EACCESS);
	syscall(SYS_faccessat2, AT_FDCWD, "/", F_OK,
		AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
	syscall(SYS_unlinkat, AT_FDCWD, "/nonexistent", AT_REMOVEDIR);
}

static void fake_signal(int sig, int code, int uid, int status)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = 1;
	si.si_uid = uid;
	si.si_status = status;
	syscall(SYS_rt_sigqueueinfo, getpid(), sig, &si);
}

/*
 * Signals to ourselves with made-up siginfo (the kernel lets a process
 * queue any si_code to itself), so every field has a known value.
 */
static void siginfos(void)
{
	struct sigaction sa;
	siginfo_t si;
	sigset_t mask;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = 1;
	si.si_uid = 2;
	si.si_status = 3;
	si.si_utime = 177;
	si.si_stime = 5;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGCHLD, &si);
	si.si_code = CLD_KILLED;
	si.si_status = SIGKILL;
	si.si_utime = 0;
	si.si_errno = ENOENT;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGCHLD, &si);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_TIMER;
	si.si_timerid = 0x12;
	si.si_overrun = 1;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
	si.si_code = SI_QUEUE;
	si.si_pid = 1;
	si.si_uid = 2;
	si.si_value.sival_ptr = NULL;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
	si.si_value.sival_int = 5;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
	fake_signal(SIGUSR1, SI_USER, 0, 0);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	fake_signal(SIGUSR1, SI_TKILL, 0, 0);
	syscall(SYS_rt_sigtimedwait, &mask, &si, NULL, 8);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
}

/*
 * vfork-like children: the parent stays in clone until the child exits, so
 * the child's lines always come between the parent's entry and exit.
 */
static void clones(void)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal,
			 stack, stack_size, tls;
	} ca;
	pid_t tid = 0;
	long r;

	r = syscall(SYS_clone, CLONE_VFORK | CLONE_PARENT_SETTID | SIGCHLD,
		    NULL, &tid, NULL, NULL);
	if (r == 0) {
		syscall(SYS_getppid);
		syscall(SYS_exit_group, 42);
	}
	waitpid(r, NULL, 0);
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_VFORK | CLONE_PARENT_SETTID;
	ca.parent_tid = (uintptr_t)&tid;
	ca.exit_signal = SIGCHLD;
	r = syscall(SYS_clone3, &ca, sizeof(ca));
	if (r == 0) {
		syscall(SYS_getppid);
		syscall(SYS_exit_group, 42);
	}
	waitpid(r, NULL, 0);
	r = syscall(SYS_clone, CLONE_VFORK | SIGCHLD, NULL, NULL, NULL, NULL);
	if (r == 0) {
		syscall(SYS_getppid);
		syscall(SYS_exit_group, 42);
	}
	waitpid(r, NULL, 0);
}

/* A result longer than strace's 1024-byte buffer for it. */
static void bigpoll(void)
{
	struct timespec ts = { 0, 0 };
	struct pollfd pf[60];
	int i;

	for (i = 0; i < 60; i++) {
		pf[i].fd = i % 3;
		pf[i].events = POLLIN | POLLOUT;
	}
	poll(pf, 60, 0);
	ppoll(pf, 60, &ts, NULL);
}

/* Strings and arrays, for -s. */
static void strs(void)
{
	struct pollfd pf[3] = {
		{ .fd = 0, .events = POLLIN }, { .fd = 1, .events = POLLOUT },
		{ .fd = 2, .events = POLLOUT },
	};

	write(1, "hello", 5);
	poll(pf, 3, 0);
}

/* umask results, epoll_ctl DEL, 15-character names, interrupted sleeps. */
static void fixes(void)
{
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	struct timespec ts = { 1, 0 }, rem;
	struct epoll_event ev = { .events = EPOLLIN };
	char name[16];
	int ep;

	umask(022);
	umask(0);
	umask(0777);
	umask(022);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
	epoll_ctl(ep, EPOLL_CTL_DEL, 0, &ev);
	close(ep);
	prctl(PR_SET_NAME, "abcdefghijklmno");
	prctl(PR_GET_NAME, name);
	prctl(PR_SET_NAME, "abcdefghijklmn");
	prctl(PR_GET_NAME, name);
	signal(SIGALRM, handler);
	setitimer(ITIMER_REAL, &it, NULL);
	nanosleep(&ts, &rem);
	setitimer(ITIMER_REAL, &it, NULL);
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &rem);
	signal(SIGALRM, SIG_DFL);
}

/*
 * int and mode arguments with garbage in the register's upper half: the
 * kernel and strace look only at the C type's width.
 */
static void widths(void)
{
	const unsigned long hi = 0xdead000000000000UL;
	const unsigned long hi32 = 0x1234567800000000UL;

	syscall(SYS_chmod, "/utrace-nx/a", hi | 0xffffffffUL);
	syscall(SYS_mkdir, "/utrace-nx/a", hi32 | 0x1edUL);
	syscall(SYS_open, "/utrace-nx/a", hi32 | O_WRONLY | O_CREAT,
		hi | 0x100001a4UL);
	syscall(SYS_fchmodat, hi32 | (unsigned)AT_FDCWD, "/utrace-nx/a",
		hi32 | 0644UL);
	syscall(SYS_wait4, hi32 | 0xffffffffUL, 0L, hi32 | WNOHANG, 0L);
	syscall(SYS_pipe2, 0L, hi32 | O_CLOEXEC);
	syscall(SYS_kill, hi32 | (unsigned)getpid(), hi32);
	syscall(SYS_lseek, hi32 | 0xffffffffUL, 0L, hi32 | SEEK_END);
	syscall(SYS_umask, hi32 | 0xffff0022UL);
	syscall(SYS_umask, 022L);
	syscall(SYS_dup2, hi32 | 0xffffffffUL, hi32 | 0x7fffffffUL);
}

/* O_SYNC is __O_SYNC (04000000) | O_DSYNC: names for both halves. */
static void osync(void)
{
	syscall(SYS_open, "/utrace-nx/a", O_WRONLY | O_SYNC);
	syscall(SYS_open, "/utrace-nx/a", O_WRONLY | 04000000);
	syscall(SYS_open, "/utrace-nx/a",
		O_WRONLY | O_APPEND | O_NONBLOCK | 04000000 | O_DIRECT);
	syscall(SYS_open, "/utrace-nx/a", O_RDWR | O_DSYNC);
	syscall(SYS_openat, AT_FDCWD, "/utrace-nx/a",
		O_RDONLY | O_SYNC | O_CLOEXEC);
	syscall(SYS_fcntl, -1, F_SETFL, O_NONBLOCK | 04000000);
}

/* A SIGIO that names its descriptor (F_SETSIG): si_fd under -y. */
static void sigio(void)
{
	int p[2];

	if (pipe(p))
		return;
	signal(SIGIO, handler);
	fcntl(p[0], F_SETOWN, getpid());
	fcntl(p[0], F_SETSIG, SIGIO);
	fcntl(p[0], F_SETFL, O_ASYNC);
	write(p[1], "x", 1);
	signal(SIGIO, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

/* Members of strace 6.1's classes that its documentation does not suggest. */
static void classes(void)
{
	syscall(SYS_close_range, ~0U, 0U, 0U);
	syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0);
	syscall(SYS_getpid);
}

/* For --inject=chdir:signal=SIGUSR2:when=2 (the marker is the first). */
static void injects(void)
{
	signal(SIGUSR2, handler);
	chdir("/inject");
	signal(SIGUSR2, SIG_DFL);
}

/* Strings for -x, -xx and --strings-in-hex. */
static void hexstrs(void)
{
	write(1, "hello", 5);
	write(1, "a\tb\n\r\v\f", 7);
	write(1, "a\001b", 3);
	write(1, "caf\xc3\xa9", 5);
	write(1, "\001" "7\0018\0019", 6);
	write(1, "\"q\\", 3);
	write(1, "a\0b\177", 4);
	chdir("/x\xffy");
	chdir("/xy\n");
	chdir("/abc");
}

/* cachestat, newer than strace 6.1: printed as syscall_0x1c3, raw. */
static void unknowns(void)
{
	syscall(451, -1L, 0L, 0L, 0L, 0L, 0L);
}

/*
 * What real programs showed (man-db's seccomp filter, man's FIEMAP, bash's
 * wait4 flags, addresses under -xx), with calls that fail or change
 * nothing so the answers are the same on every machine.
 */
static void realprogs(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003e, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_X, 39, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 14),
		BPF_STMT(BPF_ST, 3),
		BPF_STMT(BPF_RET | BPF_A, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct sock_fprog empty = { 0, f };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(80) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(443) };
	union {
		struct fiemap fm;
		char b[sizeof(struct fiemap) + sizeof(struct fiemap_extent)];
	} u;
	unsigned act = SECCOMP_RET_LOG, attr = FS_EXTENT_FL | FS_NOATIME_FL;
	int fd;

	syscall(SYS_wait4, -1, NULL, WNOHANG | WSTOPPED | WCONTINUED, NULL);
	syscall(SYS_wait4, -1, NULL, 0xffffffffU, NULL);
	syscall(SYS_waitid, P_ALL, 0, NULL, WEXITED | WSTOPPED | WNOWAIT |
		__WALL, NULL);

	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	act = 0x12345678;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, NULL);
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 1, &act);
	syscall(SYS_seccomp, 77, 3, NULL);
	/* An unknown flag: refused before the program is looked at. */
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		SECCOMP_FILTER_FLAG_LOG | 0x80, &prog);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &empty);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &empty, 0, 0);

	/* No fiemap on a memfd's shmem: the question only. */
	fd = syscall(SYS_memfd_create, "fiemap", 0);
	memset(&u, 0, sizeof(u));
	u.fm.fm_length = 4096;
	u.fm.fm_flags = FIEMAP_FLAG_SYNC | 0x10;
	u.fm.fm_extent_count = 1;
	ioctl(fd, FS_IOC_FIEMAP, &u);
	ioctl(fd, FS_IOC_FIEMAP, NULL);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	ioctl(fd, FS_IOC_SETFLAGS, &attr);
	attr = 0xd0000000;
	ioctl(fd, FS_IOC_SETFLAGS, &attr);
	ioctl(fd, FS_IOC_GETFLAGS, &attr);
	close(fd);

	/* Protocols strace 6.1 names, and newer ones (144, 256) it does not. */
	socket(AF_INET, 15, 33);
	socket(AF_INET6, 15, 262);
	socket(AF_INET, 15, 144);
	socket(AF_INET, 15, 256);

	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	inet_pton(AF_INET6, "::1", &sin6.sin6_addr);
	connect(-1, (struct sockaddr *)&sin, sizeof(sin));
	connect(-1, (struct sockaddr *)&sin6, sizeof(sin6));
}

/* Appends an attribute to the message in buf, of ll bytes so far. */
static size_t nla_put(unsigned char *buf, size_t ll, unsigned type,
		      const void *data, size_t len)
{
	struct nlattr a = { NLA_HDRLEN + len, type };

	memcpy(buf + ll, &a, sizeof(a));
	memcpy(buf + ll + NLA_HDRLEN, data, len);
	return ll + NLA_ALIGN(NLA_HDRLEN + len);
}

/*
 * Netlink messages (getaddrinfo() asks NETLINK_ROUTE for the addresses):
 * requests, and the kernel's ACK of a NLMSG_NOOP, the one answer that is
 * the same on every machine.
 */
static void netlinks(void)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg ifa;
		struct rtattr a1;
		uint32_t addr;
		struct rtattr a2;
		char label[8];
		struct rtattr a3;
		uint32_t flags;
	} req = {
		.h = { sizeof(req), RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP,
		       2, 0 },
		/* Index 1: the loopback device, first in every namespace. */
		.ifa = { AF_INET, 8, IFA_F_PERMANENT | IFA_F_SECONDARY,
			 RT_SCOPE_HOST, 1 },
		.a1 = { 8, IFA_LOCAL }, .addr = htonl(0x7f000001),
		.a2 = { 7, IFA_LABEL }, .label = "abc",
		.a3 = { 8, IFA_FLAGS }, .flags = IFA_F_NODAD,
	};
	struct {
		struct nlmsghdr h;
		unsigned char fam[4];
		struct nlmsghdr h2;
	} two = {
		{ 20, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, 3, 0 },
		{ AF_INET6 },
		{ 16, 0, 0, 0, 0 },
	};
	struct nlmsghdr noop = { 16, NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK,
				 1, 0 };
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	char buf[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { &nl, sizeof(nl), &iov, 1, NULL, 0, 0 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	/* A link by a name no machine has: nothing changes (ENODEV). */
	unsigned char link[512];
	size_t ll = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg));
	struct nlmsghdr *lh = (struct nlmsghdr *)link;
	struct ifinfomsg *ifi = (struct ifinfomsg *)(link + NLMSG_HDRLEN);
	struct rtnl_link_stats64 st = { .rx_packets = 7, .tx_bytes = 1ULL << 40,
					.rx_nohandler = 3 };
	struct rtnl_link_ifmap map = { 0xd0000, 0xdffff, 0x300, 11, 0, 1 };
	uint32_t u32;

	memset(link, 0, sizeof(link));
	lh->nlmsg_type = RTM_GETLINK;
	lh->nlmsg_flags = NLM_F_REQUEST;
	lh->nlmsg_seq = 4;
	ifi->ifi_type = ARPHRD_ETHER;
	ifi->ifi_flags = 0x10001 | 0x80000;
	ifi->ifi_change = 0xffffffff;
	ll = nla_put(link, ll, IFLA_IFNAME, "utrace-nx0", 11);
	u32 = RTEXT_FILTER_VF | 8;
	ll = nla_put(link, ll, IFLA_EXT_MASK, &u32, 4);
	ll = nla_put(link, ll, IFLA_ADDRESS, "\x02\x00\x5e\x10\xab\xff", 6);
	u32 = 1500;
	ll = nla_put(link, ll, IFLA_MTU, &u32, 4);
	ll = nla_put(link, ll, IFLA_OPERSTATE, "\x06", 1);
	ll = nla_put(link, ll, IFLA_STATS64, &st, sizeof(st));
	ll = nla_put(link, ll, IFLA_MAP, &map, sizeof(map));
	ll = nla_put(link, ll, 0x43, "\x01", 1);
	lh->nlmsg_len = ll;

	if (fd < 0)
		return;
	sendto(fd, &noop, sizeof(noop), 0, (struct sockaddr *)&nl,
	       sizeof(nl));
	recvmsg(fd, &mh, 0);
	sendto(fd, &req, sizeof(req), MSG_DONTWAIT, NULL, 0);
	sendto(fd, &two, sizeof(two), MSG_DONTWAIT, NULL, 0);
	sendto(fd, &two, 12, MSG_DONTWAIT, NULL, 0);
	sendto(fd, link, ll, MSG_DONTWAIT, NULL, 0);
	close(fd);

	/* sock_diag: a TCP socket 127.0.0.1:1 -> 127.0.0.1:1 no one has. */
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} diag;

	memset(&diag, 0, sizeof(diag));
	diag.h.nlmsg_len = sizeof(diag);
	diag.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	diag.h.nlmsg_flags = NLM_F_REQUEST;
	diag.h.nlmsg_seq = 5;
	diag.r.sdiag_family = AF_INET;
	diag.r.sdiag_protocol = IPPROTO_TCP;
	diag.r.idiag_ext = 1 << (INET_DIAG_INFO - 1);
	diag.r.idiag_states = 1 << 10 | 1 << 1;
	diag.r.id.idiag_sport = htons(1);
	diag.r.id.idiag_dport = htons(1);
	diag.r.id.idiag_src[0] = htonl(0x7f000001);
	diag.r.id.idiag_dst[0] = htonl(0x7f000001);
	diag.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	diag.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return;
	sendto(fd, &diag, sizeof(diag), 0, NULL, 0);
	recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);

	/* unix_diag: the socket of inode 1 (none); vsock: only the family. */
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} udiag;

	memset(&udiag, 0, sizeof(udiag));
	udiag.h.nlmsg_len = sizeof(udiag);
	udiag.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	udiag.h.nlmsg_flags = NLM_F_REQUEST;
	udiag.h.nlmsg_seq = 6;
	udiag.r.sdiag_family = AF_UNIX;
	udiag.r.udiag_states = 1 << 10 | 1;
	udiag.r.udiag_ino = 1;
	udiag.r.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER | 0x100;
	udiag.r.udiag_cookie[0] = INET_DIAG_NOCOOKIE;
	udiag.r.udiag_cookie[1] = INET_DIAG_NOCOOKIE;
	sendto(fd, &udiag, sizeof(udiag), 0, NULL, 0);
	recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);
	udiag.r.sdiag_family = AF_VSOCK;
	udiag.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	sendto(fd, &udiag, sizeof(udiag), MSG_DONTWAIT, NULL, 0);

	/*
	 * Answers, written here (no NLM_F_REQUEST: the kernel ignores
	 * them) so that every attribute decoder has the same input.
	 */
	unsigned char ans[512];
	struct nlmsghdr *ah = (struct nlmsghdr *)ans;
	struct inet_diag_msg *im = (struct inet_diag_msg *)NLMSG_DATA(ah);
	struct unix_diag_msg *um = (struct unix_diag_msg *)NLMSG_DATA(ah);
	uint32_t mem[9] = { 0, 212992, 0, 16384, 4096, 0, 0, 0, 2 };
	uint32_t icons[3] = { 7, 8, 9 };
	struct unix_diag_vfs vfs = { 0x801, 42 };
	struct unix_diag_rqlen rq = { 1, 128 };
	uint64_t cg = 1;
	uint16_t sockopt = 1 << 1 | 1 << 4 | 1 << 6;
	size_t al;

	memset(ans, 0, sizeof(ans));
	ah->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	ah->nlmsg_flags = NLM_F_MULTI;
	ah->nlmsg_seq = 7;
	im->idiag_family = AF_INET6;
	im->idiag_state = 10;
	im->id.idiag_sport = htons(22);
	im->id.idiag_src[3] = htonl(1);
	im->idiag_wqueue = 128;
	im->idiag_inode = 1234;
	al = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*im));
	al = nla_put(ans, al, INET_DIAG_SHUTDOWN, "\x03", 1);
	u32 = 7;
	al = nla_put(ans, al, INET_DIAG_MARK, &u32, 4);
	al = nla_put(ans, al, INET_DIAG_SKMEMINFO, mem, sizeof(mem));
	al = nla_put(ans, al, INET_DIAG_CONG, "cubic", 6);
	al = nla_put(ans, al, 21, &cg, sizeof(cg));
	al = nla_put(ans, al, 22, &sockopt, sizeof(sockopt));
	ah->nlmsg_len = al;
	sendto(fd, ans, al, MSG_DONTWAIT, NULL, 0);

	memset(ans, 0, sizeof(ans));
	ah->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	ah->nlmsg_flags = NLM_F_MULTI;
	ah->nlmsg_seq = 8;
	um->udiag_family = AF_UNIX;
	um->udiag_type = SOCK_STREAM;
	um->udiag_state = 10;
	um->udiag_ino = 4321;
	al = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*um));
	al = nla_put(ans, al, UNIX_DIAG_NAME, "/run/x.sock", 11);
	al = nla_put(ans, al, UNIX_DIAG_VFS, &vfs, sizeof(vfs));
	u32 = 4322;
	al = nla_put(ans, al, UNIX_DIAG_PEER, &u32, 4);
	al = nla_put(ans, al, UNIX_DIAG_ICONS, icons, sizeof(icons));
	al = nla_put(ans, al, UNIX_DIAG_RQLEN, &rq, sizeof(rq));
	al = nla_put(ans, al, UNIX_DIAG_MEMINFO, mem, sizeof(mem));
	al = nla_put(ans, al, UNIX_DIAG_SHUTDOWN, "\x00", 1);
	ah->nlmsg_len = al;
	sendto(fd, ans, al, MSG_DONTWAIT, NULL, 0);
	close(fd);
}

/*
 * Path and descriptor twins (one decoder each, driven by the table's
 * argument kinds): xattr values without their trailing NUL, flags named
 * in both forms, a list of names, values past XATTR_SIZE_MAX as addresses.
 */
static void twins(void)
{
	char buf[64];
	struct stat st;
	struct statfs sf;
	int p[2], fd;

	pipe(p);
	fd = open("/proc/self/status", O_RDONLY);
	syscall(SYS_setxattr, "/nonexistent", "user.b", "1", 1, 1);
	syscall(SYS_lsetxattr, "/nonexistent", "user.b", "ab\0", 3, 2);
	syscall(SYS_fsetxattr, -1, "user.b", "1", 1, 1);
	syscall(SYS_setxattr, "/nonexistent", "user.b", "a\0\0", 3, 0);
	syscall(SYS_fsetxattr, -1, "user.b", "ab\0c", 4, 4);
	syscall(SYS_setxattr, "/nonexistent", "user.b", buf, 70000, 3);
	syscall(SYS_setxattr, "/nonexistent", "user.b", NULL, 0, 0);
	syscall(SYS_getxattr, "/nonexistent", "user.a", buf, sizeof(buf));
	syscall(SYS_lgetxattr, "/nonexistent", "user.a", NULL, 0);
	syscall(SYS_fgetxattr, -1, "user.a", buf, sizeof(buf));
	syscall(SYS_fgetxattr, fd, "user.a", buf, sizeof(buf));
	syscall(SYS_listxattr, "/proc/self/status", buf, sizeof(buf));
	syscall(SYS_llistxattr, "/proc/self/status", NULL, 0);
	syscall(SYS_flistxattr, fd, buf, sizeof(buf));
	syscall(SYS_flistxattr, -1, buf, sizeof(buf));
	syscall(SYS_removexattr, "/nonexistent", "user.a");
	syscall(SYS_fremovexattr, -1, "user.a");
	syscall(SYS_chown, "/nonexistent", 0, -1);
	syscall(SYS_lchown, "/nonexistent", -1, 0);
	syscall(SYS_fchown, -1, 0, -1);
	syscall(SYS_fchownat, AT_FDCWD, "/nonexistent", 0, 0,
		AT_SYMLINK_NOFOLLOW);
	syscall(SYS_truncate, "/nonexistent", 4096);
	syscall(SYS_ftruncate, -1, 4096);
	syscall(SYS_statfs, "/nonexistent", &sf);
	syscall(SYS_fstatfs, -1, &sf);
	syscall(SYS_chmod, "/nonexistent", 0644);
	syscall(SYS_fchmod, -1, 0644);
	syscall(SYS_fchmodat, AT_FDCWD, "/nonexistent", 0600);
	syscall(SYS_mkdir, "/nonexistent/d", 0755);
	syscall(SYS_mkdirat, -1, "d", 0755);
	syscall(SYS_stat, "/nonexistent", &st);
	syscall(SYS_lstat, "/nonexistent", &st);
	syscall(SYS_fstat, -1, &st);
	syscall(SYS_fstat, p[0], &st);
	syscall(SYS_newfstatat, -1, "x", &st, AT_SYMLINK_NOFOLLOW);
	syscall(SYS_access, "/nonexistent", R_OK | W_OK);
	syscall(SYS_faccessat, AT_FDCWD, "/nonexistent", F_OK);
	syscall(SYS_readlink, "/nonexistent", buf, sizeof(buf));
	syscall(SYS_readlinkat, AT_FDCWD, "/nonexistent", buf, sizeof(buf));
	syscall(SYS_mknod, "/nonexistent/c", S_IFCHR | 0600, makedev(1, 3));
	syscall(SYS_unlinkat, -1, "x", AT_REMOVEDIR);
	syscall(SYS_rename, "/nonexistent/a", "/nonexistent/b");
	syscall(SYS_renameat, -1, "a", AT_FDCWD, "/nonexistent/b");
	syscall(SYS_link, "/nonexistent/a", "/nonexistent/b");
	syscall(SYS_linkat, -1, "a", -1, "b", AT_SYMLINK_FOLLOW);
	syscall(SYS_symlink, "target", "/nonexistent/l");
	syscall(SYS_symlinkat, "target", -1, "l");
	syscall(SYS_chdir, "/nonexistent");
	syscall(SYS_fchdir, -1);
	syscall(SYS_open, "/nonexistent", O_RDONLY);
	syscall(SYS_openat, -1, "x", O_WRONLY | O_CREAT, 0640);
	syscall(SYS_execveat, -1, "x", NULL, NULL, AT_EMPTY_PATH);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/*
 * -Y: pids in arguments and results with their command's name (a child's
 * before it runs, a reaped one's without), a process group's without.
 */
static void pids(void)
{
	pid_t me = getpid(), child;
	int fd, status;
	sigset_t set;

	syscall(SYS_getppid);
	syscall(SYS_gettid);
	syscall(SYS_kill, me, 0);
	syscall(SYS_tgkill, me, me, 0);
	syscall(SYS_kill, -getpgrp(), 0);
	syscall(SYS_getpgid, me);
	syscall(SYS_getsid, 0);
	fd = open("/dev/null", O_RDONLY);
	fcntl(fd, F_SETOWN, me);
	fcntl(fd, F_GETOWN);
	close(fd);
	/* No SIGCHLD: whether it comes before wait4 or in it is a race. */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	syscall(SYS_kill, child, 0);
	/* A signal's sender, ignored by default. */
	syscall(SYS_kill, me, SIGURG);
}

static const struct {
	const char *name;
	void (*fn)(void);
} sections[] = {
	{ "term", terminal }, { "fcntl", fcntls }, { "cpu", cpus },
	{ "sigaction", sigactions }, { "select", selects }, { "poll", polls },
	{ "statfs", statfss }, { "misc", simple }, { "prctl", prctls },
	{ "sockopt", sockopts }, { "msg", msgs }, { "time", times_ },
	{ "siginfo", siginfos }, { "clone", clones }, { "strs", strs },
	{ "bigpoll", bigpoll }, { "fixes", fixes },
	{ "classes", classes }, { "widths", widths },
	{ "osync", osync }, { "sigio", sigio }, { "inject", injects },
	{ "hex", hexstrs }, { "unknown", unknowns },
	{ "realprogs", realprogs }, { "netlink", netlinks },
	{ "twins", twins }, { "pids", pids },
};

int main(int argc, char **argv)
{
	int i;
	size_t j;

	if (chdir("/utrace-marker") == 0)
		return 2;
	for (i = 1; i < argc; i++)
		for (j = 0; j < sizeof(sections) / sizeof(sections[0]); j++)
			if (!strcmp(argv[i], sections[j].name))
				sections[j].fn();
	syscall(SYS_exit_group, 3);
	return 3;
}
