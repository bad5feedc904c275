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
 * at 60 s that way; alone it passed in about a second). So every case takes
 * an exclusive file lock for its whole process (one trapping kernel on the GPU
 * at a time, whatever the runner's job count), and waits for its kernel by
 * polling with a deadline (cgt_expect_trap_report), so a kernel that does
 * not trap is reported as such (well inside the suite timeout) instead of
 * hanging the process. */
#include "cg/launch.h"
#include "tests/support/cgtest.h"

#include <criterion/parameterized.h> /* after criterion.h (cgtest.h), which it needs first */

cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks);
cudaError_t cgt_debug_grid_sync_block_leaves(void);
cudaError_t cgt_debug_grid_stale_token(void);
cudaError_t cgt_debug_grid_stale_token_flat(void);
cudaError_t cgt_debug_grid_mixed_with_cpp_cg(void);
cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out);
cudaError_t cgt_debug_block_double_arrive(void);
cudaError_t cgt_debug_dsmem_release_bad_rank(uint32_t rank);

/* 9 cases x 30 s (cgt_expect_trap_report's bound) at worst, serialized by the lock. */
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

/* The launch's shape, where it needs one. */
static void blocks_never_coresident(void)
{
    /* 1024-thread blocks: at most 2 per SM; 8 per SM can never be co-resident.
     * A plain launch gets no grid workspace (tests/cg:release_trap_test). */
    g_blocks = (unsigned)cgt_device_props()->multiProcessorCount * 8u;
}
static void blocks_one_per_sm(void)
{
    /* One block per SM: the flat barrier; block 0 never arrives. */
    g_blocks = (unsigned)cgt_device_props()->multiProcessorCount;
}
static void alloc_out(void) { CGT_CUDA(cudaMalloc((void **)&g_out, 32 * sizeof *g_out)); }

/* One misuse: what it is (in every message), what its launch needs first
 * (NULL: nothing), the launch, and the pieces its report must hold. */
typedef struct trap_case {
    const char *what;
    void (*setup)(void);
    int (*launch)(void);
    const char *needles[4];
} trap_case_t;

static const trap_case_t traps[] = {
    {"grid sync, plain launch",
     blocks_never_coresident,
     launch_not_cooperative,
     {"cgc: grid barrier used in a kernel with no grid workspace (block ", "launch it cooperatively"}},
    {"grid sync, block 0 absent",
     blocks_one_per_sm,
     launch_block_skips,
     {"cgc: grid barrier wait at ", "phase (top bit ", "did not complete in", "does every block reach the barrier?"}},
    /* Full occupancy: the second sync is the spread barrier; its waiter or
     * its group's watcher reports ("wait" or "watch"), with the phase. */
    {"grid sync at full occupancy, block 0 gone",
     NULL,
     launch_block_leaves,
     {"cgc: grid barrier w", ": phase ", "did not complete in", "does every block reach the barrier?"}},
    {"grid wait with the token of an earlier arrive",
     NULL,
     launch_stale_token,
     {"cgc: grid barrier wait at ", "with the token of phase ", "but this block's last arrival was for phase ",
      "wait once per arrive, with that arrive's token"}},
    /* The same at one block per SM (the flat barrier): the token's phase
     * number is checked there too. */
    {"flat grid wait with the token of an earlier arrive",
     NULL,
     launch_stale_token_flat,
     {"cgc: grid barrier wait at ", "with the token of phase 1,", "but this block's last arrival was for phase 2",
      "wait once per arrive, with that arrive's token"}},
    /* C++ CG's grid.sync() between two cgc split grid barriers at one block
     * per SM (not supported after the launch's first cgc split arrive: its
     * sense is the block's own count; cg_grid_sync reads it from its atom and
     * mixes, tests/cg:barrier_test grid_sync_mixed_with_cpp_cg_grid_sync):
     * the split arrive after it reports. */
    {"cgc split grid barrier after C++ CG's grid.sync()",
     NULL,
     launch_mixed,
     {"cgc: grid barrier arrive at ", "expects top bit ", "another barrier (C++ CG grid.sync()?",
      "completed phases on the launch's workspace after the launch's first cgc split grid barrier"}},
    {"tiled_partition(3)",
     alloc_out,
     launch_bad_tile,
     {"cgc: cg_tiled_partition(n = 3): n must be a power of two in 1..32"}},
    /* A thread that arrives twice on the block barrier before waiting is
     * reported (it would complete the phase without another thread's
     * arrival). */
    {"block barrier arrive twice",
     NULL,
     launch_double_arrive,
     {"cgc: cg_thread_block_barrier_arrive: thread 5,0,0 of block 0,0,0 arrives again before waiting",
      "block barrier at shared 0x", "phase parity "}},
    /* Issue 34.9: a bad rank given to cg_dsmem_release is reported by the
     * name the caller wrote. */
    {"cg_dsmem_release to rank 5 of 2",
     NULL,
     launch_release_bad_rank,
     {"cgc: cg_dsmem_release(mbarrier ", ", rank 5): the cluster has 2 blocks"}},
};
#define NTRAPS ((int)(sizeof traps / sizeof traps[0]))

/* Each case in a process of its own (the trap's sticky error stays there);
 * the parameter is the case's index (plain data crosses to the test process
 * as it is). */
ParameterizedTestParameters(cg_debug, misuse_reports_and_traps)
{
    static int which[NTRAPS];
    for (int i = 0; i < NTRAPS; ++i)
        which[i] = i;
    return cr_make_param_array(int, which, NTRAPS);
}

ParameterizedTest(int *i, cg_debug, misuse_reports_and_traps)
{
    const trap_case_t *c = &traps[*i];
    prepare();
    if (c->setup)
        c->setup();
    int n = 0;
    while (n < 4 && c->needles[n])
        ++n;
    cgt_expect_trap_report(c->what, c->launch, c->needles, n);
}
