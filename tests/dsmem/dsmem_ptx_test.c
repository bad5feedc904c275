/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/dsmem/dsmem_ptx_test.c — CI, no GPU: every dsmem/dsmem.h wrapper (and
 * the proxy fences of base/fence.h) emits exactly its PTX instruction form,
 * with the memory order and scope spelled out. Probes: dsmem_probe.cu. */
#include "tests/dsmem/ptx_forms.h"

/* name, the one instruction form it must emit */
static const probe_t k_probes[] = {
    {"dsmp_ld_b32", "ld.weak.shared::cluster.b32"},
    {"dsmp_ld_b64", "ld.weak.shared::cluster.b64"},
    {"dsmp_ld_v4", "ld.weak.shared::cluster.v4.b32"},
    {"dsmp_st_b32", "st.weak.shared::cluster.b32"},
    {"dsmp_st_b64", "st.weak.shared::cluster.b64"},
    {"dsmp_st_v4", "st.weak.shared::cluster.v4.b32"},
    {"dsmp_ld_relaxed_u32", "ld.relaxed.cluster.shared::cluster.u32"},
    {"dsmp_ld_acquire_u32", "ld.acquire.cluster.shared::cluster.u32"},
    {"dsmp_st_relaxed_u32", "st.relaxed.cluster.shared::cluster.u32"},
    {"dsmp_st_release_u32", "st.release.cluster.shared::cluster.u32"},
    {"dsmp_atom_add_relaxed_u32", "atom.relaxed.cluster.shared::cluster.add.u32"},
    {"dsmp_atom_add_acq_rel_u32", "atom.acq_rel.cluster.shared::cluster.add.u32"},
    {"dsmp_atom_add_relaxed_u64", "atom.relaxed.cluster.shared::cluster.add.u64"},
    {"dsmp_atom_add_relaxed_f32", "atom.relaxed.cluster.shared::cluster.add.f32"},
    {"dsmp_atom_min_relaxed_u32", "atom.relaxed.cluster.shared::cluster.min.u32"},
    {"dsmp_atom_max_relaxed_u32", "atom.relaxed.cluster.shared::cluster.max.u32"},
    {"dsmp_atom_exch_relaxed_b32", "atom.relaxed.cluster.shared::cluster.exch.b32"},
    {"dsmp_atom_cas_relaxed_b32", "atom.relaxed.cluster.shared::cluster.cas.b32"},
    {"dsmp_red_add_relaxed_u32", "red.relaxed.cluster.shared::cluster.add.u32"},
    {"dsmp_red_add_release_u32", "red.release.cluster.shared::cluster.add.u32"},
    {"dsmp_red_add_relaxed_u64", "red.relaxed.cluster.shared::cluster.add.u64"},
    {"dsmp_red_add_relaxed_f32", "red.relaxed.cluster.shared::cluster.add.f32"},
    {"dsmp_st_async_b32", "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b32"},
    {"dsmp_st_async_b64", "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b64"},
    {"dsmp_st_async_v2_b32", "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.b32"},
    {"dsmp_st_async_v4_b32", "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32"},
    {"dsmp_red_async_add_u32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32"},
    {"dsmp_red_async_add_s32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.s32"},
    {"dsmp_red_async_add_u64", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64"},
    {"dsmp_red_async_min_u32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u32"},
    {"dsmp_red_async_max_u32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.u32"},
    {"dsmp_red_async_min_s32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32"},
    {"dsmp_red_async_max_s32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32"},
    {"dsmp_red_async_inc_u32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32"},
    {"dsmp_red_async_dec_u32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.dec.u32"},
    {"dsmp_red_async_and_b32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32"},
    {"dsmp_red_async_or_b32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.or.b32"},
    {"dsmp_red_async_xor_b32", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32"},
    {"dsmp_bulk_copy", "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"},
    {"dsmp_push_bulk", "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"},
    {"dsmp_fence_proxy_async_smem", "fence.proxy.async.shared::cta"},
    {"dsmp_fence_proxy_async_global", "fence.proxy.async.global"},
    {"dsmp_dsmem_fence_proxy_async", "fence.proxy.async.shared::cluster"},
    {"dsmp_fence_release_smem_cluster", "fence.release.sync_restrict::shared::cta.cluster"},
    {"dsmp_fence_proxy_async_release_smem_cluster",
     "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster"},
    {"dsmp_fence_acquire_smem_cluster", "fence.acquire.sync_restrict::shared::cluster.cluster"},
    {"dsmp_fence_proxy_async_acquire_smem_cluster",
     "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster"},
};

TestSuite(dsmem_ptx, .timeout = 30);

Test(dsmem_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/dsmem/dsmem_probe.ptx", k_probes, sizeof k_probes / sizeof k_probes[0]);
}

/* The collective push moves 16-byte words with st.async v4 on its aligned
 * path and never touches the bulk engine or a fence on the sender. */
Test(dsmem_ptx, push_group_uses_st_async_and_no_fence)
{
    char *ptx = cgt_ptx_read("tests/dsmem/dsmem_probe.ptx");
    char *body = cgt_ptx_function(ptx, "dsmp_push_group");
    char *ins = cgt_ptx_instructions(body);
    cr_expect_gt(cgt_count_mnemonic(ins, "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32"), 0);
    cr_expect_eq(cgt_count(ins, "fence."), 0, "no fence in the sender's push");
    cr_expect_eq(cgt_count(ins, "cp.async.bulk"), 0, "no bulk copy in the st.async push");
    cr_expect_eq(cgt_count(ins, "bar.sync"), 0, "no block barrier inside the push");
    free(ins);
    free(body);
    free(ptx);
}

/* cg_dsmem_release: the shared-memory-restricted release fence, then one
 * relaxed remote arrive; never the GPU-wide release.cluster arrive. */
Test(dsmem_ptx, release_is_a_restricted_fence_then_a_relaxed_remote_arrive)
{
    char *ptx = cgt_ptx_read("tests/dsmem/dsmem_probe.ptx");
    char *ins = cgt_ptx_instructions(cgt_ptx_function(ptx, "dsmp_release"));
    const char *f = strstr(ins, "fence.release.sync_restrict::shared::cta.cluster");
    const char *a = strstr(ins, "mbarrier.arrive.relaxed.cluster.shared::cluster.b64");
    cr_expect(f && a && f < a, "fence then relaxed remote arrive:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "mbarrier."), 1, "one mbarrier instruction:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "fence."), 1, "one fence:\n%s", ins);
    free(ins);
    free(ptx);
}
