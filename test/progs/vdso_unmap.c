// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * getpid() as a system call, then the vDSO unmapped, then getpid() again
 * (test/lib/run_syscall: a tracer makes calls in this thread at those
 * exits, through the vDSO's syscall instruction, then without one).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* Unmap the mappings named @name in /proc/self/maps; their count. */
static int unmap(const char *name)
{
	unsigned long lo[8], hi[8];
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (n < 8 && fgets(line, sizeof(line), f))
		if (strstr(line, name) &&
		    sscanf(line, "%lx-%lx", &lo[n], &hi[n]) == 2)
			n++;
	fclose(f);
	for (int i = 0; i < n; i++)
		if (munmap((void *)lo[i], hi[i] - lo[i]))
			return -1;
	return n;
}

int main(void)
{
	long a = syscall(SYS_getpid), b;
	int n = unmap("[vdso]");

	b = syscall(SYS_getpid);
	printf("getpid %d %d, vdso unmapped %d\n", a == getpid(), b == a,
	       n == 1);
	return 0;
}
