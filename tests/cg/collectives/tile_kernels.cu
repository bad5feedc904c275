/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/collectives/tile_kernels.cu — tile collectives, cgc against C++ CG in
 * the same kernel: every operator's reduce and scans, the four shuffles,
 * match_any/match_all, binary and labeled partitions of the tile (and
 * collectives over the labeled partition), byte shuffles of 12- and 3-byte
 * objects. One kernel per (tile size, type); layouts in
 * collectives_kernels.h. The cgc calls come first, then the C++ CG calls
 * (skipped in partial warps when cpp_partial is 0: see cgt_do_cpp). */
#include "tests/cg/collectives/oracle.cuh"

/* coalesced_queries writes size, rank, meta rank, meta size, mask in a row. */
static_assert(CGT_T_BP_RANK == CGT_T_BP_SIZE + 1 && CGT_T_BP_META_RANK == CGT_T_BP_SIZE + 2 &&
                  CGT_T_BP_META_SIZE == CGT_T_BP_SIZE + 3 && CGT_T_BP_MASK == CGT_T_BP_SIZE + 4,
              "binary partition fields in coalesced_queries' order");
static_assert(CGT_T_LP_RANK == CGT_T_LP_SIZE + 1 && CGT_T_LP_META_RANK == CGT_T_LP_SIZE + 2 &&
                  CGT_T_LP_META_SIZE == CGT_T_LP_SIZE + 3 && CGT_T_LP_MASK == CGT_T_LP_SIZE + 4,
              "labeled partition fields in coalesced_queries' order");

template <unsigned N, typename T>
__global__ void k_tile(int cpp_partial, const uint64_t *val, const uint64_t *key, const uint32_t *arg,
                       uint64_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, N);
    cpp::thread_block cb = cpp::this_thread_block();
    cpp::thread_block_tile<N, cpp::thread_block> ct = cpp::tiled_partition<N>(cb);

    size_t gid = cgt_gid();
    T v = cgt_from_bits<T>(val[gid]);
    T k = cgt_from_bits<T>(key[gid]);
    uint32_t a = arg[gid];
    uint32_t src = a & 0xffu, delta = (a >> 8) & 0xffu, xmask = (a >> 16) & 0xffu;
    int pred = (int)((a >> 24) & 1u);
    uint64_t *oc = out + gid * 2 * CGT_T_FIELDS;
    uint64_t *op = oc + CGT_T_FIELDS;
    bool do_cpp = cgt_do_cpp(cpp_partial);

    all_ops<T>(&t, ct, do_cpp, v, oc, op, CGT_T_REDUCE, CGT_T_INCL, CGT_T_EXCL);

    /* ---- cgc ---- */
    oc[CGT_T_SHFL] = cgt_to_bits(cgc_shfl(&t, v, src));
    oc[CGT_T_SHFL_UP] = cgt_to_bits(cgc_shfl_up(&t, v, delta));
    oc[CGT_T_SHFL_DOWN] = cgt_to_bits(cgc_shfl_down(&t, v, delta));
    oc[CGT_T_SHFL_XOR] = cgt_to_bits(cgc_shfl_xor(&t, v, xmask));
    int pc = -1;
    oc[CGT_T_MATCH_ANY] = cgc_match_any(&t, k);
    oc[CGT_T_MATCH_ALL] = cgc_match_all(&t, k, &pc);
    oc[CGT_T_MATCH_ALL_PRED] = (uint64_t)(int64_t)pc;

    /* Binary partition by pred. */
    cg_coalesced_group_t bp = cg_tile_binary_partition(&t, pred);
    coalesced_queries(oc, CGT_T_BP_SIZE, &bp);

    /* Labeled partition by the key's bits, and collectives over it (the
     * non-contiguous coalesced paths, every type). */
    label_t<T> label = (label_t<T>)cgt_to_bits(k);
    cg_coalesced_group_t lp = cgc_labeled(&t, label);
    coalesced_queries(oc, CGT_T_LP_SIZE, &lp);
    oc[CGT_T_LP_REDUCE] = cgt_to_bits(cgc_reduce(&lp, v, CG_OP_PLUS));
    oc[CGT_T_LP_INCL] = cgt_to_bits(cgc_incl(&lp, v, CG_OP_PLUS));
    oc[CGT_T_LP_EXCL] = cgt_to_bits(cgc_excl(&lp, v, CG_OP_PLUS));
    oc[CGT_T_LP_SHFL0] = cgt_to_bits(cgc_shfl(&lp, v, 0u));

    /* Objects by size. */
    b12 s = make_b12(val[gid], key[gid]), r;
    cg_tile_shfl_bytes(&t, &r, &s, sizeof s, src);
    store_b12(oc + CGT_T_B12_SHFL, r);
    cg_tile_shfl_up_bytes(&t, &r, &s, sizeof s, delta);
    store_b12(oc + CGT_T_B12_SHFL_UP, r);
    cg_tile_shfl_down_bytes(&t, &r, &s, sizeof s, delta);
    store_b12(oc + CGT_T_B12_SHFL_DOWN, r);
    r = s;
    cg_tile_shfl_xor_bytes(&t, &r, &r, sizeof r, xmask); /* in place: dst == src */
    store_b12(oc + CGT_T_B12_SHFL_XOR, r);
    b3 s3 = make_b3(val[gid]), r3;
    cg_tile_shfl_bytes(&t, &r3, &s3, sizeof s3, src);
    oc[CGT_T_B3_SHFL] = b3_bits(r3);

    /* ---- C++ CG, the same calls ---- */
    if (!do_cpp)
        return;
    op[CGT_T_SHFL] = cgt_to_bits(ct.shfl(v, (int)src));
    op[CGT_T_SHFL_UP] = cgt_to_bits(ct.shfl_up(v, delta));
    op[CGT_T_SHFL_DOWN] = cgt_to_bits(ct.shfl_down(v, delta));
    op[CGT_T_SHFL_XOR] = cgt_to_bits(ct.shfl_xor(v, xmask));
    int pp = -1;
    op[CGT_T_MATCH_ANY] = ct.match_any(k);
    op[CGT_T_MATCH_ALL] = ct.match_all(k, pp);
    op[CGT_T_MATCH_ALL_PRED] = (uint64_t)(int64_t)pp;

    cpp::coalesced_group cbp = cpp::binary_partition(ct, pred != 0);
    coalesced_queries(op, CGT_T_BP_SIZE, cbp);

    cpp::coalesced_group clp = cpp::labeled_partition(ct, label);
    coalesced_queries(op, CGT_T_LP_SIZE, clp);
    op[CGT_T_LP_REDUCE] = cgt_to_bits(cpp::reduce(clp, v, cpp::plus<T>()));
    op[CGT_T_LP_INCL] = cgt_to_bits(cpp::inclusive_scan(clp, v, cpp::plus<T>()));
    op[CGT_T_LP_EXCL] = cgt_to_bits(cpp::exclusive_scan(clp, v, cpp::plus<T>()));
    op[CGT_T_LP_SHFL0] = cgt_to_bits(clp.shfl(v, 0));

    store_b12(op + CGT_T_B12_SHFL, ct.shfl(s, (int)src));
    store_b12(op + CGT_T_B12_SHFL_UP, ct.shfl_up(s, delta));
    store_b12(op + CGT_T_B12_SHFL_DOWN, ct.shfl_down(s, delta));
    store_b12(op + CGT_T_B12_SHFL_XOR, ct.shfl_xor(s, xmask));
    op[CGT_T_B3_SHFL] = b3_bits(ct.shfl(s3, (int)src));
}

extern "C" cg_status_t cgt_launch_tile_collectives(uint32_t n, cgt_type_t ty, int cpp_partial, cg_dim3_t grid,
                                                   cg_dim3_t block, const uint64_t *val, const uint64_t *key,
                                                   const uint32_t *arg, uint64_t *out)
{
    /* The kernel for (n, ty), or NULL. */
    const void *none = NULL;
    const void *k = cgt_with_size<1, 2, 4, 8, 16, 32>(n, none, [&](auto size) {
        return cgt_with_type<CGT_NTYPES>(ty, none, [&](auto tag) {
            return (const void *)k_tile<decltype(size)::value, typename decltype(tag)::type>;
        });
    });
    if (!k)
        return CG_ERROR_INVALID_ARGUMENT;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&cpp_partial, &val, &key, &arg, &out};
    cfg.grid = grid;
    cfg.block = block;
    return cg_launch(&cfg, k, args);
}
