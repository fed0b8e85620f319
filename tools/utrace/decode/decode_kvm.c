// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * KVM's ioctls (type 0xae), as strace 6.1's kvm.c prints them: the names
 * it knows for x86_64, the memory region, the registers, the special
 * registers, the CPUID entries, the capabilities KVM_CHECK_EXTENSION asks
 * about, and with -e kvm=vcpu the exit reason of each KVM_RUN (read from
 * the kvm_run structure the program mapped from the vcpu's descriptor).
 */
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "decode/decoders.h"

/* The requests strace 6.1 names on x86_64, in numeric order. */
static const struct xlat kvm_ioctls[] = {
	XLAT_PAIR(0xae00, "KVM_GET_API_VERSION"),
	XLAT_PAIR(0xae01, "KVM_CREATE_VM"),
	XLAT_PAIR(0xae03, "KVM_CHECK_EXTENSION"),
	XLAT_PAIR(0xae04, "KVM_GET_VCPU_MMAP_SIZE"),
	XLAT_PAIR(0xae41, "KVM_CREATE_VCPU"),
	XLAT_PAIR(0xae44, "KVM_SET_NR_MMU_PAGES"),
	XLAT_PAIR(0xae45, "KVM_GET_NR_MMU_PAGES"),
	XLAT_PAIR(0xae47, "KVM_SET_TSS_ADDR"),
	XLAT_PAIR(0xae60, "KVM_CREATE_IRQCHIP"),
	XLAT_PAIR(0xae64, "KVM_CREATE_PIT"),
	XLAT_PAIR(0xae71, "KVM_REINJECT_CONTROL"),
	XLAT_PAIR(0xae78, "KVM_SET_BOOT_CPU_ID"),
	XLAT_PAIR(0xae80, "KVM_RUN"), XLAT_PAIR(0xae9a, "KVM_NMI"),
	XLAT_PAIR(0xaea2, "KVM_SET_TSC_KHZ"),
	XLAT_PAIR(0xaea3, "KVM_GET_TSC_KHZ"),
	XLAT_PAIR(0xaead, "KVM_KVMCLOCK_CTRL"), XLAT_PAIR(0xaeb7, "KVM_SMI"),
	XLAT_PAIR(0xaec7, "KVM_RESET_DIRTY_RINGS"),
	XLAT_PAIR(0xaece, "KVM_GET_STATS_FD"),
	XLAT_PAIR(0x4004ae86, "KVM_INTERRUPT"),
	XLAT_PAIR(0x4004ae8b, "KVM_SET_SIGNAL_MASK"),
	XLAT_PAIR(0x4004ae99, "KVM_SET_MP_STATE"),
	XLAT_PAIR(0x4008ae48, "KVM_SET_IDENTITY_MAP_ADDR"),
	XLAT_PAIR(0x4008ae61, "KVM_IRQ_LINE"),
	XLAT_PAIR(0x4008ae6a, "KVM_SET_GSI_ROUTING"),
	XLAT_PAIR(0x4008ae73, "KVM_ASSIGN_SET_MSIX_NR"),
	XLAT_PAIR(0x4008ae89, "KVM_SET_MSRS"),
	XLAT_PAIR(0x4008ae8a, "KVM_SET_CPUID"),
	XLAT_PAIR(0x4008ae90, "KVM_SET_CPUID2"),
	XLAT_PAIR(0x4008ae93, "KVM_SET_VAPIC_ADDR"),
	XLAT_PAIR(0x4008ae9c, "KVM_X86_SETUP_MCE"),
	XLAT_PAIR(0x400caed0, "KVM_XEN_HVM_EVTCHN_SEND"),
	XLAT_PAIR(0x4010ae42, "KVM_GET_DIRTY_LOG"),
	XLAT_PAIR(0x4010ae67, "KVM_REGISTER_COALESCED_MMIO"),
	XLAT_PAIR(0x4010ae68, "KVM_UNREGISTER_COALESCED_MMIO"),
	XLAT_PAIR(0x4010ae74, "KVM_ASSIGN_SET_MSIX_ENTRY"),
	XLAT_PAIR(0x4010aeaa, "KVM_DIRTY_TLB"),
	XLAT_PAIR(0x4010aeab, "KVM_GET_ONE_REG"),
	XLAT_PAIR(0x4010aeac, "KVM_SET_ONE_REG"),
	XLAT_PAIR(0x4018ae40, "KVM_SET_MEMORY_REGION"),
	XLAT_PAIR(0x4018aebd, "KVM_HYPERV_EVENTFD"),
	XLAT_PAIR(0x4018aee1, "KVM_SET_DEVICE_ATTR"),
	XLAT_PAIR(0x4018aee2, "KVM_GET_DEVICE_ATTR"),
	XLAT_PAIR(0x4018aee3, "KVM_HAS_DEVICE_ATTR"),
	XLAT_PAIR(0x4020ae43, "KVM_SET_MEMORY_ALIAS"),
	XLAT_PAIR(0x4020ae46, "KVM_SET_USER_MEMORY_REGION"),
	XLAT_PAIR(0x4020ae76, "KVM_IRQFD"),
	XLAT_PAIR(0x4020aea5, "KVM_SIGNAL_MSI"),
	XLAT_PAIR(0x4020aeb2, "KVM_SET_PMU_EVENT_FILTER"),
	XLAT_PAIR(0x4030ae7b, "KVM_SET_CLOCK"),
	XLAT_PAIR(0x4038ae7a, "KVM_XEN_HVM_CONFIG"),
	XLAT_PAIR(0x4040ae70, "KVM_ASSIGN_DEV_IRQ"),
	XLAT_PAIR(0x4040ae72, "KVM_DEASSIGN_PCI_DEVICE"),
	XLAT_PAIR(0x4040ae75, "KVM_DEASSIGN_DEV_IRQ"),
	XLAT_PAIR(0x4040ae77, "KVM_CREATE_PIT2"),
	XLAT_PAIR(0x4040ae79, "KVM_IOEVENTFD"),
	XLAT_PAIR(0x4040ae9e, "KVM_X86_SET_MCE"),
	XLAT_PAIR(0x4040aea0, "KVM_SET_VCPU_EVENTS"),
	XLAT_PAIR(0x4040aea4, "KVM_ASSIGN_SET_INTX_MASK"),
	XLAT_PAIR(0x4048ae9b, "KVM_SET_GUEST_DEBUG"),
	XLAT_PAIR(0x4048aec9, "KVM_XEN_HVM_SET_ATTR"),
	XLAT_PAIR(0x4048aecb, "KVM_XEN_VCPU_SET_ATTR"),
	XLAT_PAIR(0x4068aea3, "KVM_ENABLE_CAP"),
	XLAT_PAIR(0x4070aea0, "KVM_SET_PIT2"),
	XLAT_PAIR(0x4080aea2, "KVM_SET_DEBUGREGS"),
	XLAT_PAIR(0x4080aebf, "KVM_SET_NESTED_STATE"),
	XLAT_PAIR(0x4090ae82, "KVM_SET_REGS"),
	XLAT_PAIR(0x4138ae84, "KVM_SET_SREGS"),
	XLAT_PAIR(0x4140aecd, "KVM_SET_SREGS2"),
	XLAT_PAIR(0x4188aea7, "KVM_SET_XCRS"),
	XLAT_PAIR(0x4188aec6, "KVM_X86_SET_MSR_FILTER"),
	XLAT_PAIR(0x41a0ae8d, "KVM_SET_FPU"),
	XLAT_PAIR(0x4400ae8f, "KVM_SET_LAPIC"),
	XLAT_PAIR(0x5000aea5, "KVM_SET_XSAVE"),
	XLAT_PAIR(0x8004ae98, "KVM_GET_MP_STATE"),
	XLAT_PAIR(0x8008ae9d, "KVM_X86_GET_MCE_CAP_SUPPORTED"),
	XLAT_PAIR(0x8010aebb, "KVM_MEMORY_ENCRYPT_REG_REGION"),
	XLAT_PAIR(0x8010aebc, "KVM_MEMORY_ENCRYPT_UNREG_REGION"),
	XLAT_PAIR(0x8030ae7c, "KVM_GET_CLOCK"),
	XLAT_PAIR(0x8040ae69, "KVM_ASSIGN_PCI_DEVICE"),
	XLAT_PAIR(0x8040ae9f, "KVM_GET_VCPU_EVENTS"),
	XLAT_PAIR(0x8048ae66, "KVM_SET_PIT"),
	XLAT_PAIR(0x8070ae9f, "KVM_GET_PIT2"),
	XLAT_PAIR(0x8080aea1, "KVM_GET_DEBUGREGS"),
	XLAT_PAIR(0x8090ae81, "KVM_GET_REGS"),
	XLAT_PAIR(0x8138ae83, "KVM_GET_SREGS"),
	XLAT_PAIR(0x8140aecc, "KVM_GET_SREGS2"),
	XLAT_PAIR(0x8188aea6, "KVM_GET_XCRS"),
	XLAT_PAIR(0x81a0ae8c, "KVM_GET_FPU"),
	XLAT_PAIR(0x8208ae63, "KVM_SET_IRQCHIP"),
	XLAT_PAIR(0x8400ae8e, "KVM_GET_LAPIC"),
	XLAT_PAIR(0x9000aea4, "KVM_GET_XSAVE"),
	XLAT_PAIR(0x9000aecf, "KVM_GET_XSAVE2"),
	XLAT_PAIR(0xc004ae02, "KVM_GET_MSR_INDEX_LIST"),
	XLAT_PAIR(0xc004ae0a, "KVM_GET_MSR_FEATURE_INDEX_LIST"),
	XLAT_PAIR(0xc008ae05, "KVM_GET_SUPPORTED_CPUID"),
	XLAT_PAIR(0xc008ae09, "KVM_GET_EMULATED_CPUID"),
	XLAT_PAIR(0xc008ae67, "KVM_IRQ_LINE_STATUS"),
	XLAT_PAIR(0xc008ae88, "KVM_GET_MSRS"),
	XLAT_PAIR(0xc008ae91, "KVM_GET_CPUID2"),
	XLAT_PAIR(0xc008aeb0, "KVM_GET_REG_LIST"),
	XLAT_PAIR(0xc008aeba, "KVM_MEMORY_ENCRYPT_OP"),
	XLAT_PAIR(0xc008aec1, "KVM_GET_SUPPORTED_HV_CPUID"),
	XLAT_PAIR(0xc00caee0, "KVM_CREATE_DEVICE"),
	XLAT_PAIR(0xc018ae85, "KVM_TRANSLATE"),
	XLAT_PAIR(0xc018aec0, "KVM_CLEAR_DIRTY_LOG"),
	XLAT_PAIR(0xc028ae92, "KVM_TPR_ACCESS_REPORTING"),
	XLAT_PAIR(0xc048ae65, "KVM_GET_PIT"),
	XLAT_PAIR(0xc048aec8, "KVM_XEN_HVM_GET_ATTR"),
	XLAT_PAIR(0xc048aeca, "KVM_XEN_VCPU_GET_ATTR"),
	XLAT_PAIR(0xc080aebe, "KVM_GET_NESTED_STATE"),
	XLAT_PAIR(0xc208ae62, "KVM_GET_IRQCHIP"),

	XLAT_END
};

/* KVM_CAP_*, as far as strace 6.1 names them (223). */
static const struct xlat kvm_caps[] = {
	XLAT_PAIR(0, "KVM_CAP_IRQCHIP"), XLAT_PAIR(1, "KVM_CAP_HLT"),
	XLAT_PAIR(2, "KVM_CAP_MMU_SHADOW_CACHE_CONTROL"),
	XLAT_PAIR(3, "KVM_CAP_USER_MEMORY"),
	XLAT_PAIR(4, "KVM_CAP_SET_TSS_ADDR"), XLAT_PAIR(6, "KVM_CAP_VAPIC"),
	XLAT_PAIR(7, "KVM_CAP_EXT_CPUID"),
	XLAT_PAIR(8, "KVM_CAP_CLOCKSOURCE"), XLAT_PAIR(9, "KVM_CAP_NR_VCPUS"),
	XLAT_PAIR(10, "KVM_CAP_NR_MEMSLOTS"), XLAT_PAIR(11, "KVM_CAP_PIT"),
	XLAT_PAIR(12, "KVM_CAP_NOP_IO_DELAY"),
	XLAT_PAIR(13, "KVM_CAP_PV_MMU"), XLAT_PAIR(14, "KVM_CAP_MP_STATE"),
	XLAT_PAIR(15, "KVM_CAP_COALESCED_MMIO"),
	XLAT_PAIR(16, "KVM_CAP_SYNC_MMU"), XLAT_PAIR(18, "KVM_CAP_IOMMU"),
	XLAT_PAIR(21, "KVM_CAP_DESTROY_MEMORY_REGION_WORKS"),
	XLAT_PAIR(22, "KVM_CAP_USER_NMI"),
	XLAT_PAIR(23, "KVM_CAP_SET_GUEST_DEBUG"),
	XLAT_PAIR(24, "KVM_CAP_REINJECT_CONTROL"),
	XLAT_PAIR(25, "KVM_CAP_IRQ_ROUTING"),
	XLAT_PAIR(26, "KVM_CAP_IRQ_INJECT_STATUS"),
	XLAT_PAIR(29, "KVM_CAP_ASSIGN_DEV_IRQ"),
	XLAT_PAIR(30, "KVM_CAP_JOIN_MEMORY_REGIONS_WORKS"),
	XLAT_PAIR(31, "KVM_CAP_MCE"), XLAT_PAIR(32, "KVM_CAP_IRQFD"),
	XLAT_PAIR(33, "KVM_CAP_PIT2"),
	XLAT_PAIR(34, "KVM_CAP_SET_BOOT_CPU_ID"),
	XLAT_PAIR(35, "KVM_CAP_PIT_STATE2"),
	XLAT_PAIR(36, "KVM_CAP_IOEVENTFD"),
	XLAT_PAIR(37, "KVM_CAP_SET_IDENTITY_MAP_ADDR"),
	XLAT_PAIR(38, "KVM_CAP_XEN_HVM"),
	XLAT_PAIR(39, "KVM_CAP_ADJUST_CLOCK"),
	XLAT_PAIR(40, "KVM_CAP_INTERNAL_ERROR_DATA"),
	XLAT_PAIR(41, "KVM_CAP_VCPU_EVENTS"),
	XLAT_PAIR(42, "KVM_CAP_S390_PSW"),
	XLAT_PAIR(43, "KVM_CAP_PPC_SEGSTATE"),
	XLAT_PAIR(44, "KVM_CAP_HYPERV"),
	XLAT_PAIR(45, "KVM_CAP_HYPERV_VAPIC"),
	XLAT_PAIR(46, "KVM_CAP_HYPERV_SPIN"),
	XLAT_PAIR(47, "KVM_CAP_PCI_SEGMENT"),
	XLAT_PAIR(48, "KVM_CAP_PPC_PAIRED_SINGLES"),
	XLAT_PAIR(49, "KVM_CAP_INTR_SHADOW"),
	XLAT_PAIR(50, "KVM_CAP_DEBUGREGS"),
	XLAT_PAIR(51, "KVM_CAP_X86_ROBUST_SINGLESTEP"),
	XLAT_PAIR(52, "KVM_CAP_PPC_OSI"),
	XLAT_PAIR(53, "KVM_CAP_PPC_UNSET_IRQ"),
	XLAT_PAIR(54, "KVM_CAP_ENABLE_CAP"), XLAT_PAIR(55, "KVM_CAP_XSAVE"),
	XLAT_PAIR(56, "KVM_CAP_XCRS"),
	XLAT_PAIR(57, "KVM_CAP_PPC_GET_PVINFO"),
	XLAT_PAIR(58, "KVM_CAP_PPC_IRQ_LEVEL"),
	XLAT_PAIR(59, "KVM_CAP_ASYNC_PF"),
	XLAT_PAIR(60, "KVM_CAP_TSC_CONTROL"),
	XLAT_PAIR(61, "KVM_CAP_GET_TSC_KHZ"),
	XLAT_PAIR(62, "KVM_CAP_PPC_BOOKE_SREGS"),
	XLAT_PAIR(63, "KVM_CAP_SPAPR_TCE"), XLAT_PAIR(64, "KVM_CAP_PPC_SMT"),
	XLAT_PAIR(65, "KVM_CAP_PPC_RMA"), XLAT_PAIR(66, "KVM_CAP_MAX_VCPUS"),
	XLAT_PAIR(67, "KVM_CAP_PPC_HIOR"), XLAT_PAIR(68, "KVM_CAP_PPC_PAPR"),
	XLAT_PAIR(69, "KVM_CAP_SW_TLB"), XLAT_PAIR(70, "KVM_CAP_ONE_REG"),
	XLAT_PAIR(71, "KVM_CAP_S390_GMAP"),
	XLAT_PAIR(72, "KVM_CAP_TSC_DEADLINE_TIMER"),
	XLAT_PAIR(73, "KVM_CAP_S390_UCONTROL"),
	XLAT_PAIR(74, "KVM_CAP_SYNC_REGS"), XLAT_PAIR(75, "KVM_CAP_PCI_2_3"),
	XLAT_PAIR(76, "KVM_CAP_KVMCLOCK_CTRL"),
	XLAT_PAIR(77, "KVM_CAP_SIGNAL_MSI"),
	XLAT_PAIR(78, "KVM_CAP_PPC_GET_SMMU_INFO"),
	XLAT_PAIR(79, "KVM_CAP_S390_COW"),
	XLAT_PAIR(80, "KVM_CAP_PPC_ALLOC_HTAB"),
	XLAT_PAIR(81, "KVM_CAP_READONLY_MEM"),
	XLAT_PAIR(82, "KVM_CAP_IRQFD_RESAMPLE"),
	XLAT_PAIR(83, "KVM_CAP_PPC_BOOKE_WATCHDOG"),
	XLAT_PAIR(84, "KVM_CAP_PPC_HTAB_FD"),
	XLAT_PAIR(85, "KVM_CAP_S390_CSS_SUPPORT"),
	XLAT_PAIR(86, "KVM_CAP_PPC_EPR"), XLAT_PAIR(87, "KVM_CAP_ARM_PSCI"),
	XLAT_PAIR(88, "KVM_CAP_ARM_SET_DEVICE_ADDR"),
	XLAT_PAIR(89, "KVM_CAP_DEVICE_CTRL"),
	XLAT_PAIR(90, "KVM_CAP_IRQ_MPIC"), XLAT_PAIR(91, "KVM_CAP_PPC_RTAS"),
	XLAT_PAIR(92, "KVM_CAP_IRQ_XICS"),
	XLAT_PAIR(93, "KVM_CAP_ARM_EL1_32BIT"),
	XLAT_PAIR(94, "KVM_CAP_SPAPR_MULTITCE"),
	XLAT_PAIR(95, "KVM_CAP_EXT_EMUL_CPUID"),
	XLAT_PAIR(96, "KVM_CAP_HYPERV_TIME"),
	XLAT_PAIR(97, "KVM_CAP_IOAPIC_POLARITY_IGNORED"),
	XLAT_PAIR(98, "KVM_CAP_ENABLE_CAP_VM"),
	XLAT_PAIR(99, "KVM_CAP_S390_IRQCHIP"),
	XLAT_PAIR(100, "KVM_CAP_IOEVENTFD_NO_LENGTH"),
	XLAT_PAIR(101, "KVM_CAP_VM_ATTRIBUTES"),
	XLAT_PAIR(102, "KVM_CAP_ARM_PSCI_0_2"),
	XLAT_PAIR(103, "KVM_CAP_PPC_FIXUP_HCALL"),
	XLAT_PAIR(104, "KVM_CAP_PPC_ENABLE_HCALL"),
	XLAT_PAIR(105, "KVM_CAP_CHECK_EXTENSION_VM"),
	XLAT_PAIR(106, "KVM_CAP_S390_USER_SIGP"),
	XLAT_PAIR(107, "KVM_CAP_S390_VECTOR_REGISTERS"),
	XLAT_PAIR(108, "KVM_CAP_S390_MEM_OP"),
	XLAT_PAIR(109, "KVM_CAP_S390_USER_STSI"),
	XLAT_PAIR(110, "KVM_CAP_S390_SKEYS"),
	XLAT_PAIR(111, "KVM_CAP_MIPS_FPU"),
	XLAT_PAIR(112, "KVM_CAP_MIPS_MSA"),
	XLAT_PAIR(113, "KVM_CAP_S390_INJECT_IRQ"),
	XLAT_PAIR(114, "KVM_CAP_S390_IRQ_STATE"),
	XLAT_PAIR(115, "KVM_CAP_PPC_HWRNG"),
	XLAT_PAIR(116, "KVM_CAP_DISABLE_QUIRKS"),
	XLAT_PAIR(117, "KVM_CAP_X86_SMM"),
	XLAT_PAIR(118, "KVM_CAP_MULTI_ADDRESS_SPACE"),
	XLAT_PAIR(119, "KVM_CAP_GUEST_DEBUG_HW_BPS"),
	XLAT_PAIR(120, "KVM_CAP_GUEST_DEBUG_HW_WPS"),
	XLAT_PAIR(121, "KVM_CAP_SPLIT_IRQCHIP"),
	XLAT_PAIR(122, "KVM_CAP_IOEVENTFD_ANY_LENGTH"),
	XLAT_PAIR(123, "KVM_CAP_HYPERV_SYNIC"),
	XLAT_PAIR(124, "KVM_CAP_S390_RI"),
	XLAT_PAIR(125, "KVM_CAP_SPAPR_TCE_64"),
	XLAT_PAIR(126, "KVM_CAP_ARM_PMU_V3"),
	XLAT_PAIR(127, "KVM_CAP_VCPU_ATTRIBUTES"),
	XLAT_PAIR(128, "KVM_CAP_MAX_VCPU_ID"),
	XLAT_PAIR(129, "KVM_CAP_X2APIC_API"),
	XLAT_PAIR(130, "KVM_CAP_S390_USER_INSTR0"),
	XLAT_PAIR(131, "KVM_CAP_MSI_DEVID"),
	XLAT_PAIR(132, "KVM_CAP_PPC_HTM"),
	XLAT_PAIR(133, "KVM_CAP_SPAPR_RESIZE_HPT"),
	XLAT_PAIR(134, "KVM_CAP_PPC_MMU_RADIX"),
	XLAT_PAIR(135, "KVM_CAP_PPC_MMU_HASH_V3"),
	XLAT_PAIR(136, "KVM_CAP_IMMEDIATE_EXIT"),
	XLAT_PAIR(137, "KVM_CAP_MIPS_VZ"), XLAT_PAIR(138, "KVM_CAP_MIPS_TE"),
	XLAT_PAIR(139, "KVM_CAP_MIPS_64BIT"),
	XLAT_PAIR(140, "KVM_CAP_S390_GS"), XLAT_PAIR(141, "KVM_CAP_S390_AIS"),
	XLAT_PAIR(142, "KVM_CAP_SPAPR_TCE_VFIO"),
	XLAT_PAIR(143, "KVM_CAP_X86_DISABLE_EXITS"),
	XLAT_PAIR(144, "KVM_CAP_ARM_USER_IRQ"),
	XLAT_PAIR(145, "KVM_CAP_S390_CMMA_MIGRATION"),
	XLAT_PAIR(146, "KVM_CAP_PPC_FWNMI"),
	XLAT_PAIR(147, "KVM_CAP_PPC_SMT_POSSIBLE"),
	XLAT_PAIR(148, "KVM_CAP_HYPERV_SYNIC2"),
	XLAT_PAIR(149, "KVM_CAP_HYPERV_VP_INDEX"),
	XLAT_PAIR(150, "KVM_CAP_S390_AIS_MIGRATION"),
	XLAT_PAIR(151, "KVM_CAP_PPC_GET_CPU_CHAR"),
	XLAT_PAIR(152, "KVM_CAP_S390_BPB"),
	XLAT_PAIR(153, "KVM_CAP_GET_MSR_FEATURES"),
	XLAT_PAIR(154, "KVM_CAP_HYPERV_EVENTFD"),
	XLAT_PAIR(155, "KVM_CAP_HYPERV_TLBFLUSH"),
	XLAT_PAIR(156, "KVM_CAP_S390_HPAGE_1M"),
	XLAT_PAIR(157, "KVM_CAP_NESTED_STATE"),
	XLAT_PAIR(158, "KVM_CAP_ARM_INJECT_SERROR_ESR"),
	XLAT_PAIR(159, "KVM_CAP_MSR_PLATFORM_INFO"),
	XLAT_PAIR(160, "KVM_CAP_PPC_NESTED_HV"),
	XLAT_PAIR(161, "KVM_CAP_HYPERV_SEND_IPI"),
	XLAT_PAIR(162, "KVM_CAP_COALESCED_PIO"),
	XLAT_PAIR(163, "KVM_CAP_HYPERV_ENLIGHTENED_VMCS"),
	XLAT_PAIR(164, "KVM_CAP_EXCEPTION_PAYLOAD"),
	XLAT_PAIR(165, "KVM_CAP_ARM_VM_IPA_SIZE"),
	XLAT_PAIR(166, "KVM_CAP_MANUAL_DIRTY_LOG_PROTECT"),
	XLAT_PAIR(167, "KVM_CAP_HYPERV_CPUID"),
	XLAT_PAIR(168, "KVM_CAP_MANUAL_DIRTY_LOG_PROTECT2"),
	XLAT_PAIR(169, "KVM_CAP_PPC_IRQ_XIVE"),
	XLAT_PAIR(170, "KVM_CAP_ARM_SVE"),
	XLAT_PAIR(171, "KVM_CAP_ARM_PTRAUTH_ADDRESS"),
	XLAT_PAIR(172, "KVM_CAP_ARM_PTRAUTH_GENERIC"),
	XLAT_PAIR(173, "KVM_CAP_PMU_EVENT_FILTER"),
	XLAT_PAIR(174, "KVM_CAP_ARM_IRQ_LINE_LAYOUT_2"),
	XLAT_PAIR(175, "KVM_CAP_HYPERV_DIRECT_TLBFLUSH"),
	XLAT_PAIR(176, "KVM_CAP_PPC_GUEST_DEBUG_SSTEP"),
	XLAT_PAIR(177, "KVM_CAP_ARM_NISV_TO_USER"),
	XLAT_PAIR(178, "KVM_CAP_ARM_INJECT_EXT_DABT"),
	XLAT_PAIR(179, "KVM_CAP_S390_VCPU_RESETS"),
	XLAT_PAIR(180, "KVM_CAP_S390_PROTECTED"),
	XLAT_PAIR(181, "KVM_CAP_PPC_SECURE_GUEST"),
	XLAT_PAIR(182, "KVM_CAP_HALT_POLL"),
	XLAT_PAIR(183, "KVM_CAP_ASYNC_PF_INT"),
	XLAT_PAIR(184, "KVM_CAP_LAST_CPU"),
	XLAT_PAIR(185, "KVM_CAP_SMALLER_MAXPHYADDR"),
	XLAT_PAIR(186, "KVM_CAP_S390_DIAG318"),
	XLAT_PAIR(187, "KVM_CAP_STEAL_TIME"),
	XLAT_PAIR(188, "KVM_CAP_X86_USER_SPACE_MSR"),
	XLAT_PAIR(189, "KVM_CAP_X86_MSR_FILTER"),
	XLAT_PAIR(190, "KVM_CAP_ENFORCE_PV_FEATURE_CPUID"),
	XLAT_PAIR(191, "KVM_CAP_SYS_HYPERV_CPUID"),
	XLAT_PAIR(192, "KVM_CAP_DIRTY_LOG_RING"),
	XLAT_PAIR(193, "KVM_CAP_X86_BUS_LOCK_EXIT"),
	XLAT_PAIR(194, "KVM_CAP_PPC_DAWR1"),
	XLAT_PAIR(195, "KVM_CAP_SET_GUEST_DEBUG2"),
	XLAT_PAIR(196, "KVM_CAP_SGX_ATTRIBUTE"),
	XLAT_PAIR(197, "KVM_CAP_VM_COPY_ENC_CONTEXT_FROM"),
	XLAT_PAIR(198, "KVM_CAP_PTP_KVM"),
	XLAT_PAIR(199, "KVM_CAP_HYPERV_ENFORCE_CPUID"),
	XLAT_PAIR(200, "KVM_CAP_SREGS2"),
	XLAT_PAIR(201, "KVM_CAP_EXIT_HYPERCALL"),
	XLAT_PAIR(202, "KVM_CAP_PPC_RPT_INVALIDATE"),
	XLAT_PAIR(203, "KVM_CAP_BINARY_STATS_FD"),
	XLAT_PAIR(204, "KVM_CAP_EXIT_ON_EMULATION_FAILURE"),
	XLAT_PAIR(205, "KVM_CAP_ARM_MTE"),
	XLAT_PAIR(206, "KVM_CAP_VM_MOVE_ENC_CONTEXT_FROM"),
	XLAT_PAIR(207, "KVM_CAP_VM_GPA_BITS"),
	XLAT_PAIR(208, "KVM_CAP_XSAVE2"),
	XLAT_PAIR(209, "KVM_CAP_SYS_ATTRIBUTES"),
	XLAT_PAIR(210, "KVM_CAP_PPC_AIL_MODE_3"),
	XLAT_PAIR(211, "KVM_CAP_S390_MEM_OP_EXTENSION"),
	XLAT_PAIR(212, "KVM_CAP_PMU_CAPABILITY"),
	XLAT_PAIR(213, "KVM_CAP_DISABLE_QUIRKS2"),
	XLAT_PAIR(214, "KVM_CAP_VM_TSC_CONTROL"),
	XLAT_PAIR(215, "KVM_CAP_SYSTEM_EVENT_DATA"),
	XLAT_PAIR(216, "KVM_CAP_ARM_SYSTEM_SUSPEND"),
	XLAT_PAIR(217, "KVM_CAP_S390_PROTECTED_DUMP"),
	XLAT_PAIR(218, "KVM_CAP_X86_TRIPLE_FAULT_EVENT"),
	XLAT_PAIR(219, "KVM_CAP_X86_NOTIFY_VMEXIT"),
	XLAT_PAIR(220, "KVM_CAP_VM_DISABLE_NX_HUGE_PAGES"),
	XLAT_PAIR(221, "KVM_CAP_S390_ZPCI_OP"),
	XLAT_PAIR(222, "KVM_CAP_S390_CPU_TOPOLOGY"),
	XLAT_PAIR(223, "KVM_CAP_DIRTY_LOG_RING_ACQ_REL"),
	XLAT_END
};

/* KVM_EXIT_*, as far as strace 6.1 names them (37). */
static const struct xlat kvm_exits[] = {
	XLAT_PAIR(0, "KVM_EXIT_UNKNOWN"), XLAT_PAIR(1, "KVM_EXIT_EXCEPTION"),
	XLAT_PAIR(2, "KVM_EXIT_IO"), XLAT_PAIR(3, "KVM_EXIT_HYPERCALL"),
	XLAT_PAIR(4, "KVM_EXIT_DEBUG"), XLAT_PAIR(5, "KVM_EXIT_HLT"),
	XLAT_PAIR(6, "KVM_EXIT_MMIO"),
	XLAT_PAIR(7, "KVM_EXIT_IRQ_WINDOW_OPEN"),
	XLAT_PAIR(8, "KVM_EXIT_SHUTDOWN"),
	XLAT_PAIR(9, "KVM_EXIT_FAIL_ENTRY"), XLAT_PAIR(10, "KVM_EXIT_INTR"),
	XLAT_PAIR(11, "KVM_EXIT_SET_TPR"),
	XLAT_PAIR(12, "KVM_EXIT_TPR_ACCESS"),
	XLAT_PAIR(13, "KVM_EXIT_S390_SIEIC"),
	XLAT_PAIR(14, "KVM_EXIT_S390_RESET"), XLAT_PAIR(15, "KVM_EXIT_DCR"),
	XLAT_PAIR(16, "KVM_EXIT_NMI"),
	XLAT_PAIR(17, "KVM_EXIT_INTERNAL_ERROR"),
	XLAT_PAIR(18, "KVM_EXIT_OSI"), XLAT_PAIR(19, "KVM_EXIT_PAPR_HCALL"),
	XLAT_PAIR(20, "KVM_EXIT_S390_UCONTROL"),
	XLAT_PAIR(21, "KVM_EXIT_WATCHDOG"),
	XLAT_PAIR(22, "KVM_EXIT_S390_TSCH"), XLAT_PAIR(23, "KVM_EXIT_EPR"),
	XLAT_PAIR(24, "KVM_EXIT_SYSTEM_EVENT"),
	XLAT_PAIR(25, "KVM_EXIT_S390_STSI"),
	XLAT_PAIR(26, "KVM_EXIT_IOAPIC_EOI"),
	XLAT_PAIR(27, "KVM_EXIT_HYPERV"), XLAT_PAIR(28, "KVM_EXIT_ARM_NISV"),
	XLAT_PAIR(29, "KVM_EXIT_X86_RDMSR"),
	XLAT_PAIR(30, "KVM_EXIT_X86_WRMSR"),
	XLAT_PAIR(31, "KVM_EXIT_DIRTY_RING_FULL"),
	XLAT_PAIR(32, "KVM_EXIT_AP_RESET_HOLD"),
	XLAT_PAIR(33, "KVM_EXIT_X86_BUS_LOCK"), XLAT_PAIR(34, "KVM_EXIT_XEN"),
	XLAT_PAIR(35, "KVM_EXIT_RISCV_SBI"),
	XLAT_PAIR(36, "KVM_EXIT_RISCV_CSR"), XLAT_PAIR(37, "KVM_EXIT_NOTIFY"),
	XLAT_END
};

static const struct xlat kvm_mem_flags[] = {
	XLAT_PAIR(1 << 0, "KVM_MEM_LOG_DIRTY_PAGES"),
	XLAT_PAIR(1 << 1, "KVM_MEM_READONLY"), XLAT_END
};

static const struct xlat kvm_cpuid_flags[] = {
	XLAT_PAIR(1 << 0, "KVM_CPUID_FLAG_SIGNIFCANT_INDEX"),
	XLAT_PAIR(1 << 1, "KVM_CPUID_FLAG_STATEFUL_FUNC"),
	XLAT_PAIR(1 << 2, "KVM_CPUID_FLAG_STATE_READ_NEXT"), XLAT_END
};

const char *kvm_ioctl_name(unsigned req)
{
	return xlat_name(kvm_ioctls, req);
}

static void put_memory_region(struct dec_ctx *c, unsigned long addr)
{
	struct kvm_userspace_memory_region r;

	if (!dec_read(c, addr, &r, sizeof(r))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{slot=%u, flags=", r.slot);
	dec_flags(c, kvm_mem_flags, r.flags, "KVM_MEM_???");
	dec_printf(c, ", guest_phys_addr=%#llx, memory_size=%llu, "
		   "userspace_addr=%#llx}",
		   (unsigned long long)r.guest_phys_addr,
		   (unsigned long long)r.memory_size,
		   (unsigned long long)r.userspace_addr);
}

static void put_regs(struct dec_ctx *c, unsigned long addr)
{
	struct kvm_regs r;

	if (!dec_read(c, addr, &r, sizeof(r))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{rax=%#llx, ", (unsigned long long)r.rax);
	if (c->no_abbrev)
		dec_printf(c, "rbx=%#llx, rcx=%#llx, rdx=%#llx, rsi=%#llx, "
			   "rdi=%#llx, ", (unsigned long long)r.rbx,
			   (unsigned long long)r.rcx,
			   (unsigned long long)r.rdx,
			   (unsigned long long)r.rsi,
			   (unsigned long long)r.rdi);
	else
		dec_puts(c, "..., ");
	dec_printf(c, "rsp=%#llx, rbp=%#llx, ", (unsigned long long)r.rsp,
		   (unsigned long long)r.rbp);
	if (c->no_abbrev)
		dec_printf(c, "r8=%#llx, r9=%#llx, r10=%#llx, r11=%#llx, "
			   "r12=%#llx, r13=%#llx, r14=%#llx, r15=%#llx, ",
			   (unsigned long long)r.r8, (unsigned long long)r.r9,
			   (unsigned long long)r.r10,
			   (unsigned long long)r.r11,
			   (unsigned long long)r.r12,
			   (unsigned long long)r.r13,
			   (unsigned long long)r.r14,
			   (unsigned long long)r.r15);
	else
		dec_puts(c, "..., ");
	dec_printf(c, "rip=%#llx, rflags=%#llx}", (unsigned long long)r.rip,
		   (unsigned long long)r.rflags);
}

static void put_segment(struct dec_ctx *c, const char *name,
			const struct kvm_segment *s)
{
	dec_printf(c, "%s={base=%#llx, limit=%u, selector=%u, type=%u, "
		   "present=%u, dpl=%u, db=%u, s=%u, l=%u, g=%u, avl=%u}",
		   name, (unsigned long long)s->base, s->limit, s->selector,
		   s->type, s->present, s->dpl, s->db, s->s, s->l, s->g,
		   s->avl);
}

static void put_dtable(struct dec_ctx *c, const char *name,
		       const struct kvm_dtable *d)
{
	dec_printf(c, "%s={base=%#llx, limit=%u}", name,
		   (unsigned long long)d->base, d->limit);
}

static void put_sregs(struct dec_ctx *c, unsigned long addr)
{
	struct kvm_sregs s;
	size_t i;

	if (!dec_read(c, addr, &s, sizeof(s))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{");
	put_segment(c, "cs", &s.cs);
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return;
	}
	dec_puts(c, ", ");
	put_segment(c, "ds", &s.ds);
	dec_puts(c, ", ");
	put_segment(c, "es", &s.es);
	dec_puts(c, ", ");
	put_segment(c, "fs", &s.fs);
	dec_puts(c, ", ");
	put_segment(c, "gs", &s.gs);
	dec_puts(c, ", ");
	put_segment(c, "ss", &s.ss);
	dec_puts(c, ", ");
	put_segment(c, "tr", &s.tr);
	dec_puts(c, ", ");
	put_segment(c, "ldt", &s.ldt);
	dec_puts(c, ", ");
	put_dtable(c, "gdt", &s.gdt);
	dec_puts(c, ", ");
	put_dtable(c, "idt", &s.idt);
	dec_printf(c, ", cr0=%llu, cr2=%llu, cr3=%llu, cr4=%llu, cr8=%llu, "
		   "efer=%llu, apic_base=%#llx, interrupt_bitmap=[",
		   (unsigned long long)s.cr0, (unsigned long long)s.cr2,
		   (unsigned long long)s.cr3, (unsigned long long)s.cr4,
		   (unsigned long long)s.cr8, (unsigned long long)s.efer,
		   (unsigned long long)s.apic_base);
	for (i = 0; i < sizeof(s.interrupt_bitmap) /
			sizeof(s.interrupt_bitmap[0]); i++)
		dec_printf(c, "%s%#llx", i ? ", " : "",
			   (unsigned long long)s.interrupt_bitmap[i]);
	dec_puts(c, "]}");
}

static void put_cpuid2(struct dec_ctx *c, unsigned long addr)
{
	struct kvm_cpuid2 h;
	struct kvm_cpuid_entry2 e;
	unsigned i;

	if (!dec_read(c, addr, &h, sizeof(h))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{nent=%u, entries=", h.nent);
	if (!c->no_abbrev) {
		dec_puts(c, h.nent ? "[...]}" : "[]}");
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < h.nent; i++) {
		unsigned long at = addr + sizeof(h) + i * sizeof(e);

		if (i)
			dec_puts(c, ", ");
		if (!dec_read(c, at, &e, sizeof(e))) {
			dec_printf(c, "... /* %#lx */", at);
			break;
		}
		dec_printf(c, "{function=%#x, index=%#x, flags=", e.function,
			   e.index);
		dec_flags(c, kvm_cpuid_flags, e.flags, "KVM_CPUID_FLAG_???");
		dec_printf(c, ", eax=%#x, ebx=%#x, ecx=%#x, edx=%#x}", e.eax,
			   e.ebx, e.ecx, e.edx);
	}
	dec_puts(c, "]}");
}

/*
 * -e kvm=vcpu: the exit reason in the kvm_run structure of the vcpu on
 * descriptor fd, mapped by the thread (the mapping of the descriptor's
 * file, anon_inode:kvm-vcpu:N, in /proc/TID/maps); NULL if not found.
 */
static const char *vcpu_exit_reason(struct dec_ctx *c, int fd)
{
	char path[64], link[64], line[512];
	unsigned long start = 0, end = 0;
	uint32_t reason;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)c->tid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	if (strncmp(link, "anon_inode:kvm-vcpu:", 20))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)c->tid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t l = strcspn(line, "\n");

		line[l] = '\0';
		if (l >= (size_t)n && !strcmp(line + l - (size_t)n, link) &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
		start = end = 0;
	}
	fclose(f);
	if (end - start < sizeof(struct kvm_run) ||
	    !dec_read_mem(c, start + offsetof(struct kvm_run, exit_reason),
			  &reason, sizeof(reason)))
		return NULL;
	return xlat_name(kvm_exits, reason) ?: "KVM_EXIT_???";
}

/*
 * After the request's name (ioctl's decoder printed it): what the KVM
 * request's argument is, as d_ioctl's decoders return (true: done).
 */
bool dec_kvm_ioctl(struct dec_ctx *c, unsigned req)
{
	if (!c->exiting) {
		switch (req) {
		case KVM_CREATE_VM:
			c->rval = RV_FD;
			break;
		case KVM_CREATE_VCPU:
			SEP();
			dec_uint(c, (unsigned)A(2));
			c->rval = RV_FD;
			return true;
		case KVM_SET_USER_MEMORY_REGION:
			SEP();
			put_memory_region(c, A(2));
			return true;
		case KVM_SET_REGS:
			SEP();
			put_regs(c, A(2));
			return true;
		case KVM_SET_SREGS:
			SEP();
			put_sregs(c, A(2));
			return true;
		case KVM_SET_CPUID2:
			SEP();
			put_cpuid2(c, A(2));
			return true;
		case KVM_CHECK_EXTENSION:
			SEP();
			dec_xval(c, kvm_caps, A(2), "KVM_CAP_???");
			return true;
		case KVM_GET_REGS:
		case KVM_GET_SREGS:
		case KVM_GET_SUPPORTED_CPUID:
		case KVM_GET_EMULATED_CPUID:
		case KVM_RUN:
			return false;
		}
		SEP();
		dec_hex(c, A(2));
		return true;
	}
	SEP();
	if (failed(c) && req != KVM_RUN) {
		dec_ptr(c, A(2));
		return true;
	}
	switch (req) {
	case KVM_GET_REGS:
		put_regs(c, A(2));
		break;
	case KVM_GET_SREGS:
		put_sregs(c, A(2));
		break;
	case KVM_GET_SUPPORTED_CPUID:
	case KVM_GET_EMULATED_CPUID:
		put_cpuid2(c, A(2));
		break;
	case KVM_RUN:
		dec_hex(c, A(2));
		if (c->kvm_vcpu && !failed(c)) {
			const char *r = vcpu_exit_reason(c, (int)A(0));

			if (r)
				dec_note(c, " (%s)", r);
		}
		break;
	}
	return true;
}
