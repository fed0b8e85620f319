// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracee for the utrace CLI tests: a fixed sequence of syscalls whose
 * strace output does not depend on the machine.  Everything after the
 * chdir("/utrace-marker") line is compared with an expected file.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char text[] =
	"hello, world\n\t\"quoted\" \\ \001\377 and a long tail that is cut";

int main(int argc, char **argv)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct timespec ts = { 0, 1000 };
	unsigned long ksa[4] = { (unsigned long)SIG_IGN, 0, 0, 0 };
	struct stat st;
	char buf[64];
	int fd, p[2], s;

	if (chdir("/utrace-marker") == 0)
		return 2;
	open("/nonexistent/utrace-test", O_RDONLY);
	fd = openat(AT_FDCWD, "/dev/null", O_WRONLY | O_CLOEXEC);
	write(fd, text, sizeof(text) - 1);
	if (pipe2(p, O_CLOEXEC) < 0)
		return 2;
	write(p[1], "ab", 2);
	read(p[0], buf, sizeof(buf));
	close(p[0]);
	close(p[1]);
	fstat(fd, &st);
	lseek(fd, 0, SEEK_END);
	dup2(fd, 10);
	close(10);
	access("/", R_OK | X_OK);
	nanosleep(&ts, NULL);
	syscall(SYS_rt_sigaction, SIGUSR1, ksa, NULL, 8);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sun.sun_path, "/nonexistent/socket");
	connect(s, (struct sockaddr *)&sun, sizeof(sun));
	close(s);
	close(fd);
	if (argc > 1)
		kill(getpid(), atoi(argv[1]));
	syscall(SYS_exit_group, 3);
	return 3;
}
