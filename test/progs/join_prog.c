/*
 * A program for joined traces (test/cli/join.sh): reads commands from
 * standard input, one per line, so that the test decides when each
 * syscall happens: "o PATH" opens PATH (and closes it) and prints
 * "open PATH: 0" or "open PATH: -ERRNO"; "f PATH" does that in a child
 * it forks and waits for; "q" or end of file exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	char line[512];

	setvbuf(stdout, NULL, _IONBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == 'q')
			break;
		if (line[0] == 'f' && line[1] == ' ') {
			pid_t c = fork();

			if (c == 0) {
				int fd = open(line + 2, O_RDONLY);

				printf("child open %s: %d\n", line + 2,
				       fd < 0 ? -errno : 0);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		if (line[0] == 'o' && line[1] == ' ') {
			int fd = open(line + 2, O_RDONLY);

			printf("open %s: %d\n", line + 2, fd < 0 ? -errno : 0);
			if (fd >= 0)
				close(fd);
		}
	}
	return 0;
}
