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

/* COUNT1 on each of the four keys of a uint4 (DH_FOR_EACH_KEY's helper). */
#define DH_EACH4_(COUNT1, v)                                                                             \
    do {                                                                                                 \
        COUNT1((v).x);                                                                                   \
        COUNT1((v).y);                                                                                   \
        COUNT1((v).z);                                                                                   \
        COUNT1((v).w);                                                                                   \
    } while (0)

/* COUNT1 on each key of the DH_VECS vectors v (DH_FOR_EACH_KEY's COUNTV). */
#define DH_EACH_VEC_(COUNT1, v)                                                                          \
    do {                                                                                                 \
        _Pragma("unroll") for (int u_ = 0; u_ < DH_VECS; ++u_) DH_EACH4_(COUNT1, (v)[u_]);              \
    } while (0)

/* Every key a thread takes, as the kernels here and the benchmark's plain
 * CUDA anchors read them: the keys before the first 16-byte boundary one at
 * a time, then DH_VECS 16-byte loads in flight, striding by `stride`
 * threads from thread `first`, then the last n mod 4 keys one at a time.
 * COUNT1(key) counts one key (a macro or function). Plain CUDA (no cgc
 * call), so that a plain anchor runs the very same loop. */
#define DH_FOR_EACH_KEY(keys_, n_, first_, stride_, COUNT1)                                              \
    DH_FOR_EACH_KEY_V(keys_, n_, first_, stride_, DH_EACH_VEC_, COUNT1)

/* The same loop, the DH_VECS vectors of each main-loop step counted
 * together by COUNTV(COUNT1, v) (v: uint4[DH_VECS]); COUNT1 counts the
 * keys outside that loop. */
#define DH_FOR_EACH_KEY_V(keys_, n_, first_, stride_, COUNTV, COUNT1)                                    \
    do {                                                                                                 \
        const uint32_t *dh_k_ = (keys_);                                                                 \
        const size_t dh_n_ = (n_), dh_first_ = (first_), dh_stride_ = (stride_);                         \
        size_t dh_head_ = ((16u - ((uintptr_t)dh_k_ & 15u)) & 15u) / 4u;                                 \
        if (dh_head_ > dh_n_)                                                                            \
            dh_head_ = dh_n_;                                                                            \
        for (size_t j_ = dh_first_; j_ < dh_head_; j_ += dh_stride_) /* at most 3 keys */                \
            COUNT1(dh_k_[j_]);                                                                           \
        const uint4 *dh_vec_ = (const uint4 *)(dh_k_ + dh_head_);                                        \
        const size_t dh_nvec_ = (dh_n_ - dh_head_) / 4u;                                                 \
        size_t i_ = dh_first_;                                                                           \
        for (; i_ + (DH_VECS - 1) * dh_stride_ < dh_nvec_; i_ += DH_VECS * dh_stride_) {                 \
            uint4 v_[DH_VECS];                                                                           \
            _Pragma("unroll") for (int u_ = 0; u_ < DH_VECS; ++u_) v_[u_] = __ldg(dh_vec_ + i_ + u_ * dh_stride_); \
            COUNTV(COUNT1, v_);                                                                          \
        }                                                                                                \
        for (; i_ < dh_nvec_; i_ += dh_stride_) {                                                        \
            const uint4 w_ = __ldg(dh_vec_ + i_);                                                        \
            DH_EACH4_(COUNT1, w_);                                                                       \
        }                                                                                                \
        for (size_t j_ = dh_head_ + dh_nvec_ * 4u + dh_first_; j_ < dh_n_; j_ += dh_stride_) /* <= 3 */  \
            COUNT1(dh_k_[j_]);                                                                           \
    } while (0)

/* -------------------------------------------------------------------------
 * 16-bit counters: two bins to a 32-bit shared word
 * -------------------------------------------------------------------------
 * Half the shared memory a bin, so twice the bins fit a CTA (2^16 in 128
 * KiB). Plain CUDA (no cgc call): the benchmark's plain anchors use the very
 * same helper, since a user could pack counters without any cluster.
 *
 * Bin `off` is the half (off & 1) of word off >> 1; a count adds 1 << 16 or
 * 1 to the word (atomicAdd, whose return value says the half's old count).
 * A half must never carry into its neighbour, so it is drained: the ONE
 * thread whose add took the half from DH_C16_DRAIN - 1 to DH_C16_DRAIN
 * subtracts DH_C16_DRAIN from it and adds DH_C16_DRAIN to the bin's global
 * counter. Why that is exact: between a crossing and its drain the half only
 * grows (the only subtraction is that drain), so no second crossing (which
 * needs the half back at DH_C16_DRAIN - 1) can happen before it, at most one
 * drain is pending per half, and the subtraction never borrows. Why it never
 * carries: a half exceeds DH_C16_DRAIN only by the adds made between a
 * crossing and its drain, which the drainer issues as soon as its batch of
 * adds has returned (dh_add16_vecs: at most 16 adds a thread, then the
 * tests); a CTA of 1024 threads makes 16384 adds a batch, and a thread
 * starts its next batch only after a global load, so the 49152 adds of room
 * (2^16 - DH_C16_DRAIN) would need the drainer's warp to be passed over
 * for about three whole batches of every other thread in its CTA: the
 * assumption (not a guarantee of the hardware) this rests on. The global
 * counters get whole DH_C16_DRAIN's during the count and each half's rest
 * (< 2^16) at the end. With 2^28 keys over 132 CTAs a drain takes 16384 keys of ONE bin in
 * ONE CTA: rare except under extreme skew, where it costs one global atomic
 * per 16384 keys. */
#define DH_C16_DRAIN 0x4000u

/* Count bin `off` of packed 16-bit counters `words` (shared memory); on a
 * drain add DH_C16_DRAIN to *global_bin (the bin's output counter). */
static __device__ __forceinline__ void dh_add16(uint32_t *words, uint32_t off, uint32_t *global_bin)
{
    const uint32_t sh = (off & 1u) << 4;
    const uint32_t old = atomicAdd(&words[off >> 1], 1u << sh);
    if (((old >> sh) & 0xffffu) == DH_C16_DRAIN - 1u) {
        atomicSub(&words[off >> 1], DH_C16_DRAIN << sh);
        atomicAdd(global_bin, DH_C16_DRAIN);
    }
}

/* The count of bin `off` of packed 16-bit counters (after the last add). */
static __device__ __forceinline__ uint32_t dh_get16(const uint32_t *words, uint32_t off)
{
    return (words[off >> 1] >> ((off & 1u) << 4)) & 0xffffu;
}

/* Which of a CTA's 16-bit counters a key goes to, for dh_add16_vecs: l =
 * (key >> shift) - lo; counted when l < nb and l mod 2^log2c == rank, at
 * counter l >> log2c, whose output bin is hist[lo + l]. (One CTA: lo 0, nb
 * the bins, log2c 0, rank 0; a multi-pass slice: lo its first bin; a
 * cluster: lo 0, the CTA's rank.) */
typedef struct dh_c16_map {
    uint32_t shift, lo, nb, log2c, rank;
    uint32_t *hist;
} dh_c16_map_t;

/* The counter index of `key` under m, or 0xffffffff when this CTA does not
 * count it. */
static __device__ __forceinline__ uint32_t dh_c16_slot(uint32_t key, const dh_c16_map_t *m)
{
    const uint32_t l = (key >> m->shift) - m->lo;
    return l < m->nb && (l & ((1u << m->log2c) - 1u)) == m->rank ? l >> m->log2c : 0xffffffffu;
}

/* Key j (0..3) of a uint4. */
static __device__ __forceinline__ uint32_t dh_u4(uint4 v, int j)
{
    return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}

/* dh_add16 on the 4 x nv keys of v (nv a compile-time constant, at most
 * DH_C16_MAXV): EVERY add first, then the drain tests. A test right after
 * its add would hold the warp for the atomic's round trip at each key (the
 * hardware issues in order, and the next add may not pass the conditional
 * drain before it); 32-bit counts have no such wait (their result is
 * unused). Deferring a drain by the thread's other 4 nv - 1 adds leaves the
 * argument of dh_add16 as it is (those adds are among the in-flight ones it
 * counts). */
#define DH_C16_MAXV 4
static __device__ __forceinline__ void dh_add16_vecs(uint32_t *words, const uint4 *v, int nv, const dh_c16_map_t *m)
{
    uint32_t old[4 * DH_C16_MAXV];
#pragma unroll
    for (int i = 0; i < 4 * DH_C16_MAXV; ++i) {
        if (i < 4 * nv) {
            const uint32_t off = dh_c16_slot(dh_u4(v[i / 4], i % 4), m);
            old[i] = off != 0xffffffffu ? atomicAdd(&words[off >> 1], 1u << ((off & 1u) << 4)) : 0u;
        }
    }
#pragma unroll
    for (int i = 0; i < 4 * DH_C16_MAXV; ++i) {
        if (i < 4 * nv) {
            const uint32_t off = dh_c16_slot(dh_u4(v[i / 4], i % 4), m);
            const uint32_t sh = (off & 1u) << 4;
            if (off != 0xffffffffu && ((old[i] >> sh) & 0xffffu) == DH_C16_DRAIN - 1u) {
                atomicSub(&words[off >> 1], DH_C16_DRAIN << sh);
                atomicAdd(&m->hist[m->lo + ((off << m->log2c) | m->rank)], DH_C16_DRAIN);
            }
        }
    }
}

/* DH_FOR_EACH_KEY_V's COUNTV for 16-bit counters: needs `dh_c16_words_`
 * (the counters) and `dh_c16_map_` (a dh_c16_map_t) in scope. */
#define DH_COUNTV16_(COUNT1, v) dh_add16_vecs(dh_c16_words_, (v), DH_VECS, &dh_c16_map_)

/* Count one key (step 2 above). counts / counts_addr: this CTA's counters
 * (pointer and shared::cta address); rank: this CTA's rank in the cluster.
 * agg (a compile-time constant): aggregate first: the lanes of the warp
 * that name the same peer counter (__match_any_sync) send ONE reduction of
 * their number (a design row for skewed keys: fewer remote operations when
 * a warp holds equal keys; uniform keys rarely meet in a warp).
 * c16 (a compile-time constant, only with log2c = 0): packed 16-bit
 * counters (dh_add16; hist: the output, for the drains). */
static __device__ __forceinline__ void dh_count(uint32_t *counts, uint32_t counts_addr, uint32_t key, uint32_t nbins,
                                                uint32_t shift, uint32_t rank, uint32_t log2c, uint32_t agg,
                                                uint32_t c16, uint32_t *hist)
{
    const uint32_t bin = key >> shift;
    if (bin >= nbins)
        return; /* above the upper level: not counted (as CUB) */
    if (c16) {
        dh_add16(counts, bin, &hist[bin]);
        return;
    }
    const uint32_t owner = bin & ((1u << log2c) - 1u), off = bin >> log2c;
    if (log2c == 0u || owner == rank) {
        atomicAdd(&counts[off], 1u); /* this CTA's counter: a shared-memory atomic */
    } else {                         /* a peer's: a reduction in its shared memory */
        const uint32_t caddr = cg_smem_map_rank_addr(counts_addr + 4u * off, owner);
        if (agg) {
            const uint32_t peers = __match_any_sync(__activemask(), caddr);
            if (cg_sreg_laneid() == (uint32_t)__ffs((int)peers) - 1u)
                cg_dsmem_red_add_relaxed_u32(caddr, (uint32_t)__popc((int)peers));
        } else {
            cg_dsmem_red_add_relaxed_u32(caddr, 1u);
        }
    }
}

/* The kernel body; log2c, agg and c16 are compile-time constants at every
 * call (one kernel per cluster size: DH_KERNEL, DH_KERNEL_AGG; c16, packed
 * 16-bit counters, only at cluster 1: DH_KERNEL16). */
static __device__ __forceinline__ void dh_histogram(dh_params_t p, uint32_t log2c, uint32_t agg, uint32_t c16)
{
    extern __shared__ __align__(16) uint32_t dh_counts[];
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t t = cg_thread_block_thread_rank(&blk), nt = cg_thread_block_num_threads(&blk);
    const uint32_t rank = log2c ? cg_cluster_block_rank(&cl) : 0u;
    const uint32_t per = p.nbins >> log2c; /* this CTA's counters */
    const uint32_t words = c16 ? (per + 1u) / 2u : per;
    const uint32_t counts_addr = cg_smem_addr(dh_counts);

    /* a launch whose cluster is not the size the body was compiled for would
     * count into the wrong CTAs: stop it */
    if (cg_cluster_num_blocks(&cl) != (1u << log2c))
        __trap();

    /* 1. zero this CTA's counters; the whole cluster's, before anyone adds */
    for (uint32_t i = t; i < words; i += nt)
        dh_counts[i] = 0u;
    if (log2c)
        cg_cluster_sync(&cl);
    else
        cg_thread_block_sync(&blk);

    /* 2. count every key this thread takes (the grid strides over them) */
#define DH_COUNT1_(k) dh_count(dh_counts, counts_addr, (k), p.nbins, p.shift, rank, log2c, agg, c16, p.hist)
    if (c16) { /* the main loop's 16 keys a thread: every add, then the drain tests (dh_add16_vecs) */
        uint32_t *const dh_c16_words_ = dh_counts;
        const dh_c16_map_t dh_c16_map_ = {p.shift, 0u, p.nbins, 0u, 0u, p.hist};
        DH_FOR_EACH_KEY_V(p.keys, p.n, (size_t)blockIdx.x * nt + t, (size_t)gridDim.x * nt, DH_COUNTV16_,
                          DH_COUNT1_);
    } else {
        DH_FOR_EACH_KEY(p.keys, p.n, (size_t)blockIdx.x * nt + t, (size_t)gridDim.x * nt, DH_COUNT1_);
    }
#undef DH_COUNT1_

    /* 3. every reduction of the cluster has landed (release/acquire at
     * cluster scope), and no CTA touches another's shared memory after this:
     * the cluster exit rule's barrier too */
    if (log2c)
        cg_cluster_exit_sync(&cl);
    else
        cg_thread_block_sync(&blk);

    /* 4. this CTA's bins b = off * C + rank into the global histogram */
    for (uint32_t off = t; off < per; off += nt) {
        const uint32_t c = c16 ? dh_get16(dh_counts, off) : dh_counts[off];
        if (c)
            atomicAdd(&p.hist[(off << log2c) | rank], c);
    }
}

/* A kernel for clusters of 2^log2c CTAs: DH_KERNEL(my_histogram_c4, 2). */
#define DH_KERNEL(name, log2c)                                                                     \
    __global__ void __launch_bounds__(DH_THREADS, 1) name(dh_params_t p) { dh_histogram(p, (log2c), 0u, 0u); }
/* The same with warp-aggregated remote reductions (dh_count's agg). */
#define DH_KERNEL_AGG(name, log2c)                                                                 \
    __global__ void __launch_bounds__(DH_THREADS, 1) name(dh_params_t p) { dh_histogram(p, (log2c), 1u, 0u); }
/* One CTA a histogram (no cluster) with packed 16-bit counters (dh_add16):
 * up to 2^16 bins in 128 KiB; dynamic shared memory DH_SMEM16_BYTES(nbins). */
#define DH_KERNEL16(name)                                                                          \
    __global__ void __launch_bounds__(DH_THREADS, 1) name(dh_params_t p) { dh_histogram(p, 0u, 0u, 1u); }
/* Dynamic shared memory of DH_KERNEL16's CTA: nbins 16-bit counters. */
#define DH_SMEM16_BYTES(nbins) ((size_t)(((nbins) + 1u) / 2u) * 4u)

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

/* -------------------------------------------------------------------------
 * The routed histogram: keys travel to the CTA that owns their bin, in
 * batches, and only that CTA touches the counter.
 * -------------------------------------------------------------------------
 *
 * Why: the kernel above pays one remote reduction (red.shared::cluster) per
 * key whose bin a peer owns, and a remote operation costs an SM several
 * cycles whatever its size: 163 Gkeys/s at 2^16 bins against 1133 for
 * reading the keys. Here a remote key costs 2 bytes of a 16-byte st.async:
 * each warp sorts its keys by owner into a staging ring per peer (the
 * owner's counter index, 16 bits, since a CTA holds at most 2^15
 * counters), and whenever 256 are staged pushes them, 512 bytes, one
 * st.async.v4 per lane, into its private inbox slot in the owner CTA. The
 * owner's warp of the same index drains the slot with local shared-memory
 * atomics. So every key costs one local atomic (as in the one-CTA kernel),
 * and a remote key in addition a staging store and 1/8 of a remote store.
 *
 * Channels: warp w of CTA s sends to warp w of CTA d over its own channel
 * (d != s): a ring of R slots (DH_ROUTE_SLOTS = 2 by default, 4 a variant)
 * of 256 16-bit entries in d, each
 * with a "full" mbarrier in d and an "empty" mbarrier in s.
 *   full  (count 1): the receiver arms each phase itself with
 *         arrive.expect_tx(512) (every slot is pushed whole, so the bytes
 *         are known), at start and again after it has read the slot; the
 *         sender's 32 st.async complete the 512 bytes. The receiver's wait
 *         is an acquire at cluster scope, st.async's complete_tx a release
 *         at cluster scope: the entries are visible after the wait.
 *   empty (count 1): after reading a slot the receiving warp __syncwarp()s
 *         (every lane's reads ordered before lane 0) and lane 0 releases
 *         the slot to the sender (cg_dsmem_release: fence.release
 *         restricted to its own CTA's shared memory, at cluster scope, then
 *         a relaxed remote arrive); the sender's lanes wait on empty with a
 *         cluster-scope acquire before their st.async into that slot.
 *   Slot of push number k: k mod R; the sender waits for empty's phase of
 *   parity ((k / R) & 1) ^ 1 (the first R pass at once), the receiver of
 *   receipt k for full's parity (k / R) & 1: each side counts its pushes or
 *   receipts, and neither barrier can run two phases ahead of a waiter (a
 *   slot is refilled only after its release, re-armed before it).
 *   End of a stream: the sender's last push holds the entry DH_ROUTE_END
 *   after its real entries (the rest DH_ROUTE_PAD); the receiver counts
 *   entries below 2^15 only and stops draining that channel at the END.
 * Progress: a warp that waits for an empty slot drains its own inboxes
 * while it waits, and every warp drains between batches of keys and, at
 * the end, until every peer's END has come; so a cycle of warps each
 * waiting for the next one's slot cannot form (each of them frees slots
 * while it waits).
 * Exit: after its warps have drained every channel a CTA arrives on the
 * cluster barrier (cg_cluster_exit_sync): no DSMEM access (st.async into
 * it, a release arriving on its empty barriers) is still to come, and the
 * counters are complete; then it adds them into the global histogram.
 *
 * Requirements: clusters of C = 2^log2c CTAs (2 .. DH_ROUTE_MAX_CLUSTER),
 * nbins / C <= 2^15, blockDim.x a multiple of 32, dynamic shared memory
 * DH_ROUTE_SMEM_BYTES(nbins, C, blockDim.x, R); keys 4-byte aligned; hist
 * zeroed by the caller.
 */
#define DH_ROUTE_MAX_CLUSTER 4u  /* peers' staging and inboxes must fit beside 128 KiB of counters */
#define DH_ROUTE_SLOT_KEYS 256u  /* entries a push carries: 512 bytes, 16 per lane */
#define DH_ROUTE_SLOTS 2u        /* slots a channel's ring has by default (a power of two: 2 or 4) */
#define DH_ROUTE_STAGE_KEYS 512u /* a staging ring: two slots' worth */
#define DH_ROUTE_VECS 8          /* 16-byte loads a lane has in flight */
#define DH_ROUTE_PAD 0xffffu     /* an unused entry */
#define DH_ROUTE_END 0xfffeu     /* the channel's last entry */
#define DH_ROUTE_MAX_LOCAL (1u << 15) /* counters a CTA may hold: entries are 16 bits, the top values markers */

/* Shared memory one warp needs for its channels in a cluster of c with
 * `slots` slots a channel. */
#define DH_ROUTE_WARP_BYTES(c, slots)                                                                  \
    ((size_t)((c) - 1u) * (DH_ROUTE_STAGE_KEYS * 2u + (slots) * DH_ROUTE_SLOT_KEYS * 2u + (slots) * 16u))
/* Dynamic shared memory of a CTA of `threads` threads: its counters, then
 * per warp its staging rings, inboxes and barriers. */
#define DH_ROUTE_SMEM_BYTES(nbins, c, threads, slots)                                                  \
    (DH_SMEM_BYTES(nbins, c) + (size_t)((threads) / 32u) * DH_ROUTE_WARP_BYTES(c, slots))

/* One warp's view of its channels (registers; every field warp-uniform). */
typedef struct dh_route {
    uint16_t *stage;      /* (C - 1) staging rings of DH_ROUTE_STAGE_KEYS, by destination q */
    uint16_t *inbox;      /* (C - 1) x R slots of DH_ROUTE_SLOT_KEYS, by source p */
    cg_mbarrier_t *full;  /* (C - 1) x R, by source p: in this CTA, filled by that peer */
    cg_mbarrier_t *empty; /* (C - 1) x R, by destination q: in this CTA, released by that peer */
    uint32_t cursor[DH_ROUTE_MAX_CLUSTER - 1]; /* entries staged for destination q, ever */
    uint32_t pushed[DH_ROUTE_MAX_CLUSTER - 1]; /* of them pushed (a multiple of 256) */
    uint32_t got[DH_ROUTE_MAX_CLUSTER - 1];    /* slots drained from source p, ever */
    uint32_t done;                              /* bit p: source p's END has come */
} dh_route_t;

/* Destination q (0 .. C-2) of CTA `rank` is CTA rank + 1 + q; source p is
 * CTA rank + 1 + p. In CTA d, sender s is source p = (s - d - 1) mod C; in
 * s, d is destination q = (d - s - 1) mod C; so p = C - 2 - q for the same
 * pair, and the sender's slot k of q is the receiver's slot k of p. */
static __device__ __forceinline__ uint32_t dh_route_peer(uint32_t rank, uint32_t i, uint32_t log2c)
{
    return (rank + 1u + i) & ((1u << log2c) - 1u);
}

/* Drain every slot that has arrived, from every source still sending:
 * one local atomic per entry, then re-arm the slot's full barrier and
 * release it to its sender. The whole warp calls it. */
static __device__ __forceinline__ void dh_route_drain(dh_route_t *w, uint32_t *counts, uint32_t lane, uint32_t rank,
                                                      uint32_t log2c, uint32_t R)
{
    const uint32_t C = 1u << log2c;
#pragma unroll
    for (uint32_t p = 0; p + 1u < C; ++p) {
        for (;;) {
            if (w->done & (1u << p))
                break;
            const uint32_t k = w->got[p], r = k & (R - 1u), parity = (k / R) & 1u;
            cg_mbarrier_t *f = &w->full[p * R + r];
            if (!__all_sync(0xffffffffu, cg_mbarrier_test_wait_parity_cluster(f, parity)))
                break; /* not here yet */
            const uint4 v = ((const uint4 *)(w->inbox + (p * R + r) * DH_ROUTE_SLOT_KEYS))[lane];
            const uint32_t e[8] = {v.x & 0xffffu, v.x >> 16, v.y & 0xffffu, v.y >> 16,
                                   v.z & 0xffffu, v.z >> 16, v.w & 0xffffu, v.w >> 16};
            uint32_t end = 0;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                if (e[j] < DH_ROUTE_MAX_LOCAL)
                    atomicAdd(&counts[e[j]], 1u);
                end |= e[j] == DH_ROUTE_END;
            }
            w->got[p] = k + 1u;
            if (__any_sync(0xffffffffu, end)) {
                w->done |= 1u << p; /* the sender pushes nothing more: no re-arm, no release */
                break;
            }
            __syncwarp(); /* every lane's reads of the slot before lane 0's release */
            if (lane == 0) {
                (void)cg_mbarrier_arrive_tx(f, DH_ROUTE_SLOT_KEYS * 2u); /* its next phase: 512 bytes */
                cg_dsmem_release(&w->empty[(C - 2u - p) * R + r], dh_route_peer(rank, p, log2c));
            }
        }
    }
}

/* Wait until empty barrier e completes the phase of `parity`, draining this
 * warp's inboxes meanwhile (a peer waiting for OUR release is then never
 * waited for in turn). Out of line: push calls it (C >= 4) only when the
 * slot is not free at once. */
static __device__ __noinline__ void dh_route_wait_empty(dh_route_t *w, uint32_t *counts, cg_mbarrier_t *e,
                                                        uint32_t parity, uint32_t lane, uint32_t rank, uint32_t log2c,
                                                        uint32_t R)
{
    while (!__all_sync(0xffffffffu, cg_mbarrier_test_wait_parity_cluster(e, parity)))
        dh_route_drain(w, counts, lane, rank, log2c, R);
}

/* Push the 256 staged entries from pushed[q] on to destination q, into the
 * next slot of this warp's channel there (waiting, and draining meanwhile,
 * until that slot is empty). The whole warp calls it, after a __syncwarp
 * that orders the staging stores before it. */
static __device__ __forceinline__ void dh_route_push(dh_route_t *w, uint32_t *counts, uint32_t q, uint32_t lane,
                                                     uint32_t rank, uint32_t log2c, uint32_t R)
{
    const uint32_t C = 1u << log2c;
    const uint32_t k = w->pushed[q] / DH_ROUTE_SLOT_KEYS, r = k & (R - 1u);
    const uint32_t parity = ((k / R) & 1u) ^ 1u;
    cg_mbarrier_t *e = &w->empty[q * R + r];
    if (log2c < 2u) {
        while (!__all_sync(0xffffffffu, cg_mbarrier_test_wait_parity_cluster(e, parity)))
            dh_route_drain(w, counts, lane, rank, log2c, R); /* free our inboxes while the peer frees ours there */
    } else if (!__all_sync(0xffffffffu, cg_mbarrier_test_wait_parity_cluster(e, parity))) {
        /* C >= 4: the slow path out of line (one copy of the drain of three
         * sources, not one per push site of the unrolled loops: 2.8x less
         * code); a copy of the state goes to memory and comes back. C = 2
         * keeps it inline (its code is small, and the call's saved
         * registers spilled under the 64-register cap of 1024 threads). */
        dh_route_t tmp = *w;
        dh_route_wait_empty(&tmp, counts, e, parity, lane, rank, log2c, R);
        *w = tmp;
    }
    const uint32_t dest = dh_route_peer(rank, q, log2c), p = C - 2u - q;
    const uint4 v = ((const uint4 *)(w->stage + q * DH_ROUTE_STAGE_KEYS +
                                     (w->pushed[q] & (DH_ROUTE_STAGE_KEYS - 1u))))[lane];
    const uint32_t slot = cg_dsmem_addr(w->inbox + (p * R + r) * DH_ROUTE_SLOT_KEYS, dest);
    cg_dsmem_st_async_v4_b32(slot + 16u * lane, v, cg_dsmem_addr(&w->full[p * R + r], dest));
    __syncwarp(); /* every lane's read of the staged half before later stores overwrite it */
    w->pushed[q] += DH_ROUTE_SLOT_KEYS;
}

/* Route the four keys of v (lane's key j counts when bit j of `valid` is
 * set and its bin is below nbins): own bins counted here, the others staged
 * for their owner, and a full slot's worth pushed. The whole warp calls it.
 * Staging positions: key j of lane l for destination q goes to
 * cursor[q] + (the keys for q of keys 0 .. j-1 of every lane) + (those of
 * key j in lanes below l): a ballot per (key, destination). sel (a
 * compile-time constant) picks how: 0, one destination at a time, each
 * lane storing under a predicate for every destination; 1 (a design row),
 * every destination's ballot first, then each lane selects its own
 * destination's mask and cursor and makes ONE store a key (fewer
 * instructions at C = 4; the same positions). */
static __device__ __forceinline__ void dh_route4(dh_route_t *w, uint32_t *counts, uint4 v, uint32_t valid,
                                                 uint32_t nbins, uint32_t shift, uint32_t lane, uint32_t rank,
                                                 uint32_t log2c, uint32_t R, uint32_t sel)
{
    const uint32_t C = 1u << log2c, lt = (1u << lane) - 1u;
    const uint32_t key[4] = {v.x, v.y, v.z, v.w};
    uint32_t own[4], idx[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const uint32_t bin = key[j] >> shift;
        own[j] = ((valid >> j) & 1u) && bin < nbins ? (bin & (C - 1u)) : 0xffu; /* 0xff: no one's */
        idx[j] = bin >> log2c;
        if (own[j] == rank)
            atomicAdd(&counts[idx[j]], 1u);
    }
    if (sel) {
        uint32_t at[DH_ROUTE_MAX_CLUSTER - 1];
#pragma unroll
        for (uint32_t q = 0; q + 1u < C; ++q)
            at[q] = w->cursor[q];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int remote = own[j] != 0xffu && own[j] != rank;
            const uint32_t qj = (own[j] - rank - 1u) & (C - 1u); /* its destination, when remote */
            uint32_t mask = 0, base = 0;
#pragma unroll
            for (uint32_t q = 0; q + 1u < C; ++q) {
                const uint32_t m = __ballot_sync(0xffffffffu, remote && qj == q);
                mask = qj == q ? m : mask;
                base = qj == q ? at[q] : base;
                at[q] += (uint32_t)__popc((int)m);
            }
            if (remote)
                w->stage[qj * DH_ROUTE_STAGE_KEYS +
                         ((base + (uint32_t)__popc((int)(mask & lt))) & (DH_ROUTE_STAGE_KEYS - 1u))] = (uint16_t)idx[j];
        }
#pragma unroll
        for (uint32_t q = 0; q + 1u < C; ++q)
            w->cursor[q] = at[q];
    } else {
#pragma unroll
        for (uint32_t q = 0; q + 1u < C; ++q) {
            const uint32_t dest = dh_route_peer(rank, q, log2c);
            uint16_t *st = w->stage + q * DH_ROUTE_STAGE_KEYS;
            uint32_t at = w->cursor[q];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const uint32_t m = __ballot_sync(0xffffffffu, own[j] == dest);
                if (own[j] == dest)
                    st[(at + (uint32_t)__popc((int)(m & lt))) & (DH_ROUTE_STAGE_KEYS - 1u)] = (uint16_t)idx[j];
                at += (uint32_t)__popc((int)m);
            }
            w->cursor[q] = at;
        }
    }
    /* before: fewer than 256 staged and unpushed per destination; 128 more
     * at most: at most one push each, and a ring of 512 never overruns */
#pragma unroll
    for (uint32_t q = 0; q + 1u < C; ++q)
        if (w->cursor[q] - w->pushed[q] >= DH_ROUTE_SLOT_KEYS) {
            __syncwarp();
            dh_route_push(w, counts, q, lane, rank, log2c, R);
        }
}

/* The routed kernel body; log2c, R (slots a channel: 2 or 4) and sel (the
 * staging form, dh_route4) are compile-time constants (DH_ROUTE_KERNEL). */
static __device__ __forceinline__ void dh_histogram_route(dh_params_t p, uint32_t log2c, uint32_t R, uint32_t sel)
{
    extern __shared__ __align__(16) uint32_t dh_counts[];
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t C = 1u << log2c;
    const uint32_t t = cg_thread_block_thread_rank(&blk), nt = cg_thread_block_num_threads(&blk);
    const uint32_t lane = t & 31u, warp = t >> 5, nwarps = nt >> 5;
    const uint32_t rank = cg_cluster_block_rank(&cl), per = p.nbins >> log2c;
    if (cg_cluster_num_blocks(&cl) != C || (nt & 31u) != 0u || per > DH_ROUTE_MAX_LOCAL)
        __trap(); /* a launch the layout below does not fit */

    /* this warp's channels: staging rings, inboxes, then the barriers */
    uint16_t *stage0 = (uint16_t *)(dh_counts + per);
    uint16_t *inbox0 = stage0 + (size_t)nwarps * (C - 1u) * DH_ROUTE_STAGE_KEYS;
    cg_mbarrier_t *bars = (cg_mbarrier_t *)(inbox0 + (size_t)nwarps * (C - 1u) * R * DH_ROUTE_SLOT_KEYS);
    dh_route_t w;
    w.stage = stage0 + (size_t)warp * (C - 1u) * DH_ROUTE_STAGE_KEYS;
    w.inbox = inbox0 + (size_t)warp * (C - 1u) * R * DH_ROUTE_SLOT_KEYS;
    w.full = bars + (size_t)warp * (C - 1u) * R * 2u;
    w.empty = w.full + (C - 1u) * R;
    w.done = 0;
#pragma unroll
    for (uint32_t q = 0; q + 1u < DH_ROUTE_MAX_CLUSTER; ++q)
        w.cursor[q] = w.pushed[q] = w.got[q] = 0;

    /* 1. zero the counters; each warp's lane 0 makes its barriers and arms
     * every inbox slot for its first 512 bytes; a cluster barrier before
     * any key is counted or pushed (every CTA's counters and barriers exist) */
    for (uint32_t i = t; i < per; i += nt)
        dh_counts[i] = 0u;
    if (lane == 0) {
        for (uint32_t i = 0; i < (C - 1u) * R; ++i) {
            cg_mbarrier_init(&w.full[i], 1u);
            (void)cg_mbarrier_arrive_tx(&w.full[i], DH_ROUTE_SLOT_KEYS * 2u);
            cg_mbarrier_init(&w.empty[i], 1u);
        }
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl);

    /* 2. route: batches of 32 x DH_ROUTE_VECS 16-byte vectors per warp,
     * the grid's warps striding over them; draining between batches */
    const size_t gw = (size_t)blockIdx.x * nwarps + warp, ngw = (size_t)gridDim.x * nwarps;
    size_t head = ((16u - ((uintptr_t)p.keys & 15u)) & 15u) / 4u;
    if (head > p.n)
        head = p.n;
    const uint4 *vec = (const uint4 *)(p.keys + head);
    const size_t nvec = (p.n - head) / 4u, batch = 32u * DH_ROUTE_VECS, nbatch = nvec / batch;
    for (size_t b = gw; b < nbatch; b += ngw) {
        uint4 v[DH_ROUTE_VECS];
#pragma unroll
        for (int u = 0; u < DH_ROUTE_VECS; ++u)
            v[u] = __ldg(vec + b * batch + 32u * u + lane);
#pragma unroll
        for (int u = 0; u < DH_ROUTE_VECS; ++u)
            dh_route4(&w, dh_counts, v[u], 0xfu, p.nbins, p.shift, lane, rank, log2c, R, sel);
        dh_route_drain(&w, dh_counts, lane, rank, log2c, R);
    }
    /* the rest (fewer than a batch of vectors, then up to 3 keys before the
     * first 16-byte boundary and 3 after the last vector): one warp */
    if (gw == nbatch % ngw) {
        for (size_t i = nbatch * batch; i < nvec; i += 32u) {
            const int ok = i + lane < nvec;
            dh_route4(&w, dh_counts, ok ? __ldg(vec + i + lane) : make_uint4(0, 0, 0, 0), ok ? 0xfu : 0u, p.nbins,
                      p.shift, lane, rank, log2c, R, sel);
        }
        const size_t tail = head + nvec * 4u;
        const uint32_t hk = lane < head ? p.keys[lane] : 0u, tk = tail + lane < p.n ? p.keys[tail + lane] : 0u;
        dh_route4(&w, dh_counts, make_uint4(hk, tk, 0u, 0u), (lane < head ? 1u : 0u) | (tail + lane < p.n ? 2u : 0u),
                  p.nbins, p.shift, lane, rank, log2c, R, sel);
    }

    /* 3. end every channel: the last slot holds the staged rest, END, pads */
#pragma unroll
    for (uint32_t q = 0; q + 1u < C; ++q) {
        uint16_t *st = w.stage + q * DH_ROUTE_STAGE_KEYS;
        for (uint32_t j = lane; j < DH_ROUTE_SLOT_KEYS; j += 32u) {
            const uint32_t at = w.pushed[q] + j;
            if (at >= w.cursor[q])
                st[at & (DH_ROUTE_STAGE_KEYS - 1u)] = (uint16_t)(at == w.cursor[q] ? DH_ROUTE_END : DH_ROUTE_PAD);
        }
        __syncwarp();
        dh_route_push(&w, dh_counts, q, lane, rank, log2c, R);
    }
    /* 4. drain until every source's END has come */
    while (w.done != (1u << (C - 1u)) - 1u)
        dh_route_drain(&w, dh_counts, lane, rank, log2c, R);

    /* 5. no DSMEM access into this CTA is still to come, every counter is
     * final: the cluster barrier (also the exit rule's); then this CTA's
     * bins b = off * C + rank into the global histogram */
    cg_cluster_exit_sync(&cl);
    for (uint32_t off = t; off < per; off += nt) {
        const uint32_t c = dh_counts[off];
        if (c)
            atomicAdd(&p.hist[(off << log2c) | rank], c);
    }
}

/* A routed kernel for clusters of 2^log2c CTAs of `threads` threads and
 * `slots` slots a channel: DH_ROUTE_KERNEL(my_route_c2, 1, 1024, 2). */
#define DH_ROUTE_KERNEL(name, log2c, threads, slots)                                                   \
    __global__ void __launch_bounds__((threads), 1) name(dh_params_t p) { dh_histogram_route(p, (log2c), (slots), 0u); }
/* The same with one staging store a key (dh_route4's sel). */
#define DH_ROUTE_KERNEL_SEL(name, log2c, threads, slots)                                               \
    __global__ void __launch_bounds__((threads), 1) name(dh_params_t p) { dh_histogram_route(p, (log2c), (slots), 1u); }

/* Threads a routed CTA runs with in a cluster of c: 1024 at c = 2; 512 at 4
 * (three peers' channels for 32 warps would not fit beside 128 KiB of
 * counters; each lane keeps DH_ROUTE_VECS loads in flight instead). */
static inline uint32_t dh_route_threads(uint32_t c) { return c <= 2u ? 1024u : 512u; }

/* -------------------------------------------------------------------------
 * Keys multicast: every CTA of the cluster sees every key of the cluster's
 * tiles, and counts only the bins it owns, in its own shared memory.
 * -------------------------------------------------------------------------
 *
 * Why: the multi-pass anchor with its slices run concurrently (one group of
 * CTAs per slice of the bins, each group reading every key) is bound by
 * L2 -> SM traffic: every key crosses from L2 to an SM once per slice. The
 * routed kernel reads each key once but pays staging and DSMEM pushes per
 * remote key. Here a cluster of C CTAs reads each key tile ONCE from L2
 * and the TMA engine multicasts it into all C CTAs' shared memory (the
 * sliced multicast pipeline of async/pipeline.h: each CTA loads 1/C of a
 * tile and multicasts it), and each CTA counts the keys whose bin it owns
 * with local shared-memory atomics: no DSMEM traffic per key, no staging.
 * The price: every SM examines C keys for each key it counts (a shared
 * load of 16 bytes per 4 keys, a shift, a compare), so its bound is the
 * SM's examine rate, not L2.
 *
 * Layout of a CTA's dynamic shared memory (DH_MC_SMEM_BYTES):
 *   the pipeline: `stages` stages of DH_MC_TILE_BYTES of keys + barriers;
 *   its counters: nbins / C bins, 32-bit, or packed 16-bit (dh_add16):
 *   CTA r owns the contiguous range [r nbins / C, (r + 1) nbins / C).
 *   Contiguous, not interleaved as in the kernels above: a CTA examines C
 *   keys for each one it counts, and a range costs one subtraction and one
 *   unsigned compare a key (the multi-pass anchor's own test) where
 *   interleaving cost an AND, a second compare and the index shift (11 ->
 *   about 6 PTX instructions a key examined). Every CTA examines every key
 *   anyway, so a hot run piled on one CTA costs only its atomics there.
 * Threads: DH_MC_THREADS (32 warps): warp 0's elected lane produces (the
 * cluster's tiles t = cluster id, + clusters, ...), warps 1..31 consume:
 * each lane takes DH_MC_VPL 16-byte vectors of a stage into registers,
 * releases the stage to every CTA's producer
 * (cg_pipeline_cluster_consumer_release_all_whole_warp: the reads ordered
 * at cluster scope before the multicasts that refill it, no GPU-wide
 * fence), then counts its 4 x DH_MC_VPL keys. The keys before the first
 * 16-byte boundary and after the last whole tile (fewer than a tile + 3)
 * are read directly by every CTA of the clusters, strided over clusters.
 * Exit: each producer waits for the last releases aimed at its barriers
 * (cg_pipeline_cluster_producer_tail); every multicast into a CTA completes
 * on a full barrier its consumers waited for; then cg_cluster_exit_sync
 * (also the block barrier before the counters are read), and each CTA adds
 * its counters to the output.
 */
#define DH_MC_THREADS 1024u
#define DH_MC_WARPS 31u /* consumer warps (warp 0 produces) */
#define DH_MC_VPL 2u    /* 16-byte vectors a consumer lane takes from a stage */
/* A tile: what one stage holds; 31744 bytes, 7936 keys; a multiple of 16 x C
 * for every C up to 8, so every CTA's slice is whole 16-byte pieces. */
#define DH_MC_TILE_BYTES (DH_MC_WARPS * 32u * 16u * DH_MC_VPL)
#define DH_MC_TILE_KEYS (DH_MC_TILE_BYTES / 4u)
/* Dynamic shared memory of a CTA: the pipeline, then its nbins / c counters
 * (c16: 16-bit). 3 stages fit beside 128 KiB of counters, 5 beside 64 KiB. */
#define DH_MC_SMEM_BYTES(nbins, c, c16, stages)                                                        \
    (CG_PIPELINE_SMEM_BYTES((stages), DH_MC_TILE_BYTES) + (size_t)((nbins) / (c)) * ((c16) ? 2u : 4u))

/* Count one key in the CTA that owns its bin, bins [lo, lo + per) (the
 * others skip it): one subtraction and one compare a key examined, as the
 * multi-pass anchor's slices. */
static __device__ __forceinline__ void dh_mc_count(uint32_t *cnt, uint32_t key, uint32_t shift, uint32_t lo,
                                                   uint32_t per, uint32_t c16, uint32_t *hist)
{
    const uint32_t l = (key >> shift) - lo;
    if (l >= per)
        return;
    if (c16)
        dh_add16(cnt, l, &hist[lo + l]);
    else
        atomicAdd(&cnt[l], 1u);
}

/* The L2 prefetch of the keys-multicast kernel (a design row): the pipeline
 * holds `stages` tiles a cluster in flight, and shared memory beside 128
 * KiB of counters holds only 3; the producer also asks L2 for the tile
 * DH_MC_PF_AHEAD tiles ahead of the one it copies, so HBM has more bytes in
 * flight than shared memory holds. The keys from the first 16-byte
 * boundary on, as a 2-D tensor of rows of 256 keys (1 KiB), 31 rows a tile
 * (DH_MC_TILE_BYTES = 31 KiB); each CTA prefetches its part of a tile, a
 * box of 256 x ceil(31 / C) rows (cg_tensor_prefetch_2d: one instruction a
 * tile; the boxes of the last rank overhang into the next tile, harmlessly).
 * Rows are int32 coordinates: at most 2^31 - 1 rows. */
#define DH_MC_PF_AHEAD 6u
#define DH_MC_ROW_KEYS 256u
#define DH_MC_TILE_ROWS (DH_MC_TILE_KEYS / DH_MC_ROW_KEYS) /* 31 */

/* The prefetching kernel's parameter: the map first (128-byte aligned). */
typedef struct dh_mc_pf_params {
    cg_tensor_map_t map;
    dh_params_t p;
} dh_mc_pf_params_t;

/* The kernel body; log2c (1..3), c16 and stages are compile-time constants
 * (DH_MC_KERNEL); pf: the prefetch map (the kernel parameter's, see
 * DH_MC_PF_KERNEL), or NULL (a constant) for none. */
static __device__ __forceinline__ void dh_histogram_mc(dh_params_t p, uint32_t log2c, uint32_t c16, uint32_t stages,
                                                       const cg_tensor_map_t *pf)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char dh_mc_smem[];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t C = 1u << log2c;
    if (cg_cluster_num_blocks(&cl) != C || blockDim.x != DH_MC_THREADS)
        __trap(); /* the body's constants would count into the wrong CTAs or lanes */
    const uint32_t rank = cg_cluster_block_rank(&cl);
    const uint32_t t = threadIdx.x, warp = t / 32u, lane = t % 32u;
    const uint32_t cid = blockIdx.x >> log2c, ncl = gridDim.x >> log2c;
    const uint16_t all = (uint16_t)((1u << C) - 1u);
    const uint32_t per = p.nbins >> log2c, words = c16 ? (per + 1u) / 2u : per;
    const uint32_t lo = rank * per; /* this CTA's bins: [lo, lo + per) */
    uint32_t *cnt = (uint32_t *)(dh_mc_smem + CG_PIPELINE_SMEM_BYTES(stages, DH_MC_TILE_BYTES));

    /* the keys: [0, head) before the first 16-byte boundary, ntiles whole
     * tiles from there, the rest after them */
    size_t head = ((16u - ((uintptr_t)p.keys & 15u)) & 15u) / 4u;
    if (head > p.n)
        head = p.n;
    const size_t ntiles = (p.n - head) / DH_MC_TILE_KEYS;
    const uint32_t *tiles = p.keys + head;
    const size_t body_end = head + ntiles * DH_MC_TILE_KEYS;

    for (uint32_t i = t; i < words; i += DH_MC_THREADS)
        cnt[i] = 0u;
    cg_pipeline_t pl = cg_pipeline_attach_cluster(dh_mc_smem, stages, DH_MC_TILE_BYTES, 0u);
    if (t == 0u) /* every CTA's producer writes into all C CTAs: empty counts C x the consumer warps */
        cg_pipeline_init_barriers_cluster(&pl, C * DH_MC_WARPS);
    cg_cluster_sync(&cl); /* barriers and zeroed counters ready in every CTA */

#define DH_MC_COUNT1_(k) dh_mc_count(cnt, (k), p.shift, lo, per, c16, p.hist)
    if (warp == 0u) {
        if (cg_elect_sync(0xffffffffu)) {
            const uint32_t pf_rows = (DH_MC_TILE_ROWS + C - 1u) >> log2c;
            for (size_t tile = cid; tile < ntiles; tile += ncl) {
                if (pf != NULL && tile + DH_MC_PF_AHEAD * ncl < ntiles) /* a hint: nothing waits for it */
                    cg_tensor_prefetch_2d(pf, 0,
                                          (int32_t)((tile + DH_MC_PF_AHEAD * ncl) * DH_MC_TILE_ROWS + rank * pf_rows));
                cg_pipeline_cluster_producer_acquire(&pl);
                cg_pipeline_cluster_producer_copy_slice(&pl, tiles + tile * DH_MC_TILE_KEYS, all);
                cg_pipeline_cluster_producer_commit_local(&pl, DH_MC_TILE_BYTES);
            }
            cg_pipeline_cluster_producer_tail(&pl); /* every release aimed at this CTA has landed */
        }
        __syncwarp();
    } else {
        const uint32_t first = (warp - 1u) * 32u + lane;
        for (size_t tile = cid; tile < ntiles; tile += ncl) {
            const uint4 *x = (const uint4 *)cg_pipeline_cluster_consumer_wait(&pl);
            uint4 v[DH_MC_VPL];
#pragma unroll
            for (uint32_t k = 0; k < DH_MC_VPL; ++k)
                v[k] = x[first + k * DH_MC_WARPS * 32u];
            cg_pipeline_cluster_consumer_release_all_whole_warp(&pl, all);
            if (c16) { /* every add first, then the drain tests (dh_add16_vecs) */
                const dh_c16_map_t m = {p.shift, lo, per, 0u, 0u, p.hist};
                dh_add16_vecs(cnt, v, (int)DH_MC_VPL, &m);
            } else {
#pragma unroll
                for (uint32_t k = 0; k < DH_MC_VPL; ++k)
                    DH_EACH4_(DH_MC_COUNT1_, v[k]);
            }
        }
    }
    /* the keys outside whole tiles: every CTA of cluster (j / threads) mod
     * clusters examines key j of them */
    const size_t nrest = head + (p.n - body_end);
    for (size_t j = (size_t)cid * DH_MC_THREADS + t; j < nrest; j += (size_t)ncl * DH_MC_THREADS)
        DH_MC_COUNT1_(__ldg(p.keys + (j < head ? j : body_end + (j - head))));
#undef DH_MC_COUNT1_

    /* no CTA touches a peer's shared memory after this (the cluster exit
     * rule), and every thread's counts are in before anyone reads them */
    cg_cluster_exit_sync(&cl);
    for (uint32_t off = t; off < per; off += DH_MC_THREADS) {
        const uint32_t c = c16 ? dh_get16(cnt, off) : cnt[off];
        if (c)
            atomicAdd(&p.hist[lo + off], c);
    }
}

/* A keys-multicast kernel for clusters of 2^log2c CTAs, c16 (0/1) 16-bit
 * counters, `stages` pipeline stages: DH_MC_KERNEL(my_mc_c2, 1, 0, 3).
 * Launch: DH_MC_THREADS threads, clusters of 2^log2c, dynamic shared
 * memory DH_MC_SMEM_BYTES(nbins, 2^log2c, c16, stages), hist zeroed. */
#define DH_MC_KERNEL(name, log2c, c16, stages)                                                         \
    __global__ void __launch_bounds__(DH_MC_THREADS, 1) name(dh_params_t p)                            \
    {                                                                                                  \
        dh_histogram_mc(p, (log2c), (c16), (stages), (const cg_tensor_map_t *)0);                      \
    }
/* The same with the L2 prefetch: name(const __grid_constant__ dh_mc_pf_params_t a), the map made by
 * dh_mc_pf_map for the same keys and cluster size. */
#define DH_MC_PF_KERNEL(name, log2c, c16, stages)                                                      \
    __global__ void __launch_bounds__(DH_MC_THREADS, 1) name(const __grid_constant__ dh_mc_pf_params_t a) \
    {                                                                                                  \
        dh_histogram_mc(a.p, (log2c), (c16), (stages), &a.map);                                        \
    }

/* Host: the prefetching kernel's parameter for p (keys on the device) and
 * clusters of c: p, and the map of the keys' whole tiles. CG_SUCCESS, or
 * cg_tensor_map_encode's status (too many keys for int32 rows included:
 * CG_ERROR_INVALID_ARGUMENT). With no whole tile the map describes one row
 * that is never prefetched. */
static inline cg_status_t dh_mc_pf_map(dh_mc_pf_params_t *out, dh_params_t p, uint32_t c)
{
    size_t head = ((16u - ((uintptr_t)p.keys & 15u)) & 15u) / 4u;
    if (head > p.n)
        head = p.n;
    const size_t rows = (p.n - head) / DH_MC_TILE_KEYS * DH_MC_TILE_ROWS;
    if (rows > 0x7fffffffu || c == 0u || c > 8u)
        return CG_ERROR_INVALID_ARGUMENT;
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_U32;
    d.rank = 2;
    d.global_address = (void *)(p.keys + head);
    d.shape[0] = DH_MC_ROW_KEYS;
    d.shape[1] = rows ? rows : 1u;
    d.box[0] = DH_MC_ROW_KEYS;
    d.box[1] = (DH_MC_TILE_ROWS + c - 1u) / c;
    d.l2_promotion = CG_TENSOR_L2_256B;
    out->p = p;
    return cg_tensor_map_encode(&out->map, &d);
}

#endif /* CGX_DSMEM_HISTOGRAM_CUH */
