# utraced (tools/utraced/): a program that is only a serving tracer.
UTRACED_SRCS := $(wildcard tools/utraced/*.c)
UTRACED_OBJS := $(UTRACED_SRCS:%.c=$(O)/%.o)
TOOLS += $(O)/utraced

$(O)/tools/utraced/%.o: tools/utraced/%.c include/utrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -c -o $@ $<

$(O)/utraced: $(UTRACED_OBJS) $(STATIC)
	$(CC) $(ALLCFLAGS) -o $@ $(UTRACED_OBJS) $(STATIC) $(LDLIBS)

# utraced -V prints the Makefile's VERSION.
$(O)/tools/utraced/main.o: Makefile
