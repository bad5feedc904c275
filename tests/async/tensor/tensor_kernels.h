/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_kernels.h — launchers of tensor_kernels.cu, for
 * tensor_test.c (host C). Each returns a cudaError_t as int, or
 * CGT_CLUSTER_DOES_NOT_FIT (-1) for a cluster the device cannot hold. */
#ifndef TNST_TENSOR_KERNELS_H
#define TNST_TENSOR_KERNELS_H

#include <stdint.h>

#include "async/tensor_map.h"

/* Alignment of every shared tile: the period of the 128-byte swizzle. */
#define TNST_TILE_ALIGN 1024u

#ifdef __cplusplus
extern "C" {
#endif

/* nboxes blocks; block b loads the box at coords[5 b ..] and writes the raw
 * tile (box_bytes) to out[b * box_bytes ..], status[b] = 0 or 1 (timeout).
 * gmap: NULL, or a device copy of *map read from global memory. */
int tnst_load(const cg_tensor_map_t *map, const cg_tensor_map_t *gmap, uint32_t rank, const int32_t *coords,
              int nboxes, uint32_t box_bytes, int with_rank_call, unsigned char *out, uint32_t *status);

/* Block b: load through map_in at coords[5 b ..], XOR each byte with 0x5A,
 * store through map_out at the same coordinates. */
int tnst_store(const cg_tensor_map_t *map_in, const cg_tensor_map_t *map_out, uint32_t rank, const int32_t *coords,
               int nboxes, uint32_t box_bytes, int with_rank_call, uint32_t *status);

/* Clusters of csize: CTA r multicasts the 2-D box at (coords[2 k], coords[2 k
 * + 1] + r * box_h) to slot r of every CTA of cluster k; each block writes
 * its csize slots to out[block * csize * box_bytes ..]. */
int tnst_multicast(int csize, int nclusters, const cg_tensor_map_t *map, const int32_t *coords, uint32_t box_bytes,
                   uint32_t box_h, int with_rank_call, unsigned char *out, uint32_t *status);

#ifdef __cplusplus
}
#endif

#endif /* TNST_TENSOR_KERNELS_H */
