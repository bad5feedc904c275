/*
 * tests/pipeline/pipeline_test_util.h — what the pipeline tests' kernels
 * (.cu) and host checks (.c) share: the test configuration, the source fill
 * (a hash of the byte index and the seed), the position-sensitive checksum,
 * and which source tile each fill copies. The same code runs on both sides,
 * so the host reference is computed exactly as the device computes it.
 */
#ifndef PLT_PIPELINE_TEST_UTIL_H
#define PLT_PIPELINE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define PLT_HD static __host__ __device__ __forceinline__
#else
#define PLT_HD static inline
#endif

/* The ring sizes the kernels declare room for. */
#define PLT_MAX_STAGES 8u

/* One test configuration (both shapes; fields a shape does not use are 0). */
typedef struct plt_cfg {
    uint32_t stages;      /* 1 .. PLT_MAX_STAGES */
    uint32_t stage_bytes; /* bytes per fill */
    uint32_t cwarps;      /* warp-specialized: consumer warps (1 .. 8) */
    uint32_t per_thread;  /* warp-specialized: 1 = cg_pipeline_release per thread, 0 = cg_pipeline_release_warp */
    uint32_t pieces;      /* copies per fill (producer split) */
    uint32_t copy_mode;   /* ws: 0 cg_pipeline_copy, 1 cg_memcpy_async_tx on cg_pipeline_producer_mbarrier;
                             block: 0 cg_pipeline_producer_copy (thread 0), 1 cg_memcpy_async_pipeline (block) */
    uint32_t tiles;       /* fills per block */
    uint32_t nsrc;        /* source tiles (a prime above 8, so a stage's consecutive fills differ) */
    uint32_t delay;       /* 1: random short sleeps in producers and consumers */
    uint32_t copy_out;    /* ws: consumer warp 0 also copies every fill to `copy` */
    uint32_t threads;     /* block shape: threads per block */
    uint32_t seed;        /* fill seed */
} plt_cfg_t;

/* lowbias32 (Chris Wellons' integer hash): a cheap full-avalanche 32-bit mix. */
PLT_HD uint32_t plt_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* The source's 32-bit word number `i` (bytes 4i .. 4i+3, little-endian). */
PLT_HD uint32_t plt_src_word(uint32_t seed, uint32_t i)
{
    return plt_hash(i * 0x9E3779B9u ^ seed) ^ i;
}

/* Which source tile fill t of block b copies: consecutive fills of one stage
 * (t and t + S, S <= 8) come from different tiles when nsrc is a prime
 * above 8 (7S is no multiple of it), so stale data cannot pass the check. */
PLT_HD uint32_t plt_src_tile(uint32_t b, uint32_t t, uint32_t nsrc)
{
    return (uint32_t)(((uint64_t)b * 131u + (uint64_t)t * 7u) % nsrc);
}

/* The checksum's term for unit value v (a 32-bit word, or a byte when the
 * stage size is not a multiple of 4) at unit index i of the stage:
 * position-sensitive, so a misplaced unit changes the sum. */
PLT_HD uint64_t plt_term(uint32_t v, uint32_t i)
{
    return (uint64_t)plt_hash(v + i * 0x85EBCA77u) + (uint64_t)(v & 0xFFu);
}

/* Units of a stage: 4-byte words when the size allows, else bytes. */
PLT_HD uint32_t plt_unit(uint32_t stage_bytes)
{
    return stage_bytes % 4u == 0 ? 4u : 1u;
}

/* The byte at source offset `off` (for the host's reference). */
PLT_HD uint32_t plt_src_byte(uint32_t seed, size_t off)
{
    return (plt_src_word(seed, (uint32_t)(off / 4u)) >> (8u * (uint32_t)(off % 4u))) & 0xFFu;
}

#endif /* PLT_PIPELINE_TEST_UTIL_H */
