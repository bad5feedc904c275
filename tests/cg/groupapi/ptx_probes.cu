/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/ptx_probes.cu — kernels whose PTX ptx_test.c reads: a
 * cg_thread_group_t made in sight of its calls against the typed calls,
 * generic invoke_one against typed, cg_wait_prior with a constant and a
 * run-time n, one commit per staged copy; the staged block copy of 16-byte
 * aligned data beside C++ CG's memcpy_async(block, dst, src,
 * aligned_size_t<16>(bytes)).
 */
#include <stdint.h>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier> /* cuda::aligned_size_t */

#include "cg/groups.h"

namespace cpp = cooperative_groups;

static __device__ uint32_t probe_fn(void *p) { return *(const uint32_t *)p * 3u + 1u; }
static __device__ void probe_count(void *p) { atomicAdd((unsigned *)p, 1u); }

/* A group made of the block (`make`, type `type`, calls `kind`_...) through
 * thread_group (tg_<name>_calls), and the group itself (typed_<name>_calls):
 * the same code. */
#define TG_PAIR(name, type, make, kind)                                                           \
    extern "C" __global__ void tg_##name##_calls(uint64_t *out)                                    \
    {                                                                                              \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        type t = make;                                                                             \
        cg_thread_group_t g = cg_thread_group(&t);                                                 \
        out[threadIdx.x] = cg_thread_group_thread_rank(&g);                                        \
        out[threadIdx.x + 2048] = cg_thread_group_num_threads(&g);                                 \
        cg_thread_group_sync(&g);                                                                  \
        out[threadIdx.x + 1024] = cg_thread_rank(&g);                                              \
    }                                                                                              \
    extern "C" __global__ void typed_##name##_calls(uint64_t *out)                                 \
    {                                                                                              \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        type t = make;                                                                             \
        out[threadIdx.x] = kind##_thread_rank(&t);                                                 \
        out[threadIdx.x + 2048] = kind##_num_threads(&t);                                          \
        kind##_sync(&t);                                                                           \
        out[threadIdx.x + 1024] = kind##_thread_rank(&t);                                          \
    }

/* A tile through thread_group, and the tile itself. */
TG_PAIR(tile, cg_tile_t, cg_tiled_partition(&b, 8), cg_tile)

/* A block through thread_group, and the block itself. */
extern "C" __global__ void tg_block_calls(uint64_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_thread_group_t g = cg_thread_group(&b);
    out[threadIdx.x] = cg_thread_group_thread_rank(&g);
    cg_sync(&g);
    out[threadIdx.x + 1024] = cg_num_threads(&g);
}
extern "C" __global__ void typed_block_calls(uint64_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    out[threadIdx.x] = cg_thread_block_thread_rank(&b);
    cg_thread_block_sync(&b);
    out[threadIdx.x + 1024] = cg_thread_block_num_threads(&b);
}

/* A wide tile through thread_group, and the wide tile itself: one
 * barrier.sync on the tile's named barrier. */
TG_PAIR(wide, cg_wide_tile_t, cg_wide_tiled_partition(&b, 128), cg_wide_tile)
/* The generic sync of a cg_thread_group_t holding a wide tile. */
extern "C" __global__ void tg_wide_generic_sync(uint64_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t w = cg_wide_tiled_partition(&b, 64);
    cg_thread_group_t g = cg_thread_group(&w);
    out[threadIdx.x] = 1u;
    cg_sync(&g);
    out[threadIdx.x + 1024] = out[(threadIdx.x + 1u) % 64u];
}

/* A run-time kind: the switch stays (the type-erased path). */
extern "C" __global__ void tg_any_sync(cg_thread_group_t g, uint64_t *out)
{
    out[threadIdx.x] = cg_thread_group_thread_rank(&g);
    cg_thread_group_sync(&g);
}

/* invoke_one and its broadcast: generic against typed. */
extern "C" __global__ void generic_invoke(uint32_t *in, uint32_t *out, unsigned *count)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 16);
    cg_invoke_one(&t, probe_count, count);
    out[threadIdx.x] = cg_invoke_one_broadcast_u32(&t, probe_fn, &in[threadIdx.x]);
}
extern "C" __global__ void typed_invoke(uint32_t *in, uint32_t *out, unsigned *count)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 16);
    cg_tile_invoke_one(&t, probe_count, count);
    out[threadIdx.x] = cg_tile_invoke_one_broadcast_u32(&t, probe_fn, &in[threadIdx.x]);
}

/* Three staged copies, then wait_prior with the constant 2. */
extern "C" __global__ void wait_prior_constant(const unsigned char *src, unsigned char *out, unsigned bytes)
{
    __shared__ __align__(16) unsigned char sm[3 * 1024];
    cg_thread_block_t b = cg_this_thread_block();
    for (int k = 0; k < 3; ++k)
        cg_memcpy_async(&b, sm + k * 1024, src + k * 1024, bytes);
    cg_wait_prior(&b, 2);
    out[threadIdx.x] = sm[threadIdx.x];
}

/* The same with a run-time n. */
extern "C" __global__ void wait_prior_runtime(const unsigned char *src, unsigned char *out, unsigned bytes,
                                              unsigned n)
{
    __shared__ __align__(16) unsigned char sm[3 * 1024];
    cg_thread_block_t b = cg_this_thread_block();
    for (int k = 0; k < 3; ++k)
        cg_memcpy_async(&b, sm + k * 1024, src + k * 1024, bytes);
    cg_wait_prior(&b, n);
    out[threadIdx.x] = sm[threadIdx.x];
}

/* cg_wait on a tile: wait_group 0 then the tile's bar.warp.sync. */
extern "C" __global__ void wait_tile(const unsigned char *src, unsigned char *out, unsigned bytes)
{
    __shared__ __align__(16) unsigned char sm[1024];
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 32);
    cg_memcpy_async(&t, sm, src, bytes);
    cg_wait(&t);
    out[threadIdx.x] = sm[threadIdx.x];
}

/* The staged block copy of a 16-byte aligned buffer (the bench rows "group
 * memcpy_async + wait_prior"): cgc's four-argument form, then C++ CG's with
 * the alignment promised by aligned_size_t<16>. bytes is a run-time value. */
extern "C" __global__ void staged_copy_block_cgc(const int4 *src, int *out, unsigned bytes)
{
    __shared__ int4 sm_cgc[1024];
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async(&b, sm_cgc, src, bytes);
    cg_wait(&b);
    out[threadIdx.x] = sm_cgc[threadIdx.x].x;
}
extern "C" __global__ void staged_copy_block_cxx(const int4 *src, int *out, unsigned bytes)
{
    __shared__ int4 sm_cxx[1024];
    cpp::thread_block b = cpp::this_thread_block();
    cpp::memcpy_async(b, sm_cxx, src, cuda::aligned_size_t<16>(bytes));
    cpp::wait(b);
    out[threadIdx.x] = sm_cxx[threadIdx.x].x;
}

/* The barrier copy with the alignment stated (issue 34): cgc's six-argument
 * cg_memcpy_async_aligned(&block, ..., 16, &bar) and the group-less
 * cg_memcpy_async_thread(..., 16, &bar), each beside libcu++'s
 * cuda::memcpy_async(..., cuda::aligned_size_t<16>(bytes), barrier). Only
 * compiled: the barriers need no init here. The names pair up in length so
 * the demoted shared variables' names match after normalization. */
using probe_cxx_bar_t = cuda::barrier<cuda::thread_scope_block>;
extern "C" __global__ void barcopy16_cgc(const int4 *src, unsigned bytes)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async_aligned(&b, sm, src, bytes, 16, &bar);
}
extern "C" __global__ void barcopy16_cxx(const int4 *src, unsigned bytes)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ alignas(8) unsigned char bar[sizeof(probe_cxx_bar_t)];
    cpp::thread_block b = cpp::this_thread_block();
    cuda::memcpy_async(b, sm, src, cuda::aligned_size_t<16>(bytes), *reinterpret_cast<probe_cxx_bar_t *>(bar));
}
extern "C" __global__ void thrcopy16_cgc(const int4 *src, unsigned bytes)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ cg_barrier_t bar;
    if (threadIdx.x == 0)
        cg_memcpy_async_thread(sm, src, bytes, 16, &bar);
}
extern "C" __global__ void thrcopy16_cxx(const int4 *src, unsigned bytes)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ alignas(8) unsigned char bar[sizeof(probe_cxx_bar_t)];
    if (threadIdx.x == 0)
        cuda::memcpy_async(sm, src, cuda::aligned_size_t<16>(bytes), *reinterpret_cast<probe_cxx_bar_t *>(bar));
}
/* The same with the size a constant: nothing of the size's rounding left. */
extern "C" __global__ void barcopyk_cgc(const int4 *src)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async_aligned(&b, sm, src, 16384, 16, &bar);
}
extern "C" __global__ void barcopyk_cxx(const int4 *src)
{
    __shared__ alignas(16) int4 sm[1024];
    __shared__ alignas(8) unsigned char bar[sizeof(probe_cxx_bar_t)];
    cpp::thread_block b = cpp::this_thread_block();
    cuda::memcpy_async(b, sm, src, cuda::aligned_size_t<16>(16384), *reinterpret_cast<probe_cxx_bar_t *>(bar));
}
