/* tests/cg/debug_test.c — in a debug build (kernels compiled with CG_DEBUG=1
 * and a 0.3 s wait bound) misuse that would deadlock reports and traps in
 * bounded time instead of hanging; the host sees a failed kernel. GPU tests:
 * skip without an sm_90 device. Each Criterion test runs in its own process,
 * so the trap's sticky context error stays in that test. */
#include <time.h>

#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks);
cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out);

TestSuite(cg_debug, .timeout = 60);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void expect_trap(cudaError_t launch, const char *what, double t0)
{
    cg_status_t st;
    cr_expect_eq(launch, cudaSuccess, "%s: launch failed: %s", what, cudaGetErrorString(launch));
    st = cg_stream_synchronize(0);
    cr_expect_eq(st, CG_ERROR_KERNEL_FAILED, "%s: want a trapped kernel, got %s", what, cg_status_name(st));
    cr_expect_lt(now_s() - t0, 30.0, "%s: took %.1f s to report", what, now_s() - t0);
}

Test(cg_debug, grid_sync_outside_cooperative_launch_traps)
{
    double t0;
    cgt_require_sm90();
    t0 = now_s();
    /* 1024-thread blocks: at most 2 per SM; 8 per SM can never be co-resident. */
    expect_trap(cgt_debug_grid_sync_not_cooperative((unsigned)cgt_device_props()->multiProcessorCount * 8u),
                "grid sync, plain launch", t0);
}

Test(cg_debug, grid_sync_with_a_missing_block_traps)
{
    double t0;
    cgt_require_sm90();
    t0 = now_s();
    expect_trap(cgt_debug_grid_sync_block_skips((unsigned)cgt_device_props()->multiProcessorCount),
                "grid sync, block 0 absent", t0);
}

Test(cg_debug, tile_size_not_power_of_two_traps)
{
    uint32_t *out;
    double t0;
    cgt_require_sm90();
    CGT_CUDA(cudaMalloc((void **)&out, 32 * sizeof *out));
    t0 = now_s();
    expect_trap(cgt_debug_bad_tile(3, out), "tiled_partition(3)", t0);
}
