/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/pipeline/debug_test.c — GPU, debug build (kernels in
 * debug_kernels.cu, -DCG_DEBUG=1 and a 0.3 s wait bound): a pipeline wait
 * that can never complete must print a report naming the pipeline, the stage
 * and the phase, then trap, within bounded time:
 *   - the producer commits more bytes than its copies deliver;
 *   - a consumer waits on a stage nobody fills (block and cluster forms);
 *   - the producer acquires a stage nobody released.
 * Each test is its own process (Criterion), so the trapped context dies with
 * it; cgt_gpu_exclusive runs one trapping kernel on the GPU at a time, and
 * every test skips under compute-sanitizer (memcheck counts each trapping
 * thread as an error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/pipeline/pipeline_test_util.h"
#include "tests/support/cgtest.h"

TestSuite(pipeline_debug, .timeout = 180);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const uint32_t *g_src;

static int launch_overcommit(void) { return plt_debug_overcommit(g_src); }

/* Run `launch` with stdout sent to a file; wait at most 30 s; return what the
 * kernel printed (caller frees), the synchronize's error and the time. */
static char *run_captured(int (*launch)(void), cudaError_t *sync_err, double *seconds)
{
    char path[] = "/tmp/cgc_pipeline_debug_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp failed");
    fflush(stdout);
    int saved = dup(1);
    cr_assert(saved >= 0);
    dup2(fd, 1);
    double t0 = now_s();
    cudaError_t launch_err = (cudaError_t)launch();
    if (launch_err == cudaSuccess) {
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

static void prepare(const char *what)
{
    char reason[256];
    snprintf(reason, sizeof reason, "traps on purpose (%s); memcheck counts every trapping thread as an error",
             what);
    cgt_skip_under_sanitizer("any", reason);
    cgt_require_sm90();
    cgt_gpu_exclusive();
}

static void expect_trap_report(const char *what, int (*launch)(void), const char *const *needles, int n)
{
    cudaError_t err;
    double secs;
    char *out = run_captured(launch, &err, &secs);
    cr_expect_neq(err, cudaSuccess, "%s: the kernel finished instead of trapping", what);
    cr_log_info("%s: %s (%s) after %.2f s", what, cudaGetErrorName(err), cudaGetErrorString(err), secs);
    cr_expect_lt(secs, 30.0, "%s: took %.1f s to report", what, secs);
    if (out[0] == '\0') {
        cr_log_warn("%s: no device printf output was captured", what);
    } else {
        cr_log_info("%s report: %.400s", what, out);
        for (int i = 0; i < n; ++i)
            cr_expect(strstr(out, needles[i]) != NULL, "%s: the report lacks \"%s\": %.400s", what, needles[i],
                      out);
    }
    free(out);
}

Test(pipeline_debug, commit_of_more_bytes_than_copied_traps)
{
    prepare("commit of 512 bytes for a 256-byte copy: the consumer's wait is bounded");
    uint32_t *src = NULL;
    CGT_CUDA(cudaMalloc((void **)&src, 4096));
    CGT_CUDA(cudaMemset(src, 0x5a, 4096));
    g_src = src;
    static const char *const needles[] = {"cgc: cg_pipeline_consumer_wait: deadlock", "pipeline at shared 0x",
                                          "2 stages of 256 bytes", "stage 0", "parity 0 of its full barrier"};
    expect_trap_report("over-commit", launch_overcommit, needles, 5);
}

Test(pipeline_debug, wait_on_a_stage_nobody_fills_traps)
{
    prepare("consumer wait on a stage nobody fills: bounded");
    static const char *const needles[] = {"cgc: cg_pipeline_consumer_wait: deadlock", "pipeline at shared 0x",
                                          "3 stages of 256 bytes", "stage 0", "parity 0 of its full barrier"};
    expect_trap_report("unfilled stage", plt_debug_unfilled, needles, 5);
}

Test(pipeline_debug, acquire_of_a_stage_nobody_released_traps)
{
    prepare("producer acquire of a stage nobody released: bounded");
    static const char *const needles[] = {"cgc: cg_pipeline_producer_acquire: deadlock", "pipeline at shared 0x",
                                          "1 stages of 256 bytes", "stage 0", "parity 0 of its empty barrier"};
    expect_trap_report("unreleased stage", plt_debug_unreleased, needles, 5);
}

Test(pipeline_debug, cluster_wait_on_a_stage_nobody_fills_traps)
{
    prepare("cluster-form consumer wait on a stage nobody multicasts: bounded");
    static const char *const needles[] = {"cgc: cg_pipeline_cluster_consumer_wait: deadlock",
                                          "pipeline at shared 0x", "stage 0", "parity 0 of its full barrier",
                                          "block 1,0,0"};
    expect_trap_report("cluster unfilled stage", plt_debug_cluster_unfilled, needles, 5);
}
