/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/arg_count_probe.cu — cg_memcpy_async picked by its number
 * of arguments (arg_count_test.c): four and five build; -DCGT_THREE_ARGS
 * must stop the build with a message that names the mistake. The same for
 * cg_memcpy_async_aligned: five and six build, four and seven stop it.
 */
#include "barrier/barrier.h"
#include "cg/groups.h"

extern "C" __global__ void cgt_arg_count(const unsigned char *src, unsigned *out)
{
    __shared__ __align__(16) unsigned char sm[256];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t b = cg_this_thread_block();
    if (cg_thread_block_thread_rank(&b) == 0)
        cg_barrier_init(&bar, cg_thread_block_num_threads(&b));
    cg_sync(&b);
    cg_memcpy_async(&b, sm, src, 100, &bar);
    cg_barrier_arrive_and_wait(&bar);
    cg_memcpy_async(&b, sm + 128, src + 128, 100);
    cg_wait(&b);
    /* cg_memcpy_async_aligned: five arguments (a stage), six (a barrier),
     * and the one-thread barrier form. */
    cg_memcpy_async_aligned(&b, sm, src, 64, 16);
    cg_wait(&b);
    cg_memcpy_async_aligned(&b, sm + 128, src + 128, 64, 16, &bar);
    if (cg_thread_block_thread_rank(&b) == 0)
        cg_memcpy_async_thread(sm + 64, src + 64, 64, 16, &bar);
    cg_barrier_arrive_and_wait(&bar);
#if defined(CGT_THREE_ARGS)
    cg_memcpy_async(&b, sm, src);
#endif
#if defined(CGT_ALIGNED_FOUR_ARGS)
    cg_memcpy_async_aligned(&b, sm, src, 64);
#endif
#if defined(CGT_ALIGNED_SEVEN_ARGS)
    cg_memcpy_async_aligned(&b, sm, src, 64, 16, &bar, 1);
#endif
    out[threadIdx.x] = sm[threadIdx.x];
}
