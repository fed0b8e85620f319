// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: host I/O (gdbserver's hostio): vFile, gdb reading the
 * program and /proc files through the target, with the rights of the
 * gdb that asks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "gdb/gdb.h"
#include "util/sbuf.h"

bool gdb_read_file(const char *path, struct sbuf *b)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_putn(b, buf, (size_t)n);
	close(fd);
	return true;
}

/*
 * vFile: gdb reads the program and /proc files through the target.  The
 * stub runs on the same machine, so these are its own files; at most 16
 * are open at a time and all close with the connection.  Read only:
 * open, pread, close (and setfs, answered for the stub's own mount
 * namespace).
 *
 * Files are opened with the peer's rights, never utrace's (peer.c says
 * who the peer is): around each open the loop thread takes the peer's
 * filesystem uid and gid, its supplementary groups, and the effective
 * capabilities both hold, through the raw system calls, which change the
 * calling thread alone (glibc's wrappers would change every thread of
 * utrace), and takes its own back at once.  An open file keeps the
 * rights it was opened with, as one the peer opened itself would.  A
 * remote peer that --gdb-any-host lets in gets utrace's rights.
 */
struct fsrights {
	bool switched;
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t *groups;
	struct __user_cap_data_struct cap[2];
};

#define CAP_FS_READ	((1ULL << CAP_DAC_OVERRIDE) | \
			 (1ULL << CAP_DAC_READ_SEARCH))

static int capget_self(struct __user_cap_data_struct cap[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return syscall(SYS_capget, &h, cap) ? -errno : 0;
}

static int capset_self(struct __user_cap_data_struct cap[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return syscall(SYS_capset, &h, cap) ? -errno : 0;
}

static uint64_t cap_eff(const struct __user_cap_data_struct cap[2])
{
	return cap[0].effective | (uint64_t)cap[1].effective << 32;
}

static bool in_groups(gid_t g, const gid_t *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == g)
			return true;
	return false;
}

/* Is the peer's capability set one that counts here (our namespace)? */
static uint64_t peer_caps(const struct utrace_cred *c)
{
	struct stat st;

	if (stat("/proc/self/ns/user", &st) < 0 ||
	    st.st_dev != c->userns_dev || st.st_ino != c->userns_ino)
		return 0;
	return c->cap_eff;
}

/* Could the peer open whatever we can (so that nothing need change)? */
static bool rights_within(const struct utrace_cred *c, const struct fsrights *r,
			  uint64_t ours, uint64_t theirs)
{
	int i;

	if ((theirs & CAP_FS_READ) == CAP_FS_READ && c->uid[3] == 0 &&
	    !(ours & ~theirs))
		return true;	/* its root, as much as ours or more */
	if (c->uid[3] != r->fsuid || c->gid[3] != r->fsgid ||
	    (ours & ~theirs))
		return false;
	for (i = 0; i < r->ngroups; i++)
		if (!in_groups(r->groups[i], c->groups, c->ngroups))
			return false;
	return true;
}

static void rights_restore(struct fsrights *r)
{
	if (r->switched) {
		/*
		 * Capabilities first (within the permitted set, which never
		 * changed), then the ids that need them, then capabilities
		 * again: an fsuid back to 0 raises the filesystem ones.  The
		 * loop thread must not go on with the peer's rights: failing
		 * here is not survivable.
		 */
		if (capset_self(r->cap) ||
		    syscall(SYS_setgroups, (size_t)r->ngroups, r->groups) ||
		    (syscall(SYS_setfsgid, r->fsgid),
		     syscall(SYS_setfsgid, -1) != (long)r->fsgid) ||
		    (syscall(SYS_setfsuid, r->fsuid),
		     syscall(SYS_setfsuid, -1) != (long)r->fsuid) ||
		    capset_self(r->cap)) {
			fprintf(stderr, "utrace: gdb: cannot take back its own "
				"credentials after a vFile call\n");
			abort();
		}
	}
	free(r->groups);
	r->groups = NULL;
	r->switched = false;
}

/*
 * Take the peer's rights on this thread for a call that names a path.
 * Returns 0 (rights_restore() after the call) or -EACCES.
 */
static int rights_take(struct gdbstub *s, struct fsrights *r)
{
	const struct utrace_cred *c = &s->peer.cred;
	struct __user_cap_data_struct now[2];
	uint64_t ours, theirs, eff;
	int n;

	memset(r, 0, sizeof(*r));
	if (!s->peer.known)
		return 0;		/* remote (--gdb-any-host): utrace's */
	if (capget_self(r->cap))
		return -EACCES;
	r->fsuid = (uid_t)syscall(SYS_setfsuid, -1);
	r->fsgid = (gid_t)syscall(SYS_setfsgid, -1);
	n = (int)syscall(SYS_getgroups, 0, NULL);
	if (n < 0)
		return -EACCES;
	r->groups = calloc((size_t)n + 1, sizeof(gid_t));
	if (!r->groups)
		return -EACCES;
	r->ngroups = (int)syscall(SYS_getgroups, n, r->groups);
	if (r->ngroups < 0)
		goto fail;
	ours = cap_eff(r->cap);
	theirs = peer_caps(c);
	if (rights_within(c, r, ours, theirs))
		return 0;
	r->switched = true;
	if (syscall(SYS_setgroups, (size_t)c->ngroups, c->groups))
		goto fail;
	syscall(SYS_setfsgid, c->gid[3]);
	if (syscall(SYS_setfsgid, -1) != (long)c->gid[3])
		goto fail;
	syscall(SYS_setfsuid, c->uid[3]);
	if (syscall(SYS_setfsuid, -1) != (long)c->uid[3])
		goto fail;
	/* No capability the peer lacks (the fsuid change took some). */
	if (capget_self(now))
		goto fail;
	eff = cap_eff(now) & theirs;
	now[0].effective = (uint32_t)eff;
	now[1].effective = (uint32_t)(eff >> 32);
	if (capset_self(now))
		goto fail;
	return 0;
fail:
	rights_restore(r);
	return -EACCES;
}

/* A Linux errno as gdb's File-I/O protocol numbers it. */
static int fileio_errno(int err)
{
	switch (err) {
	case EPERM: case ENOENT: case EINTR: case EBADF: case EACCES:
	case EFAULT: case EBUSY: case EEXIST: case ENODEV: case ENOTDIR:
	case EISDIR: case EINVAL: case ENFILE: case EMFILE: case EFBIG:
	case ENOSPC: case ESPIPE: case EROFS:
		return err;	/* the same numbers */
	case ENOSYS:
		return 88;
	case ENAMETOOLONG:
		return 91;
	default:
		return 9999;	/* EUNKNOWN */
	}
}

static void vfile_reply(struct gdbstub *s, long r, int err)
{
	char buf[32];

	if (r < 0)
		snprintf(buf, sizeof(buf), "F-1,%x", fileio_errno(err));
	else
		snprintf(buf, sizeof(buf), "F%lx", r);
	gdb_send_packet(s, buf);
}

/* open:PATHNAME,FLAGS,MODE (the path in hex) */
static void vfile_open(struct gdbstub *s, const char *q)
{
	const char *comma = strchr(q, ',');
	unsigned long flags, mode;
	struct fsrights r;
	char name[4096];
	size_t hexlen;
	int i, fd, err;

	hexlen = comma ? (size_t)(comma - q) : 0;
	if (!comma || !hexlen || hexlen % 2 || hexlen / 2 >= sizeof(name) ||
	    gdb_get_hex((unsigned char *)name, q, hexlen / 2) < 0 ||
	    memchr(name, 0, hexlen / 2)) {
		vfile_reply(s, -1, EINVAL);
		return;
	}
	name[hexlen / 2] = 0;
	q = comma + 1;
	if (!gdb_parse_ulong(&q, &flags) || *q++ != ',' ||
	    !gdb_parse_ulong(&q, &mode) || *q) {
		vfile_reply(s, -1, EINVAL);
		return;
	}
	if (flags) {
		/* Read only: gdb's O_RDONLY is 0, and nothing else is. */
		vfile_reply(s, -1, flags & 3 ? EACCES : EINVAL);
		return;
	}
	for (i = 0; i < 16 && s->vfd[i] > 0; i++)
		;
	if (i == 16) {
		vfile_reply(s, -1, EMFILE);
		return;
	}
	err = rights_take(s, &r);
	if (err) {
		vfile_reply(s, -1, -err);
		return;
	}
	/* O_NONBLOCK: a FIFO's open must not hold the loop. */
	fd = open(name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	err = errno;
	rights_restore(&r);
	if (fd < 0) {
		vfile_reply(s, -1, err);
		return;
	}
	s->vfd[i] = fd + 1;
	vfile_reply(s, i, 0);
}

/* pread:FD,COUNT,OFFSET */
static void vfile_pread(struct gdbstub *s, const char *q)
{
	unsigned long a, b, c;
	char *buf, *out;
	ssize_t n;
	int len;

	if (!gdb_parse_ulong(&q, &a) || *q++ != ',' ||
	    !gdb_parse_ulong(&q, &b) || *q++ != ',' ||
	    !gdb_parse_ulong(&q, &c) || *q) {
		vfile_reply(s, -1, EINVAL);
		return;
	}
	if (a >= 16 || !s->vfd[a]) {
		vfile_reply(s, -1, EBADF);
		return;
	}
	if (c > (unsigned long)INT64_MAX) {
		vfile_reply(s, -1, EINVAL);
		return;
	}
	if (b > PKT_MAX / 2 - 32)
		b = PKT_MAX / 2 - 32;
	buf = malloc(b + 1);
	out = malloc(2 * b + 32);
	if (!buf || !out) {
		free(buf);
		free(out);
		vfile_reply(s, -1, ENOMEM);
		return;
	}
	n = pread(s->vfd[a] - 1, buf, b, (off_t)c);
	if (n < 0) {
		vfile_reply(s, -1, errno);
	} else {
		len = snprintf(out, 32, "F%lx;", (unsigned long)n);
		gdb_send_packet_len(s, out, (size_t)len +
				    gdb_put_bin(out + len, (unsigned char *)buf,
						(size_t)n));
	}
	free(buf);
	free(out);
}

void gdb_do_vfile(struct gdbstub *s, const char *p)
{
	unsigned long a;
	const char *q;

	if (!strncmp(p, "setfs:", 6)) {
		q = p + 6;
		if (gdb_parse_ulong(&q, &a) && !*q)
			vfile_reply(s, 0, 0);
		else
			vfile_reply(s, -1, EINVAL);
	} else if (!strncmp(p, "open:", 5)) {
		vfile_open(s, p + 5);
	} else if (!strncmp(p, "pread:", 6)) {
		vfile_pread(s, p + 6);
	} else if (!strncmp(p, "close:", 6)) {
		q = p + 6;
		if (!gdb_parse_ulong(&q, &a) || *q) {
			vfile_reply(s, -1, EINVAL);
			return;
		}
		if (a >= 16 || !s->vfd[a]) {
			vfile_reply(s, -1, EBADF);
			return;
		}
		close(s->vfd[a] - 1);
		s->vfd[a] = 0;
		vfile_reply(s, 0, 0);
	} else {
		gdb_send_packet(s, "");
	}
}

/* The connection ends: its files close with it. */
void gdb_hostio_close(struct gdbstub *s)
{
	int i;

	for (i = 0; i < 16; i++)
		if (s->vfd[i])
			close(s->vfd[i] - 1);
	memset(s->vfd, 0, sizeof(s->vfd));
}
