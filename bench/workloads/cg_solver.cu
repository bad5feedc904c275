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
 * (T(K) - T(0)) / K, T the median time of a launch (the host's launch work
 * hidden behind a blocking kernel), T(0) the same launch with no iteration
 * (the setup pass and one grid sum), so neither the launch nor the setup
 * counts. K = 100 (20 with --quick): the residual passes 1e-10 |b| after
 * about 30 iterations and keeps shrinking by ~5x an iteration, far from
 * underflow at 100.
 *
 * Interleaved (wl_time_ms_blocked_n): the kernels compared in one row (and
 * the hybrids below) are timed in one series, each round launching every
 * one at 0 iterations, then every one at K, so a drift of the clocks or of
 * the L2 over the series falls on all of them alike. Each kernel has its own
 * vectors (x, r, p, Ap, the sum slots, the outputs), so what one launch
 * leaves is not overwritten by another kernel's.
 *
 * Checks, of what the LAST TIMED launch of each kernel left (its vectors are
 * poisoned before the series; every launch of the series rewrites them, a
 * 0-iteration launch leaving x = 0): the iteration count is K; x of cgc
 * against x of C++ CG (max |diff| <= 1e-9 |b|; expected bit-identical, the
 * note says whether it was); each solve passed |r| <= 1e-10 |b| (the
 * iteration it did so is in the note); the true residual |b - A x| of both,
 * computed on the host, <= 1.1e-10 |b| (the bound argued in
 * examples/conjugate_gradient.cu). Anything else: WRONG, with the first
 * differing element; the binary then exits 3.
 *
 * Info rows (probes), each against the C++ CG solver of the same series:
 *   "hybrid: cgc body, C++ grid.sync()": the cgc kernel with every grid
 *     barrier C++ CG's (CGS_SWAP_GRID_SYNC);
 *   "hybrid: C++ body, cg_grid_sync": the C++ kernel with every grid barrier
 *     cgc's. Built to split cgc's difference from C++ CG into the barrier's
 *     share and the body's; the 2026-11-28 run showed they do not: swapping
 *     the barrier also changed ptxas's schedule of the A p loop (both hybrids
 *     got the same one, between the two solvers', and timed alike), so the
 *     split is the schedule's, not the barrier's (docs/design/workloads.md).
 *     They are solvers: checked as the solver row is (x against C++ CG's,
 *     the residual).
 *   "vector passes shared": both solvers with their three vector passes as
 *     calls of one non-inlined copy (CGS_SHARED_PASSES: the same machine
 *     code in both kernels), timed in a series of their own; what is left
 *     between them is the grid sums and barriers. The 2026-11-28 SASS had
 *     ptxas schedule the inlined A p loop differently in each kernel (2
 *     dependent load round trips per 4 nonzeros in cgc's, 5 in C++ CG's);
 *     this row says how much of the solver row's gain that schedule is.
 *     Solvers: checked as the solver row is, against the C++ CG solver's x;
 *   "no grid sync": every grid sync left out (vectors + block reductions;
 *     the numbers mean nothing, only the iteration count is checked);
 *   "grid sums only, n = 0": the two grid sums and the p-sync of an
 *     iteration with no vector work (3 grid barriers);
 *   "grid syncs only, n = 0": the 3 grid barriers of an iteration alone.
 * Together they say where an iteration's time goes and which part of it is
 * cgc's (the grid barrier, the tile reductions) against C++ CG's; the SASS of
 * the kernels comes from tools/gpu/run.sh with
 * CGC_SASS="wl_cg_solver:k_(cgc|cpp)_solve" (docs/design/workloads.md).
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
__global__ void k_cgc_body_cpp_sync(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SOLVE | CGS_SWAP_GRID_SYNC); }
__global__ void k_cpp_body_cgc_sync(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SOLVE | CGS_SWAP_GRID_SYNC); }
__global__ void k_cgc_no_grid_sync(cgs_problem_t P) { cgs_cgc_solve(P, CGS_NO_GRID_SYNC); }
__global__ void k_cpp_no_grid_sync(cgs_problem_t P) { cgs_cpp_solve(P, CGS_NO_GRID_SYNC); }
__global__ void k_cgc_sync_only(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SYNC_ONLY); }
__global__ void k_cpp_sync_only(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SYNC_ONLY); }
__global__ void k_cgc_shared_passes(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SOLVE | CGS_SHARED_PASSES); }
__global__ void k_cpp_shared_passes(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SOLVE | CGS_SHARED_PASSES); }

#define CGW_OP "workload: CG solver iteration"
#define CGW_TOL 1e-10
#define CGW_K 100       /* iterations a timed launch runs */
#define CGW_K_QUICK 20

/* The solvers of one series: index = whose vectors (cgw_vecs_t) they use. */
enum { CGW_CGC, CGW_CPP, CGW_HYB_CGC_BODY, CGW_HYB_CPP_BODY, CGW_SOLVERS };
static const char *const k_cgw_who[CGW_SOLVERS] = {"cgc", "C++ CG", "cgc body + grid.sync()",
                                                  "C++ body + cg_grid_sync"};

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

/* Times the nv launches l[] in one interleaved series (each round: every one
 * at 0 iterations, then every one at K; wl_time_ms_blocked_n), so the last
 * timed launch of each is a K-iteration one. ns[v] = (T(K) - T(0)) / K per
 * iteration, tk_ms[v] = T(K). 0, or -1 after a CUDA error. */
static int cgw_time(wl_opts_t *o, cgw_launch_t *l, int nv, int K, double *ns, double *tk_ms)
{
    cgw_launch_t zero[CGW_SOLVERS];
    wl_launch_fn fns[2 * CGW_SOLVERS];
    void *ctx[2 * CGW_SOLVERS];
    float ms[2 * CGW_SOLVERS];
    if (nv > CGW_SOLVERS)
        return -1;
    for (int v = 0; v < nv; ++v) {
        l[v].P.fixed = 1;
        l[v].P.max_iter = K;
        zero[v] = l[v];
        zero[v].P.max_iter = 0;
        fns[v] = fns[nv + v] = cgw_launch;
        ctx[v] = &zero[v];
        ctx[nv + v] = &l[v];
    }
    if (wl_time_ms_blocked_n(o, 2 * nv, fns, ctx, ms) != 0)
        return -1;
    for (int v = 0; v < nv; ++v) {
        ns[v] = ((double)ms[nv + v] - (double)ms[v]) * 1e6 / K;
        if (tk_ms)
            tk_ms[v] = ms[nv + v];
    }
    return 0;
}

/* --- the system and the solvers' vectors on the device -------------------------- */

typedef struct cgw_sys_dev {
    int *rowptr, *col;
    double *val, *b;
} cgw_sys_dev_t;

/* One solver's vectors and outputs (each solver of a series its own). */
typedef struct cgw_vecs {
    int *iters, *conv;
    double *x, *r, *p, *ap, *partial, *rr;
} cgw_vecs_t;

static void cgw_free_all(void *const *bufs, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        cudaFree(bufs[i]);
}

static void cgw_free_sys(cgw_sys_dev_t *d)
{
    void *const bufs[] = {d->rowptr, d->col, d->val, d->b};
    cgw_free_all(bufs, sizeof bufs / sizeof bufs[0]);
    memset(d, 0, sizeof *d);
}

static void cgw_free_vecs(cgw_vecs_t *v)
{
    void *const bufs[] = {v->iters, v->conv, v->x, v->r, v->p, v->ap, v->partial, v->rr};
    cgw_free_all(bufs, sizeof bufs / sizeof bufs[0]);
    memset(v, 0, sizeof *v);
}

/* Device copies of sys. 0, or -1 after a CUDA error (counted in o). */
static int cgw_upload(wl_opts_t *o, const cgs_system_t *sys, cgw_sys_dev_t *d)
{
    memset(d, 0, sizeof *d);
    if (WL_CHECK(o, cudaMalloc((void **)&d->rowptr, sizeof(int) * ((size_t)sys->n + 1))) ||
        WL_CHECK(o, cudaMalloc((void **)&d->col, sizeof(int) * (size_t)sys->nnz)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->val, sizeof(double) * (size_t)sys->nnz)) ||
        WL_CHECK(o, cudaMalloc((void **)&d->b, sizeof(double) * (size_t)sys->n)) ||
        WL_CHECK(o, cudaMemcpy(d->rowptr, sys->rowptr, sizeof(int) * ((size_t)sys->n + 1), cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->col, sys->col, sizeof(int) * (size_t)sys->nnz, cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->val, sys->val, sizeof(double) * (size_t)sys->nnz, cudaMemcpyHostToDevice)) ||
        WL_CHECK(o, cudaMemcpy(d->b, sys->b, sizeof(double) * (size_t)sys->n, cudaMemcpyHostToDevice))) {
        cgw_free_sys(d);
        return -1;
    }
    return 0;
}

/* Vectors of n doubles and sum slots for max_blocks blocks. 0, or -1. */
static int cgw_alloc_vecs(wl_opts_t *o, int n, uint32_t max_blocks, cgw_vecs_t *v)
{
    const size_t vb = sizeof(double) * (size_t)n;
    memset(v, 0, sizeof *v);
    if (WL_CHECK(o, cudaMalloc((void **)&v->x, vb)) || WL_CHECK(o, cudaMalloc((void **)&v->r, vb)) ||
        WL_CHECK(o, cudaMalloc((void **)&v->p, vb)) || WL_CHECK(o, cudaMalloc((void **)&v->ap, vb)) ||
        WL_CHECK(o, cudaMalloc((void **)&v->partial, sizeof(double) * 2 * max_blocks)) ||
        WL_CHECK(o, cudaMalloc((void **)&v->iters, sizeof(int))) ||
        WL_CHECK(o, cudaMalloc((void **)&v->conv, sizeof(int))) ||
        WL_CHECK(o, cudaMalloc((void **)&v->rr, sizeof(double)))) {
        cgw_free_vecs(v);
        return -1;
    }
    return 0;
}

static cgs_problem_t cgw_problem(const cgw_sys_dev_t *d, const cgw_vecs_t *v, int n, int K)
{
    cgs_problem_t P;
    P.rowptr = d->rowptr;
    P.col = d->col;
    P.val = d->val;
    P.b = d->b;
    P.x = v->x;
    P.r = v->r;
    P.p = v->p;
    P.ap = v->ap;
    P.partial = v->partial;
    P.n = n;
    P.max_iter = K;
    P.fixed = 1;
    P.tol = CGW_TOL;
    P.iters = v->iters;
    P.rr = v->rr;
    P.conv = v->conv;
    return P;
}

/* --- the checks: of what the last timed launch left ------------------------------- */

typedef struct cgw_result {
    int iters, conv;
    double rr;
} cgw_result_t;

/* Poisons v's first n elements and its outputs. 0, or -1. */
static int cgw_poison(wl_opts_t *o, const cgw_vecs_t *v, int n)
{
    const size_t vb = sizeof(double) * (size_t)n;
    if (WL_CHECK(o, cudaMemset(v->x, 0xff, vb)) || WL_CHECK(o, cudaMemset(v->r, 0xff, vb)) ||
        WL_CHECK(o, cudaMemset(v->p, 0xff, vb)) || WL_CHECK(o, cudaMemset(v->ap, 0xff, vb)) ||
        WL_CHECK(o, cudaMemset(v->iters, 0xff, sizeof(int))) || WL_CHECK(o, cudaMemset(v->conv, 0xff, sizeof(int))) ||
        WL_CHECK(o, cudaMemset(v->rr, 0xff, sizeof(double))))
        return -1;
    return 0;
}

/* Copies what the last launch on v left: x (n doubles, into hx unless
 * NULL) and the outputs. 0, or -1 after a CUDA error. */
static int cgw_read(wl_opts_t *o, const cgw_vecs_t *v, int n, double *hx, cgw_result_t *res)
{
    if (WL_CHECK(o, cudaDeviceSynchronize()) ||
        (hx && WL_CHECK(o, cudaMemcpy(hx, v->x, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost))) ||
        WL_CHECK(o, cudaMemcpy(&res->iters, v->iters, sizeof(int), cudaMemcpyDeviceToHost)) ||
        WL_CHECK(o, cudaMemcpy(&res->conv, v->conv, sizeof(int), cudaMemcpyDeviceToHost)) ||
        WL_CHECK(o, cudaMemcpy(&res->rr, v->rr, sizeof(double), cudaMemcpyDeviceToHost)))
        return -1;
    return 0;
}

/* Checks two solves of K fixed iterations, `who[0]`'s x (xa, ra) against
 * `who[1]`'s (xb, rb); 0 when right, else 1 with `why` saying what differed.
 * `same` says whether x was bit-identical, rel_res is |b - A xa| / |b|. */
static int cgw_check(const cgs_system_t *sys, int K, const char *const who[2], const double *xa, const double *xb,
                     const cgw_result_t *ra, const cgw_result_t *rb, double *scratch, int *same, double *rel_res,
                     char *why, size_t why_len)
{
    const int n = sys->n;
    double bb = 0.0;
    for (int i = 0; i < n; ++i)
        bb += sys->b[i] * sys->b[i];
    const double nb = sqrt(bb);
    const cgw_result_t *r2[2] = {ra, rb};
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
    if (abs(ra->conv - rb->conv) > 1) {
        snprintf(why, why_len, "|r| <= %g |b| at iteration %d (%s) and %d (%s)", CGW_TOL, ra->conv, who[0], rb->conv,
                 who[1]);
        return 1;
    }
    for (int i = 0; i < n; ++i)
        if (!(fabs(xa[i] - xb[i]) <= 1e-9 * nb)) {
            snprintf(why, why_len, "x[%d]: %s %.17g, %s %.17g (|b| = %g, bound 1e-9 |b|)", i, who[0], xa[i], who[1],
                     xb[i], nb);
            return 1;
        }
    *same = memcmp(xa, xb, sizeof(double) * (size_t)n) == 0;
    for (int v = 0; v < 2; ++v) {
        const double e = cgs_residual(sys, v == 0 ? xa : xb, scratch);
        if (!(e <= 1.1 * CGW_TOL * nb)) {
            snprintf(why, why_len, "%s's x: |b - A x| = %g, want <= %g (|b| = %g)", who[v], e, 1.1 * CGW_TOL * nb, nb);
            return 1;
        }
        if (v == 0)
            *rel_res = e / nb;
    }
    return 0;
}

/* The probes' check: every kernel of the series left iters == K. 0, or 1
 * with `why`; -1 after a CUDA error. */
static int cgw_check_iters(wl_opts_t *o, const cgw_vecs_t *v, int nv, const char *const *who, int K, char *why,
                           size_t why_len)
{
    for (int k = 0; k < nv; ++k) {
        cgw_result_t r;
        if (cgw_read(o, &v[k], 0, NULL, &r) != 0)
            return -1;
        if (r.iters != K) {
            snprintf(why, why_len, "WRONG: %s's last timed launch ran %d iterations, want %d", who[k], r.iters, K);
            return 1;
        }
    }
    return 0;
}

/* --- rows ---------------------------------------------------------------------------- */

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

/* One row against C++ CG: cgc_ns / anc_ns, the target (0: info), the
 * check's verdict. The fields in wl_row_t's order. */
static void cgw_emit(wl_opts_t *o, FILE *csv, const char *op, const char *config, const char *cgc_what,
                     const char *anc_what, double cgc_ns, double anc_ns, double target, int wrong, const char *note)
{
    const wl_row_t row = {op,     config, cgc_what, anc_what, cgc_ns, anc_ns, target, target > 0 ? 1.0 / target : 0.0,
                          wrong, note};
    wl_row(o, csv, &row);
}

/* A row that could not run: SKIP, with its target kept (0: info), so that
 * tools/gpu/run.sh sees a row with a target that did not run. */
static void cgw_skip_row(wl_opts_t *o, FILE *csv, const char *op, const char *config, double target, const char *why)
{
    cgw_emit(o, csv, op, config, "cgc", "C++ CG", 0.0, 0.0, target, 0, why);
}

#define CGW_HYB_CGC_OP CGW_OP " (probe: hybrid, cgc body + C++ grid.sync())"
#define CGW_HYB_CPP_OP CGW_OP " (probe: hybrid, C++ body + cg_grid_sync)"
#define CGW_SHARED_OP CGW_OP " (probe: vector passes shared, one non-inlined copy)"
#define CGW_NOSYNC_OP CGW_OP " (probe: no grid sync)"
#define CGW_SUMS_OP CGW_OP " (probe: grid sums only, n = 0)"
#define CGW_SYNCS_OP CGW_OP " (probe: grid syncs only, n = 0)"

/* The shared-passes probe of one configuration: k_cgc_shared_passes and
 * k_cpp_shared_passes timed in one series on vecs[CGW_HYB_*] (the hybrids'
 * series is done), each checked as a solver against the C++ CG solver's x
 * (hx[CGW_CPP], of the solver series); hx[CGW_HYB_*] receive their x.
 * ns_solvers: the solver series' times, for the note. One row. */
static void cgw_shared_row(wl_opts_t *o, FILE *csv, const char *config, const cgs_system_t *sys,
                           const cgw_sys_dev_t *d, const cgw_vecs_t *vecs, uint32_t blocks, int K, double *const *hx,
                           const double *ns_solvers)
{
    const int n = sys->n, at[2] = {CGW_HYB_CGC_BODY, CGW_HYB_CPP_BODY};
    const char *const who[2] = {"cgc, shared passes", "C++ CG, shared passes"};
    cgw_launch_t l[2] = {{(const void *)k_cgc_shared_passes, 1, blocks, cgw_problem(d, &vecs[at[0]], n, K)},
                         {(const void *)k_cpp_shared_passes, 0, blocks, cgw_problem(d, &vecs[at[1]], n, K)}};
    cgw_result_t res[2], res_cpp;
    double t[2] = {0, 0};
    int bad = cgw_poison(o, &vecs[at[0]], n) != 0 || cgw_poison(o, &vecs[at[1]], n) != 0 ||
              cgw_time(o, l, 2, K, t, NULL) != 0;
    for (int v = 0; v < 2 && !bad; ++v)
        bad = cgw_read(o, &vecs[at[v]], n, hx[at[v]], &res[v]) != 0;
    bad = bad || cgw_read(o, &vecs[CGW_CPP], 0, NULL, &res_cpp) != 0;
    if (bad) {
        cgw_skip_row(o, csv, CGW_SHARED_OP, config, 0.0, "a CUDA error in the timed series (stderr)");
        return;
    }
    char why[384] = "", note[640];
    int same[2] = {0, 0}, wrong = 0;
    double rel_res[2] = {0, 0};
    for (int v = 0; v < 2 && !wrong; ++v) {
        const char *const pair[2] = {who[v], k_cgw_who[CGW_CPP]};
        wrong = cgw_check(sys, K, pair, hx[at[v]], hx[CGW_CPP], &res[v], &res_cpp, hx[CGW_SOLVERS], &same[v],
                          &rel_res[v], why, sizeof why);
    }
    if (wrong)
        snprintf(note, sizeof note, "WRONG: %s", why);
    else
        snprintf(note, sizeof note,
                 "own series; the solver row's series: cgc %.0f ns, C++ CG %.0f ns; here the vector passes are one "
                 "machine code in both kernels, so this ratio is the grid sums' and barriers' alone; x of both %s "
                 "the C++ CG solver's, |b - A x| / |b| = %.2g",
                 ns_solvers[CGW_CGC], ns_solvers[CGW_CPP],
                 same[0] && same[1] ? "bit-identical to" : "within 1e-9 |b| of", rel_res[0]);
    cgw_emit(o, csv, CGW_SHARED_OP, config, "cgc, vector passes shared", "C++ CG, vector passes shared", t[0], t[1],
             0.0, wrong, note);
}

static void cgw_list(int quick)
{
    const int sizes[2] = {quick ? 14 : 18, quick ? 16 : 22};
    for (int s = 0; s < 2; ++s)
        for (int bps = 1; bps <= 2; ++bps) {
            const char *pl = bps > 1 ? "s" : "";
            printf("%s | N = 2^%d, %d block%s/SM | target <=%.2f\n", CGW_OP, sizes[s], bps, pl, s == 0 ? 0.90 : 1.00);
            printf("%s | N = 2^%d, %d block%s/SM | info\n", CGW_HYB_CGC_OP, sizes[s], bps, pl);
            printf("%s | N = 2^%d, %d block%s/SM | info\n", CGW_HYB_CPP_OP, sizes[s], bps, pl);
            printf("%s | N = 2^%d, %d block%s/SM | info\n", CGW_SHARED_OP, sizes[s], bps, pl);
            printf("%s | N = 2^%d, %d block%s/SM | info\n", CGW_NOSYNC_OP, sizes[s], bps, pl);
        }
    for (int bps = 1; bps <= 2; ++bps) {
        printf("%s | %d block%s/SM | info\n", CGW_SUMS_OP, bps, bps > 1 ? "s" : "");
        printf("%s | %d block%s/SM | info\n", CGW_SYNCS_OP, bps, bps > 1 ? "s" : "");
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
           "median of %d, the kernels of a row interleaved; every solver's x and residual checked after its series\n",
           CGS_BLOCK, K, K, K, o.repeats);
    printf("%-44s %-28s %10s %10s %7s %7s %-5s %s\n", "operation", "config", "cgc_ns", "anchor_ns", "ratio", "target",
           "verd", "note");

    const void *solver_kernel[CGW_SOLVERS] = {(const void *)k_cgc_solve, (const void *)k_cpp_solve,
                                              (const void *)k_cgc_body_cpp_sync, (const void *)k_cpp_body_cgc_sync};
    const int solver_cgc_launch[CGW_SOLVERS] = {1, 0, 1, 0}; /* the body's side launches it */

    /* every solver its own vectors, sized for the larger N */
    cgw_vecs_t vecs[CGW_SOLVERS];
    memset(vecs, 0, sizeof vecs);
    int have_vecs = 1;
    for (int v = 0; v < CGW_SOLVERS && have_vecs; ++v)
        have_vecs = cgw_alloc_vecs(&o, 1 << sizes[1], (uint32_t)(2 * sms), &vecs[v]) == 0;
    if (!have_vecs) {
        fprintf(stderr, "wl_cg_solver: allocation of the solvers' vectors failed\n");
        for (int v = 0; v < CGW_SOLVERS; ++v)
            cgw_free_vecs(&vecs[v]);
        return wl_exit(&o);
    }

    cgs_system_t sys = {0, 0, NULL, NULL, NULL, NULL};
    cgw_sys_dev_t d;
    memset(&d, 0, sizeof d);
    for (int s = 0; s < 2; ++s) {
        const int n = 1 << sizes[s];
        uint64_t seed = 0x243f6a8885a308d3ull ^ (uint64_t)n, rng = seed;
        char config[64], note[640], why[384];
        cgs_free_system(&sys);
        cgw_free_sys(&d);
        double *hx[CGW_SOLVERS + 1];
        int have_hx = 1;
        for (int v = 0; v <= CGW_SOLVERS; ++v)
            have_hx &= (hx[v] = (double *)malloc(sizeof(double) * n)) != NULL;
        if (!have_hx || cgs_make_system(n, &rng, &sys) != 0 || cgw_upload(&o, &sys, &d) != 0) {
            fprintf(stderr, "wl_cg_solver: N = 2^%d: allocation failed\n", sizes[s]);
            ++o.errors;
            for (int v = 0; v <= CGW_SOLVERS; ++v)
                free(hx[v]);
            continue;
        }
        /* traffic model of one iteration: every array read or written once a
         * pass (the gathers of p counted once, as if the L2 served the rest) */
        const double bytes = 92.0 * n + 12.0 * sys.nnz;
        for (int bps = 1; bps <= 2; ++bps) {
            snprintf(config, sizeof config, "N = 2^%d, %d block%s/SM", sizes[s], bps, bps > 1 ? "s" : "");
            uint32_t blocks = cgw_blocks(&o, bps, sms, (const void *)k_cgc_solve, (const void *)k_cpp_solve, why,
                                         sizeof why);
            if (blocks) /* the hybrids and the shared-passes solvers must fit the same grid */
                blocks = cgw_blocks(&o, bps, sms, (const void *)k_cgc_body_cpp_sync,
                                    (const void *)k_cpp_body_cgc_sync, why, sizeof why);
            if (blocks)
                blocks = cgw_blocks(&o, bps, sms, (const void *)k_cgc_shared_passes,
                                    (const void *)k_cpp_shared_passes, why, sizeof why);
            if (!blocks) {
                cgw_skip_row(&o, csv, CGW_OP, config, targets[s], why);
                cgw_skip_row(&o, csv, CGW_HYB_CGC_OP, config, 0.0, why);
                cgw_skip_row(&o, csv, CGW_HYB_CPP_OP, config, 0.0, why);
                cgw_skip_row(&o, csv, CGW_SHARED_OP, config, 0.0, why);
                cgw_skip_row(&o, csv, CGW_NOSYNC_OP, config, 0.0, why);
                continue;
            }

            /* the solvers, interleaved; then what each one's last timed launch left */
            cgw_launch_t l[CGW_SOLVERS];
            cgw_result_t res[CGW_SOLVERS];
            double ns[CGW_SOLVERS], tk[CGW_SOLVERS];
            int failed = 0;
            for (int v = 0; v < CGW_SOLVERS; ++v) {
                l[v] = (cgw_launch_t){solver_kernel[v], solver_cgc_launch[v], blocks, cgw_problem(&d, &vecs[v], n, K)};
                failed |= cgw_poison(&o, &vecs[v], n) != 0;
            }
            failed = failed || cgw_time(&o, l, CGW_SOLVERS, K, ns, tk) != 0;
            for (int v = 0; v < CGW_SOLVERS && !failed; ++v)
                failed = cgw_read(&o, &vecs[v], n, hx[v], &res[v]) != 0;
            if (failed) {
                const char *e = "a CUDA error in the timed series (stderr)";
                cgw_skip_row(&o, csv, CGW_OP, config, targets[s], e);
                cgw_skip_row(&o, csv, CGW_HYB_CGC_OP, config, 0.0, e);
                cgw_skip_row(&o, csv, CGW_HYB_CPP_OP, config, 0.0, e);
                cgw_skip_row(&o, csv, CGW_SHARED_OP, config, 0.0, e);
                cgw_skip_row(&o, csv, CGW_NOSYNC_OP, config, 0.0, e);
                continue;
            }
            /* each solver against C++ CG's x */
            int same[CGW_SOLVERS] = {0, 0, 0, 0}, wrong[CGW_SOLVERS] = {0, 0, 0, 0};
            double rel_res[CGW_SOLVERS] = {0, 0, 0, 0};
            char whyv[CGW_SOLVERS][384];
            for (int v = 0; v < CGW_SOLVERS; ++v) {
                whyv[v][0] = '\0';
                if (v == CGW_CPP)
                    continue;
                const char *const who[2] = {k_cgw_who[v], k_cgw_who[CGW_CPP]};
                wrong[v] = cgw_check(&sys, K, who, hx[v], hx[CGW_CPP], &res[v], &res[CGW_CPP], hx[CGW_SOLVERS],
                                     &same[v], &rel_res[v], whyv[v], sizeof whyv[v]);
            }

            if (wrong[CGW_CGC])
                snprintf(note, sizeof note, "WRONG: %s", whyv[CGW_CGC]);
            else
                snprintf(note, sizeof note,
                         "%u x %d threads; %.0f / %.0f GB/s (model: 92 B/row + 12 B/nonzero, %d nonzeros); "
                         "%.0f / %.0f k iterations/s; %d iterations a launch (T(%d) = %.3f / %.3f ms), |r| <= 1e-10 "
                         "|b| at iteration %d; x %s; |b - A x| / |b| = %.2g (the last timed launches' output)",
                         blocks, CGS_BLOCK, ns[CGW_CGC] > 0 ? bytes / ns[CGW_CGC] : 0.0,
                         ns[CGW_CPP] > 0 ? bytes / ns[CGW_CPP] : 0.0, sys.nnz,
                         ns[CGW_CGC] > 0 ? 1e6 / ns[CGW_CGC] : 0.0, ns[CGW_CPP] > 0 ? 1e6 / ns[CGW_CPP] : 0.0, K, K,
                         tk[CGW_CGC], tk[CGW_CPP], res[CGW_CGC].conv,
                         same[CGW_CGC] ? "bit-identical" : "within 1e-9 |b|", rel_res[CGW_CGC]);
            cgw_emit(&o, csv, CGW_OP, config, "cgc (cg_grid_sync, cg_tile_reduce_f64)", "C++ CG (grid.sync, cg::reduce)",
                     ns[CGW_CGC], ns[CGW_CPP], targets[s], wrong[CGW_CGC], note);

            /* the hybrids: which share of the difference is the barrier's */
            for (int v = CGW_HYB_CGC_BODY; v <= CGW_HYB_CPP_BODY; ++v) {
                if (wrong[v])
                    snprintf(note, sizeof note, "WRONG: %s", whyv[v]);
                else
                    snprintf(note, sizeof note,
                             "same series: cgc solver %.0f ns, C++ CG solver %.0f ns, this hybrid %.0f ns; %s "
                             "(not a clean split of barrier and body: the swap also changes ptxas's schedule of the "
                             "A p loop, workloads.md); x %s, |b - A x| / |b| = %.2g",
                             ns[CGW_CGC], ns[CGW_CPP], ns[v],
                             v == CGW_HYB_CGC_BODY ? "grid.sync() for cg_grid_sync" : "cg_grid_sync for grid.sync()",
                             same[v] ? "bit-identical to C++ CG's" : "within 1e-9 |b| of C++ CG's", rel_res[v]);
                cgw_emit(&o, csv, v == CGW_HYB_CGC_BODY ? CGW_HYB_CGC_OP : CGW_HYB_CPP_OP, config,
                         v == CGW_HYB_CGC_BODY ? "cgc body, C++ grid.sync()" : "C++ body, cg_grid_sync",
                         "C++ CG (grid.sync, cg::reduce)", ns[v], ns[CGW_CPP], 0.0, wrong[v], note);
            }

            /* probe: both solvers with one shared copy of the vector passes,
             * in a series of their own (on the hybrids' vectors; the C++ CG
             * solver's x of the series above stays in hx[CGW_CPP]) */
            cgw_shared_row(&o, csv, config, &sys, &d, vecs, blocks, K, hx, ns);

            /* probe: the same iteration without its grid syncs (cgc's and
             * C++'s vectors; only the iteration count is checked) */
            cgw_launch_t np[2] = {{(const void *)k_cgc_no_grid_sync, 1, blocks, cgw_problem(&d, &vecs[CGW_CGC], n, K)},
                                  {(const void *)k_cpp_no_grid_sync, 0, blocks, cgw_problem(&d, &vecs[CGW_CPP], n, K)}};
            double pn[2] = {0, 0};
            int bad = cgw_poison(&o, &vecs[CGW_CGC], n) != 0 || cgw_poison(&o, &vecs[CGW_CPP], n) != 0 ||
                      cgw_time(&o, np, 2, K, pn, NULL) != 0;
            why[0] = '\0';
            const int nwrong = bad ? 0 : cgw_check_iters(&o, &vecs[CGW_CGC], 2, k_cgw_who, K, why, sizeof why);
            if (bad || nwrong < 0) {
                cgw_skip_row(&o, csv, CGW_NOSYNC_OP, config, 0.0, "a CUDA error in the timed series (stderr)");
                continue;
            }
            snprintf(note, sizeof note,
                     "%s%svector passes + block reductions only (results meaningless, iteration count checked); the "
                     "solver row minus this: cgc %.0f ns, C++ %.0f ns (the grid syncs' share only where both kernels "
                     "got the same schedule of the vector loops; workloads.md)",
                     why, why[0] ? "; " : "", ns[CGW_CGC] - pn[0], ns[CGW_CPP] - pn[1]);
            cgw_emit(&o, csv, CGW_NOSYNC_OP, config, "cgc, grid syncs left out", "C++ CG, grid syncs left out", pn[0],
                     pn[1], 0.0, nwrong, note);
        }
        for (int v = 0; v <= CGW_SOLVERS; ++v)
            free(hx[v]);
    }

    /* probes with no vector work (n = 0): the grid sums (2 an iteration, and
     * the p-sync: 3 grid barriers), the 3 bare barriers; one series of four */
    for (int bps = 1; bps <= 2 && d.b; ++bps) {
        char config[64], note[384], why[384];
        snprintf(config, sizeof config, "%d block%s/SM", bps, bps > 1 ? "s" : "");
        const uint32_t blocks =
            cgw_blocks(&o, bps, sms, (const void *)k_cgc_sync_only, (const void *)k_cpp_sync_only, why, sizeof why);
        if (!blocks) {
            cgw_skip_row(&o, csv, CGW_SUMS_OP, config, 0.0, why);
            cgw_skip_row(&o, csv, CGW_SYNCS_OP, config, 0.0, why);
            continue;
        }
        cgw_launch_t pl[4] = {{(const void *)k_cgc_solve, 1, blocks, cgw_problem(&d, &vecs[0], 0, K)},
                              {(const void *)k_cpp_solve, 0, blocks, cgw_problem(&d, &vecs[1], 0, K)},
                              {(const void *)k_cgc_sync_only, 1, blocks, cgw_problem(&d, &vecs[2], 0, K)},
                              {(const void *)k_cpp_sync_only, 0, blocks, cgw_problem(&d, &vecs[3], 0, K)}};
        const char *const who[4] = {"cgc grid sums", "C++ grid sums", "cgc grid syncs", "C++ grid syncs"};
        double t[4];
        int bad = 0;
        for (int v = 0; v < 4; ++v)
            bad |= cgw_poison(&o, &vecs[v], 0) != 0;
        bad = bad || cgw_time(&o, pl, 4, K, t, NULL) != 0;
        why[0] = '\0';
        const int nwrong = bad ? 0 : cgw_check_iters(&o, vecs, 4, who, K, why, sizeof why);
        if (bad || nwrong < 0) {
            cgw_skip_row(&o, csv, CGW_SUMS_OP, config, 0.0, "a CUDA error in the timed series (stderr)");
            cgw_skip_row(&o, csv, CGW_SYNCS_OP, config, 0.0, "a CUDA error in the timed series (stderr)");
            continue;
        }
        snprintf(note, sizeof note,
                 "%s%s%u x %d threads; tile + block reductions, slot writes and reads, 3 grid barriers an iteration",
                 why, why[0] ? "; " : "", blocks, CGS_BLOCK);
        cgw_emit(&o, csv, CGW_SUMS_OP, config, "cgc: 2 grid sums + 1 grid sync", "C++ CG: the same", t[0], t[1], 0.0,
                 nwrong, note);
        snprintf(note, sizeof note,
                 "%s%s%u x %d threads; the reductions' share of the grid-sums probe: cgc %.0f ns, C++ %.0f ns", why,
                 why[0] ? "; " : "", blocks, CGS_BLOCK, t[0] - t[2], t[1] - t[3]);
        cgw_emit(&o, csv, CGW_SYNCS_OP, config, "cgc: 3 cg_grid_sync", "C++ CG: 3 grid.sync()", t[2], t[3], 0.0, nwrong,
                 note);
    }
    cgs_free_system(&sys);
    cgw_free_sys(&d);
    for (int v = 0; v < CGW_SOLVERS; ++v)
        cgw_free_vecs(&vecs[v]);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}
