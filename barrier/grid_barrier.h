/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/grid_barrier.h — the grid barrier: one barrier across every block
 * of a cooperative launch, on the driver's grid workspace. Needs no group:
 * its calls take the workspace's barrier word and the caller's algorithm
 * state (a 32-bit word). Here: the workspace ABI, the settings, both
 * algorithms' arrivals (cg_grid_block_arrive_ flat, cg_grid_spread_arrive_
 * after cg_grid_spread_slot_for_phase_) and waits (cg_grid_poll_flip_,
 * cg_grid_spread_wait_), and the misuse reports. cg/grid.h keeps both words
 * in a cg_grid_t and makes the public calls of them: cg_grid_barrier_arrive
 * (block barrier, then thread 0 picks the algorithm and arrives),
 * cg_grid_barrier_wait (picks the algorithm from the token, reports a late
 * wait in a debug build, ends with the block barrier) and cg_grid_sync.
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
 * The workspace gives each running launch ONE 32-bit word, zero at the start
 * of every launch; an address is owned by one running launch at a time.
 *
 * Flat algorithm (below CG_GRID_SPREAD_MIN_BLOCKS_PER_SM blocks per SM, every
 * launch's first barrier, and the fallback): a sense-reversing counter on the
 * workspace word, bit-compatible with C++ CG's grid.sync().
 *   - Each block arrives once per phase: __syncthreads, then thread 0 adds to
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
 *   - The others poll with ld.acquire.gpu; above
 *     CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM (4) blocks per SM they sleep
 *     CG_GRID_POLL_SLEEP_NS (32) between polls so the pollers leave the one
 *     L2 slice that holds the word to the arrivals' atomics (measured best
 *     on both sizes of grid: docs/design/grid_barrier.md).
 *   Its floor: every block's atomic serializes on one L2 slice, so at many
 *   blocks per SM it stays near CG.
 *
 * Spread barrier (from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM = 10 blocks per SM, up
 * to CG_GRID_SPREAD_MAX_BLOCKS blocks). Its words live in module memory, in
 * CG_GRID_SPREAD_SLOTS slots, each owned by the workspace address that first
 * claimed it (atom.cas): two launches running at once never share a slot,
 * and a launch that finds every slot taken by other workspaces stays flat.
 *   - Arrive: thread 0 adds 1 to one of 32 counters (block rank mod 32) with
 *     red.release.gpu: fire and forget, so the arrival waits for nothing and
 *     32 counters take the grid's arrivals side by side. Every block counts
 *     the phases in shared memory (every block takes part in every phase, so
 *     all agree on the number p).
 *   - Wait: blocks are released in groups of CG_GRID_SPREAD_GROUP (64)
 *     consecutive ranks, each group through one 64-bit word: 2p + 1 while a
 *     block of the group watches phase p, 2p + 2 once it is released. Thread
 *     0 does atom.acquire.max(word, 2p + 1). The first of the group to get
 *     there (the old value is below 2p + 1) is the group's watcher: warp 0
 *     polls all 32 counters (one per lane) until each holds all of phase p's
 *     arrivals, then lane 0 fences and stores 2p + 2. Any later block of the
 *     group polls the word for 2p + 2 (or already found it in the atom).
 *   - Counters only grow (wrap-safe compares): counter k has all of phase
 *     p's arrivals once it reaches p times its share of the blocks, because
 *     no block arrives for p + 1 before some watcher saw all of phase p.
 *   - Progress: the watcher is a block already in its wait, and what it
 *     waits for is the arrivals alone. So a wait returns once every block has
 *     arrived, whatever the other blocks do after arriving: one that works
 *     between its arrive and its wait (or waits there for another block's
 *     post-barrier write) holds up nobody, as with the flat counter and C++
 *     CG's barrier_arrive.
 *   - A block's first barrier in a launch is always flat (the workspace word
 *     is fresh each launch); during it block 0 zeroes the counters and the
 *     first block of each group its word, so the slot starts clean whatever
 *     an earlier launch left there (a kernel that ended mid-phase included),
 *     and every block starts counting at p = 0. Whether a barrier is a
 *     block's first is in shared memory, tagged with %gridid and the block's
 *     rank (the thread block barrier's scheme); the caller's state word
 *     then keeps the slot, so the next barrier with it reads nothing to
 *     find it.
 *   Every counter and word is alone in a 128-byte line (with several in one
 *   line their atomics and polls meet in one L2 slice). Memory:
 *   CG_GRID_SPREAD_SLOTS * (128 * (33 + CG_GRID_SPREAD_MAX_BLOCKS /
 *   CG_GRID_SPREAD_GROUP)) bytes of __device__ data per module that uses the
 *   grid barrier (81 KB with the defaults); -DCG_GRID_SPREAD_SLOTS=0 keeps the
 *   flat barrier only.
 *
 * Why this shape: a gpu-scope fence is an L2 round trip of its own, so a
 * design is judged by the fences and round trips on the path from the last
 * arrival to the last wake-up. The measurements, the switch point and the
 * designs built and not kept: docs/design/grid_barrier.md.
 *
 * Memory model, flat: all threads of a block -> __syncthreads -> thread 0's
 * release (cumulative) on the counter -> the last arrival's acquire -> its
 * release (flip) -> every poller's acquire -> __syncthreads -> all threads.
 * Spread: all threads of a block -> __syncthreads -> thread 0's
 * red.release.gpu on its counter -> a watcher lane's ld.acquire.gpu that
 * reads a value at or past the phase's target (reductions are atomic
 * read-modify-writes, so the value read follows every reduction of the phase
 * on that counter in observation order) -> __syncwarp (memory ordering among
 * warp 0's lanes) -> lane 0's fence.acq_rel.gpu -> st.relaxed 2p + 2 on the
 * group word (a release pattern) -> a group member's atom.acquire.max or
 * ld.acquire.gpu that reads it (or a later value, which follows it) ->
 * __syncthreads -> all threads. Either way, writes before the arrive are
 * visible to every thread of the grid after the wait.
 *
 * Debug build (CG_DEBUG=1): a null workspace (no cooperative launch) is
 * reported and traps at the first arrive; a wait that does not
 * complete within CG_DEBUG_WAIT_TIMEOUT_NS (e.g. a non-cooperative launch whose
 * blocks are not all resident, or a block that skipped the barrier) prints the
 * word, the phase and the block, then traps; so does a spread wait whose
 * token is not from the block's last arrive.
 */
#ifndef CG_BARRIER_GRID_BARRIER_H
#define CG_BARRIER_GRID_BARRIER_H

#include "../base/config.h"
#include "../base/gpu_scope.h"
#include "../base/sreg.h"

/* Nanoseconds a polling block sleeps between polls of the grid barrier word
 * when the grid has more than one block per SM (0: spin). Tuned on an H200. */
#if !defined(CG_GRID_POLL_SLEEP_NS)
#define CG_GRID_POLL_SLEEP_NS 32
#endif
/* ... and only above this many blocks per SM (at or below it they spin). */
#if !defined(CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM)
#define CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM 4
#endif

/* The spread barrier (see above): used from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM
 * blocks per SM (grid size >= that * %nsmid), for grids of up to
 * CG_GRID_SPREAD_MAX_BLOCKS blocks; blocks are released in groups of
 * CG_GRID_SPREAD_GROUP; CG_GRID_SPREAD_SLOTS launches running at once per
 * module get one (0 turns it off: every grid uses the flat barrier). */
#if !defined(CG_GRID_SPREAD_MIN_BLOCKS_PER_SM)
#define CG_GRID_SPREAD_MIN_BLOCKS_PER_SM 10
#endif
#if !defined(CG_GRID_SPREAD_MAX_BLOCKS)
#define CG_GRID_SPREAD_MAX_BLOCKS 8192
#endif
#if !defined(CG_GRID_SPREAD_GROUP)
#define CG_GRID_SPREAD_GROUP 64
#endif
#if !defined(CG_GRID_SPREAD_SLOTS)
#define CG_GRID_SPREAD_SLOTS 4
#endif
/* Nanoseconds a watcher or a waiting block sleeps between polls (0: spin). */
#if !defined(CG_GRID_SPREAD_POLL_SLEEP_NS)
#define CG_GRID_SPREAD_POLL_SLEEP_NS 0
#endif

/* How the flat barrier's waiter polls. 1 (default): every poll an
 * ld.acquire.gpu. 0: relaxed loads, then one fence.acq_rel.gpu after the
 * load that saw the flip (an acquire pattern): slower, because the fence
 * waits for the memory system on every waiter's critical path; kept for the
 * benchmark's setting row (docs/design/grid_barrier.md). */
#ifndef CG_GRID_POLL_ACQUIRE
#define CG_GRID_POLL_ACQUIRE 1
#endif

/* The caller's state word (cg_grid_t._spread): WANTED when the grid is large
 * enough for the spread barrier (a launch constant, decided alike in every
 * thread); KNOWN and the slot below, set by thread 0 once its block's first
 * barrier is done (the slot no longer changes in the launch). */
#define CG_GRID_SPREAD_WANTED_ 0x40000000u
#define CG_GRID_SPREAD_KNOWN_ 0x80000000u
#define CG_GRID_SPREAD_SLOT_MASK_ 0x3fffffffu

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Grid workspace ABI                                                        */
/* ------------------------------------------------------------------------- */

/* The barrier word of the driver's grid workspace (address: high word in
 * %envreg1, low word in %envreg2, base/sreg.h; layout: { uint32 wsSize;
 * uint32 barrier; ... }), NULL when the launch has no workspace. */
CG_DEVICE uint32_t *cg_grid_workspace_barrier_(void)
{
    uint64_t ws = cg_sreg_grid_workspace_();
    return ws ? (uint32_t *)(uintptr_t)(ws + 4) : (uint32_t *)0;
}

/* The grid is large enough for the spread barrier: the initial state word is
 * CG_GRID_SPREAD_WANTED_ when this is true, else 0. */
CG_DEVICE int cg_grid_spread_wanted_(void)
{
    uint32_t n = gridDim.x * gridDim.y * gridDim.z;
    return CG_GRID_SPREAD_SLOTS > 0 && n >= (uint32_t)CG_GRID_SPREAD_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() &&
           n <= (uint32_t)CG_GRID_SPREAD_MAX_BLOCKS;
}

/* The calling thread's linear rank in its block (x fastest: warp 0 is ranks
 * 0..31). */
CG_DEVICE uint32_t cg_grid_block_thread_rank_(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

/* ------------------------------------------------------------------------- */
/* Barrier internals                                                         */
/* ------------------------------------------------------------------------- */

/* Token bits (only thread 0 of each block carries a meaningful token):
 *   bits 0..31  flat: the word before this block's add; spread: the phase's
 *               number (low 32 bits)
 *   bit 32      flat: this block's arrival completed the phase (no polling)
 *   bit 33      spread: this phase used the spread barrier
 *   bits 40..63 spread: the slot */
#define CG_GRID_TOK_DONE_ (1ull << 32)
#define CG_GRID_TOK_SPREAD_ (1ull << 33)
#define CG_GRID_TOK_SLOT_SHIFT_ 40

/* The grid's size and this block's rank as the barrier counts them, in 32
 * bits (a cooperative grid is co-resident: far fewer than 2^32 blocks). */
CG_DEVICE uint32_t cg_grid_nblocks_(void) { return (uint32_t)((uint64_t)gridDim.x * gridDim.y * gridDim.z); }
CG_DEVICE uint32_t cg_grid_rank_(void)
{
    return (uint32_t)(((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x);
}

CG_DEVICE int cg_grid_is_block_thread0_(void) { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

CG_DEVICE int cg_grid_flipped_(uint32_t before, uint32_t now) { return ((before ^ now) & 0x80000000u) != 0; }

#if CG_DEBUG
/* Debug build: a wait that outlived CG_DEBUG_WAIT_TIMEOUT_NS (or a wrong
 * token) stops polling and says why with one of these codes; the report is
 * made after warp 0's polling, in cg_grid_barrier_wait (cg/grid.h), where few values are
 * live (a report call inside the warp-synchronous polling cost the kernel
 * 20-26 registers: docs/design/debug_builds.md). */
#define CG_GRID_LATE_FLAT_ 1u   /* flat word did not flip */
#define CG_GRID_LATE_WATCH_ 2u  /* spread: a counter did not reach the phase */
#define CG_GRID_LATE_WAIT_ 3u   /* spread: the group's word was not released */
#define CG_GRID_LATE_TOKEN_ 4u  /* spread: token of another phase */

/* The debug reports, out of line (base/config.h, CG_REPORT_); the report of
 * a late wait is cg/grid.h's (it names the group), from the code the polling
 * functions return. */
CG_REPORT_ void cg_grid_report_no_workspace_debug_(void)
{
    /* One line per block (thread 0), then its trap: a million-thread plain
     * launch must not queue a million printfs. The other threads trap a few
     * milliseconds later: trapping at once, they ended the kernel before
     * thread 0's line reached the printf buffer (seen on an H100: the
     * report was empty). */
    if ((threadIdx.x | threadIdx.y | threadIdx.z) == 0) {
        printf("cgc: grid barrier used in a kernel with no grid workspace (block %u,%u,%u): launch "
               "it cooperatively (cudaLaunchCooperativeKernel or cg_launch with .cooperative = 1)\n",
               blockIdx.x, blockIdx.y, blockIdx.z);
        __trap();
    }
    for (int i = 0; i < 4; ++i)
        __nanosleep(1000000u);
    __trap();
}

CG_DEVICE void cg_grid_debug_require_workspace_(const uint32_t *word)
{
    if (CG_UNLIKELY_(word == (uint32_t *)0))
        cg_grid_report_no_workspace_debug_();
}
/* In the polling loops: stop with `code` once the wait is past the bound. */
#define CG_GRID_DEBUG_LATE_(t0, late, code)                                                        \
    if (CG_UNLIKELY_(cg_debug_timer_expired_(t0))) {                                               \
        (late) = (code);                                                                           \
        break;                                                                                     \
    }
#endif

/* The release build's report of a grid barrier with no workspace (a plain,
 * non-cooperative launch; its atomics would fault on address 4): thread 0 of
 * each block prints the cause and traps, ending the kernel with a launch
 * failure. Out of line and without arguments, so the grid-sync kernels keep
 * their frame: the hot path is one compare of the workspace pointer and a
 * branch not taken (tests/cg:ptx_test checks no local depot appears). */
/* Plain __noinline__, not CG_REPORT_: with noreturn and cold on this call
 * ptxas gave the grid-sync kernel 28 registers instead of 25 (sm_90a, CUDA
 * 13.0), above twice C++ CG's 13 (tools/compile_time.py). */
static __device__ __noinline__ void cg_grid_report_no_workspace_(void)
{
    printf("cgc: grid sync in a kernel launched without a grid workspace (block %u,%u,%u): grid sync needs a "
           "cooperative launch (cudaLaunchCooperativeKernel, or cg_launch with .cooperative = 1)\n",
           blockIdx.x, blockIdx.y, blockIdx.z);
    __trap();
}

/* Poll `word` until its top bit differs from `before`'s; sleeping `sleep_ns`
 * between polls when nonzero. Acquire: the load that sees the flip, or the
 * fence after it (CG_GRID_POLL_ACQUIRE). Returns 0, or (debug build)
 * CG_GRID_LATE_FLAT_ when it gave up. */
CG_DEVICE uint32_t cg_grid_poll_flip_(const uint32_t *word, uint32_t before, uint32_t sleep_ns)
{
    uint32_t late = 0;
#if CG_DEBUG
    const uint32_t t0 = cg_debug_timer_start_();
#endif
    while (!cg_grid_flipped_(before, CG_GRID_POLL_ACQUIRE ? cg_gpu_ld_acquire_u32(word) : cg_gpu_ld_relaxed_u32(word))) {
        if (sleep_ns)
            __nanosleep(sleep_ns);
#if CG_DEBUG
        CG_GRID_DEBUG_LATE_(t0, late, CG_GRID_LATE_FLAT_)
#endif
    }
    if (!CG_GRID_POLL_ACQUIRE)
        cg_gpu_fence_acq_rel(); /* with the relaxed load that saw the flip: an acquire */
    return late;
}

/* One block's arrival on a sense-reversing word shared by `n` arrivers, of
 * which `is_first` is the one that carries the -(n-1). */
CG_DEVICE uint64_t cg_grid_word_arrive_(uint32_t *word, uint32_t n, int is_first)
{
    uint32_t add = is_first ? 0x80000000u - (n - 1u) : 1u;
    uint32_t old = cg_gpu_atom_add_acq_rel_u32(word, add);
    return (uint64_t)old | (cg_grid_flipped_(old, old + add) ? CG_GRID_TOK_DONE_ : 0ull);
}


/* Thread 0's part of the arrive. */
CG_DEVICE uint64_t cg_grid_block_arrive_(uint32_t *word)
{
    uint32_t n = cg_grid_nblocks_();
    uint32_t b = cg_grid_rank_();
    return cg_grid_word_arrive_(word, n, b == 0);
}

/* Sleep between polls only above CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM blocks
 * per SM (with fewer pollers a sleep only adds wake-up latency). */
CG_DEVICE uint32_t cg_grid_sleep_ns_(void)
{
    uint32_t n = cg_grid_nblocks_();
    return n > (uint32_t)CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM * cg_sreg_nsmid() ? (uint32_t)CG_GRID_POLL_SLEEP_NS
                                                                               : 0u;
}

/* --- spread barrier: counters and group words in a per-launch slot -------- */

/* One slot per launch running at a time, owned by the workspace address that
 * claimed it: CG_GRID_SPREAD_COUNTERS_ arrival counters and one release word
 * per group, each alone in a 128-byte line (CG_GRID_LINE_WORDS_ 32-bit
 * words; see the top of this file for why). */
#define CG_GRID_SPREAD_NSLOTS_ (CG_GRID_SPREAD_SLOTS > 0 ? CG_GRID_SPREAD_SLOTS : 1)
#define CG_GRID_SPREAD_GROUPS_ ((CG_GRID_SPREAD_MAX_BLOCKS + CG_GRID_SPREAD_GROUP - 1) / CG_GRID_SPREAD_GROUP)
#define CG_GRID_SPREAD_COUNTERS_ 32u
#define CG_GRID_LINE_WORDS_ 32u

typedef struct cg_grid_spread_slot_ {
    uint64_t owner;
    uint64_t _pad[15];
    uint32_t count[CG_GRID_SPREAD_COUNTERS_ * CG_GRID_LINE_WORDS_];
    uint64_t release[CG_GRID_SPREAD_GROUPS_ * (CG_GRID_LINE_WORDS_ / 2u)];
} cg_grid_spread_slot_t_;

static __device__ cg_grid_spread_slot_t_ cg_grid_spread_[CG_GRID_SPREAD_NSLOTS_];

/* Counter k and group g's release word in slot `slot` (1-based). A release
 * word holds 2p + 1 while a block of the group watches phase p, 2p + 2 once
 * phase p is released to the group. */
CG_DEVICE uint32_t *cg_grid_spread_count_(uint32_t slot, uint32_t k)
{
    return &cg_grid_spread_[slot - 1u].count[k * CG_GRID_LINE_WORDS_];
}
CG_DEVICE uint64_t *cg_grid_spread_release_(uint32_t slot, uint32_t g)
{
    return &cg_grid_spread_[slot - 1u].release[g * (CG_GRID_LINE_WORDS_ / 2u)];
}

/* Per block, in shared memory: which launch and block this block's state
 * belongs to (%gridid and rank: nothing another block or launch leaves there
 * can match), the slot (0: flat), and the number of the block's last spread
 * phase (every block takes part in every phase, so all agree on it). */
typedef struct cg_grid_spread_block_s_ {
    uint64_t grid;
    uint32_t rank;
    uint32_t slot;
    uint64_t phase;
} cg_grid_spread_block_t_;


CG_DEVICE cg_grid_spread_block_t_ *cg_grid_spread_block_(void)
{
    __shared__ cg_grid_spread_block_t_ s;
    return &s;
}

/* The slot the workspace `ws` owns, claiming a free one (atom.cas); 0 when
 * every slot belongs to another workspace. Owners never change once set, so
 * every block of a launch finds the same slot, and two launches running at
 * once (different workspaces) never share one. */
CG_DEVICE uint32_t cg_grid_spread_lookup_(const uint32_t *word)
{
    uint64_t ws = (uint64_t)(uintptr_t)word;
    uint32_t h = (uint32_t)(ws >> 6) % (uint32_t)CG_GRID_SPREAD_NSLOTS_;
    for (uint32_t i = 0; i < (uint32_t)CG_GRID_SPREAD_NSLOTS_; ++i) {
        uint32_t k = (h + i) % (uint32_t)CG_GRID_SPREAD_NSLOTS_;
        uint64_t *owner = &cg_grid_spread_[k].owner;
        uint64_t o = cg_gpu_ld_relaxed_u64(owner);
        if (o == 0)
            o = cg_gpu_atom_cas_relaxed_u64(owner, 0, ws);
        if (o == 0 || o == ws)
            return k + 1u;
    }
    return 0;
}

/* Thread 0: this block's algorithm for this phase: 0 flat, else the spread
 * barrier's slot. A block's first barrier in a launch is always flat (the
 * workspace word is fresh in every launch); during it block 0 zeroes the
 * counters and the first block of each group its release word, so from the
 * second barrier on the slot starts clean whatever an earlier launch left in
 * it, and every block starts counting phases at 0. The answer is then kept
 * in shared memory (for any state word of the block) and in `*spread` (so
 * the next call with it reads nothing). `*word`: the workspace's barrier
 * word, whose address names the launch (read only when the slot is looked
 * up). */
CG_DEVICE uint32_t cg_grid_spread_slot_for_phase_(uint32_t *spread, uint32_t *const *word)
{
    if (*spread & CG_GRID_SPREAD_KNOWN_)
        return *spread & CG_GRID_SPREAD_SLOT_MASK_;
    cg_grid_spread_block_t_ *st = cg_grid_spread_block_();
    uint64_t grid = cg_sreg_gridid();
    uint32_t b = cg_grid_rank_();
    if (st->grid == grid && st->rank == b) {
        *spread |= CG_GRID_SPREAD_KNOWN_ | st->slot;
        return st->slot;
    }
    uint32_t slot = cg_grid_spread_lookup_(*word);
    if (slot != 0) {
        if (b == 0)
            for (uint32_t k = 0; k < CG_GRID_SPREAD_COUNTERS_; ++k)
                cg_gpu_st_relaxed_u32(cg_grid_spread_count_(slot, k), 0u);
        if (b % CG_GRID_SPREAD_GROUP == 0)
            cg_gpu_st_relaxed_u64(cg_grid_spread_release_(slot, b / CG_GRID_SPREAD_GROUP), 0u);
    }
    st->grid = grid;
    st->rank = b;
    st->slot = slot;
    st->phase = 0;
    return 0;
}

/* Thread 0's spread arrival: count the phase and add 1 to counter rank mod
 * CG_GRID_SPREAD_COUNTERS_ with a release reduction (fire and forget: the
 * arrival waits for nothing). */
CG_DEVICE uint64_t cg_grid_spread_arrive_(uint32_t slot)
{
    cg_grid_spread_block_t_ *st = cg_grid_spread_block_();
    uint64_t p = st->phase + 1u;
    st->phase = p;
    cg_gpu_red_add_release_u32(cg_grid_spread_count_(slot, cg_grid_rank_() % CG_GRID_SPREAD_COUNTERS_), 1u);
    return CG_GRID_TOK_SPREAD_ | ((uint64_t)slot << CG_GRID_TOK_SLOT_SHIFT_) | (uint32_t)p;
}

/* Warp 0 of the block that claimed phase p for its group: poll every counter
 * (lane i counter i, i + lanes, ...) until each holds all of phase p's
 * arrivals, then release the group. Counters only grow, so a counter at or
 * past p * (its share of the blocks) holds every arrival of phase p: a block
 * arrives for phase p + 1 only after some watcher saw all of phase p. */
CG_DEVICE uint32_t cg_grid_spread_watch_(uint32_t slot, uint64_t p, uint32_t lane, uint32_t lanes, uint32_t mask)
{
    uint32_t late = 0;
    /* p as lane 0 read it: the other lanes may not read the block's phase
     * count themselves (lane 0 wrote it in the arrive, with no barrier
     * since). The counters need only its low 32 bits. */
    uint32_t p_lo = __shfl_sync(mask, (uint32_t)p, 0);
    uint32_t n = cg_grid_nblocks_();
#if CG_DEBUG
    const uint32_t t0 = cg_debug_timer_start_();
#endif
    for (;;) {
        int ok = 1;
        for (uint32_t k = lane; k < CG_GRID_SPREAD_COUNTERS_; k += lanes) {
            uint32_t share = n / CG_GRID_SPREAD_COUNTERS_ + (k < n % CG_GRID_SPREAD_COUNTERS_ ? 1u : 0u);
            uint32_t v = cg_gpu_ld_acquire_u32(cg_grid_spread_count_(slot, k));
            ok &= (int32_t)(v - p_lo * share) >= 0;
        }
        if (__all_sync(mask, ok))
            break;
        if (CG_GRID_SPREAD_POLL_SLEEP_NS)
            __nanosleep((uint32_t)CG_GRID_SPREAD_POLL_SLEEP_NS);
#if CG_DEBUG
        /* the lanes give up together: __all_sync above needs all of them */
        if (CG_UNLIKELY_(__any_sync(mask, cg_debug_timer_expired_(t0)))) {
            late = CG_GRID_LATE_WATCH_;
            break;
        }
#endif
    }
    /* Every lane's acquire, then lane 0's release of all of it (the warp
     * barrier orders the lanes' loads before lane 0's fence). */
    __syncwarp(mask);
    if (lane == 0) {
        cg_gpu_fence_acq_rel();
        cg_gpu_st_relaxed_u64(cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP), 2u * p + 2u);
    }
    return late;
}

/* Warp 0's part of a spread wait (lanes: warp 0's threads, all of a block
 * smaller than a warp): thread 0 claims phase p for its group (atom.max of
 * 2p + 1 on the group's word). The first of the group to get here watches;
 * a later one polls the word for 2p + 2 (or finds it there already). Nobody
 * waits for a block that has not reached its wait: the watcher is a block
 * already waiting, so a block that works between its arrive and its wait
 * holds up no one. `tok_phase`: thread 0's token (the phase's low 32 bits). */
CG_DEVICE uint32_t cg_grid_spread_wait_(uint32_t slot, uint32_t tok_phase, uint32_t lane, uint32_t lanes,
                                        uint32_t mask)
{
    uint32_t late = 0;
    uint64_t *word = cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP);
    uint32_t watch = 0;
    uint64_t p = 0, seen = 0;
    if (lane == 0) {
        p = cg_grid_spread_block_()->phase; /* lane 0 wrote it; only lane 0 reads it */
#if CG_DEBUG
        if (CG_UNLIKELY_(tok_phase != (uint32_t)p))
            late = CG_GRID_LATE_TOKEN_;
        else
#else
        (void)tok_phase;
#endif
        {
            seen = cg_gpu_atom_max_acquire_u64(word, 2u * p + 1u);
            watch = seen < 2u * p + 1u;
        }
    }
#if CG_DEBUG
    if (__shfl_sync(mask, late, 0) != 0)
        return late;
#endif
    __syncwarp(mask);
    if (__shfl_sync(mask, watch, 0)) {
        late = cg_grid_spread_watch_(slot, p, lane, lanes, mask);
    } else if (lane == 0) {
#if CG_DEBUG
        const uint32_t t0 = cg_debug_timer_start_();
#endif
        while (seen < 2u * p + 2u) {
            if (CG_GRID_SPREAD_POLL_SLEEP_NS)
                __nanosleep((uint32_t)CG_GRID_SPREAD_POLL_SLEEP_NS);
#if CG_DEBUG
            CG_GRID_DEBUG_LATE_(t0, late, CG_GRID_LATE_WAIT_)
#endif
            seen = cg_gpu_ld_acquire_u64(word);
        }
    }
    return late;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_GRID_BARRIER_H */
