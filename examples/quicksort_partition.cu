/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/quicksort_partition.cu — the coalesced-group part of NVIDIA's CUDA
 * sample cdpAdvancedQuicksort, ported to C with cgc: a quicksort whose
 * partition step moves each element to the left (<= pivot) or right (>
 * pivot) end of its segment with one atomic per coalesced group.
 *
 * Partition step (the sample's qsort_warp): each thread takes one element of
 * a segment; the threads that have one form a coalesced group; a ballot over
 * the group says which go right; rank 0 reserves the group's places at both
 * ends of the segment with two atomicAdds; the bases are broadcast from rank
 * 0; each thread's place is its base plus the number of lower ranks going
 * the same way.
 *
 * No dynamic parallelism: the host runs the recursion level by level. Every
 * round, one launch partitions every open segment at once (each block takes
 * 256 elements of one segment); the host reads each segment's two counts and
 * makes the children. Segments of at most QS_SMALL elements are sorted at the
 * end, one block each, in shared memory (rank sort). Pivot: the middle
 * element, as in the sample. Where nothing is above the pivot (the pivot is
 * the segment's maximum) the segment is partitioned again around the same
 * value with ">=" (left: below the maximum; right: copies of the maximum,
 * done). The sample instead switches to ">=" per warp and ends a segment
 * whose left side comes out empty, which leaves a segment unsorted when some
 * warps saw only copies of the pivot and others only larger values.
 *
 * The C++ -> cgc map:
 *   cg::coalesced_group a = cg::coalesced_threads(); -> cg_coalesced_group_t a = cg_coalesced_threads();
 *   a.ballot(greater)              -> cg_coalesced_ballot(&a, greater)  (bit r = rank r, as C++)
 *   a.thread_rank(), a.size()      -> cg_coalesced_thread_rank(&a), cg_coalesced_num_threads(&a)
 *   a.shfl(base, 0)                -> cg_coalesced_shfl_u32(&a, base, 0)
 *
 * The whole sort runs twice, with the cgc partition kernel and with the C++ CG
 * one (the oracle), on the same fresh random input (a quarter of it drawn
 * from 16 values, so segments of equal keys occur). Checks: each output is
 * the host's sorted copy of the input (sorted and a permutation); the first
 * partition step's counts are the host's and equal between cgc and C++, and
 * its output has every left element <= the pivot and every right one above.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

namespace cpp_cg = cooperative_groups;

#define QS_MAX_N (1 << 20)
#define QS_BLOCK 256        /* elements per partition block */
#define QS_SMALL 1024       /* segments this short are sorted in one block (128 under CGT_QUICK) */
#define QS_SORT_BLOCK 256
#define QS_MAX_ROUNDS 200   /* far more than a random input needs (about 2 log2(n / QS_SMALL)) */

/* A segment to partition: elements [off, off + len) of buffer `src`; mode 0
 * sends elements > pivot right (pivot: the middle element), mode 1 elements
 * >= pivot (pivot given: the segment's maximum). */
typedef struct qs_seg {
    uint32_t off, len, src, mode, pivot;
} qs_seg_t;

/* One partition block's share: elements [start, start + QS_BLOCK) of segment seg. */
typedef struct qs_task {
    uint32_t seg, start;
} qs_task_t;

/* A finished segment: sorted (kind 0) or all equal (kind 1), in buffer src. */
typedef struct qs_leaf {
    uint32_t off, len, src, kind;
} qs_leaf_t;

/* --------------------------------------------------------------------------
 * cgc (C style)
 * ------------------------------------------------------------------------ */

__global__ void cgc_qs_partition(unsigned *buf0, unsigned *buf1, const qs_seg_t *segs, const qs_task_t *tasks,
                                 unsigned *lt_count, unsigned *gt_count, unsigned *pivots)
{
    const qs_task_t task = tasks[blockIdx.x];
    const qs_seg_t seg = segs[task.seg];
    const uint32_t i = task.start + threadIdx.x;
    if (i >= seg.len)
        return; /* the rest of the block (and of the warp) goes on diverged */
    const unsigned *src = seg.src ? buf1 : buf0;
    unsigned *dst = seg.src ? buf0 : buf1;
    const unsigned pivot = seg.mode ? seg.pivot : src[seg.off + seg.len / 2];
    if (i == 0)
        pivots[task.seg] = pivot;
    const unsigned data = src[seg.off + i];
    const int greater = seg.mode ? data >= pivot : data > pivot;

    cg_coalesced_group_t active = cg_coalesced_threads();
    const uint32_t size = cg_coalesced_num_threads(&active), rank = cg_coalesced_thread_rank(&active);
    const uint32_t all = size == 32u ? 0xffffffffu : (1u << size) - 1u;
    const uint32_t gt_mask = cg_coalesced_ballot(&active, greater); /* bit r: rank r goes right */
    const uint32_t lt_mask = all & ~gt_mask;
    const uint32_t n_gt = (uint32_t)__popc(gt_mask), n_lt = size - n_gt;
    unsigned lt_base = 0, gt_base = 0;
    if (rank == 0) {
        if (n_lt)
            lt_base = atomicAdd(&lt_count[task.seg], n_lt);
        if (n_gt) /* the right side fills from the segment's end */
            gt_base = seg.len - (atomicAdd(&gt_count[task.seg], n_gt) + n_gt);
    }
    lt_base = cg_coalesced_shfl_u32(&active, lt_base, 0);
    gt_base = cg_coalesced_shfl_u32(&active, gt_base, 0);
    const uint32_t below = (1u << rank) - 1u; /* ranks under mine */
    const uint32_t place = greater ? gt_base + (uint32_t)__popc(gt_mask & below)
                                   : lt_base + (uint32_t)__popc(lt_mask & below);
    dst[seg.off + place] = data;
}

/* --------------------------------------------------------------------------
 * C++ CG (the oracle)
 * ------------------------------------------------------------------------ */

__global__ void cpp_qs_partition(unsigned *buf0, unsigned *buf1, const qs_seg_t *segs, const qs_task_t *tasks,
                                 unsigned *lt_count, unsigned *gt_count, unsigned *pivots)
{
    const qs_task_t task = tasks[blockIdx.x];
    const qs_seg_t seg = segs[task.seg];
    const uint32_t i = task.start + threadIdx.x;
    if (i >= seg.len)
        return;
    const unsigned *src = seg.src ? buf1 : buf0;
    unsigned *dst = seg.src ? buf0 : buf1;
    const unsigned pivot = seg.mode ? seg.pivot : src[seg.off + seg.len / 2];
    if (i == 0)
        pivots[task.seg] = pivot;
    const unsigned data = src[seg.off + i];
    const bool greater = seg.mode ? data >= pivot : data > pivot;

    cpp_cg::coalesced_group active = cpp_cg::coalesced_threads();
    const unsigned size = active.size(), rank = active.thread_rank();
    const unsigned all = size == 32u ? 0xffffffffu : (1u << size) - 1u;
    const unsigned gt_mask = active.ballot(greater);
    const unsigned lt_mask = all & ~gt_mask;
    const unsigned n_gt = (unsigned)__popc(gt_mask), n_lt = size - n_gt;
    unsigned lt_base = 0, gt_base = 0;
    if (rank == 0) {
        if (n_lt)
            lt_base = atomicAdd(&lt_count[task.seg], n_lt);
        if (n_gt)
            gt_base = seg.len - (atomicAdd(&gt_count[task.seg], n_gt) + n_gt);
    }
    lt_base = active.shfl(lt_base, 0);
    gt_base = active.shfl(gt_base, 0);
    const unsigned below = (1u << rank) - 1u;
    const unsigned place = greater ? gt_base + (unsigned)__popc(gt_mask & below)
                                   : lt_base + (unsigned)__popc(lt_mask & below);
    dst[seg.off + place] = data;
}

/* --------------------------------------------------------------------------
 * Leaves (plain CUDA; shared by both runs)
 * ------------------------------------------------------------------------ */

/* Block b finishes leaf b into `out`: a rank sort in shared memory (element
 * j goes to the number of smaller elements plus the equal ones before it),
 * or a copy of a run of equal keys. */
__global__ void qs_leaves(const unsigned *buf0, const unsigned *buf1, const qs_leaf_t *leaves, unsigned *out)
{
    __shared__ unsigned v[QS_SMALL];
    const qs_leaf_t leaf = leaves[blockIdx.x];
    const unsigned *src = (leaf.src ? buf1 : buf0) + leaf.off;
    if (leaf.kind == 1) {
        for (uint32_t j = threadIdx.x; j < leaf.len; j += blockDim.x)
            out[leaf.off + j] = src[j];
        return;
    }
    for (uint32_t j = threadIdx.x; j < leaf.len; j += blockDim.x)
        v[j] = src[j];
    __syncthreads();
    for (uint32_t j = threadIdx.x; j < leaf.len; j += blockDim.x) {
        const unsigned x = v[j];
        uint32_t r = 0;
        for (uint32_t k = 0; k < leaf.len; ++k)
            r += v[k] < x || (v[k] == x && k < j);
        out[leaf.off + r] = x;
    }
}

/* --------------------------------------------------------------------------
 * Host
 * ------------------------------------------------------------------------ */

static uint64_t qs_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int qs_cmp(const void *a, const void *b)
{
    const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Device and host scratch for one sort (sized for n elements). */
typedef struct qs_ctx {
    uint32_t n, small; /* elements; leaves are at most `small` (<= QS_SMALL) long */
    unsigned *d_buf[2], *d_out, *d_lt, *d_gt, *d_piv;
    qs_seg_t *d_segs;
    qs_task_t *d_tasks;
    qs_leaf_t *d_leaves;
    qs_seg_t *segs, *next;
    qs_task_t *tasks;
    qs_leaf_t *leaves;
    unsigned *lt, *gt, *piv, *step; /* step: the first partition step's output */
    uint32_t nleaves;
} qs_ctx_t;

/* What a sort reports besides its output. */
typedef struct qs_stats {
    unsigned first_lt, first_gt, first_pivot;
    int rounds;
} qs_stats_t;

/* A child segment: to the leaves, to the next round, or nowhere (empty). */
static void qs_child(qs_ctx_t *c, uint32_t *nnext, uint32_t off, uint32_t len, uint32_t buf, uint32_t kind)
{
    if (len == 0)
        return;
    if (kind == 1 || len <= c->small) {
        qs_leaf_t l = {off, len, buf, kind};
        c->leaves[c->nleaves++] = l;
    } else {
        qs_seg_t s = {off, len, buf, 0, 0};
        c->next[(*nnext)++] = s;
    }
}

#define QS_CUDA(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(detail, detail_len, "CUDA error in %s: %s", #call, cudaGetErrorString(e_));   \
            return 2;                                                                              \
        }                                                                                          \
    } while (0)

/* Sort d_buf[0] (n elements) into d_out with the cgc (which = 0) or C++ CG
 * (which = 1) partition kernel. 0, or 1/2 with `detail` set. */
static int qs_sort(qs_ctx_t *c, int which, const unsigned *input, qs_stats_t *st, char *detail, size_t detail_len)
{
    const char *who = which == 0 ? "cgc" : "C++ CG";
    uint32_t nseg = 0;
    c->nleaves = 0;
    QS_CUDA(cudaMemcpy(c->d_buf[0], input, (size_t)c->n * 4, cudaMemcpyHostToDevice));
    QS_CUDA(cudaMemset(c->d_buf[1], 0xa5, (size_t)c->n * 4));
    QS_CUDA(cudaMemset(c->d_out, 0xa5, (size_t)c->n * 4));
    qs_child(c, &nseg, 0, c->n, 0, 0);
    memcpy(c->segs, c->next, sizeof(qs_seg_t) * nseg);
    st->rounds = 0;
    while (nseg > 0) {
        if (st->rounds == QS_MAX_ROUNDS) {
            snprintf(detail, detail_len, "%s: %u segments still open after %d rounds", who, nseg, QS_MAX_ROUNDS);
            return 1;
        }
        uint32_t ntasks = 0;
        for (uint32_t s = 0; s < nseg; ++s)
            for (uint32_t start = 0; start < c->segs[s].len; start += QS_BLOCK) {
                qs_task_t t = {s, start};
                c->tasks[ntasks++] = t;
            }
        QS_CUDA(cudaMemcpy(c->d_segs, c->segs, sizeof(qs_seg_t) * nseg, cudaMemcpyHostToDevice));
        QS_CUDA(cudaMemcpy(c->d_tasks, c->tasks, sizeof(qs_task_t) * ntasks, cudaMemcpyHostToDevice));
        QS_CUDA(cudaMemset(c->d_lt, 0, 4u * nseg));
        QS_CUDA(cudaMemset(c->d_gt, 0, 4u * nseg));
        if (which == 0)
            cgc_qs_partition<<<ntasks, QS_BLOCK>>>(c->d_buf[0], c->d_buf[1], c->d_segs, c->d_tasks, c->d_lt,
                                                  c->d_gt, c->d_piv);
        else
            cpp_qs_partition<<<ntasks, QS_BLOCK>>>(c->d_buf[0], c->d_buf[1], c->d_segs, c->d_tasks, c->d_lt,
                                                  c->d_gt, c->d_piv);
        QS_CUDA(cudaGetLastError());
        QS_CUDA(cudaDeviceSynchronize());
        QS_CUDA(cudaMemcpy(c->lt, c->d_lt, 4u * nseg, cudaMemcpyDeviceToHost));
        QS_CUDA(cudaMemcpy(c->gt, c->d_gt, 4u * nseg, cudaMemcpyDeviceToHost));
        QS_CUDA(cudaMemcpy(c->piv, c->d_piv, 4u * nseg, cudaMemcpyDeviceToHost));
        if (st->rounds == 0) { /* the first step: keep its counts and output */
            st->first_lt = c->lt[0];
            st->first_gt = c->gt[0];
            st->first_pivot = c->piv[0];
            QS_CUDA(cudaMemcpy(c->step, c->d_buf[1], (size_t)c->n * 4, cudaMemcpyDeviceToHost));
        }
        uint32_t nnext = 0;
        for (uint32_t s = 0; s < nseg; ++s) {
            const qs_seg_t g = c->segs[s];
            const uint32_t L = c->lt[s], G = c->gt[s], to = 1u - g.src;
            if (L + G != g.len) {
                snprintf(detail, detail_len, "%s round %d: segment [%u, +%u) counted %u left + %u right", who,
                         st->rounds, g.off, g.len, L, G);
                return 1;
            }
            if (g.mode == 0 && G == 0) { /* the pivot is the maximum: again, with >= */
                qs_seg_t again = {g.off, g.len, to, 1, c->piv[s]};
                c->next[nnext++] = again;
            } else if (g.mode == 0) {
                qs_child(c, &nnext, g.off, L, to, 0);
                qs_child(c, &nnext, g.off + L, G, to, 0);
            } else { /* left: below the maximum; right: copies of it */
                qs_child(c, &nnext, g.off, L, to, 0);
                qs_child(c, &nnext, g.off + L, G, to, 1);
            }
        }
        memcpy(c->segs, c->next, sizeof(qs_seg_t) * nnext);
        nseg = nnext;
        st->rounds++;
    }
    if (c->nleaves > 0) {
        QS_CUDA(cudaMemcpy(c->d_leaves, c->leaves, sizeof(qs_leaf_t) * c->nleaves, cudaMemcpyHostToDevice));
        qs_leaves<<<c->nleaves, QS_SORT_BLOCK>>>(c->d_buf[0], c->d_buf[1], c->d_leaves, c->d_out);
        QS_CUDA(cudaGetLastError());
        QS_CUDA(cudaDeviceSynchronize());
    }
    return 0;
}

extern "C" int cgx_quicksort_partition(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("cgc's examples", detail, detail_len) != 0)
        return 2;
    qs_ctx_t c;
    memset(&c, 0, sizeof c);
    const size_t bytes = (size_t)QS_MAX_N * 4;
    const size_t max_segs = QS_MAX_N / QS_SMALL + 2, max_tasks = QS_MAX_N / QS_BLOCK + max_segs;
    unsigned *input = (unsigned *)malloc(bytes), *sorted = (unsigned *)malloc(bytes);
    unsigned *got = (unsigned *)malloc(bytes);
    qs_stats_t st[2];
    int rc = 2;
    uint64_t seed = (uint64_t)time(NULL) ^ 0x51ed27a3c0ffee11ull, s;
    unsigned want_lt = 0, pivot = 0;
    c.segs = (qs_seg_t *)malloc(sizeof(qs_seg_t) * max_segs);
    c.next = (qs_seg_t *)malloc(sizeof(qs_seg_t) * max_segs * 2);
    c.tasks = (qs_task_t *)malloc(sizeof(qs_task_t) * max_tasks);
    c.leaves = (qs_leaf_t *)malloc(sizeof(qs_leaf_t) * QS_MAX_N);
    c.lt = (unsigned *)malloc(4 * max_segs);
    c.gt = (unsigned *)malloc(4 * max_segs);
    c.piv = (unsigned *)malloc(4 * max_segs);
    c.step = (unsigned *)malloc(bytes);
    if (!input || !sorted || !got || !c.segs || !c.next || !c.tasks || !c.leaves || !c.lt || !c.gt || !c.piv ||
        !c.step) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    s = seed;
    /* 1/32 of the size and short leaves under CGT_QUICK: the leaves' rank
     * sort makes len^2 shared-memory reads, which racecheck tracks one by one */
    c.n = (cgx_quick() ? QS_MAX_N / 32 : QS_MAX_N) - (uint32_t)(qs_next(&s) % 4096);
    c.small = cgx_quick() ? 128 : QS_SMALL;
    for (uint32_t i = 0; i < c.n; ++i) {
        const uint64_t r = qs_next(&s);
        input[i] = (r & 3) == 0 ? (unsigned)((r >> 8) % 16) * 0x10001u : (unsigned)(r >> 32);
    }
    memcpy(sorted, input, (size_t)c.n * 4);
    qsort(sorted, c.n, 4, qs_cmp);
    pivot = input[c.n / 2];
    for (uint32_t i = 0; i < c.n; ++i)
        want_lt += input[i] <= pivot;

    CGX_CUDA(cudaMalloc((void **)&c.d_buf[0], bytes));
    CGX_CUDA(cudaMalloc((void **)&c.d_buf[1], bytes));
    CGX_CUDA(cudaMalloc((void **)&c.d_out, bytes));
    CGX_CUDA(cudaMalloc((void **)&c.d_lt, 4 * max_segs));
    CGX_CUDA(cudaMalloc((void **)&c.d_gt, 4 * max_segs));
    CGX_CUDA(cudaMalloc((void **)&c.d_piv, 4 * max_segs));
    CGX_CUDA(cudaMalloc((void **)&c.d_segs, sizeof(qs_seg_t) * max_segs));
    CGX_CUDA(cudaMalloc((void **)&c.d_tasks, sizeof(qs_task_t) * max_tasks));
    CGX_CUDA(cudaMalloc((void **)&c.d_leaves, sizeof(qs_leaf_t) * QS_MAX_N));

    rc = 0;
    for (int v = 0; v < 2 && rc == 0; ++v) {
        const char *who = v == 0 ? "cgc" : "C++ CG";
        rc = qs_sort(&c, v, input, &st[v], detail, detail_len);
        if (rc != 0)
            break;
        /* the first partition step: counts and sides */
        if (st[v].first_pivot != pivot || st[v].first_lt != want_lt || st[v].first_gt != c.n - want_lt) {
            snprintf(detail, detail_len, "%s first step: pivot %u, %u left + %u right; host: pivot %u, %u + %u",
                     who, st[v].first_pivot, st[v].first_lt, st[v].first_gt, pivot, want_lt, c.n - want_lt);
            rc = 1;
            break;
        }
        for (uint32_t i = 0; i < c.n; ++i)
            if ((i < want_lt) != (c.step[i] <= pivot)) {
                snprintf(detail, detail_len, "%s first step: place %u (%s side) holds %u, pivot %u", who, i,
                         i < want_lt ? "left" : "right", c.step[i], pivot);
                rc = 1;
                break;
            }
        if (rc != 0)
            break;
        /* the sort: the host's sorted copy, element for element */
        CGX_CUDA(cudaMemcpy(got, c.d_out, (size_t)c.n * 4, cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < c.n; ++i)
            if (got[i] != sorted[i]) {
                snprintf(detail, detail_len, "%s sort: out[%u] = %u, want %u (%u elements, %d rounds)", who, i,
                         got[i], sorted[i], c.n, st[v].rounds);
                rc = 1;
                break;
            }
    }
    if (rc == 0 && (st[0].first_lt != st[1].first_lt || st[0].first_gt != st[1].first_gt)) {
        snprintf(detail, detail_len, "first step: cgc %u + %u, C++ CG %u + %u", st[0].first_lt, st[0].first_gt,
                 st[1].first_lt, st[1].first_gt);
        rc = 1;
    }
    if (rc == 0)
        snprintf(detail, detail_len,
                 "%u keys (seed %llu): first step %u <= pivot + %u above, cgc = C++ CG = host; sorted in %d "
                 "(cgc) and %d (C++ CG) rounds, both equal to the host's sort",
                 c.n, (unsigned long long)seed, want_lt, c.n - want_lt, st[0].rounds, st[1].rounds);
done:
    cudaFree(c.d_buf[0]);
    cudaFree(c.d_buf[1]);
    cudaFree(c.d_out);
    cudaFree(c.d_lt);
    cudaFree(c.d_gt);
    cudaFree(c.d_piv);
    cudaFree(c.d_segs);
    cudaFree(c.d_tasks);
    cudaFree(c.d_leaves);
    free(input);
    free(sorted);
    free(got);
    free(c.segs);
    free(c.next);
    free(c.tasks);
    free(c.leaves);
    free(c.lt);
    free(c.gt);
    free(c.piv);
    free(c.step);
    return rc;
}

CGX_MAIN(cgx_quicksort_partition)
