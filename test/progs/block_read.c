/*
 * Block in read() on standard input; print "got:" and what was read, then
 * exit 0 (exit 1 on end of file or error).
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[256];
	ssize_t n = read(0, buf, sizeof(buf) - 1);

	if (n <= 0)
		return 1;
	buf[n] = '\0';
	printf("got:%s", buf);
	return 0;
}
