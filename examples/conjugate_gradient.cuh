/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/conjugate_gradient.cuh — the conjugate-gradient solver of
 * examples/conjugate_gradient.cu (a port of NVIDIA's CUDA sample
 * conjugateGradientMultiBlockCG), written twice, with cgc and with C++
 * Cooperative Groups, and the random sparse system it solves. Shared with the
 * workload benchmark bench/workloads/cg_solver.cu, so the example and the
 * benchmark run the same kernels.
 *
 * The whole solve of A x = b runs in ONE cooperative kernel; the grid
 * synchronizes between the steps of each iteration:
 *   Ap = A p and p.Ap (one pass), alpha = r.r / p.Ap;
 *   x += alpha p, r -= alpha Ap and r.r (one pass), beta = new r.r / old r.r;
 *   p = r + beta p, grid sync.
 * Each dot product is a grid sum (cgs_cgc_grid_sum): a tile reduction per
 * warp, warp 0 reduces the block's warp sums, thread 0 writes the block's
 * sum to its slot, grid sync, then warp 0 of every block adds the slots in
 * one fixed order. The two kernels do the same operations in the same order
 * (fma written out), so they produce the same iterates.
 *
 * The solver bodies take a mode, a compile-time constant at every call (the
 * body is inlined into a kernel per mode):
 *   CGS_SOLVE         the solver.
 *   CGS_NO_GRID_SYNC  a timing probe: every grid sync left out. The sums
 *                     read slots other blocks may not have written yet, so
 *                     the numbers mean nothing; what is left is the vector
 *                     work and the block-level reductions.
 *   CGS_SYNC_ONLY     a timing probe: each grid sum is a bare grid sync (no
 *                     tile or block reduction, no slot traffic). Run with
 *                     n = 0, it is the grid barrier's share of an iteration
 *                     (3 grid barriers an iteration: the sums of p.Ap and
 *                     r.r, and the sync after p is written).
 * and, ORed into any of them, CGS_SWAP_GRID_SYNC: the hybrid probes of
 * bench/workloads/cg_solver.cu. Each body then synchronizes the grid with the
 * OTHER library's barrier: the cgc body with C++ CG's grid.sync(), the C++
 * body with cg_grid_sync; everything else stays. Together with the two
 * solvers they split a difference between them into the barrier's share and
 * the rest of the body's (tile reductions, block syncs, index arithmetic).
 * A kernel uses one kind of grid barrier throughout (the two keep separate
 * state), and both need the cooperative launch either side makes.
 * And, ORed in, CGS_SHARED_PASSES: another probe. The three vector passes
 * of an iteration (A p with p.Ap; x, r with r.r; p) then run as calls of
 * ONE non-inlined copy (cgs_pass_ap, cgs_pass_xr, cgs_pass_p), the same
 * machine code in the cgc and the C++ kernel, so what differs between the
 * two is only the grid sums and barriers. Inlined, each kernel gets its own
 * schedule of these loops from ptxas, and those schedules differed (the
 * CG section of docs/design/workloads.md).
 * Probes run with .fixed = 1 (a fixed iteration count: their residuals are
 * not meaningful stop tests).
 */
#ifndef CGX_CONJUGATE_GRADIENT_CUH
#define CGX_CONJUGATE_GRADIENT_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <cgc/cg/cg.h>

#define CGS_EDGES 3 /* random off-diagonal pairs drawn per row (each mirrored) */
#define CGS_BLOCK 256
#define CGS_WARPS (CGS_BLOCK / 32)

/* Modes of the solver bodies (see the top of the file). */
#define CGS_SOLVE 0
#define CGS_NO_GRID_SYNC 1
#define CGS_SYNC_ONLY 2
#define CGS_MODE_MASK 3
#define CGS_SWAP_GRID_SYNC 4 /* ORed in: the other library's grid barrier (the hybrid probes) */
#define CGS_SHARED_PASSES 8  /* ORed in: the vector passes as calls of one non-inlined copy (a probe) */

/* The system and the solver's vectors, in device memory; passed by value. */
typedef struct cgs_problem {
    const int *rowptr, *col;
    const double *val, *b;
    double *x, *r, *p, *ap;
    double *partial; /* 2 slots of one double per block */
    int n;
    int max_iter;    /* at most this many iterations */
    int fixed;       /* nonzero: exactly max_iter iterations, whatever the residual */
    double tol;      /* otherwise stop once |r| <= tol |b| */
    int *iters;      /* out: iterations done */
    double *rr;      /* out: the last r.r */
    int *conv;       /* out: the first iteration count with |r| <= tol |b|, -1 if none */
} cgs_problem_t;

/* --------------------------------------------------------------------------
 * The vector passes, non-inlined (CGS_SHARED_PASSES): the same operations
 * in the same order as the loops written out in both bodies below, so the
 * iterates stay the same; i runs from `first` by `stride`.
 * ------------------------------------------------------------------------ */

/* Ap = A p; returns this thread's share of p.Ap. */
static __device__ __noinline__ double cgs_pass_ap(const int *rowptr, const int *col, const double *val,
                                                  const double *p, double *ap, int n, int first, int stride)
{
    double local = 0.0;
    for (int i = first; i < n; i += stride) {
        double s = 0.0;
        for (int j = rowptr[i]; j < rowptr[i + 1]; ++j)
            s = fma(val[j], p[col[j]], s);
        ap[i] = s;
        local = fma(p[i], s, local);
    }
    return local;
}

/* x += alpha p, r -= alpha Ap; returns this thread's share of r.r. */
static __device__ __noinline__ double cgs_pass_xr(double alpha, const double *p, const double *ap, double *x,
                                                  double *r, int n, int first, int stride)
{
    double local = 0.0;
    for (int i = first; i < n; i += stride) {
        x[i] = fma(alpha, p[i], x[i]);
        const double ri = fma(-alpha, ap[i], r[i]);
        r[i] = ri;
        local = fma(ri, ri, local);
    }
    return local;
}

/* p = r + beta p. */
static __device__ __noinline__ void cgs_pass_p(double beta, const double *r, double *p, int n, int first, int stride)
{
    for (int i = first; i < n; i += stride)
        p[i] = fma(beta, p[i], r[i]);
}

/* --------------------------------------------------------------------------
 * cgc (C style)
 * ------------------------------------------------------------------------ */

/* The cgc body's grid barrier: cg_grid_sync, or with CGS_SWAP_GRID_SYNC
 * C++ CG's grid.sync() (a hybrid probe). */
static __device__ __forceinline__ void cgs_cgc_grid_barrier(cg_grid_t *grid, int mode)
{
    if (mode & CGS_SWAP_GRID_SYNC)
        cooperative_groups::this_grid().sync();
    else
        cg_grid_sync(grid);
}

/* The sum of v over the grid, in every thread: block sum into slot `slot`,
 * grid sync, every block adds the slots in the same order. `sm` holds the
 * block's warp sums and the broadcast total. */
static __device__ __forceinline__ double cgs_cgc_grid_sum(cg_grid_t *grid, cg_thread_block_t *cta, double *sm,
                                                          double v, double *partial, int slot, int mode)
{
    if ((mode & CGS_MODE_MASK) == CGS_SYNC_ONLY) {
        cgs_cgc_grid_barrier(grid, mode);
        return v;
    }
    cg_tile_t t = cg_tiled_partition(cta, 32);
    const uint32_t lane = cg_tile_thread_rank(&t), warp = cg_tile_meta_group_rank(&t);
    const uint32_t nblocks = (uint32_t)cg_grid_num_blocks(grid);
    v = cg_tile_reduce_f64(&t, v, CG_OP_PLUS);
    if (lane == 0)
        sm[warp] = v;
    cg_thread_block_sync(cta);
    if (warp == 0) {
        double s = lane < cg_tile_meta_group_size(&t) ? sm[lane] : 0.0;
        s = cg_tile_reduce_f64(&t, s, CG_OP_PLUS);
        if (lane == 0)
            partial[(size_t)slot * nblocks + cg_grid_block_rank(grid)] = s;
    }
    if ((mode & CGS_MODE_MASK) != CGS_NO_GRID_SYNC)
        cgs_cgc_grid_barrier(grid, mode); /* every block's slot is written and visible */
    if (warp == 0) {
        double s = 0.0;
        for (uint32_t k = lane; k < nblocks; k += 32u)
            s += partial[(size_t)slot * nblocks + k];
        s = cg_tile_reduce_f64(&t, s, CG_OP_PLUS);
        if (lane == 0)
            sm[CGS_WARPS] = s;
    }
    cg_thread_block_sync(cta);
    return sm[CGS_WARPS];
}

/* The solver, in a kernel of CGS_BLOCK threads started cooperatively. */
static __device__ __forceinline__ void cgs_cgc_solve(cgs_problem_t P, int mode)
{
    __shared__ double sm[CGS_WARPS + 1];
    cg_grid_t grid = cg_this_grid();
    cg_thread_block_t cta = cg_this_thread_block();
    const int first = (int)cg_grid_thread_rank(&grid), stride = (int)cg_grid_num_threads(&grid);

    double local = 0.0;
    for (int i = first; i < P.n; i += stride) {
        P.x[i] = 0.0;
        P.r[i] = P.b[i];
        P.p[i] = P.b[i];
        local = fma(P.b[i], P.b[i], local);
    }
    double rr = cgs_cgc_grid_sum(&grid, &cta, sm, local, P.partial, 0, mode);
    const double stop = P.tol * P.tol * rr; /* |r|^2 <= tol^2 |b|^2 */
    int k = 0, conv = rr <= stop ? 0 : -1;
    while (k < P.max_iter && (P.fixed || rr > stop)) {
        local = 0.0; /* Ap = A p, and p.Ap */
        if (mode & CGS_SHARED_PASSES) /* a probe: one non-inlined copy for both kernels */
            local = cgs_pass_ap(P.rowptr, P.col, P.val, P.p, P.ap, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride) {
            double s = 0.0;
            for (int j = P.rowptr[i]; j < P.rowptr[i + 1]; ++j)
                s = fma(P.val[j], P.p[P.col[j]], s);
            P.ap[i] = s;
            local = fma(P.p[i], s, local);
        }
        const double alpha = rr / cgs_cgc_grid_sum(&grid, &cta, sm, local, P.partial, 1, mode);
        local = 0.0; /* x += alpha p, r -= alpha Ap, and r.r */
        if (mode & CGS_SHARED_PASSES)
            local = cgs_pass_xr(alpha, P.p, P.ap, P.x, P.r, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride) {
            P.x[i] = fma(alpha, P.p[i], P.x[i]);
            const double ri = fma(-alpha, P.ap[i], P.r[i]);
            P.r[i] = ri;
            local = fma(ri, ri, local);
        }
        const double rr_new = cgs_cgc_grid_sum(&grid, &cta, sm, local, P.partial, 0, mode);
        const double beta = rr_new / rr;
        rr = rr_new;
        if (mode & CGS_SHARED_PASSES)
            cgs_pass_p(beta, P.r, P.p, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride)
            P.p[i] = fma(beta, P.p[i], P.r[i]);
        if ((mode & CGS_MODE_MASK) != CGS_NO_GRID_SYNC)
            cgs_cgc_grid_barrier(&grid, mode); /* p is whole before the next A p reads it */
        ++k;
        if (conv < 0 && rr <= stop)
            conv = k;
    }
    if (first == 0) {
        *P.iters = k;
        *P.rr = rr;
        *P.conv = conv;
    }
}

/* --------------------------------------------------------------------------
 * C++ CG (the oracle and the benchmark's anchor): the same operations
 * ------------------------------------------------------------------------ */

/* The C++ body's grid barrier: grid.sync(), or with CGS_SWAP_GRID_SYNC
 * cg_grid_sync (a hybrid probe). */
static __device__ __forceinline__ void cgs_cpp_grid_barrier(const cooperative_groups::grid_group &grid, int mode)
{
    if (mode & CGS_SWAP_GRID_SYNC) {
        cg_grid_t g = cg_this_grid();
        cg_grid_sync(&g);
    } else {
        cooperative_groups::sync(grid);
    }
}

static __device__ __forceinline__ double cgs_cpp_grid_sum(const cooperative_groups::grid_group &grid,
                                                          const cooperative_groups::thread_block &cta, double *sm,
                                                          double v, double *partial, int slot, int mode)
{
    namespace cpp_cg = cooperative_groups;
    if ((mode & CGS_MODE_MASK) == CGS_SYNC_ONLY) {
        cgs_cpp_grid_barrier(grid, mode);
        return v;
    }
    cpp_cg::thread_block_tile<32> t = cpp_cg::tiled_partition<32>(cta);
    const unsigned lane = t.thread_rank(), warp = t.meta_group_rank();
    const unsigned nblocks = grid.num_blocks();
    v = cpp_cg::reduce(t, v, cpp_cg::plus<double>());
    if (lane == 0)
        sm[warp] = v;
    cpp_cg::sync(cta);
    if (warp == 0) {
        double s = lane < t.meta_group_size() ? sm[lane] : 0.0;
        s = cpp_cg::reduce(t, s, cpp_cg::plus<double>());
        if (lane == 0)
            partial[(size_t)slot * nblocks + grid.block_rank()] = s;
    }
    if ((mode & CGS_MODE_MASK) != CGS_NO_GRID_SYNC)
        cgs_cpp_grid_barrier(grid, mode);
    if (warp == 0) {
        double s = 0.0;
        for (unsigned k = lane; k < nblocks; k += 32u)
            s += partial[(size_t)slot * nblocks + k];
        s = cpp_cg::reduce(t, s, cpp_cg::plus<double>());
        if (lane == 0)
            sm[CGS_WARPS] = s;
    }
    cpp_cg::sync(cta);
    return sm[CGS_WARPS];
}

static __device__ __forceinline__ void cgs_cpp_solve(cgs_problem_t P, int mode)
{
    namespace cpp_cg = cooperative_groups;
    __shared__ double sm[CGS_WARPS + 1];
    cpp_cg::grid_group grid = cpp_cg::this_grid();
    cpp_cg::thread_block cta = cpp_cg::this_thread_block();
    const int first = (int)grid.thread_rank(), stride = (int)grid.size();

    double local = 0.0;
    for (int i = first; i < P.n; i += stride) {
        P.x[i] = 0.0;
        P.r[i] = P.b[i];
        P.p[i] = P.b[i];
        local = fma(P.b[i], P.b[i], local);
    }
    double rr = cgs_cpp_grid_sum(grid, cta, sm, local, P.partial, 0, mode);
    const double stop = P.tol * P.tol * rr;
    int k = 0, conv = rr <= stop ? 0 : -1;
    while (k < P.max_iter && (P.fixed || rr > stop)) {
        local = 0.0;
        if (mode & CGS_SHARED_PASSES) /* a probe: one non-inlined copy for both kernels */
            local = cgs_pass_ap(P.rowptr, P.col, P.val, P.p, P.ap, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride) {
            double s = 0.0;
            for (int j = P.rowptr[i]; j < P.rowptr[i + 1]; ++j)
                s = fma(P.val[j], P.p[P.col[j]], s);
            P.ap[i] = s;
            local = fma(P.p[i], s, local);
        }
        const double alpha = rr / cgs_cpp_grid_sum(grid, cta, sm, local, P.partial, 1, mode);
        local = 0.0;
        if (mode & CGS_SHARED_PASSES)
            local = cgs_pass_xr(alpha, P.p, P.ap, P.x, P.r, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride) {
            P.x[i] = fma(alpha, P.p[i], P.x[i]);
            const double ri = fma(-alpha, P.ap[i], P.r[i]);
            P.r[i] = ri;
            local = fma(ri, ri, local);
        }
        const double rr_new = cgs_cpp_grid_sum(grid, cta, sm, local, P.partial, 0, mode);
        const double beta = rr_new / rr;
        rr = rr_new;
        if (mode & CGS_SHARED_PASSES)
            cgs_pass_p(beta, P.r, P.p, P.n, first, stride);
        for (int i = first; !(mode & CGS_SHARED_PASSES) && i < P.n; i += stride)
            P.p[i] = fma(beta, P.p[i], P.r[i]);
        if ((mode & CGS_MODE_MASK) != CGS_NO_GRID_SYNC)
            cgs_cpp_grid_barrier(grid, mode);
        ++k;
        if (conv < 0 && rr <= stop)
            conv = k;
    }
    if (first == 0) {
        *P.iters = k;
        *P.rr = rr;
        *P.conv = conv;
    }
}

/* --------------------------------------------------------------------------
 * The system (host)
 * ------------------------------------------------------------------------ */

static inline uint64_t cgs_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static inline double cgs_unit(uint64_t *s) { return (double)(cgs_next(s) >> 11) * (1.0 / 9007199254740992.0); }

/* A x = b in CSR form, on the host. */
typedef struct cgs_system {
    int n, nnz;
    int *rowptr, *col; /* n + 1, nnz */
    double *val, *b;   /* nnz, n */
} cgs_system_t;

static inline void cgs_free_system(cgs_system_t *sys)
{
    free(sys->rowptr);
    free(sys->col);
    free(sys->val);
    free(sys->b);
    sys->rowptr = sys->col = NULL;
    sys->val = sys->b = NULL;
}

/* A random sparse symmetric positive-definite system of n rows (n >= 2)
 * from the xorshift state *s: CGS_EDGES random pairs (i, j) per row i,
 * weight in (-1, 1), mirrored; the diagonal, first in each row, is the row's
 * sum of |weights| + 1 + a random [0, 1) (so every Gershgorin disc lies in
 * [1, 2 * max row sum + 2]: lambda_min >= 1); b uniform in [-1, 1).
 * Returns 0, or -1 when an allocation failed (nothing is left allocated). */
static inline int cgs_make_system(int n, uint64_t *s, cgs_system_t *sys)
{
    const size_t ne = (size_t)n * CGS_EDGES, max_nnz = (size_t)n * (2 * CGS_EDGES + 1);
    int *ei = (int *)malloc(sizeof(int) * ne), *ej = (int *)malloc(sizeof(int) * ne);
    int *fill = (int *)malloc(sizeof(int) * (size_t)n);
    double *ew = (double *)malloc(sizeof(double) * ne);
    sys->n = n;
    sys->nnz = 0;
    sys->rowptr = (int *)calloc((size_t)n + 1, sizeof(int));
    sys->col = (int *)malloc(sizeof(int) * max_nnz);
    sys->val = (double *)malloc(sizeof(double) * max_nnz);
    sys->b = (double *)malloc(sizeof(double) * (size_t)n);
    if (!ei || !ej || !fill || !ew || !sys->rowptr || !sys->col || !sys->val || !sys->b) {
        free(ei);
        free(ej);
        free(fill);
        free(ew);
        cgs_free_system(sys);
        return -1;
    }
    int *rowptr = sys->rowptr, *col = sys->col;
    double *val = sys->val;
    for (int i = 0; i < n; ++i)
        for (int e = 0; e < CGS_EDGES; ++e) {
            int j = (int)(cgs_next(s) % (uint64_t)(n - 1));
            j += j >= i; /* never i */
            ei[(size_t)i * CGS_EDGES + e] = i;
            ej[(size_t)i * CGS_EDGES + e] = j;
            ew[(size_t)i * CGS_EDGES + e] = 2.0 * cgs_unit(s) - 1.0;
            rowptr[i + 1]++;
            rowptr[j + 1]++;
        }
    for (int i = 0; i < n; ++i)
        rowptr[i + 1] += rowptr[i] + 1; /* + the diagonal, first in each row */
    sys->nnz = rowptr[n];
    for (int i = 0; i < n; ++i) {
        col[rowptr[i]] = i;
        val[rowptr[i]] = 1.0 + cgs_unit(s);
        fill[i] = rowptr[i] + 1;
    }
    for (size_t e = 0; e < ne; ++e) {
        const int i = ei[e], j = ej[e];
        const double w = ew[e];
        col[fill[i]] = j;
        val[fill[i]++] = w;
        col[fill[j]] = i;
        val[fill[j]++] = w;
        val[rowptr[i]] += fabs(w);
        val[rowptr[j]] += fabs(w);
    }
    for (int i = 0; i < n; ++i)
        sys->b[i] = 2.0 * cgs_unit(s) - 1.0;
    free(ei);
    free(ej);
    free(fill);
    free(ew);
    return 0;
}

/* y = A v */
static inline void cgs_spmv(int n, const int *rowptr, const int *col, const double *val, const double *v, double *y)
{
    for (int i = 0; i < n; ++i) {
        double s = 0.0;
        for (int j = rowptr[i]; j < rowptr[i + 1]; ++j)
            s = fma(val[j], v[col[j]], s);
        y[i] = s;
    }
}

/* |b - A x| (2-norm); scratch holds n doubles. */
static inline double cgs_residual(const cgs_system_t *sys, const double *x, double *scratch)
{
    cgs_spmv(sys->n, sys->rowptr, sys->col, sys->val, x, scratch);
    double e = 0.0;
    for (int i = 0; i < sys->n; ++i)
        e += (sys->b[i] - scratch[i]) * (sys->b[i] - scratch[i]);
    return sqrt(e);
}

#endif /* CGX_CONJUGATE_GRADIENT_CUH */
