/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/sm80_probe.cu — what cgc offers without Hopper, built for sm_80 by
 * sm80_compile_test: groups without clusters, tiles, coalesced groups,
 * collectives, grid sync, the block split barrier, cg_barrier_t and the
 * mbarrier without tx counts, the completion-function barrier, the device
 * barrier. With -DCGT_USE_CLUSTER it also makes one cluster call, which must
 * stop the build with the sm_90 message.
 */
#include "barrier/barrier_fn.h"
#include "barrier/device_barrier.h"
#include "cg/cg.h"
#include "cg/coalesced.h"
#include "cg/collectives.h"
#include "cg/grid.h"

static __device__ void cgt_sm80_done(void *arg) { ++*(unsigned *)arg; }
static __device__ uint32_t cgt_sm80_get(void *arg) { return *(const uint32_t *)arg; }

/* The group API without Hopper: a thread_group whose kind is known only at
 * run time (its switch leaves out clusters on sm_80), invoke_one through
 * rank 0 and a shuffle, staged copies with wait_prior. */
extern "C" __global__ void cgt_sm80_group_api(cg_thread_group_t g, const unsigned char *src, unsigned *out)
{
    __shared__ __align__(16) unsigned char sm[2048];
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 16);
    cg_thread_group_sync(&g);
    uint32_t mine = (uint32_t)cg_thread_group_thread_rank(&g);
    cg_invoke_one(&g, cgt_sm80_done, out);
    mine = cg_invoke_one_broadcast_u32(&t, cgt_sm80_get, &mine);
    cg_memcpy_async(&b, sm, src, 1000);
    cg_memcpy_async(&b, sm + 1024, src + 1024, 1000);
    cg_wait_prior(&b, 1);
    cg_wait(&t);
    out[threadIdx.x] = sm[threadIdx.x] + mine;
}

extern "C" __global__ void cgt_sm80_probe(unsigned *out, double *dout, cg_device_barrier_t *gbar)
{
    __shared__ cg_barrier_t bar;
    __shared__ cg_mbarrier_t mb;
    __shared__ cg_barrier_fn_t fnbar;
    __shared__ unsigned done;
    cg_thread_block_t b = cg_this_thread_block();
    const unsigned r = cg_thread_block_thread_rank(&b);
    if (r == 0) {
        done = 0;
        cg_barrier_init(&bar, cg_thread_block_num_threads(&b));
        cg_mbarrier_init(&mb, cg_thread_block_num_threads(&b));
        cg_barrier_fn_init(&fnbar, cg_thread_block_num_threads(&b), cgt_sm80_done, &done);
    }
    cg_thread_block_sync(&b);
    cg_barrier_wait_token(&bar, cg_barrier_arrive_one(&bar));
    cg_token_t t = cg_mbarrier_arrive_warp(&mb);
    cg_mbarrier_wait(&mb, t);
    cg_barrier_fn_wait(&fnbar, cg_barrier_fn_arrive(&fnbar));
    cg_token_t st = cg_thread_block_barrier_arrive(&b);
    cg_thread_block_barrier_wait(&b, st);

    cg_tile_t tile = cg_tiled_partition(&b, 8);
    unsigned s = cg_tile_reduce_u32(&tile, r, CG_OP_PLUS) + cg_tile_inclusive_scan_u32(&tile, r, CG_OP_PLUS);
    double d = cg_tile_reduce_f64(&tile, (double)r, CG_OP_LESS);
    if (r & 1) {
        cg_coalesced_group_t c = cg_coalesced_threads();
        s += cg_coalesced_shfl_u32(&c, r, 0) + cg_coalesced_thread_rank(&c);
    }
    cg_device_barrier_wait(gbar, cg_device_barrier_arrive(gbar));
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
#if defined(CGT_USE_CLUSTER)
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync(&cl);
#endif
    out[blockIdx.x * blockDim.x + r] = s + done;
    dout[blockIdx.x * blockDim.x + r] = d;
}
