/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/generic/port_small.cu — the ported kernel at N = 16, 32, 64 (a .cu
 * of its own so the instantiations compile in parallel), and the launcher
 * over every size. */
#include "tests/cg/generic/port_kernels.cuh"

extern "C" cudaError_t cgp_port_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                       const uint64_t *val, const uint32_t *arg, uint64_t *out);

extern "C" cudaError_t cgp_port(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    dim3 block(bx, by, bz);
    switch (n) {
    case 16: return cgp_port_n<16>(type, blocks, block, val, arg, out);
    case 32: return cgp_port_n<32>(type, blocks, block, val, arg, out);
    case 64: return cgp_port_n<64>(type, blocks, block, val, arg, out);
    default: return cgp_port_large_(n, type, blocks, bx, by, bz, val, arg, out);
    }
}
