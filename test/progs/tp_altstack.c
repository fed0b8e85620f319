/*
 * tp_altstack: signal handlers on an alternate signal stack
 * (sigaltstack, SA_ONSTACK) that make system calls: a 1 ms timer
 * interrupts a getppid() loop; each SIGALRM handler checks that it runs on
 * the alternate stack and that sigaltstack() says SS_ONSTACK, makes a
 * marker, and raises SIGUSR1, whose handler (SA_ONSTACK too) runs nested
 * on the same stack and makes a marker.  A PROT_NONE page lies below the
 * alternate stack.  The stack is filled with a pattern first: the program
 * prints how deep the handlers' frames reached into it, which the kernel
 * and the handlers' code decide alone.  Exit status 3.
 */
#include "tp_common.h"
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/time.h>

#define ALT	(64 * 1024)

static char *alt;
static volatile sig_atomic_t handled, nested, off_stack, not_onstack;

static int on_alt(void *p)
{
	return (char *)p >= alt && (char *)p < alt + ALT;
}

static void on_usr1(int sig)
{
	char here;

	if (!on_alt(&here))
		off_stack++;
	tp_mark(1602);
	nested++;
}

static void on_alarm(int sig)
{
	stack_t ss;
	char here;

	if (!on_alt(&here))
		off_stack++;
	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_ONSTACK))
		not_onstack++;
	tp_mark(1601);
	tp_raw3(SYS_tgkill, getpid(), gettid(), SIGUSR1);
	handled++;
}

int main(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;
	stack_t ss;
	char *map;
	long loops = 0;
	size_t depth;

	map = mmap(NULL, ALT + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map, 4096, PROT_NONE))
		return 1;
	alt = map + 4096;
	memset(alt, 0xa5, ALT);
	ss.ss_sp = alt;
	ss.ss_size = ALT;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL))
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_ONSTACK;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	while (handled < 10) {
		syscall(SYS_getppid);
		loops++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	for (depth = 0; depth < ALT && alt[depth] == (char)0xa5; depth++)
		;
	printf("altstack: %d handlers ran off the alternate stack, %d did not "
	       "see SS_ONSTACK, nested handlers %s\n", (int)off_stack,
	       (int)not_onstack, nested == handled ? "ran" : "missing");
	printf("altstack: the frames reached %zu bytes deep\n", ALT - depth);
	tp_expect(loops, "getppid\\(\\) = \\d+");
	tp_expect(handled, TP_MARK, 1601L);
	tp_expect(nested, TP_MARK, 1602L);
	tp_expect(handled, "sigaltstack\\(NULL, \\{ss_sp=0x[0-9a-f]+, "
		  "ss_flags=SS_ONSTACK, ss_size=%d\\}\\) = 0", ALT);
	tp_expect(nested, "--- SIGUSR1 \\{si_signo=SIGUSR1, si_code=SI_TKILL, "
		  "si_pid=\\d+, si_uid=\\d+\\} ---");
	tp_expect(handled + nested, "rt_sigreturn\\(.*\\) = .*");
	tp_vary("getppid\\(\\) = \\d+");
	tp_vary("close\\(-160[12]\\) = .*");
	tp_vary("sigaltstack\\(NULL, .*");
	tp_vary("get(pid|tid)\\(\\) = \\d+");
	tp_vary("tgkill\\(.*");
	tp_vary("--- SIG(ALRM|USR1) .*");
	tp_vary("rt_sigreturn\\(.*");
	tp_expect_write();
	return 3;
}
