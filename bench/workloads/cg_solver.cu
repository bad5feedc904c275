/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/cg_solver.cu — wl_cg_solver: one iteration of the
 * conjugate-gradient solver of examples/conjugate_gradient.cu (NVIDIA's
 * conjugateGradientMultiBlockCG, the whole solve in one cooperative kernel),
 * cgc against the same kernel written with C++ Cooperative Groups, in one
 * process. The kernels are the example's (examples/conjugate_gradient.cuh):
 * the same operations in the same order, the same launch shape (256-thread
 * blocks, 1 or 2 blocks per SM, all co-resident, a cooperative launch: cgc's
 * through cg_launch, C++'s through cudaLaunchCooperativeKernel).
 *
 * Sizes: N = 2^18 rows (the vectors and the matrix fit the L2: the grid
 * barriers and sums are a large share of an iteration) and N = 2^22 (about
 * 740 MB of traffic an iteration: bandwidth-bound). About 7 nonzeros a row.
 *
 * What a row's time is: a launch runs a fixed K iterations (.fixed = 1: no
 * residual test, every launch the same work); the time per iteration is
 * (T(K) - T(0)) / K, T the median time of a launch (wl_time_ms_blocked:
 * the host's launch work hidden), T(0) the same launch with no iteration
 * (the setup pass and one grid sum), so neither the launch nor the setup
 * counts. K = 100 (20 with --quick): the residual passes 1e-10 |b| after
 * about 30 iterations and keeps shrinking by ~5x an iteration, far from
 * underflow at 100.
 *
 * Checks, in a separate launch of the same kernels and the same K: the
 * iteration count is K; x of cgc against x of C++ CG (max |diff| <= 1e-9 |b|;
 * expected bit-identical, the note says whether it was); each solve passed
 * |r| <= 1e-10 |b| (the iteration it did so is in the note); the true
 * residual |b - A x| of both, computed on the host, <= 1.1e-10 |b| (the
 * bound argued in examples/conjugate_gradient.cu). Anything else: WRONG,
 * with the first differing element.
 *
 * Info rows (probes; their numbers mean nothing, only their times):
 *   "no grid sync": every grid sync left out (vectors + block reductions);
 *   "grid sums only, n = 0": the three grid sums and the p-sync of an
 *     iteration with no vector work;
 *   "grid syncs only, n = 0": the four grid barriers of an iteration alone.
 * Together they say where an iteration's time goes and which part of it is
 * cgc's (the grid barrier, the tile reductions) against C++ CG's.
 *
 *   wl_cg_solver [--csv PATH] [--quick] [--repeats R] [--list]
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/workloads/wl.h"
#include "cg/cg.h"
#include "examples/conjugate_gradient.cuh"

/* --- the kernels: the example's bodies, one kernel per mode ---------------------- */

__global__ void k_cgc_solve(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SOLVE); }
__global__ void k_cpp_solve(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SOLVE); }
__global__ void k_cgc_no_grid_sync(cgs_problem_t P) { cgs_cgc_solve(P, CGS_NO_GRID_SYNC); }
__global__ void k_cpp_no_grid_sync(cgs_problem_t P) { cgs_cpp_solve(P, CGS_NO_GRID_SYNC); }
__global__ void k_cgc_sync_only(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SYNC_ONLY); }
__global__ void k_cpp_sync_only(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SYNC_ONLY); }

#define CGW_OP "workload: CG solver iteration"
#define CGW_TOL 1e-10
#define CGW_K 100       /* iterations a timed launch runs */
#define CGW_K_QUICK 20

/* --- one launch of one kernel ------------------------------------------------------ */

typedef struct cgw_launch {
    const void *kernel;
    int cgc;         /* 1: cg_launch; 0: cudaLaunchCooperativeKernel */
    uint32_t blocks;
    cgs_problem_t P; /* by value: the kernel's one argument */
} cgw_launch_t;

static cudaError_t cgw_launch(void *ctx)
{
    cgw_launch_t *l = (cgw_launch_t *)ctx;
    void *args[] = {(void *)&l->P};
    if (l->cgc) {
        cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
        cfg.grid.x = l->blocks;
        cfg.block.x = CGS_BLOCK;
        cfg.cooperative = 1;
        const cg_status_t st = cg_launch(&cfg, l->kernel, args);
        if (st != CG_SUCCESS) {
            fprintf(stderr, "wl_cg_solver: cg_launch (%u blocks): %s: %s\n", l->blocks, cg_status_string(st),
                    cg_last_error_detail());
            return cudaErrorLaunchFailure;
        }
        return cudaSuccess;
    }
    return cudaLaunchCooperativeKernel(l->kernel, dim3(l->blocks), dim3(CGS_BLOCK), args, 0, 0);
}

/* ns per iteration: (T(K) - T(0)) / K; negative after an error. */
static double cgw_per_iter_ns(wl_opts_t *o, cgw_launch_t *l, int K, double *t_k_ms)
{
    l->P.fixed = 1;
    l->P.max_iter = K;
    const float tk = wl_time_ms_blocked(o, cgw_launch, l);
    l->P.max_iter = 0;
    const float t0 = wl_time_ms_blocked(o, cgw_launch, l);
    l->P.max_iter = K;
    if (tk < 0 || t0 < 0)
        return -1.0;
    if (t_k_ms)
        *t_k_ms = tk;
    return ((double)tk - (double)t0) * 1e6 / K;
}

/* --- the system on the device ------------------------------------------------------ */

typedef struct cgw_dev {
    int *rowptr, *col, *iters, *conv;
    double *val, *b, *x, *r, *p, *ap, *partial, *rr;
} cgw_dev_t;

static void cgw_free(cgw_dev_t *d)
{
    cudaFree(d->rowptr);
    cudaFree(d->col);
    cudaFree(d->iters);
    cudaFree(d->conv);
    cudaFree(d->val);
    cudaFree(d->b);
    cudaFree(d->x);
    cudaFree(d->r);
    cudaFree(d->p);
    cudaFree(d->ap);
    cudaFree(d->partial);
    cudaFree(d->rr);
    memset(d, 0, sizeof *d);
}

/* Device copies of sys and the solver's vectors, partial slots for up to
 * max_blocks blocks. 0, or -1 after a CUDA error (counted in o). */
static int cgw_upload(wl_opts_t *o, const cgs_system_t *sys, uint32_t max_blocks, cgw_dev_t *d)
{
    const size_t vb = sizeof(double) * (size_t)sys->n;
    memset(d, 0, sizeof *d);
    if (WL_CHECK(o, cudaMalloc((void **)&d->rowptr, sizeof(int) * ((size_t)sys->n + 1))) ||
        WL_CHECK(o, cudaMalloc((void **)&d->col, sizeof(int) * (size_t)sys->nnz)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->val, sizeof(double) * (size_t)sys->nnz)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->b, vb)) || WL_CHECK(o, cudaMalloc((void **)&d->x, vb)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->r, vb)) || WL_CHECK(o, cudaMalloc((void **)&d->p, vb)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->ap, vb)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->partial, sizeof(double) * 2 * max_blocks)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->iters, sizeof(int))) ||
        WL_CHECK(o, cudaMalloc((void **)&d->conv, sizeof(int))) ||
        WL_CHECK(o, cudaMalloc((void **)&d->rr, sizeof(double))) ||
        WL_CHECK(o, cudaMemcpy(d->rowptr, sys->rowptr, sizeof(int) * ((size_t)sys->n + 1), cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->col, sys->col, sizeof(int) * (size_t)sys->nnz, cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->val, sys->val, sizeof(double) * (size_t)sys->nnz, cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->b, sys->b, vb, cudaMemcpyHostToDevice))) {
        cgw_free(d);
        return -1;
    }
    return 0;
}

static cgs_problem_t cgw_problem(const cgw_dev_t *d, int n, int K)
{
    cgs_problem_t P;
    P.rowptr = d->rowptr;
    P.col = d->col;
    P.val = d->val;
    P.b = d->b;
    P.x = d->x;
    P.r = d->r;
    P.p = d->p;
    P.ap = d->ap;
    P.partial = d->partial;
    P.n = n;
    P.max_iter = K;
    P.fixed = 1;
    P.tol = CGW_TOL;
    P.iters = d->iters;
    P.rr = d->rr;
    P.conv = d->conv;
    return P;
}

/* --- the check: a separate launch of each kernel ---------------------------------- */

typedef struct cgw_result {
    int iters, conv;
    double rr;
} cgw_result_t;

/* Launch l once (x, r, p, ap and the outputs poisoned first), copy x to
 * hx. 0, or -1 after a CUDA error. */
static int cgw_run_once(wl_opts_t *o, cgw_launch_t *l, const cgw_dev_t *d, int n, double *hx, cgw_result_t *res)
{
    const size_t vb = sizeof(double) * (size_t)n;
    if (WL_CHECK(o, cudaMemset(d->x, 0xff, vb)) || WL_CHECK(o, cudaMemset(d->r, 0xff, vb)) ||
        WL_CHECK(o, cudaMemset(d->p, 0xff, vb)) || WL_CHECK(o, cudaMemset(d->ap, 0xff, vb)) ||
        WL_CHECK(o, cudaMemset(d->iters, 0xff, sizeof(int))) || WL_CHECK(o, cudaMemset(d->conv, 0xff, sizeof(int))) ||
        WL_CHECK(o, cudaMemset(d->rr, 0xff, sizeof(double))) || WL_CHECK(o, cgw_launch(l)) ||
        WL_CHECK(o, cudaDeviceSynchronize()) || WL_CHECK(o, cudaMemcpy(hx, d->x, vb, cudaMemcpyDeviceToHost)) ||
        WL_CHECK(o, cudaMemcpy(&res->iters, d->iters, sizeof(int), cudaMemcpyDeviceToHost)) ||
        WL_CHECK(o, cudaMemcpy(&res->conv, d->conv, sizeof(int), cudaMemcpyDeviceToHost)) ||
        WL_CHECK(o, cudaMemcpy(&res->rr, d->rr, sizeof(double), cudaMemcpyDeviceToHost)))
        return -1;
    return 0;
}

/* Checks the two solves of K fixed iterations; 0 when right, else 1 with
 * `why` saying what differed. `same` says whether x was bit-identical. */
static int cgw_check(const cgs_system_t *sys, int K, const double *x_cgc, const double *x_cpp, const cgw_result_t *rc,
                     const cgw_result_t *rp, double *scratch, int *same, double *rel_res, char *why, size_t why_len)
{
    const int n = sys->n;
    double bb = 0.0;
    for (int i = 0; i < n; ++i)
        bb += sys->b[i] * sys->b[i];
    const double nb = sqrt(bb);
    const cgw_result_t *r2[2] = {rc, rp};
    const char *who[2] = {"cgc", "C++ CG"};
    for (int v = 0; v < 2; ++v) {
        if (r2[v]->iters != K) {
            snprintf(why, why_len, "%s ran %d iterations, want %d", who[v], r2[v]->iters, K);
            return 1;
        }
        if (r2[v]->conv < 1 || r2[v]->conv > K) {
            snprintf(why, why_len, "%s: |r| never reached %g |b| in %d iterations (conv = %d, final |r| = %g, |b| = %g)",
                     who[v], CGW_TOL, K, r2[v]->conv, sqrt(r2[v]->rr), nb);
            return 1;
        }
    }
    if (abs(rc->conv - rp->conv) > 1) {
        snprintf(why, why_len, "|r| <= %g |b| at iteration %d (cgc) and %d (C++ CG)", CGW_TOL, rc->conv, rp->conv);
        return 1;
    }
    for (int i = 0; i < n; ++i)
        if (!(fabs(x_cgc[i] - x_cpp[i]) <= 1e-9 * nb)) {
            snprintf(why, why_len, "x[%d]: cgc %.17g, C++ CG %.17g (|b| = %g, bound 1e-9 |b|)", i, x_cgc[i], x_cpp[i],
                     nb);
            return 1;
        }
    *same = memcmp(x_cgc, x_cpp, sizeof(double) * (size_t)n) == 0;
    for (int v = 0; v < 2; ++v) {
        const double e = cgs_residual(sys, v == 0 ? x_cgc : x_cpp, scratch);
        if (!(e <= 1.1 * CGW_TOL * nb)) {
            snprintf(why, why_len, "%s's x: |b - A x| = %g, want <= %g (|b| = %g)", who[v], e, 1.1 * CGW_TOL * nb, nb);
            return 1;
        }
        if (v == 0)
            *rel_res = e / nb;
    }
    return 0;
}

/* --- rows ---------------------------------------------------------------------------- */

static const char *cgw_size_name(int log2n, char *buf, size_t len)
{
    snprintf(buf, len, "N = 2^%d", log2n);
    return buf;
}

/* The blocks of a launch at bps blocks per SM, or 0 (with `why`) when a
 * kernel cannot hold them co-resident. */
static uint32_t cgw_blocks(wl_opts_t *o, int bps, int sms, const void *cgc_kernel, const void *cpp_kernel, char *why,
                           size_t why_len)
{
    uint32_t coop = 0;
    int per_sm = 0;
    const cg_status_t st = cg_max_cooperative_blocks(cgc_kernel, CGS_BLOCK, 0, &coop);
    if (st != CG_SUCCESS) {
        snprintf(why, why_len, "cg_max_cooperative_blocks: %s: %s", cg_status_string(st), cg_last_error_detail());
        return 0;
    }
    if (WL_CHECK(o, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cpp_kernel, CGS_BLOCK, 0)))
        return 0;
    const uint32_t want = (uint32_t)(bps * sms);
    if (coop < want || per_sm < bps) {
        snprintf(why, why_len, "%d blocks/SM do not fit co-resident (cgc %u blocks, C++ %d/SM)", bps, coop, per_sm);
        return 0;
    }
    return want;
}

static void cgw_skip_row(wl_opts_t *o, FILE *csv, const char *op, const char *config, const char *why)
{
    wl_row_t row;
    memset(&row, 0, sizeof row);
    row.op = op;
    row.config = config;
    row.cgc_what = "cgc";
    row.anc_what = "C++ CG";
    row.note = why;
    wl_row(o, csv, &row);
}

static void cgw_list(int quick)
{
    const int sizes[2] = {quick ? 14 : 18, quick ? 16 : 22};
    for (int s = 0; s < 2; ++s)
        for (int bps = 1; bps <= 2; ++bps) {
            printf("%s | N = 2^%d, %d block%s/SM | target <=%.2f\n", CGW_OP, sizes[s], bps, bps > 1 ? "s" : "",
                   s == 0 ? 0.90 : 1.00);
            printf("%s (probe: no grid sync) | N = 2^%d, %d block%s/SM | info\n", CGW_OP, sizes[s], bps, bps > 1 ? "s" : "");
        }
    for (int bps = 1; bps <= 2; ++bps) {
        printf("%s (probe: grid sums only, n = 0) | %d block%s/SM | info\n", CGW_OP, bps, bps > 1 ? "s" : "");
        printf("%s (probe: grid syncs only, n = 0) | %d block%s/SM | info\n", CGW_OP, bps, bps > 1 ? "s" : "");
    }
}

int main(int argc, char **argv)
{
    wl_list_if_asked(argc, argv, cgw_list);
    wl_opts_t o = wl_parse(argc, argv, "wl_cg_solver");
    FILE *csv = wl_open_csv(&o);
    const int K = o.quick ? CGW_K_QUICK : CGW_K;
    const int sizes[2] = {o.quick ? 14 : 18, o.quick ? 16 : 22};
    const double targets[2] = {0.90, 1.00};
    int dev = 0, sms = 0;
    if (WL_CHECK(&o, cudaGetDevice(&dev)) ||
        WL_CHECK(&o, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)))
        return wl_exit(&o);
    printf("# wl_cg_solver: %d-thread blocks, %d timed iterations a launch, time per iteration = (T(%d) - T(0)) / %d, "
           "median of %d\n",
           CGS_BLOCK, K, K, K, o.repeats);
    printf("%-44s %-28s %10s %10s %7s %7s %-5s %s\n", "operation", "config", "cgc_ns", "anchor_ns", "ratio", "target",
           "verd", "note");

    cgs_system_t sys = {0, 0, NULL, NULL, NULL, NULL};
    cgw_dev_t d;
    memset(&d, 0, sizeof d);
    for (int s = 0; s < 2; ++s) {
        const int n = 1 << sizes[s];
        uint64_t seed = 0x243f6a8885a308d3ull ^ (uint64_t)n, rng = seed;
        char size_name[32], config[64], note[512], why[384];
        cgw_size_name(sizes[s], size_name, sizeof size_name);
        cgs_free_system(&sys);
        cgw_free(&d);
        double *hx[3] = {(double *)malloc(sizeof(double) * n), (double *)malloc(sizeof(double) * n),
                         (double *)malloc(sizeof(double) * n)};
        if (!hx[0] || !hx[1] || !hx[2] || cgs_make_system(n, &rng, &sys) != 0 ||
            cgw_upload(&o, &sys, (uint32_t)(2 * sms), &d) != 0) {
            fprintf(stderr, "wl_cg_solver: %s: allocation failed\n", size_name);
            ++o.errors;
            free(hx[0]);
            free(hx[1]);
            free(hx[2]);
            continue;
        }
        /* traffic model of one iteration: every array read or written once a
         * pass (the gathers of p counted once, as if the L2 served the rest) */
        const double bytes = 92.0 * n + 12.0 * sys.nnz;
        for (int bps = 1; bps <= 2; ++bps) {
            snprintf(config, sizeof config, "%s, %d block%s/SM", size_name, bps, bps > 1 ? "s" : "");
            const uint32_t blocks = cgw_blocks(&o, bps, sms, (const void *)k_cgc_solve, (const void *)k_cpp_solve,
                                               why, sizeof why);
            if (!blocks) {
                cgw_skip_row(&o, csv, CGW_OP, config, why);
                continue;
            }
            cgw_launch_t lc = {(const void *)k_cgc_solve, 1, blocks, cgw_problem(&d, n, K)};
            cgw_launch_t lp = {(const void *)k_cpp_solve, 0, blocks, cgw_problem(&d, n, K)};

            /* the check: one launch of each, same K, same system */
            cgw_result_t rc, rp;
            int same = 0, wrong = 0;
            double rel_res = 0.0;
            if (cgw_run_once(&o, &lc, &d, n, hx[0], &rc) != 0 || cgw_run_once(&o, &lp, &d, n, hx[1], &rp) != 0) {
                cgw_skip_row(&o, csv, CGW_OP, config, "a CUDA error in the check launch (stderr)");
                continue;
            }
            wrong = cgw_check(&sys, K, hx[0], hx[1], &rc, &rp, hx[2], &same, &rel_res, why, sizeof why);

            /* the timed launches */
            double tk_c = 0, tk_p = 0;
            const double ns_c = cgw_per_iter_ns(&o, &lc, K, &tk_c), ns_p = cgw_per_iter_ns(&o, &lp, K, &tk_p);
            wl_row_t row;
            memset(&row, 0, sizeof row);
            row.op = CGW_OP;
            row.config = config;
            row.cgc_what = "cgc (cg_grid_sync, cg_tile_reduce_f64)";
            row.anc_what = "C++ CG (grid.sync, cg::reduce)";
            row.cgc_ns = ns_c;
            row.anc_ns = ns_p;
            row.max_ratio = targets[s];
            row.min_speedup = 1.0 / targets[s];
            row.wrong = wrong;
            if (wrong)
                snprintf(note, sizeof note, "WRONG: %s", why);
            else
                snprintf(note, sizeof note,
                         "%u x %d threads; %.0f / %.0f GB/s (model: 92 B/row + 12 B/nonzero, %d nonzeros); "
                         "%.0f / %.0f k iterations/s; %d iterations a launch (T(%d) = %.3f / %.3f ms), |r| <= 1e-10 "
                         "|b| at iteration %d; x %s; |b - A x| / |b| = %.2g",
                         blocks, CGS_BLOCK, ns_c > 0 ? bytes / ns_c : 0.0, ns_p > 0 ? bytes / ns_p : 0.0, sys.nnz,
                         ns_c > 0 ? 1e6 / ns_c : 0.0, ns_p > 0 ? 1e6 / ns_p : 0.0, K, K, tk_c, tk_p, rc.conv,
                         same ? "bit-identical" : "within 1e-9 |b|", rel_res);
            row.note = note;
            wl_row(&o, csv, &row);

            /* probe: the same iteration without its grid syncs */
            cgw_launch_t nc = {(const void *)k_cgc_no_grid_sync, 1, blocks, cgw_problem(&d, n, K)};
            cgw_launch_t np = {(const void *)k_cpp_no_grid_sync, 0, blocks, cgw_problem(&d, n, K)};
            const double pn_c = cgw_per_iter_ns(&o, &nc, K, NULL), pn_p = cgw_per_iter_ns(&o, &np, K, NULL);
            memset(&row, 0, sizeof row);
            row.op = CGW_OP " (probe: no grid sync)";
            row.config = config;
            row.cgc_what = "cgc, grid syncs left out";
            row.anc_what = "C++ CG, grid syncs left out";
            row.cgc_ns = pn_c;
            row.anc_ns = pn_p;
            snprintf(note, sizeof note,
                     "vector passes + block reductions only (results meaningless); the grid syncs' share of the "
                     "solver row: cgc %.0f ns, C++ %.0f ns",
                     ns_c - pn_c, ns_p - pn_p);
            row.note = note;
            wl_row(&o, csv, &row);
        }
        free(hx[0]);
        free(hx[1]);
        free(hx[2]);
    }

    /* probes with no vector work (n = 0): the grid sums, the bare barriers */
    for (int bps = 1; bps <= 2 && d.partial; ++bps) {
        char config[64], note[256], why[384];
        snprintf(config, sizeof config, "%d block%s/SM", bps, bps > 1 ? "s" : "");
        const uint32_t blocks =
            cgw_blocks(&o, bps, sms, (const void *)k_cgc_sync_only, (const void *)k_cpp_sync_only, why, sizeof why);
        if (!blocks) {
            cgw_skip_row(&o, csv, CGW_OP " (probe: grid syncs only, n = 0)", config, why);
            continue;
        }
        cgw_launch_t sc = {(const void *)k_cgc_solve, 1, blocks, cgw_problem(&d, 0, K)};
        cgw_launch_t sp = {(const void *)k_cpp_solve, 0, blocks, cgw_problem(&d, 0, K)};
        const double s_c = cgw_per_iter_ns(&o, &sc, K, NULL), s_p = cgw_per_iter_ns(&o, &sp, K, NULL);
        wl_row_t row;
        memset(&row, 0, sizeof row);
        row.op = CGW_OP " (probe: grid sums only, n = 0)";
        row.config = config;
        row.cgc_what = "cgc: 3 grid sums + 1 grid sync";
        row.anc_what = "C++ CG: the same";
        row.cgc_ns = s_c;
        row.anc_ns = s_p;
        snprintf(note, sizeof note, "%u x %d threads; tile + block reductions, slot writes and reads, 4 grid barriers",
                 blocks, CGS_BLOCK);
        row.note = note;
        wl_row(&o, csv, &row);

        cgw_launch_t bc = {(const void *)k_cgc_sync_only, 1, blocks, cgw_problem(&d, 0, K)};
        cgw_launch_t bp = {(const void *)k_cpp_sync_only, 0, blocks, cgw_problem(&d, 0, K)};
        const double b_c = cgw_per_iter_ns(&o, &bc, K, NULL), b_p = cgw_per_iter_ns(&o, &bp, K, NULL);
        memset(&row, 0, sizeof row);
        row.op = CGW_OP " (probe: grid syncs only, n = 0)";
        row.config = config;
        row.cgc_what = "cgc: 4 cg_grid_sync";
        row.anc_what = "C++ CG: 4 grid.sync()";
        row.cgc_ns = b_c;
        row.anc_ns = b_p;
        snprintf(note, sizeof note, "%u x %d threads; the reductions' share of the grid-sums probe: cgc %.0f ns, "
                                    "C++ %.0f ns",
                 blocks, CGS_BLOCK, s_c - b_c, s_p - b_p);
        row.note = note;
        wl_row(&o, csv, &row);
    }
    cgs_free_system(&sys);
    cgw_free(&d);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}
