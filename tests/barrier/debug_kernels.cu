/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/debug_kernels.cu — misuse that deadlocks or corrupts a
 * barrier, compiled with -DCG_DEBUG=1 (and a short CG_DEBUG_WAIT_TIMEOUT_NS):
 * each kernel must print a report naming the barrier and the phase, then
 * trap, so cudaDeviceSynchronize returns an error in bounded time.
 */
#include <cuda_runtime.h>

#include "barrier/barrier.h"
#include "tests/barrier/barrier_test_util.h"
#include "tests/support/launcher.cuh"

#if !CG_DEBUG
#error "debug_kernels.cu must be compiled with -DCG_DEBUG=1"
#endif

/* A phase that needs 64 arrivals gets 32: every token wait deadlocks. */
extern "C" __global__ void bt_debug_wait_token_kernel(void)
{
    __shared__ cg_mbarrier_t mb;
    if (threadIdx.x == 0)
        cg_mbarrier_init(&mb, 64);
    __syncthreads();
    cg_mbarrier_wait(&mb, cg_mbarrier_arrive(&mb));
}

/* Nobody arrives: waiting for phase 0 (parity 0) deadlocks. */
extern "C" __global__ void bt_debug_wait_parity_kernel(void)
{
    __shared__ cg_mbarrier_t mb;
    if (threadIdx.x == 0)
        cg_mbarrier_init(&mb, 1);
    __syncthreads();
    cg_mbarrier_wait_parity(&mb, 0);
}

/* An expected count of 0 is outside 1 .. 2^20-1. */
extern "C" __global__ void bt_debug_bad_count_kernel(uint32_t count)
{
    __shared__ cg_mbarrier_t mb;
    cg_mbarrier_init(&mb, count);
    __syncthreads();
}

/* A completion barrier expecting 1 arrival per phase gets 2, from two warps
 * (separate arrive instructions: the hardware folds one warp's arrivals into
 * one operation, so an over-arrival inside a single warp instruction takes
 * the count past zero before any thread can look: a fault, not a report).
 * The completion function holds the completer for about 2 ms, so the second
 * arrival lands before the phase ends. */
static __device__ void bt_debug_slow_completion(void *arg)
{
    (void)arg;
    uint64_t t0 = cg_sreg_globaltimer_ns();
    while (cg_sreg_globaltimer_ns() - t0 < 2000000ull)
        __nanosleep(1000);
}

extern "C" __global__ void bt_debug_fn_overflow_kernel(void)
{
    __shared__ cg_barrier_fn_t bar;
    if (threadIdx.x == 0)
        cg_barrier_fn_init(&bar, 1, bt_debug_slow_completion, NULL);
    __syncthreads();
    if (threadIdx.x % 32 == 0) /* lane 0 of warp 0 and of warp 1 */
        (void)cg_barrier_fn_arrive(&bar);
}

/* A device barrier expecting two arrivals gets one. */
extern "C" __global__ void bt_debug_device_wait_kernel(cg_device_barrier_t *bar)
{
    cg_device_barrier_wait(bar, cg_device_barrier_arrive(bar));
}

/* A converged warp of 32 arrives on a device barrier expecting 2. */
extern "C" __global__ void bt_debug_device_over_arrival_kernel(cg_device_barrier_t *bar)
{
    (void)cg_device_barrier_arrive(bar);
}

/* A wait with a token of phase 5 on a barrier still in phase 0 (no arrive
 * returned it). */
extern "C" __global__ void bt_debug_device_future_token_kernel(cg_device_barrier_t *bar)
{
    cg_token_t t;
    t._opaque = 5u;
    cg_device_barrier_wait(bar, t);
}

CGT_LAUNCHER(bt_launch_debug_wait_token, bt_debug_wait_token_kernel, 1, 32)
CGT_LAUNCHER(bt_launch_debug_wait_parity, bt_debug_wait_parity_kernel, 1, 32)
CGT_LAUNCHER(bt_launch_debug_bad_count, bt_debug_bad_count_kernel, 1, 1, 0u)
CGT_LAUNCHER(bt_launch_debug_fn_overflow, bt_debug_fn_overflow_kernel, 1, 64)

extern "C" int bt_launch_debug_device_wait(void *bar)
{
    bt_debug_device_wait_kernel<<<1, 1>>>((cg_device_barrier_t *)bar);
    return (int)cudaGetLastError();
}

extern "C" int bt_launch_debug_device_over_arrival(void *bar)
{
    bt_debug_device_over_arrival_kernel<<<1, 32>>>((cg_device_barrier_t *)bar);
    return (int)cudaGetLastError();
}

extern "C" int bt_launch_debug_device_future_token(void *bar)
{
    bt_debug_device_future_token_kernel<<<1, 1>>>((cg_device_barrier_t *)bar);
    return (int)cudaGetLastError();
}
