// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -P PATH (--trace-path): only the syscalls that touch one of the paths,
 * decided at syscall entry by strace 6.1's rules.  A syscall can touch a
 * path only if it is in %file, %desc or %network; then each argument the
 * syscall table calls a path is read from the tracee and compared with
 * the paths as strings, and each argument it calls a descriptor (or a
 * directory descriptor) is resolved through /proc/TID/fd and compared.
 * select, pselect6, poll and ppoll look at the descriptors in their sets,
 * fsconfig at the ones its command uses, and a few syscalls are looked at
 * differently from what their arguments are (table below), as strace does.
 */
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * Where strace's rule is not "every path and every descriptor argument":
 * what it looks at instead, as argument kinds.
 */
static const struct {
	const char *name;
	const char *kinds;
} pt_kinds[] = {
	{ "rename", "s" },		/* the old path only */
	{ "getcwd", "s" },		/* the buffer, read as a path */
	{ "perf_event_open", "" },	/* not the group leader's fd */
	{ "pidfd_getfd", "f" },		/* the other fd is the target's */
	{ "epoll_ctl", "xxf" },		/* not the epoll descriptor */
	{ "fanotify_mark", "xxxas" },	/* not the fanotify descriptor */
};

static void store(struct path_set *ps, const char *path)
{
	int i;

	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->paths[i], path))
			return;
	ps->paths = realloc(ps->paths, sizeof(*ps->paths) * (ps->n + 1));
	ps->paths[ps->n] = strdup(path);
	if (!ps->paths[ps->n]) {
		fprintf(stderr, "utrace: out of memory\n");
		exit(1);
	}
	ps->n++;
}

void trace_path_add(struct path_set *ps, const char *path)
{
	store(ps, path);
	ps->given++;
}

void trace_path_resolve(struct path_set *ps, bool quiet, int hexstr)
{
	int i, given = ps->n;

	for (i = 0; i < given; i++) {
		char *path = ps->paths[i], *r = realpath(path, NULL);

		if (!r)
			continue;
		if (strcmp(path, r)) {
			if (!quiet) {
				struct sbuf b = { 0 };

				sb_puts(&b, "utrace: Requested path ");
				dec_quote(&b, hexstr, (unsigned char *)path,
					   strlen(path), QUOTE_0_TERMINATED);
				sb_puts(&b, " resolved into ");
				dec_quote(&b, hexstr, (unsigned char *)r, strlen(r),
					   QUOTE_0_TERMINATED);
				sb_putc(&b, '\n');
				fwrite(b.p, 1, b.len, stderr);
				sb_free(&b);
			}
			store(ps, r);
		}
		free(r);
	}
}

static bool in_set(const struct path_set *ps, const char *path)
{
	int i;

	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->paths[i], path))
			return true;
	return false;
}

/* A path argument: the string must end within PATH_MAX + 1 bytes. */
static bool upath_match(const struct path_set *ps, struct utrace_engine *e,
			unsigned long addr)
{
	char buf[PATH_MAX + 1];
	size_t got = 0;

	while (got < sizeof(buf)) {
		size_t chunk = 4096 - ((addr + got) & 4095);

		if (chunk > sizeof(buf) - got)
			chunk = sizeof(buf) - got;
		/*
		 * A read may end early at the end of what a record captured:
		 * the string is whole if its NUL came.
		 */
		ssize_t n = utrace_mem_read(e, addr + got, buf + got, chunk);

		if (n <= 0)
			return false;
		if (memchr(buf + got, '\0', (size_t)n))
			return in_set(ps, buf);
		if ((size_t)n < chunk)
			return false;
		got += chunk;
	}
	return false;
}

/*
 * A descriptor: its /proc link, without the " (deleted)" the kernel adds
 * when the file is really gone (not when a file is named so).
 */
static bool fd_match(const struct path_set *ps, pid_t tid, int fd)
{
	static const char del[] = " (deleted)";
	char link[64], buf[PATH_MAX + 1];
	struct stat sl, sp;
	ssize_t n;

	if (fd < 0)
		return false;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	if ((size_t)n > sizeof(del) &&
	    !strcmp(buf + n + 1 - sizeof(del), del) && !stat(link, &sl) &&
	    (lstat(buf, &sp) || sl.st_ino != sp.st_ino ||
	     sl.st_dev != sp.st_dev))
		buf[n + 1 - sizeof(del)] = '\0';
	return in_set(ps, buf);
}

static bool fdset_match(const struct path_set *ps, struct utrace_engine *e,
			pid_t tid, const unsigned long *a)
{
	int nfds = (int)a[0], i, j;
	size_t size;
	unsigned long *bits;
	bool hit = false;

	if (nfds <= 0)
		return false;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	size = (((size_t)nfds + 7) / 8 + sizeof(long) - 1) &
	       ~(sizeof(long) - 1);
	bits = malloc(size);
	if (!bits)
		return false;
	for (i = 1; i <= 3 && !hit; i++) {
		if (!a[i] || utrace_mem_read(e, a[i], bits, size) !=
			     (ssize_t)size)
			continue;
		for (j = 0; j < nfds && !hit; j++)
			if (bits[j / (8 * sizeof(long))] &
			    (1UL << (j % (8 * sizeof(long)))))
				hit = fd_match(ps, tid, j);
	}
	free(bits);
	return hit;
}

static bool pollfd_match(const struct path_set *ps, struct utrace_engine *e,
			 pid_t tid, const unsigned long *a)
{
	unsigned nfds = (unsigned)a[1], i;
	struct pollfd pf;

	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	if (a[0] + sizeof(pf) * nfds < a[0])
		return false;
	for (i = 0; i < nfds; i++) {
		if (utrace_mem_read(e, a[0] + i * sizeof(pf), &pf,
				    sizeof(pf)) != (ssize_t)sizeof(pf))
			break;
		if (fd_match(ps, tid, pf.fd))
			return true;
	}
	return false;
}

bool trace_path_match(const struct path_set *ps, struct utrace_engine *e,
		      pid_t tid, long nr, const unsigned long *a)
{
	const struct sysent *s = sys_ent(nr);
	const char *k;
	size_t i;

	if (!s || !(s->classes & (SC_FILE | SC_DESC | SC_NETWORK)))
		return false;
	if (!strcmp(s->name, "select") || !strcmp(s->name, "pselect6"))
		return fdset_match(ps, e, tid, a);
	if (!strcmp(s->name, "poll") || !strcmp(s->name, "ppoll"))
		return pollfd_match(ps, e, tid, a);
	if (!strcmp(s->name, "fsconfig")) {
		switch ((unsigned)a[1]) {
		case 3:	/* FSCONFIG_SET_PATH */
		case 4:	/* FSCONFIG_SET_PATH_EMPTY */
			return fd_match(ps, tid, (int)a[4]) ||
			       upath_match(ps, e, a[3]);
		case 5:	/* FSCONFIG_SET_FD */
			return fd_match(ps, tid, (int)a[4]);
		}
		return false;
	}
	k = s->args;
	for (i = 0; i < sizeof(pt_kinds) / sizeof(pt_kinds[0]); i++)
		if (!strcmp(s->name, pt_kinds[i].name))
			k = pt_kinds[i].kinds;
	for (i = 0; k[i] && k[i] != '>' && i < 6; i++) {
		if (k[i] == 's' && upath_match(ps, e, a[i]))
			return true;
		if ((k[i] == 'f' || k[i] == 'a') &&
		    fd_match(ps, tid, (int)a[i]))
			return true;
	}
	return false;
}

int trace_path_capture(long nr, struct dcap *out, size_t limit)
{
	const struct sysent *s = sys_ent(nr);
	const char *k;
	size_t i;
	int n = 0;

	if (!s || !(s->classes & (SC_FILE | SC_DESC | SC_NETWORK)))
		return 0;
	if (!strcmp(s->name, "select") || !strcmp(s->name, "pselect6") ||
	    !strcmp(s->name, "poll") || !strcmp(s->name, "ppoll"))
		return -1;
	if (!strcmp(s->name, "fsconfig"))
		k = "xxxs";
	else
		k = s->args;
	for (i = 0; i < sizeof(pt_kinds) / sizeof(pt_kinds[0]); i++)
		if (!strcmp(s->name, pt_kinds[i].name))
			k = pt_kinds[i].kinds;
	for (i = 0; k[i] && k[i] != '>' && i < 6; i++) {
		if (k[i] != 's')
			continue;
		if (n == DCAP_MAX || PATH_MAX + 1 > limit)
			return -1;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].arg = (unsigned char)i;
		out[n].when = DCAP_ENTRY;
		out[n].kind = DCAP_STRING;
		out[n].len = PATH_MAX + 1;
		n++;
	}
	return n;
}
