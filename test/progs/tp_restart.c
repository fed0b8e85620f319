/*
 * tp_restart: a blocking read interrupted by a signal, and a restart.
 *  A. read() on an empty pipe, SIGUSR1 with a handler without SA_RESTART:
 *     the read fails with EINTR after the handler ran.
 *  B. the same with SA_RESTART (SIGUSR2): the read goes on after the
 *     handler and returns the byte written once it blocked again.
 *  C. poll() with a timeout, the process stopped (SIGSTOP) and continued
 *     (SIGCONT): no handler runs, the kernel restarts the call through
 *     restart_syscall, which returns when a byte is written.
 * A helper (a thread for A and B, a child process for C) sends each signal
 * once the main thread sleeps in the call (/proc).  Exit status 3.
 */
#include "tp_common.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#define FD 77

static volatile sig_atomic_t usr1, usr2;
static int wfd, main_tid;

static void on_usr1(int sig)
{
	tp_mark(1401);
	usr1++;
}

static void on_usr2(int sig)
{
	tp_mark(1402);
	usr2++;
}

static void *helper(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	/* A */
	if (tp_wait_blocked(main_tid, SYS_read))
		return "A: read never blocked";
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	/* B: signal the blocked read, then write once it blocks again. */
	if (tp_wait_blocked(main_tid, SYS_read))
		return "B: read never blocked";
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR2);
	for (int i = 0; !usr2 && i < 20000; i++)
		nanosleep(&ms, NULL);
	if (tp_wait_blocked(main_tid, SYS_read))
		return "B: read never restarted";
	if (write(wfd, "x", 1) != 1)
		return "B: write failed";
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	struct pollfd pfd = { .fd = FD, .events = POLLIN };
	pthread_t th;
	int p[2], st;
	char c = 0;
	void *err;
	ssize_t r;
	pid_t pid;

	if (pipe(p) || dup2(p[0], FD) != FD)
		return 1;
	close(p[0]);
	wfd = p[1];
	main_tid = gettid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	if (pthread_create(&th, NULL, helper, NULL))
		return 1;

	errno = 0;
	r = read(FD, &c, 1);
	printf("A: read = %zd, %s, SIGUSR1 handled %d time(s)\n", r,
	       strerror(errno), (int)usr1);
	errno = 0;
	r = read(FD, &c, 1);
	printf("B: read = %zd '%c', errno %d, SIGUSR2 handled %d time(s)\n",
	       r, c, errno, (int)usr2);
	pthread_join(th, &err);
	if (err)
		printf("helper: %s\n", (char *)err);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pid_t pp = getppid();

		if (tp_wait_state(pp, pp, "S", SYS_poll) ||
		    kill(pp, SIGSTOP) || tp_wait_state(pp, pp, "tT", -1) ||
		    kill(pp, SIGCONT) ||
		    tp_wait_state(pp, pp, "S", SYS_restart_syscall) ||
		    write(wfd, "y", 1) != 1)
			_exit(1);
		_exit(0);
	}
	errno = 0;
	r = poll(&pfd, 1, 20000);
	if (r == 1 && read(FD, &c, 1) != 1)
		c = 0;
	printf("C: poll = %d, revents %#x, '%c', errno %d\n", (int)r,
	       pfd.revents, c, errno);
	if (waitpid(pid, &st, 0) != pid || st)
		printf("C: helper failed\n");

	tp_expect(1, TP_MARK, 1401L);
	tp_expect(1, TP_MARK, 1402L);
	tp_expect(2, "read\\(77, 0x[0-9a-f]+, 1\\) = \\? ERESTARTSYS \\(To be "
		  "restarted if SA_RESTART is set\\)");
	tp_expect(1, "--- SIGUSR1 \\{si_signo=SIGUSR1, si_code=SI_TKILL, "
		  "si_pid=\\d+, si_uid=\\d+\\} ---");
	tp_expect(1, "--- SIGUSR2 \\{si_signo=SIGUSR2, si_code=SI_TKILL, "
		  "si_pid=\\d+, si_uid=\\d+\\} ---");
	tp_expect(1, "rt_sigreturn\\(\\{mask=\\[\\]\\}\\) = -1 EINTR "
		  "\\(Interrupted system call\\)");
	tp_expect(1, "rt_sigreturn\\(\\{mask=\\[\\]\\}\\) = 0");
	tp_expect(1, "read\\(77, \"x\", 1\\) = 1");
	tp_expect(1, "poll\\(\\[\\{fd=77, events=POLLIN\\}\\], 1, 20000\\) = "
		  "\\? ERESTART_RESTARTBLOCK \\(Interrupted by signal\\)");
	tp_expect(1, "restart_syscall\\(<\\.\\.\\. resuming interrupted poll "
		  "\\.\\.\\.>\\) = 1");
	tp_expect(1, "read\\(77, \"y\", 1\\) = 1");
	tp_expect_write();
	return 3;
}
