/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/gemm_multicast.cuh — the main loop of a bf16 GEMM fed by cgc's
 * cluster multicast pipeline, shared by the example (examples/gemm_multicast.cu)
 * and the workload benchmark (bench/workloads/wl_gemm.cu), so both run the
 * same code.
 *
 *   C (M x N, fp32, row-major) = A (M x K, bf16, row-major) * B
 *   B is given as Bt = B^T (N x K, bf16, row-major: "K-major", as the tensor
 *   cores read it; cuBLAS calls this layout op(B) = T with ldb = K).
 *
 * One CTA computes one 128 x 128 tile of C at a time (persistent: a CTA
 * walks its cluster's tiles), stepping K by 64:
 *   - warp 8 (one elected thread) is the producer: per K step it fills one
 *     pipeline stage of 32 KiB = the A tile (128 x 64 bf16) and the B tile
 *     (128 x 64) with tensor TMA loads of 64-row boxes (cg_tensor_load_2d /
 *     cg_tensor_load_multicast_2d), 128-byte swizzle;
 *   - warps 0-7 are two consumer warpgroups; warpgroup w multiplies rows
 *     64w .. 64w + 63 of the A tile by the whole B tile with four
 *     wgmma.mma_async m64n128k16 per stage (fp32 accumulators in registers),
 *     and releases the stage once those have read it.
 * A file that defines GM_BN 256 before including this one gets 128 x 256
 * tiles instead: 48 KiB stages (B 256 x 64 in four boxes), 4 stages,
 * wgmma m64n256k16 and 128 accumulators per consumer thread (the
 * benchmark's second build, bench/workloads/wl_gemm_256.cu).
 *
 * Clusters of CM x CN CTAs (1 x 2 or 2 x 2) take CM x CN neighbouring tiles.
 * The CTAs of a cluster row need the same A tile, those of a cluster column
 * the same B tile. Mode GM_MULTICAST: each CTA loads only its share of them
 * (A's 64-row boxes split among its row, B's among its column) and multicasts
 * each box into every CTA that needs it; every CTA still receives the whole
 * 32 KiB stage on its own full barrier. Each CTA's empty barrier counts the
 * releases of every consumer warp its producer writes into (its row and its
 * column: (CM + CN - 1) CTAs x 8 warps), and a consumer warp releases to the
 * union of its row and column peers, itself included
 * (cg_pipeline_cluster_consumer_release_all_whole_warp: the kernel's 288
 * threads are whole warps, so it declares them and skips the general warp
 * release's run-time test of the block's shape). Per K step a CTA reads
 * 32 KiB / CN of A and 32 KiB / CM of B... from L2: 24 KiB at 1 x 2, 16 KiB at
 * 2 x 2, against 32 KiB in the twin. Mode GM_TWIN (the anchor): the same
 * kernel, same launch and tile order, but every CTA loads its whole A and B
 * tiles itself into a plain (one-CTA) pipeline.
 *
 * Where multicast can pay: a 128 x 128 x 64 step is 2 MFLOP for 32 KiB of
 * operands; at the tensor cores' rate that is more bytes per second than the
 * L2 can hand all SMs at once, so the twin waits on L2 -> SM bandwidth and
 * the multicast form, which asks the L2 for fewer bytes, does not.
 *
 * wgmma shared-memory operands (PTX ISA, "Matrix Descriptor Format"): a
 * 64-bit descriptor per operand: bits 0-13 start address >> 4, 16-29 leading
 * byte offset >> 4 (unused by K-major swizzled layouts; 1), 32-45 stride
 * byte offset >> 4 (1024 B: from one group of 8 rows to the next, each row
 * 128 B), 49-51 base offset (0: every tile is 1024-byte aligned), 62-63
 * layout (1 = 128-byte swizzle). That is exactly the layout a TMA load with
 * CG_TENSOR_SWIZZLE_128B writes for a box whose rows are 64 bf16 = 128 B
 * (async/tensor.h: chunk c of row r at c ^ (r % 8)). The K = 16 slice kk of a
 * 64-wide stage starts 32 * kk bytes into each row: the descriptor's start
 * address advances by 32 B and the hardware applies the swizzle to the
 * address it forms.
 *
 * Accumulator layout of wgmma m64nNk16 .f32 (PTX ISA, "Register Fragments"):
 * thread t of the warpgroup (warp w = t / 32, lane l) holds d[i] at
 *     row 16 w + l / 4 + 8 ((i / 2) % 2),   column 8 (i / 4) + 2 (l % 4) + i % 2.
 */
#ifndef CGX_GEMM_MULTICAST_CUH
#define CGX_GEMM_MULTICAST_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <cgc/cg/cg.h>

#define GM_BM 128u                 /* tile rows (M) */
/* Tile columns (N): 128, or 256 when the including file defines it so (the
 * benchmark's 128 x 256 form, bench/workloads/wl_gemm_256.cu). */
#ifndef GM_BN
#define GM_BN 128u
#endif
#if GM_BN != 128u && GM_BN != 256u
#error "GM_BN must be 128 or 256"
#endif
#define GM_BK 64u                  /* K per stage: 64 bf16 = one 128-byte swizzle row */
#define GM_BOX_ROWS 64u            /* rows of one TMA box (half a tile) */
#define GM_BOX_BYTES (GM_BOX_ROWS * GM_BK * 2u)    /* 8 KiB */
#define GM_A_BYTES (GM_BM * GM_BK * 2u)            /* 16 KiB */
#define GM_STAGE_BYTES (GM_A_BYTES + GM_BN * GM_BK * 2u) /* 32 KiB (48 at GM_BN 256): A then B */
#ifndef GM_STAGES
#define GM_STAGES (GM_BN == 256u ? 4u : 5u) /* 160 / 192 KiB of stages */
#endif
#define GM_ACC (GM_BN / 2u) /* fp32 accumulators per consumer thread (64 x GM_BN per warpgroup) */
#define GM_CONSUMER_WARPS 8u                       /* two warpgroups */
#define GM_PRODUCER_WARP GM_CONSUMER_WARPS         /* warp 8 */
#define GM_THREADS (32u * (GM_CONSUMER_WARPS + 1u)) /* 288 */
/* Dynamic shared memory: the pipeline plus 1 KiB to align it to 1024 (the
 * 128-byte swizzle's period). */
#define GM_SMEM_BYTES (CG_PIPELINE_SMEM_BYTES(GM_STAGES, GM_STAGE_BYTES) + 1024u)
/* Cluster rows per group of the tile order (L2 reuse across the wave). */
#define GM_GROUP 8u

#define GM_TWIN 0      /* every CTA loads its own A and B tiles */
#define GM_MULTICAST 1 /* A shared along cluster rows, B along columns */

/* What one launch computes. m, n, k multiples of 128 * cm, 128 * cn and 64. */
typedef struct gm_problem {
    float *c;        /* M x N fp32, row-major */
    uint32_t m, n, k;
    uint32_t cm, cn; /* cluster shape in tiles: cm x cn = the cluster's size (1x1, 1x2, 2x1, 2x2) */
    int mode;        /* GM_TWIN or GM_MULTICAST */
} gm_problem_t;

/* wgmma exists on sm_90a only (not on plain sm_90, nor on sm_100a, whose
 * tensor cores are driven by tcgen05); nvcc defines __CUDA_ARCH_FEAT_SM90_ALL
 * for -arch=sm_90a. Any other device pass (a multi-arch build's sm_100a code)
 * compiles a kernel body that traps at once; the host refuses to launch it
 * on a device that is not sm_90 (gm_device_error). */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GM_HAS_WGMMA 1
#else
#define GM_HAS_WGMMA 0
#endif

#if CG_DEVICE_CODE_VISIBLE

/* ---------------------------------------------------------------------------
 * wgmma (sm_90a). Not cgc's job to wrap the MMA: inline PTX, one form each.
 * ------------------------------------------------------------------------- */

/* wgmma.fence.sync.aligned;   PTX ISA 8.0, sm_90a. Before the first
 * wgmma.mma_async of a batch: orders this warpgroup's earlier register
 * accesses of the accumulators (the epilogue's reads) before the MMAs. */
static __device__ __forceinline__ void gm_wgmma_fence(void)
{
#if GM_HAS_WGMMA
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

/* wgmma.commit_group.sync.aligned;   PTX ISA 8.0, sm_90a. */
static __device__ __forceinline__ void gm_wgmma_commit(void)
{
#if GM_HAS_WGMMA
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

/* wgmma.wait_group.sync.aligned N;   PTX ISA 8.0, sm_90a. Returns once at
 * most N of this warpgroup's committed groups are pending: their shared
 * memory reads are done and their accumulators written. */
#if GM_HAS_WGMMA
#define GM_WGMMA_WAIT(n) asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(n) : "memory")
#else
#define GM_WGMMA_WAIT(n) ((void)0)
#endif

/* Keep the compiler from moving accumulator reads or writes across this
 * point (the registers are being written by the tensor cores until the
 * wait): an empty asm that claims to read and write every one. */
static __device__ __forceinline__ void gm_pin(float *d)
{
#pragma unroll
    for (int i = 0; i < (int)GM_ACC; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* The shared-memory descriptor of a K-major operand with 128-byte swizzle
 * whose 8-row groups are 1024 B apart (see the top of the file). */
static __device__ __forceinline__ uint64_t gm_desc(uint32_t smem_addr)
{
    return (uint64_t)((smem_addr & 0x3FFFFu) >> 4) | ((uint64_t)1u << 16) | ((uint64_t)(1024u >> 4) << 32) |
           ((uint64_t)1u << 62);
}

/* The accumulator operands of a wgmma: 8, 64 consecutive fp32 registers of
 * d from d[b] on, each read and written by the MMA ("+f"). */
#define GM_ACC8_(d, b)                                                                                        \
    "+f"((d)[(b) + 0]), "+f"((d)[(b) + 1]), "+f"((d)[(b) + 2]), "+f"((d)[(b) + 3]), "+f"((d)[(b) + 4]),   \
        "+f"((d)[(b) + 5]), "+f"((d)[(b) + 6]), "+f"((d)[(b) + 7])
/* The other operands: the two descriptors and the accumulate flag. */
#define GM_WGMMA_IN_ "l"(da), "l"(db), "r"(acc)
#define GM_ACC64_(d, b)                                                                                       \
    GM_ACC8_(d, (b) + 0), GM_ACC8_(d, (b) + 8), GM_ACC8_(d, (b) + 16), GM_ACC8_(d, (b) + 24),             \
        GM_ACC8_(d, (b) + 32), GM_ACC8_(d, (b) + 40), GM_ACC8_(d, (b) + 48), GM_ACC8_(d, (b) + 56)

/* Not an sm_90a device pass: the wrappers compile to nothing (the kernel
 * traps first, gm_gemm). */
static __device__ __forceinline__ void gm_wgmma_unused_(float *d, uint64_t da, uint64_t db, uint32_t acc)
{
    (void)d;
    (void)da;
    (void)db;
    (void)acc;
}

/* wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 d, a-desc, b-desc, p, 1, 1, 0, 0;
 * PTX ISA 8.0, sm_90a. d (64 fp32 per thread) = A (64 x 16, K-major, smem)
 * * B (16 x 128, K-major, smem) + (acc ? d : 0). */
static __device__ __forceinline__ void gm_wgmma_m64n128k16(float *d, uint64_t da, uint64_t db, uint32_t acc)
{
#if GM_HAS_WGMMA
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %66, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1, 0, 0;\n\t}"
                 : GM_ACC64_(d, 0)
                 : GM_WGMMA_IN_ : "memory");
#else
    gm_wgmma_unused_(d, da, db, acc);
#endif
}

/* wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 d, a-desc, b-desc, p, 1, 1, 0, 0;
 * PTX ISA 8.0, sm_90a. d (128 fp32 per thread) = A (64 x 16, K-major, smem)
 * * B (16 x 256, K-major, smem) + (acc ? d : 0). The 128 x 256 form's MMA. */
static __device__ __forceinline__ void gm_wgmma_m64n256k16(float *d, uint64_t da, uint64_t db, uint32_t acc)
{
#if GM_HAS_WGMMA
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %130, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
                 "{"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "%128, %129, p, 1, 1, 0, 0;\n\t}"
                 : GM_ACC64_(d, 0), GM_ACC64_(d, 64)
                 : GM_WGMMA_IN_ : "memory");
#else
    gm_wgmma_unused_(d, da, db, acc);
#endif
}

/* The MMA of this file's tile width. */
#if GM_BN == 256u
#define gm_wgmma_tile gm_wgmma_m64n256k16
#else
#define gm_wgmma_tile gm_wgmma_m64n128k16
#endif

/* ---------------------------------------------------------------------------
 * Tile order
 * ------------------------------------------------------------------------- */

/* The tile (mt, nt) of this CTA (cluster position rm, rn) in the cluster's
 * `ct`-th cluster tile. Cluster tiles go down groups of GM_GROUP cluster rows
 * first, so the clusters running at once share A rows and B columns in L2. */
static __device__ __forceinline__ void gm_tile_of(const gm_problem_t *pr, uint32_t ct, uint32_t rm, uint32_t rn,
                                                  uint32_t *mt, uint32_t *nt)
{
    const uint32_t mtc = pr->m / (GM_BM * pr->cm), ntc = pr->n / (GM_BN * pr->cn);
    const uint32_t per_group = GM_GROUP * ntc;
    const uint32_t first = ct / per_group * GM_GROUP;
    const uint32_t rows = mtc - first < GM_GROUP ? mtc - first : GM_GROUP;
    const uint32_t local = ct % per_group;
    *mt = (first + local % rows) * pr->cm + rm;
    *nt = local / rows * pr->cn + rn;
}

/* ---------------------------------------------------------------------------
 * The kernel body
 * ------------------------------------------------------------------------- */

/* The producer (one thread): every K step of every tile of this CTA, in the
 * consumers' order. Multicast: this CTA's boxes of A go to its cluster row
 * (`row`), its boxes of B to its column (`col`); a box nobody else needs is
 * a plain load. */
static __device__ __forceinline__ void gm_produce(cg_pipeline_t *p, const cg_tensor_map_t *map_a,
                                                  const cg_tensor_map_t *map_b, const gm_problem_t *pr,
                                                  uint32_t cid, uint32_t ncl, uint32_t rm, uint32_t rn,
                                                  uint16_t row, uint16_t col)
{
    const uint32_t nct = pr->m / (GM_BM * pr->cm) * (pr->n / (GM_BN * pr->cn)), nk = pr->k / GM_BK;
    const int mc = pr->mode == GM_MULTICAST;
    cg_tensor_map_prefetch(map_a);
    cg_tensor_map_prefetch(map_b);
    for (uint32_t ct = cid; ct < nct; ct += ncl) {
        uint32_t mt, nt;
        gm_tile_of(pr, ct, rm, rn, &mt, &nt);
        for (uint32_t kb = 0; kb < nk; ++kb) {
            unsigned char *stage =
                (unsigned char *)(mc ? cg_pipeline_cluster_producer_acquire(p) : cg_pipeline_producer_acquire(p));
            cg_mbarrier_t *full = cg_pipeline_producer_barrier(p);
            const int32_t x = (int32_t)(kb * GM_BK);
#pragma unroll
            for (uint32_t h = 0; h < GM_BM / GM_BOX_ROWS; ++h) { /* A: box h belongs to row member h % cn */
                void *da = stage + h * GM_BOX_BYTES;
                const int32_t ya = (int32_t)(mt * GM_BM + h * GM_BOX_ROWS);
                if (!mc || pr->cn == 1u)
                    cg_tensor_load_2d(da, map_a, x, ya, full);
                else if (h % pr->cn == rn)
                    cg_tensor_load_multicast_2d(da, map_a, x, ya, full, row);
            }
#pragma unroll
            for (uint32_t h = 0; h < GM_BN / GM_BOX_ROWS; ++h) { /* B: box h belongs to column member h % cm */
                void *db = stage + GM_A_BYTES + h * GM_BOX_BYTES;
                const int32_t yb = (int32_t)(nt * GM_BN + h * GM_BOX_ROWS);
                if (!mc || pr->cm == 1u)
                    cg_tensor_load_2d(db, map_b, x, yb, full);
                else if (h % pr->cm == rm)
                    cg_tensor_load_multicast_2d(db, map_b, x, yb, full, col);
            }
            /* every CTA receives the whole stage on its own full barrier */
            if (mc)
                cg_pipeline_cluster_producer_commit_local(p, GM_STAGE_BYTES);
            else
                cg_pipeline_producer_commit(p, GM_STAGE_BYTES);
        }
    }
    if (mc) /* every release aimed at this CTA has landed before it may exit */
        cg_pipeline_cluster_producer_tail(p);
}

/* A consumer warpgroup (`wg` = 0 or 1): every tile, every K step; the
 * accumulators go to C after each tile. The wgmma of step k is in flight
 * while the warpgroup waits for step k + 1's data; step k's stage is released
 * once step k + 1's MMAs are issued and step k's have completed
 * (wait_group 1). `p`'s tail follows the releases; the waits use their own
 * cursor one stage ahead. */
static __device__ __forceinline__ void gm_consume(cg_pipeline_t *p, const gm_problem_t *pr, uint32_t cid,
                                                  uint32_t ncl, uint32_t rm, uint32_t rn, uint32_t wg,
                                                  uint16_t peers)
{
    const uint32_t nct = pr->m / (GM_BM * pr->cm) * (pr->n / (GM_BN * pr->cn)), nk = pr->k / GM_BK;
    const int mc = pr->mode == GM_MULTICAST;
    const uint32_t t = threadIdx.x % 128u, w = t / 32u, lane = t % 32u;
    uint32_t rd = 0, rd_phase = 0; /* the wait cursor: stage and parity */
    float d[GM_ACC];
    for (uint32_t ct = cid; ct < nct; ct += ncl) {
        uint32_t mt, nt;
        gm_tile_of(pr, ct, rm, rn, &mt, &nt);
        for (uint32_t kb = 0; kb < nk; ++kb) {
            cg_mbarrier_t *full = cg_pipeline_full_barrier(p, rd);
            if (mc)
                cg_mbarrier_wait_parity_cluster(full, rd_phase); /* bytes multicast by peers too */
            else
                cg_mbarrier_wait_parity(full, rd_phase);
            const uint32_t s = cg_smem_addr(cg_pipeline_stage(p, rd));
            const uint32_t a = s + wg * (GM_BM / 2u) * (GM_BK * 2u), b = s + GM_A_BYTES;
            gm_wgmma_fence();
#pragma unroll
            for (uint32_t kk = 0; kk < GM_BK / 16u; ++kk)
                gm_wgmma_tile(d, gm_desc(a + kk * 32u), gm_desc(b + kk * 32u), (kb | kk) != 0u);
            gm_wgmma_commit();
            if (kb > 0) {
                GM_WGMMA_WAIT(1);
                if (mc)
                    cg_pipeline_cluster_consumer_release_all_whole_warp(p, peers);
                else
                    cg_pipeline_consumer_release_warp(p);
            }
            if (++rd == GM_STAGES) {
                rd = 0;
                rd_phase ^= 1u;
            }
        }
        GM_WGMMA_WAIT(0);
        gm_pin(d);
        if (mc)
            cg_pipeline_cluster_consumer_release_all_whole_warp(p, peers);
        else
            cg_pipeline_consumer_release_warp(p);
        /* epilogue: two adjacent fp32 per store, rows 8 apart */
        const uint32_t row = mt * GM_BM + wg * 64u + w * 16u + lane / 4u;
        const uint32_t col = nt * GM_BN + 2u * (lane % 4u);
        float *c0 = pr->c + (size_t)row * pr->n + col, *c1 = c0 + (size_t)8u * pr->n;
#pragma unroll
        for (uint32_t j = 0; j < GM_BN / 8u; ++j) {
            *(float2 *)(c0 + 8u * j) = make_float2(d[4u * j], d[4u * j + 1u]);
            *(float2 *)(c1 + 8u * j) = make_float2(d[4u * j + 2u], d[4u * j + 3u]);
        }
    }
}

/* The whole kernel body: launch with GM_THREADS threads, GM_SMEM_BYTES of
 * dynamic shared memory, a 1-D grid of whole clusters of pr->cm * pr->cn
 * CTAs (cluster.x = cm * cn; any number of clusters: each walks its share of
 * the tiles). map_a: A, box 64 x 64, 128-byte swizzle; map_b: Bt, the same
 * (gm_encode_maps). */
static __device__ __forceinline__ void gm_gemm(const cg_tensor_map_t *map_a, const cg_tensor_map_t *map_b,
                                               gm_problem_t pr)
{
#if !GM_HAS_WGMMA
    __trap(); /* not an sm_90a device pass: no wgmma (the host never launches this) */
#endif
    extern __shared__ __align__(1024) unsigned char gm_smem_raw[];
    /* the same offset in every CTA of the cluster (same kernel, same static
     * shared memory), as multicast needs */
    unsigned char *smem = gm_smem_raw + ((1024u - (cg_smem_addr(gm_smem_raw) & 1023u)) & 1023u);
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t C = cg_cluster_num_blocks(&cl), r = cg_cluster_block_rank(&cl);
    const uint32_t cid = blockIdx.x / C, ncl = gridDim.x / C;
    const uint32_t rm = r / pr.cn, rn = r % pr.cn;
    const uint32_t warp = threadIdx.x / 32u;
    const int mc = pr.mode == GM_MULTICAST;
    /* my cluster row (A's sharers) and column (B's sharers), as rank masks */
    const uint16_t row = (uint16_t)(((1u << pr.cn) - 1u) << (rm * pr.cn));
    uint16_t col = 0;
    for (uint32_t i = 0; i < pr.cm; ++i)
        col = (uint16_t)(col | (1u << (i * pr.cn + rn)));
    const uint16_t peers = (uint16_t)(row | col);

    cg_pipeline_t p;
    if (mc) {
        p = cg_pipeline_attach_cluster(smem, GM_STAGES, GM_STAGE_BYTES, 0);
        /* my producer writes into every CTA of `peers`: their consumer warps
         * all release to me */
        if (threadIdx.x == 0)
            cg_pipeline_init_barriers_cluster(&p, (uint32_t)__popc(peers) * GM_CONSUMER_WARPS);
    } else {
        p = cg_pipeline_attach(smem, GM_STAGES, GM_STAGE_BYTES);
        if (threadIdx.x == 0)
            cg_pipeline_init_barriers(&p, 1u, GM_CONSUMER_WARPS);
    }
    cg_cluster_sync(&cl); /* barriers ready in every CTA before any copy or remote arrive */

    if (warp == GM_PRODUCER_WARP) {
        if (cg_elect_sync(0xffffffffu))
            gm_produce(&p, map_a, map_b, &pr, cid, ncl, rm, rn, row, col);
        __syncwarp();
    } else {
        gm_consume(&p, &pr, cid, ncl, rm, rn, warp / 4u, peers);
    }
    cg_cluster_sync(&cl); /* no CTA exits while a multicast or a release may still reach it */
}

#endif /* CG_DEVICE_CODE_VISIBLE */

/* ---------------------------------------------------------------------------
 * Host helpers (nvcc host code)
 * ------------------------------------------------------------------------- */

/* A's map (rows m, k bf16 each) or Bt's (rows n): boxes of 64 rows x 64
 * elements (128 B, the swizzle span), 128-byte swizzle, L2 fills of 256 B. */
static inline cg_status_t gm_encode_map(cg_tensor_map_t *map, const void *dev, uint32_t rows, uint32_t k)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_BF16;
    d.rank = 2;
    d.global_address = (void *)dev;
    d.shape[0] = k;
    d.shape[1] = rows;
    d.stride_bytes[0] = (uint64_t)k * 2u;
    d.box[0] = GM_BK;
    d.box[1] = GM_BOX_ROWS;
    d.swizzle = CG_TENSOR_SWIZZLE_128B;
    d.l2_promotion = CG_TENSOR_L2_256B;
    return cg_tensor_map_encode(map, &d);
}

/* NULL when the current device can run the kernel (an sm_90 GPU: wgmma is
 * sm_90a's), else why not. */
static inline const char *gm_device_error(void)
{
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return "no CUDA device";
    }
    if (major != 9 || minor != 0)
        return "wgmma, which the kernel multiplies with, exists on sm_90a only (H100, H200)";
    return NULL;
}

/* NULL when pr can run: sizes divide the cluster's tiles and K steps, and the
 * cluster shape is one the kernel's masks allow; else what is wrong. */
static inline const char *gm_problem_error(const gm_problem_t *pr)
{
    if (pr->cm == 0 || pr->cn == 0 || pr->cm > 2 || pr->cn > 2)
        return "cluster shape must be 1x1, 1x2, 2x1 or 2x2 tiles";
    if (pr->m == 0 || pr->n == 0 || pr->k == 0 || pr->m % (GM_BM * pr->cm) || pr->n % (GM_BN * pr->cn) ||
        pr->k % GM_BK)
        return "M, N and K must be nonzero multiples of 128 * cm, 128 * cn and 64";
    return NULL;
}

#endif /* CGX_GEMM_MULTICAST_CUH */
