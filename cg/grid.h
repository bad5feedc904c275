/*
 * cg/grid.h — the grid group: every thread of a cooperative launch.
 *
 *   cg_grid_t g = cg_this_grid();
 *   cg_grid_sync(&g);                              // all blocks, all threads
 *   cg_token_t t = cg_grid_barrier_arrive(&g);     // split form
 *   ... independent work ...
 *   cg_grid_barrier_wait(&g, t);
 *
 * Requirements: the kernel is started with a standard cooperative launch
 * (cudaLaunchCooperativeKernel, cudaLaunchKernelExC with
 * cudaLaunchAttributeCooperative, or cg_launch with .cooperative = 1), so all
 * blocks are co-resident. No extra kernel parameter and no -rdc: the barrier
 * word lives in the grid workspace the driver hands every launch through the
 * %envreg1 (high half) / %envreg2 (low half) special registers, the same ABI
 * C++ cooperative groups uses (cooperative_groups/details/driver_abi.h).
 *
 * ---------------------------------------------------------------------------
 * The workspace and why the algorithm is what it is
 * ---------------------------------------------------------------------------
 * Measured on an H200 (driver 580, CUDA 13.0): the workspace is 16 bytes,
 * { uint32 wsSize = 16, uint32 barrier, two more driver words }, and the
 * barrier word reads 0 at the start of every launch. The two words after the
 * barrier belong to the driver, so the only per-launch memory a barrier may use
 * is ONE 32-bit word.
 *
 * Flat algorithm (below CG_GRID_FLAGS_MIN_BLOCKS_PER_SM blocks per SM, and
 * the fallback): a sense-reversing counter on the workspace word,
 * bit-compatible with C++ CG's grid.sync().
 *   - Each block arrives once per phase: barrier.sync 0, then thread 0 adds to
 *     the word with atom.add.acq_rel.gpu. Block 0 adds 0x80000000 - (N-1),
 *     every other block adds 1, so a full phase adds exactly 0x80000000: the
 *     top bit flips on the last arrival and the low 31 bits return to 0. A
 *     block that saw phase p complete and arrives for p+1 changes only the
 *     low bits, so a slow block still polling for p cannot be confused (the
 *     re-arrival race of NVIDIA/cuml#458 cannot happen: completion is an edge
 *     of one bit that only the last arrival of a phase can produce).
 *   - The arrival that flips the bit knows it from its own atom's result and
 *     never polls (CG polls even then: one L2 round trip saved on the critical
 *     path, which ends with the last block to arrive).
 *   - The others poll with ld.acquire.gpu; at more than one block per SM they
 *     sleep CG_GRID_POLL_SLEEP_NS between polls so the pollers leave the one
 *     L2 slice that holds the word to the arrivals' atomics.
 *   H200, 20k back-to-back syncs, ns per sync, C++ CG -> cgc flat (ratio):
 *     132x128 978 -> 834 (0.85)   132x1024 1005 -> 887 (0.88)
 *     264x256 981 -> 846 (0.86)   528x256 1227 -> 1139 (0.93)
 *     1056x256 2219 -> 2008 (0.90)  2112x128 4897 -> 4182 (0.85)
 *     4224x64 9313 -> 8194 (0.88)
 *   The floor of one word: every block's atomic serializes on one L2 slice,
 *   so at many blocks per SM the flat barrier cannot reach 0.5x.
 *
 * Flag algorithm (from CG_GRID_FLAGS_MIN_BLOCKS_PER_SM blocks per SM): no
 * atomic that two blocks share. Every block has an arrival flag and a release
 * flag (64-bit words in a module-scope array); block 0 gathers.
 *   - Arrive: barrier.sync 0, then thread 0 adds 1 to its own arrival flag
 *     with atom.add.release.gpu; the result tells it the phase number.
 *   - Block 0's wait: all its threads poll the other blocks' arrival flags
 *     (CG_GRID_FLAGS_BATCH loads in flight per thread, ld.acquire.gpu),
 *     barrier.sync 0, then each thread issues fence.acq_rel.gpu and writes
 *     its share of the release flags with plain (relaxed) stores.
 *   - Every other block's wait: thread 0 polls its own release flag
 *     (ld.acquire.gpu), then barrier.sync 0.
 *   Arrivals land on different words, polls on different words (16 per
 *   128-byte line), so nothing serializes on one L2 slice; the critical path
 *   is two flag hand-offs whatever the grid size. Flags carry the low 32
 *   bits of %gridid above the phase, so a flag left by an earlier launch
 *   never passes for one of this launch's (and the first arrival of a launch
 *   restarts its flag at phase 1).
 *   Per-launch memory: the driver gives a launch no more than the workspace
 *   word, so the flags live in CG_GRID_FLAGS_SLOTS slots of module memory,
 *   each owned by the workspace address that first claimed it (atom.cas).
 *   Two launches running at the same time have different workspaces, hence
 *   different slots; a later launch that is handed the same workspace
 *   address inherits the slot, and its flags' %gridid tag tells its phases
 *   from the old ones. A launch that finds every slot owned by other
 *   workspaces uses the flat algorithm, which is always correct. Memory:
 *   CG_GRID_FLAGS_SLOTS * (16 * CG_GRID_FLAGS_MAX_BLOCKS + 128) bytes of
 *   __device__ data in each module that uses the grid barrier (512 KB with the
 *   defaults; -DCG_GRID_FLAGS_SLOTS=0 removes it and keeps the flat barrier).
 *   Block 0 gathers in its wait: a block 0 that does long work between its
 *   arrive and its wait delays the whole grid by that long.
 *   Thread 0 looks its slot up (one load of the owner word) at the first
 *   barrier made through each cg_grid_t value: keep one value for the
 *   kernel, as with C++ CG's grid_group.
 *
 * Memory model, flat: all threads of a block -> barrier.sync -> thread 0's
 * release (cumulative) on the counter -> the last arrival's acquire -> its
 * release (flip) -> every poller's acquire -> barrier.sync -> all threads.
 * Flags: all threads of block b -> barrier.sync -> thread 0's
 * atom.release.gpu on its arrival flag -> the ld.acquire.gpu of the block 0
 * thread that sees it -> barrier.sync (block 0) -> each block 0 thread's
 * fence.acq_rel.gpu, then its relaxed release-flag stores (release pattern)
 * -> block c thread 0's ld.acquire.gpu -> barrier.sync -> all threads of c.
 * Either way, writes before the arrive are visible to every thread of the grid
 * after the wait.
 *
 * Debug build (CG_DEBUG=1): a null workspace (no cooperative launch) is
 * reported and traps at cg_this_grid's first barrier call; a wait that does not
 * complete within CG_DEBUG_WAIT_TIMEOUT_NS (e.g. a non-cooperative launch whose
 * blocks are not all resident, or a block that skipped the barrier) prints the
 * word, the phase and the block, then traps.
 */
#ifndef CG_GRID_H
#define CG_GRID_H

#include "barrier/gpu_scope.h"
#include "cg/block_sync.h"
#include "cg/config.h"
#include "cg/dim3.h"
#include "cg/group_header.h"
#include "cg/sreg.h"

/* Nanoseconds a polling block sleeps between polls of the grid barrier word
 * when the grid has more than one block per SM (0: spin). Tuned on an H200. */
#if !defined(CG_GRID_POLL_SLEEP_NS)
#define CG_GRID_POLL_SLEEP_NS 32
#endif

/* The flag barrier (see above): used from this many blocks per SM (grid size
 * >= CG_GRID_FLAGS_MIN_BLOCKS_PER_SM * %nsmid); grids up to
 * CG_GRID_FLAGS_MAX_BLOCKS blocks; CG_GRID_FLAGS_SLOTS launches at a time per
 * module (0 turns the flag barrier off); arrival flags block 0's threads keep
 * in flight each; nanoseconds a waiting block sleeps between polls. */
#if !defined(CG_GRID_FLAGS_MIN_BLOCKS_PER_SM)
#define CG_GRID_FLAGS_MIN_BLOCKS_PER_SM 2
#endif
#if !defined(CG_GRID_FLAGS_MAX_BLOCKS)
#define CG_GRID_FLAGS_MAX_BLOCKS 8192
#endif
#if !defined(CG_GRID_FLAGS_SLOTS)
#define CG_GRID_FLAGS_SLOTS 4
#endif
#if !defined(CG_GRID_FLAGS_BATCH)
#define CG_GRID_FLAGS_BATCH 8
#endif
#if !defined(CG_GRID_FLAGS_POLL_SLEEP_NS)
#define CG_GRID_FLAGS_POLL_SLEEP_NS 0
#endif

/* The grid group. Build it with cg_this_grid(); pass it by pointer. */
typedef struct cg_grid {
    cg_group_header_t _hdr;
    uint32_t _slot;     /* thread 0: the flag barrier's slot (0: not looked up yet) */
    uint32_t *_barrier; /* the workspace's barrier word; NULL without a cooperative launch */
} cg_grid_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Grid workspace ABI                                                        */
/* ------------------------------------------------------------------------- */

/* mov.u32 d, %envreg1; mov.u32 d, %envreg2;  PTX ISA 2.1 (envregs), sm_20
 * The driver's grid workspace address, high word in %envreg1, low word in
 * %envreg2. Layout: { uint32 wsSize; uint32 barrier; ... }. */
CG_DEVICE uint32_t *cg__grid_workspace_barrier(void)
{
    uint32_t hi, lo;
    asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
    uint64_t ws = ((uint64_t)hi << 32) | lo;
    return ws ? (uint32_t *)(uintptr_t)(ws + 4) : (uint32_t *)0;
}

/* ------------------------------------------------------------------------- */
/* Memory operations on the barrier words (gpu scope)                        */
/* ------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------- */
/* Queries                                                                   */
/* ------------------------------------------------------------------------- */

/* The grid group of the calling thread. Cheap and non-collective: reads two
 * special registers; touches no memory. */
CG_DEVICE cg_grid_t cg_this_grid(void)
{
    cg_grid_t g;
    g._hdr.kind = CG_GROUP_GRID;
    g._slot = 0;
    g._barrier = cg__grid_workspace_barrier();
    return g;
}

/* 1 when the launch provided a grid workspace (as C++ CG's is_valid()). The
 * driver may hand a workspace to a non-cooperative launch too, so 1 does not
 * prove the launch was cooperative; grid sync still needs one. */
CG_DEVICE int cg_grid_is_valid(const cg_grid_t *g) { return g->_barrier != (uint32_t *)0; }

/* Blocks in the grid. */
CG_DEVICE uint64_t cg_grid_num_blocks(const cg_grid_t *g)
{
    (void)g;
    return (uint64_t)gridDim.x * gridDim.y * gridDim.z;
}

/* This block's linear rank, x fastest. */
CG_DEVICE uint64_t cg_grid_block_rank(const cg_grid_t *g)
{
    (void)g;
    return ((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

/* The grid's shape in blocks (gridDim). */
CG_DEVICE cg_dim3_t cg_grid_dim_blocks(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(gridDim.x, gridDim.y, gridDim.z);
}

/* This block's 3-D index (blockIdx). */
CG_DEVICE cg_dim3_t cg_grid_block_index(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(blockIdx.x, blockIdx.y, blockIdx.z);
}

/* Threads in the grid. */
CG_DEVICE uint64_t cg_grid_num_threads(const cg_grid_t *g)
{
    return cg_grid_num_blocks(g) * (blockDim.x * blockDim.y * blockDim.z);
}

/* The calling thread's linear rank in the grid: block rank * block size +
 * rank in the block. */
CG_DEVICE uint64_t cg_grid_thread_rank(const cg_grid_t *g)
{
    uint32_t in_block = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    return cg_grid_block_rank(g) * (blockDim.x * blockDim.y * blockDim.z) + in_block;
}

/* The grid's shape in threads (gridDim * blockDim, per dimension). */
CG_DEVICE cg_dim3_t cg_grid_dim_threads(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
}

/* ------------------------------------------------------------------------- */
/* Barrier internals                                                         */
/* ------------------------------------------------------------------------- */

/* Token (meaningful in thread 0 of each block; block 0's other threads learn
 * the flag-barrier phase from shared memory):
 *   flat:  bits 0..31 the word before this block's add; bit 32 set when this
 *          block's arrival completed the phase (no polling)
 *   flags: bits 0..31 the phase number; bit 33 set; bits 40..63 the slot + 1 */
#define CG__GRID_TOK_DONE (1ull << 32)
#define CG__GRID_TOK_FLAGS (1ull << 33)
#define CG__GRID_TOK_SLOT_SHIFT 40

/* g->_slot: not looked up yet / no slot (flat) / slot k stored as k + 1. */
#define CG__GRID_SLOT_UNKNOWN 0u
#define CG__GRID_SLOT_NONE 0xFFFFFFFFu

CG_DEVICE int cg__grid_is_block_thread0(void) { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

CG_DEVICE int cg__grid_flipped(uint32_t before, uint32_t now) { return ((before ^ now) & 0x80000000u) != 0; }

CG_DEVICE uint32_t cg__grid_nblocks(void) { return (uint32_t)(gridDim.x * gridDim.y * gridDim.z); }

CG_DEVICE uint32_t cg__grid_rank(void)
{
    return (uint32_t)(((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x);
}

#if CG_DEBUG
CG_DEVICE void cg__grid_debug_check(const void *word, uint64_t t0, uint64_t seen, const char *what)
{
    if (cg_sreg_globaltimer_ns() - t0 > CG_DEBUG_WAIT_TIMEOUT_NS) {
        printf("cgc: grid barrier %s at %p: phase (word 0x%016llx) did not complete in %llu ns "
               "(block %u,%u,%u of %u,%u,%u). Was the kernel launched cooperatively, with every block "
               "co-resident, and does every block reach the barrier?\n",
               what, word, (unsigned long long)seen, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
               blockIdx.x, blockIdx.y, blockIdx.z, gridDim.x, gridDim.y, gridDim.z);
        __trap();
    }
}

CG_DEVICE void cg__grid_debug_require_workspace(const cg_grid_t *g)
{
    if (g->_barrier == (uint32_t *)0) {
        /* One line per block (thread 0), then every thread traps at once: a
         * million-thread plain launch must not queue a million printfs
         * before its trap takes effect. */
        if (cg__grid_is_block_thread0())
            printf("cgc: grid barrier used in a kernel with no grid workspace (block %u,%u,%u): launch "
                   "it cooperatively (cudaLaunchCooperativeKernel or cg_launch with .cooperative = 1)\n",
                   blockIdx.x, blockIdx.y, blockIdx.z);
        __trap();
    }
}
#endif

/* --- flat: one sense-reversing word in the workspace ---------------------- */

/* Poll `word` until its top bit differs from `before`'s; sleeping `sleep_ns`
 * between polls when nonzero. Acquire on the load that sees the flip. */
CG_DEVICE void cg__grid_poll_flip(const uint32_t *word, uint32_t before, uint32_t sleep_ns)
{
#if CG_DEBUG
    uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
    while (!cg__grid_flipped(before, cg_gpu_ld_acquire_u32(word))) {
        if (sleep_ns)
            __nanosleep(sleep_ns);
#if CG_DEBUG
        cg__grid_debug_check(word, t0, before, "wait");
#endif
    }
}

/* Thread 0's flat arrival: block 0 adds 0x80000000 - (n - 1), every other
 * block 1, so a full phase flips the top bit and leaves the low bits 0. */
CG_DEVICE uint64_t cg__grid_flat_arrive(uint32_t *word)
{
    uint32_t n = cg__grid_nblocks();
    uint32_t add = cg__grid_rank() == 0 ? 0x80000000u - (n - 1u) : 1u;
    uint32_t old = cg_gpu_atom_add_acq_rel_u32(word, add);
    return (uint64_t)old | (cg__grid_flipped(old, old + add) ? CG__GRID_TOK_DONE : 0ull);
}

/* Sleep between polls when blocks outnumber SMs (at one block per SM the
 * pollers are few and a sleep only adds wake-up latency). */
CG_DEVICE uint32_t cg__grid_flat_sleep_ns(void)
{
    return cg__grid_nblocks() > cg_sreg_nsmid() ? (uint32_t)CG_GRID_POLL_SLEEP_NS : 0u;
}

/* --- flags: per-block arrival and release flags, block 0 gathers ---------- */

/* One slot per launch running at a time: the workspace address that owns it
 * (never released: a workspace address is owned by one launch at a time, and
 * a later launch that gets the same address inherits the slot), then each
 * block's arrival flag and release flag. Flags hold (low 32 bits of %gridid)
 * << 32 | phase, so no value left by another launch can pass for one of this
 * launch's. */
typedef struct cg__grid_flags_slot {
    uint64_t owner;
    uint64_t _pad[15]; /* owner alone in its 128-byte line */
    uint64_t in[CG_GRID_FLAGS_MAX_BLOCKS];
    uint64_t out[CG_GRID_FLAGS_MAX_BLOCKS];
} cg__grid_flags_slot_t;

/* At least one slot, so the code compiles with CG_GRID_FLAGS_SLOTS=0 (which
 * cg__grid_flags_wanted turns into "never"). */
#define CG__GRID_NSLOTS (CG_GRID_FLAGS_SLOTS > 0 ? CG_GRID_FLAGS_SLOTS : 1)

static __device__ cg__grid_flags_slot_t cg__grid_flags[CG__GRID_NSLOTS];

/* Block 0's shared word: thread 0 leaves the phase there (bit 31: no slot,
 * flat) for the block's other threads, which gather with it. */
CG_DEVICE uint32_t *cg__grid_flags_phase_smem(void)
{
    __shared__ uint32_t phase;
    return &phase;
}

/* The grid is large enough for the flag barrier (every block decides alike). */
CG_DEVICE int cg__grid_flags_wanted(void)
{
    uint32_t n = cg__grid_nblocks();
    return n >= (uint32_t)CG_GRID_FLAGS_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() && n <= CG_GRID_FLAGS_MAX_BLOCKS &&
           CG_GRID_FLAGS_SLOTS > 0;
}

/* Thread 0: the slot this launch's workspace owns, claiming a free one;
 * CG__GRID_SLOT_NONE when every slot belongs to another workspace. Owners
 * never change once set, so every block of a launch finds the same slot. */
CG_DEVICE uint32_t cg__grid_flags_lookup(const uint32_t *barrier_word)
{
    uint64_t ws = (uint64_t)(uintptr_t)barrier_word;
    uint32_t h = (uint32_t)(ws >> 4) % (uint32_t)CG__GRID_NSLOTS;
    for (uint32_t i = 0; i < (uint32_t)CG__GRID_NSLOTS; ++i) {
        uint32_t k = (h + i) % (uint32_t)CG__GRID_NSLOTS;
        uint64_t *owner = &cg__grid_flags[k].owner;
        uint64_t o = cg_gpu_ld_relaxed_u64(owner);
        if (o == 0)
            o = cg_gpu_atom_cas_relaxed_u64(owner, 0, ws);
        if (o == 0 || o == ws)
            return k + 1u;
    }
    return CG__GRID_SLOT_NONE;
}

CG_DEVICE uint64_t cg__grid_flags_tag(void) { return (uint64_t)(uint32_t)cg_sreg_gridid() << 32; }

/* Thread 0's arrival on its own flag: add 1 (release, gpu scope). A flag
 * left by another launch (another tag) is restarted at phase 1. */
CG_DEVICE uint32_t cg__grid_flags_arrive(cg__grid_flags_slot_t *s, uint32_t b)
{
    uint64_t tag = cg__grid_flags_tag();
    uint64_t old = cg_gpu_atom_add_release_u64(&s->in[b], 1);
    if ((old & 0xFFFFFFFF00000000ull) == tag && (uint32_t)old != 0xFFFFFFFFu)
        return (uint32_t)old + 1u;
    cg_gpu_st_release_u64(&s->in[b], tag | 1u);
    return 1u;
}

/* Spin until *p == want (acquire on the load that sees it). */
CG_DEVICE void cg__grid_flags_poll(const uint64_t *p, uint64_t want, uint32_t sleep_ns)
{
#if CG_DEBUG
    uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
    while (cg_gpu_ld_acquire_u64(p) != want) {
        if (sleep_ns)
            __nanosleep(sleep_ns);
#if CG_DEBUG
        cg__grid_debug_check(p, t0, want, "flag wait");
#endif
    }
}

/* Block 0, every thread: wait for the arrival flags of blocks t, t+T, ...
 * (T = threads per block), CG_GRID_FLAGS_BATCH loads in flight at a time;
 * then, after the block barrier, one release fence and the release flags. */
CG_DEVICE void cg__grid_flags_gather(cg__grid_flags_slot_t *s, uint64_t want)
{
    uint32_t n = cg__grid_nblocks();
    uint32_t nt = blockDim.x * blockDim.y * blockDim.z;
    uint32_t t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
#if CG_DEBUG
    uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
    for (uint32_t first = t; first < n; first += CG_GRID_FLAGS_BATCH * nt) {
        int pending;
        do {
            pending = 0;
#pragma unroll
            for (uint32_t k = 0; k < CG_GRID_FLAGS_BATCH; ++k) {
                uint32_t b = first + k * nt;
                if (b < n && b != 0 && cg_gpu_ld_acquire_u64(&s->in[b]) != want)
                    pending = 1;
            }
#if CG_DEBUG
            cg__grid_debug_check(&s->in[first], t0, want, "gather");
#endif
        } while (pending);
    }
    cg__block_sync_unaligned(); /* every arrival acquired by some thread of block 0 */
    cg_gpu_fence_acq_rel();     /* ... and released by each, for its flags */
    for (uint32_t b = t; b < n; b += nt)
        if (b != 0)
            cg_gpu_st_relaxed_u64(&s->out[b], want);
}

/* Thread 0: the flags slot for this launch, looked up once per grid value. */
CG_DEVICE uint32_t cg__grid_slot(cg_grid_t *g)
{
    if (g->_slot == CG__GRID_SLOT_UNKNOWN)
        g->_slot = cg__grid_flags_lookup(g->_barrier);
    return g->_slot;
}

/* ------------------------------------------------------------------------- */
/* Barrier                                                                   */
/* ------------------------------------------------------------------------- */

/* Block 0's shared hand-over from thread 0's arrive to its threads' wait. */
typedef struct cg__grid_handover {
    uint32_t phase; /* the flag barrier's phase; CG__GRID_SLOT_NONE: flat this time */
    uint32_t slot;
} cg__grid_handover_t;

CG_DEVICE cg__grid_handover_t *cg__grid_handover(void)
{
    __shared__ cg__grid_handover_t h;
    return &h;
}

/* Split arrive: collective over every thread of the grid, once per phase.
 * Does a CTA barrier (barrier.sync 0: the block's writes are ordered before
 * thread 0's release), then thread 0 adds the block's arrival. Returns at once
 * after that: threads may do independent work before cg_grid_barrier_wait.
 * The token is meaningful only in thread 0 but every thread passes its own to
 * the wait. */
CG_DEVICE cg_token_t cg_grid_barrier_arrive(cg_grid_t *g)
{
    cg_token_t t;
    t._opaque = 0;
#if CG_DEBUG
    cg__grid_debug_require_workspace(g);
#endif
    cg__block_sync_unaligned();
    if (!cg__grid_is_block_thread0())
        return t;
    uint32_t slot = cg__grid_flags_wanted() ? cg__grid_slot(g) : CG__GRID_SLOT_NONE;
    uint32_t rank = cg__grid_rank();
    if (slot == CG__GRID_SLOT_NONE) {
        t._opaque = cg__grid_flat_arrive(g->_barrier);
        if (rank == 0)
            cg__grid_handover()->phase = CG__GRID_SLOT_NONE;
    } else {
        uint32_t phase = cg__grid_flags_arrive(&cg__grid_flags[slot - 1u], rank);
        t._opaque = CG__GRID_TOK_FLAGS | ((uint64_t)slot << CG__GRID_TOK_SLOT_SHIFT) | phase;
        if (rank == 0) {
            cg__grid_handover()->phase = phase;
            cg__grid_handover()->slot = slot;
        }
    }
    return t;
}

/* Split wait: returns once every block of the grid has arrived in the phase
 * `tok` came from; afterwards every thread sees every write made anywhere in
 * the grid before the matching arrives. Collective over the block. On the
 * flag barrier, block 0's threads gather the other blocks' arrivals here. */
CG_DEVICE void cg_grid_barrier_wait(cg_grid_t *g, cg_token_t tok)
{
    if (cg__grid_flags_wanted() && cg__grid_rank() == 0) {
        cg__block_sync_unaligned(); /* thread 0's hand-over is written */
        cg__grid_handover_t h = *cg__grid_handover();
        if (h.phase != CG__GRID_SLOT_NONE) {
            cg__grid_flags_gather(&cg__grid_flags[h.slot - 1u], cg__grid_flags_tag() | h.phase);
            return;
        }
    }
    if (cg__grid_is_block_thread0()) {
        if (tok._opaque & CG__GRID_TOK_FLAGS) {
            uint32_t slot = (uint32_t)(tok._opaque >> CG__GRID_TOK_SLOT_SHIFT);
            cg__grid_flags_slot_t *s = &cg__grid_flags[slot - 1u];
            cg__grid_flags_poll(&s->out[cg__grid_rank()], cg__grid_flags_tag() | (uint32_t)tok._opaque,
                                CG_GRID_FLAGS_POLL_SLEEP_NS);
        } else if (!(tok._opaque & CG__GRID_TOK_DONE)) {
            cg__grid_poll_flip(g->_barrier, (uint32_t)tok._opaque, cg__grid_flat_sleep_ns());
        }
    }
    cg__block_sync_unaligned();
}

/* Grid-wide barrier: arrive then wait. */
CG_DEVICE void cg_grid_sync(cg_grid_t *g) { cg_grid_barrier_wait(g, cg_grid_barrier_arrive(g)); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_GRID_H */
