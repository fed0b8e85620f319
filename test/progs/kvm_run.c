// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracee for test/cli/decode.sh: a KVM guest of seven bytes (real mode:
 * write 'A' to port 0x3f8, halt), run until it halts, so that -e kvm=vcpu
 * shows KVM_RUN's exit reasons (KVM_EXIT_IO, then KVM_EXIT_HLT).  Exits
 * 77 without /dev/kvm, 0 when the guest halted.
 */
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	/* mov $0x3f8,%dx; mov $'A',%al; out %al,(%dx); hlt */
	static const uint8_t code[] = { 0xba, 0xf8, 0x03, 0xb0, 'A', 0xee, 0xf4 };
	struct kvm_userspace_memory_region mr;
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	struct kvm_run *run;
	int kvm, vm, vcpu, size;
	uint8_t *mem;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return 77;
	ioctl(kvm, KVM_GET_API_VERSION, 0);
	ioctl(kvm, KVM_CHECK_EXTENSION, KVM_CAP_USER_MEMORY);
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memcpy(mem, code, sizeof(code));
	memset(&mr, 0, sizeof(mr));
	mr.slot = 0;
	mr.guest_phys_addr = 0x1000;
	mr.memory_size = 0x1000;
	mr.userspace_addr = (uintptr_t)mem;
	ioctl(vm, KVM_SET_USER_MEMORY_REGION, &mr);
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	ioctl(vcpu, KVM_GET_SREGS, &sregs);
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	ioctl(vcpu, KVM_SET_SREGS, &sregs);
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 2;
	ioctl(vcpu, KVM_SET_REGS, &regs);
	for (;;) {
		ioctl(vcpu, KVM_RUN, 0);
		if (run->exit_reason != KVM_EXIT_IO)
			break;
	}
	return run->exit_reason == KVM_EXIT_HLT ? 0 : 1;
}
