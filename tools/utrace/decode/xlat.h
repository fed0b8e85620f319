/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef UT_XLAT_H
#define UT_XLAT_H

#include "decode/decode.h"

extern const struct xlat xlat_open_access[], xlat_at_flags[],
	xlat_statx_flags[], xlat_statx_mask[], xlat_statx_attrs[],
	xlat_access_modes[], xlat_prot[], xlat_map_type[], xlat_map_flags[],
	xlat_mremap_flags[], xlat_madvise[], xlat_msync[], xlat_seek[],
	xlat_sigprocmask[], xlat_sa_flags[], xlat_clone_flags[],
	xlat_wait_opts[], xlat_idtype[], xlat_fcntl_cmds[], xlat_fd_flags[],
	xlat_lock_types[], xlat_flock_ops[], xlat_address_families[],
	xlat_socktypes[], xlat_sock_flags[], xlat_inet_protos[],
	xlat_msg_flags[], xlat_shutdown[], xlat_sockopt_levels[],
	xlat_sol_socket[], xlat_rlimits[], xlat_rusage_who[], xlat_clocks[],
	xlat_futex_cmds[], xlat_poll_events[], xlat_epoll_ctl[],
	xlat_epoll_events[], xlat_epoll_flags[], xlat_efd_flags[],
	xlat_fadvise[], xlat_arch_prctl[], xlat_grnd_flags[],
	xlat_pipe_flags[], xlat_rename_flags[], xlat_mfd_flags[],
	xlat_sigaltstack_flags[], xlat_itimers[], xlat_faccessat_flags[],
	xlat_seals[], xlat_dn_flags[], xlat_fsmagic[], xlat_statfs_flags[],
	xlat_sol_ip[], xlat_sol_ipv6[], xlat_sol_tcp[], xlat_sol_udp[],
	xlat_unshare_flags[], xlat_netlink_protos[], xlat_sol_netlink[];

#endif
