/*
 * slow_reader OUT: copy standard input to OUT slowly, a reader that lags
 * behind its writer: nothing for the first 100 ms (the writer's pipe
 * fills), then 1 KiB a millisecond at most.  The pace only shapes the
 * load; nothing waits on it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec first = { 0, 100000000 }, ms = { 0, 1000000 };
	char buf[1024];
	ssize_t n;
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	nanosleep(&first, NULL);
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, n) != n) {
			perror("write");
			return 1;
		}
		nanosleep(&ms, NULL);
	}
	return n < 0;
}
