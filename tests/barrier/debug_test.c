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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "barrier/device_barrier.h"
#include "tests/barrier/barrier_test_util.h"
#include "tests/support/cgtest.h"

/* 7 tests, serialized by cgt_gpu_exclusive, each bounded at 30 s at worst. */
TestSuite(barrier_debug, .timeout = 240);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef int (*launch_fn)(void);

/* Launch with stdout redirected to a file, synchronize, restore stdout, and
 * return what the kernel printed (caller frees) and the sync's error. */
static char *run_captured(launch_fn launch, void *(*launch_arg)(void), cudaError_t *sync_err,
                          double *seconds)
{
    char path[] = "/tmp/cgc_debug_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp failed");
    fflush(stdout);
    int saved = dup(1);
    cr_assert(saved >= 0);
    dup2(fd, 1);
    double t0 = now_s();
    cudaError_t launch_err;
    if (launch != NULL) {
        launch_err = (cudaError_t)launch();
    } else {
        launch_err = (cudaError_t)(intptr_t)launch_arg();
    }
    if (launch_err == cudaSuccess) {
        /* Bounded: a kernel that neither traps nor ends fails the test. */
        cudaError_t q = cgt_stream_wait_deadline(30.0);
        cr_assert_neq(q, cudaErrorNotReady, "the kernel neither trapped nor finished in 30 s");
    }
    *sync_err = launch_err != cudaSuccess ? launch_err : cudaDeviceSynchronize();
    *seconds = now_s() - t0;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap + 1);
    cr_assert(out != NULL);
    ssize_t got;
    while (len < cap && (got = read(fd, out + len, cap - len)) > 0)
        len += (size_t)got;
    out[len] = '\0';
    close(fd);
    unlink(path);
    return out;
}

/* The subject of these tests is a trap: memcheck reports every trapping
 * thread as an error, and the other tools judge nothing here. */
/* Every test here traps on purpose: skip under the sanitizers (memcheck
 * counts every trapping thread as an error), and run one trapping kernel on
 * the GPU at a time. */
static void skip_under_sanitizers(const char *what)
{
    char reason[256];
    snprintf(reason, sizeof reason,
             "traps on purpose (%s); memcheck counts every trapping thread as an error", what);
    cgt_skip_under_sanitizer("any", reason);
    cgt_gpu_exclusive();
}

/* The common checks: an error (the trap), in bounded time, and when the
 * report reached stdout, its content. */
static void expect_trap_report(const char *what, launch_fn launch, void *(*launch_arg)(void),
                               const char *const *needles, int nneedles)
{
    cudaError_t err;
    double secs;
    char *out = run_captured(launch, launch_arg, &err, &secs);
    cr_expect_neq(err, cudaSuccess, "%s: the kernel finished instead of trapping", what);
    cr_log_info("%s: %s (%s) after %.2f s", what, cudaGetErrorName(err), cudaGetErrorString(err), secs);
    cr_expect_lt(secs, 30.0, "%s: took %.1f s to report", what, secs);
    if (out[0] == '\0') {
        /* The driver flushes device printf at synchronization; if a trapped
         * context ever drops it, the trap above is still the contract. */
        cr_log_warn("%s: no device printf output was captured", what);
    } else {
        cr_log_info("%s report: %.300s", what, out);
        for (int i = 0; i < nneedles; ++i)
            cr_expect(strstr(out, needles[i]) != NULL, "%s: the report lacks \"%s\": %.300s", what,
                      needles[i], out);
    }
    free(out);
}

Test(barrier_debug, token_wait_on_a_phase_that_never_completes_traps)
{
    skip_under_sanitizers("token wait on a phase that never completes: debug bound, trap");
    cgt_require_sm90();
    static const char *const needles[] = {"cgc: cg_mbarrier_wait: deadlock", "mbarrier at shared 0x",
                                          "token 0x", "parity"};
    expect_trap_report("wait(token)", bt_launch_debug_wait_token, NULL, needles, 4);
}

Test(barrier_debug, parity_wait_on_a_phase_that_never_completes_traps)
{
    skip_under_sanitizers("parity wait on a phase that never completes: debug bound, trap");
    cgt_require_sm90();
    static const char *const needles[] = {"cgc: cg_mbarrier_wait_parity: deadlock",
                                          "mbarrier at shared 0x", "phase of parity 0"};
    expect_trap_report("wait_parity", bt_launch_debug_wait_parity, NULL, needles, 3);
}

Test(barrier_debug, count_out_of_range_traps)
{
    skip_under_sanitizers("mbarrier init with count 0 is reported and trapped");
    cgt_require_sm90();
    static const char *const needles[] = {"cgc: cg_mbarrier_init", "count 0 is outside 1..1048575"};
    expect_trap_report("init(count 0)", bt_launch_debug_bad_count, NULL, needles, 2);
}

Test(barrier_debug, completion_barrier_over_arrival_traps)
{
    skip_under_sanitizers("a cg_barrier_fn_t phase over-arrived is reported and trapped");
    cgt_require_sm90();
    static const char *const needles[] = {"cgc: cg_barrier_fn arrive", "0 pending",
                                          "more arrivals in one phase than expected"};
    expect_trap_report("cg_barrier_fn over-arrival", bt_launch_debug_fn_overflow, NULL, needles, 3);
}

static cg_device_barrier_t *g_dbar;
static void *launch_device_wait(void)
{
    return (void *)(intptr_t)bt_launch_debug_device_wait(g_dbar);
}

Test(barrier_debug, device_barrier_wait_that_never_completes_traps)
{
    skip_under_sanitizers("device-barrier wait that never completes: debug bound, trap");
    cgt_require_sm90();
    CGT_CUDA(cudaMalloc((void **)&g_dbar, sizeof *g_dbar));
    CGT_OK(cg_device_barrier_init_host(g_dbar, 2));
    static const char *const needles[] = {"cgc: cg_device_barrier_wait: deadlock", "token of phase 0"};
    expect_trap_report("device barrier wait", NULL, launch_device_wait, needles, 2);
}

static void *launch_device_over_arrival(void)
{
    return (void *)(intptr_t)bt_launch_debug_device_over_arrival(g_dbar);
}

/* 32 arrivals on a phase that expects 2: the completer's re-arm finds the
 * next phase already full (30 arrivals) and reports it. */
Test(barrier_debug, device_barrier_over_arrival_traps)
{
    skip_under_sanitizers("device-barrier over-arrival: reported, trap");
    cgt_require_sm90();
    CGT_CUDA(cudaMalloc((void **)&g_dbar, sizeof *g_dbar));
    CGT_OK(cg_device_barrier_init_host(g_dbar, 2));
    static const char *const needles[] = {"cgc: cg_device_barrier arrive", "more arrivals than the phase expects",
                                          "2 expected; 30 counted before its re-arm"};
    expect_trap_report("device barrier over-arrival", NULL, launch_device_over_arrival, needles, 3);
}

static void *launch_device_future_token(void)
{
    return (void *)(intptr_t)bt_launch_debug_device_future_token(g_dbar);
}

/* A token no arrive returned (phase 5 on a barrier in phase 0): reported at once. */
Test(barrier_debug, device_barrier_token_of_a_future_phase_traps)
{
    skip_under_sanitizers("device-barrier wait with a token of a future phase: reported, trap");
    cgt_require_sm90();
    CGT_CUDA(cudaMalloc((void **)&g_dbar, sizeof *g_dbar));
    CGT_OK(cg_device_barrier_init_host(g_dbar, 2));
    static const char *const needles[] = {"cgc: cg_device_barrier_wait: token of a phase that has not started",
                                          "token of phase 5", "barrier in phase 0"};
    expect_trap_report("device barrier future token", NULL, launch_device_future_token, needles, 3);
}
