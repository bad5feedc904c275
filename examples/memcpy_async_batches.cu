/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/memcpy_async_batches.cu — seed 003: every block copies its batch
 * of the input into shared memory with cg_memcpy_async, bound to a block
 * barrier; arrive_and_wait returns once every thread has arrived AND the copy
 * has landed; the block computes on the batch, syncs, and moves on. C++ -> cgc:
 *   cuda::memcpy_async(block, shared, src, bytes, barrier)
 *       -> cg_memcpy_async(&block, shared, src, bytes, &barrier)
 *   barrier.arrive_and_wait() -> cg_barrier_arrive_and_wait(&barrier)
 *   block.sync()              -> cg_sync(&block)
 * Run twice: 256-thread blocks (1 KiB batches, the bulk copy engine) and
 * 250-thread blocks (1000-byte batches, the cp.async fallback).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

/* The per-batch work: each output reads two elements another thread copied. */
static __device__ void compute(int *global_out, const int *shared_in, uint32_t n, uint32_t rank)
{
    global_out[rank] = 2 * shared_in[rank] - shared_in[(rank + 1) % n];
}

/* size == batch_sz * (threads in the grid). */
__global__ void with_barrier(int *global_out, const int *global_in, size_t size, size_t batch_sz)
{
    cg_thread_block_t block = cg_this_thread_block();
    const uint32_t bsize = cg_thread_block_num_threads(&block), rank = cg_thread_block_thread_rank(&block);
    const size_t grid_size = (size_t)gridDim.x * bsize; /* grid.size() */
    (void)size;

    extern __shared__ __align__(16) int shared[]; /* bsize ints */
    __shared__ cg_barrier_t barrier;
    if (rank == 0)
        cg_barrier_init(&barrier, bsize);
    cg_sync(&block);

    for (size_t batch = 0; batch < batch_sz; ++batch) {
        const size_t block_batch_idx = (size_t)blockIdx.x * bsize + grid_size * batch;
        cg_memcpy_async(&block, shared, global_in + block_batch_idx, sizeof(int) * bsize, &barrier);

        cg_barrier_arrive_and_wait(&barrier); /* waits for every arrival and the copy */

        compute(global_out + block_batch_idx, shared, bsize, rank);

        cg_sync(&block); /* everyone is done with `shared` before the next copy */
    }
}

static int run(int threads, int blocks, int batches, char *detail, size_t detail_len)
{
    const size_t n = (size_t)threads * blocks * batches;
    int *hin = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc(n * sizeof(int));
    int *din = NULL, *dout = NULL, rc = 2;
    cudaError_t err = cudaSuccess;
    if (!hin || !hout) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < n; ++i)
        hin[i] = rand() % 2000001 - 1000000;
    if ((err = cudaMalloc((void **)&din, n * sizeof(int))) != cudaSuccess ||
        (err = cudaMalloc((void **)&dout, n * sizeof(int))) != cudaSuccess ||
        (err = cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice)) != cudaSuccess ||
        (err = cudaMemset(dout, 0xA5, n * sizeof(int))) != cudaSuccess)
        goto cuda_error;
    with_barrier<<<blocks, threads, threads * sizeof(int)>>>(dout, din, n, (size_t)batches);
    if ((err = cudaGetLastError()) != cudaSuccess || (err = cudaDeviceSynchronize()) != cudaSuccess ||
        (err = cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost)) != cudaSuccess)
        goto cuda_error;
    {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; ++i) {
            const size_t base = i - i % (size_t)threads, r = i % (size_t)threads;
            const int want = 2 * hin[i] - hin[base + (r + 1) % (size_t)threads];
            if (hout[i] != want && bad++ == 0)
                first = i;
        }
        if (bad) {
            snprintf(detail, detail_len, "%d-thread blocks: %zu of %zu elements wrong (first at %zu)", threads, bad,
                     n, first);
            rc = 1;
        } else {
            rc = 0;
        }
    }
    goto done;
cuda_error:
    snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
done:
    cudaFree(din);
    cudaFree(dout);
    free(hin);
    free(hout);
    return rc;
}

extern "C" int cgx_memcpy_async_batches(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("the bulk copy engine and tx-count barriers", detail, detail_len) != 0)
        return 2;
    srand((unsigned)time(NULL) ^ 0x0033u);
    int rc = run(256, 132, 8, detail, detail_len); /* 1 KiB batches: bulk copy engine */
    if (rc == 0)
        rc = run(250, 132, 8, detail, detail_len); /* 1000-byte batches: cp.async */
    if (rc == 0)
        snprintf(detail, detail_len,
                 "132 blocks x 8 batches, 256 threads (bulk path) and 250 threads (cp.async path): all verified");
    return rc;
}

CGX_MAIN(cgx_memcpy_async_batches)
