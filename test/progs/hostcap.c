// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hostcap CAP [ARG]: does this host give the test suite CAP?  Prints one
 * line, "CAP: yes" or "CAP: no: WHY" (WHY names what is missing, ready to
 * be a TAP "# SKIP" reason), and exits 0 when present, 77 when absent (the
 * status of a skipped test, test/harness.h), 2 on a usage error.  Each
 * probe does the very thing the tests need, natively, in children of its
 * own, rather than reading a setting that may not tell:
 *
 *   ptrace       a process may PTRACE_SEIZE its own child (Yama's
 *                ptrace_scope 3 forbids even that: nothing can run)
 *   hwbp         a hardware watchpoint and a hardware breakpoint fire: DR0
 *                on a variable (writes, 8 bytes) and DR1 on a function
 *                (execution), set with PTRACE_POKEUSER of u_debugreg in a
 *                traced child, each bring a SIGTRAP with si_code
 *                TRAP_HWBKPT and its DR6 bit.  Many virtual machines take
 *                the DR0-DR7 writes and never trap.
 *   uid2         other uids: this process may become uid 65534 (nobody)
 *   uid2-exec    ... and that uid may run the test programs (this one,
 *                beside them: a build tree under a private home directory
 *                is out of its reach)
 *   peer-attach  a process of uid 65534 may ptrace a process of its own
 *                uid that is not its descendant (Yama's ptrace_scope 0;
 *                scope 1 allows descendants only)
 *   suid         a set-user-ID program in directory ARG runs with its
 *                owner's uid (not on a nosuid mount, no no_new_privs)
 *
 * UTRACE_TEST_ABSENT="CAP ..." (spaces or commas) makes the named
 * capabilities absent whatever the host has, so that the skipping side of
 * each test can be run on a host that has them; "all" names every one
 * but ptrace (without which the runner skips the whole suite).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/statvfs.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define ABSENT		77
#define NOBODY		65534
#define DR(n)		offsetof(struct user, u_debugreg[n])

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT	4
#endif

static char why[512];

static int no(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int no(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return ABSENT;
}

/* Kill and reap a child of ours, traced or not. */
static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

/* -- ptrace ---------------------------------------------------------------- */

static int probe_ptrace(const char *arg)
{
	pid_t pid = fork();
	int err = 0, st;

	if (pid < 0)
		return no("fork: %s", strerror(errno));
	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (ptrace(PTRACE_SEIZE, pid, 0L, 0L) < 0)
		err = errno;
	kill(pid, SIGKILL);
	waitpid(pid, &st, __WALL);
	if (err)
		return no("ptrace does not work here: PTRACE_SEIZE of a child: %s",
			  strerror(err));
	return 0;
}

/* -- Hardware breakpoints and watchpoints --------------------------------- */

static volatile long hw_watched;

__attribute__((noinline)) static void hw_target(void)
{
	__asm__ volatile("" ::: "memory");
}

/* The child: stopped for its tracer, then a write and a call. */
static void hw_child(void)
{
	void (*volatile fn)(void) = hw_target;

	if (ptrace(PTRACE_TRACEME, 0, 0L, 0L) < 0)
		_exit(10);
	raise(SIGSTOP);
	hw_watched = 1;
	fn();
	_exit(0);
}

/* Resume @pid and wait for its hardware trap, DR6 bit @bit. */
static int hw_expect(pid_t pid, int bit, const char *what)
{
	siginfo_t si;
	long dr6;
	int st;

	if (ptrace(PTRACE_CONT, pid, 0L, 0L) < 0)
		return no("no hardware breakpoints: PTRACE_CONT: %s",
			  strerror(errno));
	if (waitpid(pid, &st, __WALL) != pid)
		return no("no hardware breakpoints: waitpid: %s",
			  strerror(errno));
	if (WIFEXITED(st) || WIFSIGNALED(st))
		return no("no hardware breakpoints or watchpoints on this host: "
			  "%s armed in a traced child, which then ran to its "
			  "end with no trap", what);
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
		return no("no hardware breakpoints: %s: the child stopped with "
			  "signal %d, not SIGTRAP", what, WSTOPSIG(st));
	if (ptrace(PTRACE_GETSIGINFO, pid, 0L, &si) < 0)
		return no("no hardware breakpoints: PTRACE_GETSIGINFO: %s",
			  strerror(errno));
	if (si.si_code != TRAP_HWBKPT)
		return no("no hardware breakpoints: %s: SIGTRAP with si_code "
			  "%d, not TRAP_HWBKPT", what, si.si_code);
	errno = 0;
	dr6 = ptrace(PTRACE_PEEKUSER, pid, DR(6), 0L);
	if (errno)
		return no("no hardware breakpoints: PTRACE_PEEKUSER DR6: %s",
			  strerror(errno));
	if (!(dr6 & (1L << bit)))
		return no("no hardware breakpoints: %s: DR6 %#lx lacks bit %d",
			  what, dr6, bit);
	return 0;
}

static int probe_hwbp(const char *arg)
{
	/* DR7: L0, RW0 = 01 (writes), LEN0 = 11 (8 bytes); L1, RW1 = 00
	 * (execution), LEN1 = 00. */
	const unsigned long dr7 = 1UL | 1UL << 16 | 3UL << 18 | 1UL << 2;
	pid_t pid;
	int st, r;

	pid = fork();
	if (pid < 0)
		return no("fork: %s", strerror(errno));
	if (pid == 0)
		hw_child();
	if (waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st)) {
		reap(pid);
		return no("no hardware breakpoints: the traced child did not "
			  "stop (status %#x)", st);
	}
	if (ptrace(PTRACE_POKEUSER, pid, DR(0), (long)&hw_watched) < 0 ||
	    ptrace(PTRACE_POKEUSER, pid, DR(1), (long)hw_target) < 0 ||
	    ptrace(PTRACE_POKEUSER, pid, DR(7), (long)dr7) < 0) {
		r = no("no hardware breakpoints on this host: "
		       "PTRACE_POKEUSER of u_debugreg: %s", strerror(errno));
		reap(pid);
		return r;
	}
	r = hw_expect(pid, 0, "a watchpoint (DR0, writes)");
	if (!r)
		r = hw_expect(pid, 1, "a breakpoint (DR1, execution)");
	reap(pid);
	return r;
}

/* -- A second uid ------------------------------------------------------------ */

/* Become uid and gid NOBODY, with no groups; 0 or an errno. */
static int become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
		return errno;
	return 0;
}

static int probe_uid2(const char *arg)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return no("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(become_nobody());
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return no("no second uid: this process cannot become uid %d "
			  "(root's CAP_SETUID): %s", NOBODY,
			  WIFEXITED(st) ? strerror(WEXITSTATUS(st)) : "killed");
	return 0;
}

static int probe_uid2_exec(const char *arg)
{
	char self[4096];
	int st, fd[2], err = 0;
	ssize_t n;
	pid_t pid;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return no("readlink /proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	if (pipe2(fd, O_CLOEXEC) < 0)
		return no("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return no("fork: %s", strerror(errno));
	if (pid == 0) {
		int e = become_nobody();

		close(fd[0]);
		if (!e) {
			/* This program again, by the path of the test
			 * programs: each directory on the way must be open to
			 * the uid.  The descriptor closes on exec. */
			execl(self, self, "--version", (char *)NULL);
			e = -errno;
		}
		if (write(fd[1], &e, sizeof(e)) < 0)
			_exit(1);
		_exit(1);
	}
	close(fd[1]);
	if (read(fd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;	/* end of file: the exec happened */
	close(fd[0]);
	waitpid(pid, &st, 0);
	if (err > 0)
		return no("no second uid: this process cannot become uid %d "
			  "(root's CAP_SETUID): %s", NOBODY, strerror(err));
	if (err < 0)
		return no("no second uid: uid %d cannot run the test programs "
			  "(%s: %s; a build under a private directory?)",
			  NOBODY, self, strerror(-err));
	return 0;
}

/* -- Unprivileged ptrace of a peer ------------------------------------------ */

static int probe_peer_attach(const char *arg)
{
	int st, fd[2], err = 0, r;
	pid_t peer, tracer;
	char c;

	if (pipe(fd) < 0)
		return no("pipe: %s", strerror(errno));
	peer = fork();
	if (peer < 0)
		return no("fork: %s", strerror(errno));
	if (peer == 0) {
		close(fd[0]);
		if (become_nobody() || prctl(PR_SET_DUMPABLE, 1) < 0)
			_exit(1);
		close(fd[1]);	/* ready */
		pause();
		_exit(0);
	}
	close(fd[1]);
	r = read(fd[0], &c, 1);		/* end of file: the peer is ready */
	close(fd[0]);
	if (r < 0 || waitpid(peer, &st, WNOHANG) == peer)
		return no("no second uid: this process cannot become uid %d",
			  NOBODY);
	if (pipe(fd) < 0) {
		reap(peer);
		return no("pipe: %s", strerror(errno));
	}
	tracer = fork();
	if (tracer < 0) {
		reap(peer);
		return no("fork: %s", strerror(errno));
	}
	if (tracer == 0) {
		int e = become_nobody();

		if (!e && ptrace(PTRACE_SEIZE, peer, 0L, 0L) < 0)
			e = errno;
		if (write(fd[1], &e, sizeof(e)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(fd[0]);
	waitpid(tracer, &st, 0);	/* its tracee is detached */
	reap(peer);
	if (err)
		return no("no unprivileged ptrace of a non-descendant (Yama "
			  "ptrace_scope above 0?): uid %d's PTRACE_SEIZE of "
			  "another process of its own: %s", NOBODY,
			  strerror(err));
	return 0;
}

/* -- Set-user-ID programs ----------------------------------------------------- */

static int probe_suid(const char *arg)
{
	struct statvfs sv;
	int nnp;

	if (!arg)
		return no("suid needs a directory");
	nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	if (nnp > 0)
		return no("no set-user-ID programs: this process runs with "
			  "no_new_privs");
	if (statvfs(arg, &sv) < 0)
		return no("statvfs %s: %s", arg, strerror(errno));
	if (sv.f_flag & ST_NOSUID)
		return no("no set-user-ID programs: %s is on a nosuid mount",
			  arg);
	return 0;
}

/* -------------------------------------------------------------------------- */

static const struct cap {
	const char *name;
	int (*probe)(const char *arg);
	const char *what;	/* for an absence forced by the environment */
} caps[] = {
	{ "ptrace", probe_ptrace, "ptrace" },
	{ "hwbp", probe_hwbp, "hardware breakpoints or watchpoints" },
	{ "uid2", probe_uid2, "second uid" },
	{ "uid2-exec", probe_uid2_exec, "second uid that runs the test programs" },
	{ "peer-attach", probe_peer_attach,
	  "unprivileged ptrace of a non-descendant" },
	{ "suid", probe_suid, "set-user-ID programs" },
};

/* Written from the SIGALRM handler: made before the alarm. */
static char timeout_line[128];

static void timed_out(int sig)
{
	if (write(1, timeout_line, strlen(timeout_line)) < 0)
		_exit(ABSENT);
	_exit(ABSENT);
}

/* Is @name listed in UTRACE_TEST_ABSENT? */
static int forced_absent(const char *name)
{
	const char *v = getenv("UTRACE_TEST_ABSENT");
	size_t len = strlen(name);

	while (v && *v) {
		size_t n = strcspn(v, " ,");

		if ((n == len && !strncmp(v, name, len)) ||
		    (n == 3 && !strncmp(v, "all", 3) &&
		     strcmp(name, "ptrace")))
			return 1;
		v += n;
		v += strspn(v, " ,");
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cap *c = NULL;
	int r;

	if (argc == 2 && !strcmp(argv[1], "--version"))
		return 0;	/* probe_uid2 runs this as uid 65534 */
	for (size_t i = 0; argc >= 2 && i < sizeof(caps) / sizeof(*caps); i++)
		if (!strcmp(argv[1], caps[i].name))
			c = &caps[i];
	if (!c || argc > 3) {
		fprintf(stderr, "usage: hostcap ptrace|hwbp|uid2|uid2-exec|"
			"peer-attach|suid DIRECTORY\n");
		return 2;
	}
	/* A probe that hangs is an absent capability, not a hung suite. */
	snprintf(timeout_line, sizeof(timeout_line),
		 "%s: no: the probe did not end in 20 s\n", c->name);
	signal(SIGALRM, timed_out);
	alarm(20);
	if (forced_absent(c->name))
		r = no("no %s: forced by UTRACE_TEST_ABSENT=%s", c->what,
		       getenv("UTRACE_TEST_ABSENT"));
	else
		r = c->probe(argc > 2 ? argv[2] : NULL);
	if (r)
		printf("%s: no: %s\n", c->name, why);
	else
		printf("%s: yes\n", c->name);
	return r;
}
