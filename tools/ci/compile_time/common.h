/* SPDX-License-Identifier: BSD-3-Clause */
/* tools/ci/compile_time/common.h — which way a kernel file is written, picked by
 * tools/ci/compile_time.py with -DCT_VARIANT=...: the same kernel with cgc
 * (CT_CGC: #include "cg/cg.h", what a user writes), with NVIDIA's C++
 * Cooperative Groups / libcu++ (CT_CPP), or bare (CT_BARE: inline PTX and
 * builtins, no library). Every kernel is extern "C" and named ct_<file>, so
 * the tool finds it in ptxas -v's report and in the cubin's .text sections. */
#ifndef CT_COMMON_H
#define CT_COMMON_H
#define CT_CGC 1
#define CT_CPP 2
#define CT_BARE 3
#if !defined(CT_VARIANT)
#error "compile with -DCT_VARIANT=CT_CGC, CT_CPP or CT_BARE (tools/ci/compile_time.py)"
#endif
#include <stdint.h>
#endif
