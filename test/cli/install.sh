#!/bin/sh
# make install honours PREFIX and DESTDIR, and a program written only
# against the public names builds with pkg-config against the installed
# header and library, then traces a real program.
O=${O:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
san=
nm "$O/libutrace.a" 2>/dev/null | grep -q __asan_init &&
	san="-fsanitize=address,undefined"

if make -s O="$O" ${san:+SANITIZE=1} install PREFIX=/opt/ut DESTDIR="$tmp/root" >"$tmp/log" 2>&1 &&
   [ -f "$tmp/root/opt/ut/include/utrace.h" ] &&
   [ -f "$tmp/root/opt/ut/lib/libutrace.so.0" ] &&
   [ -f "$tmp/root/opt/ut/share/man/man7/utrace.7" ] &&
   [ -f "$tmp/root/opt/ut/share/man/man3/utrace_attach.3" ] &&
   [ -f "$tmp/root/opt/ut/share/utrace/utrace-json.schema.json" ] &&
   grep -q '^prefix=/opt/ut$' "$tmp/root/opt/ut/lib/pkgconfig/libutrace.pc"; then
	echo "ok - install with PREFIX and DESTDIR"
else
	echo "not ok - install with PREFIX and DESTDIR"
	sed 's/^/# /' "$tmp/log"
fi

cat >"$tmp/count.c" <<'C'
#include <stdio.h>
#include <utrace.h>

static unsigned long n;

static uint32_t on_entry(uint32_t action, struct utrace_engine *e)
{
	n++;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops ops = {
	.report_syscall_entry = on_entry,
};

int main(int argc, char **argv)
{
	struct utrace_tracer *t;
	struct utrace_engine *e;
	pid_t pid;

	if (utrace_tracer_new(&t) || utrace_spawn(t, argv + 1, NULL, &pid) ||
	    utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &ops, NULL, &e) ||
	    utrace_set_events(e, UTRACE_EVENT(SYSCALL_ENTRY)) ||
	    utrace_run(t))
		return 1;
	utrace_engine_put(e);
	utrace_tracer_free(t);
	printf("%lu\n", n);
	return n > 10 ? 0 : 1;
}
C
# pkg-config answers for the installed prefix; DESTDIR moves the files.
pc=$(PKG_CONFIG_PATH="$tmp/root/opt/ut/lib/pkgconfig" \
	PKG_CONFIG_SYSROOT_DIR="$tmp/root" pkg-config --cflags --libs libutrace)
if cc $san -Wall -Werror -o "$tmp/count" "$tmp/count.c" $pc 2>"$tmp/log" &&
   LD_LIBRARY_PATH="$tmp/root/opt/ut/lib" "$tmp/count" /bin/true >"$tmp/out"; then
	echo "ok - builds with pkg-config and traces /bin/true ($(cat "$tmp/out") syscalls)"
else
	echo "not ok - builds with pkg-config and traces /bin/true"
	sed 's/^/# /' "$tmp/log" "$tmp/out" 2>/dev/null
fi

# The installed utrace needs no LD_LIBRARY_PATH (libutrace is linked in).
if env -u LD_LIBRARY_PATH "$tmp/root/opt/ut/bin/utrace" -o "$tmp/trace" \
	/bin/true 2>"$tmp/log" && grep -q '^exit_group(0)' "$tmp/trace" &&
   ! ldd "$tmp/root/opt/ut/bin/utrace" | grep -q libutrace; then
	echo "ok - the installed utrace runs without LD_LIBRARY_PATH"
else
	echo "not ok - the installed utrace runs without LD_LIBRARY_PATH"
	sed 's/^/# /' "$tmp/log"
fi

# A program of a non-standard prefix finds libutrace.so.0 by its rpath, as
# README.md documents.
if cc $san -Wall -Werror -o "$tmp/count-rpath" "$tmp/count.c" $pc \
	-Wl,-rpath,/opt/ut/lib 2>"$tmp/log" &&
   readelf -d "$tmp/count-rpath" | grep -Eq '(RPATH|RUNPATH).*/opt/ut/lib'; then
	echo "ok - linked with -Wl,-rpath,LIBDIR as README.md says"
else
	echo "not ok - linked with -Wl,-rpath,LIBDIR as README.md says"
	sed 's/^/# /' "$tmp/log"
fi

# ldconfig only for a directory the dynamic linker searches: never with
# DESTDIR, never for a private prefix (whose directory would otherwise be
# written into /etc/ld.so.cache).
sum() { cksum </etc/ld.so.cache 2>/dev/null; }
before=$(sum)
make -s O="$O" ${san:+SANITIZE=1} install PREFIX="$tmp/private" \
	>"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(sum)" = "$before" ] &&
   ! ldconfig -p | grep -q "$tmp/private" &&
   grep -q "is not searched by the dynamic linker" "$tmp/log"; then
	echo "ok - a private PREFIX leaves /etc/ld.so.cache alone"
else
	echo "not ok - a private PREFIX leaves /etc/ld.so.cache alone"
	sed 's/^/# /' "$tmp/log"
fi
make -s O="$O" ${san:+SANITIZE=1} install PREFIX=/usr/local \
	DESTDIR="$tmp/root2" >"$tmp/log" 2>&1
if [ $? -eq 0 ] && ! grep -q ldconfig "$tmp/log" && [ "$(sum)" = "$before" ]; then
	echo "ok - DESTDIR: no ldconfig"
else
	echo "not ok - DESTDIR: no ldconfig"
	sed 's/^/# /' "$tmp/log"
fi

# One version, the Makefile's: utrace -V, utraced -V, the library's file,
# libutrace.pc and the installed pages' footers.
v=$(sed -n 's/^VERSION *:= *//p' Makefile)
r=$tmp/root/opt/ut
if [ -n "$v" ] &&
   [ "$("$r/bin/utrace" -V)" = "utrace -- version $v (libutrace API $(sed -n 's/^#define UTRACE_API_VERSION[^0-9]*//p' include/utrace.h))" ] &&
   "$r/bin/utraced" -V | grep -q "^utraced -- version $v " &&
   [ -f "$r/lib/libutrace.so.$v" ] &&
   grep -q "^Version: $v$" "$r/lib/pkgconfig/libutrace.pc" &&
   grep -q "^\.TH UTRACE 1 [0-9-]* \"libutrace $v\"" "$r/share/man/man1/utrace.1" &&
   grep -q "^\.TH UTRACE_ATTACH 3 [0-9-]* \"libutrace $v\"" "$r/share/man/man3/utrace_attach.3" &&
   ! grep -l '^\.TH.*"libutrace [0-9]' man/man*/* | grep -q .; then
	echo "ok - one version ($v): -V, the library, libutrace.pc, the pages"
else
	echo "not ok - one version ($v): -V, the library, libutrace.pc, the pages"
	"$r/bin/utrace" -V | sed 's/^/# /'
	"$r/bin/utraced" -V | sed 's/^/# /'
fi
