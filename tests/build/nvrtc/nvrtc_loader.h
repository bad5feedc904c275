/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/nvrtc/nvrtc_loader.h — libnvrtc loaded at run time (dlopen) and one
 * call that compiles a source with cgc's root (the runfiles directory) as the
 * only include path. Included by one test file each (static functions).
 */
#ifndef CGT_NVRTC_LOADER_H
#define CGT_NVRTC_LOADER_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

/* The few NVRTC entry points used, by their C signatures (nvrtc.h). */
typedef int (*create_fn)(void **prog, const char *src, const char *name, int n, const char *const *h,
                         const char *const *names);
typedef int (*compile_fn)(void *prog, int n, const char *const *opts);
typedef int (*size_fn)(void *prog, size_t *n);
typedef int (*get_fn)(void *prog, char *out);
typedef int (*destroy_fn)(void **prog);
typedef int (*add_name_fn)(void *prog, const char *name_expression);
typedef int (*lowered_fn)(void *prog, const char *name_expression, const char **lowered);

static struct {
    void *lib;
    create_fn create;
    compile_fn compile;
    size_fn log_size, ptx_size;
    get_fn log, ptx;
    destroy_fn destroy;
    add_name_fn add_name;
    lowered_fn lowered;
} rtc;

static void load_nvrtc(void)
{
    if (rtc.lib)
        return;
    char path[512];
    const char *cuda = getenv("CUDA_PATH");
    const char *tries[4] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", NULL};
    for (int i = 0; i < 3 && !rtc.lib; ++i)
        rtc.lib = dlopen(tries[i], RTLD_NOW);
    for (int i = 0; i < 2 && !rtc.lib; ++i) {
        snprintf(path, sizeof path, "%s/lib64/libnvrtc.so", i == 0 && cuda ? cuda : "/usr/local/cuda");
        rtc.lib = dlopen(path, RTLD_NOW);
    }
    if (!rtc.lib)
        cr_skip_test("no libnvrtc.so (not on the loader path, in $CUDA_PATH/lib64 or /usr/local/cuda/lib64)");
    rtc.create = (create_fn)dlsym(rtc.lib, "nvrtcCreateProgram");
    rtc.compile = (compile_fn)dlsym(rtc.lib, "nvrtcCompileProgram");
    rtc.log_size = (size_fn)dlsym(rtc.lib, "nvrtcGetProgramLogSize");
    rtc.log = (get_fn)dlsym(rtc.lib, "nvrtcGetProgramLog");
    rtc.ptx_size = (size_fn)dlsym(rtc.lib, "nvrtcGetPTXSize");
    rtc.ptx = (get_fn)dlsym(rtc.lib, "nvrtcGetPTX");
    rtc.destroy = (destroy_fn)dlsym(rtc.lib, "nvrtcDestroyProgram");
    rtc.add_name = (add_name_fn)dlsym(rtc.lib, "nvrtcAddNameExpression");
    rtc.lowered = (lowered_fn)dlsym(rtc.lib, "nvrtcGetLoweredName");
    cr_assert(rtc.create && rtc.compile && rtc.log_size && rtc.log && rtc.ptx_size && rtc.ptx && rtc.destroy &&
                  rtc.add_name && rtc.lowered,
              "libnvrtc lacks an entry point");
}

/* The include directory a user of an install passes: one that holds cgc/
 * (here a link named cgc to the runfiles root, cgc's root), so sources write
 * #include <cgc/cg/cg.h> and the library's relative includes resolve below it. */
static const char *prefix_dir(void)
{
    static char dir[1100];
    if (dir[0])
        return dir;
    char root[1024], link[1200];
    cr_assert(getcwd(root, sizeof root) != NULL);
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(dir, sizeof dir, "%s/cgc_include_%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    snprintf(link, sizeof link, "%s/cgc", dir);
    mkdir(dir, 0755);
    unlink(link);
    cr_assert_eq(symlink(root, link), 0, "cannot link %s to %s", link, root);
    return dir;
}

/* Compiles `src` (named `file` in diagnostics) for `arch` with one include
 * path, the directory holding cgc/ (prefix_dir), and `extra` (one option, or
 * NULL). Returns NVRTC's result; the
 * log and, on success, the PTX come back in *log and *ptx (caller frees). */
static int try_compile(const char *what, const char *file, const char *src, const char *arch, const char *extra,
                       char **log, char **ptx)
{
    load_nvrtc();
    char inc[1200];
    snprintf(inc, sizeof inc, "-I%s", prefix_dir());
    const char *opts[] = {inc, arch, "-std=c++17", extra};
    void *prog = NULL;
    cr_assert_eq(rtc.create(&prog, src, file, 0, NULL, NULL), 0, "%s: nvrtcCreateProgram failed", what);
    const int rc = rtc.compile(prog, extra ? 4 : 3, opts);
    size_t n = 0;
    rtc.log_size(prog, &n);
    *log = calloc(n + 1, 1);
    rtc.log(prog, *log);
    *ptx = NULL;
    if (rc == 0) {
        rtc.ptx_size(prog, &n);
        *ptx = calloc(n + 1, 1);
        rtc.ptx(prog, *ptx);
    }
    rtc.destroy(&prog);
    return rc;
}

/* Compiles `src` (named `file`) with the `nopts` options `opts` exactly as
 * given (a JIT user's own list), after naming the `nnames` name expressions
 * `names` (CuPy's name_expressions: template instantiations to emit); each
 * one's lowered (mangled) name comes back in lowered[i] (256 bytes each;
 * empty when the compile failed). Returns NVRTC's result; log and, on
 * success, PTX as try_compile. */
static __attribute__((unused)) int try_compile_opts(const char *what, const char *file, const char *src,
                                                    const char *const *opts, int nopts, const char *const *names,
                                                    int nnames, char (*lowered)[256], char **log, char **ptx)
{
    load_nvrtc();
    void *prog = NULL;
    cr_assert_eq(rtc.create(&prog, src, file, 0, NULL, NULL), 0, "%s: nvrtcCreateProgram failed", what);
    for (int i = 0; i < nnames; ++i)
        cr_assert_eq(rtc.add_name(prog, names[i]), 0, "%s: nvrtcAddNameExpression(%s) failed", what, names[i]);
    const int rc = rtc.compile(prog, nopts, opts);
    size_t n = 0;
    rtc.log_size(prog, &n);
    *log = calloc(n + 1, 1);
    rtc.log(prog, *log);
    *ptx = NULL;
    for (int i = 0; i < nnames; ++i)
        lowered[i][0] = '\0';
    if (rc == 0) {
        rtc.ptx_size(prog, &n);
        *ptx = calloc(n + 1, 1);
        rtc.ptx(prog, *ptx);
        for (int i = 0; i < nnames; ++i) {
            const char *l = NULL;
            if (rtc.lowered(prog, names[i], &l) == 0 && l != NULL)
                snprintf(lowered[i], 256, "%s", l);
        }
    }
    rtc.destroy(&prog);
    return rc;
}

/* The toolkit's root ($CUDA_PATH, else /usr/local/cuda), for tests that put
 * its CCCL and cooperative_groups headers beside cgc's. */
static __attribute__((unused)) const char *cuda_root(void)
{
    const char *cuda = getenv("CUDA_PATH");
    return cuda && *cuda ? cuda : "/usr/local/cuda";
}

/* As try_compile; returns the PTX (caller frees) or fails with the log. */
static char *compile_for(const char *what, const char *src, const char *arch)
{
    char *log = NULL, *ptx = NULL;
    const int rc = try_compile(what, "cgc_nvrtc.cu", src, arch, NULL, &log, &ptx);
    cr_assert_eq(rc, 0, "%s: NVRTC could not compile it (result %d):\n%s", what, rc, log);
    free(log);
    return ptx;
}

static __attribute__((unused)) char *compile(const char *what, const char *src)
{
    return compile_for(what, src, "-arch=sm_90a");
}

#endif /* CGT_NVRTC_LOADER_H */
