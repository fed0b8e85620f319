/*
 * tp_signal: a 1 ms interval timer interrupts a getppid() loop; the
 * SIGALRM handler makes system calls of its own (a marker, and getpid
 * through libc).  The loop runs until the handler ran 20 times.  Exit
 * status 3.
 */
#include "tp_common.h"
#include <signal.h>
#include <sys/time.h>

static volatile sig_atomic_t handled;

static void on_alarm(int sig)
{
	tp_mark(1300);
	getpid();
	handled++;
}

int main(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;
	long loops = 0, ppid = getppid(), bad = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	while (handled < 20) {
		if (syscall(SYS_getppid) != ppid)
			bad++;
		loops++;
	}
	memset(&it, 0, sizeof(it));
	/* A SIGALRM already sent is handled on the way out of this call. */
	setitimer(ITIMER_REAL, &it, NULL);
	printf("signal: the handler ran at least 20 times, %ld wrong "
	       "getppid results\n", bad);
	tp_expect(loops + 1, "getppid\\(\\) = \\d+");
	tp_expect(handled, TP_MARK, 1300L);
	tp_expect(handled, "getpid\\(\\) = \\d+");
	tp_expect(handled, "--- SIGALRM \\{si_signo=SIGALRM, "
		  "si_code=SI_KERNEL\\} ---");
	tp_expect(handled, "rt_sigreturn\\(\\{mask=\\[\\]\\}\\) = .*");
	tp_vary("getppid\\(\\) = \\d+");
	tp_vary("close\\(-1300\\) = .*");
	tp_vary("getpid\\(\\) = \\d+");
	tp_vary("--- SIGALRM .*");
	tp_vary("rt_sigreturn\\(.*");
	tp_expect_write();
	return 3;
}
