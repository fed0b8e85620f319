/*
 * A program for joined traces (test/cli/join.sh, test/cli/compose.sh):
 * reads commands from standard input, one per line, so that the test
 * decides when each syscall happens, and prints what each one returned,
 * so that the test sees what the program saw:
 *
 *   o PATH   opens PATH (and closes it): "open PATH: 0" or "open PATH: -ERRNO"
 *   f PATH   the same in a child it forks and waits for ("child open ...")
 *   t PATH   the same in a new thread it joins ("thread open ...")
 *   p        getppid(): "ppid: N"
 *   s        the signals its handlers caught: "usr1 N usr2 N"
 *   q        (or end of file) exits 0
 *
 * The opens go through open_path(), a function of its own that a debugger
 * can break in.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, usr2;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		usr1++;
	else
		usr2++;
}

/* Opens and closes @path; 0 or -errno. */
__attribute__((noinline)) int open_path(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void *thread_open(void *path)
{
	printf("thread open %s: %d\n", (char *)path, open_path(path));
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESTART };
	char line[512];

	setvbuf(stdout, NULL, _IONBF, 0);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == 'q')
			break;
		if (line[0] == 'f' && line[1] == ' ') {
			pid_t c = fork();

			if (c == 0) {
				printf("child open %s: %d\n", line + 2,
				       open_path(line + 2));
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		if (line[0] == 't' && line[1] == ' ') {
			pthread_t th;

			if (pthread_create(&th, NULL, thread_open, line + 2) == 0)
				pthread_join(th, NULL);
		}
		if (line[0] == 'o' && line[1] == ' ')
			printf("open %s: %d\n", line + 2, open_path(line + 2));
		if (line[0] == 'p')
			printf("ppid: %ld\n", syscall(SYS_getppid));
		if (line[0] == 's')
			printf("usr1 %d usr2 %d\n", (int)usr1, (int)usr2);
	}
	return 0;
}
