/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/launch_overhead.cu — the host cost of one cooperative launch (issue
 * 34.6): cudaLaunchCooperativeKernel (the anchor: what a user writes without
 * cgc), cg_launch (every check on every call), cg_launch_prepared (checked
 * once by cg_launch_prepare) and cg_launch_cooperative (the one-line form,
 * which is cg_launch). One process, the four interleaved (A B C D, repeated),
 * the median of the repeats per form.
 *
 *   bazel build //bench:launch_overhead && bazel-bin/bench/launch_overhead [--list] [--csv FILE]
 *
 * What is timed: the host wall time of BATCH launch calls in a row (the calls
 * return once the launch is enqueued; BATCH stays far below the launch queue's
 * depth, so no call waits for the GPU), divided by BATCH: microseconds per
 * call. Then the stream is synchronized (not timed) and the batch's output
 * checked: every launch's block 0 adds one to a counter after the grid sync,
 * so the counter must grow by exactly BATCH, and every block's word must hold
 * the last launch's salt ^ block (the grid sync is real: each block writes
 * its word before the sync and checks its neighbour's after it, counting
 * mismatches). A wrong result prints WRONG and exits 3.
 *
 * Rows (CSV: form,us_per_call,ratio_to_anchor,checked):
 *   anchor    cudaLaunchCooperativeKernel
 *   cg_launch cg_launch with .cooperative = 1           (info: what 34.6 measured, 8.5 vs 5.9 us)
 *   prepared  cg_launch_prepared of a prepared handle  (target: ratio <= 1.05)
 *   one_line  cg_launch_cooperative                    (info: cg_launch's cost, one line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cg/cg.h"

#define BATCH 200
#define REPEATS 15
#define BLOCKS_PER_SM 1
#define THREADS 256

/* Each block: its word = salt ^ block; grid sync; the next block's word must
 * be salt ^ next (counts a mismatch in *bad); block 0 thread 0 then adds one
 * to *count. */
__global__ void k_launch_probe(uint32_t *words, uint32_t *count, uint32_t *bad, uint32_t salt)
{
    cg_grid_t g = cg_this_grid();
    uint32_t b = blockIdx.x, n = gridDim.x;
    if (threadIdx.x == 0)
        words[b] = salt ^ b;
    cg_grid_sync(&g);
    if (threadIdx.x == 0) {
        uint32_t next = (b + 1u) % n;
        if (words[next] != (salt ^ next))
            atomicAdd(bad, 1u);
        if (b == 0)
            atomicAdd(count, 1u);
    }
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void check_cuda(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "launch_overhead: %s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

static void check_cg(cg_status_t st, const char *what)
{
    if (st != CG_SUCCESS) {
        fprintf(stderr, "launch_overhead: %s: %s (%s)\n", what, cg_status_string(st), cg_last_error_detail());
        exit(2);
    }
}

enum { FORM_ANCHOR, FORM_CG_LAUNCH, FORM_PREPARED, FORM_ONE_LINE, FORMS };
static const char *const form_names[FORMS] = {"anchor", "cg_launch", "prepared", "one_line"};
static const char *const form_what[FORMS] = {
    "cudaLaunchCooperativeKernel (anchor)", "cg_launch, .cooperative = 1 (info)",
    "cg_launch_prepared, handle checked once (target <= 1.05 x anchor)", "cg_launch_cooperative, one line (info)"};

typedef struct state {
    uint32_t *words, *count, *bad;
    uint32_t blocks, salt, expect_count;
    cg_launch_config_t cfg;
    cg_launch_handle_t handle;
} state_t;

/* BATCH launches of one form; returns the host microseconds per call, then
 * checks the batch (WRONG: exit 3). */
static double run_batch(state_t *s, int form)
{
    void *args[4] = {&s->words, &s->count, &s->bad, &s->salt};
    double t0 = now_us();
    for (int i = 0; i < BATCH; ++i) {
        s->salt = s->salt * 1664525u + 1013904223u;
        switch (form) {
        case FORM_ANCHOR:
            check_cuda(cudaLaunchCooperativeKernel((const void *)k_launch_probe, dim3(s->blocks), dim3(THREADS), args,
                                                   0, 0),
                       "cudaLaunchCooperativeKernel");
            break;
        case FORM_CG_LAUNCH:
            check_cg(cg_launch(&s->cfg, (const void *)k_launch_probe, args), "cg_launch");
            break;
        case FORM_PREPARED:
            check_cg(cg_launch_prepared(&s->handle, args), "cg_launch_prepared");
            break;
        default:
            check_cg(cg_launch_cooperative((const void *)k_launch_probe, s->cfg.grid, s->cfg.block, args, 0, 0),
                     "cg_launch_cooperative");
            break;
        }
    }
    double t1 = now_us();
    check_cuda(cudaDeviceSynchronize(), "the batch");
    s->expect_count += BATCH;
    uint32_t count = 0, bad = 0;
    check_cuda(cudaMemcpy(&count, s->count, sizeof count, cudaMemcpyDeviceToHost), "count");
    check_cuda(cudaMemcpy(&bad, s->bad, sizeof bad, cudaMemcpyDeviceToHost), "bad");
    uint32_t *words = (uint32_t *)malloc(s->blocks * sizeof *words);
    check_cuda(cudaMemcpy(words, s->words, s->blocks * sizeof *words, cudaMemcpyDeviceToHost), "words");
    uint32_t wrong_words = 0;
    for (uint32_t b = 0; b < s->blocks; ++b)
        wrong_words += words[b] != (s->salt ^ b);
    free(words);
    if (count != s->expect_count || bad != 0 || wrong_words != 0) {
        printf("WRONG %s: %u launches counted of %u, %u grid-sync mismatches, %u words not the last launch's\n",
               form_names[form], count, s->expect_count, bad, wrong_words);
        exit(3);
    }
    return (t1 - t0) / BATCH;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *csv = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int f = 0; f < FORMS; ++f)
                printf("launch_overhead/%s  %s\n", form_names[f], form_what[f]);
            return 0;
        }
        if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
            csv = argv[++i];
    }
    state_t s;
    memset(&s, 0, sizeof s);
    int sms = 0, dev = 0;
    check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
    check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count");
    s.blocks = (uint32_t)sms * BLOCKS_PER_SM;
    check_cuda(cudaMalloc((void **)&s.words, s.blocks * sizeof *s.words), "cudaMalloc");
    check_cuda(cudaMalloc((void **)&s.count, sizeof *s.count), "cudaMalloc");
    check_cuda(cudaMalloc((void **)&s.bad, sizeof *s.bad), "cudaMalloc");
    check_cuda(cudaMemset(s.words, 0xff, s.blocks * sizeof *s.words), "poison");
    check_cuda(cudaMemset(s.count, 0, sizeof *s.count), "cudaMemset");
    check_cuda(cudaMemset(s.bad, 0, sizeof *s.bad), "cudaMemset");
    s.salt = 12345u;
    s.cfg = (cg_launch_config_t)CG_LAUNCH_CONFIG_INIT;
    s.cfg.grid.x = s.blocks;
    s.cfg.block.x = THREADS;
    s.cfg.cooperative = 1;
    check_cg(cg_launch_prepare(&s.handle, &s.cfg, (const void *)k_launch_probe), "cg_launch_prepare");

    /* Warm every path once (first-launch costs: module load, attributes). */
    for (int f = 0; f < FORMS; ++f)
        (void)run_batch(&s, f);
    double us[FORMS][REPEATS];
    /* A B C D, B C D A, ...: every repeat runs each form once, the order
     * rotated so no form always follows the same one. */
    for (int r = 0; r < REPEATS; ++r)
        for (int k = 0; k < FORMS; ++k) {
            int f = (k + r) % FORMS;
            us[f][r] = run_batch(&s, f);
        }
    double med[FORMS];
    for (int f = 0; f < FORMS; ++f) {
        qsort(us[f], REPEATS, sizeof us[f][0], cmp_double);
        med[f] = us[f][REPEATS / 2];
    }
    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (out)
        fprintf(out, "form,us_per_call,ratio_to_anchor,checked\n");
    printf("launch overhead, %u blocks x %d threads, cooperative, %d x %d launches per form (median of %d)\n",
           s.blocks, THREADS, REPEATS, BATCH, REPEATS);
    for (int f = 0; f < FORMS; ++f) {
        printf("  %-10s %7.2f us/call  %.3f x anchor   %s\n", form_names[f], med[f], med[f] / med[FORM_ANCHOR],
               form_what[f]);
        if (out)
            fprintf(out, "%s,%.3f,%.4f,ok\n", form_names[f], med[f], med[f] / med[FORM_ANCHOR]);
    }
    if (out)
        fclose(out);
    return 0;
}
