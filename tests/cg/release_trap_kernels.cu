/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/release_trap_kernels.cu — grid sync in a plain (non-cooperative)
 * launch, built as a release build whatever the bazel config (the debug
 * build's own checks are tests/cg:debug_test's): the release report must
 * name the cause and trap. */
#undef CG_DEBUG
#define CG_DEBUG 0
#include "cg/groups.h"

/* Each block's thread 0 first records the grid workspace address it sees
 * (%envreg1 high, %envreg2 low, read with the test's own asm; read back only
 * if the kernel does not trap, to say why), then every thread syncs. */
__global__ void k_release_grid_sync_plain(unsigned long long *seen)
{
    const cg_grid_t g = cg_this_grid();
    if (threadIdx.x == 0) {
        uint32_t hi, lo;
        asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
        asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
        seen[blockIdx.x] = ((unsigned long long)hi << 32) | lo;
    }
    cg_grid_sync(&g);
}

/* A plain <<<>>> launch of `blocks` x `threads` (small enough to be
 * co-resident: without a workspace it must trap, not hang). */
extern "C" cudaError_t cgt_release_grid_sync_plain(unsigned blocks, unsigned threads, unsigned long long *seen)
{
    k_release_grid_sync_plain<<<blocks, threads>>>(seen);
    return cudaGetLastError();
}
