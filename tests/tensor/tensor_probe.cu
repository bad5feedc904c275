/* tests/tensor/tensor_probe.cu — probe kernels for tensor_ptx_test.c, one per
 * async/tensor.h wrapper (PTX only; the same file is also assembled by
 * ptxas as the kernels of tensor_ptx_asm_test, so every form is valid). */
#include "async/tensor.h"

/* Loads need a box and an mbarrier, stores a box, prefetches neither. */
#define PROBE_LOAD(NAME, BODY)                                                                     \
    extern "C" __global__ void tnp_##NAME(const __grid_constant__ cg_tensor_map_t map, int32_t x) \
    {                                                                                              \
        __shared__ __align__(1024) unsigned char s[1024];                                          \
        __shared__ cg_mbarrier_t mb;                                                               \
        BODY                                                                                       \
    }
#define PROBE_STORE(NAME, BODY)                                                                    \
    extern "C" __global__ void tnp_##NAME(const __grid_constant__ cg_tensor_map_t map, int32_t x) \
    {                                                                                              \
        __shared__ __align__(1024) unsigned char s[1024];                                          \
        BODY                                                                                       \
    }
#define PROBE(NAME, BODY)                                                                          \
    extern "C" __global__ void tnp_##NAME(const __grid_constant__ cg_tensor_map_t map, int32_t x) \
    {                                                                                              \
        (void)x;                                                                                   \
        BODY                                                                                       \
    }

PROBE_LOAD(load_1d, cg_tensor_load_1d(s, &map, x, &mb);)
PROBE_LOAD(load_2d, cg_tensor_load_2d(s, &map, x, x + 1, &mb);)
PROBE_LOAD(load_3d, cg_tensor_load_3d(s, &map, x, x + 1, x + 2, &mb);)
PROBE_LOAD(load_4d, cg_tensor_load_4d(s, &map, x, x + 1, x + 2, x + 3, &mb);)
PROBE_LOAD(load_5d, cg_tensor_load_5d(s, &map, x, x + 1, x + 2, x + 3, x + 4, &mb);)
PROBE_LOAD(load_1d_multicast, cg_tensor_load_1d_multicast(s, &map, x, &mb, (uint16_t)x);)
PROBE_LOAD(load_2d_multicast, cg_tensor_load_2d_multicast(s, &map, x, x + 1, &mb, (uint16_t)x);)
PROBE_LOAD(load_3d_multicast, cg_tensor_load_3d_multicast(s, &map, x, x + 1, x + 2, &mb, (uint16_t)x);)
PROBE_LOAD(load_4d_multicast, cg_tensor_load_4d_multicast(s, &map, x, x + 1, x + 2, x + 3, &mb, (uint16_t)x);)
PROBE_LOAD(load_5d_multicast, cg_tensor_load_5d_multicast(s, &map, x, x + 1, x + 2, x + 3, x + 4, &mb, (uint16_t)x);)
PROBE_STORE(store_1d, cg_tensor_store_1d(&map, x, s);)
PROBE_STORE(store_2d, cg_tensor_store_2d(&map, x, x + 1, s);)
PROBE_STORE(store_3d, cg_tensor_store_3d(&map, x, x + 1, x + 2, s);)
PROBE_STORE(store_4d, cg_tensor_store_4d(&map, x, x + 1, x + 2, x + 3, s);)
PROBE_STORE(store_5d, cg_tensor_store_5d(&map, x, x + 1, x + 2, x + 3, x + 4, s);)
PROBE(prefetch_1d, cg_tensor_prefetch_1d(&map, x);)
PROBE(prefetch_2d, cg_tensor_prefetch_2d(&map, x, x + 1);)
PROBE(prefetch_3d, cg_tensor_prefetch_3d(&map, x, x + 1, x + 2);)
PROBE(prefetch_4d, cg_tensor_prefetch_4d(&map, x, x + 1, x + 2, x + 3);)
PROBE(prefetch_5d, cg_tensor_prefetch_5d(&map, x, x + 1, x + 2, x + 3, x + 4);)
PROBE(map_prefetch, cg_tensor_map_prefetch(&map);)
