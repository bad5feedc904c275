/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/examples/python/python_examples_test.c — the Python examples (examples/python):
 *   - both scripts are valid Python (python3 -m py_compile), everywhere;
 *   - the PyTorch extension builds with torch.utils.cpp_extension.load
 *     (run.py --build-only) where torch is installed, and runs and matches
 *     torch's results where an sm_90 GPU is present too; without torch the
 *     case skips and says so. (The CuPy example's kernel is compiled through
 *     NVRTC as CuPy compiles it by tests/build/nvrtc, which needs no CuPy.)
 * cgc's headers reach the scripts as CGC_INCLUDE, a directory whose cgc/ is
 * a link to the runfiles root (as an install's include/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(python_examples, .timeout = 900);

/* A directory holding cgc/ -> the runfiles root (cgc's root). */
static const char *include_dir(void)
{
    static char dir[1100];
    char root[1024], link[1200];
    cr_assert(getcwd(root, sizeof root) != NULL);
    snprintf(dir, sizeof dir, "%s/cgc_python_include_%d", cgt_tmpdir(), (int)getpid());
    snprintf(link, sizeof link, "%s/cgc", dir);
    mkdir(dir, 0755);
    unlink(link);
    cr_assert_eq(symlink(root, link), 0, "cannot link %s to %s", link, root);
    return dir;
}

Test(python_examples, the_scripts_are_valid_python)
{
    static char log[8192];
    if (cgt_run("python3 --version 2>&1", log, sizeof log) != 0)
        cr_skip_test("no python3 on this machine");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "python3 -c \"import ast, sys; [ast.parse(open(p).read(), p) for p in sys.argv[1:]]\" "
             "examples/python/cupy_tile_stats.py examples/python/torch_ext/run.py 2>&1");
    int rc = cgt_run(cmd, log, sizeof log);
    cr_expect_eq(rc, 0, "a Python example does not parse:\n%s", log);
}

Test(python_examples, the_torch_extension_builds_and_matches_torch)
{
    static char log[1 << 16];
    if (cgt_run("python3 -c 'import torch.utils.cpp_extension' 2>&1", log, sizeof log) != 0)
        cr_skip_test("torch is not installed (python3 -c 'import torch.utils.cpp_extension' failed): the PyTorch "
                     "extension example is not built here; tests/build/nvrtc compiles the CuPy example's kernel");
    char cmd[4096];
    const int run = cgt_have_sm90();
    snprintf(cmd, sizeof cmd,
             "CGC_INCLUDE='%s' TORCH_EXTENSIONS_DIR='%s/torch_ext_%d' timeout 800 python3 "
             "examples/python/torch_ext/run.py %s 2>&1",
             include_dir(), cgt_tmpdir(), (int)getpid(), run ? "" : "--build-only");
    int rc = cgt_run(cmd, log, sizeof log);
    cr_expect_eq(rc, 0, "run.py %s failed:\n%s", run ? "" : "--build-only", log);
    cr_expect(strstr(log, "built cgc_torch") != NULL, "the extension did not build:\n%s", log);
    if (run)
        cr_expect(strstr(log, "verified against torch") != NULL, "the results were not verified:\n%s", log);
    else
        cr_log_info("built; no sm_90 GPU here, so the extension did not run");
}
