/* SPDX-License-Identifier: BSD-3-Clause */
/* The grid barrier in a loop (a cooperative launch). */
#include "tools/ci/compile_time/common.h"
#if CT_VARIANT == CT_CGC
#include "cg/cg.h"
extern "C" __global__ void ct_grid_sync(float *out, int iters)
{
    cg_grid_t g = cg_this_grid();
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        acc = acc * 1.0001f + (float)i;
        cg_grid_sync(&g);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#elif CT_VARIANT == CT_CPP
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void ct_grid_sync(float *out, int iters)
{
    cg::grid_group g = cg::this_grid();
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        acc = acc * 1.0001f + (float)i;
        g.sync();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#else
/* A generation barrier on two words the caller zeroes: the block's thread 0
 * arrives with an atomic, the last one resets the count and bumps the
 * generation, the others spin on it; fences on both sides. */
extern "C" __global__ void ct_grid_sync(float *out, int iters, unsigned *bar)
{
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        acc = acc * 1.0001f + (float)i;
        __syncthreads();
        if (threadIdx.x == 0) {
            const unsigned gen = *(volatile unsigned *)&bar[1];
            __threadfence();
            if (atomicAdd(&bar[0], 1u) == gridDim.x * gridDim.y * gridDim.z - 1u) {
                bar[0] = 0;
                __threadfence();
                atomicAdd(&bar[1], 1u);
            } else {
                while (*(volatile unsigned *)&bar[1] == gen)
                    __nanosleep(32);
            }
            __threadfence();
        }
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#endif
