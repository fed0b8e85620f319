/*
 * subreaper CMD ARGS...: run CMD as a child subreaper (PR_SET_CHILD_SUBREAPER)
 * and exit with its status.  test/run-tests runs itself under it, so every
 * process the suite starts, including the orphans of tracers and of daemons
 * that double-fork, stays a descendant of this process: the final leftover
 * check then looks at exactly the suite's processes and at nothing else of
 * the machine.  Orphans that exit are reaped here.  Descriptors above 2
 * inherited from whoever started the suite are closed first: no test may
 * depend on them.
 *
 * subreaper -s CMD ARGS...: the same in a session of its own (setsid), as
 * test/run-tests runs each test: "pkill -s 0" in a test reaches that test's
 * processes only, and an orphan the test leaves stopped stays stopped (its
 * new parent, this process, is in the same session: the process group is
 * not orphaned, so the kernel sends it no SIGHUP and SIGCONT) for the
 * leftover check to see.
 */
#include <errno.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_inherited(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int keep;

	if (!d)
		return;
	keep = dirfd(d);
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (fd > 2 && fd != keep)
			close(fd);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	pid_t child, w;
	int st, ret = 127;

	if (argc >= 2 && !strcmp(argv[1], "-s")) {
		if (setsid() < 0) {
			perror("subreaper: setsid");
			return 1;
		}
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: subreaper [-s] CMD [ARG]...\n");
		return 2;
	}
	close_inherited();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("subreaper: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("subreaper: fork");
		return 1;
	}
	if (child == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "subreaper: %s: %m\n", argv[1]);
		_exit(127);
	}
	/* Reap orphans too; stop once the command itself has ended. */
	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (w != child)
			continue;
		ret = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		break;
	}
	return ret;
}
