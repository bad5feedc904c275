/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic_compile_probe.cu — compiled (not run) by
 * generic_compile_time_test under a time limit: every group's generic and
 * typed calls together, in loops and branches, with the thread block's lazy
 * barrier setup inside the loop, and the group copies and pushes through the
 * generic forms. A run-time switch over the group kinds in the generic calls
 * once kept cicc busy for minutes on a kernel of this shape (issue 10).
 */
#include "cg/cg.h"

/* cg_tile_shfl_int below is the deprecated name (cg/tile.h), kept so this
 * probe compiles what it always did; its warning (#1444) is expected. */
#pragma nv_diag_suppress 1444

extern "C" __global__ void generic_mix(int iters, int *out, const int *in, int mode)
{
    __shared__ __align__(16) int buf[1024];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 16);
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, cg_thread_block_num_threads(&b));
    cg_sync(&b);
    int acc = 0;
    for (int i = 0; i < iters; ++i) {
        if ((i + mode) & 1) {
            cg_token_t k = cg_barrier_arrive(&b);
            acc += (int)cg_thread_rank(&b) + (int)cg_num_threads(&t);
            cg_barrier_wait(&b, k);
        } else {
            cg_thread_block_t fresh = cg_this_thread_block(); /* lazy setup inside the loop */
            cg_token_t k = cg_thread_block_barrier_arrive(&fresh);
            acc += (int)cg_thread_block_thread_rank(&fresh);
            cg_thread_block_barrier_wait(&fresh, k);
        }
        if (mode & 2) {
            cg_token_t k = cg_barrier_arrive(&t);
            acc ^= cg_tile_shfl_int(&t, acc, 1);
            cg_barrier_wait(&t, k);
            cg_sync(&t);
        }
        if (mode & 4) {
            cg_memcpy_async(&t, buf, in + 1024 * i, 256, &bar);
            cg_memcpy_async(&b, buf + 256, in + 1024 * i, 1020, &bar);
            cg_barrier_arrive_and_wait(&bar);
            acc += buf[threadIdx.x % 1024];
            cg_sync(&b);
        }
    }
    out[cg_thread_rank(&b)] = acc;
}

extern "C" __global__ void generic_grid_cluster(int iters, int *out, int mode)
{
    __shared__ __align__(16) int buf[256];
    __shared__ cg_mbarrier_t mb;
    cg_grid_t g = cg_this_grid();
    cg_cluster_t c = cg_this_cluster();
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 32);
    if (threadIdx.x == 0)
        cg_mbarrier_init(&mb, 1);
    cg_sync(&c);
    uint64_t acc = 0;
    for (int i = 0; i < iters; ++i) {
        switch ((i + mode) % 4) {
        case 0: {
            cg_token_t k = cg_barrier_arrive(&g);
            acc += cg_thread_rank(&g) + cg_num_threads(&g);
            cg_barrier_wait(&g, k);
            break;
        }
        case 1: {
            cg_token_t k = cg_barrier_arrive(&c);
            acc += cg_thread_rank(&c) + cg_cluster_block_rank(&c);
            cg_barrier_wait(&c, k);
            break;
        }
        case 2:
            cg_grid_sync(&g);
            cg_sync(&b);
            acc += cg_grid_thread_rank(&g);
            break;
        default: {
            cg_token_t k = cg_thread_block_barrier_arrive(&b);
            acc += cg_thread_rank(&t);
            cg_thread_block_barrier_wait(&b, k);
            if (mode & 8) {
                uint32_t to = (cg_cluster_block_rank(&c) + 1u) % cg_cluster_num_blocks(&c);
                cg_dsmem_push(&t, buf, buf, 128, &mb, to);
                cg_sync(&c);
            }
        }
        }
    }
    out[cg_thread_rank(&g)] = (int)acc;
}
