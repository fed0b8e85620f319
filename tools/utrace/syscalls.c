// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Syscall names come from libseccomp; nothing here maps numbers by hand.
 * The trace classes (%file, %desc ...) are lists of names, as strace's
 * own sysent flags define them for x86_64.
 */
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

static char *names[NR_MAX];
static bool resolved[NR_MAX];

/*
 * The last x86_64 syscall strace 6.1 knows (set_mempolicy_home_node): it
 * prints later ones (cachestat ...) as syscall_0x1c3(...) with raw
 * arguments, and rejects their names in -e trace=.
 */
#define STRACE_NR_LAST	450

const char *sys_name(long nr)
{
	if (nr < 0 || nr >= NR_MAX || nr > STRACE_NR_LAST)
		return NULL;
	if (!resolved[nr]) {
		resolved[nr] = true;
		names[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64,
							     (int)nr);
	}
	return names[nr];
}

long sys_number(const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);

	return nr < 0 || nr >= NR_MAX || nr > STRACE_NR_LAST ? -1 : nr;
}

/*
 * Syscalls without a decoder of their own: one character per argument,
 * in order, saying how decode_args() prints it:
 *   d int  D long  U unsigned int  u unsigned long  x hex  p pointer
 *   f descriptor  a directory descriptor (AT_FDCWD)  s path  c string
 *   o mode  S signal  C clock  T struct timespec
 * and after a '>' how the result is printed (f descriptor, x hex).
 * Argument counts are strace's (its x86_64 syscallent.h).
 */
static const struct {
	const char *name;
	const char *args;
} sigs[] = {
	{ "add_key", "ccpud" }, { "adjtimex", "p" },
	{ "afs_syscall", "xxxxx" }, { "bpf", "dpU" }, { "cachestat", "fppU" },
	{ "clock_adjtime", "Cp" }, { "clock_settime", "CT" },
	{ "create_module", "cu" }, { "delete_module", "cx" },
	{ "epoll_ctl_old", "xxxx" }, { "epoll_pwait2", "fpdTpu" },
	{ "epoll_wait_old", "xxxx" }, { "eventfd", "U>f" },
	{ "fanotify_init", "xx>f" }, { "fanotify_mark", "fxxas" },
	{ "fchmodat2", "asox" }, { "finit_module", "fcx" },
	{ "flistxattr", "fpu" }, { "fork", "" }, { "fremovexattr", "fc" },
	{ "fsconfig", "fdcpd" }, { "fsmount", "fxx>f" }, { "fsopen", "cx>f" },
	{ "fspick", "asx>f" }, { "futex_requeue", "pxdd" },
	{ "futex_wait", "pxxxTC" }, { "futex_waitv", "pUxTC" },
	{ "futex_wake", "pxdx" }, { "futimesat", "asp" },
	{ "get_kernel_syms", "p" }, { "get_thread_area", "p" },
	{ "getegid", "" }, { "geteuid", "" }, { "getgid", "" },
	{ "getpgrp", "" }, { "getpid", "" }, { "getpmsg", "xxxxx" },
	{ "getppid", "" }, { "gettid", "" }, { "getuid", "" },
	{ "init_module", "puc" }, { "inotify_init", ">f" },
	{ "io_cancel", "xpp" }, { "io_destroy", "p" },
	{ "io_getevents", "xDDpT" }, { "io_pgetevents", "xDDpTp" },
	{ "io_setup", "Up" }, { "io_submit", "xDp" },
	{ "io_uring_enter", "fUUxpu" }, { "io_uring_register", "fUpU" },
	{ "io_uring_setup", "Up>f" }, { "ioperm", "xxd" }, { "iopl", "d" },
	{ "kexec_file_load", "ffucx" }, { "kexec_load", "xupx" },
	{ "keyctl", "dxxxx" }, { "landlock_add_rule", "fdpx" },
	{ "landlock_create_ruleset", "pux>f" },
	{ "landlock_restrict_self", "fx" }, { "lookup_dcookie", "xpu" },
	{ "lremovexattr", "sc" }, { "map_shadow_stack", "xux>x" },
	{ "memfd_secret", "x>f" }, { "migrate_pages", "dupp" },
	{ "mincore", "pup" }, { "mlock2", "pux" }, { "modify_ldt", "dpu" },
	{ "mount", "sscxp" }, { "mount_setattr", "asxpu" },
	{ "move_mount", "asasx" }, { "move_pages", "dupppx" },
	{ "mq_getsetattr", "fpp" }, { "mq_notify", "fp" },
	{ "mq_open", "cxop>f" }, { "mq_timedreceive", "fpupT" },
	{ "mq_timedsend", "fpuUT" }, { "mq_unlink", "c" }, { "msgctl", "dxp" },
	{ "msgget", "xx" }, { "msgrcv", "dpuDx" }, { "msgsnd", "dpux" },
	{ "munlockall", "" }, { "name_to_handle_at", "asppx" },
	{ "nfsservctl", "xxx" }, { "open_by_handle_at", "fpx>f" },
	{ "open_tree", "asx>f" }, { "pause", "" },
	{ "perf_event_open", "pddfx>f" }, { "pidfd_getfd", "ffx>f" },
	{ "pidfd_open", "dx>f" }, { "pidfd_send_signal", "fSpx" },
	{ "pivot_root", "ss" }, { "pkey_free", "d" },
	{ "process_mrelease", "fx" }, { "process_vm_readv", "dpupux" },
	{ "process_vm_writev", "dpupux" }, { "ptrace", "xdpp" },
	{ "putpmsg", "xxxxx" }, { "query_module", "xxxxx" },
	{ "quotactl", "xsdp" }, { "quotactl_fd", "fxdp" },
	{ "readahead", "fDu" }, { "reboot", "xxxp" }, { "recvmmsg", "fpUxT" },
	{ "remap_file_pages", "puxux" }, { "removexattr", "sc" },
	{ "request_key", "cccd" }, { "restart_syscall", "" },
	{ "sched_getattr", "dpUx" }, { "sched_setattr", "dpx" },
	{ "sched_yield", "" }, { "security", "xxx" }, { "semctl", "ddxp" },
	{ "semget", "xdx" }, { "semop", "dpu" }, { "semtimedop", "dpuT" },
	{ "sendmmsg", "fpUx" }, { "set_mempolicy_home_node", "puux" },
	{ "set_thread_area", "p" }, { "setdomainname", "cu" },
	{ "sethostname", "cu" }, { "setsid", "" }, { "settimeofday", "pp" },
	{ "shmat", "dpx>x" }, { "shmctl", "dxp" }, { "shmdt", "p" },
	{ "shmget", "xux" }, { "splice", "fpfpux" }, { "swapoff", "s" },
	{ "swapon", "sx" }, { "sync", "" }, { "sync_file_range", "fDDx" },
	{ "_sysctl", "p" }, { "sysfs", "dxx" }, { "syslog", "dpd" },
	{ "tee", "ffux" }, { "timer_delete", "d" },
	{ "timer_getoverrun", "d" }, { "tuxcall", "xxx" }, { "umount2", "sx" },
	{ "uselib", "s" }, { "userfaultfd", "x>f" }, { "ustat", "xp" },
	{ "utime", "sp" }, { "utimes", "sp" }, { "vfork", "" },
	{ "vhangup", "" }, { "vmsplice", "fpux" }, { "vserver", "xxxxx" },
};

static const char *args_by_nr[NR_MAX];
static bool args_ready;

const char *sys_args(long nr)
{
	size_t i;

	if (!args_ready) {
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			long n = sys_number(sigs[i].name);

			if (n >= 0)
				args_by_nr[n] = sigs[i].args;
		}
		args_ready = true;
	}
	return nr >= 0 && nr < NR_MAX ? args_by_nr[nr] : NULL;
}

/*
 * Classes, as strace 6.1 traces them (checked by tracing every x86_64 syscall
 * number under each class); each string is space-separated names.
 */
static const struct {
	const char *cls;
	const char *names;
} classes[] = {
	{ "file",
	  "open stat lstat access execve truncate getcwd chdir rename mkdir "
	  "rmdir creat link unlink symlink readlink chmod chown lchown utime "
	  "mknod uselib statfs pivot_root chroot acct mount umount2 swapon "
	  "swapoff quotactl setxattr lsetxattr getxattr lgetxattr listxattr "
	  "llistxattr removexattr lremovexattr utimes inotify_add_watch "
	  "openat mkdirat mknodat fchownat futimesat newfstatat unlinkat "
	  "renameat linkat symlinkat readlinkat fchmodat faccessat utimensat "
	  "fanotify_mark name_to_handle_at renameat2 execveat statx "
	  "open_tree move_mount fsconfig fspick openat2 faccessat2 "
	  "mount_setattr" },
	{ "desc",
	  "read write open close fstat poll lseek mmap ioctl pread64 pwrite64 "
	  "readv writev pipe select dup dup2 sendfile fcntl flock fsync "
	  "fdatasync ftruncate getdents fchdir creat fchmod fchown fstatfs "
	  "readahead fsetxattr fgetxattr flistxattr fremovexattr epoll_create "
	  "getdents64 fadvise64 epoll_wait epoll_ctl mq_open mq_timedsend "
	  "mq_timedreceive mq_notify mq_getsetattr inotify_init "
	  "inotify_add_watch inotify_rm_watch openat mkdirat mknodat fchownat "
	  "futimesat newfstatat unlinkat renameat linkat symlinkat readlinkat "
	  "fchmodat faccessat pselect6 ppoll splice tee sync_file_range "
	  "vmsplice utimensat epoll_pwait signalfd timerfd_create eventfd "
	  "fallocate timerfd_settime timerfd_gettime signalfd4 eventfd2 "
	  "epoll_create1 dup3 pipe2 inotify_init1 preadv pwritev "
	  "perf_event_open fanotify_init fanotify_mark name_to_handle_at "
	  "open_by_handle_at syncfs setns finit_module renameat2 memfd_create "
	  "kexec_file_load bpf execveat userfaultfd copy_file_range preadv2 "
	  "pwritev2 statx pidfd_send_signal io_uring_setup io_uring_enter "
	  "io_uring_register open_tree move_mount fsopen fsconfig fsmount "
	  "fspick pidfd_open openat2 pidfd_getfd faccessat2 "
	  "process_madvise epoll_pwait2 mount_setattr quotactl_fd "
	  "landlock_create_ruleset landlock_add_rule landlock_restrict_self "
	  "memfd_secret process_mrelease" },
	{ "process",
	  "clone fork vfork execve exit wait4 kill rt_sigqueueinfo tkill "
	  "exit_group tgkill waitid rt_tgsigqueueinfo execveat "
	  "pidfd_send_signal clone3" },
	{ "network",
	  "sendfile socket connect accept sendto recvfrom sendmsg recvmsg "
	  "shutdown bind listen getsockname getpeername socketpair setsockopt "
	  "getsockopt getpmsg putpmsg accept4 recvmmsg sendmmsg" },
	{ "signal",
	  "rt_sigaction rt_sigprocmask rt_sigreturn pause kill rt_sigpending "
	  "rt_sigtimedwait rt_sigqueueinfo rt_sigsuspend sigaltstack tkill "
	  "tgkill signalfd signalfd4 rt_tgsigqueueinfo pidfd_send_signal "
	  "io_uring_enter" },
	{ "memory",
	  "mmap mprotect munmap brk mremap msync mincore madvise shmat shmdt "
	  "mlock munlock mlockall munlockall io_setup io_destroy "
	  "remap_file_pages mbind set_mempolicy get_mempolicy migrate_pages "
	  "move_pages mlock2 pkey_mprotect io_uring_register "
	  "set_mempolicy_home_node" },
	{ "creds",
	  "getuid getgid setuid setgid geteuid getegid setreuid setregid "
	  "getgroups setgroups setresuid getresuid setresgid getresgid "
	  "setfsuid setfsgid capget capset prctl" },
	{ "ipc",
	  "shmget shmat shmctl semget semop semctl shmdt msgget msgsnd msgrcv "
	  "msgctl semtimedop" },
	{ "clock",
	  "gettimeofday adjtimex settimeofday time clock_settime clock_gettime "
	  "clock_getres clock_adjtime" },
	{ "pure",
	  "getpid getuid getgid geteuid getegid getppid getpgrp gettid" },
	{ "stat", "stat" },
	{ "lstat", "lstat" },
	{ "fstat", "fstat newfstatat statx" },
	{ "%stat", "stat fstat lstat newfstatat statx" },
	{ "statfs", "statfs" },
	{ "fstatfs", "fstatfs" },
	{ "%statfs", "ustat statfs fstatfs" },
};

bool sys_class(const char *cls, bool *set)
{
	size_t i;

	if (!strcmp(cls, "net"))
		cls = "network";
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const char *p = classes[i].names;

		if (strcmp(cls, classes[i].cls))
			continue;
		while (*p) {
			char name[64];
			size_t n = strcspn(p, " ");
			long nr;

			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, p, n);
			name[n] = '\0';
			nr = sys_number(name);
			if (nr >= 0)
				set[nr] = true;
			p += n;
			while (*p == ' ')
				p++;
		}
		return true;
	}
	return false;
}
