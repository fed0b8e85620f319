/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the decoder files (decode_*.c, one per family) share: the
 * argument shorthands and the functions of one family used by another
 * or by the syscall table.
 */
#ifndef UT_DECODERS_H
#define UT_DECODERS_H

#include <stdbool.h>
#include <sys/time.h>

#include "decode/decode.h"

#define A(i)	(c->a[i])
#define IA(i)	((int)c->a[i])
#define SEP()	dec_sep(c)
/* Bound on the iovecs summed to find how much a writev() wrote. */
#define MAX_IOV 1024

#define failed(c)	dec_failed(c)

/* Pointer printed at exit only if the call succeeded, else the address. */
bool out_ok(struct dec_ctx *c, unsigned long addr);
/*
 * What a call wrote at addr, into buf when it is to be decoded; false when
 * it is not, with NULL or the address printed already (out_ok, or memory
 * that cannot be read).
 */
bool dec_read_out(struct dec_ctx *c, unsigned long addr, void *buf,
		  size_t len);

/*
 * The syscall table's argument kinds (syscalls.c) drive the printing of
 * what twins share: open and openat, stat and fstat, getxattr and
 * fgetxattr... differ only in the arguments that name the file (a path, a
 * descriptor, a directory descriptor and a path), and one decoder serves
 * them all by printing those as their kinds say.
 * dec_arg: argument i as its kind says.  dec_args: arguments from to
 * to - 1, ", " between them.  dec_kind_index: the first argument of that
 * kind, -1 if none.
 */
void dec_arg(struct dec_ctx *c, int i);
void dec_args(struct dec_ctx *c, int from, int to);
int dec_kind_index(const struct dec_ctx *c, char kind);

/* decode_file.c */
bool d_access(struct dec_ctx *c);
bool d_at_flags(struct dec_ctx *c);
bool d_creat(struct dec_ctx *c);
bool d_faccessat2(struct dec_ctx *c);
bool d_getcwd(struct dec_ctx *c);
bool d_getdents(struct dec_ctx *c);
bool d_getxattr(struct dec_ctx *c);
bool d_listxattr(struct dec_ctx *c);
bool d_mknod(struct dec_ctx *c);
bool d_open(struct dec_ctx *c);
bool d_openat2(struct dec_ctx *c);
bool d_readlink(struct dec_ctx *c);
bool d_renameat2(struct dec_ctx *c);
bool d_setxattr(struct dec_ctx *c);
bool d_stat(struct dec_ctx *c);
bool d_statfs(struct dec_ctx *c);
bool d_statx(struct dec_ctx *c);
bool d_symlink(struct dec_ctx *c);
bool d_umask(struct dec_ctx *c);
bool d_utimensat(struct dec_ctx *c);
void put_open_flags(struct dec_ctx *c, unsigned long flags);
void put_out_str(struct dec_ctx *c, unsigned long addr, long len);

/* decode_desc.c */
bool d_close_range(struct dec_ctx *c);
bool d_copy_file_range(struct dec_ctx *c);
bool d_dup(struct dec_ctx *c);
bool d_dup2(struct dec_ctx *c);
bool d_dup3(struct dec_ctx *c);
bool d_epoll_create1(struct dec_ctx *c);
bool d_epoll_ctl(struct dec_ctx *c);
bool d_epoll_wait(struct dec_ctx *c);
bool d_eventfd2(struct dec_ctx *c);
bool d_fadvise(struct dec_ctx *c);
bool d_fallocate(struct dec_ctx *c);
bool d_fcntl(struct dec_ctx *c);
bool d_flock(struct dec_ctx *c);
bool d_inotify_add_watch(struct dec_ctx *c);
bool d_inotify_init1(struct dec_ctx *c);
bool d_inotify_rm_watch(struct dec_ctx *c);
bool d_lseek(struct dec_ctx *c);
bool d_memfd_create(struct dec_ctx *c);
bool d_pipe(struct dec_ctx *c);
bool d_pipe2(struct dec_ctx *c);
bool d_poll(struct dec_ctx *c);
bool d_ppoll(struct dec_ctx *c);
bool d_pread(struct dec_ctx *c);
bool d_preadv(struct dec_ctx *c);
bool d_preadv2(struct dec_ctx *c);
bool d_vmsplice(struct dec_ctx *c);
bool d_pwrite(struct dec_ctx *c);
bool d_pwritev(struct dec_ctx *c);
bool d_pwritev2(struct dec_ctx *c);
bool d_read(struct dec_ctx *c);
bool d_readv(struct dec_ctx *c);
bool d_select(struct dec_ctx *c);
bool d_sendfile(struct dec_ctx *c);
bool d_write(struct dec_ctx *c);
bool d_writev(struct dec_ctx *c);
void dec_iov_nl(struct dec_ctx *c, unsigned long addr, unsigned long cnt,
		long data_len, int proto);
/* Netlink messages (decode_netlink.c); dec_sockbuf: them or a string. */
int dec_netlink_proto(struct dec_ctx *c, int fd);
void dec_netlink(struct dec_ctx *c, int proto, unsigned long addr,
		 unsigned long len);
void dec_sockbuf(struct dec_ctx *c, int fd, unsigned long addr,
		 unsigned long len);
/* -X raw/verbose: a field's bytes in hex before (or instead of) its text. */
bool dec_xraw_begin(struct dec_ctx *c, const void *raw, size_t n);
void dec_xraw_end(struct dec_ctx *c);
void dec_iov(struct dec_ctx *c, unsigned long addr, unsigned long cnt,
		    long data_len);
void put_fd_pair(struct dec_ctx *c, unsigned long addr);

/* decode_mem.c */
bool d_addr_len(struct dec_ctx *c);
bool d_brk(struct dec_ctx *c);
bool d_get_mempolicy(struct dec_ctx *c);
bool d_madvise(struct dec_ctx *c);
bool d_mbind(struct dec_ctx *c);
bool d_mlockall(struct dec_ctx *c);
bool d_mmap(struct dec_ctx *c);
bool d_mprotect(struct dec_ctx *c);
bool d_mremap(struct dec_ctx *c);
bool d_msync(struct dec_ctx *c);
bool d_munmap(struct dec_ctx *c);
bool d_pkey_alloc(struct dec_ctx *c);
bool d_pkey_mprotect(struct dec_ctx *c);
bool d_process_madvise(struct dec_ctx *c);
bool d_set_mempolicy(struct dec_ctx *c);

/* decode_signal.c */
bool d_alarm(struct dec_ctx *c);
bool d_kill(struct dec_ctx *c);
bool d_rt_sigaction(struct dec_ctx *c);
bool d_rt_sigpending(struct dec_ctx *c);
bool d_rt_sigprocmask(struct dec_ctx *c);
bool d_rt_sigqueueinfo(struct dec_ctx *c);
bool d_rt_sigreturn(struct dec_ctx *c);
bool d_rt_sigsuspend(struct dec_ctx *c);
bool d_rt_sigtimedwait(struct dec_ctx *c);
bool d_rt_tgsigqueueinfo(struct dec_ctx *c);
bool d_sigaltstack(struct dec_ctx *c);
bool d_signalfd(struct dec_ctx *c);
bool d_tgkill(struct dec_ctx *c);

/* decode_process.c */
bool d_arch_prctl(struct dec_ctx *c);
bool d_clone(struct dec_ctx *c);
bool d_clone3(struct dec_ctx *c);
bool d_execve(struct dec_ctx *c);
bool d_exit(struct dec_ctx *c);
bool d_get_robust_list(struct dec_ctx *c);
bool d_getgroups(struct dec_ctx *c);
bool d_getpriority(struct dec_ctx *c);
bool d_getresuid(struct dec_ctx *c);
bool d_getrlimit(struct dec_ctx *c);
bool d_getrusage(struct dec_ctx *c);
bool d_ioprio(struct dec_ctx *c);
bool d_personality(struct dec_ctx *c);
bool d_prlimit64(struct dec_ctx *c);
bool d_rseq(struct dec_ctx *c);
bool d_set_robust_list(struct dec_ctx *c);
bool d_set_tid_address(struct dec_ctx *c);
bool d_setgroups(struct dec_ctx *c);
bool d_setns(struct dec_ctx *c);
bool d_setrlimit(struct dec_ctx *c);
bool d_times(struct dec_ctx *c);
bool d_unshare(struct dec_ctx *c);
bool d_wait4(struct dec_ctx *c);
bool d_waitid(struct dec_ctx *c);

/* decode_prctl.c */
bool d_capget(struct dec_ctx *c);
bool d_capset(struct dec_ctx *c);
bool d_prctl(struct dec_ctx *c);

/* decode_sched.c */
bool d_getcpu(struct dec_ctx *c);
bool d_sched_getaffinity(struct dec_ctx *c);
bool d_sched_param(struct dec_ctx *c);
bool d_sched_policy(struct dec_ctx *c);
bool d_sched_rr_get_interval(struct dec_ctx *c);
bool d_sched_setaffinity(struct dec_ctx *c);
bool d_sched_setscheduler(struct dec_ctx *c);

/* decode_time.c */
bool d_clock_gettime(struct dec_ctx *c);
bool d_clock_nanosleep(struct dec_ctx *c);
bool d_getitimer(struct dec_ctx *c);
bool d_gettime(struct dec_ctx *c);
bool d_gettimeofday(struct dec_ctx *c);
bool d_nanosleep(struct dec_ctx *c);
bool d_settime(struct dec_ctx *c);
bool d_time(struct dec_ctx *c);
bool d_timer_create(struct dec_ctx *c);
bool d_timerfd_create(struct dec_ctx *c);
void dec_timeval(struct dec_ctx *c, unsigned long addr);
void put_timeval(struct dec_ctx *c, const struct timeval *tv);

/* decode_net.c */
bool d_accept(struct dec_ctx *c);
bool d_connect(struct dec_ctx *c);
bool d_getsockname(struct dec_ctx *c);
bool d_getsockopt(struct dec_ctx *c);
bool d_listen(struct dec_ctx *c);
bool d_recvfrom(struct dec_ctx *c);
bool d_recvmsg(struct dec_ctx *c);
bool d_recvmmsg(struct dec_ctx *c);
bool d_sendmsg(struct dec_ctx *c);
bool d_sendmmsg(struct dec_ctx *c);
bool d_sendto(struct dec_ctx *c);
bool d_setsockopt(struct dec_ctx *c);
bool d_shutdown(struct dec_ctx *c);
bool d_socket(struct dec_ctx *c);
bool d_socketpair(struct dec_ctx *c);

/* decode_misc.c */
bool d_futex(struct dec_ctx *c);
bool d_getrandom(struct dec_ctx *c);
bool d_kcmp(struct dec_ctx *c);
bool d_membarrier(struct dec_ctx *c);
bool d_seccomp(struct dec_ctx *c);
void dec_bpf_fprog(struct dec_ctx *c, unsigned long addr, bool seccomp);
bool d_sysinfo(struct dec_ctx *c);
bool d_uname(struct dec_ctx *c);
bool d_restart_syscall(struct dec_ctx *c);
bool d_mq_open(struct dec_ctx *c);
bool d_mq_timedsend(struct dec_ctx *c);
bool d_mq_timedreceive(struct dec_ctx *c);

/* decode_ptrace.c */
bool d_ptrace(struct dec_ctx *c);

/* decode_ioctl.c */
bool d_ioctl(struct dec_ctx *c);

/* decode_kvm.c: KVM's requests (type 0xae), for d_ioctl. */
const char *kvm_ioctl_name(unsigned req);
bool dec_kvm_ioctl(struct dec_ctx *c, unsigned req);

#endif
