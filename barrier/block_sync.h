/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/block_sync.h — the CTA barrier forms that tolerate a diverged warp:
 * barrier 0 for the whole block, and named barriers for part of it.
 *
 * __syncthreads() is bar.sync 0 = barrier.sync.aligned 0: every thread of a
 * warp must execute it together (converged). The block barrier's one-time
 * init reaches a block barrier right after code where only thread 0 ran; the
 * non-aligned form lets each thread arrive on its own, so a warp whose thread
 * 0 is still catching up is correct (compute-sanitizer synccheck agrees).
 * It is not free: the grid barrier, whose waits follow thread 0's polling,
 * measured 110-170 ns per sync cheaper with __syncthreads there (H200, 1056
 * to 4224 blocks), so it uses __syncthreads, as C++ CG's grid.sync() does.
 * cg_thread_block_sync stays __syncthreads, exactly.
 */
#ifndef CG_BARRIER_BLOCK_SYNC_H
#define CG_BARRIER_BLOCK_SYNC_H

#include "../base/config.h"
#include "../base/ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE
/* The forms (block_sync_forms.h, written by tools/ptx/gen.py from block_sync_forms.tbl).
 *
 * cg_block_sync_unaligned_(): barrier.sync 0, all non-exited threads of the
 * CTA; memory ordered among them (CTA scope).
 *
 * cg_named_barrier_sync_(id, nthreads): named barrier `id` (0..15) completes
 * when `nthreads` threads (a multiple of 32) have arrived; non-aligned: each
 * thread arrives on its own. Memory accesses before it are performed
 * relative to every participant after it (CTA). The wide tiles' barrier
 * (cg/wide_tile.h).
 *
 * cg_named_barrier_sync_aligned_(id, nthreads): the same, aligned (bar.sync
 * id, n): every thread of a warp executes it together. The wide tiles'
 * setting CG_WIDE_TILE_SYNC_ALIGNED (issue 33: the benchmark's floor). */
#include "block_sync_forms.h"
#endif

#endif /* CG_BARRIER_BLOCK_SYNC_H */
