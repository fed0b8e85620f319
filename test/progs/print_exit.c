/*
 * Print argv[1] (if given and not empty) on a line, then exit with code
 * argv[2] (default 0).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0])
		printf("%s\n", argv[1]);
	return argc > 2 ? atoi(argv[2]) : 0;
}
