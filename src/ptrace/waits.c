// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): the inner tracer's wait4 and waitid, and
 * the SIGCHLD its process gets for each stop and death of its tracees.
 * An emulated event is returned at the wait's entry; a blocking wait with
 * nothing to report sleeps as pause() (callbacks.c turns it into one)
 * and is woken when a tracee stops or dies; what is not ours (real
 * children only) goes to the kernel.  What a wait or SIGCHLD reports of a
 * process that only /proc tells (its parent, group, owner, usage) is read
 * here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "core/proc.h"
#include "ptrace/ptrace.h"

/* -- What /proc says ------------------------------------------------------- */

static pid_t proc_pgid(pid_t tid)
{
	pid_t g = getpgid(tid);

	return g < 0 ? 0 : g;
}

/* A thread's real uid, what the kernel puts in si_uid of its signals. */
uid_t utrace__pe_proc_ruid(pid_t tid)
{
	long v = utrace__proc_number(tid, "Uid");

	return v < 0 ? 0 : (uid_t)v;
}

/*
 * A process's resource usage as wait4 reports it (the process and its
 * waited-for children), from /proc/PID/stat and status: times and page
 * faults exactly, in clock ticks; ru_maxrss from VmHWM.  False when gone.
 */
bool utrace__pe_proc_rusage(pid_t pid, struct rusage *ru)
{
	char path[64], buf[2048], *p;
	unsigned long minflt, cminflt, majflt, cmajflt, ut, st;
	long cut, cst, hz = sysconf(_SC_CLK_TCK);
	const char *v;
	FILE *f;
	size_t n;

	memset(ru, 0, sizeof(*ru));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %lu %lu %lu %lu "
			 "%lu %lu %ld %ld", &minflt, &cminflt, &majflt,
			 &cmajflt, &ut, &st, &cut, &cst) != 8)
		return false;
	if (hz <= 0)
		hz = 100;
	ut += cut;
	st += cst;
	ru->ru_utime.tv_sec = ut / hz;
	ru->ru_utime.tv_usec = (ut % hz) * (1000000 / hz);
	ru->ru_stime.tv_sec = st / hz;
	ru->ru_stime.tv_usec = (st % hz) * (1000000 / hz);
	ru->ru_minflt = minflt + cminflt;
	ru->ru_majflt = majflt + cmajflt;
	if (utrace__proc_status(pid, buf, sizeof(buf)) &&
	    (v = utrace__proc_field(buf, "VmHWM")))
		ru->ru_maxrss = atol(v);
	return true;
}

/* utime and stime of a thread's process in clock ticks, as in SIGCHLD. */
static void proc_times(pid_t pid, siginfo_t *si)
{
	struct rusage ru;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	if (!utrace__pe_proc_rusage(pid, &ru))
		return;
	si->si_utime = ru.ru_utime.tv_sec * hz +
		       ru.ru_utime.tv_usec / (1000000 / hz);
	si->si_stime = ru.ru_stime.tv_sec * hz +
		       ru.ru_stime.tv_usec / (1000000 / hz);
}

/* -- Waking the inner tracer ----------------------------------------------- */

/*
 * Something its wait may return has happened for a thread of process
 * @tgid's: a sleeping wait is interrupted and looks again at its exit; a
 * wait left to the kernel is interrupted too (it restarts, and we see it
 * again at its entry).
 */
void utrace__pe_wake_waiters(struct pe *pe, pid_t tgid, bool emulated)
{
	for (struct pe_thread *w = pe->threads; w; w = w->next) {
		if (w->dead || !w->e || w->tgid != tgid)
			continue;
		if (w->sys == PS_SLEEP ||
		    (w->sys == PS_REAL && emulated && w->wait_nr))
			utrace_control(w->e, UTRACE_INTERRUPT);
	}
}

/*
 * As the kernel: the tracer's process gets SIGCHLD.  The kernel refuses a
 * siginfo with si_code > 0 (CLD_TRAPPED...) from another process, so we
 * send a plain one (SI_USER, our pid) and rewrite it at its delivery
 * (pe_signal), where a ptracer may set any siginfo: the first one sent
 * while it is pending, since a pending SIGCHLD does not queue twice.
 */
void utrace__pe_notify_tracer(struct pe_thread *q)
{
	struct pe_thread *lead;
	int st = q->cur.status;

	if (!q->tracer_tgid)
		return;
	lead = utrace__pe_find(q->pe, q->tracer_tgid);
	if (lead && !lead->chld_pending) {
		siginfo_t *si = &lead->chld_si;

		memset(si, 0, sizeof(*si));
		si->si_signo = SIGCHLD;
		si->si_pid = q->tid;
		si->si_uid = utrace__pe_proc_ruid(q->tid);
		if (q->cur.kind == PK_DEATH && WIFEXITED(st)) {
			si->si_code = CLD_EXITED;
			si->si_status = WEXITSTATUS(st);
		} else if (q->cur.kind == PK_DEATH) {
			si->si_code = WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
			si->si_status = WTERMSIG(st);
		} else {
			si->si_code = CLD_TRAPPED;
			si->si_status = (st >> 8) & 0x7f;
		}
		if (q->cur.kind == PK_DEATH) {
			long hz = sysconf(_SC_CLK_TCK) > 0 ?
				  sysconf(_SC_CLK_TCK) : 100;
			const struct rusage *ru = &q->death_ru;

			si->si_utime = ru->ru_utime.tv_sec * hz +
				       ru->ru_utime.tv_usec / (1000000 / hz);
			si->si_stime = ru->ru_stime.tv_sec * hz +
				       ru->ru_stime.tv_usec / (1000000 / hz);
		} else {
			proc_times(q->tgid, si);
		}
		lead->chld_pending = true;
	}
	syscall(SYS_kill, q->tracer_tgid, SIGCHLD);
	utrace__pe_wake_waiters(q->pe, q->tracer_tgid, true);
}

/* A SIGCHLD for a thread of ours: ours made exact (see notify_tracer). */
void utrace__pe_chld_deliver(struct pe_thread *p, siginfo_t *info)
{
	struct pe_thread *lead = utrace__pe_find(p->pe, p->tgid);

	if (!lead || !lead->chld_pending)
		return;
	lead->chld_pending = false;
	if (info->si_code == SI_USER && info->si_pid == getpid())
		*info = lead->chld_si;
}

/* -- The inner tracer's waits ---------------------------------------------- */

static bool wait_match(struct pe_thread *p, const struct pe_wait *w,
		       struct pe_thread *q)
{
	if (!q->tracer || q->tracer_tgid != p->tgid)
		return false;
	if ((w->options & __WNOTHREAD) && q->tracer != p)
		return false;
	switch (w->idtype) {
	case P_ALL:
		return true;
	case P_PID:
		return q->tid == w->id;
	case P_PGID:
		return proc_pgid(q->tgid) == (w->id ? w->id :
					      proc_pgid(p->tgid));
	default:
		return false;
	}
}

static long wait_report(struct pe_thread *p, const struct pe_wait *w,
			struct pe_thread *q)
{
	int st = q->cur.status;
	long err = 0;

	if (w->waitid) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		si.si_signo = SIGCHLD;
		si.si_pid = q->tid;
		si.si_uid = utrace__pe_proc_ruid(q->tid);
		if (WIFEXITED(st)) {
			si.si_code = CLD_EXITED;
			si.si_status = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st)) {
			si.si_code = WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
			si.si_status = WTERMSIG(st);
		} else {
			si.si_code = CLD_TRAPPED;
			si.si_status = (st >> 8) & 0xffff;
		}
		if (w->info)
			err = utrace__pe_put(p, w->info, &si, sizeof(si));
	} else if (w->status) {
		err = utrace__pe_put(p, w->status, &st, sizeof(st));
	}
	if (!err && w->rusage) {
		struct rusage ru;

		/*
		 * A stop: the usage the real wait4 returned with the real stop
		 * the tracee is held in (what the kernel gives: the times to
		 * the microsecond, which strace -c subtracts), /proc's clock
		 * ticks only if that stop came without it (see trace_link).
		 */
		if (q->cur.kind == PK_DEATH)
			ru = q->death_ru;
		else if (utrace_stop_rusage(q->e, &ru))
			utrace__pe_proc_rusage(q->tgid, &ru);
		err = utrace__pe_put(p, w->rusage, &ru, sizeof(ru));
	}
	/* As the kernel: what the wait took is taken, written or not. */
	if (!(w->options & WNOWAIT)) {
		q->waitable = false;
		if (q->cur.kind == PK_DEATH) {
			pid_t tid = q->tid;

			utrace__pe_forget_tracer(q);
			utrace__pe_maybe_free(q);
			return err ? err : w->waitid ? 0 : tid;
		}
	}
	return err ? err : w->waitid ? 0 : q->tid;
}

/*
 * The state letter and exit signal of /proc/PID/stat, false once gone.
 */
static bool proc_state(pid_t pid, char *state, int *exit_signal)
{
	char path[64], buf[1024], *p;
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return false;
	*state = p[2];
	/* exit_signal is field 38; the state is field 3. */
	for (i = 3, p += 2; i < 38 && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	*exit_signal = p ? atoi(p) : SIGCHLD;
	return true;
}

/*
 * Has the waiter a real child, not ours to report, that the kernel's wait
 * would reap now: a zombie that the wait's pid, group and __WCLONE/__WALL
 * select?  Its real parent reaps it (tracee_gone), and the emulation may
 * have forgotten it already, once the library let its zombie go.
 */
static bool real_zombie(struct pe_thread *p, const struct pe_wait *w)
{
	char path[96], buf[4096], *s, *end;
	pid_t tids[64];
	int nt = 0;
	bool found = false;

	if (w->waitid && !(w->options & WEXITED))
		return false;
	if (w->options & __WNOTHREAD) {
		tids[nt++] = p->tid;
	} else {
		for (struct pe_thread *q = p->pe->threads; q && nt < 64;
		     q = q->next)
			if (q->tgid == p->tgid && !q->dead)
				tids[nt++] = q->tid;
	}
	for (int i = 0; i < nt && !found; i++) {
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
			 p->tgid, tids[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		for (s = buf; !found; s = end) {
			long c = strtol(s, &end, 10);
			char st;
			int xs;

			if (end == s || c <= 0)
				break;
			if (w->idtype == P_PID && c != w->id)
				continue;
			if (w->idtype == P_PGID &&
			    proc_pgid((pid_t)c) != (w->id ? w->id :
						    proc_pgid(p->tgid)))
				continue;
			if (!proc_state((pid_t)c, &st, &xs) || st != 'Z')
				continue;
			if (!(w->options & __WALL) &&
			    !(w->options & __WCLONE) != (xs == SIGCHLD))
				continue;
			found = true;
		}
	}
	return found;
}

/* The result, or W_PASS (let the kernel do it), or W_HOLD (block). */
long utrace__pe_wait(struct pe_thread *p, const struct pe_wait *w)
{
	bool have = false, real = false;

	if (w->idtype == P_PIDFD || (w->waitid && !(w->options &
			(WEXITED | WSTOPPED | WCONTINUED))))
		return W_PASS;
	for (struct pe_thread *q = p->pe->threads; q; q = q->next) {
		if (!wait_match(p, w, q))
			continue;
		if (q->waitable && (q->cur.kind != PK_DEATH || !w->waitid ||
				    (w->options & WEXITED)))
			return wait_report(p, w, q);
		if (q->dead && q->real_child)
			real = true;
		else
			have = true;
	}
	if (real || !have)
		return W_PASS;
	if (w->options & WNOHANG) {
		p->fix_echild = true;
		return W_PASS;
	}
	if (real_zombie(p, w))
		return W_PASS;
	return W_HOLD;
}

void utrace__pe_wait_args(struct pe_thread *p,
			  const struct user_regs_struct *rg,
			  struct pe_wait *w)
{
	memset(w, 0, sizeof(*w));
	if ((long)rg->orig_rax == SYS_waitid) {
		w->waitid = true;
		w->idtype = (int)rg->rdi;
		w->id = (pid_t)rg->rsi;
		w->info = rg->rdx;
		w->options = (int)rg->r10;
		w->rusage = rg->r8;
		return;
	}
	w->id = (pid_t)rg->rdi;
	w->status = rg->rsi;
	w->options = (int)rg->rdx | WEXITED;
	w->rusage = rg->r10;
	if (w->id == -1) {
		w->idtype = P_ALL;
	} else if (w->id > 0) {
		w->idtype = P_PID;
	} else {
		w->idtype = P_PGID;
		w->id = w->id ? -w->id : 0;
	}
}

/* The exit of a wait that slept as pause(): complete it, or restart it. */
void utrace__pe_sleep_exit(struct pe_thread *p)
{
	struct user_regs_struct cur;
	struct pe_wait w;
	long ret;

	utrace__pe_wait_args(p, &p->wait_regs, &w);
	ret = utrace__pe_wait(p, &w);
	if (utrace_regs_get(p->e, &cur))
		return;
	cur.orig_rax = p->wait_regs.orig_rax;
	cur.rdi = p->wait_regs.rdi;
	cur.rsi = p->wait_regs.rsi;
	cur.rdx = p->wait_regs.rdx;
	cur.r10 = p->wait_regs.r10;
	cur.r8 = p->wait_regs.r8;
	cur.r9 = p->wait_regs.r9;
	/*
	 * Nothing (a signal came, or we were woken for a real child): the
	 * wait is restarted after the signal, as the kernel restarts an
	 * interrupted wait (or fails it with EINTR for a handler without
	 * SA_RESTART); it comes back to its entry.
	 */
	cur.rax = ret == W_PASS || ret == W_HOLD ? (unsigned long)-512L :
		  (unsigned long)ret;
	utrace_regs_set(p->e, &cur);
}
