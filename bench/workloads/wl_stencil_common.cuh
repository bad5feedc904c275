/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_stencil_common.cuh — what the two Jacobi workload
 * binaries share (wl_stencil: one-row halos, a grid barrier every sweep;
 * wl_stencil_deep: halos k rows deep): the seed and the random field, the
 * grid size that can be co-resident, the host and device arrays of a problem
 * with the host's plain Jacobi, a timer of ONE launch held behind wl.h's
 * blocking kernel, the series (the kernels' timed launches interleaved, A B C
 * A B C .., each output poisoned before its last timed launch and checked
 * after), the point-by-point compare, the row and main.
 */
#ifndef CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH
#define CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/workloads/wl.h"
#include "cg/launch.h"
#include "examples/jacobi_cluster.cuh"

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

/* --- the field: a problem's arrays -------------------------------------------------- */

#define WSC_MAX_OUT 64 /* kernels in a series */

typedef struct wsc_field {
    uint32_t nx, ny, sweeps;
    unsigned host_threads;    /* for the host's Jacobi */
    float *hin, *want, *got;  /* host: the input, the plain Jacobi of `sweeps` sweeps, a launch's output */
    float *din;               /* the input on the device */
    float *dout[WSC_MAX_OUT]; /* one output per kernel of a series */
    size_t nout;
} wsc_field_t;

/* Random input from *x, the host's result, the device arrays. 0, or 1
 * after a CUDA error (counted); exits when host memory runs out. */
static int wsc_field_setup(wsc_field_t *f, wl_opts_t *o, uint32_t nx, uint32_t ny, uint32_t sweeps, size_t nout,
                           uint64_t *x)
{
    memset(f, 0, sizeof *f);
    f->nx = nx, f->ny = ny, f->sweeps = sweeps;
    f->nout = nout < WSC_MAX_OUT ? nout : WSC_MAX_OUT;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    f->host_threads = cpus < 1 ? 1u : cpus > 16 ? 16u : (unsigned)cpus;
    const size_t n = (size_t)nx * ny;
    f->hin = (float *)malloc(n * 4u);
    f->want = (float *)malloc(n * 4u);
    f->got = (float *)malloc(n * 4u);
    if (!f->hin || !f->want || !f->got || (wsc_fill(f->hin, n, x), 0) ||
        st_host_jacobi(f->hin, f->want, nx, ny, sweeps, 0, f->host_threads) != 0) {
        fprintf(stderr, "%s: host memory ran out\n", o->name);
        exit(1);
    }
    for (size_t i = 0; i < f->nout; ++i)
        if (WL_CHECK(o, cudaMalloc((void **)&f->dout[i], n * 4u)))
            return 1;
    return WL_CHECK(o, cudaMalloc((void **)&f->din, n * 4u)) ||
           WL_CHECK(o, cudaMemcpy(f->din, f->hin, n * 4u, cudaMemcpyHostToDevice));
}

static void wsc_field_free(wsc_field_t *f)
{
    cudaFree(f->din);
    for (size_t i = 0; i < f->nout; ++i)
        cudaFree(f->dout[i]);
    free(f->hin);
    free(f->want);
    free(f->got);
    memset(f, 0, sizeof *f);
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

/* Wait for the device, copy `dout` back and compare it with `want`. 0, or 1
 * (WRONG printed, or a CUDA error counted). */
static int wsc_verify(wl_opts_t *o, const wsc_field_t *f, const float *dout, const float *want, const char *what)
{
    const size_t n = (size_t)f->nx * f->ny;
    if (WL_CHECK(o, cudaDeviceSynchronize()) || WL_CHECK(o, cudaMemcpy(f->got, dout, n * 4u, cudaMemcpyDeviceToHost)))
        return 1;
    return wsc_compare(o->name, f->got, want, f->nx, f->ny, what);
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

/* --- a series: the kernels' launches interleaved ----------------------------------------- */

/* The binary's side of a series of f->nout launches (launch i writes
 * f->dout[i]). */
typedef struct wsc_series {
    wl_opts_t *o;
    wsc_timer_t *timer;
    const wsc_field_t *f;
    void *ctx;
    int (*select)(void *ctx, size_t i); /* make launch i the current one; 0, or 1 when it cannot run */
    wl_launch_fn launch;                /* the current launch */
    int (*verify)(void *ctx);           /* after it ran: its output against the host; 0, or 1 */
} wsc_series_t;

/* Launch i alone, its output poisoned (NaN) first, and compare every point. 0 ok, 1 wrong or failed. */
static int wsc_check(const wsc_series_t *s, size_t i)
{
    const size_t n = (size_t)s->f->nx * s->f->ny;
    return s->select(s->ctx, i) || WL_CHECK(s->o, cudaMemset(s->f->dout[i], 0xff, n * 4u)) ||
           WL_CHECK(s->o, s->launch(s->ctx)) || s->verify(s->ctx);
}

/* The self-check at one size: every launch i of the series, those for
 * which clustered(ctx, i) once per cluster size (*C set to each of
 * clusters[0 .. nc)), the others once. The number that failed; when none
 * did, a line that says `what` held at this size. */
static int wsc_check_all(const wsc_series_t *s, uint32_t *C, const uint32_t *clusters, size_t nc,
                         int (*clustered)(const void *ctx, size_t i), const char *what)
{
    int w = 0;
    for (size_t ci = 0; ci < nc; ++ci) {
        *C = clusters[ci];
        for (size_t i = 0; i < s->f->nout; ++i)
            if (ci == 0 || clustered(s->ctx, i))
                w += wsc_check(s, i);
    }
    if (w == 0)
        printf("%s: self-check %ux%u, %u sweeps: %s equals the host bit for bit\n", s->o->name, s->f->nx, s->f->ny,
               s->f->sweeps, what);
    return w;
}

/* Every launch once, checked (a warm-up); then o->repeats rounds of one
 * timed launch each, in order (A B C .. A B C ..), each output poisoned
 * before its last round; after the rounds, every point each launch left is
 * checked. ms[i]: launch i's median time (0 when wrong or failed); wrong[i]. */
static void wsc_run_series(const wsc_series_t *s, double *ms, int *wrong)
{
    const int R = s->o->repeats < 64 ? s->o->repeats : 64;
    const size_t n = (size_t)s->f->nx * s->f->ny, N = s->f->nout;
    double t[WSC_MAX_OUT][64];
    for (size_t i = 0; i < N; ++i) {
        wrong[i] = wsc_check(s, i);
        ms[i] = 0;
    }
    for (int r = 0; r < R; ++r)
        for (size_t i = 0; i < N; ++i) {
            if (wrong[i] || s->select(s->ctx, i))
                continue;
            if (r + 1 == R && WL_CHECK(s->o, cudaMemsetAsync(s->f->dout[i], 0xff, n * 4u))) {
                wrong[i] = 1;
                continue;
            }
            t[i][r] = wsc_time_one(s->timer, s->o, s->launch, s->ctx);
            wrong[i] |= t[i][r] < 0;
        }
    for (size_t i = 0; i < N; ++i) {
        if (wrong[i] || s->select(s->ctx, i))
            continue;
        wrong[i] = s->verify(s->ctx);
        if (!wrong[i])
            ms[i] = wsc_median(t[i], R);
    }
}

/* --list: one series' rows: the target row (`op`), then info rows 1 .. n-1
 * named by info_op(i). */
static void wsc_list_series(const char *op, double target, const char *config, const char *(*info_op)(size_t i),
                            size_t n)
{
    printf("%s | %s | target <=%.2f\n", op, config, target);
    for (size_t i = 1; i < n; ++i)
        printf("%s | %s | info\n", info_op(i), config);
}

/* --- main ----------------------------------------------------------------------------------- */

/* The binaries' main: --list (no CUDA), options, metadata, the seed, an
 * sm_90 device, the self-check at small sizes (a failure: one WRONG row under
 * `op`, exit 3), then the full size. */
typedef int (*wsc_self_fn)(wl_opts_t *o, uint64_t seed);
typedef void (*wsc_full_fn)(wl_opts_t *o, FILE *csv, uint64_t *x);
static int wsc_main(int argc, char **argv, const char *name, const char *op, wl_list_fn list, wsc_self_fn self,
                    wsc_full_fn full)
{
    wl_list_if_asked(argc, argv, list);
    wl_opts_t o = wl_parse(argc, argv, name);
    FILE *csv = wl_open_csv(&o);
    const uint64_t seed = wsc_seed();
    printf("# %s: seed %llu (CGC_SEED=%llu repeats it)\n", name, (unsigned long long)seed, (unsigned long long)seed);
    int major = 0;
    if (WL_CHECK(&o, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0)) || major < 9) {
        fprintf(stderr, "%s: needs an sm_90 device (clusters, DSMEM, st.async)\n", name);
        return 2;
    }
    if (self(&o, seed)) {
        wsc_row(&o, csv, op, "self-check (small sizes)", "every kernel vs the host", "check", 0, 0, 0, 1,
                "a check failed (see the WRONG lines above)");
        return wl_exit(&o);
    }
    uint64_t x = seed * 0x2545f4914f6cdd1dull | 1u;
    full(&o, csv, &x);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}

#endif /* CGC_BENCH_WORKLOADS_WL_STENCIL_COMMON_CUH */
