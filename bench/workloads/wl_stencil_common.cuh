/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_stencil_common.cuh — what the two Jacobi workload
 * binaries share (wl_stencil: one-row halos, a grid barrier every sweep;
 * wl_stencil_deep: halos k rows deep): the seed and the random field, the
 * grid size that can be co-resident, a timer of ONE launch held behind wl.h's
 * blocking kernel (so the binaries can interleave the kernels of a series,
 * A B C A B C, and poison each output before its last timed launch), the
 * point-by-point compare and the row.
 */
#ifndef CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH
#define CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/workloads/wl.h"
#include "cg/launch.h"

/* --- inputs -------------------------------------------------------------------- */

static uint64_t wsc_seed(void)
{
    const char *s = getenv("CGC_SEED");
    return s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
}

/* n values in [0, 1) from the xorshift state *x. */
static void wsc_fill(float *v, size_t n, uint64_t *x)
{
    for (size_t i = 0; i < n; ++i) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        v[i] = (float)(*x >> 40) / 16777216.0f;
    }
}

/* --- the grid ------------------------------------------------------------------ */

/* The largest G <= want (a multiple of the cluster size C; C = 1: no cluster
 * launch) whose CTAs of `fn` with `threads` threads and smem_of(G) bytes of
 * dynamic shared memory can all be resident (a cooperative launch needs
 * that); 0 when none (counted as an error, with the reason on stderr). */
typedef size_t (*wsc_smem_fn)(const void *arg, uint32_t G);
static uint32_t wsc_grid(wl_opts_t *o, const void *fn, const char *name, uint32_t threads, uint32_t C, uint32_t want,
                         wsc_smem_fn smem_of, const void *arg)
{
    uint32_t G = want - want % C;
    for (int iter = 0; iter < 3 && G > 0; ++iter) {
        const size_t smem = smem_of(arg, G);
        uint32_t resident = 0;
        cg_status_t st;
        if (C > 1) {
            cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
            cfg.block.x = threads;
            cfg.cluster.x = C;
            cfg.dynamic_smem = smem;
            st = cg_max_active_clusters(&cfg, fn, &resident);
            resident *= C;
        } else {
            st = cg_max_cooperative_blocks(fn, threads, smem, &resident);
        }
        if (st != CG_SUCCESS) {
            fprintf(stderr, "%s: %s, cluster %u, %zu B shared memory: %s: %s\n", o->name, name, C, smem,
                    cg_status_string(st), cg_last_error_detail());
            ++o->errors;
            return 0;
        }
        if (G <= resident)
            return G;
        G = resident - resident % C;
    }
    fprintf(stderr, "%s: %s: no grid of whole clusters of %u can be co-resident\n", o->name, name, C);
    ++o->errors;
    return 0;
}

/* --- timing one launch ------------------------------------------------------------ */

/* wl_time_ms_blocked's method for one launch at a time: a one-thread kernel
 * spins on a mapped host flag, the start event, the launch, the stop event,
 * then the host sets the flag; the events time the GPU work alone. The flag
 * and the events live as long as the timer. Work enqueued before the call
 * (a memset that poisons the output) runs before the spin, untimed. */
typedef struct wsc_timer {
    unsigned *hflag, *dflag; /* [0] the flag, [1] set when the spin gave up */
    cudaEvent_t a, b;
    int warned;
} wsc_timer_t;

static int wsc_timer_init(wsc_timer_t *t, wl_opts_t *o)
{
    memset(t, 0, sizeof *t);
    return WL_CHECK(o, cudaHostAlloc((void **)&t->hflag, 2 * sizeof(unsigned), cudaHostAllocMapped)) ||
           WL_CHECK(o, cudaHostGetDevicePointer((void **)&t->dflag, t->hflag, 0)) ||
           WL_CHECK(o, cudaEventCreate(&t->a)) || WL_CHECK(o, cudaEventCreate(&t->b));
}

static void wsc_timer_free(wsc_timer_t *t)
{
    if (t->a)
        cudaEventDestroy(t->a);
    if (t->b)
        cudaEventDestroy(t->b);
    if (t->hflag)
        cudaFreeHost(t->hflag);
    memset(t, 0, sizeof *t);
}

/* One launch's GPU time in ms; negative after a CUDA error. */
static float wsc_time_one(wsc_timer_t *t, wl_opts_t *o, wl_launch_fn launch, void *ctx)
{
    volatile unsigned *flag = t->hflag;
    float ms = -1.0f;
    flag[0] = 0u;
    flag[1] = 0u;
    wl_blocking_kernel<0><<<1, 1>>>(t->dflag, WL_BLOCK_TIMEOUT_NS, t->dflag + 1);
    const int bad = WL_CHECK(o, cudaGetLastError()) || WL_CHECK(o, cudaEventRecord(t->a)) || WL_CHECK(o, launch(ctx)) ||
                    WL_CHECK(o, cudaEventRecord(t->b));
    __sync_synchronize();
    flag[0] = 1u;
    if (bad) {
        cudaDeviceSynchronize();
        return -1.0f;
    }
    if (WL_CHECK(o, cudaEventSynchronize(t->b)) || WL_CHECK(o, cudaEventElapsedTime(&ms, t->a, t->b)))
        return -1.0f;
    if (flag[1] && !t->warned) {
        t->warned = 1;
        fprintf(stderr, "%s: a launch call waited for the blocking kernel; its time includes the host's launch work\n",
                o->name);
    }
    return ms;
}

static double wsc_median(double *v, int n)
{
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
            const double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return n > 0 ? v[n / 2] : 0.0;
}

/* --- checks and rows ----------------------------------------------------------------- */

/* Every point of `got` against `want` (nx x ny); 0, or 1 after printing a
 * WRONG line with the first bad point. */
static int wsc_compare(const char *bin, const float *got, const float *want, uint32_t nx, uint32_t ny, const char *what)
{
    const size_t n = (size_t)nx * ny;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; ++i)
        if (!(got[i] == want[i]) && bad++ == 0)
            first = i;
    if (bad == 0)
        return 0;
    printf("%s: WRONG %s, %ux%u: %zu of %zu points differ from the host; first u[%zu][%zu] = %.9g, expected %.9g\n",
           bin, what, nx, ny, bad, n, first / nx, first % nx, got[first], want[first]);
    return 1;
}

/* One output row; target 0: info. */
static void wsc_row(wl_opts_t *o, FILE *csv, const char *op, const char *config, const char *cgc_what,
                    const char *anc_what, double cgc_ns, double anc_ns, double target, int wrong, const char *note)
{
    wl_row_t r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.config = config;
    r.cgc_what = cgc_what;
    r.anc_what = anc_what;
    r.cgc_ns = cgc_ns;
    r.anc_ns = anc_ns;
    r.max_ratio = target;
    r.min_speedup = target > 0 ? 1.0 / target : 0;
    r.wrong = wrong;
    r.note = note;
    wl_row(o, csv, &r);
}

#endif /* CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH */
