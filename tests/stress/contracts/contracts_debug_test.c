/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/contracts/contracts_debug_test.c — GPU, debug build (kernels in
 * contracts_debug_kernels.cu, CG_DEBUG=1, a 0.3 s wait bound): misuse whose
 * contract issue 26 wrote down must report and trap, each with its own
 * message:
 *   - cg_pipeline_attach of storage 16 bytes past a 128-byte boundary (the
 *     check was for 16) and of global memory (no check before);
 *   - cg_wide_tile_shfl_u32 with a per-thread source (before: a read of a
 *     slot nobody wrote, no report);
 *   - a tensor load at x = 3 of a u8 map (before: no check at the copy; a
 *     release build was seen to hang) and at a tile 16 bytes past 128 (the
 *     check that existed: kept tested).
 * Each test is its own process; cgt_gpu_exclusive runs one trapping kernel
 * at a time; every test skips under compute-sanitizer (it traps on purpose).
 */
#include <stdio.h>
#include <string.h>

#include "tests/stress/contracts/contracts.h"
#include "tests/support/cgtest.h"

TestSuite(contracts_debug, .timeout = 120);

CGT_TRAP_TEST(contracts_debug, attach_of_storage_not_128_byte_aligned_traps,
              "pipeline attach 16 bytes past a 128-byte boundary", NULL, "misaligned attach", ctrd_attach_misaligned,
              "cgc: cg_pipeline_attach(smem", "2 stages, 256 bytes a stage", "128-byte aligned")

static uint32_t *g_glob;
static void alloc_glob(void) { CGT_CUDA(cudaMalloc((void **)&g_glob, 4096)); }
static int launch_not_shared(void) { return ctrd_attach_not_shared(g_glob); }

CGT_TRAP_TEST(contracts_debug, attach_of_global_memory_traps, "pipeline attach of global memory", alloc_glob,
              "attach of global memory", launch_not_shared, "cgc: cg_pipeline_attach(smem",
              "this pointer is not shared memory")

CGT_TRAP_TEST(contracts_debug, wide_tile_shfl_with_a_per_thread_source_traps,
              "wide-tile shuffle with a per-thread source", NULL, "per-thread src", ctrd_wide_shfl_per_thread_src,
              "cgc: cg_wide_tile_shfl (tile of 64 threads)", "every thread must pass the same src")

/* A 64 x 8 u8 map over a cudaMalloc'd buffer, box 16 x 4. */
static cg_tensor_map_t g_map __attribute__((aligned(64)));
static void make_map(void)
{
    unsigned char *buf = NULL;
    CGT_CUDA(cudaMalloc((void **)&buf, 64 * 8));
    CGT_CUDA(cudaMemset(buf, 0x11, 64 * 8));
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_U8;
    d.rank = 2;
    d.global_address = buf;
    d.shape[0] = 64, d.shape[1] = 8;
    d.box[0] = 16, d.box[1] = 4;
    CGT_OK(cg_tensor_map_encode(&g_map, &d));
}
static int launch_odd_x(void) { return ctrd_tensor_odd_x(&g_map); }
static int launch_misaligned_tile(void) { return ctrd_tensor_misaligned_tile(&g_map); }

CGT_TRAP_TEST(contracts_debug, tensor_load_at_an_odd_x_traps, "tensor load at x = 3 bytes", make_map,
              "tensor load at x = 3", launch_odd_x, "cgc: cg_tensor_load_2d: x coordinate 3 is odd",
              "a multiple of 16 bytes")

CGT_TRAP_TEST(contracts_debug, tensor_load_into_a_misaligned_tile_traps, "tensor load into a tile 16 bytes past 128",
              make_map, "misaligned tensor tile", launch_misaligned_tile, "cgc: cg_tensor_load_2d(smem",
              "128-byte aligned shared memory")
