/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_ptx_test.c — CI, no GPU: each async/tensor.h call emits
 * exactly its PTX instruction form and none of the others (probes:
 * tensor_probe.cu); the run-time-rank forms compile to a switch over the same
 * five forms. */
#include <stdio.h>
#include <string.h>

#include "tests/dsmem/ptx_forms.h"

static const probe_t k_probes[] = {
    {"tnsp_load_1d", "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnsp_load_multicast_1d", "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnsp_store_1d", "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group"},
    {"tnsp_prefetch_1d", "cp.async.bulk.prefetch.tensor.1d.L2.global.tile"},
    {"tnsp_load_2d", "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnsp_load_multicast_2d", "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnsp_store_2d", "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"},
    {"tnsp_prefetch_2d", "cp.async.bulk.prefetch.tensor.2d.L2.global.tile"},
    {"tnsp_load_3d", "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnsp_load_multicast_3d", "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnsp_store_3d", "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"},
    {"tnsp_prefetch_3d", "cp.async.bulk.prefetch.tensor.3d.L2.global.tile"},
    {"tnsp_load_4d", "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnsp_load_multicast_4d", "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnsp_store_4d", "cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group"},
    {"tnsp_prefetch_4d", "cp.async.bulk.prefetch.tensor.4d.L2.global.tile"},
    {"tnsp_load_5d", "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnsp_load_multicast_5d", "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnsp_store_5d", "cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group"},
    {"tnsp_prefetch_5d", "cp.async.bulk.prefetch.tensor.5d.L2.global.tile"},
    {"tnsp_map_prefetch", "prefetch.tensormap"},
    {"tnsp_map_fence_acquire", "fence.proxy.tensormap::generic.acquire.gpu"},
    {"tnsp_map_fence_release", "fence.proxy.tensormap::generic.release.gpu"},
};

TestSuite(tensor_ptx, .timeout = 30);

Test(tensor_ptx, each_call_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/async/tensor/tensor_probe.ptx", k_probes, sizeof k_probes / sizeof k_probes[0]);
}

/* The coordinate-array load with a run-time rank: one of each rank's form. */
Test(tensor_ptx, rank_generic_load_reaches_every_rank)
{
    char *ptx = cgt_ptx_read("tests/async/tensor/tensor_probe.ptx");
    char *ins = cgt_ptx_instructions(cgt_ptx_function(ptx, "tnsp_load_generic"));
    for (int n = 1; n <= 5; ++n) {
        char form[128];
        snprintf(form, sizeof form, "cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes", n);
        cr_expect_eq(cgt_count_mnemonic(ins, form), 1, "rank %d: want one %s in:\n%s", n, form, ins);
    }
    free(ins);
    free(ptx);
}
