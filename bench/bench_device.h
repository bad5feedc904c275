/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/bench_device.h — device helpers both kernel files use, so the
 * anchor and the cgc kernel of a row do exactly the same non-barrier work.
 * C style (no templates) so cgc_rows.cu stays plain C in spirit.
 */
#ifndef CGC_BENCH_DEVICE_H
#define CGC_BENCH_DEVICE_H

#include "bench/bench.h"

/* Linear thread index in the grid, for the sink slot. */
static __device__ __forceinline__ unsigned long long bench_gtid(void)
{
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}

/* Store a per-thread value the host never reads, so the compiler must keep
 * every computation that feeds it (one store per thread, after the loop). */
static __device__ __forceinline__ void bench_sink(const bench_args_t *a, unsigned long long v)
{
    a->sink[bench_gtid()] = v;
}

/* Latency-bound "independent work": spin on the SM clock for `cycles`,
 * mixing acc so the loop has a result. Time-based rather than instruction-
 * based, so it costs the same whether 1 or 32 warps do it at once (the
 * rotating-slow-warp analysis assumes work takes a fixed time). */
static __device__ __forceinline__ unsigned bench_spin(unsigned cycles, unsigned acc)
{
    if (cycles == 0)
        return acc;
    long long t0 = clock64();
    do {
        acc = acc * 1664525u + 1013904223u;
    } while (clock64() - t0 < (long long)cycles);
    return acc;
}

/* The rotating slow warp: in iteration i, warp (i mod warps) does `slow`
 * extra cycles after its arrive; every warp does `work` cycles. */
static __device__ __forceinline__ unsigned bench_rotating_work(const bench_args_t *a, long long i,
                                                               unsigned acc)
{
    unsigned warps = blockDim.x >> 5;
    unsigned warp = threadIdx.x >> 5;
    unsigned cycles = a->work + ((unsigned)(i % warps) == warp ? a->slow : 0u);
    return bench_spin(cycles, acc);
}

/* Global -> shared copy rows: the tile block b copies in its iteration i
 * (every block does exactly a.iters tiles, walking the buffer in order). */
static __device__ __forceinline__ const int4 *bench_tile_src(const bench_args_t *a, long long i)
{
    unsigned long long t = ((unsigned long long)i * gridDim.x + blockIdx.x) % a->ntiles;
    return a->src + t * (a->tile_bytes / sizeof(int4));
}

/* Consume a tile just landed in shared memory: one int4 per thread, spread
 * over the tile (the copy, not the use, is what the rows time). */
static __device__ __forceinline__ unsigned bench_consume_tile(const int4 *tile, unsigned tile_bytes,
                                                              unsigned acc)
{
    unsigned n = tile_bytes / sizeof(int4);
    int4 v = tile[(threadIdx.x * 7u) % n];
    return acc ^ (unsigned)v.x ^ (unsigned)v.w;
}

/* The completion function of the seed-000 shape: sum the block's smem words
 * and add them into the accumulator (one thread, serial, as cuda::barrier's
 * completion step runs it). Unrolled by 4 on both sides: unrolled further,
 * the copy cgc calls through a pointer needs more registers than the call ABI
 * leaves free and saves them to the stack (52 bytes of spills at the default
 * unroll; 8 at 4, the ABI's minimum being 4). */
static __device__ __forceinline__ void bench_sum_into(const int *smem, unsigned n,
                                                      unsigned long long *acc)
{
    int sum = 0;
#pragma unroll 4
    for (unsigned k = 0; k < n; ++k)
        sum += smem[k];
    *acc += (unsigned long long)(unsigned)sum;
}


// --- device-scope barrier rows: the checked phase --------------------------------------

/* What the device-barrier rows (cgc and anchor alike) do around each
 * arrive + wait, so that a barrier that releases a phase early is caught and
 * the two kernels do the same work. Before its arrive, a thread writes
 * bench_dbar_value(launch, phase, gtid) into its slot of the phase's half of
 * `slots` (the halves alternate by phase parity: a slot is rewritten two
 * phases later, after every reader of it has arrived in the phase between);
 * after its wait it reads the slot of a thread of another block, chosen by
 * hash, and counts a mismatch in errors. `launch` is read once per launch
 * from a counter the last phase's thread 0 raises, so values of an earlier
 * launch never match. */
static __device__ __forceinline__ unsigned bench_dbar_value(unsigned launch, long long phase, unsigned long long g)
{
    unsigned long long x = ((unsigned long long)launch << 40) ^ ((unsigned long long)phase << 20) ^ g;
    x *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(x >> 32) | 1u;
}

static __device__ __forceinline__ unsigned long long bench_dbar_peer(long long phase, unsigned long long g,
                                                                     unsigned long long n)
{
    unsigned long long x = ((unsigned long long)phase * 0xBF58476D1CE4E5B9ull) ^ (g * 0x94D049BB133111EBull);
    x ^= x >> 31;
    unsigned long long p = x % n;
    /* Another block's thread when there is another block. */
    return (p / blockDim.x == blockIdx.x && gridDim.x > 1) ? (p + blockDim.x) % n : p;
}

#endif /* CGC_BENCH_DEVICE_H */
