/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/debug_test.c — in a debug build (kernels compiled with
 * CG_DEBUG=1) cg_wide_tiled_partition traps on a size that is not a power of
 * two in 64..1024, on a block whose size is not a multiple of n, and on a
 * block with more tiles than named barriers (n = 64 in 1024 threads: 16 tiles
 * would need ids up to 31); a correct partition (8 tiles of 64) runs and
 * reports its ids. GPU tests: skip without an sm_90 device. One trapping
 * kernel on the GPU at a time (cgt_gpu_exclusive), each waited for with a
 * deadline and its report's text required (cgt_expect_trap_report), as
 * tests/cg/debug_test.c. */
#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgw_debug_partition(unsigned n, unsigned threads, uint32_t *out);

TestSuite(wide_tile_debug, .timeout = 150);

static unsigned g_n, g_threads;
static uint32_t *g_out;

static int launch_partition(void) { return (int)cgw_debug_partition(g_n, g_threads, g_out); }

/* The kernel must launch, print the report naming the call, n and what is
 * wrong, and trap (cudaErrorLaunchFailure) within 30 s
 * (cgt_expect_trap_report): any other fault, a launch failure or a silent
 * trap fails. */
static void expect_trap(unsigned n, unsigned threads, const char *what, const char *const *needles, int nneedles)
{
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    CGT_CUDA(cudaMalloc((void **)&g_out, 1024 * sizeof *g_out));
    g_n = n;
    g_threads = threads;
    cgt_expect_trap_report(what, launch_partition, needles, nneedles);
}

Test(wide_tile_debug, size_not_a_power_of_two_traps)
{
    static const char *const needles[] = {"cgc: cg_wide_tiled_partition(n = 96): n must be a power of two in 64..1024"};
    expect_trap(96, 192, "cg_wide_tiled_partition(96)", needles, 1);
}

Test(wide_tile_debug, size_below_64_traps)
{
    static const char *const needles[] = {"cgc: cg_wide_tiled_partition(n = 32): n must be a power of two in 64..1024"};
    expect_trap(32, 64, "cg_wide_tiled_partition(32)", needles, 1);
}

Test(wide_tile_debug, block_not_a_multiple_of_n_traps)
{
    static const char *const needles[] = {
        "cgc: cg_wide_tiled_partition(n = 128): the block's 192 threads are not a multiple of n"};
    expect_trap(128, 192, "cg_wide_tiled_partition(128) in a block of 192", needles, 1);
}

Test(wide_tile_debug, more_tiles_than_barriers_traps)
{
    static const char *const needles[] = {"cgc: cg_wide_tiled_partition(n = 64): 16 tiles per block need named "
                                          "barriers",
                                          "past 15"};
    expect_trap(64, 1024, "cg_wide_tiled_partition(64) in a block of 1024 (16 tiles)", needles, 2);
}

/* The control: 8 tiles of 64 (ids 8..15) run in the debug build. */
Test(wide_tile_debug, eight_tiles_of_64_run)
{
    uint32_t *d, ids[512];
    cgt_require_sm90();
    CGT_CUDA(cudaMalloc((void **)&d, sizeof ids));
    CGT_CUDA(cudaMemset(d, CGT_POISON_BYTE, sizeof ids));
    CGT_CUDA(cgw_debug_partition(64, 512, d));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(ids, d, sizeof ids, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaFree(d));
    for (unsigned r = 0; r < 512; r++)
        cr_expect_eq(ids[r], 8u + r / 64u, "rank %u: barrier %u, expected %u", r, ids[r], 8u + r / 64u);
}
