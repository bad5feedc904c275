/* SPDX-License-Identifier: BSD-3-Clause */
/* The cluster barrier and DSMEM: each CTA writes its shared word, the
 * cluster's split barrier, every thread reads the next CTA's word, and a
 * cluster sync before the CTA may exit. */
#include "tools/ci/compile_time/common.h"
#if CT_VARIANT == CT_CGC
#include "cg/cg.h"
extern "C" __global__ void ct_cluster_dsmem(uint32_t *out, int iters)
{
    __shared__ uint32_t word[2];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t me = cg_cluster_block_rank(&cl), n = cg_cluster_num_blocks(&cl);
    uint32_t acc = 0;
    for (int i = 0; i < iters; ++i) {
        if (threadIdx.x == 0)
            word[i & 1] = me * 1000u + (uint32_t)i;
        cg_token_t t = cg_cluster_barrier_arrive(&cl);
        acc += threadIdx.x;
        cg_cluster_barrier_wait(&cl, t);
        const uint32_t *peer = (const uint32_t *)cg_cluster_map_shared_rank(&cl, &word[i & 1], (me + 1u) % n);
        acc += *peer;
    }
    cg_cluster_sync(&cl);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#elif CT_VARIANT == CT_CPP
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void ct_cluster_dsmem(uint32_t *out, int iters)
{
    __shared__ uint32_t word[2];
    cg::cluster_group cl = cg::this_cluster();
    const uint32_t me = cl.block_rank(), n = cl.num_blocks();
    uint32_t acc = 0;
    for (int i = 0; i < iters; ++i) {
        if (threadIdx.x == 0)
            word[i & 1] = me * 1000u + (uint32_t)i;
        cg::cluster_group::arrival_token t = cl.barrier_arrive();
        acc += threadIdx.x;
        cl.barrier_wait(std::move(t));
        const uint32_t *peer = cl.map_shared_rank(&word[i & 1], (me + 1u) % n);
        acc += *peer;
    }
    cl.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#else
extern "C" __global__ void ct_cluster_dsmem(uint32_t *out, int iters)
{
    __shared__ uint32_t word[2];
    uint32_t me, n;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(me));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    uint32_t acc = 0;
    for (int i = 0; i < iters; ++i) {
        if (threadIdx.x == 0)
            word[i & 1] = me * 1000u + (uint32_t)i;
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        acc += threadIdx.x;
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        uint32_t local = (uint32_t)__cvta_generic_to_shared(&word[i & 1]), remote, v;
        asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((me + 1u) % n));
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
        acc += v;
    }
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#endif
