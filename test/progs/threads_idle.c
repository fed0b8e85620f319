/*
 * Start N extra threads (argv[1], default 3); every thread, main included,
 * calls getppid() then sleeps 5 ms, over and over, for argv[2] seconds
 * (default 5).  Then the process exits 0.  With argv[2] "sig" the main
 * thread instead waits for SIGUSR1 (blocked in every thread, taken with
 * sigwaitinfo, again after EINTR) and then exits the whole process: the
 * end comes when the test says so, not after a time that a loaded machine
 * may overrun.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static time_t end;
static bool forever;

static void *thread_fn(void *arg)
{
	while (forever || time(NULL) < end) {
		syscall(SYS_getppid);
		usleep(5000);
	}
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	bool on_sig = argc > 2 && !strcmp(argv[2], "sig");
	int secs = argc > 2 && !on_sig ? atoi(argv[2]) : 5;
	pthread_t th;
	sigset_t set;

	if (on_sig) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		forever = true;
	}
	end = time(NULL) + secs;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th, NULL, thread_fn, NULL))
			return 3;
	if (on_sig) {
		syscall(SYS_getppid);
		/* A stop and SIGCONT, or a ptrace trap, ends it with EINTR. */
		while (sigwaitinfo(&set, NULL) != SIGUSR1)
			;
		exit(0);
	}
	thread_fn(NULL);
	exit(0);
}
