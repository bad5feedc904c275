/* tests/tensor/tensor_host_test.c — cg_tensor_map_encode's checks, no GPU
 * needed: starting from a valid description, each field set wrong returns
 * its own status (the checks run before the driver is asked), and the box
 * byte count and element sizes are what the copies deliver. */
#include <string.h>

#include "async/tensor.h"
#include "tests/support/cgtest.h"

TestSuite(tensor_host, .timeout = 30);

/* A valid 3-D float tensor: 64 x 10 x 4, box 32 x 4 x 2, 128-byte rows. The
 * base is never dereferenced by the checks. */
static cg_tensor_desc_t valid(void)
{
    cg_tensor_desc_t d;
    memset(&d, 0, sizeof d);
    d.base = (const void *)(uintptr_t)0x7f0000010000ull;
    d.dtype = CG_TENSOR_FLOAT32;
    d.rank = 3;
    d.dims[0] = 64;
    d.dims[1] = 10;
    d.dims[2] = 4;
    d.box[0] = 32;
    d.box[1] = 4;
    d.box[2] = 2;
    d.swizzle = CG_TENSOR_SWIZZLE_128B;
    return d;
}

static void expect_status(const cg_tensor_desc_t *d, cg_status_t want, const char *what)
{
    cg_tensor_map_t map;
    const cg_status_t got = cg_tensor_map_encode(&map, d);
    cr_expect_eq(got, want, "%s: got %s (%s), want %s", what, cg_status_name(got), cg_status_string(got),
                 cg_status_name(want));
    cr_expect_eq(cg_tensor_box_bytes(d), 0ull, "%s: no box size for an invalid description", what);
}

Test(tensor_host, null_pointers)
{
    cg_tensor_desc_t d = valid();
    cg_tensor_map_t map;
    cr_expect_eq(cg_tensor_map_encode(NULL, &d), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_tensor_map_encode(&map, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_tensor_box_bytes(NULL), 0ull);
}

Test(tensor_host, each_bad_field_has_its_own_status)
{
    cg_tensor_desc_t d;
#define BAD(field_stmt, status, what)                                                              \
    do {                                                                                           \
        d = valid();                                                                               \
        field_stmt;                                                                                \
        expect_status(&d, status, what);                                                           \
    } while (0)
    BAD(d.rank = 0, CG_ERROR_TENSOR_RANK, "rank 0");
    BAD(d.rank = 6, CG_ERROR_TENSOR_RANK, "rank 6");
    BAD(d.dtype = (cg_tensor_dtype_t)13, CG_ERROR_TENSOR_TYPE, "element type 13");
    BAD(d.base = NULL, CG_ERROR_TENSOR_ALIGNMENT, "null base");
    BAD(d.base = (const char *)d.base + 8, CG_ERROR_TENSOR_ALIGNMENT, "base 8 bytes off 16");
    BAD(d.dims[1] = 0, CG_ERROR_TENSOR_DIM, "an empty dimension");
    BAD(d.dims[2] = (1ull << 32) + 1u, CG_ERROR_TENSOR_DIM, "a dimension above 2^32");
    BAD(d.strides[0] = 264, CG_ERROR_TENSOR_STRIDE, "a stride not a multiple of 16");
    BAD(d.strides[1] = 1ull << 40, CG_ERROR_TENSOR_STRIDE, "a stride of 2^40");
    BAD((d.dims[0] = 3, d.box[0] = 4, d.swizzle = CG_TENSOR_SWIZZLE_NONE), CG_ERROR_TENSOR_STRIDE,
        "packed rows of 12 bytes");
    BAD(d.box[1] = 0, CG_ERROR_TENSOR_BOX, "an empty box dimension");
    BAD(d.box[2] = 257, CG_ERROR_TENSOR_BOX, "a box dimension above 256");
    BAD(d.box[0] = 6, CG_ERROR_TENSOR_BOX_ROW, "a 24-byte box row");
    BAD(d.element_strides[1] = 9, CG_ERROR_TENSOR_ELEMENT_STRIDE, "element stride 9");
    BAD(d.swizzle = (cg_tensor_swizzle_t)4, CG_ERROR_TENSOR_SWIZZLE, "swizzle mode 4");
    BAD(d.swizzle = CG_TENSOR_SWIZZLE_64B, CG_ERROR_TENSOR_SWIZZLE, "a 128-byte row under a 64-byte swizzle");
    BAD((d.box[0] = 16, d.swizzle = CG_TENSOR_SWIZZLE_32B), CG_ERROR_TENSOR_SWIZZLE,
        "a 64-byte row under a 32-byte swizzle");
    BAD(d.l2_promotion = 100, CG_ERROR_TENSOR_OPTION, "L2 promotion of 100 bytes");
    BAD((d.dtype = CG_TENSOR_UINT32, d.oob_nan = 1), CG_ERROR_TENSOR_OPTION, "NaN fill of integers");
    BAD(d.oob_nan = 2, CG_ERROR_TENSOR_OPTION, "oob_nan 2");
#undef BAD
}

Test(tensor_host, fields_beyond_the_rank_are_ignored)
{
    cg_tensor_desc_t d = valid();
    d.dims[4] = 0;
    d.box[3] = 999;
    d.strides[3] = 7;
    cr_expect_eq(cg_tensor_box_bytes(&d), 32ull * 4u * 4u * 2u, "fields past rank 3 must not matter");
}

Test(tensor_host, valid_descriptions_pass_the_checks)
{
    cg_tensor_desc_t d = valid();
    cg_tensor_map_t map;
    const cg_status_t st = cg_tensor_map_encode(&map, &d);
    /* Without a GPU driver the encoder stops at the driver; with one it
     * encodes (the base is never dereferenced). */
    cr_expect(st == CG_SUCCESS || st == CG_ERROR_DRIVER, "valid description: %s", cg_status_name(st));
    d.dims[0] = 1ull << 32; /* 2^32 elements is the largest dimension */
    d.swizzle = CG_TENSOR_SWIZZLE_NONE;
    cr_expect_neq(cg_tensor_box_bytes(&d), 0ull, "a dimension of exactly 2^32 elements is allowed");
}

Test(tensor_host, box_bytes_and_element_sizes)
{
    cg_tensor_desc_t d = valid();
    cr_expect_eq(cg_tensor_box_bytes(&d), 32ull * 4u * 4u * 2u);
    d.element_strides[1] = 3; /* ceil(4 / 3) = 2 rows */
    d.element_strides[2] = 2; /* ceil(2 / 2) = 1 plane */
    d.element_strides[0] = 5; /* dimension 0 is not strided by the hardware */
    cr_expect_eq(cg_tensor_box_bytes(&d), 32ull * 4u * 2u * 1u);
    static const struct {
        cg_tensor_dtype_t t;
        uint32_t size;
    } sizes[] = {{CG_TENSOR_UINT8, 1},   {CG_TENSOR_UINT16, 2},      {CG_TENSOR_UINT32, 4},   {CG_TENSOR_INT32, 4},
                 {CG_TENSOR_UINT64, 8},  {CG_TENSOR_INT64, 8},       {CG_TENSOR_FLOAT16, 2},  {CG_TENSOR_FLOAT32, 4},
                 {CG_TENSOR_FLOAT64, 8}, {CG_TENSOR_BFLOAT16, 2},    {CG_TENSOR_FLOAT32_FTZ, 4},
                 {CG_TENSOR_TFLOAT32, 4}, {CG_TENSOR_TFLOAT32_FTZ, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        cr_expect_eq(cg_tensor_dtype_size(sizes[i].t), sizes[i].size, "size of type %d", (int)sizes[i].t);
    cr_expect_eq(cg_tensor_dtype_size((cg_tensor_dtype_t)42), 0u);
}
