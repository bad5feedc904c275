/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/debug_test.c — in a debug build (kernels compiled with CG_DEBUG=1
 * and a 0.3 s wait bound) misuse that would deadlock reports and traps in
 * bounded time instead of hanging; the host sees a failed kernel. GPU tests:
 * skip without an sm_90 device. Each Criterion test runs in its own process,
 * so the trap's sticky context error stays in that test.
 *
 * Bounded in time whatever ran before or beside: Criterion runs the tests of
 * this binary in parallel processes (tools/gpu/run.sh runs the binary without
 * bazel's --jobs=1), and trapping kernels of several processes on one GPU at
 * once were seen to leave a plain launch of another process running past its
 * trap (the first H200 run timed out grid_sync_outside_cooperative_launch_traps
 * at 60 s that way; alone it passed in about a second). So every test takes
 * an exclusive file lock for its whole process (one trapping kernel on the GPU
 * at a time, whatever the runner's job count), and waits for its kernel by
 * polling with a deadline, so a kernel that does not trap is reported as such
 * (well inside the suite timeout) instead of hanging the process. */
#include <time.h>

#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_leaves(void);
cudaError_t cgt_debug_grid_stale_token(void);
cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out);
cudaError_t cgt_debug_block_double_arrive(void);

/* 6 tests x TRAP_DEADLINE_S at worst, serialized by the lock. */
TestSuite(cg_debug, .timeout = 220);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds a trapping kernel may take before the test gives up on it. */
#define TRAP_DEADLINE_S 30.0

static void expect_trap(cudaError_t launch, const char *what, double t0)
{
    cg_status_t st;
    cudaError_t q;
    cr_expect_eq(launch, cudaSuccess, "%s: launch failed: %s", what, cudaGetErrorString(launch));
    q = cgt_stream_wait_deadline(TRAP_DEADLINE_S - (now_s() - t0));
    cr_assert_neq(q, cudaErrorNotReady, "%s: the kernel neither trapped nor finished in %.0f s", what,
                  TRAP_DEADLINE_S);
    st = cg_stream_synchronize(0);
    cr_expect_eq(st, CG_ERROR_KERNEL_FAILED, "%s: want a trapped kernel, got %s", what, cg_status_name(st));
    cr_expect_lt(now_s() - t0, TRAP_DEADLINE_S, "%s: took %.1f s to report", what, now_s() - t0);
}

Test(cg_debug, grid_sync_outside_cooperative_launch_traps)
{
    double t0;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    t0 = now_s();
    /* 1024-thread blocks: at most 2 per SM; 8 per SM can never be co-resident. */
    expect_trap(cgt_debug_grid_sync_not_cooperative((unsigned)cgt_device_props()->multiProcessorCount * 8u),
                "grid sync, plain launch", t0);
}

Test(cg_debug, grid_sync_with_a_missing_block_traps)
{
    double t0;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    t0 = now_s();
    expect_trap(cgt_debug_grid_sync_block_skips((unsigned)cgt_device_props()->multiProcessorCount),
                "grid sync, block 0 absent", t0);
}

Test(cg_debug, spread_grid_sync_with_a_missing_block_traps)
{
    double t0;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    t0 = now_s();
    expect_trap(cgt_debug_grid_sync_block_leaves(), "grid sync at full occupancy, block 0 gone", t0);
}

Test(cg_debug, grid_wait_with_a_stale_token_traps)
{
    double t0;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    t0 = now_s();
    expect_trap(cgt_debug_grid_stale_token(), "grid wait with the token of an earlier arrive", t0);
}

Test(cg_debug, tile_size_not_power_of_two_traps)
{
    uint32_t *out;
    double t0;
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
    CGT_CUDA(cudaMalloc((void **)&out, 32 * sizeof *out));
    t0 = now_s();
    expect_trap(cgt_debug_bad_tile(3, out), "tiled_partition(3)", t0);
}

/* A thread that arrives twice on the block barrier before waiting is reported
 * (it would complete the phase without another thread's arrival). */
Test(cg_debug, block_barrier_second_arrive_before_wait_traps)
{
    double t0;
    cgt_require_sm90();
    cgt_skip_under_sanitizer("any", "traps on purpose (a second arrive before the wait)");
    cgt_gpu_exclusive();
    t0 = now_s();
    expect_trap(cgt_debug_block_double_arrive(), "block barrier arrive twice", t0);
}
