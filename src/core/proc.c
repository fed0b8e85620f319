// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What only /proc tells: a thread's status lines (its ids, its tracer,
 * its signal dispositions, its credentials) and whether it still exists.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"

/**
 * utrace__proc_status - read /proc/TID/status into @buf (NUL-terminated)
 * Returns false when the thread is gone.
 */
bool utrace__proc_status(pid_t tid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

/* The value of the line "@name\t..." in a status text, or NULL. */
const char *utrace__proc_field(const char *buf, const char *name)
{
	size_t len = strlen(name);

	for (const char *l = buf; l; l = strchr(l, '\n')) {
		if (*l == '\n')
			l++;
		if (!strncmp(l, name, len) && l[len] == ':')
			return l + len + 1;
	}
	return NULL;
}

/* The number line @name of /proc/@tid/status starts with, or -1. */
long utrace__proc_number(pid_t tid, const char *name)
{
	char buf[4096];
	const char *v;

	if (!utrace__proc_status(tid, buf, sizeof(buf)))
		return -1;
	v = utrace__proc_field(buf, name);
	return v ? atol(v) : -1;
}

/* Does thread @tid exist (a zombie included)? */
bool utrace__proc_alive(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d", tid, tid);
	return access(path, F_OK) == 0 || utrace__proc_tgid(tid) > 0;
}
