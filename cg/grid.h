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
 * barrier belong to the driver, so the only per-launch memory the driver
 * gives a barrier is ONE 32-bit word. The driver hands launches in sequence
 * the same workspace address and launches running at once different ones
 * (64 bytes apart): an address is owned by one running launch at a time.
 *
 * Flat algorithm (below CG_GRID_TREE_MIN_BLOCKS_PER_SM blocks per SM, every
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
 *     L2 slice that holds the word to the arrivals' atomics. Measured on an
 *     H200 against CG (bench rows "setting: ..."): spinning is best up to 4
 *     blocks per SM (264x256 1.02x vs 1.07x sleeping 32 ns; 528x256 1.00x vs
 *     1.05x), 32 ns best at 8 and 16 (0.94x / 0.96x; spinning 0.95x / 0.99x,
 *     128 ns 1.11x / 0.95x, 256 ns 1.10x / 0.99x).
 *   Its floor: every block's atomic serializes on one L2 slice, about 2.3 ns
 *   a block, so at many blocks per SM it stays near CG (0.94x at 1056x256).
 *
 * Combining tree (from CG_GRID_TREE_MIN_BLOCKS_PER_SM = 12 blocks per SM, up
 * to CG_GRID_TREE_MAX_BLOCKS blocks): blocks count in groups of
 * CG_GRID_TREE_GROUP (64) on per-group counters; the last of each group
 * arrives on the workspace word as above, with groups for blocks; the arrival
 * that completes that phase bumps every group's release flag, which the
 * group's other blocks poll. Counters and flags live in module memory, in
 * CG_GRID_TREE_SLOTS slots, each owned by the workspace address that first
 * claimed it (atom.cas): two launches running at once never share a slot, and
 * a launch that finds every slot taken by other workspaces stays flat.
 *   - Counters reset themselves (atom.inc wraps at the group size), and more:
 *     a block's first barrier in a launch is always flat (the workspace word
 *     is fresh each launch) and during it the first block of each group
 *     zeroes its group's counter, so the tree starts clean whatever an earlier
 *     launch left in the slot (a kernel that ended mid-phase included).
 *     Whether a barrier is a block's first is in shared memory, tagged with
 *     %gridid and the block's rank (the thread block barrier's scheme).
 *   - A group flag moves exactly once between two arrivals of a block, so a
 *     block reads it once (during its first barrier) and then counts it in
 *     shared memory; it waits for the flag to pass that value
 *     (ld.acquire.gpu), so it cannot be confused by a later phase, which needs
 *     its own arrival first.
 *   - The arrival that completes a phase hands the release to warp 0 of its
 *     block: each lane fences and bumps a share of the group flags.
 *   Cost, measured on an H200 with a probe kernel (one thread, dependent
 *   chain): a relaxed atom or load is one L2 round trip, 195-200 ns; a
 *   release or acq_rel atom 390 ns, and fence.acq_rel.gpu alone 200 ns: the
 *   gpu-scope fence is a round trip of its own. The tree's critical path has
 *   three (the last block's release, the group's last arrival releasing what
 *   it acquired, the completer releasing the flags) and two atom round trips,
 *   against the flat counter's one fence and one atom plus about 1.7 ns per
 *   block serialized on the word. The same tree with every fence dropped
 *   (relaxed atoms: not a barrier, only a floor) takes 1.20 us at 1056x256 and
 *   1.26 us at 2112x128; with them it takes 2.3 us at 2112 (0.47x CG), and
 *   it wins over the flat counter from about 12 blocks per SM. At 8 blocks
 *   per SM the flat counter is faster (1.92 us against 2.28 us, H200 probe),
 *   and half of CG there (1.1 us) is below even the unordered tree's floor.
 *   What each step of this tree bought, at 2112x128 (probe, H200):
 *     counters and flags four to a 128-byte line (32-byte sectors): 3.35 us;
 *     one to a line: 2.36 us; the completer's 33 flag bumps spread over
 *     warp 0 (one thread's reds issue about 12 ns apart): 2.32 us (2.85 ->
 *     2.50 us at 4224x64). In the library's own code, with its slot
 *     bookkeeping: 2.62 us; __syncthreads for the non-aligned barrier.sync:
 *     2.48 us; the slot kept in the cg_grid_t: 2.45 us; the flag's value
 *     counted in shared memory instead of loaded before the arrival (the
 *     load held the arrival's fence back): 2.28 us.
 *   Group sizes (bench "setting: ..." rows): 16, 64 and 128 are within 5% of
 *   each other at 2112 and 4224 blocks; 64 is kept. Tree pollers sleep
 *   CG_GRID_TREE_POLL_SLEEP_NS (32) between polls; 128 ns measured the same.
 *   Memory: CG_GRID_TREE_SLOTS * (256 * CG_GRID_TREE_MAX_BLOCKS /
 *   CG_GRID_TREE_GROUP + 128) bytes of __device__ data per module that uses
 *   the grid barrier (129 KB with the defaults); -DCG_GRID_TREE_SLOTS=0 keeps
 *   the flat barrier only.
 *
 * Designs built, measured and not kept (cg/grid.h of the commits named):
 *   - the same tree with its counters in a module-scope array shared by every
 *     launch of the module (b2a1d10, opt-in: unsafe for two launches at once).
 *   - flag barrier: each block sets its own 64-bit arrival flag (tagged with
 *     %gridid), block 0's threads gather them and write per-block release
 *     flags, in the same per-workspace slots. Correct in every test but 2.1-
 *     2.5 us from 132 to 528 blocks, and the gather's batched loads took the
 *     kernel from 16 to 45 registers, so 8 and 16 blocks per SM no longer fit
 *     (bdc747f, f4e9117).
 *   - designated watchers (probe kernel, H200): each block arrives with a
 *     fire-and-forget red.release on one of 32 counters (rank mod 32); the
 *     first block of each group of 64, in its wait, polls all 32 and releases
 *     its group. 1.83 us at 2112x128 (0.37x CG), 1.75 us at 1056x256 (0.79x),
 *     2.46 us at 4224x64. Not kept: a phase then completes only once those
 *     blocks reach their waits, so one that works between arrive and wait
 *     holds the whole grid, and one that waits there for another block's
 *     post-barrier write deadlocks it. A split arrive must complete the phase
 *     by itself, as every design here does.
 *   - the same with the watcher claimed in the wait (the first block of the
 *     group to get there wins an atom.max on a per-group phase word), which
 *     is progress-safe: 2.15 us at 2112x128 (0.44x), 1.95 us at 1056x256,
 *     2.74 us at 4224x64: the claim's round trip eats most of the gain, and
 *     at 8 and 32 blocks per SM it is no faster than what is kept.
 *   - this tree with designated watchers as a shortcut beside the arrivals'
 *     own completion: no faster than the tree alone.
 *
 * Memory model, flat: all threads of a block -> __syncthreads -> thread 0's
 * release (cumulative) on the counter -> the last arrival's acquire -> its
 * release (flip) -> every poller's acquire -> __syncthreads -> all threads.
 * Tree: all threads of a block -> __syncthreads -> thread 0's
 * atom.inc.acq_rel on its group counter -> the group's last arrival
 * (acquire: the counter's RMWs form one chain) -> its atom.add.acq_rel on the
 * workspace word -> the completing arrival (acquire) -> __syncwarp (memory
 * ordering among warp 0's lanes) -> each lane's fence.acq_rel.gpu ->
 * red.relaxed on its group flags (release patterns) -> a poller's
 * ld.acquire.gpu that sees the move -> __syncthreads -> all threads. Either
 * way, writes before the arrive are visible to every thread of the grid
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
#include "cg/config.h"
#include "cg/dim3.h"
#include "cg/group_header.h"
#include "cg/sreg.h"

/* Nanoseconds a polling block sleeps between polls of the grid barrier word
 * when the grid has more than one block per SM (0: spin). Tuned on an H200. */
#if !defined(CG_GRID_POLL_SLEEP_NS)
#define CG_GRID_POLL_SLEEP_NS 32
#endif
/* ... and only above this many blocks per SM (at or below it they spin). */
#if !defined(CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM)
#define CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM 4
#endif

/* The combining tree (see above): used from CG_GRID_TREE_MIN_BLOCKS_PER_SM
 * blocks per SM (grid size >= that * %nsmid), for grids of up to
 * CG_GRID_TREE_MAX_BLOCKS blocks; blocks combine in groups of
 * CG_GRID_TREE_GROUP; CG_GRID_TREE_SLOTS launches running at once per module
 * get a tree (0 turns the tree off; others use the flat barrier). */
#if !defined(CG_GRID_TREE_MIN_BLOCKS_PER_SM)
#define CG_GRID_TREE_MIN_BLOCKS_PER_SM 12
#endif
#if !defined(CG_GRID_TREE_MAX_BLOCKS)
#define CG_GRID_TREE_MAX_BLOCKS 8192
#endif
#if !defined(CG_GRID_TREE_GROUP)
#define CG_GRID_TREE_GROUP 64
#endif
#if !defined(CG_GRID_TREE_SLOTS)
#define CG_GRID_TREE_SLOTS 4
#endif
/* Nanoseconds a block sleeps between polls of its group's release flag. */
#if !defined(CG_GRID_TREE_POLL_SLEEP_NS)
#define CG_GRID_TREE_POLL_SLEEP_NS 32
#endif

/* The grid group. Build it with cg_this_grid(); pass it by pointer. */
typedef struct cg_grid {
    cg_group_header_t _hdr;
    uint32_t _tree;     /* thread 0, once its block's first barrier is done: CG__GRID_TREE_KNOWN | slot */
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
    g._tree = 0;
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

/* The calling thread's linear rank in its block (x fastest: warp 0 is ranks
 * 0..31). */
CG_DEVICE uint32_t cg__grid_block_thread_rank(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

/* The calling thread's linear rank in the grid: block rank * block size +
 * rank in the block. */
CG_DEVICE uint64_t cg_grid_thread_rank(const cg_grid_t *g)
{
    return cg_grid_block_rank(g) * (blockDim.x * blockDim.y * blockDim.z) + cg__grid_block_thread_rank();
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

/* Token bits (only thread 0 of each block carries a meaningful token):
 *   bits 0..31  flat: the word before this block's add; tree: the group's
 *               release flag before this block's arrival
 *   bit 32      this block's arrival completed the phase (no polling)
 *   bit 33      tree: poll the group flag, not the workspace word
 *   bits 40..63 tree: the slot */
#define CG__GRID_TOK_DONE (1ull << 32)
#define CG__GRID_TOK_TREE (1ull << 33)
#define CG__GRID_TOK_SLOT_SHIFT 40

/* The grid's size and this block's rank as the barrier counts them, in 32
 * bits (a cooperative grid is co-resident: far fewer than 2^32 blocks). */
CG_DEVICE uint32_t cg__grid_nblocks(void) { return (uint32_t)cg_grid_num_blocks((const cg_grid_t *)0); }
CG_DEVICE uint32_t cg__grid_rank(void) { return (uint32_t)cg_grid_block_rank((const cg_grid_t *)0); }

CG_DEVICE int cg__grid_is_block_thread0(void) { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

CG_DEVICE int cg__grid_flipped(uint32_t before, uint32_t now) { return ((before ^ now) & 0x80000000u) != 0; }

#if CG_DEBUG
CG_DEVICE void cg__grid_debug_check(const uint32_t *word, uint64_t t0, uint32_t seen, const char *what)
{
    if (cg_sreg_globaltimer_ns() - t0 > CG_DEBUG_WAIT_TIMEOUT_NS) {
        printf("cgc: grid barrier %s at %p: phase (top bit %u, word 0x%08x) did not complete in %llu ns "
               "(block %u,%u,%u of %u,%u,%u). Was the kernel launched cooperatively, with every block "
               "co-resident, and does every block reach the barrier?\n",
               what, (const void *)word, seen >> 31, seen, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
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

/* One block's arrival on a sense-reversing word shared by `n` arrivers, of
 * which `is_first` is the one that carries the -(n-1). */
CG_DEVICE uint64_t cg__grid_word_arrive(uint32_t *word, uint32_t n, int is_first)
{
    uint32_t add = is_first ? 0x80000000u - (n - 1u) : 1u;
    uint32_t old = cg_gpu_atom_add_acq_rel_u32(word, add);
    return (uint64_t)old | (cg__grid_flipped(old, old + add) ? CG__GRID_TOK_DONE : 0ull);
}


/* Thread 0's part of the arrive. */
CG_DEVICE uint64_t cg__grid_block_arrive(uint32_t *word)
{
    uint32_t n = cg__grid_nblocks();
    uint32_t b = cg__grid_rank();
    return cg__grid_word_arrive(word, n, b == 0);
}

/* Sleep between polls only above CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM blocks
 * per SM (with fewer pollers a sleep only adds wake-up latency). */
CG_DEVICE uint32_t cg__grid_sleep_ns(void)
{
    uint32_t n = cg__grid_nblocks();
    return n > (uint32_t)CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM * cg_sreg_nsmid() ? (uint32_t)CG_GRID_POLL_SLEEP_NS
                                                                               : 0u;
}

/* --- tree: group counters and release flags in a per-launch slot ---------- */

/* One slot per launch running at a time, owned by the workspace address that
 * claimed it; per group a counter and a release flag, each alone in a
 * 128-byte line (CG__GRID_TREE_STRIDE words apart). Lines, not 32-byte
 * sectors: with four groups' words in one line their atomics and polls meet
 * in one L2 slice, which measured 3.35 us against 2.36 us at 2112x128 on an
 * H200. */
#define CG__GRID_TREE_NSLOTS (CG_GRID_TREE_SLOTS > 0 ? CG_GRID_TREE_SLOTS : 1)
#define CG__GRID_TREE_GROUPS ((CG_GRID_TREE_MAX_BLOCKS + CG_GRID_TREE_GROUP - 1) / CG_GRID_TREE_GROUP)
#define CG__GRID_TREE_STRIDE 32u

typedef struct cg__grid_tree_slot {
    uint64_t owner;
    uint64_t _pad[15];
    uint32_t count[CG__GRID_TREE_GROUPS * CG__GRID_TREE_STRIDE];
    uint32_t flag[CG__GRID_TREE_GROUPS * CG__GRID_TREE_STRIDE];
} cg__grid_tree_slot_t;

static __device__ cg__grid_tree_slot_t cg__grid_tree[CG__GRID_TREE_NSLOTS];

/* Group g's counter and release flag in slot `slot` (1-based). */
CG_DEVICE uint32_t *cg__grid_tree_count(uint32_t slot, uint32_t g)
{
    return &cg__grid_tree[slot - 1u].count[g * CG__GRID_TREE_STRIDE];
}
CG_DEVICE uint32_t *cg__grid_tree_flag(uint32_t slot, uint32_t g)
{
    return &cg__grid_tree[slot - 1u].flag[g * CG__GRID_TREE_STRIDE];
}

/* Per block, in shared memory: which launch and block this block's tree state
 * belongs to (%gridid and rank: nothing another block or launch leaves there
 * can match), the slot (0: flat), and the value the group's release flag has
 * before this block's next tree arrival. The flag moves exactly once between
 * two arrivals of a block (the phase cannot complete again before the block
 * arrives again), so after the first read, during the block's first barrier,
 * the value is counted here instead of loaded: no load waits in front of the
 * arrival's fence (2.45 -> 2.28 us at 2112x128 on an H200). */
typedef struct cg__grid_tree_block {
    uint64_t grid;
    uint32_t rank;
    uint32_t slot;
    uint32_t seen;
} cg__grid_tree_block_t;

/* cg_grid_t._tree: set by thread 0 once its block's first barrier is done,
 * with the slot below it (which no longer changes in the launch). */
#define CG__GRID_TREE_KNOWN 0x80000000u

CG_DEVICE cg__grid_tree_block_t *cg__grid_tree_block(void)
{
    __shared__ cg__grid_tree_block_t s;
    return &s;
}

/* The grid is large enough for the tree (every block decides alike). */
CG_DEVICE int cg__grid_tree_wanted(void)
{
    uint32_t n = cg__grid_nblocks();
    return CG_GRID_TREE_SLOTS > 0 && n >= (uint32_t)CG_GRID_TREE_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() &&
           n <= (uint32_t)CG_GRID_TREE_MAX_BLOCKS;
}

/* The slot the workspace `ws` owns, claiming a free one (atom.cas); 0 when
 * every slot belongs to another workspace. Owners never change once set, so
 * every block of a launch finds the same slot, and two launches running at
 * once (different workspaces) never share one. */
CG_DEVICE uint32_t cg__grid_tree_lookup(const uint32_t *word)
{
    uint64_t ws = (uint64_t)(uintptr_t)word;
    uint32_t h = (uint32_t)(ws >> 6) % (uint32_t)CG__GRID_TREE_NSLOTS;
    for (uint32_t i = 0; i < (uint32_t)CG__GRID_TREE_NSLOTS; ++i) {
        uint32_t k = (h + i) % (uint32_t)CG__GRID_TREE_NSLOTS;
        uint64_t *owner = &cg__grid_tree[k].owner;
        uint64_t o = cg_gpu_ld_relaxed_u64(owner);
        if (o == 0)
            o = cg_gpu_atom_cas_relaxed_u64(owner, 0, ws);
        if (o == 0 || o == ws)
            return k + 1u;
    }
    return 0;
}

CG_DEVICE uint32_t cg__grid_tree_groups(void)
{
    return (cg__grid_nblocks() + CG_GRID_TREE_GROUP - 1u) / CG_GRID_TREE_GROUP;
}

/* Thread 0's arrival on the tree: count in the group; the group's last
 * arrival arrives on the workspace word for the group (flat, with groups for
 * blocks). The arrival that completes that phase returns DONE, and warp 0 of
 * its block then bumps every group's flag (cg__grid_tree_release). `seen`:
 * the group flag's value before this arrival (it cannot move before the
 * arrival is counted). */
CG_DEVICE uint64_t cg__grid_tree_arrive(uint32_t *word, uint32_t slot, uint32_t seen)
{
    uint32_t n = cg__grid_nblocks();
    uint32_t b = cg__grid_rank();
    uint32_t g = b / CG_GRID_TREE_GROUP;
    uint32_t size = n - g * CG_GRID_TREE_GROUP < CG_GRID_TREE_GROUP ? n - g * CG_GRID_TREE_GROUP : CG_GRID_TREE_GROUP;
    uint64_t tok = CG__GRID_TOK_TREE | ((uint64_t)slot << CG__GRID_TOK_SLOT_SHIFT);
    if (cg_gpu_atom_inc_acq_rel_u32(cg__grid_tree_count(slot, g), size - 1u) != size - 1u)
        return tok | seen;
    if (!(cg__grid_word_arrive(word, cg__grid_tree_groups(), g == 0) & CG__GRID_TOK_DONE))
        return tok | seen;
    return tok | CG__GRID_TOK_DONE;
}

/* Warp 0 of the block whose arrival completed a tree phase releases every
 * group: lane i bumps the flags of groups i, i + lanes, ... Thread 0 acquired
 * every arrival (its atom on the workspace word); the warp barrier orders
 * that before each lane's gpu-scope fence, which releases it with the lane's
 * flags. Spread over the warp, 33 groups' flags (2112 blocks) leave in two
 * instructions instead of 33 (one thread's reds issue about 12 ns apart). */
CG_DEVICE void cg__grid_tree_release(uint32_t slot, uint32_t lane, uint32_t lanes)
{
    uint32_t groups = cg__grid_tree_groups();
    cg_gpu_fence_acq_rel();
    for (uint32_t k = lane; k < groups; k += lanes)
        cg_gpu_red_add_relaxed_u32(cg__grid_tree_flag(slot, k), 1u);
}

/* Poll a group flag until it moves from `seen` (acquire on the load that sees
 * it). */
CG_DEVICE void cg__grid_poll_change(const uint32_t *flag, uint32_t seen, uint32_t sleep_ns)
{
#if CG_DEBUG
    uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
    while (cg_gpu_ld_acquire_u32(flag) == seen) {
        if (sleep_ns)
            __nanosleep(sleep_ns);
#if CG_DEBUG
        cg__grid_debug_check(flag, t0, seen, "group wait");
#endif
    }
}

/* Thread 0: this block's algorithm for this phase: 0 flat, else the tree's
 * slot. A block's first barrier in a launch is always flat (the workspace
 * word is fresh in every launch); during it the first block of each group
 * zeroes the group's counter, so from the second barrier on the tree starts
 * clean whatever an earlier launch left in the slot, and every block reads
 * its group's flag once. The answer is then kept in shared memory (for any
 * cg_grid_t of the block) and in `g` (so the next call on `g` reads nothing). */
CG_DEVICE uint32_t cg__grid_tree_slot_for_phase(cg_grid_t *g)
{
    if (g->_tree & CG__GRID_TREE_KNOWN)
        return g->_tree & ~CG__GRID_TREE_KNOWN;
    cg__grid_tree_block_t *st = cg__grid_tree_block();
    uint64_t grid = cg_sreg_gridid();
    uint32_t b = cg__grid_rank();
    if (st->grid == grid && st->rank == b) {
        g->_tree = CG__GRID_TREE_KNOWN | st->slot;
        return st->slot;
    }
    uint32_t slot = cg__grid_tree_lookup(g->_barrier);
    if (slot != 0) {
        uint32_t grp = b / CG_GRID_TREE_GROUP;
        if (b % CG_GRID_TREE_GROUP == 0)
            cg_gpu_st_relaxed_u32(cg__grid_tree_count(slot, grp), 0u);
        st->seen = cg_gpu_ld_relaxed_u32(cg__grid_tree_flag(slot, grp));
    }
    st->grid = grid;
    st->rank = b;
    st->slot = slot;
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Barrier                                                                   */
/* ------------------------------------------------------------------------- */

/* Split arrive: collective over every thread of the grid, once per phase,
 * called from converged code (as C++ CG's grid.sync(): the block barriers in
 * the arrive and the wait are __syncthreads). Does a block barrier (the
 * block's writes are ordered before thread 0's release), then thread 0 adds
 * the block's arrival. Returns at once after that: threads may do
 * independent work before cg_grid_barrier_wait. The token is meaningful only
 * in thread 0 but every thread passes its own to the wait. */
CG_DEVICE cg_token_t cg_grid_barrier_arrive(cg_grid_t *g)
{
    cg_token_t t;
    t._opaque = 0;
#if CG_DEBUG
    cg__grid_debug_require_workspace(g);
#endif
    __syncthreads();
    if (!cg__grid_tree_wanted()) {
        if (cg__grid_is_block_thread0())
            t._opaque = cg__grid_block_arrive(g->_barrier);
        return t;
    }
    /* Tree-sized grid: warp 0 (the block's first 32 threads, or all of a
     * smaller block) stays together so that it can release the groups. */
    uint32_t tid = cg__grid_block_thread_rank();
    if (tid < 32u) {
        uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
        uint32_t lanes = nthreads < 32u ? nthreads : 32u;
        uint32_t mask = lanes == 32u ? 0xffffffffu : (1u << lanes) - 1u;
        uint32_t release = 0;
        if (tid == 0) {
            uint32_t slot = cg__grid_tree_slot_for_phase(g);
            if (slot) {
                cg__grid_tree_block_t *st = cg__grid_tree_block();
                uint32_t seen = st->seen;
                st->seen = seen + 1u;
                t._opaque = cg__grid_tree_arrive(g->_barrier, slot, seen);
                if (t._opaque & CG__GRID_TOK_DONE)
                    release = slot;
            } else {
                t._opaque = cg__grid_block_arrive(g->_barrier);
            }
        }
        __syncwarp(mask);
        release = __shfl_sync(mask, release, 0);
        if (release)
            cg__grid_tree_release(release, tid, lanes);
    }
    return t;
}

/* Split wait: returns once every block of the grid has arrived in the phase
 * `tok` came from; afterwards every thread sees every write made anywhere in
 * the grid before the matching arrives. Collective over the block: thread 0
 * polls, then __syncthreads. (The aligned barrier, not the non-aligned
 * barrier.sync the library first used here: 110-170 ns less per grid sync
 * from 1056 to 4224 blocks on an H200.) */
CG_DEVICE void cg_grid_barrier_wait(cg_grid_t *g, cg_token_t tok)
{
    if (cg__grid_is_block_thread0() && !(tok._opaque & CG__GRID_TOK_DONE)) {
        if (tok._opaque & CG__GRID_TOK_TREE) {
            uint32_t slot = (uint32_t)(tok._opaque >> CG__GRID_TOK_SLOT_SHIFT);
            uint32_t b = cg__grid_rank();
            cg__grid_poll_change(cg__grid_tree_flag(slot, b / CG_GRID_TREE_GROUP), (uint32_t)tok._opaque,
                                 (uint32_t)CG_GRID_TREE_POLL_SLEEP_NS);
        } else {
            cg__grid_poll_flip(g->_barrier, (uint32_t)tok._opaque, cg__grid_sleep_ns());
        }
    }
    __syncthreads();
}

/* Grid-wide barrier: arrive then wait. */
CG_DEVICE void cg_grid_sync(cg_grid_t *g) { cg_grid_barrier_wait(g, cg_grid_barrier_arrive(g)); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_GRID_H */
