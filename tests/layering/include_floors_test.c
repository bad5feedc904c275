/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/layering/include_floors_test.c — the library's floors (docs/ARCHITECTURE.md):
 *
 *   1 base/      2 barrier/ cluster/      3 dsmem/ async/      4 cg/
 *
 * A library file includes only files of its own folder or of a lower floor;
 * folders on the same floor do not include each other. Internal includes are
 * relative to the including file, #include "../folder/file.h" (and "file.h"
 * within a folder), so they resolve wherever the headers sit (the repository,
 * <prefix>/include/cgc/, Bazel's virtual include dir, NVRTC);
 * tools/relative_includes.sh writes that form.
 * This test reads every header and source of those folders (no GPU needed)
 * and fails on an include that points up or sideways, and on an internal
 * include in another form ("folder/file.h", <folder/file.h>, "../own/file.h",
 * a bare name its folder lacks), naming the file, the line and the include.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

typedef struct floor_entry {
    const char *folder;
    int floor;
} floor_entry_t;

static const floor_entry_t floors[] = {
    {"base", 1}, {"barrier", 2}, {"cluster", 2}, {"dsmem", 3}, {"async", 3}, {"cg", 4},
};
#define NFLOORS (sizeof floors / sizeof floors[0])

static int floor_of(const char *folder)
{
    for (size_t i = 0; i < NFLOORS; ++i)
        if (strcmp(floors[i].folder, folder) == 0)
            return floors[i].floor;
    return 0; /* not a library folder (system or toolkit header) */
}

/* Checks one file; returns the number of bad includes (each reported). */
static int check_file(const char *folder, const char *path, int report)
{
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    char line[512];
    int lineno = 0, bad = 0;
    const int own = floor_of(folder);
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        char target[256];
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p++ != '#')
            continue;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (strncmp(p, "include", 7) != 0)
            continue;
        p += 7;
        while (*p == ' ' || *p == '\t')
            ++p;
        const int quoted = *p == '"';
        if (sscanf(p, "\"%255[^\"]\"", target) != 1 && sscanf(p, "<%255[^>]>", target) != 1)
            continue;
        /* The library's forms: "file.h" for its own folder (the file must be
         * there: anything else would come from the include path) and
         * "../folder/file.h" for another; "folder/file.h" or <folder/file.h>
         * naming a library folder is neither. */
        if (quoted && strchr(target, '/') == NULL) {
            char own_file[600];
            snprintf(own_file, sizeof own_file, "%s/%s", folder, target);
            FILE *g = fopen(own_file, "r");
            if (g) {
                fclose(g);
            } else {
                if (report)
                    cr_log_error("%s:%d includes \"%s\", which is not in %s/: a library file includes its own "
                                 "folder's files by name and others as \"../folder/file.h\"",
                                 path, lineno, target, folder);
                ++bad;
            }
            continue;
        }
        const int relative = quoted && strncmp(target, "../", 3) == 0;
        char *name = relative ? target + 3 : target;
        char *slash = strchr(name, '/');
        if (!slash)
            continue;
        *slash = '\0';
        const int to = floor_of(name);
        if (to == 0)
            continue;
        if (!relative) {
            if (report)
                cr_log_error("%s:%d includes %s/%s by its repository path: library files include each other "
                             "relative to themselves (\"../%s/%s\", or \"%s\" within %s/; "
                             "tools/relative_includes.sh rewrites it), so the include resolves under "
                             "<prefix>/include/cgc/ too",
                             path, lineno, name, slash + 1, name, slash + 1, slash + 1, name);
            ++bad;
            continue;
        }
        if (strcmp(name, folder) == 0 && strchr(slash + 1, '/') == NULL) {
            if (report)
                cr_log_error("%s:%d includes \"../%s/%s\": within %s/ write \"%s\" (tools/relative_includes.sh)",
                             path, lineno, name, slash + 1, folder, slash + 1);
            ++bad;
            continue;
        }
        if (strcmp(name, folder) == 0)
            continue;
        if (to >= own) {
            if (report)
                cr_log_error("%s:%d includes %s/%s: floor %d (%s/) may include only its own folder and floors below "
                         "it; %s/ is floor %d",
                         path, lineno, name, slash + 1, own, folder, name, to);
            ++bad;
        }
    }
    fclose(f);
    return bad;
}

static int check_all(int *files)
{
    int bad = 0;
    *files = 0;
    for (size_t i = 0; i < NFLOORS; ++i) {
        DIR *d = opendir(floors[i].folder);
        cr_assert(d != NULL, "no folder %s/ in the test's runfiles", floors[i].folder);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n < 3 || !(strcmp(e->d_name + n - 2, ".h") == 0 || strcmp(e->d_name + n - 2, ".c") == 0))
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", floors[i].folder, e->d_name);
            bad += check_file(floors[i].folder, path, 1);
            ++*files;
        }
        closedir(d);
    }
    return bad;
}

Test(include_floors, every_library_include_points_down)
{
    int files = 0;
    int bad = check_all(&files);
    cr_log_info("%d library files checked", files);
    cr_expect_gt(files, 30, "only %d library files found: is the data list of this test complete?", files);
    cr_expect_eq(bad, 0, "%d include(s) point up or sideways (listed above)", bad);
}

/* The checker itself: an include from the ground floor up is caught. */
Test(include_floors, the_check_catches_an_upward_include)
{
    const char *path = "upward_probe.h";
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL);
    fputs("#include \"../base/config.h\"\n#include \"../cg/cg.h\"\n#include \"cg.h\"\n", f);
    fclose(f);
    int n = check_file("base", path, 0);
    cr_expect_eq(n, 3, "base/: ../base/config.h (own folder by name), ../cg/cg.h (up) and cg.h (not in base/) "
                       "must be reported: %d were", n);
    cr_expect_eq(check_file("cg", path, 0), 1, "cg/ may include base/ and cg.h, by name (not as ../cg/cg.h)");
    cr_expect_eq(check_file("dsmem", path, 0), 2, "dsmem/ may not include cg/, and has no cg.h of its own");
    remove(path);
}

/* The checker itself: an internal include by repository path is caught in
 * either spelling, even where its floor would be allowed. */
Test(include_floors, the_check_catches_a_repository_path_include)
{
    const char *path = "repo_path_probe.h";
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL);
    fputs("#include \"base/config.h\"\n#include <cg/tile.h>\n  #  include \"tile.h\"\n#include <stdint.h>\n"
          "#include <cuda/ptx>\n#include \"../base/config.h\"\n",
          f);
    fclose(f);
    cr_expect_eq(check_file("cg", path, 0), 2, "\"base/config.h\" and <cg/tile.h> in cg/ must both be reported");
    remove(path);
}
