/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/staged_copy_kernels.h — what staged_copy_test.c and its kernels
 * share (plain C: the test is C, the kernels C++). */
#ifndef CGT_STAGED_COPY_KERNELS_H
#define CGT_STAGED_COPY_KERNELS_H

#include <stdint.h>

#define SCT_OVERLAP_THREADS 256u
#define SCT_POISON 0xDEADBEEFu
#define SCT_CHUNK 4096u
#define SCT_MAX_CHUNKS 8u

/* One thread's view of one copy (round 1 of sct_overlap_kernel). */
typedef struct sct_overlap_out {
    uint32_t issue; /* clock cycles from before the copy call to after it returned */
    uint32_t wait;  /* ... from its return to after the wait */
    uint32_t sync;  /* an ordinary 4-byte load + shared store of another cold word */
    uint32_t early; /* the destination word read right after the call (racy on purpose) */
    uint32_t late;  /* the same word after the wait */
    uint32_t ref;   /* the synchronous reference's word */
} sct_overlap_out_t;

typedef struct sct_aligned_params {
    uint32_t align;   /* 4, 8 or 16 */
    uint32_t doff;    /* destination offset in each chunk, a multiple of align */
    uint32_t soff;    /* source offset, a multiple of align */
    uint32_t nchunks; /* copies made, 2 in flight */
    uint32_t bytes[SCT_MAX_CHUNKS]; /* each a multiple of align, below SCT_CHUNK - doff */
    uint32_t extra;   /* 0..align-1 more bytes given to cgc's call only (outside the contract: a
                         release build copies the whole pieces and writes nothing past dst + bytes) */
    uint32_t mode;    /* barrier forms (sct_bar): 0 the block, 1 tiles of 32 (tile k copies chunk k),
                         2 one thread per chunk (thread k copies chunk k, no group) */
    uint32_t seed;    /* random per-thread delays before the copy call (0: none) */
    uint32_t no_cxx;  /* 1: no libcu++ side (its 4/8-byte barrier copies make a
                         cp.async.mbarrier.arrive, which synccheck rejects) */
} sct_aligned_params_t;

#ifdef __cplusplus
extern "C" {
#endif
int sct_overlap(const uint32_t *src, sct_overlap_out_t *out, uint32_t form, uint32_t stride);
int sct_aligned(const unsigned char *src, unsigned char *out, const sct_aligned_params_t *p, unsigned bx,
                unsigned by, unsigned bz);
/* The barrier forms (issue 34): cg_memcpy_async_aligned(&g, ..., align, &bar)
 * or cg_memcpy_async_thread(..., align, &bar) into one half, libcu++'s
 * cuda::memcpy_async(..., aligned_size_t<align>, barrier) into the other
 * (the block or one thread; tiles: cgc only), every chunk in one phase of
 * each barrier; both halves dumped whole to out. */
int sct_bar(const unsigned char *src, unsigned char *out, const sct_aligned_params_t *p, unsigned bx, unsigned by,
            unsigned bz);
/* 1 when the kernels were built with CG_DEBUG (a size outside the contract
 * then traps by design). */
int sct_debug_build(void);
#ifdef __cplusplus
}
#endif

#endif /* CGT_STAGED_COPY_KERNELS_H */
