/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/conjugate_gradient.cu — a port of NVIDIA's CUDA sample
 * conjugateGradientMultiBlockCG to C with cgc: the whole conjugate-gradient
 * solve of A x = b in ONE cooperative kernel, the grid synchronizing between
 * the steps of each iteration.
 *
 * A is a random sparse symmetric positive-definite matrix in CSR form (each
 * row: about six random off-diagonal entries, mirrored, and a diagonal that
 * dominates them by 1 to 2), b a random vector, x starts at 0. Each
 * iteration: Ap = A p and p.Ap (one pass), alpha = r.r / p.Ap; x += alpha p,
 * r -= alpha Ap and r.r (one pass); beta = new r.r / old r.r; p = r + beta p.
 * Stop when |r| <= tol |b|.
 *
 * Dot products in double: each warp reduces its threads' sums with a tile
 * reduction, warp 0 reduces the block's warp sums the same way, thread 0
 * writes the block's sum to its slot; after the grid sync, warp 0 of every
 * block adds the slots in one fixed order (lane j: slots j, j + 32, ...; then
 * a tile reduction). The sample adds the block sums with a double atomicAdd
 * instead; here the total is the same bits in every block and in every run,
 * so every block takes the same branch at the loop test, and the cgc and C++
 * CG kernels, which do the same operations in the same order (fma written
 * out), get the same iterates.
 *
 * The C++ -> cgc map:
 *   cg::grid_group grid = cg::this_grid();  -> cg_grid_t grid = cg_this_grid();
 *   cg::sync(grid)                          -> cg_grid_sync(&grid)
 *   grid.thread_rank(), grid.size()         -> cg_grid_thread_rank(&grid), cg_grid_num_threads(&grid)
 *   cg::thread_block cta; cg::sync(cta)     -> cg_thread_block_t cta; cg_thread_block_sync(&cta)
 *   cg::tiled_partition<32>(cta)            -> cg_tiled_partition(&cta, 32)
 *   cg::reduce(tile32, v, cg::plus<double>()) -> cg_tile_reduce_f64(&tile32, v, CG_OP_PLUS)
 *   tile32.meta_group_rank(), meta_group_size() -> cg_tile_meta_group_rank(&t), cg_tile_meta_group_size(&t)
 *   cudaLaunchCooperativeKernel(k, grid, block, args, 0, 0)
 *                                           -> cfg.cooperative = 1; cg_launch(&cfg, k, args)
 *
 * The kernels' bodies and the system's generator live in
 * examples/conjugate_gradient.cuh, which the workload benchmark
 * (bench/workloads/cg_solver.cu) includes too, so both run the same code.
 *
 * Checks (the tolerances are argued at check_solution): cgc's solution and
 * iteration count against the C++ CG kernel's, both against a host CG solve
 * of the same system; each kernel's final residual met the stop test, and the
 * true residual |b - A x| of both solutions, computed on the host.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "conjugate_gradient.cuh"
#include "example_util.h"

#define CGS_N (1 << 18)    /* rows (the run uses a random count just below; 1/64 under CGT_QUICK) */
#define CGS_TOL 1e-10      /* stop at |r| <= CGS_TOL |b| */
#define CGS_MAX_ITER 1000  /* such a well-conditioned system (lambda in [1, ~30]) needs well under 100 */

/* The kernels: the solver bodies of conjugate_gradient.cuh (shared with the
 * workload benchmark), in their solver mode. */
__global__ void cgc_conjugate_gradient(cgs_problem_t P) { cgs_cgc_solve(P, CGS_SOLVE); }
__global__ void cpp_conjugate_gradient(cgs_problem_t P) { cgs_cpp_solve(P, CGS_SOLVE); }

/* --------------------------------------------------------------------------
 * Host
 * ------------------------------------------------------------------------ */

/* The host's CG, the same steps with sequential dot products. Returns the
 * iteration count. */
static int cgs_host_solve(int n, const int *rowptr, const int *col, const double *val, const double *b, double *x,
                          double *r, double *p, double *ap)
{
    double rr = 0.0;
    for (int i = 0; i < n; ++i) {
        x[i] = 0.0;
        r[i] = p[i] = b[i];
        rr = fma(b[i], b[i], rr);
    }
    const double stop = CGS_TOL * CGS_TOL * rr;
    int k = 0;
    while (rr > stop && k < CGS_MAX_ITER) {
        cgs_spmv(n, rowptr, col, val, p, ap);
        double pap = 0.0;
        for (int i = 0; i < n; ++i)
            pap = fma(p[i], ap[i], pap);
        const double alpha = rr / pap;
        double rr_new = 0.0;
        for (int i = 0; i < n; ++i) {
            x[i] = fma(alpha, p[i], x[i]);
            r[i] = fma(-alpha, ap[i], r[i]);
            rr_new = fma(r[i], r[i], rr_new);
        }
        const double beta = rr_new / rr;
        rr = rr_new;
        for (int i = 0; i < n; ++i)
            p[i] = fma(beta, p[i], r[i]);
        ++k;
    }
    return k;
}

/* Tolerances.
 *  - Every Gershgorin disc of A lies in [1, 2 * (max off-diagonal row sum) +
 *    2], so lambda_min(A) >= 1 and |A^-1| <= 1. Each solve stops with
 *    |b - A x| <= tol |b| (up to the drift of the updated residual from the
 *    true one, O(eps * iterations * |A| |x|) ~ 1e-12 |b| here, far below
 *    tol |b| = 1e-10 |b|). So two solutions differ by
 *    |x1 - x2| <= |A^-1| (|r1| + |r2|) <= 2 tol |b| (2-norm, hence also
 *    max-norm): the bound for GPU against host, with 10% for that drift.
 *  - True residual of each GPU x: |b - A x| <= 1.1 tol |b| (same drift).
 *  - cgc against C++ CG: the same operations in the same order (fma written
 *    out, fixed reduction order, cgc's f64 tile reduction is C++ CG's butterfly
 *    bit for bit), so the iterates should be identical; the check allows
 *    1e-9 |b| (rounding of a different order, were there one, is ~1e-15 |b|
 *    per iteration) and demands the same iteration count.
 *  - GPU against host iterations: the host adds its dot products in another
 *    order, so its r.r differs by ~1e-13 relative; the two solves stop at
 *    different iterations only if an iterate's r.r lies that close to the stop
 *    value (a chance of about 1e-13 a run), and then by one iteration in
 *    practice: the counts may differ by at most 1. */
static int check_solution(int n, const int *rowptr, const int *col, const double *val, const double *b,
                          const double *x_cgc, const double *x_cpp, const double *x_host, int it_cgc, int it_cpp,
                          int it_host, const double *rr, double *scratch, double *worst, char *detail, size_t detail_len)
{
    double bb = 0.0;
    for (int i = 0; i < n; ++i)
        bb += b[i] * b[i];
    const double nb = sqrt(bb);
    if (it_cgc != it_cpp) {
        snprintf(detail, detail_len, "iterations: cgc %d, C++ CG %d", it_cgc, it_cpp);
        return 1;
    }
    if (it_cgc >= CGS_MAX_ITER || abs(it_cgc - it_host) > 1) {
        snprintf(detail, detail_len, "iterations: GPU %d, host %d (limit %d)", it_cgc, it_host, CGS_MAX_ITER);
        return 1;
    }
    worst[0] = worst[1] = 0.0;
    for (int i = 0; i < n; ++i) {
        const double d_cpp = fabs(x_cgc[i] - x_cpp[i]), d_host = fabs(x_cgc[i] - x_host[i]);
        if (!(d_cpp <= 1e-9 * nb)) {
            snprintf(detail, detail_len, "x[%d]: cgc %.17g, C++ CG %.17g (|b| = %g)", i, x_cgc[i], x_cpp[i], nb);
            return 1;
        }
        if (!(d_host <= 2.2 * CGS_TOL * nb) || !(fabs(x_cpp[i] - x_host[i]) <= 2.2 * CGS_TOL * nb)) {
            snprintf(detail, detail_len, "x[%d]: cgc %.17g, C++ CG %.17g, host %.17g (bound %g)", i, x_cgc[i],
                     x_cpp[i], x_host[i], 2.2 * CGS_TOL * nb);
            return 1;
        }
        worst[0] = d_cpp > worst[0] ? d_cpp : worst[0];
        worst[1] = d_host > worst[1] ? d_host : worst[1];
    }
    /* the residual each kernel reports (its updated r.r) met the stop test,
     * and the true residual |b - A x| of both GPU solutions is in bound */
    for (int v = 0; v < 2; ++v)
        if (!(rr[v] <= CGS_TOL * CGS_TOL * bb * (1.0 + 1e-12))) {
            snprintf(detail, detail_len, "%s: final |r| = %g after %d iterations, want <= %g",
                     v == 0 ? "cgc" : "C++ CG", sqrt(rr[v]), v == 0 ? it_cgc : it_cpp, CGS_TOL * nb);
            return 1;
        }
    double res = 0.0;
    for (int v = 0; v < 2; ++v) {
        cgs_spmv(n, rowptr, col, val, v == 0 ? x_cgc : x_cpp, scratch);
        double e = 0.0;
        for (int i = 0; i < n; ++i)
            e += (b[i] - scratch[i]) * (b[i] - scratch[i]);
        e = sqrt(e);
        if (!(e <= 1.1 * CGS_TOL * nb)) {
            snprintf(detail, detail_len, "%s's x: |b - A x| = %g, want <= %g (|b| = %g)", v == 0 ? "cgc" : "C++ CG",
                     e, 1.1 * CGS_TOL * nb, nb);
            return 1;
        }
        if (v == 0)
            res = e;
    }
    worst[2] = res / nb;
    return 0;
}

extern "C" int cgx_conjugate_gradient(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("cgc's examples", detail, detail_len) != 0)
        return 2;
    uint64_t seed = (uint64_t)time(NULL) ^ 0x6a09e667f3bcc908ull, s = seed;
    const int n = (cgx_quick() ? CGS_N / 64 : CGS_N) - (int)(cgs_next(&s) % 1000);
    const size_t vb = sizeof(double) * (size_t)n;
    cgs_system_t sys = {0, 0, NULL, NULL, NULL, NULL};
    const int *rowptr = NULL, *col = NULL;
    const double *val = NULL, *b = NULL;
    double *h[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    int *d_rowptr = NULL, *d_col = NULL, *d_iters = NULL, *d_conv = NULL;
    double *d_val = NULL, *d_b = NULL, *d_x = NULL, *d_r = NULL, *d_p = NULL, *d_ap = NULL, *d_partial = NULL,
           *d_rr = NULL;
    int rc = 2, nnz = 0, iters[2] = {-1, -1}, it_host = 0, dev = 0, sms = 0, per_sm = 0;
    uint32_t coop = 0, blocks = 0;
    double rr[2], worst[3];
    cg_status_t cst;
    cgs_problem_t P;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {(void *)&P};
    for (int k = 0; k < 7; ++k)
        h[k] = (double *)malloc(vb); /* x cgc, x cpp, x host, r, p, ap, scratch */
    if (!h[0] || !h[1] || !h[2] || !h[3] || !h[4] || !h[5] || !h[6] || cgs_make_system(n, &s, &sys) != 0) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    /* the matrix (conjugate_gradient.cuh, cgs_make_system): CGS_EDGES random
     * pairs (i, j) per row i, weight in (-1, 1), mirrored; diagonal = the
     * row's sum of |weights| + 1 + a random [0, 1) */
    rowptr = sys.rowptr;
    col = sys.col;
    val = sys.val;
    b = sys.b;
    nnz = sys.nnz;
    it_host = cgs_host_solve(n, rowptr, col, val, b, h[2], h[3], h[4], h[5]);

    /* one grid size for both kernels (the reduction order, so the bits,
     * depend on it): what both can hold co-resident, at most 2 blocks an SM
     * (16 blocks under CGT_QUICK: a sanitizer's instrumented kernel may fit
     * fewer blocks than the occupancy queries promise) */
    CGX_CUDA(cudaGetDevice(&dev));
    CGX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CGX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cpp_conjugate_gradient, CGS_BLOCK, 0));
    cst = cg_max_cooperative_blocks((const void *)cgc_conjugate_gradient, CGS_BLOCK, 0, &coop);
    if (cst != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_max_cooperative_blocks: %s: %s", cg_status_string(cst),
                 cg_last_error_detail());
        goto done;
    }
    blocks = cgx_quick() ? 16u : (uint32_t)(2 * sms);
    if ((uint32_t)(per_sm * sms) < blocks)
        blocks = (uint32_t)(per_sm * sms);
    if (coop < blocks)
        blocks = coop;
    if (blocks == 0) {
        snprintf(detail, detail_len, "no co-resident block fits (cgc %u, C++ %d an SM)", coop, per_sm);
        goto done;
    }

    CGX_CUDA(cudaMalloc((void **)&d_rowptr, sizeof(int) * (n + 1)));
    CGX_CUDA(cudaMalloc((void **)&d_col, sizeof(int) * nnz));
    CGX_CUDA(cudaMalloc((void **)&d_val, sizeof(double) * nnz));
    CGX_CUDA(cudaMalloc((void **)&d_b, vb));
    CGX_CUDA(cudaMalloc((void **)&d_x, vb));
    CGX_CUDA(cudaMalloc((void **)&d_r, vb));
    CGX_CUDA(cudaMalloc((void **)&d_p, vb));
    CGX_CUDA(cudaMalloc((void **)&d_ap, vb));
    CGX_CUDA(cudaMalloc((void **)&d_partial, sizeof(double) * 2 * blocks));
    CGX_CUDA(cudaMalloc((void **)&d_iters, sizeof(int)));
    CGX_CUDA(cudaMalloc((void **)&d_rr, sizeof(double)));
    CGX_CUDA(cudaMalloc((void **)&d_conv, sizeof(int)));
    CGX_CUDA(cudaMemcpy(d_rowptr, rowptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(d_col, col, sizeof(int) * nnz, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(d_val, val, sizeof(double) * nnz, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(d_b, b, vb, cudaMemcpyHostToDevice));
    P.rowptr = d_rowptr;
    P.col = d_col;
    P.val = d_val;
    P.b = d_b;
    P.x = d_x;
    P.r = d_r;
    P.p = d_p;
    P.ap = d_ap;
    P.partial = d_partial;
    P.n = n;
    P.max_iter = CGS_MAX_ITER;
    P.fixed = 0;
    P.tol = CGS_TOL;
    P.iters = d_iters;
    P.rr = d_rr;
    P.conv = d_conv;
    for (int v = 0; v < 2; ++v) {
        CGX_CUDA(cudaMemset(d_x, 0xff, vb)); /* poison: NaN */
        CGX_CUDA(cudaMemset(d_iters, 0xff, sizeof(int)));
        if (v == 0) {
            cfg.grid.x = blocks;
            cfg.block.x = CGS_BLOCK;
            cfg.cooperative = 1;
            cst = cg_launch(&cfg, (const void *)cgc_conjugate_gradient, args);
            if (cst != CG_SUCCESS) {
                snprintf(detail, detail_len, "cg_launch (%u blocks): %s: %s", blocks, cg_status_string(cst),
                         cg_last_error_detail());
                goto done;
            }
        } else {
            CGX_CUDA(cudaLaunchCooperativeKernel((const void *)cpp_conjugate_gradient, dim3(blocks),
                                                 dim3(CGS_BLOCK), args, 0, 0));
        }
        CGX_CUDA(cudaDeviceSynchronize());
        CGX_CUDA(cudaMemcpy(h[v], d_x, vb, cudaMemcpyDeviceToHost));
        CGX_CUDA(cudaMemcpy(&iters[v], d_iters, sizeof(int), cudaMemcpyDeviceToHost));
        CGX_CUDA(cudaMemcpy(&rr[v], d_rr, sizeof(double), cudaMemcpyDeviceToHost));
    }
    rc = check_solution(n, rowptr, col, val, b, h[0], h[1], h[2], iters[0], iters[1], it_host, rr, h[6], worst,
                        detail, detail_len);
    if (rc == 0)
        snprintf(detail, detail_len,
                 "n = %d, %d nonzeros (seed %llu), %u blocks x %d: %d iterations (host %d), |b - A x| / |b| = "
                 "%.2g; max |x_cgc - x_C++| = %.3g%s, max |x_cgc - x_host| = %.3g",
                 n, nnz, (unsigned long long)seed, blocks, CGS_BLOCK, iters[0], it_host, worst[2], worst[0],
                 memcmp(h[0], h[1], vb) == 0 && rr[0] == rr[1] ? " (bit-identical)" : "", worst[1]);
done:
    cudaFree(d_rowptr);
    cudaFree(d_col);
    cudaFree(d_val);
    cudaFree(d_b);
    cudaFree(d_x);
    cudaFree(d_r);
    cudaFree(d_p);
    cudaFree(d_ap);
    cudaFree(d_partial);
    cudaFree(d_iters);
    cudaFree(d_rr);
    cudaFree(d_conv);
    cgs_free_system(&sys);
    for (int k = 0; k < 7; ++k)
        free(h[k]);
    return rc;
}

CGX_MAIN(cgx_conjugate_gradient)
