/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/groupapi_kernels.h — the launchers of groupapi_kernels.cu and
 * the layouts the host test reads (shared by the .cu and the .c).
 */
#ifndef CGT_GROUPAPI_KERNELS_H
#define CGT_GROUPAPI_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- thread_group: per thread, NTG_FIELDS values (cgc, C++) in pairs ---- */
enum {
    TG_BLOCK_RANK = 0,   /* pair: cgc, C++ thread_group(this_thread_block()) */
    TG_BLOCK_SIZE = 2,   /* pair */
    TG_TILE_RANK = 4,    /* pair: cg_thread_group(&tile n) vs thread_group(tiled_partition<n>(block)) */
    TG_TILE_SIZE = 6,    /* pair */
    TG_PART_RANK = 8,    /* pair: cg_thread_group_tiled_partition(&block tg, n) vs tiled_partition(thread_group, n) */
    TG_PART_SIZE = 10,   /* pair */
    TG_COAL_RANK = 12,   /* pair: coalesced group of a data-dependent branch, through thread_group */
    TG_COAL_SIZE = 14,   /* pair */
    TG_SUB_RANK = 16,    /* pair: tiled_partition(thread_group(tile n), n / 2) (n >= 2) */
    TG_SUB_SIZE = 18,    /* pair */
    TG_GRID_RANK = 20,   /* pair */
    TG_GRID_SIZE = 22,   /* pair */
    TG_GENERIC_RANK = 24, /* pair: cg_thread_rank(&tg) and cg_thread_group_thread_rank(&tg), tile tg */
    TG_SYNC_BLOCK = 26,  /* value read after cg_thread_group_sync (block): in[(rank + 1) % N] */
    TG_SYNC_TILE = 27,   /* value read after cg_sync(&tg) (tile): in[base + (r + 1) % present] */
    TG_TYPE = 28,        /* cg_thread_group_get_type of the tile tg, then of the partition tg */
    TG_TYPE2 = 29,
    NTG_FIELDS = 30
};
/* The value both sides write where a thread is not in the branch. */
#define TG_NOT_IN 0xFFFFFFFFFFFFFFFFull

int gat_thread_group(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                     uint32_t n);

/* thread_group over a cluster: per thread 4 pairs (rank, size) of the
 * cluster's thread_group, then cluster thread_index x,y,z (cgc, C++) and
 * cluster size (cgc, C++). */
#define NTGC_FIELDS 12
int gat_thread_group_cluster(uint64_t *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned cx, unsigned cy, unsigned cz);

/* ---- thread_group over a wide tile: per thread NTGW_FIELDS values; pairs
 * are (cgc through cg_thread_group_t, C++ CG's thread_block_tile<n>: its
 * thread_group cannot hold a tile over 32 threads) ---- */
enum {
    TGW_RANK = 0,           /* pair: thread_rank */
    TGW_SIZE = 2,           /* pair: num_threads */
    TGW_META = 4,           /* pair: meta_group_rank (cgc via cg_thread_group_as_wide_tile) */
    TGW_META_SIZE = 6,      /* pair: meta_group_size */
    TGW_SYNC = 8,           /* pair: in[base + (r + 1) % n] read after cg_thread_group_sync / tile.sync() */
    TGW_PART_RANK = 10,     /* pair: tiled_partition(tg, m) vs tiled_partition<m>(tile) thread_rank */
    TGW_PART_SIZE = 12,     /* pair */
    TGW_PART_META = 14,     /* pair: meta_group_rank */
    TGW_PART_META_SIZE = 16, /* pair: meta_group_size */
    TGW_INV_COUNT = 18,     /* pair: threads of the tile that ran invoke_one's function */
    TGW_INV_RUNNER = 20,    /* pair: block rank of the thread that ran it */
    TGW_PAIRS_END = 22,
    TGW_TYPE = 22,          /* cg_thread_group_get_type: 6 (CG_GROUP_WIDE_TILE) */
    TGW_TYPE2 = 23,         /* of the partition: 5 (CG_GROUP_COALESCED) */
    TGW_VIEWS = 24,         /* bits: as_wide_tile set, as_tile/thread_block/coalesced/grid NULL: 31 */
    TGW_GENERIC_RANK = 25,  /* cg_thread_rank(&tg) */
    TGW_GENERIC_SIZE = 26,  /* cg_num_threads(&tg) */
    TGW_ARRIVE = 27,        /* in[base + (r + 3) % n] ^ 0x33333333 after barrier_arrive + barrier_wait */
    TGW_PART_SYNC = 28,     /* in[pbase + (pr + 1) % m] + 1 after the partition's sync */
    TGW_COPY = 29,          /* in[base + (r + 5) % n] after cg_memcpy_async(&tg) + cg_wait(&tg) */
    NTGW_FIELDS = 30
};
int gat_thread_group_wide(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                          uint32_t n, uint32_t m);

/* ---- invoke_one / invoke_one_broadcast ---------------------------------- */
/* Per thread NINV_FIELDS values: for each of the 7 broadcast forms (u32, i32,
 * u64, i64, f32 bits, f64 bits, 12-byte struct folded to 64 bits) cgc's
 * result and C++ CG's (C++ only in full warps for tiles: its tile mask
 * counts lanes past the end of a partial warp; TG_NOT_IN there), then the
 * thread's group slot: (linear block * warps per block + warp) * 32 + the
 * lowest lane of the group. counts[2 * slot] is how many threads ran fn in
 * cg_invoke_one, counts[2 * slot + 1] in C++ invoke_one (same rule). The
 * coalesced form splits each warp by in[gid] % 3 != 0. */
#define NINV_FORMS 7
#define NINV_SLOT (2 * NINV_FORMS) /* the counts slot of the thread's group (cgc's mask) */
#define NINV_FIELDS (2 * NINV_FORMS + 1)
int gat_invoke(const uint32_t *in, uint64_t *out, uint32_t *counts, unsigned blocks, unsigned bx, unsigned by,
               unsigned bz, uint32_t n, int coalesced);

/* ---- group copies with wait / wait_prior -------------------------------- */
#define GAT_CAP 640u    /* bytes per chunk slot */
#define GAT_MAX_CHUNKS 8u
typedef struct gat_copy_params {
    uint32_t n;          /* tile size (kind 0) */
    uint32_t kind;       /* 0 tiles, 1 block, 2 coalesced (per warp, data-dependent branch), 3 tiles
                            through a cg_thread_group_t */
    uint32_t stages;     /* copies in flight: 1..4 */
    uint32_t nchunks;    /* chunks per region, <= GAT_MAX_CHUNKS */
    uint32_t doff, soff; /* offsets of dst in its slot and of src in its slot, 0..15 */
    uint32_t constant;   /* 1: wait_prior with a literal n; 0: a run-time n */
    uint32_t nregions;   /* regions per block (tiles, 1, or warps) */
    uint32_t bytes[GAT_MAX_CHUNKS];
} gat_copy_params_t;
/* out: per (block, region, chunk) GAT_CAP bytes, the chunk's slot as the
 * group saw it right after the wait that made it complete. */
int gat_copy(const unsigned char *src, unsigned char *out, const gat_copy_params_t *p, unsigned blocks, unsigned bx,
             unsigned by, unsigned bz);

/* ---- reduce_store ------------------------------------------------------- */
/* Per group slot ((linear block * 32 + warp) * 32 + the group's lowest lane),
 * NRS_FORMS values stored by cgc (out[slot * 2 * NRS_FORMS + 2 f]) and by
 * C++ CG's reduce_store_async (+ 1), as 64-bit patterns: u32 PLUS, i32 LESS,
 * u64 BIT_XOR, i64 GREATER, f32 PLUS, f64 LESS of gat_vals_of(in). C++ only
 * for tiles in full warps and for coalesced groups. */
#define NRS_FORMS 6
int gat_reduce_store(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                     uint32_t n, int coalesced);

/* ---- the new queries ---------------------------------------------------- */
/* Per thread NQ_FIELDS values in (cgc, C++) pairs. */
enum {
    Q_BLOCK_SIZE = 0,
    Q_BLOCK_GDIM_X = 2,
    Q_BLOCK_GDIM_Y = 4,
    Q_BLOCK_GDIM_Z = 6,
    Q_TILE_SIZE = 8,
    Q_THIS_THREAD_RANK = 10,
    Q_THIS_THREAD_SIZE = 12,
    Q_THIS_THREAD_META_RANK = 14,
    Q_THIS_THREAD_META_SIZE = 16,
    Q_SUB_RANK = 18,       /* cg_tile_tiled_partition(&tile n, n/2) vs tiled_partition<n/2>(tile<n>) */
    Q_SUB_SIZE = 20,
    Q_SUB_META_RANK = 22,
    Q_SUB_META_SIZE = 24,
    Q_COAL_SIZE = 26,
    Q_GRID_SIZE = 28,
    Q_GRID_GDIM_X = 30,
    Q_GRID_GDIM_Y = 32,
    Q_GRID_GDIM_Z = 34,
    Q_GRID_TIDX_X = 36,
    Q_GRID_TIDX_Y = 38,
    Q_GRID_TIDX_Z = 40,
    NQ_FIELDS = 42
};
int gat_queries(uint64_t *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                uint32_t n);

#if defined(__cplusplus)
}
#endif

#endif /* CGT_GROUPAPI_KERNELS_H */
