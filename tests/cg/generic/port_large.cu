/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/generic/port_large.cu — the ported kernel at N = 128, 256, 512. */
#include "tests/cg/generic/port_kernels.cuh"

extern "C" cudaError_t cgp_port_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                       const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    dim3 block(bx, by, bz);
    switch (n) {
    case 128: return cgp_port_n<128>(type, blocks, block, val, arg, out);
    case 256: return cgp_port_n<256>(type, blocks, block, val, arg, out);
    case 512: return cgp_port_n<512>(type, blocks, block, val, arg, out);
    default: return cudaErrorInvalidValue;
    }
}
