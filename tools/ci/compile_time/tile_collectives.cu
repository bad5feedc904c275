/* SPDX-License-Identifier: BSD-3-Clause */
/* Tile collectives: a float reduce and an int inclusive scan over tiles of
 * 32, a double reduce over tiles of 16, in a loop. */
#include "tools/ci/compile_time/common.h"
#if CT_VARIANT == CT_CGC
#include "cg/cg.h"
extern "C" __global__ void ct_tile_collectives(float *out, int iters)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t32 = cg_tiled_partition(&b, 32), t16 = cg_tiled_partition(&b, 16);
    float x = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        const float s = cg_tile_reduce_f32(&t32, x, CG_OP_PLUS);
        const int32_t p = cg_tile_inclusive_scan_i32(&t32, (int32_t)s & 255, CG_OP_PLUS);
        const double d = cg_tile_reduce_f64(&t16, (double)p, CG_OP_PLUS);
        x = (float)d * 0.5f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
#elif CT_VARIANT == CT_CPP
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
extern "C" __global__ void ct_tile_collectives(float *out, int iters)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
    float x = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        const float s = cg::reduce(t32, x, cg::plus<float>());
        const int p = cg::inclusive_scan(t32, (int)s & 255, cg::plus<int>());
        const double d = cg::reduce(t16, (double)p, cg::plus<double>());
        x = (float)d * 0.5f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
#else
extern "C" __global__ void ct_tile_collectives(float *out, int iters)
{
    const unsigned lane = threadIdx.x & 31u;
    float x = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        float s = x;
        for (int o = 16; o; o >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        int p = (int)s & 255;
        for (int o = 1; o < 32; o <<= 1) {
            const int u = __shfl_up_sync(0xffffffffu, p, o);
            if (lane >= (unsigned)o)
                p += u;
        }
        double d = (double)p;
        for (int o = 8; o; o >>= 1)
            d += __shfl_xor_sync(0xffffffffu, d, o, 16);
        x = (float)d * 0.5f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
#endif
