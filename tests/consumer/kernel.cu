/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/consumer/kernel.cu — a kernel that uses the installed headers. */
#include <cg/cg.h>

extern "C" __global__ void consumer_kernel(unsigned *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync(&cl);
    out[cg_thread_block_thread_rank(&b)] = cg_cluster_block_rank(&cl);
}

extern "C" const void *consumer_kernel_ptr(void) { return (const void *)consumer_kernel; }
