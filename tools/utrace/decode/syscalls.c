// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syscall table: one row per x86_64 syscall, indexed by number, as
 * strace's syscallent.h is.  A row says everything the CLI knows about a
 * syscall: its name, its arguments (how many, and what each one is), the
 * trace classes it belongs to (-e trace=%file ...) and its decoder.
 *
 * The names are libseccomp's: test/unit/syscalls checks that every row
 * resolves through libseccomp to its own number and that every number
 * libseccomp knows up to the last one strace 6.1 knows has a row, that no
 * name appears twice, that each row's kinds are well formed, and that every
 * decoder of decoders.h is used.  A duplicate index is a build error
 * (-Woverride-init).
 *
 * Argument kinds, one character per argument, in order (their count is the
 * argument count):
 *   d int  D long  U unsigned int  u unsigned long  x hex (a long)
 *   X hex or flags that are an int  p pointer
 *   f descriptor  a directory descriptor (AT_FDCWD)  s path
 *   c string that is not a path  o mode (umode_t)  S signal  C clock
 *   T struct timespec  P a thread or process id (-Y: its comm)
 *   G a process group or session id
 * Before any decoder sees them, arguments whose kind is an int (d U X f
 * a S C) are cut to 32 bits (sign-extended when signed) and modes to 16,
 * as the kernel and strace read them, whatever the caller left in the
 * register's upper half.
 * A syscall without a decoder is printed by its kinds, and after a '>'
 * its result (f descriptor, x hex, P a thread or process id).  With a decoder, the kinds still say
 * which arguments are paths and descriptors.
 */
#include <string.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

#define TF	SC_FILE
#define TD	SC_DESC
#define TP	SC_PROCESS
#define TN	SC_NETWORK
#define TS	SC_SIGNAL
#define TM	SC_MEMORY
#define TC	SC_CREDS
#define TI	SC_IPC
#define TCL	SC_CLOCK
#define PU	SC_PURE
#define TST	SC_STAT
#define TLST	SC_LSTAT
#define TFST	SC_FSTAT
#define TSTA	SC_STAT_LIKE
#define TSF	SC_STATFS
#define TFSF	SC_FSTATFS
#define TSFA	SC_STATFS_LIKE

const struct sysent sysent[NR_SYSENT] = {
	[  0] = { "read", "fpu", TD, d_read },
	[  1] = { "write", "fpu", TD, d_write },
	[  2] = { "open", "sXo", TF|TD, d_open },
	[  3] = { "close", "f", TD, NULL },
	[  4] = { "stat", "sp", TF|TST|TSTA, d_stat },
	[  5] = { "fstat", "fp", TD|TFST|TSTA, d_stat },
	[  6] = { "lstat", "sp", TF|TLST|TSTA, d_stat },
	[  7] = { "poll", "pUd", TD, d_poll },
	[  8] = { "lseek", "fDX", TD, d_lseek },
	[  9] = { "mmap", "puxxfx", TD|TM, d_mmap },
	[ 10] = { "mprotect", "pux", TM, d_mprotect },
	[ 11] = { "munmap", "pu", TM, d_munmap },
	[ 12] = { "brk", "p", TM, d_brk },
	[ 13] = { "rt_sigaction", "Sppu", TS, d_rt_sigaction },
	[ 14] = { "rt_sigprocmask", "Xppu", TS, d_rt_sigprocmask },
	[ 15] = { "rt_sigreturn", "", TS, d_rt_sigreturn },
	[ 16] = { "ioctl", "fXx", TD, d_ioctl },
	[ 17] = { "pread64", "fpuD", TD, d_pread },
	[ 18] = { "pwrite64", "fpuD", TD, d_pwrite },
	[ 19] = { "readv", "fpd", TD, d_readv },
	[ 20] = { "writev", "fpd", TD, d_writev },
	[ 21] = { "access", "sX", TF, d_access },
	[ 22] = { "pipe", "p", TD, d_pipe },
	[ 23] = { "select", "dpppp", TD, d_select },
	[ 24] = { "sched_yield", "", 0, NULL },
	[ 25] = { "mremap", "puuxp", TM, d_mremap },
	[ 26] = { "msync", "puX", TM, d_msync },
	[ 27] = { "mincore", "pup", TM, NULL },
	[ 28] = { "madvise", "puX", TM, d_madvise },
	[ 29] = { "shmget", "xux", TI, NULL },
	[ 30] = { "shmat", "dpx>x", TM|TI, NULL },
	[ 31] = { "shmctl", "dxp", TI, NULL },
	[ 32] = { "dup", "f", TD, d_dup },
	[ 33] = { "dup2", "ff", TD, d_dup2 },
	[ 34] = { "pause", "", TS, NULL },
	[ 35] = { "nanosleep", "pp", 0, d_nanosleep },
	[ 36] = { "getitimer", "Xp", 0, d_getitimer },
	[ 37] = { "alarm", "U", 0, d_alarm },
	[ 38] = { "setitimer", "Xpp", 0, d_getitimer },
	[ 39] = { "getpid", ">P", PU, NULL },
	[ 40] = { "sendfile", "ffpu", TD|TN, d_sendfile },
	[ 41] = { "socket", "XXX", TN, d_socket },
	[ 42] = { "connect", "fpU", TN, d_connect },
	[ 43] = { "accept", "fpp", TN, d_accept },
	[ 44] = { "sendto", "fpuXpU", TN, d_sendto },
	[ 45] = { "recvfrom", "fpuXpp", TN, d_recvfrom },
	[ 46] = { "sendmsg", "fpX", TN, d_sendmsg },
	[ 47] = { "recvmsg", "fpX", TN, d_recvmsg },
	[ 48] = { "shutdown", "fX", TN, d_shutdown },
	[ 49] = { "bind", "fpU", TN, d_connect },
	[ 50] = { "listen", "fd", TN, d_listen },
	[ 51] = { "getsockname", "fpp", TN, d_getsockname },
	[ 52] = { "getpeername", "fpp", TN, d_getsockname },
	[ 53] = { "socketpair", "XXXp", TN, d_socketpair },
	[ 54] = { "setsockopt", "fXXpU", TN, d_setsockopt },
	[ 55] = { "getsockopt", "fXXpp", TN, d_getsockopt },
	[ 56] = { "clone", "xppxx", TP, d_clone },
	[ 57] = { "fork", ">P", TP, NULL },
	[ 58] = { "vfork", ">P", TP, NULL },
	[ 59] = { "execve", "spp", TF|TP, d_execve },
	[ 60] = { "exit", "d", TP, d_exit },
	[ 61] = { "wait4", "dpXp", TP, d_wait4 },
	[ 62] = { "kill", "dS", TP|TS, d_kill },
	[ 63] = { "uname", "p", 0, d_uname },
	[ 64] = { "semget", "xdx", TI, NULL },
	[ 65] = { "semop", "dpu", TI, NULL },
	[ 66] = { "semctl", "ddxp", TI, NULL },
	[ 67] = { "shmdt", "p", TM|TI, NULL },
	[ 68] = { "msgget", "xx", TI, NULL },
	[ 69] = { "msgsnd", "dpux", TI, NULL },
	[ 70] = { "msgrcv", "dpuDx", TI, NULL },
	[ 71] = { "msgctl", "dxp", TI, NULL },
	[ 72] = { "fcntl", "fXx", TD, d_fcntl },
	[ 73] = { "flock", "fX", TD, d_flock },
	[ 74] = { "fsync", "f", TD, NULL },
	[ 75] = { "fdatasync", "f", TD, NULL },
	[ 76] = { "truncate", "sD", TF, NULL },
	[ 77] = { "ftruncate", "fD", TD, NULL },
	[ 78] = { "getdents", "fpU", TD, d_getdents },
	[ 79] = { "getcwd", "pu", TF, d_getcwd },
	[ 80] = { "chdir", "s", TF, NULL },
	[ 81] = { "fchdir", "f", TD, NULL },
	[ 82] = { "rename", "ss", TF, NULL },
	[ 83] = { "mkdir", "so", TF, NULL },
	[ 84] = { "rmdir", "s", TF, NULL },
	[ 85] = { "creat", "so", TF|TD, d_creat },
	[ 86] = { "link", "ss", TF, NULL },
	[ 87] = { "unlink", "s", TF, NULL },
	[ 88] = { "symlink", "cs", TF, d_symlink },
	[ 89] = { "readlink", "spu", TF, d_readlink },
	[ 90] = { "chmod", "so", TF, NULL },
	[ 91] = { "fchmod", "fo", TD, NULL },
	[ 92] = { "chown", "sdd", TF, NULL },
	[ 93] = { "fchown", "fdd", TD, NULL },
	[ 94] = { "lchown", "sdd", TF, NULL },
	[ 95] = { "umask", "o", 0, d_umask },
	[ 96] = { "gettimeofday", "pp", TCL, d_gettimeofday },
	[ 97] = { "getrlimit", "Xp", 0, d_getrlimit },
	[ 98] = { "getrusage", "dp", 0, d_getrusage },
	[ 99] = { "sysinfo", "p", 0, d_sysinfo },
	[100] = { "times", "p", 0, d_times },
	[101] = { "ptrace", "xdpp", 0, d_ptrace },
	[102] = { "getuid", "", TC|PU, NULL },
	[103] = { "syslog", "dpd", 0, NULL },
	[104] = { "getgid", "", TC|PU, NULL },
	[105] = { "setuid", "d", TC, NULL },
	[106] = { "setgid", "d", TC, NULL },
	[107] = { "geteuid", "", TC|PU, NULL },
	[108] = { "getegid", "", TC|PU, NULL },
	[109] = { "setpgid", "PG", 0, NULL },
	[110] = { "getppid", ">P", PU, NULL },
	[111] = { "getpgrp", "", PU, NULL },
	[112] = { "setsid", "", 0, NULL },
	[113] = { "setreuid", "dd", TC, NULL },
	[114] = { "setregid", "dd", TC, NULL },
	[115] = { "getgroups", "dp", TC, d_getgroups },
	[116] = { "setgroups", "dp", TC, d_setgroups },
	[117] = { "setresuid", "ddd", TC, NULL },
	[118] = { "getresuid", "ppp", TC, d_getresuid },
	[119] = { "setresgid", "ddd", TC, NULL },
	[120] = { "getresgid", "ppp", TC, d_getresuid },
	[121] = { "getpgid", "P", 0, NULL },
	[122] = { "setfsuid", "d", TC, NULL },
	[123] = { "setfsgid", "d", TC, NULL },
	[124] = { "getsid", "P", 0, NULL },
	[125] = { "capget", "pp", TC, d_capget },
	[126] = { "capset", "pp", TC, d_capset },
	[127] = { "rt_sigpending", "pu", TS, d_rt_sigpending },
	[128] = { "rt_sigtimedwait", "pppu", TS, d_rt_sigtimedwait },
	[129] = { "rt_sigqueueinfo", "PSp", TP|TS, d_rt_sigqueueinfo },
	[130] = { "rt_sigsuspend", "pu", TS, d_rt_sigsuspend },
	[131] = { "sigaltstack", "pp", TS, d_sigaltstack },
	[132] = { "utime", "sp", TF, NULL },
	[133] = { "mknod", "soU", TF, d_mknod },
	[134] = { "uselib", "s", TF, NULL },
	[135] = { "personality", "X", 0, d_personality },
	[136] = { "ustat", "xp", TSFA, NULL },
	[137] = { "statfs", "sp", TF|TSF|TSFA, d_statfs },
	[138] = { "fstatfs", "fp", TD|TFSF|TSFA, d_statfs },
	[139] = { "sysfs", "dxx", 0, NULL },
	[140] = { "getpriority", "Xd", 0, d_getpriority },
	[141] = { "setpriority", "Xdd", 0, d_getpriority },
	[142] = { "sched_setparam", "Pp", 0, d_sched_param },
	[143] = { "sched_getparam", "Pp", 0, d_sched_param },
	[144] = { "sched_setscheduler", "Pxp", 0, d_sched_setscheduler },
	[145] = { "sched_getscheduler", "P", 0, d_sched_policy },
	[146] = { "sched_get_priority_max", "X", 0, d_sched_policy },
	[147] = { "sched_get_priority_min", "X", 0, d_sched_policy },
	[148] = { "sched_rr_get_interval", "Pp", 0, d_sched_rr_get_interval },
	[149] = { "mlock", "pu", TM, d_addr_len },
	[150] = { "munlock", "pu", TM, d_addr_len },
	[151] = { "mlockall", "X", TM, d_mlockall },
	[152] = { "munlockall", "", TM, NULL },
	[153] = { "vhangup", "", 0, NULL },
	[154] = { "modify_ldt", "dpu", 0, NULL },
	[155] = { "pivot_root", "ss", TF, NULL },
	[156] = { "_sysctl", "p", 0, NULL },
	[157] = { "prctl", "xxxxx", TC, d_prctl },
	[158] = { "arch_prctl", "Xx", 0, d_arch_prctl },
	[159] = { "adjtimex", "p", TCL, NULL },
	[160] = { "setrlimit", "Xp", 0, d_setrlimit },
	[161] = { "chroot", "s", TF, NULL },
	[162] = { "sync", "", 0, NULL },
	[163] = { "acct", "s", TF, NULL },
	[164] = { "settimeofday", "pp", TCL, NULL },
	[165] = { "mount", "sscxp", TF, NULL },
	[166] = { "umount2", "sX", TF, NULL },
	[167] = { "swapon", "sX", TF, NULL },
	[168] = { "swapoff", "s", TF, NULL },
	[169] = { "reboot", "xxxp", 0, NULL },
	[170] = { "sethostname", "cu", 0, NULL },
	[171] = { "setdomainname", "cu", 0, NULL },
	[172] = { "iopl", "d", 0, NULL },
	[173] = { "ioperm", "xxd", 0, NULL },
	[174] = { "create_module", "cu", 0, NULL },
	[175] = { "init_module", "puc", 0, NULL },
	[176] = { "delete_module", "cX", 0, NULL },
	[177] = { "get_kernel_syms", "p", 0, NULL },
	[178] = { "query_module", "xxxxx", 0, NULL },
	[179] = { "quotactl", "xsdp", TF, NULL },
	[180] = { "nfsservctl", "xxx", 0, NULL },
	[181] = { "getpmsg", "xxxxx", TN, NULL },
	[182] = { "putpmsg", "xxxxx", TN, NULL },
	[183] = { "afs_syscall", "xxxxx", 0, NULL },
	[184] = { "tuxcall", "xxx", 0, NULL },
	[185] = { "security", "xxx", 0, NULL },
	[186] = { "gettid", ">P", PU, NULL },
	[187] = { "readahead", "fDu", TD, NULL },
	[188] = { "setxattr", "scpux", TF, d_setxattr },
	[189] = { "lsetxattr", "scpux", TF, d_setxattr },
	[190] = { "fsetxattr", "fcpux", TD, d_setxattr },
	[191] = { "getxattr", "scpu", TF, d_getxattr },
	[192] = { "lgetxattr", "scpu", TF, d_getxattr },
	[193] = { "fgetxattr", "fcpu", TD, d_getxattr },
	[194] = { "listxattr", "spu", TF, d_listxattr },
	[195] = { "llistxattr", "spu", TF, d_listxattr },
	[196] = { "flistxattr", "fpu", TD, d_listxattr },
	[197] = { "removexattr", "sc", TF, NULL },
	[198] = { "lremovexattr", "sc", TF, NULL },
	[199] = { "fremovexattr", "fc", TD, NULL },
	[200] = { "tkill", "PS", TP|TS, d_kill },
	[201] = { "time", "p", TCL, d_time },
	[202] = { "futex", "pXxppx", 0, d_futex },
	[203] = { "sched_setaffinity", "PUp", 0, d_sched_setaffinity },
	[204] = { "sched_getaffinity", "PUp", 0, d_sched_getaffinity },
	[205] = { "set_thread_area", "p", 0, NULL },
	[206] = { "io_setup", "Up", TM, NULL },
	[207] = { "io_destroy", "p", TM, NULL },
	[208] = { "io_getevents", "xDDpT", 0, NULL },
	[209] = { "io_submit", "xDp", 0, NULL },
	[210] = { "io_cancel", "xpp", 0, NULL },
	[211] = { "get_thread_area", "p", 0, NULL },
	[212] = { "lookup_dcookie", "xpu", 0, NULL },
	[213] = { "epoll_create", "d", TD, NULL },
	[214] = { "epoll_ctl_old", "xxxx", 0, NULL },
	[215] = { "epoll_wait_old", "xxxx", 0, NULL },
	[216] = { "remap_file_pages", "puxux", TM, NULL },
	[217] = { "getdents64", "fpU", TD, d_getdents },
	[218] = { "set_tid_address", "p", 0, d_set_tid_address },
	[219] = { "restart_syscall", "", 0, d_restart_syscall },
	[220] = { "semtimedop", "dpuT", TI, NULL },
	[221] = { "fadvise64", "fDDX", TD, d_fadvise },
	[222] = { "timer_create", "Cpp", 0, d_timer_create },
	[223] = { "timer_settime", "dXpp", 0, d_settime },
	[224] = { "timer_gettime", "dp", 0, d_gettime },
	[225] = { "timer_getoverrun", "d", 0, NULL },
	[226] = { "timer_delete", "d", 0, NULL },
	[227] = { "clock_settime", "CT", TCL, NULL },
	[228] = { "clock_gettime", "Cp", TCL, d_clock_gettime },
	[229] = { "clock_getres", "Cp", TCL, d_clock_gettime },
	[230] = { "clock_nanosleep", "CXTp", 0, d_clock_nanosleep },
	[231] = { "exit_group", "d", TP, d_exit },
	[232] = { "epoll_wait", "fpdd", TD, d_epoll_wait },
	[233] = { "epoll_ctl", "fXfp", TD, d_epoll_ctl },
	[234] = { "tgkill", "PPS", TP|TS, d_tgkill },
	[235] = { "utimes", "sp", TF, NULL },
	[236] = { "vserver", "xxxxx", 0, NULL },
	[237] = { "mbind", "puxpux", TM, d_mbind },
	[238] = { "set_mempolicy", "xpu", TM, d_set_mempolicy },
	[239] = { "get_mempolicy", "ppuux", TM, d_get_mempolicy },
	[240] = { "mq_open", "cXop", TD, d_mq_open },
	[241] = { "mq_unlink", "s", 0, NULL },
	[242] = { "mq_timedsend", "fpuUT", TD, d_mq_timedsend },
	[243] = { "mq_timedreceive", "fpupT", TD, d_mq_timedreceive },
	[244] = { "mq_notify", "fp", TD, NULL },
	[245] = { "mq_getsetattr", "fpp", TD, NULL },
	[246] = { "kexec_load", "xupx", 0, NULL },
	[247] = { "waitid", "XdpXp", TP, d_waitid },
	[248] = { "add_key", "ccpud", 0, NULL },
	[249] = { "request_key", "cccd", 0, NULL },
	[250] = { "keyctl", "dxxxx", 0, NULL },
	[251] = { "ioprio_set", "XdX", 0, d_ioprio },
	[252] = { "ioprio_get", "Xd", 0, d_ioprio },
	[253] = { "inotify_init", ">f", TD, NULL },
	[254] = { "inotify_add_watch", "fsX", TF|TD, d_inotify_add_watch },
	[255] = { "inotify_rm_watch", "fd", TD, d_inotify_rm_watch },
	[256] = { "migrate_pages", "Pupp", TM, NULL },
	[257] = { "openat", "asXo", TF|TD, d_open },
	[258] = { "mkdirat", "aso", TF|TD, NULL },
	[259] = { "mknodat", "asoU", TF|TD, d_mknod },
	[260] = { "fchownat", "asddX", TF|TD, d_at_flags },
	[261] = { "futimesat", "asp", TF|TD, NULL },
	[262] = { "newfstatat", "aspX", TF|TD|TFST|TSTA, d_stat },
	[263] = { "unlinkat", "asX", TF|TD, d_at_flags },
	[264] = { "renameat", "asas", TF|TD, NULL },
	[265] = { "linkat", "asasX", TF|TD, d_at_flags },
	[266] = { "symlinkat", "cas", TF|TD, d_symlink },
	[267] = { "readlinkat", "aspu", TF|TD, d_readlink },
	[268] = { "fchmodat", "aso", TF|TD, NULL },
	[269] = { "faccessat", "asX", TF|TD, d_access },
	[270] = { "pselect6", "dppppp", TD, d_select },
	[271] = { "ppoll", "pUTpu", TD, d_ppoll },
	[272] = { "unshare", "x", 0, d_unshare },
	[273] = { "set_robust_list", "pu", 0, d_set_robust_list },
	[274] = { "get_robust_list", "Ppp", 0, d_get_robust_list },
	[275] = { "splice", "fpfpuX", TD, NULL },
	[276] = { "tee", "ffuX", TD, NULL },
	[277] = { "sync_file_range", "fDDX", TD, NULL },
	[278] = { "vmsplice", "fpuX", TD, d_vmsplice },
	[279] = { "move_pages", "Pupppx", TM, NULL },
	[280] = { "utimensat", "aspX", TF|TD, d_utimensat },
	[281] = { "epoll_pwait", "fpddpu", TD, d_epoll_wait },
	[282] = { "signalfd", "fpu", TD|TS, d_signalfd },
	[283] = { "timerfd_create", "CX", TD, d_timerfd_create },
	[284] = { "eventfd", "U>f", TD, NULL },
	[285] = { "fallocate", "fXDD", TD, d_fallocate },
	[286] = { "timerfd_settime", "fXpp", TD, d_settime },
	[287] = { "timerfd_gettime", "fp", TD, d_gettime },
	[288] = { "accept4", "fppX", TN, d_accept },
	[289] = { "signalfd4", "fpuX", TD|TS, d_signalfd },
	[290] = { "eventfd2", "UX", TD, d_eventfd2 },
	[291] = { "epoll_create1", "X", TD, d_epoll_create1 },
	[292] = { "dup3", "ffX", TD, d_dup3 },
	[293] = { "pipe2", "pX", TD, d_pipe2 },
	[294] = { "inotify_init1", "X", TD, d_inotify_init1 },
	[295] = { "preadv", "fpdD", TD, d_preadv },
	[296] = { "pwritev", "fpdD", TD, d_pwritev },
	[297] = { "rt_tgsigqueueinfo", "PPSp", TP|TS, d_rt_tgsigqueueinfo },
	[298] = { "perf_event_open", "pddfx>f", TD, NULL },
	[299] = { "recvmmsg", "fpUXT", TN, d_recvmmsg },
	[300] = { "fanotify_init", "XX>f", TD, NULL },
	[301] = { "fanotify_mark", "fXxas", TF|TD, NULL },
	[302] = { "prlimit64", "Pxpp", 0, d_prlimit64 },
	[303] = { "name_to_handle_at", "asppX", TF|TD, NULL },
	[304] = { "open_by_handle_at", "fpX>f", TD, NULL },
	[305] = { "clock_adjtime", "Cp", TCL, NULL },
	[306] = { "syncfs", "f", TD, NULL },
	[307] = { "sendmmsg", "fpUX", TN, d_sendmmsg },
	[308] = { "setns", "fX", TD, d_setns },
	[309] = { "getcpu", "ppp", 0, d_getcpu },
	[310] = { "process_vm_readv", "Ppupux", 0, NULL },
	[311] = { "process_vm_writev", "Ppupux", 0, NULL },
	[312] = { "kcmp", "PPXuu", 0, d_kcmp },
	[313] = { "finit_module", "fcX", TD, NULL },
	[314] = { "sched_setattr", "PpX", 0, NULL },
	[315] = { "sched_getattr", "PpUX", 0, NULL },
	[316] = { "renameat2", "asasX", TF|TD, d_renameat2 },
	[317] = { "seccomp", "XXp", 0, d_seccomp },
	[318] = { "getrandom", "puX", 0, d_getrandom },
	[319] = { "memfd_create", "cX", TD, d_memfd_create },
	[320] = { "kexec_file_load", "ffucx", TD, NULL },
	[321] = { "bpf", "dpU", TD, NULL },
	[322] = { "execveat", "asppX", TF|TD|TP, d_execve },
	[323] = { "userfaultfd", "X>f", TD, NULL },
	[324] = { "membarrier", "XXd", 0, d_membarrier },
	[325] = { "mlock2", "puX", TM, NULL },
	[326] = { "copy_file_range", "fpfpux", TD, d_copy_file_range },
	[327] = { "preadv2", "fpdDDx", TD, d_preadv2 },
	[328] = { "pwritev2", "fpdDDx", TD, d_pwritev2 },
	[329] = { "pkey_mprotect", "puxd", TM, d_pkey_mprotect },
	[330] = { "pkey_alloc", "XX", 0, d_pkey_alloc },
	[331] = { "pkey_free", "d", 0, NULL },
	[332] = { "statx", "asXXp", TF|TD|TFST|TSTA, d_statx },
	[333] = { "io_pgetevents", "xDDpTp", 0, NULL },
	[334] = { "rseq", "pUXX", 0, d_rseq },
	[424] = { "pidfd_send_signal", "fSpX", TD|TP|TS, NULL },
	[425] = { "io_uring_setup", "Up>f", TD, NULL },
	[426] = { "io_uring_enter", "fUUXpu", TD|TS, NULL },
	[427] = { "io_uring_register", "fUpU", TD|TM, NULL },
	[428] = { "open_tree", "asX>f", TF|TD, NULL },
	[429] = { "move_mount", "asasX", TF|TD, NULL },
	[430] = { "fsopen", "cX>f", TD, NULL },
	[431] = { "fsconfig", "fdcpd", TF|TD, NULL },
	[432] = { "fsmount", "fXX>f", TD, NULL },
	[433] = { "fspick", "asX>f", TF|TD, NULL },
	[434] = { "pidfd_open", "PX>f", TD, NULL },
	[435] = { "clone3", "pu", TP, d_clone3 },
	[436] = { "close_range", "UUX", 0, d_close_range },
	[437] = { "openat2", "aspu", TF|TD, d_openat2 },
	[438] = { "pidfd_getfd", "ffX>f", TD, NULL },
	[439] = { "faccessat2", "asXX", TF|TD, d_faccessat2 },
	[440] = { "process_madvise", "fpuXX", TD, d_process_madvise },
	[441] = { "epoll_pwait2", "fpdTpu", TD, NULL },
	[442] = { "mount_setattr", "asXpu", TF|TD, NULL },
	[443] = { "quotactl_fd", "fxdp", TD, NULL },
	[444] = { "landlock_create_ruleset", "puX>f", TD, NULL },
	[445] = { "landlock_add_rule", "fdpX", TD, NULL },
	[446] = { "landlock_restrict_self", "fX", TD, NULL },
	[447] = { "memfd_secret", "X>f", TD, NULL },
	[448] = { "process_mrelease", "fX", TD, NULL },
	[449] = { "futex_waitv", "pUXTC", 0, NULL },
	[450] = { "set_mempolicy_home_node", "puux", TM, NULL },
};

const struct sysent *sys_ent(long nr)
{
	if (nr < 0 || nr >= NR_SYSENT || !sysent[nr].name)
		return NULL;
	return &sysent[nr];
}

const char *sys_name(long nr)
{
	const struct sysent *s = sys_ent(nr);

	return s ? s->name : NULL;
}

long sys_number(const char *name)
{
	long nr;

	for (nr = 0; nr < NR_SYSENT; nr++)
		if (sysent[nr].name && !strcmp(sysent[nr].name, name))
			return nr;
	return -1;
}

const char *sys_args(long nr)
{
	const struct sysent *s = sys_ent(nr);

	return s ? s->args : NULL;
}

int sys_nargs(long nr)
{
	const char *k = sys_args(nr);

	return k ? (int)strcspn(k, ">") : 6;
}

/*
 * Classes, as strace 6.1 traces them (checked by tracing every x86_64
 * syscall number under each class).
 */
static const struct {
	const char *name;
	unsigned flag;
} classes[] = {
	{ "file", TF }, { "desc", TD }, { "process", TP },
	{ "network", TN }, { "net", TN }, { "signal", TS }, { "memory", TM },
	{ "creds", TC }, { "ipc", TI }, { "clock", TCL }, { "pure", PU },
	{ "stat", TST }, { "lstat", TLST }, { "fstat", TFST },
	{ "%stat", TSTA }, { "statfs", TSF }, { "fstatfs", TFSF },
	{ "%statfs", TSFA },
};

bool sys_class(const char *cls, bool *set)
{
	size_t i;
	long nr;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strcmp(cls, classes[i].name))
			continue;
		for (nr = 0; nr < NR_SYSENT; nr++)
			if (sysent[nr].name && (sysent[nr].classes & classes[i].flag))
				set[nr] = true;
		return true;
	}
	return false;
}

/* Print argument i as its kind in the table says (hex if unknown). */
void dec_arg(struct dec_ctx *c, int i)
{
	const char *k = sys_args(c->nr);
	char kind = k && i < sys_nargs(c->nr) ? k[i] : 'x';

	switch (kind) {
	case 'd': dec_int(c, IA(i)); break;
	case 'D': dec_printf(c, "%ld", (long)A(i)); break;
	case 'U': dec_uint(c, (unsigned)A(i)); break;
	case 'u': dec_ulong(c, A(i)); break;
	case 'p': dec_ptr(c, A(i)); break;
	case 'f': dec_fd(c, IA(i)); break;
	case 'P': dec_pid(c, IA(i)); break;
	case 'G': dec_pgid(c, IA(i)); break;
	case 'a': dec_dirfd(c, IA(i)); break;
	case 's': dec_path(c, A(i)); break;
	case 'c': dec_cstr(c, A(i)); break;
	case 'o': dec_mode(c, (unsigned)A(i)); break;
	case 'X': dec_hex(c, (unsigned)A(i)); break;
	case 'S': dec_signal(c, (unsigned)A(i)); break;
	case 'C': dec_xval(c, xlat_clocks, A(i), "CLOCK_???"); break;
	case 'T': dec_timespec(c, A(i)); break;
	default: dec_hex(c, A(i)); break;
	}
}

void dec_args(struct dec_ctx *c, int from, int to)
{
	int i;

	for (i = from; i < to; i++) {
		if (i > from)
			SEP();
		dec_arg(c, i);
	}
}

int dec_kind_index(const struct dec_ctx *c, char kind)
{
	const char *k = sys_args(c->nr);
	int i, n = sys_nargs(c->nr);

	for (i = 0; k && i < n; i++)
		if (k[i] == kind)
			return i;
	return -1;
}

/* A syscall without a decoder: its arguments by their kinds. */
static bool decode_args(struct dec_ctx *c)
{
	const char *k = sys_args(c->nr);
	int n = sys_nargs(c->nr);

	dec_args(c, 0, n);
	if (k && k[n] == '>')
		c->rval = k[n + 1] == 'f' ? RV_FD :
			  k[n + 1] == 'P' ? RV_PID : RV_HEX;
	return true;
}

/* Cut each argument to its C type's width, as its kind says. */
static void narrow_args(unsigned long *a, const char *sig)
{
	int i;

	for (i = 0; sig && sig[i] && sig[i] != '>' && i < 6; i++) {
		switch (sig[i]) {
		case 'd': case 'f': case 'a': case 'S': case 'C': case 'P':
		case 'G':
			a[i] = (unsigned long)(long)(int)a[i];
			break;
		case 'U': case 'X':
			a[i] = (unsigned)a[i];
			break;
		case 'o':
			a[i] = (unsigned short)a[i];
			break;
		}
	}
}

bool decode_syscall(struct dec_ctx *c)
{
	const struct sysent *s = sys_ent(c->nr);
	unsigned long raw[6];
	bool done;

	if (c->raw) {
		/* -e raw=: the registers as they are, and the result in hex. */
		int i, n = sys_nargs(c->nr);

		for (i = 0; i < n && !c->exiting; i++) {
			if (i)
				SEP();
			dec_hex(c, A(i));
		}
		c->rval = RV_HEX;
		return true;
	}
	/* The decoders see the narrowed values; the caller keeps the raw. */
	memcpy(raw, c->a, sizeof(raw));
	narrow_args(c->a, s ? s->args : NULL);
	if (s && s->decode)
		done = s->decode(c);
	else
		done = c->exiting || decode_args(c);
	memcpy(c->a, raw, sizeof(raw));
	return done;
}
