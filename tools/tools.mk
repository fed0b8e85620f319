# The utrace command (tools/utrace/), built on the public API only.
UTRACE_SRCS := $(wildcard tools/utrace/*.c)
UTRACE_OBJS := $(UTRACE_SRCS:%.c=$(O)/%.o)
TOOLS += $(O)/utrace

$(O)/tools/utrace/%.o: tools/utrace/%.c $(wildcard tools/utrace/*.h) include/utrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -c -o $@ $<

$(O)/utrace: $(UTRACE_OBJS) $(STATIC)
	$(CC) $(ALLCFLAGS) -o $@ $(UTRACE_OBJS) $(STATIC) $(LDLIBS)
