/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_map_test.c — CI, no GPU: cg_tensor_map_encode refuses
 * each documented mistake of cuTensorMapEncodeTiled by itself, one case at a
 * time, with its own status and a detail that names the field and the value;
 * the output map keeps every byte it had; the CUDA runtime is left with no
 * pending error. A valid map encodes on a GPU machine and reports
 * CG_ERROR_NO_DEVICE (not a crash) where there is no driver. */
#include <string.h>

#include "async/tensor_map.h"
#include "tests/support/cgtest.h"

#define FAKE_ADDR ((void *)(uintptr_t)0x7f0000010000ull) /* 64 KiB aligned; never dereferenced by the checks */

/* A valid 2-D float map: 64 x 48 elements, packed, box 32 x 16. */
static cg_tensor_map_desc_t valid_2d(void)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_F32;
    d.rank = 2;
    d.global_address = FAKE_ADDR;
    d.shape[0] = 64;
    d.shape[1] = 48;
    d.box[0] = 32;
    d.box[1] = 16;
    return d;
}

/* A valid 3-D map for the interleave cases: 8 x 10 x 12 int16 (16 B rows). */
static cg_tensor_map_desc_t valid_3d_interleaved(cg_tensor_interleave_t il)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_U16;
    d.rank = 3;
    d.global_address = FAKE_ADDR;
    d.shape[0] = il == CG_TENSOR_INTERLEAVE_32B ? 16 : 8;
    d.shape[1] = 10;
    d.shape[2] = 12;
    d.box[0] = (uint32_t)d.shape[0];
    d.box[1] = 4;
    d.box[2] = 4;
    d.interleave = il;
    d.swizzle = il == CG_TENSOR_INTERLEAVE_32B ? CG_TENSOR_SWIZZLE_32B : CG_TENSOR_SWIZZLE_NONE;
    return d;
}

/* What cudaPeekAtLastError() says with nothing pending: cudaSuccess on a GPU
 * machine; without a driver the runtime's own initialization failure, which
 * every runtime call reports and nothing can clear. A call "leaves no pending
 * error" when the peek still says this afterwards. */
static cudaError_t runtime_baseline(void)
{
    (void)cudaGetLastError();
    return cudaPeekAtLastError();
}

/* Encodes *d into a map filled with a pattern; expects `want` and a detail
 * containing `needle`; the map must keep its pattern and the runtime must
 * have no pending error. */
static void expect_refused(const char *name, const cg_tensor_map_desc_t *d, cg_status_t want, const char *needle)
{
    const cudaError_t base = runtime_baseline();
    cg_tensor_map_t map;
    memset(&map, 0x5C, sizeof map);
    const cg_status_t st = cg_tensor_map_encode(&map, d);
    cr_expect_eq(st, want, "%s: status %s (%s), want %s", name, cg_status_name(st), cg_last_error_detail(),
                 cg_status_name(want));
    cr_expect(strstr(cg_last_error_detail(), needle) != NULL, "%s: detail \"%s\" should contain \"%s\"", name,
              cg_last_error_detail(), needle);
    const unsigned char *b = (const unsigned char *)&map;
    for (size_t i = 0; i < sizeof map; ++i)
        if (b[i] != 0x5C) {
            cr_expect(0, "%s: the map was written on failure (byte %zu = 0x%02x, want 0x5c)", name, i, b[i]);
            break;
        }
    cr_expect_eq(cudaPeekAtLastError(), base, "%s: the runtime has a pending error %s", name,
                 cudaGetErrorName(cudaPeekAtLastError()));
}

TestSuite(tensor_map, .timeout = 30);

Test(tensor_map, map_type_is_a_cutensormap)
{
    cr_expect_eq(sizeof(cg_tensor_map_t), 128u);
    cr_expect_geq(_Alignof(cg_tensor_map_t), 64u);
    cr_expect_eq(cg_tensor_dtype_size(CG_TENSOR_U8), 1u);
    cr_expect_eq(cg_tensor_dtype_size(CG_TENSOR_BF16), 2u);
    cr_expect_eq(cg_tensor_dtype_size(CG_TENSOR_TF32_FTZ), 4u);
    cr_expect_eq(cg_tensor_dtype_size(CG_TENSOR_F64), 8u);
    cr_expect_eq(cg_tensor_dtype_size(CG_TENSOR_DTYPE_UNSET), 0u);
    cr_expect_eq(cg_tensor_dtype_size((cg_tensor_dtype_t)99), 0u);
}

Test(tensor_map, null_arguments)
{
    cg_tensor_map_desc_t d = valid_2d();
    cg_tensor_map_t map;
    cr_expect_eq(cg_tensor_map_encode(NULL, &d), CG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(cg_last_error_detail(), "out = (nil)") || strstr(cg_last_error_detail(), "out = 0"), "%s",
              cg_last_error_detail());
    memset(&map, 0x5C, sizeof map);
    cr_expect_eq(cg_tensor_map_encode(&map, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(cg_last_error_detail(), "NULL argument") != NULL, "%s", cg_last_error_detail());
    cr_expect_eq(((unsigned char *)&map)[0], 0x5C, "map untouched");
}

Test(tensor_map, misaligned_output_map)
{
    static _Alignas(128) unsigned char buf[256];
    memset(buf, 0x5C, sizeof buf);
    cg_tensor_map_desc_t d = valid_2d();
    cr_expect_eq(cg_tensor_map_encode((cg_tensor_map_t *)(void *)(buf + 32), &d), CG_ERROR_TENSOR_ALIGNMENT);
    cr_expect(strstr(cg_last_error_detail(), "not 64-byte aligned") != NULL, "%s", cg_last_error_detail());
    for (size_t i = 0; i < sizeof buf; ++i)
        cr_expect_eq(buf[i], 0x5C, "byte %zu written", i);
}

/* One mistake per case: what to change, the status and the detail's words. */
Test(tensor_map, each_mistake_has_its_status_and_detail)
{
    cg_tensor_map_desc_t d;

    d = valid_2d(), d.dtype = CG_TENSOR_DTYPE_UNSET;
    expect_refused("dtype unset", &d, CG_ERROR_TENSOR_DTYPE, "dtype = 0");
    d = valid_2d(), d.dtype = (cg_tensor_dtype_t)14;
    expect_refused("dtype 14", &d, CG_ERROR_TENSOR_DTYPE, "dtype = 14");

    d = valid_2d(), d.rank = 0;
    expect_refused("rank 0", &d, CG_ERROR_TENSOR_RANK, "rank = 0 is outside 1..5");
    d = valid_2d(), d.rank = 6;
    expect_refused("rank 6", &d, CG_ERROR_TENSOR_RANK, "rank = 6 is outside 1..5");
    d = valid_2d(), d.interleave = CG_TENSOR_INTERLEAVE_16B;
    expect_refused("interleave with rank 2", &d, CG_ERROR_TENSOR_RANK, "rank = 2 with interleave = 1");

    d = valid_2d(), d.interleave = (cg_tensor_interleave_t)3;
    expect_refused("interleave 3", &d, CG_ERROR_TENSOR_INTERLEAVE, "interleave = 3");

    d = valid_2d(), d.global_address = NULL;
    expect_refused("null address", &d, CG_ERROR_TENSOR_ALIGNMENT, "global_address is NULL");
    d = valid_2d(), d.global_address = (char *)FAKE_ADDR + 8;
    expect_refused("8-aligned address", &d, CG_ERROR_TENSOR_ALIGNMENT, "is not 16-byte aligned");
    d = valid_3d_interleaved(CG_TENSOR_INTERLEAVE_32B), d.global_address = (char *)FAKE_ADDR + 16;
    expect_refused("16-aligned address, 32 B interleave", &d, CG_ERROR_TENSOR_ALIGNMENT, "is not 32-byte aligned");

    d = valid_2d(), d.swizzle = (cg_tensor_swizzle_t)4;
    expect_refused("swizzle 4", &d, CG_ERROR_TENSOR_SWIZZLE, "swizzle = 4");
    d = valid_3d_interleaved(CG_TENSOR_INTERLEAVE_32B), d.swizzle = CG_TENSOR_SWIZZLE_NONE;
    expect_refused("32 B interleave without 32 B swizzle", &d, CG_ERROR_TENSOR_SWIZZLE,
                   "swizzle = 0 with interleave = CG_TENSOR_INTERLEAVE_32B");

    d = valid_2d(), d.l2_promotion = (cg_tensor_l2_promotion_t)4;
    expect_refused("l2 promotion 4", &d, CG_ERROR_TENSOR_OPTION, "l2_promotion = 4");
    d = valid_2d(), d.oob_fill = (cg_tensor_oob_fill_t)2;
    expect_refused("oob fill 2", &d, CG_ERROR_TENSOR_OPTION, "oob_fill = 2");
    d = valid_2d(), d.dtype = CG_TENSOR_I32, d.oob_fill = CG_TENSOR_OOB_NAN;
    expect_refused("NaN fill of int32", &d, CG_ERROR_TENSOR_OPTION, "NaN fill needs a floating-point type");

    d = valid_2d(), d.shape[0] = 0;
    expect_refused("shape[0] 0", &d, CG_ERROR_TENSOR_SHAPE, "shape[0] = 0 is outside 1..2^32");
    d = valid_2d(), d.shape[1] = (1ull << 32) + 1;
    expect_refused("shape[1] 2^32+1", &d, CG_ERROR_TENSOR_SHAPE, "shape[1] = 4294967297");

    d = valid_2d(), d.shape[0] = 3, d.box[0] = 4;
    expect_refused("packed stride of 12 B", &d, CG_ERROR_TENSOR_STRIDE, "stride_bytes[0] = 12 (packed");
    d = valid_2d(), d.stride_bytes[0] = 264;
    expect_refused("stride 264", &d, CG_ERROR_TENSOR_STRIDE, "stride_bytes[0] = 264 is not a multiple of 16");
    d = valid_2d(), d.stride_bytes[0] = 1ull << 40;
    expect_refused("stride 2^40", &d, CG_ERROR_TENSOR_STRIDE, "stride_bytes[0] = 1099511627776 is 2^40 or more");
    d = valid_2d(), d.stride_bytes[0] = 128;
    expect_refused("stride below the row", &d, CG_ERROR_TENSOR_STRIDE, "smaller than the 256 bytes");
    d = valid_2d(), d.rank = 3, d.shape[2] = 5, d.box[2] = 1, d.stride_bytes[0] = 256, d.stride_bytes[1] = 256 * 47;
    expect_refused("stride of plane below the plane", &d, CG_ERROR_TENSOR_STRIDE,
                   "stride_bytes[1] = 12032 is smaller than the 12288 bytes");
    d = valid_3d_interleaved(CG_TENSOR_INTERLEAVE_32B), d.stride_bytes[0] = 48;
    expect_refused("stride 48 with 32 B interleave", &d, CG_ERROR_TENSOR_STRIDE, "not a multiple of 32 bytes");

    d = valid_2d(), d.box[0] = 0;
    expect_refused("box[0] 0", &d, CG_ERROR_TENSOR_BOX, "box[0] = 0 is outside 1..256");
    d = valid_2d(), d.box[1] = 257;
    expect_refused("box[1] 257", &d, CG_ERROR_TENSOR_BOX, "box[1] = 257 is outside 1..256");
    d = valid_2d(), d.box[0] = 3;
    expect_refused("box row of 12 B", &d, CG_ERROR_TENSOR_BOX, "box[0] = 3 elements of 4 bytes = 12 bytes");
    d = valid_2d(), d.box[0] = 16, d.swizzle = CG_TENSOR_SWIZZLE_32B;
    expect_refused("64 B row, 32 B swizzle", &d, CG_ERROR_TENSOR_SWIZZLE, "wider than the 32-byte swizzle span");
    d = valid_2d(), d.box[0] = 32, d.swizzle = CG_TENSOR_SWIZZLE_64B;
    expect_refused("128 B row, 64 B swizzle", &d, CG_ERROR_TENSOR_SWIZZLE, "= 128 bytes is wider than the 64-byte");
    d = valid_2d(), d.dtype = CG_TENSOR_F64, d.box[0] = 32, d.swizzle = CG_TENSOR_SWIZZLE_128B;
    expect_refused("256 B row, 128 B swizzle", &d, CG_ERROR_TENSOR_SWIZZLE, "= 256 bytes is wider than the 128-byte");

    d = valid_2d(), d.element_stride[1] = 9;
    expect_refused("element stride 9", &d, CG_ERROR_TENSOR_ELEMENT_STRIDE, "element_stride[1] = 9 is outside 1..8");

    /* Rank 5: the checks reach the last dimension. */
    d = valid_2d(), d.rank = 5;
    for (int i = 2; i < 5; ++i)
        d.shape[i] = 3, d.box[i] = 2;
    d.box[4] = 300;
    expect_refused("box[4] 300", &d, CG_ERROR_TENSOR_BOX, "box[4] = 300");
    d.box[4] = 2, d.shape[4] = 0;
    expect_refused("shape[4] 0", &d, CG_ERROR_TENSOR_SHAPE, "shape[4] = 0");
    d.shape[4] = 3, d.element_stride[4] = 100;
    expect_refused("element_stride[4] 100", &d, CG_ERROR_TENSOR_ELEMENT_STRIDE, "element_stride[4] = 100");
}

/* Packed strides that pass 2^40 or wrap past 2^64 say so (issue 26: the
 * wrapped product used to read "stride_bytes[1] = 18446744073709551615 ...
 * is not a multiple of 16 bytes"). */
Test(tensor_map, packed_stride_overflow_says_so)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_U8;
    d.rank = 3;
    d.global_address = FAKE_ADDR;
    d.shape[0] = 1ull << 32, d.shape[1] = 1ull << 32, d.shape[2] = 2;
    d.box[0] = 16, d.box[1] = 1, d.box[2] = 1;
    /* stride[0] = 2^32 (fine), stride[1] = 2^64: wraps */
    expect_refused("packed stride past 2^64", &d, CG_ERROR_TENSOR_STRIDE, "is 2^64 or more");
    cr_expect(strstr(cg_last_error_detail(), "18446744073709551615") == NULL &&
                  strstr(cg_last_error_detail(), "multiple of 16") == NULL,
              "the wrapped stride must not be reported as a value: \"%s\"", cg_last_error_detail());
    /* stride[1] = 2^32 x 2^9 = 2^41: no wrap, past 2^40 */
    d.shape[1] = 1ull << 9;
    expect_refused("packed stride 2^41", &d, CG_ERROR_TENSOR_STRIDE, "stride_bytes[1] = 2199023255552 (packed");
    /* a given stride below a span that wrapped */
    d.shape[1] = 1ull << 32, d.stride_bytes[1] = 1ull << 36;
    expect_refused("given stride below a wrapped span", &d, CG_ERROR_TENSOR_STRIDE,
                   "smaller than the 2^64 or more bytes that dimension 1 spans");
}

/* Every statuses's message is its own (the new codes joined the table). */
Test(tensor_map, tensor_statuses_are_named)
{
    const cg_status_t codes[] = {CG_ERROR_TENSOR_DTYPE,          CG_ERROR_TENSOR_RANK,    CG_ERROR_TENSOR_ALIGNMENT,
                                 CG_ERROR_TENSOR_SHAPE,          CG_ERROR_TENSOR_STRIDE,  CG_ERROR_TENSOR_BOX,
                                 CG_ERROR_TENSOR_ELEMENT_STRIDE, CG_ERROR_TENSOR_SWIZZLE, CG_ERROR_TENSOR_INTERLEAVE,
                                 CG_ERROR_TENSOR_OPTION};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        cr_expect(strncmp(cg_status_name(codes[i]), "CG_ERROR_TENSOR_", 16) == 0, "%d: %s", (int)codes[i],
                  cg_status_name(codes[i]));
        cr_expect_str_neq(cg_status_string(codes[i]), "unknown cgc status code");
    }
}

/* Valid maps (every rank, swizzle and the defaults) pass the checks: on a GPU
 * machine they encode (and the map changes); without a driver the status is
 * CG_ERROR_NO_DEVICE with no pending runtime error, never a crash. */
Test(tensor_map, valid_maps_encode_or_report_no_device)
{
    void *mem = FAKE_ADDR;
    const int gpu = cgt_have_sm90();
    if (gpu)
        CGT_CUDA(cudaMalloc(&mem, 1u << 20));
    for (uint32_t rank = 1; rank <= 5; ++rank) {
        for (int sw = 0; sw <= 3; ++sw) {
            cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
            d.dtype = CG_TENSOR_U16;
            d.rank = rank;
            d.global_address = mem;
            d.swizzle = (cg_tensor_swizzle_t)sw;
            d.shape[0] = 72; /* 144 B rows: a multiple of 16 */
            d.box[0] = sw == 0 ? 24 : 16u << (sw - 1); /* 48 B rows, or the span exactly */
            for (uint32_t i = 1; i < rank; ++i)
                d.shape[i] = 3 + i, d.box[i] = 2;
            const cudaError_t base = runtime_baseline();
            cg_tensor_map_t map;
            memset(&map, 0x5C, sizeof map);
            const cg_status_t st = cg_tensor_map_encode(&map, &d);
            if (gpu) {
                cr_expect_eq(base, cudaSuccess, "no pending error on a GPU machine");
                cr_expect_eq(st, CG_SUCCESS, "rank %u swizzle %d: %s (%s)", rank, sw, cg_status_name(st),
                             cg_last_error_detail());
                cr_expect_str_eq(cg_last_error_detail(), "", "detail cleared on success");
            } else {
                cr_expect(st == CG_ERROR_NO_DEVICE || st == CG_ERROR_NOT_SUPPORTED,
                          "rank %u swizzle %d without a GPU: %s (%s)", rank, sw, cg_status_name(st),
                          cg_last_error_detail());
                cr_expect(strlen(cg_last_error_detail()) > 0, "the detail says why");
                const unsigned char *b = (const unsigned char *)&map;
                for (size_t i = 0; i < sizeof map; ++i)
                    if (b[i] != 0x5C) {
                        cr_expect(0, "rank %u swizzle %d: map byte %zu written on failure", rank, sw, i);
                        break;
                    }
            }
            cr_expect_eq(cudaPeekAtLastError(), base, "rank %u swizzle %d: pending runtime error %s", rank, sw,
                         cudaGetErrorName(cudaPeekAtLastError()));
        }
    }
    if (gpu)
        CGT_CUDA(cudaFree(mem));
}
