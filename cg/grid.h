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
 *     L2 slice that holds the word to the arrivals' atomics. Measured on an
 *     H200 against CG (bench rows "setting: ..."): spinning is best up to 4
 *     blocks per SM (264x256 1.02x vs 1.07x sleeping 32 ns; 528x256 1.00x vs
 *     1.05x), 32 ns best at 8 and 16 (0.94x / 0.96x; spinning 0.95x / 0.99x,
 *     128 ns 1.11x / 0.95x, 256 ns 1.10x / 0.99x).
 *   Its floor: every block's atomic serializes on one L2 slice, 1.3-1.7 ns a
 *   block on top of the round trips, so at many blocks per SM it stays near
 *   CG (0.89x at 1056x256, 0.86x at 2112x128).
 *
 * Spread barrier (from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM = 7 blocks per SM, up
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
 *     rank (the thread block barrier's scheme); a cg_grid_t then keeps the
 *     slot, so the next barrier on it reads nothing to find it.
 *   Every counter and word is alone in a 128-byte line: with several in one
 *   line their atomics and polls meet in one L2 slice (a combining tree this
 *   file used before measured 3.35 us a sync at 2112x128 with four groups'
 *   words to a line, 2.36 us with one). Memory: CG_GRID_SPREAD_SLOTS * (128 *
 *   (33 + CG_GRID_SPREAD_MAX_BLOCKS / CG_GRID_SPREAD_GROUP)) bytes of
 *   __device__ data per module that uses the grid barrier (81 KB with the
 *   defaults); -DCG_GRID_SPREAD_SLOTS=0 keeps the flat barrier only.
 *
 * Why this shape, measured on an H200 (probe kernels, one thread, dependent
 * chain): a relaxed atom or load is one L2 round trip, 195-200 ns; a release
 * or acq_rel atom 390 ns, and fence.acq_rel.gpu alone 200 ns: the gpu-scope
 * fence is a round trip of its own, so a design is judged by the fences and
 * round trips on the path from the last arrival to the last wake-up. Here:
 * the last arrival's fence and one-way reduction, the watcher's next poll,
 * its fence and one-way store, the waiters' next poll. Against CG (probe,
 * same process): 2112x128 2.09 us (0.44x; the combining tree it replaces
 * 2.33 us), 1584x128 1.97 us (0.57x), 1056x256 1.89 us (0.86x; the flat
 * counter 1.96 us), 4224x64 2.69 us (0.30x); at 528x256 1.80 us against the
 * flat counter's 1.07 us, hence the threshold. Spinning beat sleeping 32 or
 * 64 ns between polls at every size; groups of 64 beat 32 and 128 at 8 to 16
 * blocks per SM. The benchmark (commit 24be84d): 0.42x CG at 2112x128,
 * 0.56x at 1584x128, 0.29x at 4224x64, 0.90x at 1056x256 (the flat counter
 * 0.89x there in the same run; the "setting:" rows, each its own module, move
 * a few percent with where their words land). At 8 blocks per SM half of CG
 * (1.1 us) is out of reach of every design here: the combining tree with
 * every fence dropped (not a barrier, only a floor) took 1.20 us there.
 *
 * Designs built, measured and not kept (cg/grid.h of the commits named, or
 * probe kernels):
 *   - combining tree (5973aea): blocks counted on per-group counters
 *     (atom.inc.acq_rel), the last of each group arrived on the workspace
 *     word, the arrival completing that phase released every group's flag
 *     (warp 0's lanes, one fence each). Three fences and two atom round trips
 *     on the critical path: 2.33 us at 2112x128 (0.48x), no faster than the
 *     flat counter below 12 blocks per SM. What its steps bought at 2112x128:
 *     words one to a line instead of four (3.35 -> 2.36 us), the completer's
 *     33 flag bumps spread over warp 0 (one thread's reds issue about 12 ns
 *     apart; 2.85 -> 2.50 us at 4224x64), __syncthreads for the non-aligned
 *     barrier.sync (2.62 -> 2.48 us), the flag's value counted in shared
 *     memory instead of loaded before the arrival (the load held the
 *     arrival's fence back; 2.45 -> 2.28 us).
 *   - the same tree with its counters in a module-scope array shared by every
 *     launch of the module (b2a1d10, opt-in: unsafe for two launches at once).
 *   - flag barrier: each block sets its own 64-bit arrival flag (tagged with
 *     %gridid), block 0's threads gather them and write per-block release
 *     flags, in the same per-workspace slots. Correct in every test but 2.1-
 *     2.5 us from 132 to 528 blocks, and the gather's batched loads took the
 *     kernel from 16 to 45 registers, so 8 and 16 blocks per SM no longer fit
 *     (bdc747f, f4e9117).
 *   - designated watchers: as here, but the first block of each group always
 *     watches. 1.83 us at 2112x128 (0.37x), 1.75 us at 1056x256 (0.79x), 2.46
 *     us at 4224x64. Not kept: a phase then completes only once those blocks
 *     reach their waits, so one that works between arrive and wait holds the
 *     whole grid, and one that waits there for another block's post-barrier
 *     write deadlocks it.
 *   - the claim on a word of its own (atom.max), beside the release flag:
 *     2.15 us at 2112x128; merged into the release word as here, one fewer
 *     line and the claim's answer doubles as the first poll.
 *   - the tree with designated watchers as a shortcut beside the arrivals'
 *     own completion: no faster than the tree alone.
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
 * reported and traps at cg_this_grid's first barrier call; a wait that does not
 * complete within CG_DEBUG_WAIT_TIMEOUT_NS (e.g. a non-cooperative launch whose
 * blocks are not all resident, or a block that skipped the barrier) prints the
 * word, the phase and the block, then traps; so does a spread wait whose
 * token is not from the block's last arrive.
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

/* The spread barrier (see above): used from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM
 * blocks per SM (grid size >= that * %nsmid), for grids of up to
 * CG_GRID_SPREAD_MAX_BLOCKS blocks; blocks are released in groups of
 * CG_GRID_SPREAD_GROUP; CG_GRID_SPREAD_SLOTS launches running at once per
 * module get one (0 turns it off: every grid uses the flat barrier). */
#if !defined(CG_GRID_SPREAD_MIN_BLOCKS_PER_SM)
#define CG_GRID_SPREAD_MIN_BLOCKS_PER_SM 7
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

/* The grid group. Build it with cg_this_grid(); pass it by pointer. */
typedef struct cg_grid {
    cg_group_header_t _hdr;
    uint32_t _spread;   /* CG__GRID_SPREAD_WANTED, and in thread 0 once its block's first barrier is done,
                           CG__GRID_SPREAD_KNOWN | slot */
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

/* cg_grid_t._spread: WANTED when the grid is large enough for the spread
 * barrier (a launch constant, decided alike in every thread); KNOWN and the
 * slot below, set by thread 0 once its block's first barrier is done (the
 * slot no longer changes in the launch). */
#define CG__GRID_SPREAD_WANTED 0x40000000u
#define CG__GRID_SPREAD_KNOWN 0x80000000u
#define CG__GRID_SPREAD_SLOT_MASK 0x3fffffffu

/* The grid is large enough for the spread barrier. */
CG_DEVICE int cg__grid_spread_wanted(void)
{
    uint32_t n = gridDim.x * gridDim.y * gridDim.z;
    return CG_GRID_SPREAD_SLOTS > 0 && n >= (uint32_t)CG_GRID_SPREAD_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() &&
           n <= (uint32_t)CG_GRID_SPREAD_MAX_BLOCKS;
}

/* The grid group of the calling thread. Cheap and non-collective: reads
 * special registers (the workspace, the SM count for the barrier's choice of
 * algorithm); touches no memory. */
CG_DEVICE cg_grid_t cg_this_grid(void)
{
    cg_grid_t g;
    g._hdr.kind = CG_GROUP_GRID;
    g._spread = cg__grid_spread_wanted() ? CG__GRID_SPREAD_WANTED : 0u;
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
 *   bits 0..31  flat: the word before this block's add; spread: the phase's
 *               number (low 32 bits)
 *   bit 32      flat: this block's arrival completed the phase (no polling)
 *   bit 33      spread: this phase used the spread barrier
 *   bits 40..63 spread: the slot */
#define CG__GRID_TOK_DONE (1ull << 32)
#define CG__GRID_TOK_SPREAD (1ull << 33)
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

CG_DEVICE void cg__grid_debug_check_spread(const void *word, uint64_t t0, uint64_t phase, const char *what)
{
    if (cg_sreg_globaltimer_ns() - t0 > CG_DEBUG_WAIT_TIMEOUT_NS) {
        printf("cgc: grid barrier %s at %p: phase %llu did not complete in %llu ns (block %u,%u,%u of "
               "%u,%u,%u). Was the kernel launched cooperatively, with every block co-resident, and does "
               "every block reach the barrier?\n",
               what, word, (unsigned long long)phase, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, blockIdx.x,
               blockIdx.y, blockIdx.z, gridDim.x, gridDim.y, gridDim.z);
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

/* --- spread barrier: counters and group words in a per-launch slot -------- */

/* One slot per launch running at a time, owned by the workspace address that
 * claimed it: CG__GRID_SPREAD_COUNTERS arrival counters and one release word
 * per group, each alone in a 128-byte line (CG__GRID_LINE_WORDS 32-bit
 * words; see the top of this file for why). */
#define CG__GRID_SPREAD_NSLOTS (CG_GRID_SPREAD_SLOTS > 0 ? CG_GRID_SPREAD_SLOTS : 1)
#define CG__GRID_SPREAD_GROUPS ((CG_GRID_SPREAD_MAX_BLOCKS + CG_GRID_SPREAD_GROUP - 1) / CG_GRID_SPREAD_GROUP)
#define CG__GRID_SPREAD_COUNTERS 32u
#define CG__GRID_LINE_WORDS 32u

typedef struct cg__grid_spread_slot {
    uint64_t owner;
    uint64_t _pad[15];
    uint32_t count[CG__GRID_SPREAD_COUNTERS * CG__GRID_LINE_WORDS];
    uint64_t release[CG__GRID_SPREAD_GROUPS * (CG__GRID_LINE_WORDS / 2u)];
} cg__grid_spread_slot_t;

static __device__ cg__grid_spread_slot_t cg__grid_spread[CG__GRID_SPREAD_NSLOTS];

/* Counter k and group g's release word in slot `slot` (1-based). A release
 * word holds 2p + 1 while a block of the group watches phase p, 2p + 2 once
 * phase p is released to the group. */
CG_DEVICE uint32_t *cg__grid_spread_count(uint32_t slot, uint32_t k)
{
    return &cg__grid_spread[slot - 1u].count[k * CG__GRID_LINE_WORDS];
}
CG_DEVICE uint64_t *cg__grid_spread_release(uint32_t slot, uint32_t g)
{
    return &cg__grid_spread[slot - 1u].release[g * (CG__GRID_LINE_WORDS / 2u)];
}

/* Per block, in shared memory: which launch and block this block's state
 * belongs to (%gridid and rank: nothing another block or launch leaves there
 * can match), the slot (0: flat), and the number of the block's last spread
 * phase (every block takes part in every phase, so all agree on it). */
typedef struct cg__grid_spread_block {
    uint64_t grid;
    uint32_t rank;
    uint32_t slot;
    uint64_t phase;
} cg__grid_spread_block_t;


CG_DEVICE cg__grid_spread_block_t *cg__grid_spread_block(void)
{
    __shared__ cg__grid_spread_block_t s;
    return &s;
}

/* The slot the workspace `ws` owns, claiming a free one (atom.cas); 0 when
 * every slot belongs to another workspace. Owners never change once set, so
 * every block of a launch finds the same slot, and two launches running at
 * once (different workspaces) never share one. */
CG_DEVICE uint32_t cg__grid_spread_lookup(const uint32_t *word)
{
    uint64_t ws = (uint64_t)(uintptr_t)word;
    uint32_t h = (uint32_t)(ws >> 6) % (uint32_t)CG__GRID_SPREAD_NSLOTS;
    for (uint32_t i = 0; i < (uint32_t)CG__GRID_SPREAD_NSLOTS; ++i) {
        uint32_t k = (h + i) % (uint32_t)CG__GRID_SPREAD_NSLOTS;
        uint64_t *owner = &cg__grid_spread[k].owner;
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
 * in shared memory (for any cg_grid_t of the block) and in `g` (so the next
 * call on `g` reads nothing). */
CG_DEVICE uint32_t cg__grid_spread_slot_for_phase(cg_grid_t *g)
{
    if (g->_spread & CG__GRID_SPREAD_KNOWN)
        return g->_spread & CG__GRID_SPREAD_SLOT_MASK;
    cg__grid_spread_block_t *st = cg__grid_spread_block();
    uint64_t grid = cg_sreg_gridid();
    uint32_t b = cg__grid_rank();
    if (st->grid == grid && st->rank == b) {
        g->_spread |= CG__GRID_SPREAD_KNOWN | st->slot;
        return st->slot;
    }
    uint32_t slot = cg__grid_spread_lookup(g->_barrier);
    if (slot != 0) {
        if (b == 0)
            for (uint32_t k = 0; k < CG__GRID_SPREAD_COUNTERS; ++k)
                cg_gpu_st_relaxed_u32(cg__grid_spread_count(slot, k), 0u);
        if (b % CG_GRID_SPREAD_GROUP == 0)
            cg_gpu_st_relaxed_u64(cg__grid_spread_release(slot, b / CG_GRID_SPREAD_GROUP), 0u);
    }
    st->grid = grid;
    st->rank = b;
    st->slot = slot;
    st->phase = 0;
    return 0;
}

/* Thread 0's spread arrival: count the phase and add 1 to counter rank mod
 * CG__GRID_SPREAD_COUNTERS with a release reduction (fire and forget: the
 * arrival waits for nothing). */
CG_DEVICE uint64_t cg__grid_spread_arrive(uint32_t slot)
{
    cg__grid_spread_block_t *st = cg__grid_spread_block();
    uint64_t p = st->phase + 1u;
    st->phase = p;
    cg_gpu_red_add_release_u32(cg__grid_spread_count(slot, cg__grid_rank() % CG__GRID_SPREAD_COUNTERS), 1u);
    return CG__GRID_TOK_SPREAD | ((uint64_t)slot << CG__GRID_TOK_SLOT_SHIFT) | (uint32_t)p;
}

/* Warp 0 of the block that claimed phase p for its group: poll every counter
 * (lane i counter i, i + lanes, ...) until each holds all of phase p's
 * arrivals, then release the group. Counters only grow, so a counter at or
 * past p * (its share of the blocks) holds every arrival of phase p: a block
 * arrives for phase p + 1 only after some watcher saw all of phase p. */
CG_DEVICE void cg__grid_spread_watch(uint32_t slot, uint64_t p, uint32_t lane, uint32_t lanes, uint32_t mask)
{
    /* p as lane 0 read it: the other lanes may not read the block's phase
     * count themselves (lane 0 wrote it in the arrive, with no barrier
     * since). The counters need only its low 32 bits. */
    uint32_t p_lo = __shfl_sync(mask, (uint32_t)p, 0);
    uint32_t n = cg__grid_nblocks();
#if CG_DEBUG
    uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
    for (;;) {
        int ok = 1;
        for (uint32_t k = lane; k < CG__GRID_SPREAD_COUNTERS; k += lanes) {
            uint32_t share = n / CG__GRID_SPREAD_COUNTERS + (k < n % CG__GRID_SPREAD_COUNTERS ? 1u : 0u);
            uint32_t v = cg_gpu_ld_acquire_u32(cg__grid_spread_count(slot, k));
            ok &= (int32_t)(v - p_lo * share) >= 0;
        }
        if (__all_sync(mask, ok))
            break;
        if (CG_GRID_SPREAD_POLL_SLEEP_NS)
            __nanosleep((uint32_t)CG_GRID_SPREAD_POLL_SLEEP_NS);
#if CG_DEBUG
        cg__grid_debug_check_spread(cg__grid_spread_count(slot, lane), t0, p_lo, "watch");
#endif
    }
    /* Every lane's acquire, then lane 0's release of all of it (the warp
     * barrier orders the lanes' loads before lane 0's fence). */
    __syncwarp(mask);
    if (lane == 0) {
        cg_gpu_fence_acq_rel();
        cg_gpu_st_relaxed_u64(cg__grid_spread_release(slot, cg__grid_rank() / CG_GRID_SPREAD_GROUP), 2u * p + 2u);
    }
}

/* Warp 0's part of a spread wait (lanes: warp 0's threads, all of a block
 * smaller than a warp): thread 0 claims phase p for its group (atom.max of
 * 2p + 1 on the group's word). The first of the group to get here watches;
 * a later one polls the word for 2p + 2 (or finds it there already). Nobody
 * waits for a block that has not reached its wait: the watcher is a block
 * already waiting, so a block that works between its arrive and its wait
 * holds up no one. `tok_phase`: thread 0's token (the phase's low 32 bits). */
CG_DEVICE void cg__grid_spread_wait(uint32_t slot, uint32_t tok_phase, uint32_t lane, uint32_t lanes, uint32_t mask)
{
    uint64_t *word = cg__grid_spread_release(slot, cg__grid_rank() / CG_GRID_SPREAD_GROUP);
    uint32_t watch = 0;
    uint64_t p = 0, seen = 0;
    if (lane == 0) {
        p = cg__grid_spread_block()->phase; /* lane 0 wrote it; only lane 0 reads it */
#if CG_DEBUG
        if (tok_phase != (uint32_t)p) {
            printf("cgc: grid barrier wait at %p with the token of phase %u, but this block's last arrival was "
                   "for phase %llu (block %u,%u,%u): wait once per arrive, with that arrive's token\n",
                   (const void *)word, tok_phase, (unsigned long long)p, blockIdx.x, blockIdx.y, blockIdx.z);
            __trap();
        }
#else
        (void)tok_phase;
#endif
        seen = cg_gpu_atom_max_acquire_u64(word, 2u * p + 1u);
        watch = seen < 2u * p + 1u;
    }
    __syncwarp(mask);
    if (__shfl_sync(mask, watch, 0)) {
        cg__grid_spread_watch(slot, p, lane, lanes, mask);
    } else if (lane == 0) {
#if CG_DEBUG
        uint64_t t0 = cg_sreg_globaltimer_ns();
#endif
        while (seen < 2u * p + 2u) {
            if (CG_GRID_SPREAD_POLL_SLEEP_NS)
                __nanosleep((uint32_t)CG_GRID_SPREAD_POLL_SLEEP_NS);
#if CG_DEBUG
            cg__grid_debug_check_spread(word, t0, p, "wait");
#endif
            seen = cg_gpu_ld_acquire_u64(word);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Barrier                                                                   */
/* ------------------------------------------------------------------------- */

/* Split arrive: collective over every thread of the grid, once per phase,
 * called from converged code (as C++ CG's grid.sync(): the block barriers in
 * the arrive and the wait are __syncthreads). Does a block barrier (the
 * block's writes are ordered before thread 0's release), then thread 0 adds
 * the block's arrival. Returns at once after that, whatever other blocks do:
 * threads may do independent work before cg_grid_barrier_wait. The token is
 * meaningful only in thread 0 but every thread passes its own to the wait;
 * a block waits for one arrive before it arrives again. */
CG_DEVICE cg_token_t cg_grid_barrier_arrive(cg_grid_t *g)
{
    cg_token_t t;
    t._opaque = 0;
#if CG_DEBUG
    cg__grid_debug_require_workspace(g);
#endif
    __syncthreads();
    if (cg__grid_is_block_thread0()) {
        uint32_t slot = (g->_spread & CG__GRID_SPREAD_WANTED) ? cg__grid_spread_slot_for_phase(g) : 0u;
        t._opaque = slot ? cg__grid_spread_arrive(slot) : cg__grid_block_arrive(g->_barrier);
    }
    return t;
}

/* Split wait: returns once every block of the grid has arrived in the phase
 * `tok` came from; afterwards every thread sees every write made anywhere in
 * the grid before the matching arrives. Collective over the block: thread 0
 * (with warp 0 when it watches for its group) polls, then __syncthreads.
 * (The aligned barrier, not the non-aligned barrier.sync the library first
 * used here: 110-170 ns less per grid sync from 1056 to 4224 blocks on an
 * H200.) */
CG_DEVICE void cg_grid_barrier_wait(cg_grid_t *g, cg_token_t tok)
{
    if (g->_spread & CG__GRID_SPREAD_WANTED) {
        /* Warp 0 learns from thread 0's token whether the phase was a spread
         * one (a block's first barrier is flat). */
        uint32_t tid = cg__grid_block_thread_rank();
        if (tid < 32u) {
            uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
            uint32_t lanes = nthreads < 32u ? nthreads : 32u;
            uint32_t mask = lanes == 32u ? 0xffffffffu : (1u << lanes) - 1u;
            uint32_t slot =
                (tok._opaque & CG__GRID_TOK_SPREAD) ? (uint32_t)(tok._opaque >> CG__GRID_TOK_SLOT_SHIFT) : 0u;
            slot = __shfl_sync(mask, slot, 0);
            if (slot)
                cg__grid_spread_wait(slot, (uint32_t)tok._opaque, tid, lanes, mask);
            else if (tid == 0 && !(tok._opaque & CG__GRID_TOK_DONE))
                cg__grid_poll_flip(g->_barrier, (uint32_t)tok._opaque, cg__grid_sleep_ns());
        }
    } else if (cg__grid_is_block_thread0() && !(tok._opaque & CG__GRID_TOK_DONE)) {
        cg__grid_poll_flip(g->_barrier, (uint32_t)tok._opaque, cg__grid_sleep_ns());
    }
    __syncthreads();
}

/* Grid-wide barrier: arrive then wait. */
CG_DEVICE void cg_grid_sync(cg_grid_t *g) { cg_grid_barrier_wait(g, cg_grid_barrier_arrive(g)); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_GRID_H */
