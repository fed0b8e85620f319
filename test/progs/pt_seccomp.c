// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program's own SECCOMP_RET_TRACE filter: with no tracer asking for it
 * the call fails with ENOSYS; a tracer with PTRACE_O_TRACESECCOMP gets a
 * PTRACE_EVENT_SECCOMP stop carrying the filter's data.
 */
#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include "pt_common.h"

static void filter_getppid(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 5),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		die("seccomp: %s", strerror(errno));
}

int main(void)
{
	struct __ptrace_syscall_info in;
	unsigned long msg = 0;
	pid_t pid;
	long size;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		long r;

		filter_getppid();
		r = syscall(SYS_getppid);
		printf("untraced: %ld %s\n", r, r < 0 ? strerror(errno) : "");
		_exit(0);
	}
	st = pt_wait(pid, 0);
	printf("untraced child: %s\n", pt_status(st));

	pid = fork();
	if (pid == 0) {
		long pp = syscall(SYS_getppid), r;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		filter_getppid();
		r = syscall(SYS_getppid);
		printf("traced: is parent %d\n", r == pp);
		_exit(0);
	}
	pt_wait(pid, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESECCOMP);
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("stop: %s\n", pt_status(st));
	ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
	memset(&in, 0, sizeof(in));
	size = ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(in), &in);
	printf("message %lu, info size %ld op %d nr-is-getppid %d data %u\n",
	       msg, size, in.op, in.seccomp.nr == SYS_getppid,
	       in.seccomp.ret_data);
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("end: %s\n", pt_status(st));
	return 0;
}
