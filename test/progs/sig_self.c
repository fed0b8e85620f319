/*
 * Send itself SIGUSR1 (caught: prints "handled N") and then, with argument
 * "term", SIGTERM (default action: the process dies of it).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got++;
}

int main(int argc, char **argv)
{
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	printf("handled %d\n", (int)got);
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "term"))
		kill(getpid(), SIGTERM);
	return 0;
}
