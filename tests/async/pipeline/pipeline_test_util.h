/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/pipeline_test_util.h — what the pipeline tests' kernels
 * (.cu) and host checks (.c) share: the data hash, the offset each stage use
 * reads from, the error report and the launchers.
 *
 * The source buffer holds word i = plt_hash(i + seed) (filled on the host);
 * stage use u of block (or cluster) b reads stage_words words starting at
 * plt_offset(b, u, ...), so the data of every use differs from the data its
 * stage held before and a stale, torn or early read mismatches.
 */
#ifndef CGT_PIPELINE_TEST_UTIL_H
#define CGT_PIPELINE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tests/support/hash.h"

#if defined(__CUDACC__)
#define PLT_HD static __host__ __device__ __forceinline__
#else
#define PLT_HD static inline
#endif

/* The tests' 32-bit integer hash (tests/support/hash.h). */
PLT_HD uint32_t plt_hash(uint32_t x)
{
    return cgt_hash32(x);
}

/* First word (a multiple of 4: 16-byte aligned) of use `u` of stream `b`
 * in a source of src_words words, for stages of stage_words words. */
PLT_HD uint32_t plt_offset(uint32_t b, uint32_t u, uint32_t src_words, uint32_t stage_words)
{
    const uint32_t slots = (src_words - stage_words) / 4u + 1u;
    return (plt_hash(b * 0x9e3779b9u + u * 0x85ebca6bu + 17u) % slots) * 4u;
}

/* Source size of every test: 8 Mi words (32 MiB). */
#define PLT_SRC_WORDS (8u << 20)

/* What the kernels found: `bad` mismatching words, the first of them in
 * detail, and how many words were checked (so a kernel that checked nothing
 * fails too). */
typedef struct plt_report {
    unsigned long long checked;
    unsigned bad;
    unsigned claimed; /* 0 until the first mismatch is recorded */
    unsigned block, rank, use, stage, word, thread, got, want;
} plt_report_t;

#define PLT_DELAY_NONE 0u
#define PLT_DELAY_CONSUMERS 1u
#define PLT_DELAY_PRODUCER 2u

/* plt_sliced's release_per_warp: 0 per thread, 1 the warp form, this the
 * caller-declared whole-warp form (cg_pipeline_cluster_consumer_release_all_whole_warp). */
#define PLT_RELEASE_WHOLE_WARP 2u

#ifdef __cplusplus
extern "C" {
#endif

/* Launchers (pipeline_kernels.cu); each returns a cudaError_t as int. */

/* Warp-specialized: 1 producer warp (one elected thread) + `warps` consumer
 * warps, `blocks` blocks, each streaming `uses` stage uses. release_per_warp:
 * empty counts warps (cg_pipeline_consumer_release_warp), else threads. */
int plt_ws(unsigned blocks, const uint32_t *src, uint32_t seed, uint32_t stages, uint32_t stage_bytes,
           uint32_t uses, uint32_t warps, uint32_t release_per_warp, uint32_t delays, plt_report_t *rep);

/* Plain block (libcu++ cuda::pipeline shape): every thread produces and
 * consumes; block shape bx x by x bz. */
int plt_block(unsigned blocks, unsigned bx, unsigned by, unsigned bz, const uint32_t *src, uint32_t seed,
              uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t delays, plt_report_t *rep);

/* Cluster form: clusters of csize CTAs, CTA `root` produces, the CTAs in
 * `mask` receive each stage by multicast and consume it with `warps` warps.
 * Returns -1 when the device cannot hold one such cluster. */
int plt_cluster(unsigned nclusters, unsigned csize, uint32_t root, uint32_t mask, const uint32_t *src,
                uint32_t seed, uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t warps,
                uint32_t delays, plt_report_t *rep);

/* Sliced cluster form: clusters of csize CTAs; every CTA in `mask` loads a
 * slice of each stage and multicasts it to the mask, and checks every word
 * of every stage with `warps` consumer warps; release_per_warp: 1 the warp
 * release (one predicated remote arrive per lane), PLT_RELEASE_WHOLE_WARP
 * the caller-declared whole-warp release, 0 per thread. Returns
 * -1 when the device cannot hold one such cluster. */
int plt_sliced(unsigned nclusters, unsigned csize, uint32_t mask, const uint32_t *src, uint32_t seed,
               uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t warps, uint32_t release_per_warp,
               uint32_t delays, plt_report_t *rep);

/* Debug-build misuse (debug_kernels.cu, CG_DEBUG=1): each traps. */
int plt_debug_overcommit(const uint32_t *src); /* commits 512 bytes, copies 256 */
int plt_debug_unfilled(void);                   /* a consumer waits on a stage nobody fills */
int plt_debug_unreleased(void);                 /* the producer acquires a stage nobody released */
int plt_debug_cluster_unfilled(void);           /* cluster form, a consumer waits, no producer */
int plt_debug_sliced_unreleased(const uint32_t *src); /* sliced form, consumers release to their own CTA only */
int plt_debug_whole_warp_partial(void); /* the whole-warp release in a block with a partial warp */

#ifdef __cplusplus
}
#endif

#endif /* CGT_PIPELINE_TEST_UTIL_H */
