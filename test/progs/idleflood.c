/*
 * An idle-connection flood for a serving tracer (test/cli/join.sh): opens
 * N connections to the socket PATH and says nothing on them, prints
 * "flooded N", waits for SIGUSR1, then prints how
 * the server turned each connection away: "ETIMEDOUT n EUSERS n other n".
 * The REFUSED message is docs/PROTOCOL.md's: a 12-byte header (type 19),
 * then the errno (i32).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int n = argc > 2 ? atoi(argv[2]) : 0, timedout = 0, users = 0;
	int other = 0, *fds;
	struct rlimit rl;
	sigset_t usr1;
	struct timespec t0;

	if (argc != 3 || n <= 0) {
		fprintf(stderr, "usage: idleflood PATH N\n");
		return 2;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 64) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n + 64 ? rl.rlim_max :
			      (rlim_t)n + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	fds = calloc(n, sizeof(*fds));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	for (int i = 0; i < n; i++) {
		fds[i] = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fds[i] < 0 ||
		    connect(fds[i], (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			perror("idleflood: connect");
			return 1;
		}
	}
	printf("flooded %d\n", n);
	fflush(stdout);
	while (sigwaitinfo(&usr1, NULL) < 0)
		;
	/* The server's HELLO deadline is 5 s: 15 s in all is plenty. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };
		uint8_t b[512];
		int32_t err = 0;
		uint16_t type = 0;
		ssize_t got = 0, k;
		struct timespec now;
		long left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = 15000 - ((now.tv_sec - t0.tv_sec) * 1000 +
				(now.tv_nsec - t0.tv_nsec) / 1000000);
		if (poll(&p, 1, left > 0 ? (int)left : 0) == 1)
			while ((k = recv(fds[i], b + got, sizeof(b) - got,
					 0)) > 0)
				got += k;
		if (got >= 16) {
			memcpy(&type, b + 4, 2);
			memcpy(&err, b + 12, 4);
		}
		if (type == 19 && err == ETIMEDOUT)
			timedout++;
		else if (type == 19 && err == EUSERS)
			users++;
		else
			other++;
	}
	printf("ETIMEDOUT %d EUSERS %d other %d\n", timedout, users, other);
	return 0;
}
