/*
 * Tracee for the joiner tests (test/lib/remote.c).  It prints "ready",
 * then waits for a line on standard input (so a joiner can watch it while
 * it makes no syscall), then, by argv[1]:
 *
 *  calls      getppid(), prints "ppid R"; then write(1, "hello world\n", 12)
 *  loop N     getppid() N times, then prints "loop done"
 *  forever    getppid() until killed
 *  undump     makes itself undumpable, prints "undumpable", waits for
 *             another line, exits
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static char msg[] = "hello world\n";

int main(int argc, char **argv)
{
	char line[64];

	if (argc < 2)
		return 2;
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 3;
	if (!strcmp(argv[1], "calls")) {
		long r = syscall(SYS_getppid);

		printf("ppid %ld\n", r);
		fflush(stdout);
		if (write(1, msg, strlen(msg)) < 0)
			return 4;
		return 0;
	}
	if (!strcmp(argv[1], "loop") && argc > 2) {
		long n = atol(argv[2]);

		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		printf("loop done\n");
		return 0;
	}
	if (!strcmp(argv[1], "undump")) {
		prctl(PR_SET_DUMPABLE, 0);
		printf("undumpable\n");
		fflush(stdout);
		return fgets(line, sizeof(line), stdin) ? 0 : 3;
	}
	if (!strcmp(argv[1], "forever"))
		for (;;)
			syscall(SYS_getppid);
	return 2;
}
