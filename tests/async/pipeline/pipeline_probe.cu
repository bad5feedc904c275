/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/pipeline/pipeline_probe.cu — probe kernels for pipeline_ptx_test.c,
 * compiled to PTX only: one per pipeline call, so the test can read which
 * mbarrier forms (order, scope, state space) each one compiles to. */
#include "async/pipeline.h"

#define PROBE(NAME, BODY)                                                                          \
    extern "C" __global__ void plp_##NAME(const uint4 *g, uint32_t x, uint32_t *out)               \
    {                                                                                              \
        extern __shared__ __align__(128) unsigned char smem[];                                     \
        cg_pipeline_t p = cg_pipeline_attach_cluster(smem, 4, 1024, x & 7u);                       \
        p.head = x & 3u;                                                                           \
        p.tail = (x >> 2) & 3u;                                                                    \
        p.head_phase = (x >> 4) & 1u;                                                              \
        p.tail_phase = (x >> 5) & 1u;                                                              \
        (void)g;                                                                                   \
        BODY                                                                                       \
        out[threadIdx.x] = p.head + 4u * p.tail + 16u * p.head_phase + 32u * p.tail_phase;         \
    }

PROBE(init_barriers, cg_pipeline_init_barriers(&p, 1, x);)
PROBE(producer_acquire, out[1] = (uint32_t)(uintptr_t)cg_pipeline_producer_acquire(&p);)
PROBE(producer_copy, cg_pipeline_producer_copy(&p, 0, g, x);)
PROBE(memcpy_async, cg_pipeline_memcpy_async(&p, threadIdx.x, 0, g, x);)
PROBE(producer_commit, cg_pipeline_producer_commit(&p, x);)
PROBE(producer_tail, cg_pipeline_producer_tail(&p);)
PROBE(consumer_wait, out[1] = (uint32_t)(uintptr_t)cg_pipeline_consumer_wait(&p);)
PROBE(consumer_release, cg_pipeline_consumer_release(&p);)
PROBE(consumer_release_warp, cg_pipeline_consumer_release_warp(&p);)
PROBE(init_barriers_cluster, cg_pipeline_init_barriers_cluster(&p, x);)
PROBE(cluster_producer_acquire, out[1] = (uint32_t)(uintptr_t)cg_pipeline_cluster_producer_acquire(&p);)
PROBE(cluster_producer_copy, cg_pipeline_cluster_producer_copy(&p, 0, g, x, (uint16_t)(x >> 8));)
PROBE(cluster_producer_commit, cg_pipeline_cluster_producer_commit(&p, x, (uint16_t)(x >> 8));)
PROBE(cluster_producer_tail, cg_pipeline_cluster_producer_tail(&p);)
PROBE(cluster_consumer_wait, out[1] = (uint32_t)(uintptr_t)cg_pipeline_cluster_consumer_wait(&p);)
PROBE(cluster_consumer_release, cg_pipeline_cluster_consumer_release(&p);)
PROBE(cluster_consumer_release_warp, cg_pipeline_cluster_consumer_release_warp(&p);)
PROBE(cluster_producer_copy_slice, cg_pipeline_cluster_producer_copy_slice(&p, g, (uint16_t)(x >> 8));)
PROBE(cluster_producer_commit_local, cg_pipeline_cluster_producer_commit_local(&p, x);)
PROBE(cluster_consumer_release_all, cg_pipeline_cluster_consumer_release_all(&p, (uint16_t)(x >> 8));)
PROBE(cluster_consumer_release_all_warp, cg_pipeline_cluster_consumer_release_all_warp(&p, (uint16_t)(x >> 8));)
PROBE(cluster_consumer_release_all_whole_warp,
      cg_pipeline_cluster_consumer_release_all_whole_warp(&p, (uint16_t)(x >> 8));)
