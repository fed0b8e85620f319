// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: breakpoints and watchpoints (gdbserver's mem-break):
 * int3 bytes planted per process, hidden from gdb's memory reads and kept
 * under its writes, and Z1..Z4 requests laid out in the debug registers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdb/gdb.h"

void gdb_bps_free(struct gproc *p)
{
	struct swbp *b;

	while ((b = p->bps)) {
		p->bps = b->next;
		free(b);
	}
}

struct swbp *gdb_bp_find(struct gproc *p, uint64_t addr)
{
	struct swbp *b;

	for (b = p->bps; b; b = b->next)
		if (b->addr == addr)
			return b;
	return NULL;
}

/* Our int3 bytes are in a forked child's copy of the memory: take them out. */
void gdb_unplant_child(struct gproc *p, pid_t child)
{
	struct swbp *b;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", child);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	for (b = p->bps; b; b = b->next)
		if (pwrite(fd, &b->orig, 1, (off_t)b->addr) != 1)
			break;
	close(fd);
}

/* Memory as the program has it: our int3 bytes show the original. */
void gdb_do_read_mem(struct gdbstub *s, const char *p)
{
	struct gthr *g = gthr_access(s);
	unsigned long addr, len;
	unsigned char *buf;
	struct swbp *b;
	char *out;
	ssize_t n;

	if (!gdb_parse_addr_len(p, &addr, &len)) {
		gdb_send_error(s, 1);
		return;
	}
	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	if (len > PKT_MAX / 2 - 8)
		len = PKT_MAX / 2 - 8;
	if (len && addr + len - 1 < addr) {
		gdb_send_error(s, 14);	/* past the end of the address space */
		return;
	}
	buf = malloc(len + 1);
	out = malloc(2 * len + 1);
	if (!buf || !out) {
		free(buf);
		free(out);
		gdb_send_error(s, 12);
		return;
	}
	n = len ? gthr_mem_rw(g, addr, buf, len, false) : 0;
	if (n < 0 || (n == 0 && len)) {
		gdb_send_error(s, 14);
	} else {
		for (b = g->p->bps; b; b = b->next)
			if (b->addr >= addr && b->addr < addr + (unsigned long)n)
				buf[b->addr - addr] = b->orig;
		gdb_put_hex(out, buf, (size_t)n);
		gdb_send_packet(s, out);
	}
	free(buf);
	free(out);
}

/* Writes keep our int3 bytes in place and update what they hide. */
static int write_mem(struct gdbstub *s, struct gthr *g, uint64_t addr,
		     unsigned char *buf, size_t len)
{
	struct swbp *b;
	ssize_t n;

	for (b = g->p->bps; b; b = b->next)
		if (b->addr >= addr && b->addr < addr + len) {
			b->orig = buf[b->addr - addr];
			buf[b->addr - addr] = 0xcc;
		}
	n = len ? gthr_mem_rw(g, addr, buf, len, true) : 0;
	return n == (ssize_t)len ? 0 : -EFAULT;
}

void gdb_do_write_mem(struct gdbstub *s, const char *p, const char *end,
			 bool binary)
{
	struct gthr *g = gthr_access(s);
	unsigned long addr, len;
	unsigned char *buf;

	/*
	 * ADDR,LEN:DATA with exactly LEN bytes of data (binary, its escapes
	 * undone when the packet was read) or 2 * LEN hex digits, as
	 * gdbserver's decode_M_packet and decode_X_packet want: nothing is
	 * written otherwise.
	 */
	if (!gdb_parse_ulong(&p, &addr) || *p++ != ',' ||
	    !gdb_parse_ulong(&p, &len) || *p++ != ':' || len > PKT_MAX ||
	    (binary ? (unsigned long)(end - p) != len :
	     strlen(p) != 2 * len) ||
	    (len && addr + len - 1 < addr)) {
		gdb_send_error(s, 1);
		return;
	}
	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	buf = malloc(len + 1);
	if (!buf) {
		gdb_send_error(s, 12);
		return;
	}
	if (binary) {
		memcpy(buf, p, len);
	} else if (gdb_get_hex(buf, p, len) != (ssize_t)len) {
		free(buf);
		gdb_send_error(s, 1);
		return;
	}
	gdb_send_packet(s, write_mem(s, g, addr, buf, len) ? "E0e" : "OK");
	free(buf);
}

/* The aligned pieces (1, 2, 4 or 8 bytes) of a watched range. */
static int hw_pieces(uint64_t addr, unsigned long len, uint64_t *pa, int *pl,
		     int max)
{
	int n = 0;

	while (len) {
		int sz = 8;

		while (sz > 1 && ((addr & (uint64_t)(sz - 1)) || (unsigned long)sz > len))
			sz /= 2;
		if (n == max)
			return -1;
		pa[n] = addr;
		pl[n++] = sz;
		addr += (uint64_t)sz;
		len -= (unsigned long)sz;
	}
	return n;
}

void gdb_do_point(struct gdbstub *s, const char *p, bool insert)
{
	struct gthr *g = gthr_access(s);
	struct gproc *pr;
	unsigned long type, addr, kind;
	uint64_t pa[4];
	int pl[4], n, i, j, free_slots = 0;

	/* TYPE,ADDR,KIND: no conditions or commands (not offered). */
	if (!gdb_parse_ulong(&p, &type) || *p++ != ',' ||
	    !gdb_parse_ulong(&p, &addr) || *p++ != ',' ||
	    !gdb_parse_ulong(&p, &kind) || *p) {
		gdb_send_error(s, 1);
		return;
	}
	if (type > 4 || type == 3) {
		gdb_send_packet(s, "");	/* read watchpoints: x86 has none */
		return;
	}
	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	pr = g->p;
	if (type == 0) {
		struct swbp *b = gdb_bp_find(pr, addr), **pp;
		unsigned char cc = 0xcc;

		if (insert) {
			if (b) {
				gdb_send_packet(s, "OK");
				return;
			}
			b = calloc(1, sizeof(*b));
			if (!b ||
			    gthr_mem_rw(g, addr, &b->orig, 1, false) != 1 ||
			    gthr_mem_rw(g, addr, &cc, 1, true) != 1) {
				free(b);
				gdb_send_error(s, 14);
				return;
			}
			b->addr = addr;
			b->next = pr->bps;
			pr->bps = b;
		} else if (b) {
			gthr_mem_rw(g, addr, &b->orig, 1, true);
			for (pp = &pr->bps; *pp != b; pp = &(*pp)->next)
				;
			*pp = b->next;
			free(b);
		}
		gdb_send_packet(s, "OK");
		return;
	}
	if (type == 1)
		kind = 1;
	n = hw_pieces(addr, kind, pa, pl, 4);
	if (insert) {
		for (i = 0; i < 4; i++)
			free_slots += !pr->dr[i].used;
		if (n < 0 || n > free_slots) {
			gdb_send_error(s, 28);
			return;
		}
		for (i = 0, j = 0; i < 4 && j < n; i++) {
			if (pr->dr[i].used)
				continue;
			pr->dr[i] = (struct hwslot){ true, (char)('0' + type),
				pa[j], type == 1 ? 1 : pl[j], addr, (int)kind };
			j++;
		}
	} else {
		for (i = 0; i < 4; i++)
			if (pr->dr[i].used && pr->dr[i].req_addr == addr &&
			    pr->dr[i].req_len == (int)kind &&
			    pr->dr[i].type == (char)('0' + type))
				pr->dr[i].used = false;
	}
	pr->dr_gen++;
	gdb_send_packet(s, "OK");
}
