/* Call getppid() N times (argv[1], default 10), then exit 0. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
