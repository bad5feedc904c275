/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/oracle_large.cu — the oracle kernel for tiles of 256, 512
 * and 1024. */
#include "tests/cg/wide_tile/oracle.cuh"

extern "C" cudaError_t cgw_oracle_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                         const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    dim3 block(bx, by, bz);
    if (n == 256)
        return cgw_oracle_n<256>(type, blocks, block, val, arg, out);
    if (n == 512)
        return cgw_oracle_n<512>(type, blocks, block, val, arg, out);
    return cgw_oracle_n<1024>(type, blocks, block, val, arg, out);
}
