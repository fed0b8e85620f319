/* Print each argument, $UT_VAR and the working directory, one per line. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char cwd[4096];
	const char *v = getenv("UT_VAR");

	for (int i = 1; i < argc; i++)
		printf("ARG=%s\n", argv[i]);
	printf("ENV=%s\n", v ? v : "(unset)");
	printf("CWD=%s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "(error)");
	return 0;
}
