// SPDX-License-Identifier: LGPL-2.1-or-later
/* A program that dies of SIGSEGV three calls deep: gdb's backtrace test. */
static void __attribute__((noinline)) boom(volatile int *p)
{
	*p = 42;
}

static void __attribute__((noinline)) middle(volatile int *p)
{
	boom(p);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	middle((volatile int *)0);
	return 0;
}
