/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Between the serving side (serve.c) and the joining side (remote.c) of
 * sharing, and the queue calls a joined queue carries over the socket.
 */
#ifndef UTRACE_SHARE_H
#define UTRACE_SHARE_H

#include <stdbool.h>
#include <sys/types.h>
#include "utrace.h"

/* serve.c: where the sockets live */
void utrace__serve_dir(uid_t uid, char *buf, size_t size);
int utrace__serve_dir_ok(const char *dir, uid_t uid);

/* remote.c: a connected queue */
struct utrace__conn;
struct utrace_queue *utrace__queue_remote(struct utrace__conn *c);
int utrace__rq_watch(struct utrace__conn *c, pid_t tid, unsigned flags,
		     unsigned long events, unsigned long hold);
int utrace__rq_unwatch(struct utrace__conn *c, pid_t tid, unsigned flags);
int utrace__rq_set_syscalls(struct utrace__conn *c, pid_t tid,
			    const long *nrs, size_t n);
int utrace__rq_reply(struct utrace__conn *c, uint64_t id,
		     const struct utrace_reply *r);
int utrace__rq_stop(struct utrace__conn *c, pid_t pid, int timeout_ms);
int utrace__rq_resume(struct utrace__conn *c, pid_t pid);
int utrace__rq_regs(struct utrace__conn *c, pid_t tid,
		    struct user_regs_struct *out,
		    const struct user_regs_struct *in);
ssize_t utrace__rq_memv(struct utrace__conn *c, pid_t tid,
			const struct utrace_iov *iov, size_t n, bool write);
ssize_t utrace__rq_regset(struct utrace__conn *c, pid_t tid,
			  unsigned int type, void *buf, size_t len,
			  bool write);
int utrace__rq_debugreg(struct utrace__conn *c, pid_t tid, int n,
			uint64_t *value, bool write);
int utrace__rq_resume_thread(struct utrace__conn *c, pid_t tid,
			     uint32_t action);
int utrace__rq_next(struct utrace__conn *c, struct utrace_event *ev,
		    int timeout_ms);
int utrace__rq_fd(struct utrace__conn *c);
void utrace__rq_free(struct utrace__conn *c);

#endif
