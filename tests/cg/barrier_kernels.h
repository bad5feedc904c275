/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/barrier_kernels.h — launchers of barrier_kernels.cu (C linkage). */
#ifndef CGT_BARRIER_KERNELS_H
#define CGT_BARRIER_KERNELS_H

#include <cuda_runtime_api.h>

#include "base/status.h"

/* What a barrier kernel found: mismatches and the first one, plus what it
 * counted on the device. `checks`: data comparisons made, summed over every
 * thread that made them; `phases`: barrier phases completed, counted after
 * each wait by one thread per barrier object (a block's barrier: its thread
 * 0; a cluster's: thread 0 of its rank-0 CTA; a grid's: thread 0 of block 0),
 * summed over the objects; `cluster_phases`: the stress kernel's cluster
 * barriers, counted the same way (its `phases` are the block barriers'). */
typedef struct cgt_fail {
    uint32_t errors;
    uint32_t first_iter, first_block, first_thread;
    uint32_t got, want;
    uint32_t timeouts; /* overlap test: bounded spins that expired */
    uint32_t progress; /* overlap test: work done between arrive and wait */
    unsigned long long checks;
    unsigned long long phases;
    unsigned long long cluster_phases;
} cgt_fail_t;

CG_EXTERN_C_BEGIN
/* Block split barrier: data written before arrive seen after wait, random
 * arrival order, `iters` phases per block; `prepare`: set the barrier up with
 * cg_thread_block_barrier_prepare first (else at the first arrive). */
cg_status_t cgt_launch_block_split(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t seed, int prepare,
                                   cgt_fail_t *f);

/* Overlap: a warp between arrive and wait runs while others have not arrived,
 * and a wait returns before the others reach their wait. threads >= 64. */
cg_status_t cgt_launch_block_overlap(uint32_t threads, cgt_fail_t *f);

/* Cluster split barrier with DSMEM reads of a peer's data, random order. */
cg_status_t cgt_launch_cluster_split(uint32_t blocks, uint32_t threads, uint32_t cluster, uint32_t iters,
                                     uint32_t seed, int relaxed_first, cgt_fail_t *f);

/* Grid split barrier (cooperative): global data across the grid. buf holds
 * 2 * blocks * threads uint32. */
cg_status_t cgt_launch_grid_split(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t seed, uint32_t *buf,
                                  cgt_fail_t *f);

/* Grid barrier, `iters` back-to-back phases, checked every phase, on
 * `stream`; phases i % 4 == 1 and 2 cg_grid_sync, the others split
 * arrive/wait. objects: 1, one cg_grid_t throughout; 3, phase i on object
 * i % 3 of two long-lived ones and one made for the phase; 0, one object,
 * every phase cg_grid_sync but i % 4 == 1, C++ CG's grid.sync(). slots
 * holds 2 * blocks uint32.
 * info (2 words, zeroed, or NULL): info[0] the launch's grid workspace
 * address (the second word is unused: which algorithm a block took is the
 * barrier's own business since the seam of issue 36). */
cg_status_t cgt_launch_grid_phases(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t objects,
                                   uint32_t *slots, cgt_fail_t *f, unsigned long long *info, cudaStream_t stream);

/* Relaxed cluster barrier (cg_cluster_barrier_arrive_relaxed + wait): before
 * its arrive each thread stores its arrival count (phase + 1) into its own
 * shared-memory word; after the wait it reads, through DSMEM, one thread's
 * count in every CTA of its cluster (a different thread every phase) and
 * requires phase + 1 or phase + 2 (its peer may be one phase ahead, never
 * two): a wait that returned before every thread arrived reads a count
 * below. `fenced`: a fence.acq_rel.cluster before each relaxed arrive (the
 * count's store then is ordered before the arrival by the PTX model; without
 * it, as users write the relaxed barrier, the store is the thread's own
 * earlier shared-memory store, which the barrier does not order). */
cg_status_t cgt_launch_cluster_relaxed_arrivals(uint32_t blocks, uint32_t threads, uint32_t cluster, uint32_t iters,
                                                uint32_t seed, int fenced, cgt_fail_t *f);

/* Stress: block split barrier + cluster split barrier every iteration, random
 * delays, results checked each phase. */
cg_status_t cgt_launch_stress(uint32_t blocks, uint32_t threads, uint32_t cluster, uint32_t iters, uint32_t seed,
                              cgt_fail_t *f);
/* The kernels, for occupancy queries (cg_max_cooperative_blocks). */
const void *cgt_grid_split_kernel(void);
const void *cgt_grid_phases_kernel(void);
CG_EXTERN_C_END

#endif /* CGT_BARRIER_KERNELS_H */
