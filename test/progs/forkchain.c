/*
 * forkchain DEPTH [LEAF_MS]: fork a child that executes "forkchain DEPTH-1",
 * wait for it and exit with its exit code plus one.  At depth 0, sleep
 * LEAF_MS milliseconds (default 0) and exit 7.  So depth 3 exits 10.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 3;
	const char *ms = argc > 2 ? argv[2] : "0";
	char d[16];
	pid_t pid;
	int st;

	if (depth <= 0) {
		usleep(atoi(ms) * 1000);
		return 7;
	}
	snprintf(d, sizeof(d), "%d", depth - 1);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execl("/proc/self/exe", "forkchain", d, ms, (char *)NULL);
		_exit(126);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 3;
	return WEXITSTATUS(st) + 1;
}
