/*
 * cg/pipeline.h — the group-level form of the pipeline's producer copy.
 *
 *   cg_memcpy_async_pipeline(&group, dst, src, bytes, &pipe)
 *       In the block shape of cg_pipeline_t (async/pipeline.h), between
 *       cg_pipeline_producer_acquire and cg_pipeline_producer_commit: the
 *       group copies `bytes` from global `src` into shared `dst` (inside the
 *       acquired stage), the copy completing on the stage's FULL barrier.
 *       It is cg_memcpy_async (async/copy.h) on that barrier, so every
 *       alignment works: 16-byte multiples go to the bulk engine (the
 *       group's rank 0 fences the proxy, expects the bytes, issues one bulk
 *       copy), 4- and 8-byte multiples to cp.async (each thread waits for its
 *       own before returning), anything else to plain loads and stores.
 *
 * Caller contract: every thread of the group calls it with the same
 * arguments, each is one of the pipeline's producers (the FULL barrier
 * counts its commit) and has not yet committed the stage; bytes < 2^20 per
 * fill. Like cg_memcpy_async, a cluster or grid group copies per block.
 */
#ifndef CG_PIPELINE_GROUP_H
#define CG_PIPELINE_GROUP_H

#include "async/copy.h"
#include "async/pipeline.h"
#include "cg/config.h"

#if CG_DEVICE_CODE_VISIBLE

#define cg_memcpy_async_pipeline(g, dst, src, bytes, pipe)                                         \
    cg_memcpy_async((g), (dst), (src), (bytes), cg_pipeline_producer_barrier(pipe))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_PIPELINE_GROUP_H */
