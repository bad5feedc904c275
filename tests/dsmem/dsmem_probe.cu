/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/dsmem/dsmem_probe.cu — one probe kernel per dsmem/dsmem.h wrapper, compiled
 * to PTX (never run) so dsmem_ptx_test.c can check that each emits exactly its
 * instruction form. Generated from the table in dsmem_ptx_test.c (keep in step). */
#include "cg/groups.h"
#include "dsmem/dsmem.h"

#define PROBE(NAME, BODY)                                                                     \
    extern "C" __global__ void dsmp_##NAME(uint32_t *o, uint64_t *o64, float *of, uint32_t x, uint64_t x64, float xf) \
    {                                                                                           \
        __shared__ __align__(16) uint32_t s[128];                                               \
        __shared__ cg_mbarrier_t mb;                                                            \
        const uint32_t a = cg_dsmem_addr(s, x & 1u), m = cg_dsmem_addr(&mb, x & 1u);           \
        (void)a; (void)m; (void)o; (void)o64; (void)of; (void)x64; (void)xf;                    \
        BODY                                                                                    \
    }

PROBE(ld_b32, o[0]=cg_dsmem_ld_b32(a);)
PROBE(ld_b64, o64[0]=cg_dsmem_ld_b64(a);)
PROBE(ld_v4, uint4 v=cg_dsmem_ld_v4(a); o[0]=v.x^v.y^v.z^v.w;)
PROBE(st_b32, cg_dsmem_st_b32(a,x);)
PROBE(st_b64, cg_dsmem_st_b64(a,x64);)
PROBE(st_v4, cg_dsmem_st_v4(a,make_uint4(x,x,x,x));)
PROBE(ld_relaxed_u32, o[0]=cg_dsmem_ld_relaxed_u32(a);)
PROBE(ld_acquire_u32, o[0]=cg_dsmem_ld_acquire_u32(a);)
PROBE(st_relaxed_u32, cg_dsmem_st_relaxed_u32(a,x);)
PROBE(st_release_u32, cg_dsmem_st_release_u32(a,x);)
PROBE(atom_add_relaxed_u32, o[0]=cg_dsmem_atom_add_relaxed_u32(a,x);)
PROBE(atom_add_acq_rel_u32, o[0]=cg_dsmem_atom_add_acq_rel_u32(a,x);)
PROBE(atom_add_relaxed_u64, o64[0]=cg_dsmem_atom_add_relaxed_u64(a,x64);)
PROBE(atom_add_relaxed_f32, of[0]=cg_dsmem_atom_add_relaxed_f32(a,xf);)
PROBE(atom_min_relaxed_u32, o[0]=cg_dsmem_atom_min_relaxed_u32(a,x);)
PROBE(atom_max_relaxed_u32, o[0]=cg_dsmem_atom_max_relaxed_u32(a,x);)
PROBE(atom_exch_relaxed_b32, o[0]=cg_dsmem_atom_exch_relaxed_b32(a,x);)
PROBE(atom_cas_relaxed_b32, o[0]=cg_dsmem_atom_cas_relaxed_b32(a,x,x+1);)
PROBE(red_add_relaxed_u32, cg_dsmem_red_add_relaxed_u32(a,x);)
PROBE(red_add_release_u32, cg_dsmem_red_add_release_u32(a,x);)
PROBE(red_add_relaxed_u64, cg_dsmem_red_add_relaxed_u64(a,x64);)
PROBE(red_add_relaxed_f32, cg_dsmem_red_add_relaxed_f32(a,xf);)
PROBE(st_async_b32, cg_dsmem_st_async_b32(a,x,m);)
PROBE(st_async_b64, cg_dsmem_st_async_b64(a,x64,m);)
PROBE(st_async_v2_b32, cg_dsmem_st_async_v2_b32(a,make_uint2(x,x),m);)
PROBE(st_async_v4_b32, cg_dsmem_st_async_v4_b32(a,make_uint4(x,x,x,x),m);)
PROBE(red_async_add_u32, cg_dsmem_red_async_add_u32(a,x,m);)
PROBE(red_async_add_s32, cg_dsmem_red_async_add_s32(a,(int32_t)x,m);)
PROBE(red_async_add_u64, cg_dsmem_red_async_add_u64(a,x64,m);)
PROBE(red_async_min_u32, cg_dsmem_red_async_min_u32(a,x,m);)
PROBE(red_async_max_u32, cg_dsmem_red_async_max_u32(a,x,m);)
PROBE(red_async_min_s32, cg_dsmem_red_async_min_s32(a,(int32_t)x,m);)
PROBE(red_async_max_s32, cg_dsmem_red_async_max_s32(a,(int32_t)x,m);)
PROBE(red_async_inc_u32, cg_dsmem_red_async_inc_u32(a,x,m);)
PROBE(red_async_dec_u32, cg_dsmem_red_async_dec_u32(a,x,m);)
PROBE(red_async_and_b32, cg_dsmem_red_async_and_b32(a,x,m);)
PROBE(red_async_or_b32, cg_dsmem_red_async_or_b32(a,x,m);)
PROBE(red_async_xor_b32, cg_dsmem_red_async_xor_b32(a,x,m);)
PROBE(bulk_copy, cg_dsmem_bulk_copy(a,cg_smem_addr(s),256,m);)
PROBE(push_bulk, cg_dsmem_push_bulk(s+64,s,256,&mb,x);)
PROBE(fence_proxy_async_smem, cg_fence_proxy_async_smem();)
PROBE(fence_proxy_async_global, cg_fence_proxy_async_global();)
PROBE(dsmem_fence_proxy_async, cg_dsmem_fence_proxy_async();)
PROBE(fence_release_smem_cluster, cg_fence_release_smem_cluster();)
PROBE(fence_proxy_async_release_smem_cluster, cg_fence_proxy_async_release_smem_cluster();)
PROBE(fence_acquire_smem_cluster, cg_fence_acquire_smem_cluster();)
PROBE(fence_proxy_async_acquire_smem_cluster, cg_fence_proxy_async_acquire_smem_cluster();)

/* The push protocol's receiver release (not in the one-form table: a fence
 * and an arrive). */
extern "C" __global__ void dsmp_release(uint32_t x)
{
    __shared__ cg_mbarrier_t mb;
    cg_dsmem_release(&mb, x);
}

/* The collective push over a thread block (not in the one-form table). */
extern "C" __global__ void dsmp_push_group(uint32_t x)
{
    __shared__ __align__(16) uint32_t s[512];
    __shared__ cg_mbarrier_t mb;
    cg_thread_block_t blk = cg_this_thread_block();
    cg_dsmem_push(&blk, s + 256, s, 1024, &mb, x);
}
