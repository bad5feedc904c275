/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/debugbuild/every_wait_kernels.cu — one kernel that uses every
 * blocking wait cgc has (block split barrier, cg_barrier_t, mbarrier waits
 * at CTA and cluster scope, the block pipeline, a DSMEM push and its
 * receiver's wait and release, the cluster barrier, the grid barrier and the
 * device barrier), written for 1024 threads per block in clusters of 2 and
 * launched cooperatively through cg_launch. Built twice (every_wait_test:
 * release, every_wait_debug_test: -DCG_DEBUG=1): a debug build must launch
 * every kernel shape its release build launches, so both must run 1024
 * threads a block (64 registers a thread at most) and give the same checked
 * result. No __launch_bounds__: the register count is ptxas's own choice,
 * as in a user's kernel.
 *
 * Per round t, block b of G, cluster rank r of n, thread i (the host
 * reference in every_wait_test.c follows the same steps):
 *   v = in[(b * rounds + t) * 1024 + i]          pipeline (block form)
 *   w = v of cluster rank r - 1, thread i + 1    DSMEM push + wait (+ release)
 *   y = (v ^ w) of cluster rank r + 1, thread i  cluster barrier arrive/wait
 *   z = y of block b + 1 (mod G), thread i       grid barrier arrive/wait
 *   h = z + 1 of block b - 1 (mod G), thread i   device barrier
 *   acc = acc * 31 + v + 3w + 5y + 7z + 11h      (uint32)
 * The block split barrier and cg_barrier_t order the shared buffers between
 * steps. out[b * 1024 + i] = acc.
 */
#include <cuda_runtime.h>

#include "cg/cg.h"
#include "tests/build/debugbuild/every_wait.h"

#define EW_STAGES 2u
#define EW_STAGE_BYTES (EW_THREADS * 4u)

extern "C" __global__ void EW_KERNEL_NAME(const uint32_t *in, uint32_t *out, uint32_t *gslot, uint32_t *hslot,
                                          cg_device_barrier_t *dbar, uint32_t rounds)
{
    __shared__ __align__(128) unsigned char pipe_smem[CG_PIPELINE_SMEM_BYTES(EW_STAGES, EW_STAGE_BYTES)];
    __shared__ __align__(16) uint32_t src[EW_THREADS];
    __shared__ __align__(16) uint32_t dst[EW_THREADS];
    __shared__ uint32_t xs[EW_THREADS];
    __shared__ cg_mbarrier_t full, empty;
    __shared__ cg_barrier_t bar;

    cg_thread_block_t blk = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    cg_grid_t grid = cg_this_grid();
    const uint32_t i = threadIdx.x;
    const uint32_t b = blockIdx.x, nb = gridDim.x;
    const uint32_t r = cg_cluster_block_rank(&cl), n = cg_cluster_num_blocks(&cl);

    cg_pipeline_t p = cg_pipeline_attach(pipe_smem, EW_STAGES, EW_STAGE_BYTES);
    if (i == 0) {
        cg_pipeline_init_barriers(&p, EW_THREADS, EW_THREADS);
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init(&empty, 1);
        cg_barrier_init(&bar, EW_THREADS);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl);

    uint32_t acc = 0;
    for (uint32_t t = 0; t < rounds; ++t) {
        /* pipeline, plain-block form: thread 0 copies the round's input */
        (void)cg_pipeline_producer_acquire(&p);
        cg_pipeline_memcpy_async(&p, i, 0, in + ((size_t)b * rounds + t) * EW_THREADS, EW_STAGE_BYTES);
        cg_pipeline_producer_commit(&p, 0);
        const uint32_t v = ((const uint32_t *)cg_pipeline_consumer_wait(&p))[i];
        cg_pipeline_consumer_release(&p);

        /* block split barrier: src is free (last round's push read it) */
        src[i] = v;
        cg_token_t bt = cg_thread_block_barrier_arrive(&blk);
        cg_thread_block_barrier_wait(&blk, bt);

        /* DSMEM: push src into rank r + 1's dst; wait for rank r - 1's */
        if (t > 0)
            cg_mbarrier_wait_parity_cluster(&empty, (t - 1u) & 1u); /* r + 1 released its dst */
        if (i == 0)
            (void)cg_mbarrier_arrive_tx(&full, EW_STAGE_BYTES);
        cg_dsmem_push(&blk, dst, src, EW_STAGE_BYTES, &full, (r + 1u) % n);
        cg_mbarrier_wait_parity_cluster(&full, t & 1u);
        const uint32_t w = dst[(i + 1u) % EW_THREADS];
        cg_barrier_arrive_and_wait(&bar); /* every read of dst done */
        if (i == 0)
            cg_mbarrier_arrive_remote(&empty, (r + n - 1u) % n);

        /* cluster barrier: xs published to the cluster */
        xs[i] = v ^ w;
        cg_token_t ct = cg_cluster_barrier_arrive(&cl);
        cg_cluster_barrier_wait(&cl, ct);
        const uint32_t y = ((const uint32_t *)cg_cluster_map_shared_rank(&cl, xs, (r + 1u) % n))[i];

        /* grid barrier */
        gslot[(size_t)b * EW_THREADS + i] = y;
        cg_token_t gt = cg_grid_barrier_arrive(&grid);
        cg_grid_barrier_wait(&grid, gt);
        const uint32_t z = gslot[(size_t)((b + 1u) % nb) * EW_THREADS + i];

        /* device barrier (every thread arrives); also orders this round's
         * gslot reads before the next round's writes */
        hslot[(size_t)b * EW_THREADS + i] = z + 1u;
        cg_device_barrier_wait(dbar, cg_device_barrier_arrive(dbar));
        const uint32_t h = hslot[(size_t)((b + nb - 1u) % nb) * EW_THREADS + i];

        acc = acc * 31u + v + 3u * w + 5u * y + 7u * z + 11u * h;
        /* xs is rewritten next round only after this cluster barrier; gslot
         * and hslot only after the next grid barrier, which every thread
         * reaches after its reads of this round */
        cg_cluster_sync(&cl);
    }
    out[(size_t)b * EW_THREADS + i] = acc;
    cg_cluster_exit_sync(&cl);
}

extern "C" int EW_LAUNCHER_NAME(const uint32_t *in, uint32_t *out, uint32_t *gslot, uint32_t *hslot,
                                cg_device_barrier_t *dbar, uint32_t blocks, uint32_t rounds, char *detail,
                                size_t detail_len)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = blocks;
    cfg.block.x = EW_THREADS;
    cfg.cluster.x = EW_CLUSTER;
    cfg.cooperative = 1;
    void *args[] = {(void *)&in, (void *)&out, (void *)&gslot, (void *)&hslot, (void *)&dbar, (void *)&rounds};
    cg_status_t st = cg_launch(&cfg, (const void *)EW_KERNEL_NAME, args);
    if (st != CG_SUCCESS)
        snprintf(detail, detail_len, "%s: %s", cg_status_string(st), cg_last_error_detail());
    return (int)st;
}

extern "C" int EW_REGS_NAME(void)
{
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, (const void *)EW_KERNEL_NAME) != cudaSuccess)
        return -1;
    return fa.numRegs;
}
