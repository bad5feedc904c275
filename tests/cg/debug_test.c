/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/debug_test.c — in a debug build (kernels compiled with CG_DEBUG=1
 * and a 0.3 s wait bound) misuse that would deadlock reports and traps in
 * bounded time instead of hanging; the host sees a failed kernel. GPU tests:
 * skip without an sm_90 device. Each Criterion test runs in its own process,
 * so the trap's sticky context error stays in that test. Each test requires
 * the report's text (cgt_expect_trap_report): a kernel that faults some
 * other way, prints nothing, or cannot launch fails.
 *
 * Bounded in time whatever ran before or beside: Criterion runs the tests of
 * this binary in parallel processes (tools/gpu/run.sh runs the binary without
 * bazel's --jobs=1), and trapping kernels of several processes on one GPU at
 * once were seen to leave a plain launch of another process running past its
 * trap (the first H200 run timed out grid_sync_outside_cooperative_launch_traps
 * at 60 s that way; alone it passed in about a second). So every test takes
 * an exclusive file lock for its whole process (one trapping kernel on the GPU
 * at a time, whatever the runner's job count), and waits for its kernel by
 * polling with a deadline (cgt_expect_trap_report), so a kernel that does
 * not trap is reported as such (well inside the suite timeout) instead of
 * hanging the process. */
#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_leaves(void);
cudaError_t cgt_debug_grid_stale_token(void);
cudaError_t cgt_debug_grid_stale_token_flat(void);
cudaError_t cgt_debug_grid_mixed_with_cpp_cg(void);
cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out);
cudaError_t cgt_debug_block_double_arrive(void);
cudaError_t cgt_debug_dsmem_release_bad_rank(uint32_t rank);

/* 9 tests x 30 s (cgt_expect_trap_report's bound) at worst, serialized by the lock. */
TestSuite(cg_debug, .timeout = 310);

/* Every case: skip under the sanitizers (the trap is the subject), one
 * trapping kernel on the GPU at a time, then cgt_expect_trap_report: the
 * launch succeeds, the kernel ends with the trap (cudaErrorLaunchFailure, not
 * an illegal address) within 30 s, and its report names the call, the
 * barrier and, where there is one, the phase. */
static void prepare(void)
{
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();
}

static unsigned g_blocks;
static uint32_t *g_out;

static int launch_not_cooperative(void) { return (int)cgt_debug_grid_sync_not_cooperative(g_blocks); }
static int launch_block_skips(void) { return (int)cgt_debug_grid_sync_block_skips(g_blocks); }
static int launch_block_leaves(void) { return (int)cgt_debug_grid_sync_block_leaves(); }
static int launch_stale_token(void) { return (int)cgt_debug_grid_stale_token(); }
static int launch_stale_token_flat(void) { return (int)cgt_debug_grid_stale_token_flat(); }
static int launch_mixed(void) { return (int)cgt_debug_grid_mixed_with_cpp_cg(); }
static int launch_bad_tile(void) { return (int)cgt_debug_bad_tile(3, g_out); }
static int launch_double_arrive(void) { return (int)cgt_debug_block_double_arrive(); }
static int launch_release_bad_rank(void) { return (int)cgt_debug_dsmem_release_bad_rank(5); }

Test(cg_debug, grid_sync_outside_cooperative_launch_traps)
{
    prepare();
    /* 1024-thread blocks: at most 2 per SM; 8 per SM can never be co-resident.
     * A plain launch gets no grid workspace (tests/cg:release_trap_test). */
    g_blocks = (unsigned)cgt_device_props()->multiProcessorCount * 8u;
    static const char *const needles[] = {"cgc: grid barrier used in a kernel with no grid workspace (block ",
                                          "launch it cooperatively"};
    cgt_expect_trap_report("grid sync, plain launch", launch_not_cooperative, needles, 2);
}

Test(cg_debug, grid_sync_with_a_missing_block_traps)
{
    prepare();
    /* One block per SM: the flat barrier; block 0 never arrives. */
    g_blocks = (unsigned)cgt_device_props()->multiProcessorCount;
    static const char *const needles[] = {"cgc: grid barrier wait at ", "phase (top bit ", "did not complete in",
                                          "does every block reach the barrier?"};
    cgt_expect_trap_report("grid sync, block 0 absent", launch_block_skips, needles, 4);
}

Test(cg_debug, spread_grid_sync_with_a_missing_block_traps)
{
    prepare();
    /* Full occupancy: the second sync is the spread barrier; its waiter or
     * its group's watcher reports ("wait" or "watch"), with the phase. */
    static const char *const needles[] = {"cgc: grid barrier w", ": phase ", "did not complete in",
                                          "does every block reach the barrier?"};
    cgt_expect_trap_report("grid sync at full occupancy, block 0 gone", launch_block_leaves, needles, 4);
}

Test(cg_debug, grid_wait_with_a_stale_token_traps)
{
    prepare();
    static const char *const needles[] = {"cgc: grid barrier wait at ", "with the token of phase ",
                                          "but this block's last arrival was for phase ",
                                          "wait once per arrive, with that arrive's token"};
    cgt_expect_trap_report("grid wait with the token of an earlier arrive", launch_stale_token, needles, 4);
}

/* The same at one block per SM (the flat barrier): the token's phase number
 * is checked there too. */
Test(cg_debug, flat_grid_wait_with_a_stale_token_traps)
{
    prepare();
    static const char *const needles[] = {"cgc: grid barrier wait at ", "with the token of phase 1,",
                                          "but this block's last arrival was for phase 2",
                                          "wait once per arrive, with that arrive's token"};
    cgt_expect_trap_report("flat grid wait with the token of an earlier arrive", launch_stale_token_flat, needles, 4);
}

/* C++ CG's grid.sync() between two cgc split grid barriers at one block per
 * SM (not supported after the launch's first cgc split arrive: its sense is
 * the block's own count; cg_grid_sync reads it from its atom and mixes,
 * tests/cg:barrier_test grid_sync_mixed_with_cpp_cg_grid_sync): the split
 * arrive after it reports. */
Test(cg_debug, grid_sync_mixed_with_cpp_cg_traps)
{
    prepare();
    static const char *const needles[] = {"cgc: grid barrier arrive at ", "expects top bit ",
                                          "another barrier (C++ CG grid.sync()?",
                                          "completed phases on the launch's workspace after the launch's first cgc "
                                          "split grid barrier"};
    cgt_expect_trap_report("cgc split grid barrier after C++ CG's grid.sync()", launch_mixed, needles, 4);
}

Test(cg_debug, tile_size_not_power_of_two_traps)
{
    prepare();
    CGT_CUDA(cudaMalloc((void **)&g_out, 32 * sizeof *g_out));
    static const char *const needles[] = {"cgc: cg_tiled_partition(n = 3): n must be a power of two in 1..32"};
    cgt_expect_trap_report("tiled_partition(3)", launch_bad_tile, needles, 1);
}

/* A thread that arrives twice on the block barrier before waiting is reported
 * (it would complete the phase without another thread's arrival). */
Test(cg_debug, block_barrier_second_arrive_before_wait_traps)
{
    prepare();
    static const char *const needles[] = {"cgc: cg_thread_block_barrier_arrive: thread 5,0,0 of block 0,0,0 arrives "
                                          "again before waiting",
                                          "block barrier at shared 0x", "phase parity "};
    cgt_expect_trap_report("block barrier arrive twice", launch_double_arrive, needles, 3);
}

/* Issue 34.9: a bad rank given to cg_dsmem_release is reported by the name the
 * caller wrote. */
Test(cg_debug, dsmem_release_to_a_rank_outside_the_cluster_traps)
{
    prepare();
    static const char *const needles[] = {"cgc: cg_dsmem_release(mbarrier ", ", rank 5): the cluster has 2 blocks"};
    cgt_expect_trap_report("cg_dsmem_release to rank 5 of 2", launch_release_bad_rank, needles, 2);
}
