/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/each_type.h — EACH_TYPE(M, ...): M(..., suffix, type) for
 * every element type of the typed collectives, written out; shared by the
 * C11 stubs (c11_stubs.h, host C) and the typed/generic probes
 * (ptx_probes.cu). A macro only: C and CUDA C++ alike.
 */
#ifndef CGT_EACH_TYPE_H
#define CGT_EACH_TYPE_H

#define EACH_TYPE(M, ...)                                                                          \
    M(__VA_ARGS__, i32, int32_t)                                                                   \
    M(__VA_ARGS__, u32, uint32_t)                                                                  \
    M(__VA_ARGS__, i64, int64_t)                                                                   \
    M(__VA_ARGS__, u64, uint64_t)                                                                  \
    M(__VA_ARGS__, f32, float)                                                                     \
    M(__VA_ARGS__, f64, double)

#endif /* CGT_EACH_TYPE_H */
