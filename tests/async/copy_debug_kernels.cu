/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/copy_debug_kernels.cu — kernels of copy_debug_test.c, built
 * with CG_DEBUG=1: the alignment-stated copies given a size that is not a
 * multiple of the stated alignment (the caller's promise broken) report
 * from the out-of-line report and trap. Also compiled to PTX
 * (copy_debug_probe) for async_ptx_test.c: no printf inline in the copies.
 */
#include "cg/groups.h"

/* The staged form: 20 bytes with 16 stated. */
extern "C" __global__ void cdt_staged_kernel(const int4 *src, unsigned bytes)
{
    __shared__ __align__(16) unsigned char sm[256];
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async_aligned(&b, sm, src, bytes, 16);
    cg_wait(&b);
}

/* The barrier form: the same size on a barrier. */
extern "C" __global__ void cdt_bar_kernel(const int4 *src, unsigned bytes)
{
    __shared__ __align__(16) unsigned char sm[256];
    __shared__ cg_barrier_t bar;
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    __syncthreads();
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async_aligned(&b, sm, src, bytes, 16, &bar);
    cg_barrier_arrive_and_wait(&bar);
}

/* The one-thread form. */
extern "C" __global__ void cdt_thread_kernel(const int4 *src, unsigned bytes)
{
    __shared__ __align__(16) unsigned char sm[256];
    __shared__ cg_barrier_t bar;
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        cg_memcpy_async_thread(sm, src, bytes, 16, &bar);
        cg_barrier_arrive_and_wait(&bar);
    }
}

#if !defined(CDT_PTX_ONLY)
static int4 *cdt_src(void)
{
    static int4 *p = NULL;
    if (p == NULL && cudaMalloc((void **)&p, 4096) != cudaSuccess)
        p = NULL;
    return p;
}

extern "C" int cdt_launch_staged(void)
{
    cdt_staged_kernel<<<1, 64>>>(cdt_src(), 20u);
    return (int)cudaGetLastError();
}
extern "C" int cdt_launch_bar(void)
{
    cdt_bar_kernel<<<1, 64>>>(cdt_src(), 20u);
    return (int)cudaGetLastError();
}
extern "C" int cdt_launch_thread(void)
{
    cdt_thread_kernel<<<1, 32>>>(cdt_src(), 20u);
    return (int)cudaGetLastError();
}
#endif
