/*
 * Tracee for the signal, job-control and stepping tests.  argv[1] picks a
 * mode; every mode writes its results to standard output, one line each.
 *
 *  classify       USR1 caught, USR2 ignored, the rest default; sends
 *                 itself a list of signals, prints "handled N" (USR1 count)
 *  info           SA_SIGINFO handlers for USR1, USR2; sigqueue(USR1, 42) to
 *                 itself; prints "sig S code C pid P uid U val V"
 *  wait           as info, but prints "ready" and waits (pause) for a signal
 *                 instead of sending one
 *  read [sa]      prints "ready", read(0) then "read N errno E data D
 *                 handled H"; sa: "restart" (USR1 handler, SA_RESTART),
 *                 "nores" (USR1 handler without SA_RESTART), absent: none
 *  sleep MS       prints "ready", nanosleep(MS) then "sleep R errno E ok K"
 *                 (K: 1 when at least MS elapsed)
 *  tick           prints "t" every 10 ms; SIGUSR1 makes it exit 0
 *  handler        prints the USR1 handler address ("%p"), raise(SIGUSR1),
 *                 prints "handled N"
 *  segv raise     raise(SIGSEGV) then prints "survived"
 *  segv fault     writes through a bad pointer (address 8)
 *  count          handlers count USR1, USR2, RTMIN..RTMIN+3; prints "ready";
 *                 reads lines on stdin: "p" prints the counts as
 *                 "usr1 A usr2 B rt C D E F"; "u" unblocks signals (they
 *                 start blocked with argument "blocked"); EOF: exit 0
 *  storm NTHR     NTHR extra threads that sleep; every handled signal
 *                 writes one byte (its index) to stdout; on EOF on stdin
 *                 prints "\ncounts A B C D E F" and exits 0
 *  entrysig       USR1 handler (no SA_RESTART); prints "ready"; reads one
 *                 line; calls getppid(); prints "ppid P handled H"
 *  step N         prints "step B L E" (addresses of the asm labels), then
 *                 getppid; a loop of N iterations (dec; jnz); getppid;
 *                 prints "done"
 *  rtq            SA_SIGINFO handler for RTMIN; with RTMIN blocked,
 *                 queues it to its own thread three times (si_value 1, 2,
 *                 3), unblocks, prints "rt V..." (values in handling order)
 *  disp           changes the handlers of WINCH and USR1 between signals
 *                 it sends itself (caught, SA_RESETHAND, ignored; a
 *                 CLONE_SIGHAND child ignoring USR1 for its parent), prints
 *                 "handled N"
 *  parent         forks a child in "tick" mode that writes nowhere;
 *                 prints "child PID", then waitpid(WUNTRACED|WCONTINUED)
 *                 and prints "stopped S", "continued", "exited S" or
 *                 "signaled S" until the child is gone
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static volatile sig_atomic_t got;
static siginfo_t last;

static void on_count(int sig)
{
	got++;
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	last = *si;
	got++;
}

static void print_info(void)
{
	printf("sig %d code %d pid %d uid %d val %d\n", last.si_signo,
	       last.si_code, (int)last.si_pid, (int)last.si_uid,
	       last.si_value.sival_int);
}

static void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void set_info_handler(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int mode_classify(void)
{
	static const int sigs[] = {
		SIGUSR1, SIGUSR2, SIGWINCH, SIGCHLD, SIGCONT, SIGTSTP,
		SIGTTIN, SIGTTOU, SIGSTOP, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV,
		SIGABRT,
	};

	set_handler(SIGUSR1, on_count, 0);
	set_handler(SIGUSR2, SIG_IGN, 0);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		kill(getpid(), sigs[i]);
	kill(getpid(), SIGRTMIN + 1);
	printf("handled %d\n", (int)got);
	return 0;
}

static int mode_info(int wait)
{
	set_info_handler(SIGUSR1);
	set_info_handler(SIGUSR2);
	if (wait) {
		printf("ready\n");
		fflush(stdout);
		while (!got)
			pause();
	} else {
		union sigval v = { .sival_int = 42 };

		sigqueue(getpid(), SIGUSR1, v);
	}
	print_info();
	return 0;
}

static int mode_read(const char *sa)
{
	char buf[256];
	ssize_t n;
	int err;

	if (sa && !strcmp(sa, "restart"))
		set_handler(SIGUSR1, on_count, SA_RESTART);
	else if (sa && !strcmp(sa, "nores"))
		set_handler(SIGUSR1, on_count, 0);
	printf("ready\n");
	fflush(stdout);
	n = read(0, buf, sizeof(buf) - 1);
	err = n < 0 ? errno : 0;
	buf[n > 0 ? n : 0] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	printf("read %zd errno %d data %s handled %d\n", n, err, buf,
	       (int)got);
	return 0;
}

static int mode_sleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long t0;
	int r, err;

	printf("ready\n");
	fflush(stdout);
	t0 = now_ms();
	r = nanosleep(&ts, NULL);
	err = r ? errno : 0;
	printf("sleep %d errno %d ok %d\n", r, err, now_ms() - t0 >= ms);
	return 0;
}

static int mode_tick(int fd)
{
	set_handler(SIGUSR1, on_count, 0);
	while (!got) {
		if (fd >= 0 && write(fd, "t\n", 2) < 0)
			return 3;
		msleep(10);
	}
	return 0;
}

static int mode_handler(void)
{
	set_handler(SIGUSR1, on_count, 0);
	printf("%p\n", (void *)on_count);
	fflush(stdout);
	raise(SIGUSR1);
	printf("handled %d\n", (int)got);
	return 0;
}

static int mode_segv(const char *how)
{
	if (how && !strcmp(how, "fault")) {
		*(volatile int *)8 = 1;
		printf("survived fault\n");
		return 0;
	}
	raise(SIGSEGV);
	printf("survived\n");
	return 0;
}

static volatile int counts[6];

static int sig_index(int sig)
{
	if (sig == SIGUSR1)
		return 0;
	if (sig == SIGUSR2)
		return 1;
	if (sig >= SIGRTMIN && sig <= SIGRTMIN + 3)
		return 2 + sig - SIGRTMIN;
	return -1;
}

static void on_counted(int sig)
{
	int i = sig_index(sig);

	if (i >= 0)
		__atomic_add_fetch(&counts[i], 1, __ATOMIC_SEQ_CST);
}

static void on_storm(int sig)
{
	int i = sig_index(sig);
	char c;

	if (i < 0)
		return;
	__atomic_add_fetch(&counts[i], 1, __ATOMIC_SEQ_CST);
	c = (char)('0' + i);
	if (write(1, &c, 1) < 0)
		_exit(4);
}

static void count_handlers(void (*fn)(int))
{
	set_handler(SIGUSR1, fn, SA_RESTART);
	set_handler(SIGUSR2, fn, SA_RESTART);
	for (int i = 0; i < 4; i++)
		set_handler(SIGRTMIN + i, fn, SA_RESTART);
}

static void print_counts(const char *prefix)
{
	printf("%susr1 %d usr2 %d rt %d %d %d %d\n", prefix, counts[0],
	       counts[1], counts[2], counts[3], counts[4], counts[5]);
	fflush(stdout);
}

static int mode_count(const char *arg)
{
	char line[64];
	sigset_t all;

	sigemptyset(&all);
	sigaddset(&all, SIGUSR1);
	sigaddset(&all, SIGUSR2);
	for (int i = 0; i < 4; i++)
		sigaddset(&all, SIGRTMIN + i);
	count_handlers(on_counted);
	if (arg && !strcmp(arg, "blocked"))
		sigprocmask(SIG_BLOCK, &all, NULL);
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (line[0] == 'p')
			print_counts("");
		else if (line[0] == 'u')
			sigprocmask(SIG_UNBLOCK, &all, NULL);
	}
	return 0;
}

static void *sleeper(void *arg)
{
	for (;;)
		msleep(5);
	return NULL;
}

static int mode_storm(int nthr)
{
	char c;
	pthread_t th;

	count_handlers(on_storm);
	for (int i = 0; i < nthr; i++)
		pthread_create(&th, NULL, sleeper, NULL);
	c = 'r';
	if (write(1, &c, 1) < 0)
		return 4;
	while (read(0, &c, 1) != 0)
		;
	print_counts("\ncounts ");
	_exit(0);
}

static int mode_entrysig(void)
{
	char line[64];
	pid_t pp;

	set_handler(SIGUSR1, on_count, 0);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 2;
	pp = (pid_t)syscall(SYS_getppid);
	printf("ppid %d handled %d\n", (int)pp, (int)got);
	return 0;
}

extern char step_begin[], step_loop[], step_end[];

static __attribute__((noinline)) void step_run(long n)
{
	asm volatile(
		"mov %[nr], %%eax\n\t"
		"syscall\n\t"
		".globl step_begin\n"
		"step_begin:\n\t"
		"mov %[n], %%rcx\n\t"
		".globl step_loop\n"
		"step_loop:\n\t"
		"dec %%rcx\n\t"
		"jnz step_loop\n\t"
		"mov %[nr], %%eax\n\t"
		"syscall\n\t"
		".globl step_end\n"
		"step_end:\n\t"
		: : [nr] "i"(SYS_getppid), [n] "r"(n)
		: "rax", "rcx", "r11", "memory", "cc");
}

static int mode_step(long n)
{
	printf("step %p %p %p\n", (void *)step_begin, (void *)step_loop,
	       (void *)step_end);
	fflush(stdout);
	step_run(n);
	printf("done\n");
	return 0;
}

static int mode_parent(void)
{
	pid_t c, r;
	int st;

	fflush(stdout);
	/*
	 * The child inherits the handler: a SIGUSR1 sent before it has run a
	 * single instruction (a loaded machine) must not kill it.
	 */
	set_handler(SIGUSR1, on_count, 0);
	c = fork();
	if (c < 0)
		return 2;
	if (c == 0)
		_exit(mode_tick(-1));
	printf("child %d\n", (int)c);
	fflush(stdout);
	for (;;) {
		r = waitpid(c, &st, WUNTRACED | WCONTINUED);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 3;
		if (WIFSTOPPED(st))
			printf("stopped %d\n", WSTOPSIG(st));
		else if (WIFCONTINUED(st))
			printf("continued\n");
		else if (WIFEXITED(st))
			printf("exited %d\n", WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			printf("signaled %d\n", WTERMSIG(st));
		fflush(stdout);
		if (WIFEXITED(st) || WIFSIGNALED(st))
			return 0;
	}
}

static int rtq_vals[16], rtq_n;

static void on_rtq(int sig, siginfo_t *si, void *uc)
{
	if (rtq_n < 16)
		rtq_vals[rtq_n++] = si->si_value.sival_int;
}

static int mode_rtq(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rtq;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (int v = 1; v <= 3; v++) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		si.si_signo = SIGRTMIN;
		si.si_code = SI_QUEUE;
		si.si_pid = getpid();
		si.si_uid = getuid();
		si.si_value.sival_int = v;
		syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGRTMIN,
			&si);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("rt");
	for (int i = 0; i < rtq_n; i++)
		printf(" %d", rtq_vals[i]);
	printf("\n");
	return 0;
}

static int ignore_usr1(void *arg)
{
	signal(SIGUSR1, SIG_IGN);
	return 0;
}

/* test/lib/sig.c (dispositions_followed) expects this order of signals. */
static int mode_disp(void)
{
	static char stack[65536] __attribute__((aligned(16)));
	pid_t pid = getpid(), c;

	set_handler(SIGWINCH, on_count, 0);
	for (int i = 0; i < 3; i++)
		kill(pid, SIGWINCH);		/* caught x3 */
	set_handler(SIGWINCH, on_count, SA_RESETHAND);
	for (int i = 0; i < 3; i++)
		kill(pid, SIGWINCH);		/* caught, then ignored x2 */
	set_handler(SIGWINCH, SIG_IGN, 0);
	kill(pid, SIGWINCH);			/* ignored */
	set_handler(SIGWINCH, on_count, 0);
	kill(pid, SIGWINCH);			/* caught x2 */
	kill(pid, SIGWINCH);
	set_handler(SIGWINCH, on_count, SA_RESETHAND);
	kill(pid, SIGWINCH);			/* caught, then ignored */
	kill(pid, SIGWINCH);
	set_handler(SIGUSR1, on_count, 0);
	for (int i = 0; i < 3; i++)
		kill(pid, SIGUSR1);		/* caught x3 */
	c = clone(ignore_usr1, stack + sizeof(stack),
		  CLONE_VM | CLONE_SIGHAND | SIGCHLD, NULL);
	if (c < 0 || waitpid(c, NULL, 0) != c)
		return 1;
	kill(pid, SIGUSR1);			/* ignored, by the child */
	set_handler(SIGUSR1, on_count, 0);
	kill(pid, SIGUSR1);			/* caught x2 */
	kill(pid, SIGUSR1);
	printf("handled %d\n", (int)got);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(m, "classify"))
		return mode_classify();
	if (!strcmp(m, "info"))
		return mode_info(0);
	if (!strcmp(m, "wait"))
		return mode_info(1);
	if (!strcmp(m, "read"))
		return mode_read(a);
	if (!strcmp(m, "sleep"))
		return mode_sleep(a ? atoi(a) : 300);
	if (!strcmp(m, "tick"))
		return mode_tick(1);
	if (!strcmp(m, "handler"))
		return mode_handler();
	if (!strcmp(m, "segv"))
		return mode_segv(a);
	if (!strcmp(m, "count"))
		return mode_count(a);
	if (!strcmp(m, "storm"))
		return mode_storm(a ? atoi(a) : 3);
	if (!strcmp(m, "entrysig"))
		return mode_entrysig();
	if (!strcmp(m, "step"))
		return mode_step(a ? atol(a) : 1000);
	if (!strcmp(m, "rtq"))
		return mode_rtq();
	if (!strcmp(m, "disp"))
		return mode_disp();
	if (!strcmp(m, "parent"))
		return mode_parent();
	fprintf(stderr, "sig_prog: unknown mode %s\n", m);
	return 2;
}
