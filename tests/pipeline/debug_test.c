/*
 * tests/pipeline/debug_test.c — pipeline misuse in a debug build (kernels in
 * debug_kernels.cu, CG_DEBUG=1, wait bound 0.3 s): a consumer waiting on a
 * stage that never fills, a commit of more bytes than were copied, a commit
 * that differs from cg_pipeline_copy's bytes, a producer waiting for a
 * release that never comes, a copy outside the stage being filled, and a
 * block-shaped ring acquired too far ahead. Each must trap within bounded
 * time, and the report (device printf, captured from stdout) must name the
 * pipeline, the stage and the phase. Each test is its own process
 * (Criterion), so the trapped context dies with it; they skip under
 * compute-sanitizer (the traps are the subject; memcheck reports every
 * trapping thread) and run one at a time on the GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/support/cgtest.h"

int pld_never_filled(const void *src, unsigned *out);
int pld_committed_more(const void *src, unsigned *out);
int pld_commit_mismatch(const void *src, unsigned *out);
int pld_never_released(const void *src, unsigned *out);
int pld_copy_outside_stage(const void *src, unsigned *out);
int pld_block_too_far_ahead(const void *src, unsigned *out);

/* 6 tests, serialized by cgt_gpu_exclusive, each bounded at 30 s at worst. */
TestSuite(pipeline_debug, .timeout = 240);

typedef int (*launch_fn)(const void *src, unsigned *out);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Launch with stdout redirected to a file, wait (bounded), synchronize,
 * restore stdout; returns what the kernel printed (caller frees). */
static char *run_captured(launch_fn launch, cudaError_t *sync_err, double *seconds)
{
    void *src = NULL;
    unsigned *out = NULL;
    CGT_CUDA(cudaMalloc(&src, 4u * 1024u));
    CGT_CUDA(cudaMemset(src, 0x5A, 4u * 1024u));
    CGT_CUDA(cudaMalloc((void **)&out, 64u * sizeof *out));
    CGT_CUDA(cudaMemset(out, 0, 64u * sizeof *out));
    char path[] = "/tmp/cgc_pipeline_debug_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp failed");
    fflush(stdout);
    int saved = dup(1);
    cr_assert(saved >= 0);
    dup2(fd, 1);
    double t0 = now_s();
    cudaError_t launch_err = (cudaError_t)launch(src, out);
    if (launch_err == cudaSuccess) {
        cudaError_t q = cgt_stream_wait_deadline(30.0);
        if (q == cudaErrorNotReady) {
            dup2(saved, 1);
            cr_assert_fail("the kernel neither trapped nor finished in 30 s");
        }
    }
    *sync_err = launch_err != cudaSuccess ? launch_err : cudaDeviceSynchronize();
    *seconds = now_s() - t0;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    cr_assert(text != NULL);
    ssize_t got;
    while (len < cap && (got = read(fd, text + len, cap - len)) > 0)
        len += (size_t)got;
    text[len] = '\0';
    close(fd);
    unlink(path);
    return text;
}

/* The common checks: an error (the trap), in bounded time, and when the
 * report reached stdout, every needle in it. */
static void expect_trap_report(const char *what, launch_fn launch, const char *const *needles, int nneedles)
{
    char reason[256];
    snprintf(reason, sizeof reason, "traps on purpose (%s); memcheck counts every trapping thread as an error",
             what);
    cgt_skip_under_sanitizer("any", reason);
    cgt_require_sm90();
    cgt_gpu_exclusive();
    cudaError_t err;
    double secs;
    char *out = run_captured(launch, &err, &secs);
    cr_expect_neq(err, cudaSuccess, "%s: the kernel finished instead of trapping", what);
    cr_log_info("%s: %s (%s) after %.2f s", what, cudaGetErrorName(err), cudaGetErrorString(err), secs);
    cr_expect_lt(secs, 30.0, "%s: took %.1f s to report", what, secs);
    if (out[0] == '\0') {
        /* The driver flushes device printf at synchronization; if a trapped
         * context ever drops it, the trap is still the contract. */
        cr_log_warn("%s: no device printf output was captured", what);
    } else {
        cr_log_info("%s report: %.400s", what, out);
        for (int i = 0; i < nneedles; ++i)
            cr_expect(strstr(out, needles[i]) != NULL, "%s: the report lacks \"%s\": %.400s", what, needles[i],
                      out);
    }
    free(out);
}

Test(pipeline_debug, consumer_wait_on_a_stage_never_filled_traps)
{
    static const char *const needles[] = {"cgc: cg_pipeline_wait: deadlock", "pipeline at shared 0x",
                                          "stage 0, phase 0 (parity 0)", "no producer committed it"};
    expect_trap_report("wait on a stage never filled", pld_never_filled, needles, 4);
}

Test(pipeline_debug, commit_of_more_bytes_than_delivered_traps)
{
    static const char *const needles[] = {"cgc: cg_pipeline_wait: deadlock", "stage 0, phase 0",
                                          "committed 2048 bytes", "fewer bytes were delivered than committed"};
    expect_trap_report("commit of more bytes than the copies deliver", pld_committed_more, needles, 4);
}

Test(pipeline_debug, commit_differing_from_the_copies_traps_at_the_commit)
{
    static const char *const needles[] = {"cgc: cg_pipeline_commit", "stage 0, phase 0",
                                          "committed 512 bytes but cg_pipeline_copy issued 1024"};
    expect_trap_report("commit differing from cg_pipeline_copy", pld_commit_mismatch, needles, 3);
}

Test(pipeline_debug, producer_waiting_for_a_release_never_made_traps)
{
    static const char *const needles[] = {"cgc: cg_pipeline_acquire: deadlock", "pipeline at shared 0x",
                                          "stage 0, phase 0", "release fill 0 so that fill 1 can start"};
    expect_trap_report("acquire of a stage never released", pld_never_released, needles, 4);
}

Test(pipeline_debug, copy_outside_the_stage_being_filled_traps)
{
    static const char *const needles[] = {"cgc: cg_pipeline_copy", "stage 0, phase 0",
                                          "not inside the stage being filled"};
    expect_trap_report("copy outside the stage", pld_copy_outside_stage, needles, 3);
}

Test(pipeline_debug, block_ring_acquired_too_far_ahead_traps)
{
    static const char *const needles[] = {"cgc: cg_pipeline_producer_acquire: deadlock", "stage 0, phase 0"};
    expect_trap_report("block shape acquiring past the ring", pld_block_too_far_ahead, needles, 2);
}
