# The utrace command (tools/utrace/), built on the public API only.
UTRACE_SRCS := $(wildcard tools/utrace/*.c tools/utrace/*/*.c)
UTRACE_HDRS := $(wildcard tools/utrace/*.h tools/utrace/*/*.h)
UTRACE_OBJS := $(UTRACE_SRCS:%.c=$(O)/%.o)
TOOLS += $(O)/utrace
# -k unwinds with elfutils' libdwfl (Debian: libdw-dev) and demangles C++
# names with libiberty's cplus_demangle (libiberty-dev), as strace does.
DW_CFLAGS := $(shell pkg-config --cflags libdw 2>/dev/null)
DW_LIBS := $(shell pkg-config --libs libdw 2>/dev/null || echo -ldw -lelf) \
	-liberty

$(O)/tools/utrace/%.o: tools/utrace/%.c $(UTRACE_HDRS) include/utrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itools/utrace $(DW_CFLAGS) $(ALLCFLAGS) -c -o $@ $<

$(O)/utrace: $(UTRACE_OBJS) $(STATIC)
	$(CC) $(ALLCFLAGS) -o $@ $(UTRACE_OBJS) $(STATIC) $(DW_LIBS) $(LDLIBS)

# The syscall table's own test links the table and the decoders.
UTRACE_TABLE_OBJS := $(filter $(O)/tools/utrace/decode/%.o \
	$(O)/tools/utrace/util/%.o,$(UTRACE_OBJS))
$(O)/test/unit/syscalls: test/unit/syscalls.c test/harness.h \
		$(UTRACE_HDRS) $(UTRACE_TABLE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace \
		-DDECODERS_H='"$(CURDIR)/tools/utrace/decode/decoders.h"' \
		$(ALLCFLAGS) -rdynamic -o $@ $< $(UTRACE_TABLE_OBJS) $(LDLIBS) -ldl

# The capture rules against the decoders (decode/capture.c).
$(O)/test/unit/capture: test/unit/capture.c test/harness.h \
		$(UTRACE_HDRS) $(UTRACE_TABLE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace $(ALLCFLAGS) -o $@ $< \
		$(UTRACE_TABLE_OBJS) $(LDLIBS)

# The string buffer's formatter against snprintf(3).
$(O)/test/unit/sbuf: test/unit/sbuf.c test/harness.h tools/utrace/util/sbuf.h \
		$(O)/tools/utrace/util/sbuf.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace $(ALLCFLAGS) -o $@ $< \
		$(O)/tools/utrace/util/sbuf.o $(LDLIBS)

# The engines as objects, two printers and a counter in one process
# (test/cli/engines.c): the command's objects without the run of the
# command itself (main.c, start.c, keeper.c, tips.c).
UTRACE_ENGINE_OBJS := $(filter-out $(addprefix $(O)/tools/utrace/,main.o \
	start.o keeper.o tips.o),$(UTRACE_OBJS))
$(O)/test/cli/engines: test/cli/engines.c test/harness.h \
		$(UTRACE_HDRS) $(UTRACE_ENGINE_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace $(DW_CFLAGS) $(ALLCFLAGS) \
		-o $@ $< $(UTRACE_ENGINE_OBJS) $(STATIC) $(DW_LIBS) $(LDLIBS)
tests: $(O)/test/cli/engines

# The command's thread-id map against a plain array.
$(O)/test/unit/tidmap: test/unit/tidmap.c test/harness.h \
		tools/utrace/util/tidmap.h $(O)/tools/utrace/util/tidmap.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace $(ALLCFLAGS) -o $@ $< \
		$(O)/tools/utrace/util/tidmap.o $(LDLIBS)

# utrace -V prints the Makefile's VERSION.
$(O)/tools/utrace/options/opts.o: Makefile

# The gdb stub's framing, parsers and peer checks, without ptrace.
$(O)/test/unit/gdbproto: test/unit/gdbproto.c test/harness.h \
		$(UTRACE_HDRS) $(UTRACE_ENGINE_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itest -Itools/utrace $(DW_CFLAGS) $(ALLCFLAGS) \
		-o $@ $< $(UTRACE_ENGINE_OBJS) $(STATIC) $(DW_LIBS) $(LDLIBS)
