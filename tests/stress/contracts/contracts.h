/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/stress/contracts/contracts.h — launchers of the contract tests (issue 26):
 * contracts_kernels.cu (release build) and contracts_debug_kernels.cu
 * (CG_DEBUG=1). Each returns a cudaError_t as int. */
#ifndef CGT_CONTRACTS_H
#define CGT_CONTRACTS_H

#include <stddef.h>
#include <stdint.h>

#include "async/tensor_map.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Sliced cluster pipeline, cluster of `csize`, blocks of 32 + `lanes`
 * threads: lane 0 of warp 0 produces, warp 1 (a partial warp of `lanes`
 * threads) consumes every word of every stage use and releases with
 * cg_pipeline_cluster_consumer_release_all_warp. bad[0] counts words that
 * differ from src, bad[1] words checked. */
int ctr_sliced_partial_warp(const uint32_t *src, uint32_t uses, uint32_t csize, uint32_t lanes, uint32_t *bad);
/* Same with the warp-specialized block form and cg_pipeline_consumer_release_warp
 * from lanes first .. first + lanes - 1 of warp 1: first 0, a partial warp
 * (blocks of 32 + lanes); first > 0, the lanes of a branch of a full warp
 * (blocks of 64). */
int ctr_block_partial_warp(const uint32_t *src, uint32_t uses, uint32_t first, uint32_t lanes, uint32_t *bad);
/* cg_thread_group_tiled_partition of tiles of `tile` threads by `n` (tile
 * <= n), with C++ CG's tiled_partition of the same tile in the same kernel:
 * out[6 * t + k] per thread t: 0 cgc kind is coalesced, 1 cgc size, 2 cgc
 * rank, 3 C++ size, 4 C++ rank, 5 cgc meta rank * 256 + meta size. */
int ctr_small_tile_partition(uint32_t threads, uint32_t tile, uint32_t n, uint32_t *out);

/* Debug build (CG_DEBUG=1), each must report and trap: */
int ctrd_attach_misaligned(void);            /* cg_pipeline_attach at 16 bytes past 128 */
int ctrd_attach_not_shared(uint32_t *glob);  /* cg_pipeline_attach of global memory */
int ctrd_wide_shfl_per_thread_src(void);     /* cg_wide_tile_shfl_u32 with src = rank ^ 1 */
int ctrd_tensor_odd_x(const cg_tensor_map_t *map);        /* cg_tensor_load_2d at x = 3 (u8 map) */
int ctrd_tensor_misaligned_tile(const cg_tensor_map_t *map); /* tile 16 bytes past 128 */
#ifdef __cplusplus
}
#endif

#endif
