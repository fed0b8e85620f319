# libutrace - build, test, install.
#   make                 library, tools, examples
#   make check           build and run the whole test suite (TAP)
#   make check-layers    what may use what (docs/DESIGN.md), checked
#   make SANITIZE=1 ...  the same under AddressSanitizer + UBSan
#   make O=dir ...       build into another directory
#   make install PREFIX=/usr/local DESTDIR=

VERSION   := 0.3.0
SOVERSION := 0
O         ?= build
PREFIX    ?= /usr/local
LIBDIR    ?= $(PREFIX)/lib
INCDIR    ?= $(PREFIX)/include
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share
PKGDIR    ?= $(LIBDIR)/pkgconfig

CC        ?= cc
WARN      := -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes \
	     -Wformat=2 -Wformat-security -Wshadow -Wno-unused-parameter
CFLAGS    ?= -O2 -g
ifeq ($(WERROR),1)
WARN      += -Werror
endif
ifeq ($(SANITIZE),1)
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined
endif
# The one version: the library's file names, libutrace.pc, utrace -V,
# utraced -V and the installed manual pages all take it from here.
CPPFLAGS  += -D_GNU_SOURCE -Iinclude -DUTRACE_VERSION='"$(VERSION)"'
ALLCFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -pthread
LDLIBS    += -lseccomp -pthread

LIB_SRCS  := $(wildcard src/*/*.c)
LIB_ASMS  := $(wildcard src/*/*.S)
LIB_HDRS  := $(wildcard src/*/*.h)
LIB_OBJS  := $(LIB_SRCS:%.c=$(O)/%.o) $(LIB_ASMS:%.S=$(O)/%.o)
LIB_PICS  := $(LIB_SRCS:%.c=$(O)/%.pic.o) $(LIB_ASMS:%.S=$(O)/%.pic.o)
STATIC    := $(O)/libutrace.a
SHARED    := $(O)/libutrace.so.$(VERSION)

EXAMPLES  := $(patsubst examples/%.c,$(O)/examples/%,$(wildcard examples/*.c))
UNIT      := $(patsubst test/unit/%.c,$(O)/test/unit/%,$(wildcard test/unit/*.c))
LIBTESTS  := $(patsubst test/lib/%.c,$(O)/test/lib/%,$(wildcard test/lib/*.c))
PROGS     := $(patsubst test/progs/%.c,$(O)/test/progs/%,$(wildcard test/progs/*.c))
TOOLS     :=

.DEFAULT_GOAL := all
-include tools/tools.mk
-include tools/utraced/utraced.mk

all: $(STATIC) $(SHARED) $(O)/libutrace.pc $(TOOLS) $(EXAMPLES)

$(O)/src/%.o: src/%.c $(LIB_HDRS) include/utrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc $(ALLCFLAGS) -fvisibility=hidden -c -o $@ $<

$(O)/src/%.pic.o: src/%.c $(LIB_HDRS) include/utrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc $(ALLCFLAGS) -fvisibility=hidden -fPIC -c -o $@ $<

# The code placed in traced processes (src/record/blob.S): position-
# independent by itself, copied out of the library as bytes.
$(O)/src/%.o: src/%.S $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc -c -o $@ $<

$(O)/src/%.pic.o: src/%.S $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc -c -o $@ $<

$(STATIC): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_PICS) src/libutrace.map
	$(CC) $(ALLCFLAGS) -shared -Wl,-soname,libutrace.so.$(SOVERSION) \
		-Wl,--version-script=src/libutrace.map -o $@ $(LIB_PICS) $(LDLIBS)
	ln -sf libutrace.so.$(VERSION) $(O)/libutrace.so.$(SOVERSION)
	ln -sf libutrace.so.$(SOVERSION) $(O)/libutrace.so

$(O)/libutrace.pc: libutrace.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' $< > $@

$(O)/examples/%: examples/%.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# Unit tests may look inside the library (pure logic, no ptrace).
$(O)/test/unit/%: test/unit/%.c test/harness.h $(LIB_HDRS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc -Itest $(ALLCFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# Library tests use only the public header.
$(O)/test/lib/%: test/lib/%.c test/harness.h $(wildcard test/lib/*.h) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Isrc $(ALLCFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# Tracee programs: plain, never sanitized (they run under the tracer).
$(O)/test/progs/%: test/progs/%.c $(wildcard test/progs/*.h)
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -std=gnu11 -O1 -g -Wall -pthread -o $@ $<

# Programs of the CLI tests built on the library (test/cli/qreply.c).
$(O)/test/cli/qreply: test/cli/qreply.c include/utrace.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

tests: $(UNIT) $(LIBTESTS) $(PROGS) $(TOOLS) $(O)/test/cli/qreply

# Installs missing build dependencies (Debian packages) first.
deps:
	@./scripts/deps

# The build before the tests uses every CPU unless make was given -j.
check: deps
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) all tests
	O=$(O) ./test/run-tests

# The rules of docs/DESIGN.md, "Folders and what may use what": the
# library's layers and gdb's framing, then the command's folders.
check-layers: all
	O=$(O) sh scripts/check-layers
	O=$(O) sh test/cli/layers.sh >$(O)/layers.tap; st=$$?; \
		cat $(O)/layers.tap; [ $$st -eq 0 ] && ! grep -q '^not ok' $(O)/layers.tap

# The main job: trace a real program with several engines at once.
demo: deps
	$(MAKE) all
	./scripts/demo $(O)

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(PKGDIR) \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(DATADIR)/utrace
	install -m 644 include/utrace.h $(DESTDIR)$(INCDIR)/
	install -m 644 docs/utrace-json.schema.json $(DESTDIR)$(DATADIR)/utrace/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libutrace.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libutrace.so.$(SOVERSION)
	ln -sf libutrace.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libutrace.so
	# Made here, not at build time: PREFIX may differ from the build's.
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
		libutrace.pc.in > $(DESTDIR)$(PKGDIR)/libutrace.pc
	# The pages' footers get the version ("libutrace 0.3.0").
	for f in man/man[137]/*.[137]; do \
		sed -e '/^\.TH /s/"libutrace"/"libutrace $(VERSION)"/' "$$f" \
			>$(DESTDIR)$(MANDIR)/$${f#man/} || exit 1; \
		chmod 644 $(DESTDIR)$(MANDIR)/$${f#man/}; \
	done
	$(if $(TOOLS),install -m 755 $(TOOLS) $(DESTDIR)$(BINDIR)/)
	# The installed tools link libutrace statically and need no search
	# path.  Programs linked with -lutrace find libutrace.so.0 through the
	# dynamic linker's cache: refreshed when installing for this machine
	# into a directory it searches, never for a DESTDIR or a private
	# prefix (whose programs use an rpath).
	$(if $(DESTDIR),,@./scripts/ldconfig-if-searched $(LIBDIR))

clean:
	rm -rf $(O)

.PHONY: all tests deps check check-layers demo install clean
.SECONDARY:
