/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/dsmem/dsmem_ptx_test.c — CI, no GPU: every dsmem/dsmem.h wrapper (and
 * the proxy fences of base/fence.h) emits exactly its PTX instruction form,
 * with the memory order and scope spelled out. Probes: dsmem_probe.cu. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

/* name, the one instruction form it must emit */
static const cgt_probe_t k_probes[] = {
    {"dsmp_ld_b32", "cg_dsmem_ld_b32"},
    {"dsmp_ld_b64", "cg_dsmem_ld_b64"},
    {"dsmp_ld_v4", "ld.weak.shared::cluster.v4.b32"},
    {"dsmp_st_b32", "cg_dsmem_st_b32"},
    {"dsmp_st_b64", "cg_dsmem_st_b64"},
    {"dsmp_st_v4", "cg_dsmem_st_v4"},
    {"dsmp_ld_relaxed_u32", "cg_dsmem_ld_relaxed_u32"},
    {"dsmp_ld_acquire_u32", "cg_dsmem_ld_acquire_u32"},
    {"dsmp_st_relaxed_u32", "cg_dsmem_st_relaxed_u32"},
    {"dsmp_st_release_u32", "cg_dsmem_st_release_u32"},
    {"dsmp_atom_add_relaxed_u32", "cg_dsmem_atom_add_relaxed_u32"},
    {"dsmp_atom_add_acq_rel_u32", "cg_dsmem_atom_add_acq_rel_u32"},
    {"dsmp_atom_add_relaxed_u64", "cg_dsmem_atom_add_relaxed_u64"},
    {"dsmp_atom_add_relaxed_f32", "cg_dsmem_atom_add_relaxed_f32"},
    {"dsmp_atom_min_relaxed_u32", "cg_dsmem_atom_min_relaxed_u32"},
    {"dsmp_atom_max_relaxed_u32", "cg_dsmem_atom_max_relaxed_u32"},
    {"dsmp_atom_exch_relaxed_b32", "cg_dsmem_atom_exch_relaxed_b32"},
    {"dsmp_atom_cas_relaxed_b32", "cg_dsmem_atom_cas_relaxed_b32"},
    {"dsmp_red_add_relaxed_u32", "cg_dsmem_red_add_relaxed_u32"},
    {"dsmp_red_add_release_u32", "cg_dsmem_red_add_release_u32"},
    {"dsmp_red_add_relaxed_u64", "cg_dsmem_red_add_relaxed_u64"},
    {"dsmp_red_add_relaxed_f32", "cg_dsmem_red_add_relaxed_f32"},
    {"dsmp_st_async_b32", "cg_dsmem_st_async_b32"},
    {"dsmp_st_async_b64", "cg_dsmem_st_async_b64"},
    {"dsmp_st_async_v2_b32", "cg_dsmem_st_async_v2_b32"},
    {"dsmp_st_async_v4_b32", "cg_dsmem_st_async_v4_b32"},
    {"dsmp_red_async_add_u32", "cg_dsmem_red_async_add_u32"},
    {"dsmp_red_async_add_s32", "cg_dsmem_red_async_add_s32"},
    {"dsmp_red_async_add_u64", "cg_dsmem_red_async_add_u64"},
    {"dsmp_red_async_min_u32", "cg_dsmem_red_async_min_u32"},
    {"dsmp_red_async_max_u32", "cg_dsmem_red_async_max_u32"},
    {"dsmp_red_async_min_s32", "cg_dsmem_red_async_min_s32"},
    {"dsmp_red_async_max_s32", "cg_dsmem_red_async_max_s32"},
    {"dsmp_red_async_inc_u32", "cg_dsmem_red_async_inc_u32"},
    {"dsmp_red_async_dec_u32", "cg_dsmem_red_async_dec_u32"},
    {"dsmp_red_async_and_b32", "cg_dsmem_red_async_and_b32"},
    {"dsmp_red_async_or_b32", "cg_dsmem_red_async_or_b32"},
    {"dsmp_red_async_xor_b32", "cg_dsmem_red_async_xor_b32"},
    {"dsmp_bulk_copy", "cg_dsmem_bulk_copy"},
    {"dsmp_push_bulk", "cg_dsmem_bulk_copy"},
    {"dsmp_fence_proxy_async_smem", "cg_fence_proxy_async_smem"},
    {"dsmp_fence_proxy_async_global", "cg_fence_proxy_async_global"},
    {"dsmp_dsmem_fence_proxy_async", "cg_dsmem_fence_proxy_async"},
    {"dsmp_fence_release_smem_cluster", "cg_fence_release_smem_cluster"},
    {"dsmp_fence_proxy_async_release_smem_cluster",
     "cg_fence_proxy_async_release_smem_cluster"},
    {"dsmp_fence_acquire_smem_cluster", "cg_fence_acquire_smem_cluster"},
    {"dsmp_fence_proxy_async_acquire_smem_cluster",
     "cg_fence_proxy_async_acquire_smem_cluster"},
};

TestSuite(dsmem_ptx, .timeout = 30);

Test(dsmem_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/dsmem/dsmem_probe.ptx", k_probes, sizeof k_probes / sizeof k_probes[0]);
}

/* The collective push and cg_dsmem_release: rows of dsmem_ptx.tbl. */
Test(dsmem_ptx, composites_follow_the_table)
{
    cgt_check_expectations("tests/dsmem/dsmem_probe.ptx", "tests/dsmem/dsmem_ptx.tbl");
}
