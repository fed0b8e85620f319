// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CLI's syscall table (tools/utrace/decode/syscalls.c) against libseccomp and
 * against the decoders: every row resolves through libseccomp to its own
 * number, every syscall libseccomp knows up to strace 6.1's last one has a
 * row, no name is there twice, the argument kinds are well formed, and
 * every decoder declared in decoders.h is some row's decoder.
 */
#include <dlfcn.h>
#include <seccomp.h>

#include "harness.h"
#include "decode/decoders.h"

TEST(rows_resolve_through_libseccomp)
{
	long nr;

	for (nr = 0; nr < NR_SYSENT; nr++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64,
							      (int)nr);

		if (!sysent[nr].name) {
			if (name)
				fprintf(stderr, "# %ld %s has no row\n", nr,
					name);
			CHECK(!name);
			continue;
		}
		if (!name || strcmp(name, sysent[nr].name))
			fprintf(stderr, "# row %ld is %s, libseccomp: %s\n", nr,
				sysent[nr].name, name ? name : "(none)");
		CHECK(name);
		CHECK_STR(sysent[nr].name, name);
		CHECK_EQ(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64,
							   sysent[nr].name),
			 nr);
		free(name);
	}
}

TEST(names_unique_and_lookups_agree)
{
	long nr, other;

	for (nr = 0; nr < NR_SYSENT; nr++) {
		if (!sysent[nr].name)
			continue;
		for (other = nr + 1; other < NR_SYSENT; other++)
			CHECK(!sysent[other].name ||
			      strcmp(sysent[nr].name, sysent[other].name));
		CHECK_EQ(sys_number(sysent[nr].name), nr);
		CHECK_STR(sys_name(nr), sysent[nr].name);
	}
	/* Later than strace 6.1: unknown, as strace 6.1 has them. */
	CHECK(!sys_name(NR_SYSENT));
	CHECK_EQ(sys_number("cachestat"), -1);
	CHECK_EQ(sys_number("no_such_syscall"), -1);
}

TEST(argument_kinds)
{
	static const char kinds[] = "dDUuxXpfasocSCTPG";
	long nr;

	for (nr = 0; nr < NR_SYSENT; nr++) {
		const char *k = sysent[nr].args;
		int n;

		if (!sysent[nr].name)
			continue;
		CHECK(k);
		n = sys_nargs(nr);
		if (n > 6 || (int)strspn(k, kinds) != n)
			fprintf(stderr, "# %s: bad kinds \"%s\"\n",
				sysent[nr].name, k);
		CHECK(n <= 6);
		CHECK_EQ((int)strspn(k, kinds), n);
		if (k[n]) {
			/* A result kind only where no decoder prints it. */
			CHECK(!sysent[nr].decode);
			CHECK(k[n] == '>');
			CHECK(k[n + 1] == 'f' || k[n + 1] == 'x' ||
			      k[n + 1] == 'P');
			CHECK(!k[n + 2]);
		}
	}
	CHECK_STR(sys_args(sys_number("read")), "fpu");
	CHECK_EQ(sys_nargs(sys_number("getpid")), 0);
}

TEST(classes)
{
	static bool set[NR_MAX];

	CHECK(sys_class("file", set));
	CHECK(set[sys_number("openat")] && set[sys_number("execve")]);
	CHECK(!set[sys_number("read")]);
	CHECK(!sys_class("no_such_class", set));
	memset(set, 0, sizeof(set));
	CHECK(sys_class("net", set));
	CHECK(set[sys_number("sendmsg")] && !set[sys_number("read")]);
}

/*
 * Every decoder decoders.h declares is used by a row (found by name in
 * this binary, linked with -rdynamic), and every row's decoder is declared
 * there.
 */
TEST(every_decoder_used)
{
	FILE *f = fopen(DECODERS_H, "r");
	char line[256], name[128];
	int declared = 0, found, in_table = 0;
	long nr;

	CHECK(f);
	while (fgets(line, sizeof(line), f)) {
		void *fn;

		if (sscanf(line, "bool %127[a-z0-9_](struct dec_ctx *c);",
			   name) != 1 || strncmp(name, "d_", 2))
			continue;
		declared++;
		fn = dlsym(RTLD_DEFAULT, name);
		if (!fn)
			fprintf(stderr, "# %s: not in the binary\n", name);
		CHECK(fn);
		found = 0;
		for (nr = 0; nr < NR_SYSENT; nr++)
			found += (void *)sysent[nr].decode == fn;
		if (!found)
			fprintf(stderr, "# %s: no row uses it\n", name);
		CHECK(found);
		in_table += found;
	}
	fclose(f);
	CHECK(declared > 100);
	/* ... and no row has a decoder decoders.h does not declare. */
	for (nr = 0, found = 0; nr < NR_SYSENT; nr++)
		found += sysent[nr].decode != NULL;
	CHECK_EQ(found, in_table);
}

int main(void)
{
	return test_main();
}
