/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/dsmem_histogram.cuh — a histogram too large for one SM's shared
 * memory, its counters spread over the shared memory of a thread-block
 * cluster. The kernel body of the second part of examples/dsmem_histogram.cu,
 * shared with the workload benchmark bench/workloads/histogram.cu, so both
 * run the same code.
 *
 * The bins: nbins 32-bit counters (a multiple of the cluster size C, a power
 * of two from 1 to 16). Key k falls in bin k >> shift (even bins of
 * 2^shift key values each, CUB's HistogramEven with lower level 0 and upper
 * level nbins << shift); keys at or above the upper level are not counted.
 *
 * Who owns a bin: bin b lives in CTA (b mod C) of every cluster, at counter
 * b / C of that CTA's nbins / C counters. Interleaving, not one contiguous
 * range per CTA, so a run of hot neighbouring bins spreads over the cluster
 * instead of piling onto one CTA's shared memory.
 *
 * What a CTA does (a persistent grid: as many clusters as fit at once, each
 * thread striding over the keys with 16-byte loads, DH_VECS in flight):
 *   1. zero its counters; cluster barrier (every counter of the cluster is
 *      zero before anyone adds to it);
 *   2. for each key: a bin this CTA owns -> atomicAdd on its own shared
 *      memory; a bin a peer owns -> cg_dsmem_red_add_relaxed_u32 on the
 *      peer's counter (red.relaxed.cluster.shared::cluster: a reduction in
 *      another SM's shared memory, no result, no order: nothing waits on it);
 *   3. cluster barrier: its arrive is a release and its wait an acquire at
 *      cluster scope, so every reduction any CTA sent before arriving is in
 *      the counters after the wait; after it no CTA touches another's
 *      shared memory, so it is also the barrier of the cluster exit rule
 *      (cg_cluster_exit_sync: no CTA may exit while a peer may still reach
 *      into its shared memory);
 *   4. add its counters into the global histogram (atomicAdd, skipping
 *      zeros): every cluster's partial histogram summed in global memory.
 * With C = 1 (the bins fit one CTA) step 2 is all local and the barriers
 * are block barriers.
 *
 * Requirements: launched with DH_THREADS threads a block, clusters of
 * C = 2^log2c blocks (no cluster shape for C = 1), dynamic shared memory
 * DH_SMEM_BYTES(nbins, C); keys 4-byte aligned; hist zeroed by the caller
 * (the kernel adds into it).
 */
#ifndef CGX_DSMEM_HISTOGRAM_CUH
#define CGX_DSMEM_HISTOGRAM_CUH

#include <stddef.h>
#include <stdint.h>

#include <cgc/cg/cg.h>

#define DH_THREADS 1024u /* threads a CTA (one CTA an SM when the counters take 128 KiB) */
#define DH_VECS 4        /* 16-byte loads a thread has in flight */
#define DH_MAX_CLUSTER 16u
/* The most counter bytes one CTA holds when the cluster size is chosen for
 * a bin count (dh_cluster_for): 128 KiB leaves room for the rest of an SM's
 * 228 KiB and is the largest power of two that fits one CTA. */
#define DH_CTA_COUNTER_BYTES (128u * 1024u)
/* Dynamic shared memory of a CTA: its nbins / C counters. */
#define DH_SMEM_BYTES(nbins, c) ((size_t)((nbins) / (c)) * 4u)

typedef struct dh_params {
    const uint32_t *keys; /* n keys, 4-byte aligned */
    size_t n;
    uint32_t *hist;  /* nbins counters, zeroed by the caller; the kernel adds into them */
    uint32_t nbins;  /* a multiple of the cluster size */
    uint32_t shift;  /* bin = key >> shift */
} dh_params_t;

/* Count one key (step 2 above). counts / counts_addr: this CTA's counters
 * (pointer and shared::cta address); rank: this CTA's rank in the cluster. */
static __device__ __forceinline__ void dh_count(uint32_t *counts, uint32_t counts_addr, uint32_t key, uint32_t nbins,
                                                uint32_t shift, uint32_t rank, uint32_t log2c)
{
    const uint32_t bin = key >> shift;
    if (bin >= nbins)
        return; /* above the upper level: not counted (as CUB) */
    const uint32_t owner = bin & ((1u << log2c) - 1u), off = bin >> log2c;
    if (log2c == 0u || owner == rank)
        atomicAdd(&counts[off], 1u); /* this CTA's counter: a shared-memory atomic */
    else                             /* a peer's: a reduction in its shared memory */
        cg_dsmem_red_add_relaxed_u32(cg_smem_map_rank_addr(counts_addr + 4u * off, owner), 1u);
}

static __device__ __forceinline__ void dh_count4(uint32_t *counts, uint32_t counts_addr, uint4 v, uint32_t nbins,
                                                 uint32_t shift, uint32_t rank, uint32_t log2c)
{
    dh_count(counts, counts_addr, v.x, nbins, shift, rank, log2c);
    dh_count(counts, counts_addr, v.y, nbins, shift, rank, log2c);
    dh_count(counts, counts_addr, v.z, nbins, shift, rank, log2c);
    dh_count(counts, counts_addr, v.w, nbins, shift, rank, log2c);
}

/* The kernel body; log2c is a compile-time constant at every call (one
 * kernel per cluster size: DH_KERNEL). */
static __device__ __forceinline__ void dh_histogram(dh_params_t p, uint32_t log2c)
{
    extern __shared__ __align__(16) uint32_t dh_counts[];
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t t = cg_thread_block_thread_rank(&blk), nt = cg_thread_block_num_threads(&blk);
    const uint32_t rank = log2c ? cg_cluster_block_rank(&cl) : 0u;
    const uint32_t per = p.nbins >> log2c; /* this CTA's counters */
    const uint32_t counts_addr = cg_smem_addr(dh_counts);

    /* a launch whose cluster is not the size the body was compiled for would
     * count into the wrong CTAs: stop it */
    if (cg_cluster_num_blocks(&cl) != (1u << log2c))
        __trap();

    /* 1. zero this CTA's counters; the whole cluster's, before anyone adds */
    for (uint32_t i = t; i < per; i += nt)
        dh_counts[i] = 0u;
    if (log2c)
        cg_cluster_sync(&cl);
    else
        cg_thread_block_sync(&blk);

    /* 2. count: the keys before the first 16-byte boundary one at a time,
     * then DH_VECS 16-byte loads at a time, striding over the grid, then the
     * last n mod 4 keys */
    const size_t gt = (size_t)blockIdx.x * nt + t, gstride = (size_t)gridDim.x * nt;
    size_t head = ((16u - ((uintptr_t)p.keys & 15u)) & 15u) / 4u;
    if (head > p.n)
        head = p.n;
    for (size_t j = gt; j < head; j += gstride) /* at most 3 keys */
        dh_count(dh_counts, counts_addr, p.keys[j], p.nbins, p.shift, rank, log2c);
    const uint4 *vec = (const uint4 *)(p.keys + head);
    const size_t nvec = (p.n - head) / 4u;
    size_t i = gt;
    for (; i + (DH_VECS - 1) * gstride < nvec; i += DH_VECS * gstride) {
        uint4 v[DH_VECS];
#pragma unroll
        for (int u = 0; u < DH_VECS; ++u)
            v[u] = __ldg(vec + i + u * gstride);
#pragma unroll
        for (int u = 0; u < DH_VECS; ++u)
            dh_count4(dh_counts, counts_addr, v[u], p.nbins, p.shift, rank, log2c);
    }
    for (; i < nvec; i += gstride)
        dh_count4(dh_counts, counts_addr, __ldg(vec + i), p.nbins, p.shift, rank, log2c);
    const size_t tail = head + nvec * 4u; /* n - tail < 4 keys left */
    for (size_t j = tail + gt; j < p.n; j += gstride) /* at most 3 keys */
        dh_count(dh_counts, counts_addr, p.keys[j], p.nbins, p.shift, rank, log2c);

    /* 3. every reduction of the cluster has landed (release/acquire at
     * cluster scope), and no CTA touches another's shared memory after this:
     * the cluster exit rule's barrier too */
    if (log2c)
        cg_cluster_exit_sync(&cl);
    else
        cg_thread_block_sync(&blk);

    /* 4. this CTA's bins b = off * C + rank into the global histogram */
    for (uint32_t off = t; off < per; off += nt) {
        const uint32_t c = dh_counts[off];
        if (c)
            atomicAdd(&p.hist[(off << log2c) | rank], c);
    }
}

/* A kernel for clusters of 2^log2c CTAs: DH_KERNEL(my_histogram_c4, 2). */
#define DH_KERNEL(name, log2c)                                                                     \
    __global__ void __launch_bounds__(DH_THREADS, 1) name(dh_params_t p) { dh_histogram(p, (log2c)); }

/* The cluster size for nbins counters: the smallest power of two whose CTAs
 * hold at most DH_CTA_COUNTER_BYTES each (1 up to 2^15 bins, 2 for 2^16, 4
 * for 2^17), at most DH_MAX_CLUSTER. */
static inline uint32_t dh_cluster_for(uint32_t nbins)
{
    uint32_t c = 1u;
    while (c < DH_MAX_CLUSTER && (size_t)nbins * 4u / c > DH_CTA_COUNTER_BYTES)
        c *= 2u;
    return c;
}

/* log2 of a power of two from 1 to 2^31. */
static inline uint32_t dh_log2(uint32_t c)
{
    uint32_t l = 0;
    while ((1u << l) < c)
        ++l;
    return l;
}

#endif /* CGX_DSMEM_HISTOGRAM_CUH */
