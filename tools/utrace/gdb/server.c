// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: packet dispatch (gdbserver's server): what each packet
 * asks for, the general queries (qSupported, qXfer, thread lists), process
 * starts and attaches for extended-remote, detach and kill, the resume
 * packets parsed into per-thread actions, and the loop that polls the
 * tracer, the queue and the sockets.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>
#include <utrace.h>

#include "cli.h"
#include "gdb/gdb.h"
#include "util/sbuf.h"

static void thread_xml(struct gdbstub *s, struct sbuf *b)
{
	struct gthr *g;

	sb_puts(b, "<?xml version=\"1.0\"?>\n<threads>\n");
	for (g = s->threads; g; g = g->next) {
		char path[64], name[64] = "";
		FILE *f;

		if (!gthr_usable(g))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm",
			 g->p->pid, g->tid);
		f = fopen(path, "re");
		if (f) {
			if (fgets(name, sizeof(name), f))
				name[strcspn(name, "\n")] = 0;
			fclose(f);
		}
		sb_printf(b, "<thread id=\"p%x.%x\"", (unsigned)g->p->pid,
			  (unsigned)g->tid);
		if (name[0] && !strpbrk(name, "<>&\""))
			sb_printf(b, " name=\"%s\"", name);
		sb_puts(b, "/>\n");
	}
	sb_puts(b, "</threads>\n");
}

/* Is the qXfer object @obj (up to @end) @name? */
static bool is_obj(const char *obj, const char *end, const char *name)
{
	return (size_t)(end - obj) == strlen(name) &&
	       !strncmp(obj, name, strlen(name));
}

/* qXfer:OBJECT:read:ANNEX:OFF,LEN */
static void do_qxfer(struct gdbstub *s, const char *p)
{
	struct sbuf b = { 0 };
	const char *obj = p + 6, *annex, *q, *rd;
	unsigned long off, len;
	char path[64], ann[64], why[160], *reply;
	size_t n;
	bool ok = true;

	rd = strstr(obj, ":read:");
	if (!rd) {
		gdb_send_packet(s, "");
		return;
	}
	annex = rd + 6;
	q = strchr(annex, ':');
	if (!q || (size_t)(q - annex) >= sizeof(ann) ||
	    !gdb_parse_addr_len(q + 1, &off, &len)) {
		gdb_send_error(s, 1);
		return;
	}
	memcpy(ann, annex, (size_t)(q - annex));
	ann[q - annex] = 0;
	/* Only features and exec-file take an annex (gdbserver's checks). */
	if (ann[0] && !is_obj(obj, rd, "features") &&
	    !is_obj(obj, rd, "exec-file")) {
		gdb_send_error(s, 1);
		return;
	}
	if (is_obj(obj, rd, "features")) {
		if (strcmp(ann, "target.xml")) {
			gdb_send_error(s, 0);
			return;
		}
		gdb_target_xml(&b);
	} else if (is_obj(obj, rd, "auxv")) {
		struct gthr *g = gthr_access(s);

		ok = g != NULL;
		if (ok) {
			snprintf(path, sizeof(path), "/proc/%d/auxv", g->p->pid);
			ok = gdb_read_file(path, &b);
		}
	} else if (is_obj(obj, rd, "siginfo")) {
		struct gthr *g = gthr_access(s);
		siginfo_t si;

		/* The signal of the stop (breakpoint traps included). */
		ok = g && g->si_valid;
		if (ok)
			si = g->si;
		if (ok)
			sb_putn(&b, (const char *)&si, sizeof(si));
	} else if (is_obj(obj, rd, "threads")) {
		thread_xml(s, &b);
	} else if (is_obj(obj, rd, "exec-file")) {
		char exe[4096];
		ssize_t r = -1;

		const char *a = ann;
		unsigned long pid = 0;
		struct gthr *g = gthr_access(s);

		/*
		 * The annex names the process (one gdb may attach to next:
		 * the peer must be one that could ptrace it); empty: the
		 * current one.
		 */
		if (!ann[0] && g)
			pid = (unsigned long)g->p->pid;
		else if (ann[0] && (!gdb_parse_ulong(&a, &pid) || *a ||
				    pid > 0x7fffffff))
			pid = 0;
		snprintf(path, sizeof(path), "/proc/%lu/exe", pid);
		if (pid && gdb_peer_may(&s->peer, (pid_t)pid, why,
					sizeof(why)) == 0)
			r = readlink(path, exe, sizeof(exe) - 1);
		ok = r > 0;
		if (ok)
			sb_putn(&b, exe, (size_t)r);
	} else {
		gdb_send_packet(s, "");
		return;
	}
	if (!ok) {
		sb_free(&b);
		gdb_send_error(s, 1);
		return;
	}
	if (len > PKT_MAX / 2 - 8)
		len = PKT_MAX / 2 - 8;
	n = off < b.len ? b.len - off : 0;
	if (n > len)
		n = len;
	reply = malloc(2 * n + 2);
	if (reply) {
		reply[0] = off + n < b.len ? 'm' : 'l';
		gdb_send_packet_len(s, reply, 1 + gdb_put_bin(reply + 1,
			(const unsigned char *)b.p + (off < b.len ? off : 0), n));
		free(reply);
	}
	sb_free(&b);
}

static size_t nthreads(struct gdbstub *s)
{
	struct gthr *g;
	size_t n = 0;

	for (g = s->threads; g; g = g->next)
		n++;
	return n;
}

static void do_vcont(struct gdbstub *s, const char *p)
{
	size_t n = nthreads(s), i;
	struct action *acts = calloc(n + 1, sizeof(*acts));
	struct gthr *g;
	bool seen = false;

	if (!acts) {
		gdb_send_error(s, 12);
		return;
	}
	while (*p == ';') {
		struct action a = { 0, 0, false };
		unsigned long sig = 0;
		pid_t pid = -1, tid = -1;

		p++;
		a.a = *p == 'C' ? 'c' : *p == 'S' ? 's' : *p;
		if (a.a != 'c' && a.a != 's' && (a.a != 't' || !s->nonstop)) {
			free(acts);
			gdb_send_error(s, 1);
			return;
		}
		if (*p == 'C' || *p == 'S') {
			p++;
			if (!gdb_parse_ulong(&p, &sig)) {
				free(acts);
				gdb_send_error(s, 1);
				return;
			}
			a.sig = gdb_sig_from((int)sig);
		} else {
			p++;
		}
		if (*p == ':') {
			p++;
			if (!gdb_parse_ptid(&p, &pid, &tid)) {
				free(acts);
				gdb_send_error(s, 1);
				return;
			}
		}
		if (*p && *p != ';')
			break;		/* malformed: below */
		a.wild = tid <= 0;
		for (g = s->threads, i = 0; g; g = g->next, i++)
			if (!acts[i].a && gthr_ptid_match(g, pid, tid))
				acts[i] = a;
		seen = true;
	}
	if (*p || !seen) {
		/* Nothing resumes on a packet that does not parse whole. */
		free(acts);
		gdb_send_error(s, 1);
		return;
	}
	if (s->nonstop)
		gdb_ns_resume(s, acts, n);
	else
		gdb_resume(s, acts, n);
	free(acts);
}

static void do_old_resume(struct gdbstub *s, const char *p)
{
	size_t n = nthreads(s), i;
	struct action *acts;
	unsigned long sig = 0, addr = 0;
	bool has_addr = false;
	char c = *p++;
	struct gthr *g;

	/* c[ADDR], s[ADDR], CSIG[;ADDR], SSIG[;ADDR], and nothing more. */
	if (c == 'C' || c == 'S') {
		if (!gdb_parse_ulong(&p, &sig))
			goto bad;
		if (*p == ';' && !*++p)
			goto bad;	/* a ';' and no address */
	}
	if (*p) {
		if (!gdb_parse_ulong(&p, &addr) || *p)
			goto bad;
		has_addr = true;
	}
	acts = calloc(n + 1, sizeof(*acts));
	if (!acts) {
		gdb_send_error(s, 12);
		return;
	}
	if (has_addr && (g = gthr_access(s)))
		gthr_set_pc(g, addr);
	for (g = s->threads, i = 0; g; g = g->next, i++) {
		acts[i].a = 'c';
		acts[i].wild = true;
		if (g->tid == s->gtid || (!s->gtid && g->tid == s->last_tid)) {
			acts[i].a = c == 's' || c == 'S' ? 's' : 'c';
			acts[i].sig = gdb_sig_from((int)sig);
			acts[i].wild = false;
		}
	}
	if (s->nonstop)
		gdb_ns_resume(s, acts, n);
	else
		gdb_resume(s, acts, n);
	free(acts);
	return;
bad:
	gdb_send_error(s, 1);
}

/*
 * QPassSignals:SIG[;SIG]... (may be empty): into @pass, false when
 * malformed.  QProgramSignals has the same syntax.
 */
static bool parse_signals(const char *p, bool pass[65])
{
	unsigned long v;

	memset(pass, 0, 65 * sizeof(pass[0]));
	while (*p) {
		int sig;

		if (!gdb_parse_ulong(&p, &v) || v > 0xff)
			return false;
		sig = gdb_sig_from((int)v);
		if (sig)
			pass[sig] = true;
		if (*p && *p++ != ';')
			return false;	/* (gdb may end the list with ';') */
	}
	return true;
}

static void do_pass_signals(struct gdbstub *s, const char *p)
{
	bool pass[65];

	if (!parse_signals(p, pass)) {
		gdb_send_error(s, 1);
		return;
	}
	memcpy(s->pass, pass, sizeof(s->pass));
	gdb_send_packet(s, "OK");
}

static void do_catch_syscalls(struct gdbstub *s, const char *p)
{
	unsigned long v;
	struct gthr *g;
	long *nrs = NULL;
	size_t n = 0;

	if (*p == '0' && !p[1]) {
		s->catch_on = false;
	} else if (*p == '1') {
		p++;
		while (*p == ';') {
			long *q;

			p++;
			if (!gdb_parse_ulong(&p, &v) || v >= 1024) {
				free(nrs);
				gdb_send_error(s, 1);
				return;
			}
			q = realloc(nrs, (n + 1) * sizeof(*q));
			if (!q) {
				free(nrs);
				gdb_send_error(s, 12);
				return;
			}
			nrs = q;
			nrs[n++] = (long)v;
		}
		if (*p) {
			free(nrs);
			gdb_send_error(s, 1);
			return;
		}
		s->catch_on = true;
		s->catch_any = n == 0;
	} else {
		gdb_send_error(s, 1);
		return;
	}
	free(s->catch_nrs);
	s->catch_nrs = nrs;
	s->catch_n = n;
	if (s->joined) {
		struct gproc *pr;

		for (pr = s->procs; pr; pr = pr->next)
			if (pr->active && !pr->gone)
				gdb_watch(s, pr->pid);
	} else {
		for (g = s->threads; g; g = g->next)
			if (gthr_usable(g))
				gdb_watch(s, g->tid);
	}
	gdb_send_packet(s, "OK");
}

static void do_thread_list(struct gdbstub *s)
{
	struct sbuf b = { 0 };
	struct gthr *g;
	char sep = 'm';

	for (g = s->threads; g; g = g->next) {
		if (!gthr_usable(g))
			continue;
		sb_printf(&b, "%cp%x.%x", sep, (unsigned)g->p->pid,
			  (unsigned)g->tid);
		sep = ',';
	}
	gdb_send_packet(s, b.len ? b.p : "l");
	sb_free(&b);
}

/*
 * k (every process) or vKill;PID.  Nothing is held any more: SIGKILL ends
 * every stop; the process is forgotten, its end is not reported.
 */
static void do_kill(struct gdbstub *s, pid_t pid, bool reply)
{
	struct gproc *p, *next;
	bool found = false;

	for (p = s->procs; p; p = p->next) {
		if (!p->active || (pid > 0 && p->pid != pid))
			continue;
		found = true;
		gdb_ns_discard(s, p->pid);
		if (!p->gone)
			kill(p->pid, SIGKILL);
		p->active = false;
		p->killed = true;
	}
	for (p = s->procs; p; p = next) {
		next = p->next;
		if (p->killed && p->gone)
			gproc_free(s, p);
	}
	if (reply)
		gdb_send_packet(s, found ? "OK" : "E01");
}

/* What gdb offers decides which events it is told about. */
static void do_supported(struct gdbstub *s, const char *p)
{
	struct sbuf b = { 0 };

	/*
	 * Joined, children are the other tracer's: no fork events (the
	 * joined queue follows one process, not its children).  gdb has no
	 * reply that refuses catch fork, so utrace says it once here.
	 */
	if (s->joined && strstr(p, "fork-events+") && !s->said_no_fork) {
		fprintf(stderr, "utrace: --gdb: joined: no fork or vfork "
			"events for gdb (catch fork, follow-fork-mode child): "
			"children stay with the tracer joined\n");
		s->said_no_fork = true;
	}
	s->fork_events = !s->joined && (strstr(p, ":fork-events+") ||
					strstr(p, ";fork-events+"));
	s->vfork_events = !s->joined && strstr(p, "vfork-events+") != NULL;
	s->exec_events = strstr(p, "exec-events+") != NULL;
	s->multiprocess = strstr(p, "multiprocess+") != NULL;
	sb_puts(&b, "PacketSize=4000;QPassSignals+;QCatchSyscalls+;"
		"QStartNoAckMode+;qXfer:features:read+;qXfer:auxv:read+;"
		"qXfer:threads:read+;qXfer:exec-file:read+;"
		"qXfer:siginfo:read+;multiprocess+;swbreak+;hwbreak+;"
		"vContSupported+;QDisableRandomization+;QNonStop+;"
		"QThreadEvents+");
	if (s->fork_events)
		sb_puts(&b, ";fork-events+");
	if (s->vfork_events)
		sb_puts(&b, ";vfork-events+");
	if (s->exec_events)
		sb_puts(&b, ";exec-events+");
	gdb_send_packet(s, b.p);
	sb_free(&b);
}

/* D (everything) or D;PID (one process; gdb keeps the others). */
static void do_detach(struct gdbstub *s, const char *q)
{
	struct gproc *p;
	unsigned long pid;
	bool others = false;

	if (*q && *q != ';') {
		gdb_send_error(s, 1);
		return;
	}
	if (!*q) {
		gdb_send_packet(s, "OK");
		for (p = s->procs; p; p = p->next)
			if (p->active)
				fprintf(stderr, "utrace: gdb detached from "
					"process %d\n", p->pid);
		gdb_let_go(s, true);
		return;
	}
	q++;
	if (!gdb_parse_ulong(&q, &pid) || *q ||
	    !(p = gproc_find(s, (pid_t)pid)) || !p->active) {
		gdb_send_error(s, 1);
		return;
	}
	gdb_send_packet(s, "OK");
	fprintf(stderr, "utrace: gdb detached from process %d\n", p->pid);
	gdb_ns_discard(s, p->pid);
	gdb_let_go_proc(s, p);
	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone)
			others = true;
	/* The last one, with target remote: the stub is done. */
	if (!others && !s->extended)
		gdb_let_go(s, true);
}

/* A hex-encoded vRun argument, up to ';' or the end; NULL if malformed. */
static char *unhex_arg(const char **p)
{
	const char *e = strchr(*p, ';');
	size_t n = e ? (size_t)(e - *p) : strlen(*p);
	char *a = malloc(n / 2 + 1);

	if (!a || n % 2 || gdb_get_hex((unsigned char *)a, *p, n / 2) !=
	    (ssize_t)(n / 2) || memchr(a, 0, n / 2)) {
		free(a);
		return NULL;
	}
	a[n / 2] = 0;
	*p += n;
	return a;
}

static void argv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * vRun;PROG;ARG...: start a new process (an empty PROG: the last one,
 * with its arguments when none are given), stopped at its exec; the
 * stop reply answers.
 */
static void do_run(struct gdbstub *s, const char *p)
{
	char **argv = NULL, **v, why[200];
	size_t n = 0, i;
	pid_t pid;

	if (gdb_peer_may_run(s, why, sizeof(why))) {
		gdb_peer_refuse(s, why);
		return;
	}
	while (*p || n == 0) {
		char *a = unhex_arg(&p);

		v = a ? realloc(argv, (n + 2) * sizeof(*argv)) : NULL;
		if (!v) {
			free(a);
			argv_free(argv);
			gdb_send_error(s, 1);
			return;
		}
		argv = v;
		argv[n++] = a;
		argv[n] = NULL;
		if (*p == ';')
			p++;
		else
			break;
	}
	if (!argv[0][0]) {
		if (!s->run_argv) {
			argv_free(argv);
			gdb_send_error(s, 1);
			return;
		}
		free(argv[0]);
		argv[0] = strdup(s->run_argv[0]);
		if (n == 1) {
			/* The last arguments too. */
			for (i = 1; s->run_argv[i]; i++) {
				v = realloc(argv, (n + 2) * sizeof(*argv));
				if (!v)
					break;
				argv = v;
				argv[n++] = strdup(s->run_argv[i]);
				argv[n] = NULL;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!argv[i]) {
			argv_free(argv);
			gdb_send_error(s, 12);
			return;
		}
	if (!s->host || !s->host->run) {
		argv_free(argv);
		gdb_send_error(s, 1);
		return;
	}
	if (s->no_aslr) {
		/* Inherited by the child utrace forks, for its exec. */
		int old = personality(0xffffffff);

		personality((unsigned long)old | ADDR_NO_RANDOMIZE);
		pid = s->host->run(s->host_arg, argv);
		personality((unsigned long)old);
	} else {
		pid = s->host->run(s->host_arg, argv);
	}
	if (pid < 0) {
		argv_free(argv);
		gdb_send_error(s, (int)-pid);
		return;
	}
	argv_free(s->run_argv);
	s->run_argv = argv;
	fprintf(stderr, "utrace: gdb started process %d\n", pid);
	/* The reply is the stop at its exec. */
	s->asked = true;
}

/* vAttach;PID: debug a running process too, as -p does. */
static void do_attach(struct gdbstub *s, const char *q)
{
	unsigned long pid;
	struct gproc *p;
	char why[200];
	int err;

	if (!gdb_parse_ulong(&q, &pid) || *q || !pid || pid > 0x7fffffff ||
	    gproc_find(s, (pid_t)pid)) {
		gdb_send_error(s, 1);
		return;
	}
	/* What the peer could attach to itself, and nothing else. */
	err = gdb_peer_may(&s->peer, (pid_t)pid, why, sizeof(why));
	if (err == -EPERM) {
		gdb_peer_refuse(s, why);
		return;
	}
	if (!s->host || !s->host->attach) {
		gdb_send_error(s, 1);
		return;
	}
	if (gdbstub_set_process(s, (pid_t)pid, false) < 0) {
		gdb_send_error(s, 12);
		return;
	}
	p = gproc_find(s, (pid_t)pid);
	err = s->host->attach(s->host_arg, (pid_t)pid);
	if (err >= 0)
		err = gdb_start_proc(s, p);
	if (err < 0) {
		for (struct gthr *g = s->threads; g; ) {
			struct gthr *next = g->next;

			if (g->p == p)
				gthr_drop(g);
			g = next;
		}
		if (gproc_find(s, (pid_t)pid) == p)
			gproc_free(s, p);
		s->waiting = false;
		gdb_send_error(s, 1);
		return;
	}
	fprintf(stderr, "utrace: gdb attached to process %lu\n", pid);
	/* Non-stop: OK now, the stop comes as a notification. */
	if (s->nonstop)
		gdb_send_packet(s, "OK");
	else
		s->asked = true;
}

/* Hg: the thread registers and memory go through. */
static void do_set_thread(struct gdbstub *s, const char *q)
{
	struct gthr *g;
	pid_t pid, tid;

	if (!gdb_parse_ptid(&q, &pid, &tid) || *q) {
		gdb_send_error(s, 1);
		return;
	}
	if (tid > 0 && !gthr_live(s, tid)) {
		gdb_send_error(s, 1);
		return;
	}
	if (tid <= 0 && pid > 0) {
		/* Any thread of that process. */
		for (g = s->threads; g; g = g->next)
			if (gthr_usable(g) && g->p->pid == pid)
				break;
		if (!g) {
			gdb_send_error(s, 1);
			return;
		}
		tid = g->tid;
	}
	s->gtid = tid > 0 ? tid : s->last_tid;
	gdb_send_packet(s, "OK");
}

/* Hc and the other H ops: a thread id that parses, then OK. */
static void do_thread_op(struct gdbstub *s, const char *q)
{
	pid_t pid, tid;

	if (!*q++ || !gdb_parse_ptid(&q, &pid, &tid) || *q)
		gdb_send_error(s, 1);
	else
		gdb_send_packet(s, "OK");
}

/* T: is the thread alive? */
static void do_thread_alive(struct gdbstub *s, const char *q)
{
	struct gthr *g;
	pid_t pid, tid;

	g = gdb_parse_ptid(&q, &pid, &tid) && !*q ? gthr_live(s, tid) : NULL;
	gdb_send_packet(s, g && gthr_ptid_match(g, pid, tid) ? "OK" : "E01");
}

/* qAttached[:PID]: 1 for a process attached to (-p, vAttach). */
static void do_attached(struct gdbstub *s, const char *q)
{
	unsigned long pid = 0;
	struct gproc *pr;

	if (*q == ':') {
		q++;
		if (!gdb_parse_ulong(&q, &pid) || *q) {
			gdb_send_error(s, 1);
			return;
		}
	} else if (*q) {
		gdb_send_packet(s, "");		/* qAttachedXYZ: unknown */
		return;
	} else {
		pid = (unsigned long)s->last_pid;
	}
	pr = gproc_find(s, (pid_t)pid);
	if (pr && pr->active)
		gdb_send_packet(s, pr->attached ? "1" : "0");
	else
		gdb_send_error(s, 1);
}

/* qC: the current thread. */
static void do_current_thread(struct gdbstub *s)
{
	struct gthr *g = gthr_live(s, s->last_tid);
	char buf[64];

	if (!g)
		g = gthr_access(s);
	if (!g) {
		gdb_send_packet(s, "");
		return;
	}
	snprintf(buf, sizeof(buf), "QCp%x.%x", (unsigned)g->p->pid,
		 (unsigned)g->tid);
	gdb_send_packet(s, buf);
}

/* q and Q: general queries and settings. */
static void handle_query(struct gdbstub *s, const char *p)
{
	if (!strncmp(p, "qSupported", 10) && (!p[10] || p[10] == ':')) {
		do_supported(s, p + 10);
	} else if (!strcmp(p, "QStartNoAckMode")) {
		gdb_send_packet(s, "OK");
		s->noack = true;
	} else if (!strncmp(p, "qXfer:", 6)) {
		do_qxfer(s, p);
	} else if (!strncmp(p, "qAttached", 9)) {
		do_attached(s, p + 9);
	} else if (!strcmp(p, "qC")) {
		do_current_thread(s);
	} else if (!strcmp(p, "qfThreadInfo")) {
		do_thread_list(s);
	} else if (!strcmp(p, "qsThreadInfo")) {
		gdb_send_packet(s, "l");
	} else if (!strncmp(p, "qSymbol", 7)) {
		gdb_send_packet(s, "OK");
	} else if (!strncmp(p, "QPassSignals:", 13)) {
		do_pass_signals(s, p + 13);
	} else if (!strncmp(p, "QDisableRandomization:", 22)) {
		if ((p[22] == '0' || p[22] == '1') && !p[23]) {
			s->no_aslr = p[22] == '1';
			gdb_send_packet(s, "OK");
		} else {
			gdb_send_error(s, 1);
		}
	} else if (!strncmp(p, "QProgramSignals:", 16)) {
		bool sigs[65];

		/* Signals the program sends itself: all pass here anyway. */
		if (parse_signals(p + 16, sigs))
			gdb_send_packet(s, "OK");
		else
			gdb_send_error(s, 1);
	} else if (!strncmp(p, "QCatchSyscalls:", 15)) {
		do_catch_syscalls(s, p + 15);
	} else if (!strcmp(p, "QNonStop:0") || !strcmp(p, "QNonStop:1")) {
		gdb_ns_set(s, p[9] == '1');
		gdb_send_packet(s, "OK");
	} else if (!strcmp(p, "QThreadEvents:0") ||
		   !strcmp(p, "QThreadEvents:1")) {
		s->thread_events = p[14] == '1';
		gdb_send_packet(s, "OK");
	} else if (!strncmp(p, "QNonStop:", 9) ||
		   !strncmp(p, "QThreadEvents:", 14)) {
		gdb_send_error(s, 1);
	} else {
		gdb_send_packet(s, "");	/* unknown: the empty reply */
	}
}

/* v: vCont, vFile, vKill, vRun, vAttach. */
static void handle_v(struct gdbstub *s, const char *p)
{
	unsigned long pid;
	const char *q;

	if (!strcmp(p, "vCont?")) {
		gdb_send_packet(s, "vCont;c;C;t;s;S");
	} else if (!strcmp(p, "vStopped") && s->nonstop) {
		gdb_ns_vstopped(s);
	} else if (!strcmp(p, "vCtrlC")) {
		gdb_send_packet(s, "OK");
		gdb_interrupt(s);
	} else if (!strncmp(p, "vCont;", 6)) {
		do_vcont(s, p + 5);
	} else if (!strncmp(p, "vFile:", 6)) {
		gdb_do_vfile(s, p + 6);
	} else if (!strncmp(p, "vKill;", 6)) {
		q = p + 6;
		if (gdb_parse_ulong(&q, &pid) && !*q)
			do_kill(s, (pid_t)pid, true);
		else
			gdb_send_error(s, 1);
	} else if (!strncmp(p, "vRun;", 5)) {
		do_run(s, p + 5);
	} else if (!strncmp(p, "vAttach;", 8)) {
		do_attach(s, p + 8);
	} else {
		gdb_send_packet(s, "");
	}
}

/* One packet, unescaped, NUL-terminated at @len. */
void gdb_handle_packet(struct gdbstub *s, char *p, size_t len)
{
	char *end = p + len;

	p[len] = 0;
	/* Text packets end at their end: a NUL inside is not gdb's. */
	if (p[0] != 'X' && memchr(p, 0, len)) {
		gdb_send_error(s, 1);
		return;
	}
	switch (p[0]) {
	case '?':
		if (s->nonstop)
			gdb_ns_status(s);
		else
			gdb_send_packet(s, s->stopreply[0] ? s->stopreply :
					"W00");
		break;
	case '!':
		s->extended = true;
		gdb_send_packet(s, "OK");
		break;
	case 'g':
		gdb_do_read_regs(s);
		break;
	case 'G':
		gdb_do_write_regs(s, p + 1);
		break;
	case 'p':
	case 'P':
		gdb_do_reg(s, p + 1, p[0] == 'P');
		break;
	case 'm':
		gdb_do_read_mem(s, p + 1);
		break;
	case 'M':
	case 'X':
		gdb_do_write_mem(s, p + 1, end, p[0] == 'X');
		break;
	case 'Z':
	case 'z':
		gdb_do_point(s, p + 1, p[0] == 'Z');
		if (s->nonstop)
			gdb_ns_dr_sync(s);	/* running threads too */
		break;
	case 'c':
	case 's':
	case 'C':
	case 'S':
		do_old_resume(s, p);
		break;
	case 'H':
		if (p[1] == 'g')
			do_set_thread(s, p + 2);
		else
			do_thread_op(s, p + 1);
		break;
	case 'T':
		do_thread_alive(s, p + 1);
		break;
	case 'D':
		do_detach(s, p + 1);
		break;
	case 'k':
		do_kill(s, -1, false);
		break;
	case 'q':
	case 'Q':
		handle_query(s, p);
		break;
	case 'v':
		handle_v(s, p);
		break;
	default:
		gdb_send_packet(s, "");	/* unknown: the empty reply */
		break;
	}
}

/* Once every thread is held: the stop reply, or the end of a closing. */
static void check_stopped(struct gdbstub *s)
{
	struct gthr *g;

	if (!s->active)
		return;
	gdb_birth_settle(s);
	gdb_ns_flush(s);
	if (!s->stopping && !s->closing)
		return;
	if (gdb_any_running(s))
		return;
	if (s->closing) {
		gdb_let_go(s, true);
		return;
	}
	g = s->evthr;
	if (g && !gthr_usable(g))
		g = NULL;
	if (!g && s->evproc) {
		gdb_report_exit(s, s->evproc);
		if (s->inlen)
			gdb_parse_input(s);
		return;
	}
	if (!g) {
		struct gproc *p = gdb_ended(s);

		for (g = s->threads; g; g = g->next)
			if (gthr_pending(s, g))
				break;
		if (!g && p) {
			gdb_report_exit(s, p);
			if (s->inlen)
				gdb_parse_input(s);
			return;
		}
		if (!g) {
			s->stopping = false;
			return;
		}
	}
	gdb_report(s, g);
	if (s->inlen)
		gdb_parse_input(s);	/* what gdb sent meanwhile */
}

/* The queue's records, then what they bring, until quiet. */
static int settle(struct gdbstub *s, int *dispatched)
{
	int i, r;

	for (i = 0; i < 16; i++) {
		if (!s->joined) {
			r = utrace_dispatch(s->t, 0);
			if (r < 0)
				return r;
			*dispatched += r;
		}
		s->kick = false;
		r = gdb_read_records(s);
		if (r < 0)
			return r;
		check_stopped(s);
		if (!s->kick && !r)
			break;
	}
	return 0;
}

int gdbstub_dispatch(struct gdbstub *s, int timeout_ms)
{
	struct pollfd pf[4 + REFUSE_MAX];
	struct refused *rf[REFUSE_MAX];
	int n = 0, r = 0, err, li = -1, ci = -1, ri, nr;
	double now = now_mono();

	if (!s->joined)
		pf[n++] = (struct pollfd){ utrace_fd(s->t), POLLIN, 0 };
	if (!s->q_gone)
		pf[n++] = (struct pollfd){ utrace_queue_fd(s->q), POLLIN, 0 };
	if (s->lfd >= 0) {
		li = n;
		pf[n++] = (struct pollfd){ s->lfd, POLLIN, 0 };
	}
	if (s->cfd >= 0) {
		ci = n;
		pf[n++] = (struct pollfd){ s->cfd, POLLIN, 0 };
	}
	ri = n;
	nr = gdb_refused_poll(s, pf + ri, rf, now, &timeout_ms);
	n += nr;
	if (poll(pf, (nfds_t)n, s->kick ? 0 : timeout_ms) < 0 &&
	    errno != EINTR)
		return -errno;
	err = settle(s, &r);
	now = now_mono();
	gdb_refused_serve(s, pf + ri, rf, nr, now);
	if (ci >= 0 && pf[ci].revents && s->cfd >= 0)
		gdb_client_read(s);
	if (li >= 0 && (pf[li].revents & POLLIN) && s->lfd >= 0)
		gdb_accept(s, now);
	/* What the packets asked for, and what that brings. */
	if (!err)
		err = settle(s, &r);
	return err < 0 ? err : r;
}

static int stub_new(const char *addr, unsigned flags, struct gdbstub **out,
		    char *why, size_t n)
{
	struct gdbstub *s = calloc(1, sizeof(*s));
	int err;

	if (!s) {
		snprintf(why, n, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	s->lfd = s->cfd = -1;
	s->any_host = flags & GDBSTUB_ANY_HOST;
	err = gdb_listen(s, addr, why, n);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

int gdbstub_new(struct utrace_tracer *t, const char *addr, unsigned flags,
		struct gdbstub **out, char *why, size_t n)
{
	struct utrace_queue *q;
	int err = utrace_queue_new(t, &q);

	if (err) {
		snprintf(why, n, "%s", strerror(-err));
		return err;
	}
	err = stub_new(addr, flags, out, why, n);
	if (err) {
		utrace_queue_free(q);
		return err;
	}
	(*out)->t = t;
	(*out)->q = q;
	return 0;
}

int gdbstub_join(struct gdbstub *s, pid_t pid)
{
	struct utrace_queue *q;
	int err = utrace_queue_connect(pid, &q);

	if (err)
		return err;
	/* Nothing is watched locally yet; freed before utrace's tracer. */
	utrace_queue_free(s->q);
	s->q = q;
	s->t = NULL;
	s->joined = true;
	s->host = NULL;		/* no vRun, no vAttach */
	return 0;
}

int gdbstub_set_process(struct gdbstub *s, pid_t pid, bool spawned)
{
	struct gproc *p = gproc_find(s, pid);

	if (p && p->gone) {
		gproc_free(s, p);	/* an old one of the same pid */
		p = NULL;
	}
	if (!p)
		p = gproc_new(s, pid);
	if (!p)
		return -ENOMEM;
	p->active = true;
	p->attached = !spawned;
	p->wait_exec = spawned;
	s->active = true;
	/* The first stop is kept for gdb's '?' (non-stop: queued). */
	s->waiting = !s->nonstop;
	return 0;
}

int gdbstub_set_host(struct gdbstub *s, const struct gdbstub_host *host,
		     void *arg, char *const *argv)
{
	size_t n = 0, i;

	s->host = host;
	s->host_arg = arg;
	while (argv && argv[n])
		n++;
	if (!n)
		return 0;
	s->run_argv = calloc(n + 1, sizeof(*s->run_argv));
	if (!s->run_argv)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->run_argv[i] = strdup(argv[i]);
		if (!s->run_argv[i]) {
			argv_free(s->run_argv);
			s->run_argv = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

int gdbstub_start(struct gdbstub *s)
{
	int err = s->procs ? gdb_start_proc(s, s->procs) : -ESRCH;

	if (!err)
		gdb_announce(s);
	return err;
}

bool gdbstub_serving(const struct gdbstub *s)
{
	if (!s)
		return false;
	/* Joined, processes a gdb left: until they end, for the next gdb. */
	if (!s->active)
		return s->joined && s->nreleased > 0;
	/*
	 * A fork child only gdb traces, extended-remote waiting for more,
	 * or (non-stop) stop notifications, the last process's end among
	 * them, that gdb has not taken yet.
	 */
	return gdb_any_live(s) || (s->cfd >= 0 && (s->extended || s->notifs));
}

void gdbstub_free(struct gdbstub *s)
{
	if (!s)
		return;
	/* Breakpoints out, held signals settled, the queue's engines gone. */
	if (s->active)
		gdb_let_go(s, false);
	gdb_ns_discard(s, 0);
	utrace_queue_free(s->q);
	gdb_close_client(s);
	gdb_refused_free(s);
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->upath)
		unlink(s->upath);
	while (s->threads) {
		struct gthr *g = s->threads;

		s->threads = g->next;
		gthr_free(g);
	}
	while (s->procs)
		gproc_free(s, s->procs);
	argv_free(s->run_argv);
	free(s->upath);
	free(s->catch_nrs);
	free(s->out);
	free(s);
}
