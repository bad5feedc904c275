/* tests/tensor/tensor_test.c — async/tensor.h on a real GPU.
 *
 * Tensor maps of every rank 1..5 and every swizzle mode (none, 32, 64, 128
 * bytes), packed and padded strides, built with cg_tensor_map_encode from a
 * hash-filled uint32 tensor (fresh seed per run); boxes loaded at the
 * origin, inside, flush with the far corner, hanging over every far edge
 * and starting before the near edge. Each box's raw shared-memory image
 * (poisoned before every load) is compared byte for byte with the host's:
 * the element at each box position, or zero outside the tensor, at the
 * swizzled offset. The box byte count the load completes on its mbarrier
 * is cg_tensor_box_bytes (a wrong count hangs, and the bounded wait fails
 * the test). Also: element strides, stores that clip at the edges (every
 * element of the poisoned tensor checked), and a multicast load into every
 * CTA of clusters of 2 and 4. Kernels: tensor_kernels.cu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "async/tensor.h"
#include "tests/support/cgtest.h"

#define CGT_CLUSTER_DOES_NOT_FIT (-1)

int tnt_load(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, uint32_t nboxes, uint32_t box_bytes,
             void *out);
int tnt_store(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, uint32_t box_bytes,
              const void *image);
int tnt_multicast(const cg_tensor_map_t *map, int csize, const int32_t *coords, uint32_t box_bytes, void *out);

TestSuite(tensor, .timeout = 120);

#define MAX_BOXES 8

/* One tensor (uint32 elements) and the boxes to move. */
typedef struct tcase {
    const char *name;
    uint32_t rank;
    uint64_t dims[5];
    uint32_t pad;                 /* bytes of padding after each innermost row (explicit strides) */
    uint32_t box[5];
    uint32_t es[5];               /* element strides (0 = 1) */
    cg_tensor_swizzle_t swizzle;
    uint32_t nboxes;
    int32_t coords[MAX_BOXES][5];
} tcase_t;

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Byte strides of every dimension (stride[0] = 4) and the tensor's bytes. */
static size_t layout(const tcase_t *t, uint64_t stride[5])
{
    stride[0] = 4;
    uint64_t row = t->dims[0] * 4u + t->pad;
    for (uint32_t k = 1; k < t->rank; ++k) {
        stride[k] = k == 1 ? row : stride[k - 1] * t->dims[k - 1];
    }
    return (size_t)(t->rank == 1 ? t->dims[0] * 4u : stride[t->rank - 1] * t->dims[t->rank - 1]);
}

/* The descriptor of t over device memory `base`. */
static cg_tensor_desc_t describe(const tcase_t *t, const void *base)
{
    cg_tensor_desc_t d;
    memset(&d, 0, sizeof d);
    uint64_t stride[5];
    (void)layout(t, stride);
    d.base = base;
    d.dtype = CG_TENSOR_UINT32;
    d.rank = t->rank;
    for (uint32_t i = 0; i < t->rank; ++i) {
        d.dims[i] = t->dims[i];
        d.box[i] = t->box[i];
        d.element_strides[i] = t->es[i];
        if (i >= 1)
            d.strides[i - 1] = t->pad ? stride[i] : 0; /* 0: let the encoder pack them */
    }
    d.swizzle = t->swizzle;
    return d;
}

/* Where byte offset o of a box lands in shared memory under the swizzle. */
static size_t swizzled(size_t o, cg_tensor_swizzle_t s)
{
    if (s == CG_TENSOR_SWIZZLE_NONE)
        return o;
    const size_t mask = (size_t)(1u << (unsigned)s) - 1u; /* 32B: 1, 64B: 3, 128B: 7 */
    return o ^ (((o >> 7) & mask) << 4);
}

/* Elements of the box along each dimension (element strides applied, dimension 0 excepted). */
static void box_counts(const tcase_t *t, uint32_t n[5])
{
    for (uint32_t i = 0; i < 5; ++i) {
        const uint32_t e = i < t->rank && t->es[i] ? t->es[i] : 1u;
        n[i] = i >= t->rank ? 1u : i == 0 ? t->box[0] : (t->box[i] + e - 1u) / e;
    }
}

/* Calls f(lin, g, inside) for every box position: lin its dense index, g its
 * tensor coordinates, inside whether g is in the tensor. */
typedef void (*visit_fn)(void *ctx, size_t lin, const int64_t g[5], int inside);
static void visit_box(const tcase_t *t, const int32_t c[5], visit_fn f, void *ctx)
{
    uint32_t n[5];
    box_counts(t, n);
    size_t lin = 0;
    for (uint32_t i4 = 0; i4 < n[4]; ++i4)
        for (uint32_t i3 = 0; i3 < n[3]; ++i3)
            for (uint32_t i2 = 0; i2 < n[2]; ++i2)
                for (uint32_t i1 = 0; i1 < n[1]; ++i1)
                    for (uint32_t i0 = 0; i0 < n[0]; ++i0, ++lin) {
                        const uint32_t idx[5] = {i0, i1, i2, i3, i4};
                        int64_t g[5] = {0, 0, 0, 0, 0};
                        int inside = 1;
                        for (uint32_t d = 0; d < t->rank; ++d) {
                            const uint32_t e = d > 0 && t->es[d] ? t->es[d] : 1u;
                            g[d] = (int64_t)c[d] + (int64_t)idx[d] * e;
                            if (g[d] < 0 || g[d] >= (int64_t)t->dims[d])
                                inside = 0;
                        }
                        f(ctx, lin, g, inside);
                    }
}

typedef struct load_ctx {
    const tcase_t *t;
    const uint32_t *host;  /* the tensor's words */
    const uint64_t *stride;
    unsigned char *image;  /* expected box bytes */
} load_ctx_t;

static void expect_element(void *vctx, size_t lin, const int64_t g[5], int inside)
{
    load_ctx_t *x = vctx;
    uint32_t v = 0;
    if (inside) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < x->t->rank; ++d)
            off += (uint64_t)g[d] * x->stride[d];
        v = x->host[off / 4u];
    }
    memcpy(x->image + swizzled(lin * 4u, x->t->swizzle), &v, 4);
}

/* Loads every box of t and compares the raw shared-memory images. */
static void run_loads(const tcase_t *t, uint64_t *rng)
{
    uint64_t stride[5];
    const size_t bytes = layout(t, stride);
    uint32_t *host = malloc(bytes);
    cr_assert(host != NULL);
    const uint32_t seed = (uint32_t)cgt_rand(rng);
    for (size_t w = 0; w < bytes / 4u; ++w)
        host[w] = hash32((uint32_t)w * 0x9E3779B9u ^ seed);
    void *dev = NULL;
    CGT_CUDA(cudaMalloc(&dev, bytes));
    CGT_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));

    cg_tensor_desc_t d = describe(t, dev);
    cg_tensor_map_t map;
    CGT_OK(cg_tensor_map_encode(&map, &d));
    uint32_t n[5];
    box_counts(t, n);
    const uint32_t box_bytes = (uint32_t)cg_tensor_box_bytes(&d);
    cr_assert_eq(box_bytes, 4u * n[0] * n[1] * n[2] * n[3] * n[4], "%s: cg_tensor_box_bytes", t->name);

    int32_t *dcoords = NULL;
    unsigned char *dout = NULL;
    CGT_CUDA(cudaMalloc((void **)&dcoords, sizeof t->coords));
    CGT_CUDA(cudaMemcpy(dcoords, t->coords, sizeof t->coords, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMalloc((void **)&dout, (size_t)t->nboxes * box_bytes));
    CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, (size_t)t->nboxes * box_bytes));
    CGT_CUDA((cudaError_t)tnt_load(&map, t->rank, dcoords, t->nboxes, box_bytes, dout));
    cr_assert_neq(cgt_stream_wait_deadline(20.0), cudaErrorNotReady,
                  "%s: the loads did not complete in 20 s (a wrong byte count hangs the mbarrier)", t->name);
    CGT_SYNC();

    unsigned char *got = malloc((size_t)t->nboxes * box_bytes), *want = malloc(box_bytes);
    cr_assert(got != NULL && want != NULL);
    CGT_CUDA(cudaMemcpy(got, dout, (size_t)t->nboxes * box_bytes, cudaMemcpyDeviceToHost));
    for (uint32_t k = 0; k < t->nboxes; ++k) {
        memset(want, 0xEE, box_bytes);
        load_ctx_t x = {t, host, stride, want};
        visit_box(t, t->coords[k], expect_element, &x);
        size_t bad = 0;
        for (uint32_t i = 0; i < box_bytes; ++i)
            if (got[(size_t)k * box_bytes + i] != want[i] && bad++ < 4)
                cr_expect_eq(got[(size_t)k * box_bytes + i], want[i],
                             "%s: box %u at (%d, %d, %d, %d, %d): shared byte %u is 0x%02x, want 0x%02x", t->name, k,
                             t->coords[k][0], t->coords[k][1], t->coords[k][2], t->coords[k][3], t->coords[k][4], i,
                             got[(size_t)k * box_bytes + i], want[i]);
        cr_expect_eq(bad, (size_t)0, "%s: box %u: %zu of %u bytes wrong", t->name, k, bad, box_bytes);
    }
    free(got);
    free(want);
    free(host);
    cudaFree(dev);
    cudaFree(dcoords);
    cudaFree(dout);
}

Test(tensor, loads_of_every_rank_and_swizzle_at_every_edge)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const tcase_t cases[] = {
        {"1-D, no swizzle", 1, {1000}, 0, {64}, {0}, CG_TENSOR_SWIZZLE_NONE, 5,
         {{0}, {500}, {936}, {970}, {-20}}},
        {"2-D, 128B swizzle", 2, {100, 37}, 0, {32, 8}, {0}, CG_TENSOR_SWIZZLE_128B, 6,
         {{0, 0}, {40, 10}, {68, 29}, {90, 33}, {-5, -3}, {99, 36}}},
        {"2-D, 64B swizzle, padded rows", 2, {50, 50}, 56, {16, 16}, {0}, CG_TENSOR_SWIZZLE_64B, 5,
         {{0, 0}, {17, 20}, {34, 34}, {40, 45}, {-10, 40}}},
        {"2-D, no swizzle, 48-byte rows", 2, {30, 20}, 8, {12, 5}, {0}, CG_TENSOR_SWIZZLE_NONE, 4,
         {{0, 0}, {18, 15}, {25, 17}, {-3, -4}}},
        {"3-D, 32B swizzle", 3, {40, 9, 7}, 0, {8, 4, 3}, {0}, CG_TENSOR_SWIZZLE_32B, 5,
         {{0, 0, 0}, {32, 5, 4}, {36, 7, 5}, {-2, -1, -1}, {10, 3, 2}}},
        {"4-D, 128B swizzle", 4, {64, 5, 6, 3}, 0, {32, 2, 4, 2}, {0}, CG_TENSOR_SWIZZLE_128B, 5,
         {{0, 0, 0, 0}, {32, 3, 2, 1}, {40, 4, 4, 2}, {-16, -1, -2, -1}, {16, 1, 1, 0}}},
        {"5-D, 64B swizzle", 5, {16, 3, 4, 2, 5}, 0, {16, 2, 2, 2, 3}, {0}, CG_TENSOR_SWIZZLE_64B, 4,
         {{0, 0, 0, 0, 0}, {0, 1, 2, 0, 2}, {8, 2, 3, 1, 4}, {-8, -1, -1, -1, -2}}},
        {"5-D, no swizzle, padded", 5, {20, 4, 3, 3, 2}, 48, {4, 3, 2, 2, 2}, {0}, CG_TENSOR_SWIZZLE_NONE, 4,
         {{0, 0, 0, 0, 0}, {16, 1, 1, 1, 0}, {18, 3, 2, 2, 1}, {-1, -2, -1, 0, -1}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_loads(&cases[i], &rng);
}

Test(tensor, loads_with_element_strides)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const tcase_t cases[] = {
        {"2-D, every 2nd row", 2, {64, 40}, 0, {16, 8}, {1, 2}, CG_TENSOR_SWIZZLE_NONE, 3,
         {{0, 0}, {48, 35}, {8, -3}}},
        {"3-D, every 3rd row and 2nd plane", 3, {32, 20, 9}, 0, {8, 9, 4}, {1, 3, 2}, CG_TENSOR_SWIZZLE_NONE, 3,
         {{0, 0, 0}, {24, 15, 6}, {-4, 2, 1}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_loads(&cases[i], &rng);
}

// --- stores ----------------------------------------------------------------------------------

typedef struct store_ctx {
    const tcase_t *t;
    const uint64_t *stride;
    const unsigned char *image;
    unsigned char *want; /* the tensor after the store */
} store_ctx_t;

static void stored_element(void *vctx, size_t lin, const int64_t g[5], int inside)
{
    store_ctx_t *x = vctx;
    if (!inside)
        return; /* outside the tensor: not written */
    uint64_t off = 0;
    for (uint32_t d = 0; d < x->t->rank; ++d)
        off += (uint64_t)g[d] * x->stride[d];
    memcpy(x->want + off, x->image + swizzled(lin * 4u, x->t->swizzle), 4);
}

/* Stores box k of t from a known shared-memory image into the poisoned tensor
 * and checks every byte of the tensor. */
static void run_store(const tcase_t *t, uint32_t k, uint64_t *rng)
{
    uint64_t stride[5];
    const size_t bytes = layout(t, stride);
    void *dev = NULL;
    CGT_CUDA(cudaMalloc(&dev, bytes));
    CGT_CUDA(cudaMemset(dev, CGT_POISON_BYTE, bytes));
    cg_tensor_desc_t d = describe(t, dev);
    cg_tensor_map_t map;
    CGT_OK(cg_tensor_map_encode(&map, &d));
    const uint32_t box_bytes = (uint32_t)cg_tensor_box_bytes(&d);
    unsigned char *image = malloc(box_bytes), *want = malloc(bytes), *got = malloc(bytes);
    cr_assert(image && want && got);
    const uint32_t seed = (uint32_t)cgt_rand(rng);
    for (uint32_t i = 0; i < box_bytes; ++i)
        image[i] = (unsigned char)hash32(i ^ seed);
    memset(want, CGT_POISON_BYTE, bytes);
    store_ctx_t x = {t, stride, image, want};
    visit_box(t, t->coords[k], stored_element, &x);

    int32_t *dcoords = NULL;
    unsigned char *dimage = NULL;
    CGT_CUDA(cudaMalloc((void **)&dcoords, 5 * sizeof(int32_t)));
    CGT_CUDA(cudaMemcpy(dcoords, t->coords[k], 5 * sizeof(int32_t), cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMalloc((void **)&dimage, box_bytes));
    CGT_CUDA(cudaMemcpy(dimage, image, box_bytes, cudaMemcpyHostToDevice));
    CGT_CUDA((cudaError_t)tnt_store(&map, t->rank, dcoords, box_bytes, dimage));
    cr_assert_neq(cgt_stream_wait_deadline(20.0), cudaErrorNotReady, "%s: the store did not finish in 20 s",
                  t->name);
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(got, dev, bytes, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < bytes; ++i)
        if (got[i] != want[i] && bad++ < 4)
            cr_expect_eq(got[i], want[i], "%s: store of box %u: tensor byte %zu is 0x%02x, want 0x%02x%s", t->name, k,
                         i, got[i], want[i], want[i] == CGT_POISON_BYTE ? " (outside the box: untouched)" : "");
    cr_expect_eq(bad, (size_t)0, "%s: store of box %u: %zu of %zu tensor bytes wrong", t->name, k, bad, bytes);
    free(image);
    free(want);
    free(got);
    cudaFree(dev);
    cudaFree(dcoords);
    cudaFree(dimage);
}

Test(tensor, stores_write_the_box_and_clip_at_the_edges)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const tcase_t cases[] = {
        {"2-D store, no swizzle", 2, {30, 20}, 8, {12, 5}, {0}, CG_TENSOR_SWIZZLE_NONE, 3,
         {{4, 6}, {25, 17}, {-3, -2}}},
        {"3-D store, 128B swizzle", 3, {40, 9, 7}, 0, {32, 4, 3}, {0}, CG_TENSOR_SWIZZLE_128B, 3,
         {{0, 0, 0}, {20, 7, 5}, {-8, -1, 2}}},
        {"5-D store, 32B swizzle", 5, {16, 3, 4, 2, 5}, 0, {8, 2, 2, 2, 3}, {0}, CG_TENSOR_SWIZZLE_32B, 2,
         {{4, 1, 1, 0, 1}, {12, 2, 3, 1, 4}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (uint32_t k = 0; k < cases[i].nboxes; ++k)
            run_store(&cases[i], k, &rng);
}

// --- multicast ---------------------------------------------------------------------------------

Test(tensor, multicast_load_reaches_every_cta_of_the_cluster)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const tcase_t t = {"2-D multicast, 128B swizzle", 2, {100, 37}, 0, {32, 8}, {0}, CG_TENSOR_SWIZZLE_128B, 1,
                              {{80, 33}}};
    uint64_t stride[5];
    const size_t bytes = layout(&t, stride);
    uint32_t *host = malloc(bytes);
    cr_assert(host != NULL);
    const uint32_t seed = (uint32_t)cgt_rand(&rng);
    for (size_t w = 0; w < bytes / 4u; ++w)
        host[w] = hash32((uint32_t)w * 0x9E3779B9u ^ seed);
    void *dev = NULL;
    CGT_CUDA(cudaMalloc(&dev, bytes));
    CGT_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    cg_tensor_desc_t d = describe(&t, dev);
    cg_tensor_map_t map;
    CGT_OK(cg_tensor_map_encode(&map, &d));
    const uint32_t box_bytes = (uint32_t)cg_tensor_box_bytes(&d);
    unsigned char *want = malloc(box_bytes), *got = malloc((size_t)4 * box_bytes);
    cr_assert(want && got);
    load_ctx_t x = {&t, host, stride, want};
    visit_box(&t, t.coords[0], expect_element, &x);
    int32_t *dcoords = NULL;
    CGT_CUDA(cudaMalloc((void **)&dcoords, 5 * sizeof(int32_t)));
    CGT_CUDA(cudaMemcpy(dcoords, t.coords[0], 5 * sizeof(int32_t), cudaMemcpyHostToDevice));
    static const int sizes[] = {2, 4};
    for (size_t s = 0; s < 2; ++s) {
        const int cs = sizes[s];
        unsigned char *dout = NULL;
        CGT_CUDA(cudaMalloc((void **)&dout, (size_t)cs * box_bytes));
        CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, (size_t)cs * box_bytes));
        const int rc = tnt_multicast(&map, cs, dcoords, box_bytes, dout);
        if (rc == CGT_CLUSTER_DOES_NOT_FIT) {
            cr_log_warn("cluster of %d does not fit; skipped", cs);
            cudaFree(dout);
            continue;
        }
        CGT_CUDA((cudaError_t)rc);
        cr_assert_neq(cgt_stream_wait_deadline(20.0), cudaErrorNotReady, "multicast, cluster %d: hang", cs);
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(got, dout, (size_t)cs * box_bytes, cudaMemcpyDeviceToHost));
        for (int r = 0; r < cs; ++r) {
            size_t bad = 0;
            for (uint32_t i = 0; i < box_bytes; ++i)
                if (got[(size_t)r * box_bytes + i] != want[i] && bad++ < 4)
                    cr_expect_eq(got[(size_t)r * box_bytes + i], want[i],
                                 "multicast, cluster %d, CTA %d: shared byte %u is 0x%02x, want 0x%02x", cs, r, i,
                                 got[(size_t)r * box_bytes + i], want[i]);
            cr_expect_eq(bad, (size_t)0, "multicast, cluster %d, CTA %d: %zu bytes wrong", cs, r, bad);
        }
        cudaFree(dout);
    }
    free(host);
    free(want);
    free(got);
    cudaFree(dev);
    cudaFree(dcoords);
}
