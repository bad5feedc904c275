/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/debug_test.c — debug-build misuse (kernels in
 * debug_kernels.cu, built with -DCG_DEBUG=1 and a 0.3 s wait bound): a wait
 * that can never complete, or a bad count, must trap within bounded time, so
 * cudaDeviceSynchronize returns an error; the kernel's report (device printf,
 * captured from stdout) must name the barrier and the phase. Each test is
 * its own process (Criterion), so the trapped context dies with it.
 * Every test skips under compute-sanitizer (CGT_SANITIZER set by
 * tools/gpu/run.sh): the traps are the subject, and memcheck reports each
 * trapping thread as an error.
 */
#include <stdio.h>

#include "barrier/device_barrier.h"
#include "tests/barrier/barrier_test_util.h"
#include "tests/support/cgtest.h"

/* 7 tests, serialized by cgt_gpu_exclusive, each bounded at 30 s at worst. */
TestSuite(barrier_debug, .timeout = 240);

/* Every test here traps on purpose: CGT_TRAP_TEST skips it under the
 * sanitizers (memcheck counts every trapping thread as an error) and without
 * an sm_90 device, and runs one trapping kernel on the GPU at a time. */

CGT_TRAP_TEST(barrier_debug, token_wait_on_a_phase_that_never_completes_traps,
              "token wait on a phase that never completes: debug bound, trap", NULL, "wait(token)",
              bt_launch_debug_wait_token, "cgc: cg_mbarrier_wait: deadlock", "mbarrier at shared 0x", "token 0x",
              "parity")

CGT_TRAP_TEST(barrier_debug, parity_wait_on_a_phase_that_never_completes_traps,
              "parity wait on a phase that never completes: debug bound, trap", NULL, "wait_parity",
              bt_launch_debug_wait_parity, "cgc: cg_mbarrier_wait_parity: deadlock", "mbarrier at shared 0x",
              "phase of parity 0")

CGT_TRAP_TEST(barrier_debug, count_out_of_range_traps, "mbarrier init with count 0 is reported and trapped", NULL,
              "init(count 0)", bt_launch_debug_bad_count, "cgc: cg_mbarrier_init", "count 0 is outside 1..1048575")

CGT_TRAP_TEST(barrier_debug, completion_barrier_over_arrival_traps,
              "a cg_barrier_fn_t phase over-arrived is reported and trapped", NULL, "cg_barrier_fn over-arrival",
              bt_launch_debug_fn_overflow, "cgc: cg_barrier_fn arrive", "0 pending",
              "more arrivals in one phase than expected")

static cg_device_barrier_t *g_dbar;

/* A device barrier of 2 arrivals a phase, in global memory, for each case. */
static void make_dbar(void)
{
    CGT_CUDA(cudaMalloc((void **)&g_dbar, sizeof *g_dbar));
    CGT_OK(cg_device_barrier_init_host(g_dbar, 2));
}
static int launch_device_wait(void) { return bt_launch_debug_device_wait(g_dbar); }

CGT_TRAP_TEST(barrier_debug, device_barrier_wait_that_never_completes_traps,
              "device-barrier wait that never completes: debug bound, trap", make_dbar, "device barrier wait",
              launch_device_wait, "cgc: cg_device_barrier_wait: deadlock", "token of phase 0")

static int launch_device_over_arrival(void) { return bt_launch_debug_device_over_arrival(g_dbar); }

/* 32 arrivals on a phase that expects 2: the completer's re-arm finds the
 * next phase already full (30 arrivals) and reports it. */
CGT_TRAP_TEST(barrier_debug, device_barrier_over_arrival_traps, "device-barrier over-arrival: reported, trap",
              make_dbar, "device barrier over-arrival", launch_device_over_arrival, "cgc: cg_device_barrier arrive",
              "more arrivals than the phase expects", "2 expected; 30 counted before its re-arm")

static int launch_device_future_token(void) { return bt_launch_debug_device_future_token(g_dbar); }

/* A token no arrive returned (phase 5 on a barrier in phase 0): reported at once. */
CGT_TRAP_TEST(barrier_debug, device_barrier_token_of_a_future_phase_traps,
              "device-barrier wait with a token of a future phase: reported, trap", make_dbar,
              "device barrier future token", launch_device_future_token,
              "cgc: cg_device_barrier_wait: token of a phase that has not started", "token of phase 5",
              "barrier in phase 0")
