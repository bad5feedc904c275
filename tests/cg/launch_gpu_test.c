/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/launch_gpu_test.c — launch configurations that need a device to
 * judge: shared memory beyond 48 KB (opt-in done) and beyond the device,
 * clusters above 8 (non-portable opt-in done), cooperative grids at and above
 * co-residency, the kernel's own thread limit, a non-kernel pointer, a
 * trapping kernel. GPU tests: skip without an sm_90 device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier/device_barrier.h"
#include "cg/launch.h"
#include "tests/cg/launch_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(cg_launch_gpu, .timeout = 60);

static const char not_a_kernel = 0;

static uint32_t *zeroed(size_t n)
{
    uint32_t *p;
    CGT_CUDA(cudaMallocManaged((void **)&p, n * sizeof *p, cudaMemAttachGlobal));
    memset(p, 0, n * sizeof *p);
    return p;
}

Test(cg_launch_gpu, dynamic_shared_memory_above_48k_and_too_much)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    uint32_t *out, bytes;
    void *args[] = {&bytes, &out};
    cgt_require_sm90();
    out = zeroed(1);
    bytes = (uint32_t)cgt_device_props()->sharedMemPerBlockOptin - 1024u; /* room for static smem */
    c.grid.x = 4;
    c.block.x = 256;
    c.dynamic_smem = bytes;
    CGT_OK(cg_launch(&c, cgt_k_big_smem(), args));
    CGT_SYNC();
    cr_expect_eq(*out, 4u, "%u bytes of dynamic shared memory: %u (want 4 blocks, 0 mismatches)", bytes, *out - 4u);
    c.dynamic_smem = cgt_device_props()->sharedMemPerBlockOptin + 1;
    cr_expect_eq(cg_launch(&c, cgt_k_big_smem(), args), CG_ERROR_SHARED_MEMORY, "%s", cg_last_error_detail());
    CGT_CUDA(cudaFree(out));
}

Test(cg_launch_gpu, cluster_of_16_gets_the_nonportable_opt_in)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    uint32_t *out, clusters = 0;
    void *args[] = {&out};
    cgt_require_sm90();
    out = zeroed(64);
    c.grid.x = 64;
    c.block.x = 128;
    c.cluster.x = 16;
    CGT_OK(cg_max_active_clusters(&c, cgt_k_cluster_size(), &clusters));
    cr_expect_gt(clusters, 0u);
    CGT_OK(cg_launch(&c, cgt_k_cluster_size(), args));
    CGT_SYNC();
    for (int b = 0; b < 64; b++)
        cr_expect_eq(out[b], 16u, "block %d saw a cluster of %u", b, out[b]);
    CGT_CUDA(cudaFree(out));
}

/* The largest cluster with the most shared memory per block may or may not
 * fit a GPC; the occupancy helper and cg_launch must agree either way. */
Test(cg_launch_gpu, unschedulable_cluster_agrees_with_occupancy)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    uint32_t *out, clusters = 99, bytes = 0;
    void *args[] = {&bytes, &out};
    cg_status_t occ, st;
    /* The subject is the host-side agreement of the occupancy query and
     * cg_launch; racecheck has nothing to judge in k_big_smem but tracks every
     * byte of its shared memory in 16 blocks of 1024 threads (timed out at
     * 60 s in the first sanitizer run). */
    cgt_skip_under_sanitizer("racecheck", "only probes the launch API; shadowing 16 x 1024 threads of "
                                          "large shared memory does not finish in the time limit");
    cgt_require_sm90();
    out = zeroed(32);
    /* Under CGT_QUICK (sanitizers) 64 KB: racecheck tracks every shared byte. */
    bytes = cgt_quick() ? 64u * 1024u : (uint32_t)cgt_device_props()->sharedMemPerBlockOptin - 1024u;
    c.grid.x = 16;
    c.block.x = 1024;
    c.cluster.x = 16;
    c.dynamic_smem = bytes;
    occ = cg_max_active_clusters(&c, cgt_k_big_smem(), &clusters);
    st = cg_launch(&c, cgt_k_big_smem(), args);
    if (clusters == 0) {
        cr_expect_eq(occ, CG_ERROR_CLUSTER_UNSCHEDULABLE);
        cr_expect_eq(st, CG_ERROR_CLUSTER_UNSCHEDULABLE, "%s", cg_last_error_detail());
    } else {
        cr_expect_eq(occ, CG_SUCCESS);
        cr_expect_eq(st, CG_SUCCESS, "%s", cg_last_error_detail());
    }
    CGT_SYNC();
    CGT_CUDA(cudaFree(out));
}

Test(cg_launch_gpu, cooperative_at_and_above_coresidency)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    uint32_t max = 0, *out;
    void *args[1];
    cgt_require_sm90();
    CGT_OK(cg_max_cooperative_blocks(cgt_k_coop(), 256, 0, &max));
    cr_assert_gt(max, 0u);
    out = zeroed(max + 1);
    args[0] = &out;
    c.grid.x = max + 1;
    c.block.x = 256;
    c.cooperative = 1;
    cr_expect_eq(cg_launch(&c, cgt_k_coop(), args), CG_ERROR_COOPERATIVE_TOO_LARGE, "%s", cg_last_error_detail());
    {
        char num[32];
        snprintf(num, sizeof num, "%u", max);
        cr_expect(strstr(cg_last_error_detail(), num) != NULL, "detail lacks the limit %s: %s", num,
                  cg_last_error_detail());
    }
    c.grid.x = max;
    CGT_OK(cg_launch(&c, cgt_k_coop(), args));
    CGT_SYNC();
    for (uint32_t b = 0; b < max; b++)
        cr_expect_eq(out[b], 1u, "block %u did not pass the grid sync", b);
    cr_expect_eq(out[max], 0u);
    CGT_CUDA(cudaFree(out));
}

Test(cg_launch_gpu, kernel_thread_limit_and_non_kernel)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    uint32_t *out = NULL;
    void *args[] = {&out};
    cgt_skip_under_sanitizer("memcheck", "makes failing API calls on purpose: cudaFuncGetAttributes on a "
                                         "pointer that is not a kernel (invalid resource handle)");
    cgt_require_sm90();
    c.grid.x = 1;
    c.block.x = 128;
    cr_expect_eq(cg_launch(&c, cgt_k_bounded64(), args), CG_ERROR_BLOCK_SIZE, "%s", cg_last_error_detail());
    c.block.x = 64;
    CGT_OK(cg_launch(&c, cgt_k_bounded64(), args));
    CGT_SYNC();
    cr_expect_eq(cg_launch(&c, (const void *)&not_a_kernel, args), CG_ERROR_KERNEL_IMAGE, "%s",
                 cg_last_error_detail());
}

Test(cg_launch_gpu, trapping_kernel_is_kernel_failed)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    cgt_skip_under_sanitizer("any", "traps on purpose (memcheck reports the trap and the failed "
                                    "synchronize as errors)");
    cgt_require_sm90();
    c.grid.x = 1;
    c.block.x = 32;
    CGT_OK(cg_launch(&c, cgt_k_trap(), NULL));
    cr_expect_eq(cg_stream_synchronize(0), CG_ERROR_KERNEL_FAILED);
    cr_expect(strlen(cg_last_error_detail()) > 0);
}

/* args == NULL for a kernel that takes parameters: refused before the launch
 * (issue 15); a kernel without parameters may pass NULL. */
Test(cg_launch_gpu, null_args_for_a_kernel_with_parameters)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    cgt_require_sm90();
    c.grid.x = 1;
    c.block.x = 32;
    cr_expect_eq(cg_launch(&c, cgt_k_bounded64(), NULL), CG_ERROR_INVALID_ARGUMENT, "%s", cg_last_error_detail());
    cr_expect(strstr(cg_last_error_detail(), "args is NULL but the kernel takes parameters") != NULL, "detail: %s",
              cg_last_error_detail());
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "nothing left pending");
}

/* cg_device_barrier_init_host with a host pointer: its own message, no CUDA
 * error left pending for the caller's next call (issue 15). */
Test(cg_launch_gpu, device_barrier_init_host_rejects_a_host_pointer)
{
    cgt_require_sm90();
    static cg_device_barrier_t on_the_host;
    cr_expect_eq(cg_device_barrier_init_host(&on_the_host, 4), CG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(cg_last_error_detail(), "not memory the device can reach") != NULL, "detail: %s",
              cg_last_error_detail());
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "nothing left pending");
    cg_device_barrier_t *d = NULL;
    CGT_CUDA(cudaMalloc((void **)&d, sizeof *d));
    CGT_OK(cg_device_barrier_init_host(d, 4));
    cr_expect_str_eq(cg_last_error_detail(), "");
    cg_device_barrier_t back;
    CGT_CUDA(cudaMemcpy(&back, d, sizeof back, cudaMemcpyDeviceToHost));
    cr_expect_eq(back._state, CG_DBAR_INIT_STATE_(4));
    CGT_CUDA(cudaFree(d));
}

/* ---- the launch handle (issue 34.6) ---------------------------------------- */

/* Checks one launch of k_coop_pass: every block's word from its neighbour's
 * input and this launch's salt. Poisons out for the next launch. */
static void expect_pass(const uint32_t *in, uint32_t *out, uint32_t blocks, uint32_t salt, const char *what, int i)
{
    uint32_t bad = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t want = in[(b + 1) % blocks] ^ salt;
        bad += out[b] != want;
        if (out[b] != want && bad <= 4)
            cr_expect_eq(out[b], want, "%s, launch %d: block %u got 0x%08x, want 0x%08x", what, i, b, out[b], want);
    }
    cr_expect_eq(bad, 0u, "%s, launch %d: %u of %u blocks wrong", what, i, bad, blocks);
    memset(out, 0xa5, blocks * sizeof *out);
}

/* A handle prepared once launches a cooperative grid-sync kernel many times,
 * at full co-residency, each launch with fresh arguments (read at launch), a
 * copy of the handle as well as the original; and the one-line cooperative
 * launch runs the same kernel. Every block of every launch checked. */
Test(cg_launch_gpu, prepared_handle_launches_many_times)
{
    cgt_require_sm90();
    uint32_t max = 0;
    CGT_OK(cg_max_cooperative_blocks(cgt_k_coop_pass(), 128, 0, &max));
    cr_assert_gt(max, 1u);
    uint32_t *in = zeroed(max), *partial = zeroed(max), *out = zeroed(max);
    uint64_t seed = cgt_seed();
    for (uint32_t b = 0; b < max; b++)
        in[b] = (uint32_t)cgt_rand(&seed);
    memset(out, 0xa5, max * sizeof *out);
    uint32_t salt = 0;
    void *args[4] = {&in, &partial, &out, &salt};
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    c.grid.x = max;
    c.block.x = 128;
    c.cooperative = 1;
    cg_launch_handle_t h;
    CGT_OK(cg_launch_prepare(&h, &c, cgt_k_coop_pass()));
    cg_launch_handle_t copy = h;
    for (int i = 0; i < 40; i++) {
        salt = (uint32_t)cgt_rand(&seed);
        CGT_OK(cg_launch_prepared(i & 1 ? &copy : &h, args));
        CGT_SYNC();
        expect_pass(in, out, max, salt, i & 1 ? "copied handle" : "handle", i);
    }
    salt = 0x1234567u;
    CGT_OK(cg_launch_cooperative(cgt_k_coop_pass(), c.grid, c.block, args, 0, 0));
    CGT_SYNC();
    expect_pass(in, out, max, salt, "cg_launch_cooperative", 0);
    /* One block more than co-resident: the one-line form refuses it, and so
     * does prepare (the handle stays unprepared). */
    c.grid.x = max + 1;
    cr_expect_eq(cg_launch_cooperative(cgt_k_coop_pass(), c.grid, c.block, args, 0, 0),
                 CG_ERROR_COOPERATIVE_TOO_LARGE, "%s", cg_last_error_detail());
    cr_expect_eq(cg_launch_prepare(&h, &c, cgt_k_coop_pass()), CG_ERROR_COOPERATIVE_TOO_LARGE);
    cr_expect_eq(cg_launch_prepared(&h, args), CG_ERROR_LAUNCH_HANDLE_INVALID);
    /* NULL args for a kernel with parameters: refused per launch. */
    cr_expect_eq(cg_launch_prepared(&copy, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "an error was left pending");
    CGT_CUDA(cudaFree(in));
    CGT_CUDA(cudaFree(partial));
    CGT_CUDA(cudaFree(out));
}

/* A handle with a cluster shape of 16 (the opt-in done once, at prepare). */
Test(cg_launch_gpu, prepared_handle_with_a_cluster_of_16)
{
    cgt_require_sm90();
    uint32_t *out = zeroed(64);
    void *args[1] = {&out};
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    c.grid.x = 32;
    c.block.x = 64;
    c.cluster.x = 16;
    cg_launch_handle_t h;
    cg_status_t st = cg_launch_prepare(&h, &c, cgt_k_cluster_size());
    if (st == CG_ERROR_CLUSTER_UNSCHEDULABLE)
        cr_skip_test("no cluster of 16 fits here: %s", cg_last_error_detail());
    CGT_OK(st);
    for (int i = 0; i < 3; i++) {
        memset(out, 0, 64 * sizeof *out);
        CGT_OK(cg_launch_prepared(&h, args));
        CGT_SYNC();
        for (uint32_t b = 0; b < 32; b++)
            cr_expect_eq(out[b], 16u, "launch %d, block %u saw a cluster of %u", i, b, out[b]);
    }
    CGT_CUDA(cudaFree(out));
}

/* A handle used on another device than its own is refused (needs two). */
Test(cg_launch_gpu, prepared_handle_on_another_device_is_refused)
{
    cgt_require_sm90();
    int n = 0;
    CGT_CUDA(cudaGetDeviceCount(&n));
    if (n < 2)
        cr_skip_test("one device: the other-device check needs two");
    uint32_t *out = zeroed(64);
    void *args[1] = {&out};
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    c.grid.x = 1;
    c.block.x = 64;
    cg_launch_handle_t h;
    CGT_CUDA(cudaSetDevice(0));
    CGT_OK(cg_launch_prepare(&h, &c, cgt_k_bounded64()));
    CGT_CUDA(cudaSetDevice(1));
    cr_expect_eq(cg_launch_prepared(&h, args), CG_ERROR_LAUNCH_HANDLE_DEVICE, "%s", cg_last_error_detail());
    CGT_CUDA(cudaSetDevice(0));
    CGT_OK(cg_launch_prepared(&h, args));
    CGT_SYNC();
    CGT_CUDA(cudaFree(out));
}
