/*
 * Write one '.' to standard output every 5 ms, for argv[1] seconds
 * (default 10), then exit 0.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);

	while (time(NULL) < end) {
		if (write(1, ".", 1) != 1)
			return 1;
		usleep(5000);
	}
	return 0;
}
