// SPDX-License-Identifier: LGPL-2.1-or-later
/* getppid_loop - call getppid() N times (argv[1], default 10000), exit 0. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
