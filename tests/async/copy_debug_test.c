/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/copy_debug_test.c — debug build (kernels in
 * copy_debug_kernels.cu, CG_DEBUG=1): cg_memcpy_async_aligned with five and
 * six arguments and cg_memcpy_async_thread, given 20 bytes with 16 stated
 * (outside the contract: a release build copies the one whole piece and
 * writes nothing past dst + 20, staged_copy_test checks that), report the
 * call, the values and "must be multiples of align", then trap. Each test
 * traps on purpose: skipped under compute-sanitizer.
 */
#include <stdio.h>

#include "tests/support/cgtest.h"

int cdt_launch_staged(void);
int cdt_launch_bar(void);
int cdt_launch_thread(void);

TestSuite(copy_debug, .timeout = 120);

static const char *const k_needles[] = {"cgc: cg_memcpy_async_aligned(", "20 bytes, align 16",
                                        "must be multiples of align"};

/* Each case traps on purpose: skipped under the sanitizers (memcheck counts
 * every trapping thread as an error), one trapping kernel on the GPU at a
 * time, the report wanted within the bound. */
static void expect_report(const char *what, int (*launch)(void))
{
    cgt_skip_under_sanitizer("any", "traps on purpose (a size that is not a multiple of the stated alignment)");
    cgt_gpu_exclusive();
    cgt_require_sm90();
    cgt_expect_trap_report(what, launch, k_needles, 3);
}

Test(copy_debug, staged_aligned_size_not_a_multiple_traps)
{
    expect_report("cg_memcpy_async_aligned(5 args, 20 bytes, 16)", cdt_launch_staged);
}

Test(copy_debug, barrier_aligned_size_not_a_multiple_traps)
{
    expect_report("cg_memcpy_async_aligned(6 args, 20 bytes, 16)", cdt_launch_bar);
}

Test(copy_debug, thread_aligned_size_not_a_multiple_traps)
{
    expect_report("cg_memcpy_async_thread(20 bytes, 16)", cdt_launch_thread);
}
