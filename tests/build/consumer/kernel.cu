/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/build/consumer/kernel.cu — a kernel that uses the installed headers. */
#include <cgc/cg/cg.h>

/* cgc's headers sit under the cgc/ prefix only: its generic folder names are
 * not on this project's include path, where they would shadow its own. */
#if defined(__has_include)
#if __has_include(<barrier/barrier.h>) || __has_include(<cg/cg.h>) || __has_include(<base/config.h>)
#error "cgc's folders are on the include path without the cgc/ prefix"
#endif
#endif

extern "C" __global__ void consumer_kernel(unsigned *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync(&cl);
    out[cg_thread_block_thread_rank(&b)] = cg_cluster_block_rank(&cl);
}

extern "C" const void *consumer_kernel_ptr(void) { return (const void *)consumer_kernel; }
