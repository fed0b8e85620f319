// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -k: the stack of a stopped tracee, as strace 6.1 prints it with its
 * elfutils (libdwfl) backend.
 *
 * One unwinder per traced process, shared by its threads: a Dwfl that
 * knows the process's modules (from /proc/PID/maps) and a small cache of
 * symbolised addresses.  Its thread callbacks read registers and memory
 * through libutrace (utrace_regs_get, utrace_mem_read) on the engine of
 * the thread being walked, which is stopped while its report runs.
 *
 * The module list is read again, as strace does, after a syscall that
 * can change the mappings (mmap, munmap, mprotect, brk, mremap, shmat,
 * shmdt, remap_file_pages, pkey_mprotect, execve, execveat) has returned:
 * a small engine of its own, attached to every thread before the
 * printer, counts those; an exec also starts a new Dwfl, since the whole
 * image changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/user.h>

#include <elfutils/libdwfl.h>
/* demangle.h without libiberty.h, whose definitions clash with libc's. */
#define LIBIBERTY_H
#include <libiberty/demangle.h>

#include "cli.h"
#include "engines/unwind.h"

#define UW_CACHE_SIZE	1024	/* symbolised addresses kept per process */
#define UW_MAX_DEPTH	256	/* strace's limit */

struct uw_cache {
	Dwarf_Addr pc;
	unsigned long long gen;	/* 0: empty */
	const char *modname;
	const char *symname;
	GElf_Off off;
	Dwarf_Addr true_offset;
};

struct unwinder {
	int refs;
	pid_t pid;			/* the process (thread group) */
	Dwfl *dwfl;
	bool broken;			/* Dwfl could not be set up */
	struct sink *msgs;		/* where errors are said */
	unsigned long long gen;		/* bumped when the mappings change */
	unsigned long long reported;	/* gen the module list is from */
	bool exec;			/* a new image: start a new Dwfl */
	/* The walk under way. */
	struct utrace_engine *e;
	pid_t tid;
	struct uw_cache cache[UW_CACHE_SIZE];
};

struct unwinder *unwinder_new(pid_t pid, struct sink *msgs)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->refs = 1;
	u->pid = pid;
	u->msgs = msgs;
	u->gen = 1;
	return u;
}

struct unwinder *unwinder_get(struct unwinder *u)
{
	if (u)
		u->refs++;
	return u;
}

void unwinder_put(struct unwinder *u)
{
	if (!u || --u->refs > 0)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}

void unwinder_maps_changed(struct unwinder *u, bool exec)
{
	u->gen++;
	if (exec)
		u->exec = true;
}

/* -- Thread callbacks: the thread being walked, through libutrace ------- */

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->tid;
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *arg,
			  void **thread_argp)
{
	struct unwinder *u = arg;

	*thread_argp = u;
	return tid == u->tid;
}

static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	struct unwinder *u = arg;
	uint64_t v;

	if (utrace_mem_read(u->e, addr, &v, sizeof(v)) != sizeof(v))
		return false;
	*result = v;
	return true;
}

static bool uw_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	struct user_regs_struct r;
	Dwarf_Word dw[17];

	if (utrace_regs_get(u->e, &r) < 0)
		return false;
#if defined(__x86_64__)
	/* The DWARF register numbers of the x86-64 psABI. */
	dw[0] = r.rax;
	dw[1] = r.rdx;
	dw[2] = r.rcx;
	dw[3] = r.rbx;
	dw[4] = r.rsi;
	dw[5] = r.rdi;
	dw[6] = r.rbp;
	dw[7] = r.rsp;
	dw[8] = r.r8;
	dw[9] = r.r9;
	dw[10] = r.r10;
	dw[11] = r.r11;
	dw[12] = r.r12;
	dw[13] = r.r13;
	dw[14] = r.r14;
	dw[15] = r.r15;
	dw[16] = r.rip;
	if (!dwfl_thread_state_registers(thread, 0, 17, dw))
		return false;
	dwfl_thread_state_register_pc(thread, r.rip);
	return true;
#else
#error "-k: the initial registers of this architecture are not written yet"
#endif
}

static const Dwfl_Thread_Callbacks uw_thread_callbacks = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_initial_registers,
};

static const Dwfl_Callbacks uw_proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

/* The module list of the process, read again if the mappings changed. */
static bool uw_refresh(struct unwinder *u)
{
	if (u->exec && u->dwfl) {
		dwfl_end(u->dwfl);
		u->dwfl = NULL;
		u->broken = false;
	}
	u->exec = false;
	if (u->broken)
		return false;
	if (u->dwfl && u->reported == u->gen)
		return true;
	if (!u->dwfl) {
		u->dwfl = dwfl_begin(&uw_proc_callbacks);
		if (!u->dwfl) {
			sink_msg(u->msgs, "dwfl_begin: %s", dwfl_errmsg(-1));
			u->broken = true;
			return false;
		}
	}
	dwfl_report_begin(u->dwfl);
	if (dwfl_linux_proc_report(u->dwfl, u->pid) != 0 ||
	    dwfl_report_end(u->dwfl, NULL, NULL) != 0) {
		sink_msg(u->msgs, "dwfl_linux_proc_report returned an error for "
			   "pid %d: %s", u->pid, dwfl_errmsg(-1));
		dwfl_end(u->dwfl);
		u->dwfl = NULL;
		return false;
	}
	if (dwfl_pid(u->dwfl) < 0 &&
	    !dwfl_attach_state(u->dwfl, NULL, u->pid, &uw_thread_callbacks,
			       u)) {
		sink_msg(u->msgs, "dwfl_attach_state returned an error for pid %d: "
			   "%s", u->pid, dwfl_errmsg(-1));
		dwfl_end(u->dwfl);
		u->dwfl = NULL;
		return false;
	}
	u->reported = u->gen;
	return true;
}

/* -- Walking and printing ------------------------------------------------ */

struct uw_walk {
	struct unwinder *u;
	struct sbuf *out;
	bool queued;
	int depth;
};

/*
 * One frame, in strace's two forms: printed at once, an empty symbol
 * name is left out ("mod() [0x..]"); queued at entry and printed later,
 * any symbol name found, even empty, is printed ("mod(+0x0) [0x..]").
 */
static void uw_put_frame(struct uw_walk *w, const char *mod, const char *sym,
			 GElf_Off off, Dwarf_Addr true_offset)
{
	bool with_sym = w->queued ? sym != NULL : sym && sym[0];

	if (with_sym) {
		/* C++ names demangled, with parameters, as strace does. */
		char *dm = cplus_demangle(sym, DMGL_AUTO | DMGL_PARAMS);

		sb_printf(w->out, " > %s(%s+0x%lx) [0x%lx]\n", mod,
			  dm ? dm : sym, (unsigned long)off,
			  (unsigned long)true_offset);
		free(dm);
	} else if (mod) {
		sb_printf(w->out, " > %s() [0x%lx]\n", mod,
			  (unsigned long)true_offset);
	} else {
		sb_printf(w->out, " > BUG IN %s\n",
			  w->queued ? "sprint_call_or_error" : "print_call_cb");
	}
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	struct uw_walk *w = arg;
	struct unwinder *u = w->u;
	struct uw_cache *ce;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return -1;
	if (!activation)
		pc--;
	ce = &u->cache[(pc ^ (pc >> 12)) % UW_CACHE_SIZE];
	if (ce->gen == u->gen && ce->pc == pc) {
		uw_put_frame(w, ce->modname, ce->symname, ce->off,
			     ce->true_offset);
	} else {
		Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);

		if (mod) {
			const char *modname, *symname;
			Dwarf_Addr true_offset = pc;
			GElf_Off off = 0;
			GElf_Sym sym;

			modname = dwfl_module_info(mod, NULL, NULL, NULL,
						   NULL, NULL, NULL, NULL);
			symname = dwfl_module_addrinfo(mod, pc, &off, &sym,
						       NULL, NULL, NULL);
			dwfl_module_relocate_address(mod, &true_offset);
			uw_put_frame(w, modname, symname, off, true_offset);
			ce->gen = u->gen;
			ce->pc = pc;
			ce->modname = modname;
			ce->symname = symname;
			ce->off = off;
			ce->true_offset = true_offset;
		}
		/* strace prints nothing for an address in no module. */
	}
	if (w->depth-- == 0)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

void unwind_walk(struct unwinder *u, struct utrace_engine *e, pid_t tid,
		 struct sbuf *out, bool queued)
{
	struct uw_walk w = {
		.u = u, .out = out, .queued = queued, .depth = UW_MAX_DEPTH,
	};
	int r;

	if (!u || !uw_refresh(u))
		return;
	u->e = e;
	u->tid = tid;
	r = dwfl_getthread_frames(u->dwfl, tid, uw_frame, &w);
	/*
	 * A walk that reaches an address in no module (after clone3 in the
	 * parent, at the dynamic loader's entry point) ends silently, as
	 * Debian's strace 6.1 (libunwind) ends it; strace's libdw backend
	 * would add " > no matching address range".
	 */
	if (r < 0 && strcmp(dwfl_errmsg(-1), "no matching address range"))
		sb_printf(out, " > %s\n", dwfl_errmsg(-1));
	else if (r > 0)
		sb_puts(out, " > too many stack frames\n");
	u->e = NULL;
}

/* -- The engine that sees the mappings change ---------------------------- */

static const long uw_map_nrs[] = {
	SYS_mmap, SYS_mprotect, SYS_munmap, SYS_brk, SYS_mremap, SYS_shmat,
	SYS_shmdt, SYS_remap_file_pages, SYS_pkey_mprotect, SYS_execve,
	SYS_execveat,
};

static uint32_t uw_syscall_exit(uint32_t action, struct utrace_engine *e)
{
	struct unwinder *u = utrace_engine_data(e);
	struct utrace_syscall sc;
	size_t i;

	if (utrace_syscall_get(e, &sc) == 0)
		for (i = 0; i < sizeof(uw_map_nrs) / sizeof(uw_map_nrs[0]);
		     i++)
			if (sc.nr == uw_map_nrs[i]) {
				unwinder_maps_changed(u, false);
				break;
			}
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
}

static uint32_t uw_exec(uint32_t action, struct utrace_engine *e,
			pid_t former)
{
	unwinder_maps_changed(utrace_engine_data(e), true);
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
}

static void uw_release(void *data)
{
	unwinder_put(data);
}

static const struct utrace_engine_ops unwind_ops = {
	.report_syscall_exit = uw_syscall_exit,
	.report_exec = uw_exec,
	.release = uw_release,
};

int unwind_attach(struct utrace_tracer *tr, pid_t tid, struct unwinder *u)
{
	struct utrace_engine *e;
	int err;

	err = utrace_attach(tr, tid, UTRACE_ATTACH_CREATE, &unwind_ops,
			    unwinder_get(u), &e);
	if (err) {
		unwinder_put(u);
		return err;
	}
	utrace_set_syscalls(e, uw_map_nrs,
			    sizeof(uw_map_nrs) / sizeof(uw_map_nrs[0]));
	err = utrace_set_events(e, UTRACE_EVENT(SYSCALL_EXIT) |
				UTRACE_EVENT(EXEC));
	utrace_engine_put(e);
	return err;
}
