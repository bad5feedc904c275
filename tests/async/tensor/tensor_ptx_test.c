/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_ptx_test.c — CI, no GPU: each async/tensor.h call emits
 * exactly its PTX instruction form and none of the others (probes:
 * tensor_probe.cu); the run-time-rank forms compile to a switch over the same
 * five forms. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

static const cgt_probe_t k_probes[] = {
    {"tnsp_load_1d", "cg_tensor_load_1d_ptx_"},
    {"tnsp_load_multicast_1d", "cg_tensor_load_multicast_1d_ptx_"},
    {"tnsp_store_1d", "cg_tensor_store_1d_ptx_"},
    {"tnsp_prefetch_1d", "cg_tensor_prefetch_1d"},
    {"tnsp_load_2d", "cg_tensor_load_2d_ptx_"},
    {"tnsp_load_multicast_2d", "cg_tensor_load_multicast_2d_ptx_"},
    {"tnsp_store_2d", "cg_tensor_store_2d_ptx_"},
    {"tnsp_prefetch_2d", "cg_tensor_prefetch_2d"},
    {"tnsp_load_3d", "cg_tensor_load_3d_ptx_"},
    {"tnsp_load_multicast_3d", "cg_tensor_load_multicast_3d_ptx_"},
    {"tnsp_store_3d", "cg_tensor_store_3d_ptx_"},
    {"tnsp_prefetch_3d", "cg_tensor_prefetch_3d"},
    {"tnsp_load_4d", "cg_tensor_load_4d_ptx_"},
    {"tnsp_load_multicast_4d", "cg_tensor_load_multicast_4d_ptx_"},
    {"tnsp_store_4d", "cg_tensor_store_4d_ptx_"},
    {"tnsp_prefetch_4d", "cg_tensor_prefetch_4d"},
    {"tnsp_load_5d", "cg_tensor_load_5d_ptx_"},
    {"tnsp_load_multicast_5d", "cg_tensor_load_multicast_5d_ptx_"},
    {"tnsp_store_5d", "cg_tensor_store_5d_ptx_"},
    {"tnsp_prefetch_5d", "cg_tensor_prefetch_5d"},
    {"tnsp_map_prefetch", "cg_tensor_map_prefetch"},
    {"tnsp_map_fence_acquire", "cg_tensor_map_fence_acquire"},
    {"tnsp_map_fence_release", "cg_tensor_map_fence_release"},
};

TestSuite(tensor_ptx, .timeout = 30);

Test(tensor_ptx, each_call_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/async/tensor/tensor_probe.ptx", k_probes, sizeof k_probes / sizeof k_probes[0]);
}

/* The coordinate-array load with a run-time rank: rows of tensor_ptx.tbl. */
Test(tensor_ptx, rank_generic_load_reaches_every_rank)
{
    cgt_check_expectations("tests/async/tensor/tensor_probe.ptx", "tests/async/tensor/tensor_ptx.tbl");
}
