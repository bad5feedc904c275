/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/wide_tile/debug_test.c — in a debug build (kernels compiled with
 * CG_DEBUG=1) cg_wide_tiled_partition traps on a size that is not a power of
 * two in 64..1024, on a block whose size is not a multiple of n, and on a
 * block with more tiles than named barriers (n = 64 in 1024 threads: 16 tiles
 * would need ids up to 31); a correct partition (8 tiles of 64) runs and
 * reports its ids. GPU tests: skip without an sm_90 device. One trapping
 * kernel on the GPU at a time (cgt_gpu_exclusive), each waited for with a
 * deadline, as tests/cg/debug_test.c. */
#include <time.h>

#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgw_debug_partition(unsigned n, unsigned threads, uint32_t *out);

TestSuite(wide_tile_debug, .timeout = 150);

#define TRAP_DEADLINE_S 30.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void expect_trap(unsigned n, unsigned threads, const char *what)
{
    uint32_t *out;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    CGT_CUDA(cudaMalloc((void **)&out, 1024 * sizeof *out));
    double t0 = now_s();
    cudaError_t launch = cgw_debug_partition(n, threads, out);
    cr_expect_eq(launch, cudaSuccess, "%s: launch failed: %s", what, cudaGetErrorString(launch));
    cudaError_t q = cgt_stream_wait_deadline(TRAP_DEADLINE_S);
    cr_assert_neq(q, cudaErrorNotReady, "%s: the kernel neither trapped nor finished in %.0f s", what,
                  TRAP_DEADLINE_S);
    cg_status_t st = cg_stream_synchronize(0);
    cr_expect_eq(st, CG_ERROR_KERNEL_FAILED, "%s: want a trapped kernel, got %s", what, cg_status_name(st));
    cr_expect_lt(now_s() - t0, TRAP_DEADLINE_S, "%s: took %.1f s to report", what, now_s() - t0);
}

Test(wide_tile_debug, size_not_a_power_of_two_traps) { expect_trap(96, 192, "cg_wide_tiled_partition(96)"); }

Test(wide_tile_debug, size_below_64_traps) { expect_trap(32, 64, "cg_wide_tiled_partition(32)"); }

Test(wide_tile_debug, block_not_a_multiple_of_n_traps)
{
    expect_trap(128, 192, "cg_wide_tiled_partition(128) in a block of 192");
}

Test(wide_tile_debug, more_tiles_than_barriers_traps)
{
    expect_trap(64, 1024, "cg_wide_tiled_partition(64) in a block of 1024 (16 tiles)");
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
