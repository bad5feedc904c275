/* SPDX-License-Identifier: BSD-3-Clause */
/* A first real kernel through the whole build: nvcc object, static cudart,
 * Criterion test in C. Checks the toolchain, not cgc. */
#include <cuda_runtime.h>

#include "base/address.h"

extern "C" __global__ void smoke_saxpy_kernel(int n, int a, const int *x, const int *y, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

extern "C" int smoke_saxpy(int n, int a, const int *x, const int *y, int *out)
{
    smoke_saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y, out);
    return (int)cudaGetLastError();
}

/* Probe for the PTX check: a shared-memory pointer mapped to rank 0 must use
 * mapa and nothing else of the cluster family. */
extern "C" __global__ void smoke_probe_mapa(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x & 31] = (int)threadIdx.x;
    __syncthreads();
    int *p = (int *)cg_smem_map_rank_ptr(s, 0);
    out[threadIdx.x] = p[threadIdx.x & 31];
}
