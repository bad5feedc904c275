/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cluster/cluster_probes.cu — one probe per cluster/cluster.h wrapper
 * (PTX checks), and a kernel that reads every cluster special register. */
#include <cooperative_groups.h>

#include "cluster/cluster.h"

#define PROBE(name, call) \
    extern "C" __global__ void probe_##name(void) { call; }

PROBE(arrive_release, cg_hw_cluster_arrive_release())
PROBE(arrive_release_aligned, cg_hw_cluster_arrive_release_aligned())
PROBE(arrive_relaxed, cg_hw_cluster_arrive_relaxed())
PROBE(arrive_relaxed_aligned, cg_hw_cluster_arrive_relaxed_aligned())
PROBE(wait_acquire, cg_hw_cluster_wait_acquire())
PROBE(wait_acquire_aligned, cg_hw_cluster_wait_acquire_aligned())

/* Per block: 16 values (see cluster_test.c), checked against C++ CG and the
 * host's own arithmetic. */
extern "C" __global__ void k_cluster_registers(uint32_t *out)
{
    namespace cpp_cg = cooperative_groups;
    cpp_cg::cluster_group cc = cpp_cg::this_cluster();
    uint32_t b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    uint32_t *o = out + 16u * b;
    if (threadIdx.x == 0) {
        o[0] = cg_hw_cluster_ctarank();
        o[1] = cg_hw_cluster_nctarank();
        o[2] = cg_hw_cluster_ctaid_x();
        o[3] = cg_hw_cluster_ctaid_y();
        o[4] = cg_hw_cluster_ctaid_z();
        o[5] = cg_hw_cluster_nctaid_x();
        o[6] = cg_hw_cluster_nctaid_y();
        o[7] = cg_hw_cluster_nctaid_z();
        o[8] = cg_hw_clusterid_x();
        o[9] = cg_hw_clusterid_y();
        o[10] = cg_hw_clusterid_z();
        o[11] = cg_hw_nclusterid_x();
        o[12] = cg_hw_nclusterid_y();
        o[13] = cg_hw_nclusterid_z();
        o[14] = cg_hw_is_explicit_cluster();
        o[15] = (o[0] == cc.block_rank() && o[1] == cc.num_blocks()) ? 1u : 0u;
    }
    cg_hw_cluster_arrive_release();
    cg_hw_cluster_wait_acquire();
}

extern "C" cudaError_t cgt_launch_cluster_registers(dim3 grid, dim3 cluster, int explicit_cluster, uint32_t *out)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    cfg.gridDim = grid;
    cfg.blockDim = dim3(64, 1, 1);
    if (explicit_cluster) {
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = cluster.x;
        attr[0].val.clusterDim.y = cluster.y;
        attr[0].val.clusterDim.z = cluster.z;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
    }
    return cudaLaunchKernelEx(&cfg, k_cluster_registers, out);
}
