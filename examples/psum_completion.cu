/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/psum_completion.cu — seed 000 (the completion function) in C.
 *
 * Each block runs the seed's psum loop: every thread puts its element plus
 * the running accumulator in shared memory and arrives; the barrier's
 * completion function (run once per phase, by the last arrival, before any
 * waiter is released) sums the block's shared words into the accumulator;
 * after the wait every thread sees the new accumulator, and shared memory is
 * free to reuse. The C++ -> cgc map:
 *
 *   cuda::barrier<thread_scope_block, F>     -> CG_BARRIER_FN_DEFINE(psum_bar, psum_completion)
 *                                               at file scope: the type psum_bar_t (in __shared__)
 *   init(bar, block.size(), completion_fn)   -> psum_bar_init(&bar, n, &ctx)
 *   auto t = bar->arrive();                  -> cg_token_t t = psum_bar_arrive(&bar);
 *   bar->wait(std::move(t));                 -> psum_bar_wait(&bar, t);
 *
 * As in C++, where F is part of the barrier's type, the function is fixed
 * at compile time and inlined into the last arrival's step. (cg_barrier_fn_t
 * with cg_barrier_fn_init(&bar, n, fn, &ctx) stores the function instead:
 * one type for any function, at the price of an indirect call per phase,
 * barrier/barrier_fn.h.) The lambda's captures become a context struct
 * passed as the function's argument. Two deliberate differences from the seed's listing: each thread
 * loads its own element (data[i + rank]; the listing's data[i] reads one
 * element for the whole block), and the arithmetic is unsigned, because the
 * accumulator grows by a factor of (block size + 1) per phase and must wrap
 * with defined results for the host reference to match. One accumulator per
 * block, so many blocks can run at once.
 *
 * Under compute-sanitizer racecheck this example reports the threads' smem
 * writes (before the arrive) against psum_completion's reads: in
 * the completion barrier the last arrival acquires the others with fence.acq_rel.cta
 * after its own mbarrier.arrive.noComplete, and racecheck models mbarrier
 * synchronization only as arrive -> wait (barrier/barrier.h gives the
 * memory-model argument and the designs measured). Its GPU test skips under racecheck with that reason
 * (tests/examples); memcheck and synccheck run it.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define PSUM_BLOCK 128   /* the seed's BlockSize */
#define PSUM_BLOCKS 32
#define PSUM_PHASES 256  /* n / BlockSize per block */

typedef struct psum_ctx {
    const unsigned *smem;
    unsigned *acc;
} psum_ctx_t;

/* The seed's completion_fn: sum the block's shared words into *acc. */
static __device__ void psum_completion(void *arg)
{
    psum_ctx_t *c = (psum_ctx_t *)arg;
    unsigned sum = 0;
    for (int i = 0; i < PSUM_BLOCK; ++i)
        sum += c->smem[i];
    *c->acc += sum;
}

/* The barrier type whose completion function is psum_completion. */
CG_BARRIER_FN_DEFINE(psum_bar, psum_completion);
/* The seed's kernel. */
static __global__ void psum_kernel(const unsigned *data, int n, unsigned *accs)
{
    __shared__ unsigned smem[PSUM_BLOCK];
    __shared__ psum_bar_t b;
    __shared__ psum_ctx_t ctx;
    const unsigned rank = threadIdx.x;
    const unsigned *mine = data + (size_t)blockIdx.x * (size_t)n;
    unsigned *acc = accs + blockIdx.x;
    if (rank == 0) {
        ctx.smem = smem;
        ctx.acc = acc;
        psum_bar_init(&b, blockDim.x, &ctx);
    }
    __syncthreads();
    for (int i = 0; i < n; i += (int)blockDim.x) {
        smem[rank] = mine[i + (int)rank] + *acc;
        cg_token_t t = psum_bar_arrive(&b);
        /* independent computation could go here */
        psum_bar_wait(&b, t);
        /* the completion function's write to *acc is visible here, and smem
         * may be overwritten in the next iteration */
    }
}

extern "C" int cgx_psum_completion(char *detail, size_t detail_len)
{
    int rc = 1;
    const int n = PSUM_BLOCK * PSUM_PHASES;
    const size_t count = (size_t)PSUM_BLOCKS * (size_t)n;
    unsigned *h_data = NULL, *h_acc = NULL, *d_data = NULL, *d_acc = NULL;
    if (cgx_require_sm90("this build (sm_90a) and its mbarrier forms", detail, detail_len) != 0)
        return 2;
    h_data = (unsigned *)malloc(count * sizeof(unsigned));
    h_acc = (unsigned *)malloc(PSUM_BLOCKS * sizeof(unsigned));
    if (h_data == NULL || h_acc == NULL) {
        snprintf(detail, detail_len, "host allocation failed");
        rc = 2;
        goto done;
    }
    {
        /* fresh random inputs */
        uint64_t s = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull + (uint64_t)clock();
        for (size_t i = 0; i < count; ++i) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            h_data[i] = (unsigned)(s >> 32);
        }
    }
    CGX_CUDA(cudaMalloc((void **)&d_data, count * sizeof(unsigned)));
    CGX_CUDA(cudaMalloc((void **)&d_acc, PSUM_BLOCKS * sizeof(unsigned)));
    CGX_CUDA(cudaMemcpy(d_data, h_data, count * sizeof(unsigned), cudaMemcpyHostToDevice));
    {
        int bad = 0;
        CGX_CUDA(cudaMemset(d_acc, 0, PSUM_BLOCKS * sizeof(unsigned))); /* the seed asserts *acc == 0 */
        psum_kernel<<<PSUM_BLOCKS, PSUM_BLOCK>>>(d_data, n, d_acc);
        CGX_CUDA(cudaGetLastError());
        CGX_CUDA(cudaDeviceSynchronize());
        CGX_CUDA(cudaMemcpy(h_acc, d_acc, PSUM_BLOCKS * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int b = 0; b < PSUM_BLOCKS; ++b) {
            unsigned acc = 0;
            for (int i = 0; i < n; i += PSUM_BLOCK) {
                unsigned sum = 0;
                for (int r = 0; r < PSUM_BLOCK; ++r)
                    sum += h_data[(size_t)b * (size_t)n + (size_t)(i + r)] + acc;
                acc += sum;
            }
            if (h_acc[b] != acc) {
                if (bad == 0)
                    snprintf(detail, detail_len, "block %d: accumulator %u, host reference %u", b, h_acc[b], acc);
                ++bad;
            }
        }
        if (bad == 0) {
            snprintf(detail, detail_len,
                     "%d blocks x %d phases of %d threads, CG_BARRIER_FN_DEFINE: every "
                     "accumulator matches the host (completion function ran once per phase)",
                     PSUM_BLOCKS, PSUM_PHASES, PSUM_BLOCK);
            rc = 0;
        } else {
            rc = 1;
        }
    }
done:
    cudaFree(d_data);
    cudaFree(d_acc);
    free(h_data);
    free(h_acc);
    return rc;
}

CGX_MAIN(cgx_psum_completion)
