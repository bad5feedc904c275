/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/collectives/coalesced_kernels.cu — coalesced groups, cgc against C++
 * CG in the same kernel: the group is made by data-dependent divergence or by
 * a partition (cgt_cmode_t), then every query, shuffle, vote, match, reduce
 * and scan runs through both libraries. One kernel per type; layouts in
 * collectives_kernels.h. */
#include "tests/cg/collectives/oracle.cuh"

/* Everything a coalesced group offers, on cgc's group g and C++ CG's group c
 * (made at the same point by the same rule); the C++ side only when do_cpp.
 * Not inlined: one copy per type serves every mode. */
template <typename T>
__device__ __noinline__ void coalesced_body(const cg_coalesced_group_t *g, const cpp::coalesced_group &c, bool do_cpp,
                                            size_t gid, const uint64_t *val, const uint64_t *key, const uint32_t *arg,
                                            uint64_t *out)
{
    T v = cgt_from_bits<T>(val[gid]);
    T k = cgt_from_bits<T>(key[gid]);
    uint32_t a = arg[gid];
    uint32_t delta = (a >> 8) & 0xffu;
    int pred2 = (int)((a >> 25) & 1u);
    uint64_t *oc = out + gid * 2 * CGT_C_FIELDS;
    uint64_t *op = oc + CGT_C_FIELDS;
    uint32_t size = cg_coalesced_num_threads(g);
    uint32_t src = (a & 0xffu) % size;

    all_ops<T>(g, c, do_cpp, v, oc, op, CGT_C_REDUCE, CGT_C_INCL, CGT_C_EXCL);

    /* ---- cgc ---- */
    oc[CGT_C_MASK] = cg_coalesced_mask(g);
    oc[CGT_C_SIZE] = size;
    oc[CGT_C_RANK] = cg_coalesced_thread_rank(g);
    oc[CGT_C_META_RANK] = cg_coalesced_meta_group_rank(g);
    oc[CGT_C_META_SIZE] = cg_coalesced_meta_group_size(g);
    oc[CGT_C_SHFL] = cgt_to_bits(cgc_shfl(g, v, src));
    oc[CGT_C_SHFL_UP] = cgt_to_bits(cgc_shfl_up(g, v, delta));
    oc[CGT_C_SHFL_DOWN] = cgt_to_bits(cgc_shfl_down(g, v, delta));
    oc[CGT_C_BALLOT] = cg_coalesced_ballot(g, pred2);
    oc[CGT_C_ANY] = (uint64_t)(int64_t)cg_coalesced_any(g, pred2);
    oc[CGT_C_ALL] = (uint64_t)(int64_t)cg_coalesced_all(g, pred2);
    int pc = -1;
    oc[CGT_C_MATCH_ANY] = cgc_match_any(g, k);
    oc[CGT_C_MATCH_ALL] = cgc_match_all(g, k, &pc);
    oc[CGT_C_MATCH_ALL_PRED] = (uint64_t)(int64_t)pc;
    b12 s = make_b12(val[gid], key[gid]), r;
    cg_coalesced_shfl_bytes(g, &r, &s, sizeof s, src);
    store_b12(oc + CGT_C_B12_SHFL, r);
    cg_coalesced_shfl_up_bytes(g, &r, &s, sizeof s, delta);
    store_b12(oc + CGT_C_B12_SHFL_UP, r);
    cg_coalesced_shfl_down_bytes(g, &r, &s, sizeof s, delta);
    store_b12(oc + CGT_C_B12_SHFL_DOWN, r);

    /* ---- C++ CG, the same calls ---- */
    if (!do_cpp)
        return;
    op[CGT_C_SIZE] = c.num_threads();
    op[CGT_C_RANK] = c.thread_rank();
    op[CGT_C_META_RANK] = c.meta_group_rank();
    op[CGT_C_META_SIZE] = c.meta_group_size();
    op[CGT_C_SHFL] = cgt_to_bits(c.shfl(v, (int)src));
    op[CGT_C_SHFL_UP] = cgt_to_bits(c.shfl_up(v, (int)delta));
    op[CGT_C_SHFL_DOWN] = cgt_to_bits(c.shfl_down(v, delta));
    op[CGT_C_BALLOT] = c.ballot(pred2);
    op[CGT_C_ANY] = (uint64_t)(int64_t)c.any(pred2);
    op[CGT_C_ALL] = (uint64_t)(int64_t)c.all(pred2);
    int pp = -1;
    op[CGT_C_MATCH_ANY] = c.match_any(k);
    op[CGT_C_MATCH_ALL] = c.match_all(k, pp);
    op[CGT_C_MATCH_ALL_PRED] = (uint64_t)(int64_t)pp;
    store_b12(op + CGT_C_B12_SHFL, c.shfl(s, (int)src));
    store_b12(op + CGT_C_B12_SHFL_UP, c.shfl_up(s, (int)delta));
    store_b12(op + CGT_C_B12_SHFL_DOWN, c.shfl_down(s, delta));
}

/* The modes that start from the coalesced group of the lanes here (all of
 * them, or those that took the branch): both libraries' coalesced_threads()
 * at the same point, then the mode's partition of it, if any (the cgc call
 * right after the C++ call, so both see the same converged lanes). */
template <typename T>
__device__ __forceinline__ void from_coalesced(int mode, uint32_t sz, label_t<T> label, int pred2, size_t gid,
                                               const uint64_t *val, const uint64_t *key, const uint32_t *arg,
                                               uint64_t *out)
{
    cpp::coalesced_group c0 = cpp::coalesced_threads();
    cg_coalesced_group_t g0 = cg_coalesced_threads();
    if (mode == CGT_C_DIVERGED || mode == CGT_C_CONVERGED) {
        coalesced_body<T>(&g0, c0, true, gid, val, key, arg, out);
    } else if (mode == CGT_C_DIVERGED_LABELED) {
        cpp::coalesced_group c = cpp::labeled_partition(c0, label);
        cg_coalesced_group_t g = cgc_labeled(&g0, label);
        coalesced_body<T>(&g, c, true, gid, val, key, arg, out);
    } else if (mode == CGT_C_DIVERGED_BINARY) {
        cpp::coalesced_group c = cpp::binary_partition(c0, pred2 != 0);
        cg_coalesced_group_t g = cg_coalesced_binary_partition(&g0, pred2);
        coalesced_body<T>(&g, c, true, gid, val, key, arg, out);
    } else { /* CGT_C_DIVERGED_TILED, CGT_C_CONVERGED_TILED */
        cpp::coalesced_group c = cpp::tiled_partition(c0, sz);
        cg_coalesced_group_t g = cg_coalesced_tiled_partition(&g0, sz);
        coalesced_body<T>(&g, c, true, gid, val, key, arg, out);
    }
}

/* Each mode builds both groups at the same point of the same branch. */
template <typename T>
__global__ void k_coalesced(int mode, uint32_t sz, int cpp_partial, const uint64_t *val, const uint64_t *key,
                            const uint32_t *arg, uint64_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t32 = cg_tiled_partition(&b, 32);
    cpp::thread_block_tile<32, cpp::thread_block> c32 = cpp::tiled_partition<32>(cpp::this_thread_block());
    size_t gid = cgt_gid();
    uint32_t a = arg[gid];
    int pred = (int)((a >> 24) & 1u), pred2 = (int)((a >> 25) & 1u);
    label_t<T> label = (label_t<T>)key[gid];
    /* Only the tile-partition modes put lanes past the end of the block in a
     * C++ CG mask (see cgt_do_cpp); every other C++ group here is built from
     * lanes that exist. */
    bool do_tile_cpp = cgt_do_cpp(cpp_partial);

    switch (mode) {
    case CGT_C_DIVERGED:
    case CGT_C_DIVERGED_TILED:
    case CGT_C_DIVERGED_LABELED:
    case CGT_C_DIVERGED_BINARY:
        if (pred)
            from_coalesced<T>(mode, sz, label, pred2, gid, val, key, arg, out);
        break;
    case CGT_C_CONVERGED:
    case CGT_C_CONVERGED_TILED:
        from_coalesced<T>(mode, sz, label, pred2, gid, val, key, arg, out);
        break;
    case CGT_C_TILE_BINARY: {
        /* Without the C++ side, any C++ group stands in (it is not used). */
        cpp::coalesced_group c = do_tile_cpp ? cpp::binary_partition(c32, pred != 0) : cpp::coalesced_threads();
        cg_coalesced_group_t g = cg_tile_binary_partition(&t32, pred);
        coalesced_body<T>(&g, c, do_tile_cpp, gid, val, key, arg, out);
        break;
    }
    case CGT_C_TILE_LABELED: {
        cpp::coalesced_group c = do_tile_cpp ? cpp::labeled_partition(c32, label) : cpp::coalesced_threads();
        cg_coalesced_group_t g = cgc_labeled(&t32, label);
        coalesced_body<T>(&g, c, do_tile_cpp, gid, val, key, arg, out);
        break;
    }
    default:
        break;
    }
}

extern "C" cg_status_t cgt_launch_coalesced_collectives(cgt_cmode_t mode, uint32_t sz, cgt_type_t ty,
                                                        int cpp_partial, cg_dim3_t grid, cg_dim3_t block,
                                                        const uint64_t *val, const uint64_t *key, const uint32_t *arg,
                                                        uint64_t *out)
{
    const void *none = NULL;
    const void *k = cgt_with_type<CGT_NTYPES>(ty, none, [](auto tag) {
        return (const void *)k_coalesced<typename decltype(tag)::type>;
    });
    if (!k)
        return CG_ERROR_INVALID_ARGUMENT;
    if ((unsigned)mode >= CGT_C_NMODES || sz == 0 || sz > 32 || (sz & (sz - 1)) != 0)
        return CG_ERROR_INVALID_ARGUMENT;
    int m = (int)mode;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&m, &sz, &cpp_partial, &val, &key, &arg, &out};
    cfg.grid = grid;
    cfg.block = block;
    return cg_launch(&cfg, k, args);
}
