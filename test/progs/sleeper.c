/* Sleep argv[1] seconds (default 10), then exit 0. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	while (n > 0)
		n = sleep(n);
	return 0;
}
