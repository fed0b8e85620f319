/*
 * vfork_exec PROG [ARGS...]: vfork a child that executes PROG, wait for it
 * and exit with its exit code plus one.
 */
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc < 2)
		return 2;
	pid = vfork();
	if (pid < 0)
		return 3;
	if (pid == 0) {
		execv(argv[1], argv + 1);
		_exit(126);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 4;
	return WEXITSTATUS(st) + 1;
}
