// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The program of test/cli/gdbsec.sh, whose memory a gdb that should
 * change nothing must leave as it was: a page filled with a pattern and
 * a function's code, summed at the start.  It prints the page's address
 * and its uid, stops itself with SIGUSR1 (a handler takes it: gdb sees
 * the stop, passing it or not changes nothing), then checks both again
 * and prints "intact" or what changed.  With "wait" it then waits to be
 * killed (for the gdbs that come after the first).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned char page[4096];

static void on_usr1(int sig)
{
	(void)sig;
}

__attribute__((noinline)) static unsigned code_sum(void)
{
	const unsigned char *p = (const unsigned char *)on_usr1;
	unsigned s = 0;
	int i;

	for (i = 0; i < 64; i++)
		s = s * 31 + p[i];
	return s;
}

int main(int argc, char **argv)
{
	unsigned before = code_sum();
	int i, bad = 0;

	for (i = 0; i < (int)sizeof(page); i++)
		page[i] = (unsigned char)(i * 7 + 3);
	signal(SIGUSR1, on_usr1);
	printf("page %p uid %u\n", (void *)page, (unsigned)getuid());
	fflush(stdout);
	raise(SIGUSR1);
	for (i = 0; i < (int)sizeof(page); i++)
		if (page[i] != (unsigned char)(i * 7 + 3))
			bad++;
	if (bad || code_sum() != before)
		printf("changed: %d bytes of the page, code %s\n", bad,
		       code_sum() != before ? "changed" : "intact");
	else
		printf("intact\n");
	fflush(stdout);
	while (argc > 1 && !strcmp(argv[1], "wait"))
		pause();
	return 0;
}
