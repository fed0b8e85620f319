/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The serving side of sharing, private to it: a server (serve.c: the
 * socket, the server thread, each joiner's output), its connections'
 * requests (requests.c) and the rules on who may watch what (creds.c).
 */
#ifndef UTRACE_SHARE_SERVE_H
#define UTRACE_SHARE_SERVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "core/layer.h"
#include "share/wire.h"

#define OUT_HIGH	(256u << 10)	/* stop taking records above this */
#define COALESCE_MS	1		/* records gather this long per send */
/*
 * Who gets in (docs/PROTOCOL.md, "Limits"): a connection says HELLO
 * within HELLO_MS or is turned away; at most WAITING_PER_UID connections
 * of one uid wait for their HELLO (one more turns away the one waiting
 * longest); a uid has at most JOINERS_PER_UID joined connections, and
 * the server MAX_JOINERS in all.  Every peer turned away is told why.
 */
#define HELLO_MS	5000
#define WAITING_PER_UID	16
#define JOINERS_PER_UID	256
#define MAX_JOINERS	1024

struct pstop {
	struct pstop *next;
	uint32_t seq;
	pid_t pid;		/* or the thread of a STOP_THREAD */
	bool thread;		/* STOP_THREAD */
	long deadline;		/* CLOCK_MONOTONIC ms; -1: none */
};

struct sconn {
	struct sconn *next;
	struct utrace__server *s;
	/*
	 * The output (out*, sending on fd): the server thread holds it while
	 * it works on the connection; the loop thread only tries it.
	 */
	pthread_mutex_t lock;
	atomic_bool kick;		/* the loop could not send: do it */
	/*
	 * The loop thread reads its requests itself (serve.c, "The loop
	 * reads"): the server thread leaves its input alone.  Set and
	 * cleared by the loop thread; armed: its signal is pointed at the
	 * loop thread while it sleeps (loop thread only).
	 */
	atomic_bool fast;
	bool armed;
	bool interactive;		/* it replied or stopped: it waits on us */
	int fd;
	struct utrace_tracer *t;
	struct utrace_queue *q;		/* made at the HELLO */
	long since;			/* accepted (CLOCK_MONOTONIC ms) */
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool cred_ok;			/* cred was read, and is the peer's */
	struct utrace_cred cred;	/* what ptrace's rule weighs of it */
	bool hello;
	atomic_bool closing;
	uint8_t *in;
	size_t inlen, incap;
	uint8_t *out;
	size_t outlen, outoff, outcap;
	bool more;			/* pump stopped at OUT_HIGH: records wait */
	struct pstop *stops;
};

struct utrace__server {
	struct utrace_tracer *t;
	int lfd, wfd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	pthread_t th;
	atomic_bool stop;
	pthread_mutex_t lock;		/* conns: the server adds and removes */
	struct sconn *conns;
	atomic_uint nconns;
	atomic_bool urgent;		/* a kick that must not wait */
	atomic_uint nfast;		/* connections whose fast is set */
	pid_t loop_tid;			/* the tracer's loop thread */
	long accept_again;		/* out of descriptors: not before */
};


/* serve.c: a connection's output */
int utrace__sconn_out(struct sconn *c, uint16_t type, uint32_t seq,
		      const void *a, size_t alen, const void *b, size_t blen);
bool utrace__sconn_pump(struct sconn *c);
void utrace__sconn_flush(struct sconn *c, bool wait);
void utrace__sconn_refuse(struct sconn *c, int err, const char *why);
unsigned utrace__joined_of(struct utrace__server *s, uid_t uid);

/* requests.c */
void utrace__sconn_input(struct sconn *c);
void utrace__sconn_stops_check(struct sconn *c);

/* creds.c */
int utrace__peer_creds(struct sconn *c);
int utrace__may_trace_all(const struct sconn *c, pid_t tid, unsigned flags);

#endif
