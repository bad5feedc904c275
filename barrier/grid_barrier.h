/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/grid_barrier.h — the grid barrier: one barrier across every block
 * of a cooperative launch, on the driver's grid workspace. Needs no group.
 *
 * What it exports (the seam with cg/grid.h, which embeds the state in
 * cg_grid_t and forwards its calls; nothing else of this file is used
 * outside barrier/):
 *   cg_grid_bar_t_       the state a group keeps: the launch's grid
 *                        workspace address (base/sreg.h), read-only
 *   cg_grid_bar_arrive_  split arrive, collective over the block
 *   cg_grid_bar_wait_    split wait, collective over the block
 *   cg_grid_bar_sync_    grid sync, collective over the block: wait(arrive)
 *                        from the spread barrier's size, below it one
 *                        acq_rel atom per block (see Flat algorithm) Everything mutable lives in the block's shared
 * memory (below), so the calls take a const state: several cg_grid_t of one
 * kernel, copies of one, and a fresh one per phase all act as one barrier.
 * The token layout, the choice of algorithm and the misuse reports are this
 * file's.
 *
 * Requirements: the kernel is started with a standard cooperative launch
 * (cudaLaunchCooperativeKernel, cudaLaunchKernelExC with
 * cudaLaunchAttributeCooperative, or cg_launch with .cooperative = 1), so all
 * blocks are co-resident. No extra kernel parameter and no -rdc: the barrier
 * word lives in the grid workspace the driver hands every launch through the
 * %envreg1 (high half) / %envreg2 (low half) special registers, the same ABI
 * C++ cooperative groups uses (cooperative_groups/details/driver_abi.h).
 * Calls are made from converged code by every thread of every block, once
 * per phase each, a block's wait before its next arrive (as C++ CG's
 * grid_group::barrier_arrive / barrier_wait). Mixing them with C++ CG's
 * grid.sync() on the same launch is supported only before the launch's
 * first cgc split arrive (a debug build reports a mix after it); cgc's grid
 * sync below the spread barrier's size mixes anywhere (its sense comes from
 * its atom). A kernel's
 * grid barrier calls are all in one translation unit: the block's state is
 * a __shared__ variable of this header, one per unit, so with -rdc a kernel
 * whose grid barriers sit in two units would keep two states that disagree
 * on the phase (a debug build reports it as a mix; the spread barrier's
 * slots were per unit before too).
 *
 * ---------------------------------------------------------------------------
 * The workspace and why the algorithm is what it is
 * ---------------------------------------------------------------------------
 * The workspace gives each running launch ONE 32-bit word, zero at the start
 * of every launch; an address is owned by one running launch at a time.
 *
 * Per block, in shared memory (cg_grid_block_state_t_): the launch and block
 * it belongs to (%gridid and the block's rank: nothing another launch or
 * block leaves there can match), the number of grid barriers the block has
 * arrived at in the launch, the flat word's top bit before the block's next
 * flat arrival (its "sense"), and the spread barrier's slot. Thread 0 reads
 * it in the arrive AFTER the arrive's block barrier (so the block's other
 * warps never wait for it there), sets it up on its first use in a launch,
 * and updates it after the block's arrival. The wait's warp 0 reads it after
 * a __syncwarp (from the spread barrier's size only), with no shuffle of the
 * token; nobody writes it again before the wait's block barrier. A grid sync
 * below the spread barrier's size writes only the sense.
 *
 * Flat algorithm (below CG_GRID_SPREAD_MIN_BLOCKS_PER_SM blocks per SM, every
 * block's first barrier in a launch, and the fallback): a sense-reversing
 * counter on the workspace word, laid out as C++ CG's grid.sync() lays it out.
 *   - Each block arrives once per phase: block barrier, then thread 0 adds to
 *     the word. The split arrive adds with red.release.gpu (fire and forget:
 *     nothing waits for the reduction, so the work between arrive and wait
 *     overlaps it). The grid sync adds with atom.add.acq_rel.gpu: it waits
 *     anyway, the old value gives the phase's sense, and the block whose add
 *     completed the phase skips its polls (one L2 round trip off the
 *     critical path; with the reduction and a poll the sync measured
 *     1.05-1.19x C++ CG's at 1-8 blocks per SM, 0.93 with the atom). Block 0
 *     adds 0x80000000 - (N-1), every other block adds 1, so a full phase adds
 *     exactly 0x80000000: the top bit flips on the last arrival and the low 31
 *     bits return to 0. A block that saw phase p complete and arrives for p+1
 *     changes only the low bits, so a slow block still polling for p cannot be
 *     confused (the re-arrival race of NVIDIA/cuml#458 cannot happen:
 *     completion is an edge of one bit that only the last arrival of a phase
 *     can produce).
 *   - The waiter knows the phase's sense from the block's state (the top bit
 *     flips once per phase, every block takes part in every phase); the
 *     state's first use in a launch reads it from the word (a relaxed load
 *     before the block's first reduction, so it sees the bit of the phase
 *     being formed: that phase cannot complete before this block arrives).
 *     Until 2026-11-28 the arrive was an atom.add.acq_rel whose old value
 *     gave the sense and told the last arrival it need not poll; thread 0
 *     then waited in the arrive for ~N same-address atomics to serialize in
 *     L2 before its warp could start the work between arrive and wait, so
 *     the split hid nothing (docs/design/grid_barrier.md). That arrive stays
 *     as a setting (CG_GRID_ARRIVE_FORM) for the benchmark.
 *   - Thread 0 polls with ld.acquire.gpu; above
 *     CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM (4) blocks per SM it sleeps
 *     CG_GRID_POLL_SLEEP_NS (32) between polls so the pollers leave the one
 *     L2 slice that holds the word to the arrivals' reductions.
 *   Its floor: every block's reduction serializes on one L2 slice, so at many
 *   blocks per SM it stays near CG.
 *
 * Spread barrier (from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM = 10 blocks per SM, up
 * to CG_GRID_SPREAD_MAX_BLOCKS blocks). Its words live in module memory, in
 * CG_GRID_SPREAD_SLOTS slots, each owned by the workspace address that first
 * claimed it (atom.cas): two launches running at once never share a slot,
 * and a launch that finds every slot taken by other workspaces stays flat.
 *   - Arrive: thread 0 adds 1 to one of 32 counters (block rank mod 32) with
 *     red.release.gpu: fire and forget, 32 counters take the grid's arrivals
 *     side by side. Spread phase q is the block's (q+1)-th barrier.
 *   - Wait: blocks are released in groups of CG_GRID_SPREAD_GROUP (64)
 *     consecutive ranks, each group through one 64-bit word: 2q + 1 while a
 *     block of the group watches phase q, 2q + 2 once it is released. Thread
 *     0 does atom.acquire.max(word, 2q + 1). The first of the group to get
 *     there (the old value is below 2q + 1) is the group's watcher: warp 0
 *     polls all 32 counters (one per lane) until each holds all of phase q's
 *     arrivals, then lane 0 fences and stores 2q + 2. Any later block of the
 *     group polls the word for 2q + 2 (or already found it in the atom).
 *   - Counters only grow (wrap-safe compares): counter k has all of phase
 *     q's arrivals once it reaches q times its share of the blocks, because
 *     no block arrives for q + 1 before some watcher saw all of phase q.
 *   - Progress: the watcher is a block already in its wait, and what it
 *     waits for is the arrivals alone. So a wait returns once every block has
 *     arrived, whatever the other blocks do after arriving: one that works
 *     between its arrive and its wait (or waits there for another block's
 *     post-barrier write) holds up nobody, as with the flat counter and C++
 *     CG's barrier_arrive.
 *   - A block's first barrier in a launch is always flat (the workspace word
 *     is fresh each launch); before it block 0 zeroes the counters and the
 *     first block of each group its word, so the slot starts clean whatever
 *     an earlier launch left there (a kernel that ended mid-phase included).
 *   Every counter and word is alone in a 128-byte line (with several in one
 *   line their atomics and polls meet in one L2 slice). Memory:
 *   CG_GRID_SPREAD_SLOTS * (128 * (33 + CG_GRID_SPREAD_MAX_BLOCKS /
 *   CG_GRID_SPREAD_GROUP)) bytes of __device__ data per module that uses the
 *   grid barrier (81 KB with the defaults); -DCG_GRID_SPREAD_SLOTS=0 keeps the
 *   flat barrier only.
 *
 * Why this shape: a gpu-scope fence is an L2 round trip of its own, so a
 * design is judged by the fences and round trips on the path from the last
 * arrival to the last wake-up, and by what the arrive makes a thread wait
 * for before the work it is split from. The release reduction is still a
 * fence (MEMBAR) that warp 0 pays before its work; the atomic's return is
 * not. The measurements, the switch point and the designs built and not
 * kept: docs/design/grid_barrier.md.
 *
 * Memory model, flat: all threads of a block -> bar.sync -> thread 0's
 * red.release.gpu on the word (cumulative: the block barrier put every
 * thread's writes before it) -> the N reductions of a phase form one release
 * sequence per arrival in the word's coherence order, and the value with the
 * flipped bit is written by the last of them -> a poller's ld.acquire.gpu
 * that reads that value (or a later one, written by a later RMW) synchronizes
 * with every arrival's release -> bar.sync -> all threads. Spread: the same
 * up to a watcher lane's ld.acquire.gpu that reads a counter value at or past
 * the phase's target (reductions are atomic read-modify-writes, so the value
 * read follows every reduction of the phase on that counter) -> __syncwarp
 * (memory ordering among warp 0's lanes) -> lane 0's fence.acq_rel.gpu ->
 * st.relaxed 2q + 2 on the group word (a release pattern) -> a group
 * member's atom.acquire.max or ld.acquire.gpu that reads it (or a later
 * value, which follows it) -> bar.sync -> all threads. Either way, writes
 * before the arrive are visible to every thread of the grid after the wait.
 *
 * Debug build (CG_DEBUG=1): a null workspace (no cooperative launch) is
 * reported and traps at the first arrive; a wait that does not complete
 * within CG_DEBUG_WAIT_TIMEOUT_NS (e.g. a non-cooperative launch whose blocks
 * are not all resident, or a block that skipped the barrier) prints the word,
 * the phase and the block, then traps; so does a wait whose token is not from
 * the block's last arrive, and a flat arrive that finds the word's phase
 * moved by someone else (C++ CG's grid.sync() on the same launch).
 */
#ifndef CG_BARRIER_GRID_BARRIER_H
#define CG_BARRIER_GRID_BARRIER_H

#include "../base/config.h"
#include "../base/gpu_scope.h"
#include "../base/sreg.h"
#include "../base/warp.h"

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
/* Nanoseconds a watcher or a waiting block sleeps between polls (0: spin).
 * 32: measured 3-4% faster than spinning at 12 and 16 blocks per SM on an
 * H200 (docs/design/grid_barrier.md). */
#if !defined(CG_GRID_SPREAD_POLL_SLEEP_NS)
#define CG_GRID_SPREAD_POLL_SLEEP_NS 32
#endif

/* How the flat barrier's waiter polls. 1 (default): every poll an
 * ld.acquire.gpu. 0: relaxed polls and NO fence: not a barrier for data
 * (a waiter's SM may keep serving lines it cached before the phase); the
 * tests' positive control for the acquire side (tests/cg:grid_split_test).
 * (Relaxed polls with one fence after the flip measured slower than the
 * acquire polls and are gone: docs/design/grid_barrier.md.) */
#ifndef CG_GRID_POLL_ACQUIRE
#define CG_GRID_POLL_ACQUIRE 1
#endif

/* How the split arrive adds a block's arrival to the flat word (the
 * benchmark's setting rows; only the default is a supported build; a grid
 * sync below the spread barrier's size always uses the atom, see
 * cg_grid_bar_sync_):
 *   0 (default) red.release.gpu: fire and forget; the sense comes from the
 *     block's state.
 *   2 atom.add.acq_rel.gpu whose old value thread 0 tests in the arrive (the
 *     last arrival skips its polls; the split arrive until 2026-11-28). */
#ifndef CG_GRID_ARRIVE_FORM
#define CG_GRID_ARRIVE_FORM 0
#endif
#define CG_GRID_ARRIVE_RED_ 0
#define CG_GRID_ARRIVE_ATOM_EAGER_ 2
#define CG_GRID_ARRIVE_IS_ATOM_ (CG_GRID_ARRIVE_FORM == CG_GRID_ARRIVE_ATOM_EAGER_)
#if CG_GRID_ARRIVE_FORM != CG_GRID_ARRIVE_RED_ && CG_GRID_ARRIVE_FORM != CG_GRID_ARRIVE_ATOM_EAGER_
#error "CG_GRID_ARRIVE_FORM: 0 (release reduction) or 2 (atom tested in the arrive, a setting)"
#endif

/* The grid barrier's state as a group keeps it: the launch's grid workspace
 * address (cg_sreg_grid_workspace_(), base/sreg.h), 0 without one. Read
 * only: what changes per phase is in the block's shared memory. */
typedef struct cg_grid_bar_s_ {
    uint64_t ws;
} cg_grid_bar_t_;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Grid workspace ABI and the grid's shape                                   */
/* ------------------------------------------------------------------------- */

/* The barrier word of the driver's grid workspace at `ws` (layout: { uint32
 * wsSize; uint32 barrier; ... }). */
CG_DEVICE uint32_t *cg_grid_word_(const cg_grid_bar_t_ *bar) { return (uint32_t *)(uintptr_t)(bar->ws + 4u); }

/* The grid's size and this block's rank as the barrier counts them, in 32
 * bits (a cooperative grid is co-resident: far fewer than 2^32 blocks). */
CG_DEVICE uint32_t cg_grid_nblocks_(void) { return (uint32_t)((uint64_t)gridDim.x * gridDim.y * gridDim.z); }
CG_DEVICE uint32_t cg_grid_rank_(void)
{
    return (uint32_t)(((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x);
}

/* The calling thread's linear rank in its block (x fastest: warp 0 is ranks
 * 0..31). */
CG_DEVICE uint32_t cg_grid_block_thread_rank_(void)
{
    return CG_BLOCK_LINEAR_RANK_();
}

CG_DEVICE int cg_grid_is_block_thread0_(void) { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

/* The grid is large enough for the spread barrier. */
CG_DEVICE int cg_grid_spread_wanted_(void)
{
    uint32_t n = cg_grid_nblocks_();
    return CG_GRID_SPREAD_SLOTS > 0 && n >= (uint32_t)CG_GRID_SPREAD_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() &&
           n <= (uint32_t)CG_GRID_SPREAD_MAX_BLOCKS;
}

#define CG_GRID_TOP_ 0x80000000u

CG_DEVICE int cg_grid_flipped_(uint32_t before, uint32_t now) { return ((before ^ now) & CG_GRID_TOP_) != 0; }

/* What this block adds to the flat word: block 0 0x80000000 - (N-1), every
 * other block 1 (a full phase adds exactly 0x80000000). */
CG_DEVICE uint32_t cg_grid_flat_add_(void)
{
    return cg_grid_rank_() == 0 ? CG_GRID_TOP_ - (cg_grid_nblocks_() - 1u) : 1u;
}

/* Token bits (only thread 0 of each block carries a meaningful token):
 *   bits 0..31  the block's barrier number in the launch (low 32 bits; its
 *               first is 1); with the atom arrive (setting 2) in a flat
 *               phase, the word before this block's add
 *   bit 32      setting 2: this block's add completed the phase (no polls)
 *   bit 33      the phase is a spread one
 *   bit 34      flat: the word's top bit before the phase */
#define CG_GRID_TOK_DONE_ (1ull << 32)
#define CG_GRID_TOK_SPREAD_ (1ull << 33)
#define CG_GRID_TOK_SENSE_ (1ull << 34)
/* An atom arrival's flat token: the old word, and DONE when this block's
 * add completed the phase. */
#define CG_GRID_TOK_FLAT_ATOM_(old, add)                                                           \
    ((uint64_t)(old) | (cg_grid_flipped_((old), (old) + (add)) ? CG_GRID_TOK_DONE_ : 0ull))

/* ------------------------------------------------------------------------- */
/* The block's state (shared memory)                                          */
/* ------------------------------------------------------------------------- */

/* Per block: which launch and block it belongs to, the spread slot (0:
 * flat), the number of the block's last grid barrier (every block takes
 * part in every phase, so all agree on it), and the flat word's top bit
 * before the block's next flat arrival. Thread 0 reads it after the
 * arrive's block barrier and writes it after its arrival (a grid sync below
 * the spread barrier's size writes only the sense); warp 0 reads it in the
 * wait after a __syncwarp. */
typedef struct cg_grid_block_state_s_ {
    uint64_t grid;
    uint32_t rank;
    uint32_t slot;
    uint64_t phase;
    uint32_t sense;
    uint32_t pad;
} cg_grid_block_state_t_;

CG_DEVICE cg_grid_block_state_t_ *cg_grid_block_state_(void)
{
    __shared__ cg_grid_block_state_t_ s;
    return &s;
}

/* ------------------------------------------------------------------------- */
/* Misuse reports                                                            */
/* ------------------------------------------------------------------------- */

#if CG_DEBUG
/* Debug build: a wait that outlived CG_DEBUG_WAIT_TIMEOUT_NS (or a wrong
 * token) stops polling and says why with one of these codes; the report is
 * made after warp 0's polling, in cg_grid_bar_wait_, where few values are
 * live (a report call inside the warp-synchronous polling cost the kernel
 * 20-26 registers: docs/design/debug_builds.md). */
#define CG_GRID_LATE_FLAT_ 1u   /* flat word did not flip */
#define CG_GRID_LATE_WATCH_ 2u  /* spread: a counter did not reach the phase */
#define CG_GRID_LATE_WAIT_ 3u   /* spread: the group's word was not released */
#define CG_GRID_LATE_TOKEN_ 4u  /* token of another phase */

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

CG_DEVICE void cg_grid_debug_require_workspace_(uint64_t ws)
{
    if (CG_UNLIKELY_(ws == 0))
        cg_grid_report_no_workspace_debug_();
}

/* A flat arrive found the word's top bit (`seen`) other than the block's
 * state says: the block's previous phase has not completed (it arrived
 * again before its wait returned), or something else completed phases on
 * the word (C++ CG's grid.sync() in the same launch after cgc's first grid
 * barrier, or this barrier compiled into another translation unit with its
 * own state). Reads the rest itself (the state still holds the previous
 * phase), so the arrive keeps no value alive for it. */
CG_REPORT_ void cg_grid_report_foreign_(uint32_t seen)
{
    const cg_grid_block_state_t_ *st = cg_grid_block_state_();
    printf("cgc: grid barrier arrive at %p: the word reads 0x%08x, but this block's barrier %llu expects top bit %u "
           "(block %u,%u,%u): the block arrived again before its wait returned, or another barrier (C++ CG "
           "grid.sync()?, or cgc's grid barrier compiled in another translation unit) completed phases on the "
           "launch's workspace after the launch's first cgc split grid barrier\n",
           (const void *)(uintptr_t)(cg_sreg_grid_workspace_() + 4u), seen, (unsigned long long)st->phase + 1u,
           st->sense >> 31, blockIdx.x, blockIdx.y, blockIdx.z);
    __trap();
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
 * 13.0), above twice C++ CG's 13 (tools/ci/compile_time.py). */
static __device__ __noinline__ void cg_grid_report_no_workspace_(void)
{
    printf("cgc: grid sync in a kernel launched without a grid workspace (block %u,%u,%u): grid sync needs a "
           "cooperative launch (cudaLaunchCooperativeKernel, or cg_launch with .cooperative = 1)\n",
           blockIdx.x, blockIdx.y, blockIdx.z);
    __trap();
}

/* ------------------------------------------------------------------------- */
/* Flat barrier: the wait                                                    */
/* ------------------------------------------------------------------------- */

/* Poll `word` until its top bit differs from `before`'s; sleeping `sleep_ns`
 * between polls when nonzero. Acquire: the load that sees the flip (none
 * with the test control CG_GRID_POLL_ACQUIRE 0). Returns 0, or (debug
 * build) CG_GRID_LATE_FLAT_ when it gave up. */
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
    return late;
}

/* Sleep between polls only above CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM blocks
 * per SM (with fewer pollers a sleep only adds wake-up latency). */
CG_DEVICE uint32_t cg_grid_sleep_ns_(void)
{
    uint32_t n = cg_grid_nblocks_();
    return n > (uint32_t)CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM * cg_sreg_nsmid() ? (uint32_t)CG_GRID_POLL_SLEEP_NS
                                                                               : 0u;
}

/* ------------------------------------------------------------------------- */
/* Spread barrier: counters and group words in a per-launch slot            */
/* ------------------------------------------------------------------------- */

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

/* The slot the workspace `ws` owns, claiming a free one (atom.cas); 0 when
 * every slot belongs to another workspace. Owners never change once set, so
 * every block of a launch finds the same slot, and two launches running at
 * once (different workspaces) never share one. */
CG_DEVICE uint32_t cg_grid_spread_lookup_(const uint32_t *word)
{
    uint64_t ws = (uint64_t)(uintptr_t)word;
    const uint32_t h = (uint32_t)(ws >> 6) % (uint32_t)CG_GRID_SPREAD_NSLOTS_;
    /* From the hashed slot round to it again: a loop whose trip count
     * depends on h is not unrolled (unrolled, the four probes held
     * registers across the whole kernel: tests/build/debugbuild). */
    uint32_t k = h;
    do {
        uint64_t *owner = &cg_grid_spread_[k].owner;
        uint64_t o = cg_gpu_ld_relaxed_u64(owner);
        if (o == 0)
            o = cg_gpu_atom_cas_relaxed_u64(owner, 0, ws);
        if (o == 0 || o == ws)
            return k + 1u;
        k = k + 1u == (uint32_t)CG_GRID_SPREAD_NSLOTS_ ? 0u : k + 1u;
    } while (k != h);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* The arrive                                                                */
/* ------------------------------------------------------------------------- */

/* The state's first use in a launch (thread 0, after the arrive's block
 * barrier): the spread slot when the grid wants one (claimed by address;
 * block 0 then zeroes its counters and the first block of each group its
 * release word, stores that precede this block's first, flat, release), and
 * the flat word's current top bit. Inline: out of line (__noinline__) it
 * held fewer registers, but took nvcc's front end from 10 s to over 20
 * minutes on tests/cg/groupapi/groupapi_kernels.cu (CUDA 13.0), as did
 * `#pragma unroll 1` on the slot lookup. */
CG_DEVICE void cg_grid_state_init_(cg_grid_block_state_t_ *st, uint32_t *word, uint64_t grid, uint32_t b)
{
    uint32_t slot = cg_grid_spread_wanted_() ? cg_grid_spread_lookup_(word) : 0u;
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
    /* Read before this block's first add: the bit of the phase now forming
     * (it cannot complete without this block). */
    st->sense = cg_gpu_ld_relaxed_u32(word) & CG_GRID_TOP_;
}

/* Thread 0, after the arrive's block barrier: the block's arrival, then
 * its state's update for the next phase (the state set up for this launch).
 * Spread: 1 on counter rank mod 32. Flat: this block's add on the word in
 * the form CG_GRID_ARRIVE_FORM says (the default a release reduction, which
 * nothing waits for). The state's stores come after the arrival, so they
 * add nothing to the time before it; the wait's warp 0 reads them after a
 * __syncwarp. Returns the token: its flags and the phase number (the atom
 * setting's flat token: the old word). */
CG_DEVICE uint64_t cg_grid_arrive_block_(cg_grid_block_state_t_ *st, uint32_t *word)
{
    const uint64_t p = st->phase + 1u;
    const uint32_t slot = st->slot;
    if (p > 1u && slot != 0) {
        cg_gpu_red_add_release_u32(cg_grid_spread_count_(slot, cg_grid_rank_() % CG_GRID_SPREAD_COUNTERS_), 1u);
        st->phase = p;
        return CG_GRID_TOK_SPREAD_ | (uint32_t)p;
    }
#if !CG_GRID_ARRIVE_IS_ATOM_
    const uint32_t sense = st->sense;
#endif
#if CG_DEBUG && !CG_GRID_ARRIVE_IS_ATOM_
    /* The word's top bit before this block's add is the phase's sense,
     * unless the block's previous phase has not completed or something else
     * moved the word (cg_grid_report_foreign_). */
    if (CG_UNLIKELY_((cg_gpu_ld_relaxed_u32(word) & CG_GRID_TOP_) != sense))
        cg_grid_report_foreign_(cg_gpu_ld_relaxed_u32(word));
#endif
    const uint32_t add = cg_grid_flat_add_();
#if CG_GRID_ARRIVE_FORM == CG_GRID_ARRIVE_RED_
    cg_gpu_red_add_release_u32(word, add);
    st->phase = p;
    st->sense = sense ^ CG_GRID_TOP_;
    return (sense ? CG_GRID_TOK_SENSE_ : 0ull) | (uint32_t)p;
#else /* CG_GRID_ARRIVE_ATOM_EAGER_ */
    const uint32_t old = cg_gpu_atom_add_acq_rel_u32(word, add);
    st->phase = p;
    st->sense = (old & CG_GRID_TOP_) ^ CG_GRID_TOP_;
    return CG_GRID_TOK_FLAT_ATOM_(old, add);
#endif
}

/* ------------------------------------------------------------------------- */
/* Spread barrier: the wait                                                  */
/* ------------------------------------------------------------------------- */

/* Warp 0 of the block that claimed phase q for its group: poll every counter
 * (lane i counter i, i + lanes, ...) until each holds all of phase q's
 * arrivals, then release the group. Counters only grow, so a counter at or
 * past q * (its share of the blocks) holds every arrival of phase q: a block
 * arrives for phase q + 1 only after some watcher saw all of phase q. */
CG_DEVICE uint32_t cg_grid_spread_watch_(uint32_t slot, uint64_t q, uint32_t lane, uint32_t lanes, uint32_t mask)
{
    uint32_t late = 0;
    const uint32_t q_lo = (uint32_t)q; /* the counters need only its low 32 bits */
    const uint32_t n = cg_grid_nblocks_();
#if CG_DEBUG
    const uint32_t t0 = cg_debug_timer_start_();
#endif
    for (;;) {
        int ok = 1;
        for (uint32_t k = lane; k < CG_GRID_SPREAD_COUNTERS_; k += lanes) {
            uint32_t share = n / CG_GRID_SPREAD_COUNTERS_ + (k < n % CG_GRID_SPREAD_COUNTERS_ ? 1u : 0u);
            uint32_t v = cg_gpu_ld_acquire_u32(cg_grid_spread_count_(slot, k));
            ok &= (int32_t)(v - q_lo * share) >= 0;
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
        cg_gpu_st_relaxed_u64(cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP), 2u * q + 2u);
    }
    return late;
}

/* Warp 0's part of a spread wait for phase q (lanes: warp 0's threads, all
 * of a block smaller than a warp; every lane read slot and q from the
 * block's state): thread 0 claims phase q for its group (atom.max of 2q + 1
 * on the group's word). The first of the group to get here watches; a later
 * one polls the word for 2q + 2 (or finds it there already). Nobody waits for
 * a block that has not reached its wait: the watcher is a block already
 * waiting, so a block that works between its arrive and its wait holds up no
 * one. */
CG_DEVICE uint32_t cg_grid_spread_wait_(uint32_t slot, uint64_t q, uint32_t lane, uint32_t lanes, uint32_t mask)
{
    uint32_t late = 0;
    uint64_t *word = cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP);
    uint32_t watch = 0;
    uint64_t seen = 0;
    if (lane == 0) {
        seen = cg_gpu_atom_max_acquire_u64(word, 2u * q + 1u);
        watch = seen < 2u * q + 1u;
    }
    if (__shfl_sync(mask, watch, 0)) {
        late = cg_grid_spread_watch_(slot, q, lane, lanes, mask);
    } else if (lane == 0) {
#if CG_DEBUG
        const uint32_t t0 = cg_debug_timer_start_();
#endif
        while (seen < 2u * q + 2u) {
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

/* Thread 0's part of a flat wait: poll unless the token says this block's
 * add completed the phase (an atom arrival). */
CG_DEVICE uint32_t cg_grid_flat_wait_(uint32_t *word, cg_token_t tok)
{
#if CG_GRID_ARRIVE_IS_ATOM_
    if (tok._opaque & CG_GRID_TOK_DONE_)
        return 0;
    const uint32_t before = (uint32_t)tok._opaque;
#else
    const uint32_t before = (tok._opaque & CG_GRID_TOK_SENSE_) ? CG_GRID_TOP_ : 0u;
#endif
    return cg_grid_poll_flip_(word, before, cg_grid_sleep_ns_());
}

#if CG_DEBUG
/* What a grid wait that gave up prints: the word it polled and the phase. */
CG_REPORT_ void cg_grid_report_late_(cg_token_t tok, uint32_t late)
{
    const uint32_t *flat_word = (const uint32_t *)(uintptr_t)(cg_sreg_grid_workspace_() + 4u);
    const cg_grid_block_state_t_ *st = cg_grid_block_state_();
    const uint64_t p = st->phase;
    const uint32_t slot = st->slot;
    /* (a flat sync below the spread barrier's size keeps no slot: the
     * state's slot is read only for the other reports) */
    const void *group_word = late != CG_GRID_LATE_FLAT_ && slot
                                 ? (const void *)cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP)
                                 : (const void *)flat_word;
    if (late == CG_GRID_LATE_FLAT_) {
        printf("cgc: grid barrier wait at %p: phase (top bit %u before it, word 0x%08x now) did not complete in "
               "%llu ns (block %u,%u,%u of %u,%u,%u). Was the kernel launched cooperatively, with every block "
               "co-resident, and does every block reach the barrier?\n",
               (const void *)flat_word, (tok._opaque & CG_GRID_TOK_SENSE_) ? 1u : 0u,
               *(const volatile uint32_t *)flat_word,
               (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, blockIdx.x, blockIdx.y, blockIdx.z, gridDim.x,
               gridDim.y, gridDim.z);
    } else if (late == CG_GRID_LATE_TOKEN_) {
        printf("cgc: grid barrier wait at %p with the token of phase %u, but this block's last arrival was "
               "for phase %llu (block %u,%u,%u): wait once per arrive, with that arrive's token\n",
               group_word, (uint32_t)tok._opaque, (unsigned long long)p, blockIdx.x, blockIdx.y, blockIdx.z);
    } else {
        const uint32_t lane = cg_grid_block_thread_rank_();
        printf("cgc: grid barrier %s at %p: phase %llu did not complete in %llu ns (block %u,%u,%u of "
               "%u,%u,%u). Was the kernel launched cooperatively, with every block co-resident, and does "
               "every block reach the barrier?\n",
               late == CG_GRID_LATE_WATCH_ ? "watch" : "wait",
               late == CG_GRID_LATE_WATCH_ ? (const void *)cg_grid_spread_count_(slot, lane) : group_word,
               (unsigned long long)p, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, blockIdx.x, blockIdx.y,
               blockIdx.z, gridDim.x, gridDim.y, gridDim.z);
    }
    __trap();
}
#endif

/* ------------------------------------------------------------------------- */
/* The seam: what cg/grid.h calls                                            */
/* ------------------------------------------------------------------------- */

/* Split arrive, collective over the block (converged code; the block
 * barrier is __syncthreads): the block barrier orders every thread's writes
 * before thread 0's release; thread 0 then checks the block's state (its
 * first use in a launch, tags of another launch or block, sets it up), adds
 * the block's arrival (a release reduction, flat or spread) and updates the
 * state after it; the other threads return right after the block barrier.
 * Thread 0 does nothing before the block barrier, so the block's other warps
 * do not wait there for its state work (until 2026-11-28 they did: warp 1's
 * arrive measured ~210 cycles longer than in C++ CG). (Loading the state
 * before the block barrier, to hide the loads' latency in it, cost the
 * grid-sync kernel 8 registers: 34 against 26, sm_90a, CUDA 13.0.) The
 * token is meaningful only in thread 0; every thread passes its own to the
 * wait. */
CG_DEVICE cg_token_t cg_grid_bar_arrive_(const cg_grid_bar_t_ *bar)
{
    cg_token_t t;
    t._opaque = 0;
    cg_grid_block_state_t_ *st = cg_grid_block_state_();
    const int t0 = cg_grid_is_block_thread0_();
#if CG_DEBUG
    cg_grid_debug_require_workspace_(bar->ws);
#endif
    __syncthreads();
    if (t0) {
#if !CG_DEBUG /* a debug build checked every thread above */
        if (CG_UNLIKELY_(bar->ws == 0))
            cg_grid_report_no_workspace_();
#endif
        uint32_t *word = cg_grid_word_(bar);
        if (CG_UNLIKELY_(st->grid != cg_sreg_gridid() || st->rank != cg_grid_rank_()))
            cg_grid_state_init_(st, word, cg_sreg_gridid(), cg_grid_rank_());
        t._opaque = cg_grid_arrive_block_(st, word);
    }
    return t;
}

/* Split wait, collective over the block: returns once every block of the
 * grid has arrived in the phase `tok` came from; afterwards every thread
 * sees every write made anywhere in the grid before the matching arrives
 * (acquire at gpu scope). Warp 0 reads the phase's algorithm from the
 * block's state; thread 0 (with warp 0 when it watches for its spread
 * group) polls, then __syncthreads (the aligned barrier: 110-170 ns less per
 * grid sync than the non-aligned barrier.sync from 1056 to 4224 blocks on an
 * H200). A debug build reports a wait that gave up, or a token that is not
 * the block's last, before the block barrier. */
CG_DEVICE void cg_grid_bar_wait_(const cg_grid_bar_t_ *bar, cg_token_t tok)
{
#if CG_DEBUG
    uint32_t late = 0;
#define CG_GRID_WAIT_LATE_(x) (late = (x))
#else
#define CG_GRID_WAIT_LATE_(x) ((void)(x))
#endif
    const uint32_t tid = cg_grid_block_thread_rank_();
    if (tid < 32u) {
#if CG_DEBUG || CG_GRID_SPREAD_SLOTS > 0
        /* warp 0's threads: all of a block smaller than a warp */
        const uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
        const uint32_t lanes = nthreads < 32u ? nthreads : 32u;
        const uint32_t mask = lanes == 32u ? 0xffffffffu : (1u << lanes) - 1u;
#endif
#if CG_DEBUG
        /* A token that is not the block's last arrive's (thread 0's phase
         * number; an atom setting's flat token holds the old word instead):
         * warp 0 skips the polls, and the report below names it. Only
         * thread 0, which wrote the phase, reads it: a volatile read, so no
         * other lane loads it early (racecheck flags that load). */
        int stale = 0;
        if (tid == 0)
            stale = (uint32_t)tok._opaque != (uint32_t)((volatile const cg_grid_block_state_t_ *)cg_grid_block_state_())->phase &&
                    (!CG_GRID_ARRIVE_IS_ATOM_ || (tok._opaque & CG_GRID_TOK_SPREAD_));
        if (__any_sync(mask, stale)) {
            if (tid == 0)
                late = CG_GRID_LATE_TOKEN_;
        } else
#endif
        {
#if CG_GRID_SPREAD_SLOTS > 0
            if (cg_grid_spread_wanted_()) {
                /* thread 0 wrote the state after the arrive's block
                 * barrier: the warp barrier orders that before the lanes'
                 * reads */
                __syncwarp(mask);
                const cg_grid_block_state_t_ *st = cg_grid_block_state_();
                const uint32_t slot = st->slot;
                const uint64_t p = st->phase;
                if (slot != 0 && p > 1u)
                    CG_GRID_WAIT_LATE_(cg_grid_spread_wait_(slot, p - 1u, tid, lanes, mask));
                else if (tid == 0)
                    CG_GRID_WAIT_LATE_(cg_grid_flat_wait_(cg_grid_word_(bar), tok));
            } else
#endif
                /* below the spread barrier's size every phase is flat: only
                 * thread 0 works, from its token */
                if (tid == 0)
                CG_GRID_WAIT_LATE_(cg_grid_flat_wait_(cg_grid_word_(bar), tok));
        }
    }
#undef CG_GRID_WAIT_LATE_
#if CG_DEBUG
    if (CG_UNLIKELY_(late != 0))
        cg_grid_report_late_(tok, late);
#endif
    __syncthreads();
}

/* Grid sync, collective over the block (converged code). From the spread
 * barrier's size: wait(arrive). Below it, every phase is flat and the sync
 * is the old value's barrier: block barrier, thread 0's
 * atom.add.acq_rel.gpu on the word, whose old value gives the phase's sense
 * and tells the last arrival it completed the phase (no poll: one L2 round
 * trip less on the critical path than a release reduction and a poll);
 * every other block's thread 0 polls with ld.acquire.gpu; block barrier. It
 * reads no block state (none of the split arrive's tag checks on its path)
 * and writes only the state's sense (the word's top bit after this phase,
 * known from the old value), so split arrives later in the launch stay
 * consistent with it; a sync with a fresh state leaves nothing a later
 * split arrive would trust (it sets the state up from the word). Because
 * the sense comes from the word, this sync mixes with C++ CG's grid.sync()
 * at any point of a launch (the split arrive does only before its first
 * use). Memory model: as the split's, the atom's release half in place of
 * the reduction; its acquire half orders the last arrival's wake-up. */
CG_DEVICE void cg_grid_bar_sync_(const cg_grid_bar_t_ *bar)
{
#if CG_GRID_SPREAD_SLOTS > 0
    if (cg_grid_spread_wanted_()) {
        cg_grid_bar_wait_(bar, cg_grid_bar_arrive_(bar));
        return;
    }
#endif
#if CG_DEBUG
    uint32_t late = 0;
    uint64_t tok = 0;
    cg_grid_debug_require_workspace_(bar->ws);
#endif
    __syncthreads();
    if (cg_grid_is_block_thread0_()) {
#if !CG_DEBUG /* a debug build checked every thread above */
        if (CG_UNLIKELY_(bar->ws == 0))
            cg_grid_report_no_workspace_();
#endif
        uint32_t *word = cg_grid_word_(bar);
        const uint32_t add = cg_grid_flat_add_();
        const uint32_t old = cg_gpu_atom_add_acq_rel_u32(word, add);
        cg_grid_block_state_()->sense = (old & CG_GRID_TOP_) ^ CG_GRID_TOP_;
        if (!cg_grid_flipped_(old, old + add)) {
#if CG_DEBUG
            late = cg_grid_poll_flip_(word, old, cg_grid_sleep_ns_());
            tok = (old & CG_GRID_TOP_) ? CG_GRID_TOK_SENSE_ : 0ull;
#else
            (void)cg_grid_poll_flip_(word, old, cg_grid_sleep_ns_());
#endif
        }
    }
#if CG_DEBUG
    if (CG_UNLIKELY_(late != 0)) {
        cg_token_t t;
        t._opaque = tok;
        cg_grid_report_late_(t, late);
    }
#endif
    __syncthreads();
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_GRID_BARRIER_H */
