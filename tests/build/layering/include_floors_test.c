/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/layering/include_floors_test.c — the library's floors (docs/ARCHITECTURE.md):
 *
 *   1 base/      2 barrier/ cluster/      3 dsmem/ async/      4 cg/ (on five sub-floors: cg_floors)
 *
 * A library file includes only files of its own folder or of a lower floor;
 * folders on the same floor do not include each other. Internal includes are
 * relative to the including file, #include "../folder/file.h" (and "file.h"
 * within a folder), so they resolve wherever the headers sit (the repository,
 * <prefix>/include/cgc/, Bazel's virtual include dir, NVRTC);
 * tools/ci/relative_includes.sh writes that form.
 * This test reads every header and source of those folders (no GPU needed)
 * and fails on an include that points up or sideways, and on an internal
 * include in another form ("folder/file.h", <folder/file.h>, "../own/file.h",
 * a bare name its folder lacks), naming the file, the line and the include.
 * Inside a folder the includes must not loop either (a.h includes b.h, which
 * includes a.h, directly or through others): a loop makes what a header
 * declares depend on which file of the loop a user included first. The test
 * names the files of each loop in order.
 * Inside cg/ (floor 4) the files stand on sub-floors of their own (the table
 * cg_floors below): a file of cg/ includes files of cg/ on its own or a
 * lower sub-floor only, and every file of cg/ is in the table, so a new one
 * fails the test until it is given a sub-floor.
 * And raw PTX lives only in the wrapper files listed below (asm_files): an
 * asm statement anywhere else in the library fails the test, naming the
 * file and the line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The target of an #include line ("x" or <x>) into target[256]; returns 1
 * for a quoted include, 2 for an angle-bracket one, 0 when the line is not
 * an include. */
static int include_target(const char *line, char *target)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (*p++ != '#')
        return 0;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (strncmp(p, "include", 7) != 0)
        return 0;
    p += 7;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (sscanf(p, "\"%255[^\"]\"", target) == 1)
        return 1;
    if (sscanf(p, "<%255[^>]>", target) == 1)
        return 2;
    return 0;
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
        const int form = include_target(line, target);
        if (form == 0)
            continue;
        const int quoted = form == 1;
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
                             "tools/ci/relative_includes.sh rewrites it), so the include resolves under "
                             "<prefix>/include/cgc/ too",
                             path, lineno, name, slash + 1, name, slash + 1, slash + 1, name);
            ++bad;
            continue;
        }
        if (strcmp(name, folder) == 0 && strchr(slash + 1, '/') == NULL) {
            if (report)
                cr_log_error("%s:%d includes \"../%s/%s\": within %s/ write \"%s\" (tools/ci/relative_includes.sh)",
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

/* ------------------------------------------------------------------------- */
/* Include loops inside one folder                                           */
/* ------------------------------------------------------------------------- */

#define MAX_FOLDER_FILES 64

/* The includes between the files of one folder: edge[a][b] = the line of a
 * that includes b by name (0: none). */
typedef struct folder_graph {
    int n;
    char name[MAX_FOLDER_FILES][128];
    int edge[MAX_FOLDER_FILES][MAX_FOLDER_FILES];
} folder_graph_t;

static int graph_index(const folder_graph_t *g, const char *name)
{
    for (int i = 0; i < g->n; ++i)
        if (strcmp(g->name[i], name) == 0)
            return i;
    return -1;
}

/* Reads every .h and .c file of `dir` and the includes among them ("file.h"
 * naming a file of the same folder). */
static void read_folder_graph(const char *dir, folder_graph_t *g)
{
    memset(g, 0, sizeof *g);
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "no folder %s/", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 3 || n >= sizeof g->name[0] ||
            !(strcmp(e->d_name + n - 2, ".h") == 0 || strcmp(e->d_name + n - 2, ".c") == 0))
            continue;
        cr_assert(g->n < MAX_FOLDER_FILES, "%s/ has more than %d files: raise MAX_FOLDER_FILES", dir,
                  MAX_FOLDER_FILES);
        memcpy(g->name[g->n++], e->d_name, n + 1); /* n < sizeof name, checked above */
    }
    closedir(d);
    for (int a = 0; a < g->n; ++a) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, g->name[a]);
        FILE *f = fopen(path, "r");
        cr_assert(f != NULL, "cannot read %s", path);
        char line[512], target[256];
        int lineno = 0;
        while (fgets(line, sizeof line, f)) {
            ++lineno;
            if (include_target(line, target) != 1 || strchr(target, '/') != NULL)
                continue;
            const int b = graph_index(g, target);
            if (b >= 0 && g->edge[a][b] == 0)
                g->edge[a][b] = lineno;
        }
        fclose(f);
    }
}

/* Depth-first search from `a`; state: 0 unseen, 1 on the current path, 2
 * done. An include of a file on the current path closes a loop: report the
 * path from that file back to it. Returns the loops found. */
static int find_loops_from(const folder_graph_t *g, const char *dir, int a, int *state, int *path, int depth,
                           int report)
{
    int loops = 0;
    state[a] = 1;
    path[depth] = a;
    for (int b = 0; b < g->n; ++b) {
        if (g->edge[a][b] == 0)
            continue;
        if (state[b] == 1) {
            ++loops;
            if (report) {
                char msg[2048];
                int k = depth;
                while (path[k] != b)
                    --k;
                size_t used = 0;
                for (int i = k; i <= depth && used < sizeof msg; ++i)
                    used += (size_t)snprintf(msg + used, sizeof msg - used, "%s/%s:%d -> ", dir, g->name[path[i]],
                                             g->edge[path[i]][i < depth ? path[i + 1] : b]);
                if (used < sizeof msg)
                    snprintf(msg + used, sizeof msg - used, "%s/%s", dir, g->name[b]);
                cr_log_error("include loop inside %s/: %s (file:line of each include). Split the part both "
                             "files need into a file of its own that includes neither",
                             dir, msg);
            }
        } else if (state[b] == 0) {
            loops += find_loops_from(g, dir, b, state, path, depth + 1, report);
        }
    }
    state[a] = 2;
    return loops;
}

/* The include loops inside the folder `dir`, each reported once (by the
 * include that closes it in a depth-first search from the files in name
 * order). */
static int check_folder_loops(const char *dir, int report)
{
    static folder_graph_t g;
    read_folder_graph(dir, &g);
    int state[MAX_FOLDER_FILES] = {0}, path[MAX_FOLDER_FILES];
    int loops = 0;
    for (int a = 0; a < g.n; ++a)
        if (state[a] == 0)
            loops += find_loops_from(&g, dir, a, state, path, 0, report);
    return loops;
}

/* ------------------------------------------------------------------------- */
/* The sub-floors of cg/                                                     */
/* ------------------------------------------------------------------------- */

/* Every file of cg/ and its sub-floor (docs/ARCHITECTURE.md, "Floors"):
 *   1 kinds       the table of group kinds and the header every group struct
 *                 starts with; the host launch helpers (they need no group)
 *   2 groups      the group objects with their typed calls and collectives
 *   3 generic     cg_thread_group_t and the calls on any group
 *   4 engines     the group forms of the copy and pipeline engines
 *   5 umbrella    the headers that include everything
 * A file includes files of cg/ on its own sub-floor or lower ones. */
static const char *const cg_floor_names[] = {"", "kinds", "groups", "generic", "engines", "umbrella"};
static const struct {
    const char *file;
    int floor;
} cg_floors[] = {
    {"group_kinds.h", 1},   {"group_header.h", 1}, {"launch.h", 1},        {"launch.c", 1},
    {"thread_block.h", 2},  {"tile.h", 2},         {"collectives.h", 2},   {"coalesced.h", 2},
    {"wide_tile.h", 2},     {"cluster_group.h", 2}, {"grid.h", 2},
    {"reduce_store.h", 2},  {"thread_group.h", 3}, {"generic.h", 3},       {"invoke.h", 3},
    {"group_copy.h", 4},    {"pipeline_group.h", 4}, {"groups.h", 5},      {"cg.h", 5},
};
#define NCG_FLOORS (sizeof cg_floors / sizeof cg_floors[0])

/* The sub-floor of cg/<file>, 0 when the table lacks it. */
static int cg_floor_of(const char *file)
{
    for (size_t i = 0; i < NCG_FLOORS; ++i)
        if (strcmp(cg_floors[i].file, file) == 0)
            return cg_floors[i].floor;
    return 0;
}

/* Checks the includes of cg/ files by name in `path`, a file on sub-floor
 * `own`; returns the number of bad ones (each reported when `report`). */
static int check_cg_subfloors(const char *path, int own, int report)
{
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    char line[512], target[256];
    int lineno = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        if (include_target(line, target) != 1 || strchr(target, '/') != NULL)
            continue; /* other folders: the floors above; system headers */
        const int to = cg_floor_of(target);
        if (to == 0) {
            if (report)
                cr_log_error("%s:%d includes \"%s\", which has no sub-floor of cg/ (cg_floors in "
                             "tests/build/layering/include_floors_test.c)",
                             path, lineno, target);
            ++bad;
        } else if (to > own) {
            if (report)
                cr_log_error("%s:%d includes %s: sub-floor %d (%s) of cg/ may include only its own sub-floor and "
                             "lower ones; %s is on %d (%s)",
                             path, lineno, target, own, cg_floor_names[own], target, to, cg_floor_names[to]);
            ++bad;
        }
    }
    fclose(f);
    return bad;
}

/* ------------------------------------------------------------------------- */
/* asm statements only in the wrapper files                                  */
/* ------------------------------------------------------------------------- */

/* The library files that may hold asm statements: the generated form files
 * of the PTX families (<family>_forms.h, one function per form, written by
 * tools/ptx/gen.py from <family>_forms.tbl) and the family headers that
 * write out by hand the forms a data row cannot say, with the PTX line
 * above them. Raw PTX anywhere else goes into one of these (a row of a
 * family's data file, or a new family listed here). */
static const struct {
    const char *path;
    const char *why;
} asm_files[] = {
    /* Generated (tools/ptx/gen.py). */
    {"base/sreg_forms.h", "special-register reads (mov d, %reg)"},
    {"base/smem_forms.h", "the opaque shared::cta address move"},
    {"base/fence_forms.h", "the fences: CTA acq_rel, proxy, shared-memory-restricted cluster fences"},
    {"base/gpu_scope_forms.h", "loads, stores, atomics and the fence at .gpu scope on global memory"},
    {"base/address_forms.h", "address conversions: mapa, getctarank"},
    {"barrier/block_sync_forms.h", "the non-aligned CTA barrier and the named barriers (barrier.sync)"},
    {"barrier/mbarrier_forms.h", "every mbarrier form, local and remote"},
    {"cluster/cluster_forms.h", "the barrier.cluster forms"},
    {"dsmem/dsmem_forms.h", "remote shared-memory accesses, st.async/red.async, bulk pushes"},
    {"async/bulk_forms.h", "bulk copies (cp.async.bulk), their commit group, per-thread cp.async"},
    {"async/tensor_forms.h", "tensor copies (cp.async.bulk.tensor), prefetches and tensor-map fences"},
    /* Written by hand: what a row cannot say. */
    {"base/sreg.h", "the grid workspace (two registers read together), %is_explicit_cluster (a predicate)"},
    {"base/smem.h", "the predicated pair of shared loads (two results)"},
    {"base/warp.h", "elect.sync, both forms"},
    {"barrier/mbarrier.h", "the warp-aggregated arrive (a predicate built in the asm)"},
    {"dsmem/dsmem.h", "the v4 remote load (four results)"},
    {"async/bulk.h", "the wait_group forms (an immediate operand: macros)"},
};
#define NASM_FILES (sizeof asm_files / sizeof asm_files[0])

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Counts the asm statements of `path` (asm or __asm__ as a word, followed by
 * "(", "volatile", "__volatile__" or a base/ptx_form.h qualifier macro;
 * comments and string literals do not count), reporting each when
 * `report`. */
static int count_asm(const char *path, int report)
{
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    char line[1024];
    int lineno = 0, found = 0, in_comment = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        /* Blank out comments and string literals, keeping the columns. */
        int in_string = 0;
        for (char *c = line; *c; ++c) {
            if (in_comment) {
                if (c[0] == '*' && c[1] == '/') {
                    in_comment = 0;
                    c[0] = c[1] = ' ';
                    ++c;
                } else {
                    *c = ' ';
                }
            } else if (in_string) {
                if (c[0] == '\\' && c[1]) {
                    c[0] = c[1] = ' ';
                    ++c;
                } else if (*c == '"') {
                    in_string = 0;
                } else {
                    *c = ' ';
                }
            } else if (c[0] == '/' && c[1] == '*') {
                in_comment = 1;
                c[0] = c[1] = ' ';
                ++c;
            } else if (c[0] == '/' && c[1] == '/') {
                *c = '\0';
                break;
            } else if (*c == '"') {
                in_string = 1;
            }
        }
        for (char *c = line; (c = strstr(c, "asm")) != NULL; c += 3) {
            const char *start = c;
            if (start >= line + 2 && start[-1] == '_' && start[-2] == '_')
                start -= 2; /* __asm__ */
            if (start > line && is_ident(start[-1]))
                continue;
            const char *after = c + 3;
            if (after[0] == '_' && after[1] == '_')
                after += 2;
            if (is_ident(*after))
                continue;
            while (*after == ' ' || *after == '\t')
                ++after;
            if (*after == '(' || strncmp(after, "volatile", 8) == 0 || strncmp(after, "__volatile__", 12) == 0 ||
                *after == '\n' || *after == '\0') {
                ++found;
                if (report)
                    cr_log_error("%s:%d: an asm statement outside the wrapper files: move the PTX form into the "
                                 "wrapper file of its family (tests/build/layering/include_floors_test.c, asm_files) "
                                 "and call the wrapper",
                                 path, lineno);
            }
        }
    }
    fclose(f);
    return found;
}

static int is_asm_file(const char *path)
{
    for (size_t i = 0; i < NASM_FILES; ++i)
        if (strcmp(asm_files[i].path, path) == 0)
            return 1;
    return 0;
}

/* Every .h and .c file of the library folders, as "folder/file". */
#define MAX_LIBRARY_FILES 256
typedef struct library_file {
    const char *folder;
    char path[192];
} library_file_t;

static int list_library_files(library_file_t *out)
{
    int n_files = 0;
    for (size_t i = 0; i < NFLOORS; ++i) {
        DIR *d = opendir(floors[i].folder);
        cr_assert(d != NULL, "no folder %s/ in the test's runfiles", floors[i].folder);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n < 3 || n > 160 ||
                !(strcmp(e->d_name + n - 2, ".h") == 0 || strcmp(e->d_name + n - 2, ".c") == 0))
                continue;
            cr_assert(n_files < MAX_LIBRARY_FILES, "more than %d library files: raise MAX_LIBRARY_FILES",
                      MAX_LIBRARY_FILES);
            out[n_files].folder = floors[i].folder;
            snprintf(out[n_files].path, sizeof out[n_files].path, "%s/%.160s", floors[i].folder, e->d_name);
            ++n_files;
        }
        closedir(d);
    }
    return n_files;
}

static library_file_t library_files[MAX_LIBRARY_FILES];

static int check_all(int *files)
{
    int bad = 0;
    *files = list_library_files(library_files);
    for (int i = 0; i < *files; ++i)
        bad += check_file(library_files[i].folder, library_files[i].path, 1);
    return bad;
}

Test(include_floors, no_include_loop_inside_a_folder)
{
    int loops = 0;
    for (size_t i = 0; i < NFLOORS; ++i)
        loops += check_folder_loops(floors[i].folder, 1);
    cr_expect_eq(loops, 0, "%d include loop(s) inside a folder (listed above)", loops);
}

Test(include_floors, asm_only_in_the_wrapper_files)
{
    int outside = 0, inside = 0;
    const int n_files = list_library_files(library_files);
    int unlisted = 0;
    for (int i = 0; i < n_files; ++i) {
        const char *p = library_files[i].path;
        const size_t n = strlen(p);
        if (is_asm_file(p)) {
            inside += count_asm(p, 0);
        } else {
            outside += count_asm(p, 1);
            if (n > 8 && strcmp(p + n - 8, "_forms.h") == 0) {
                cr_log_error("%s: a generated form file (tools/ptx/gen.py) that is not on the list of wrapper files "
                             "(asm_files in tests/build/layering/include_floors_test.c)",
                             p);
                ++unlisted;
            }
        }
    }
    cr_expect_eq(unlisted, 0, "%d generated form file(s) off the list (named above)", unlisted);
    for (size_t i = 0; i < NASM_FILES; ++i) {
        FILE *f = fopen(asm_files[i].path, "r");
        cr_expect(f != NULL, "%s is on the list of wrapper files but is not in the library", asm_files[i].path);
        if (f) {
            fclose(f);
            cr_expect_gt(count_asm(asm_files[i].path, 0), 0,
                         "%s is on the list of wrapper files (%s) but holds no asm: take it off the list",
                         asm_files[i].path, asm_files[i].why);
        }
    }
    cr_log_info("%d asm statements, all in the %zu wrapper files", inside, NASM_FILES);
    cr_expect_eq(outside, 0, "%d asm statement(s) outside the wrapper files (listed above)", outside);
}

Test(include_floors, every_library_include_points_down)
{
    int files = 0;
    int bad = check_all(&files);
    cr_log_info("%d library files checked", files);
    cr_expect_gt(files, 30, "only %d library files found: is the data list of this test complete?", files);
    cr_expect_eq(bad, 0, "%d include(s) point up or sideways (listed above)", bad);
}

Test(include_floors, every_cg_include_points_to_its_own_or_a_lower_sub_floor)
{
    const int n_files = list_library_files(library_files);
    int bad = 0, files = 0;
    for (int i = 0; i < n_files; ++i) {
        if (strcmp(library_files[i].folder, "cg") != 0)
            continue;
        ++files;
        const char *file = library_files[i].path + 3; /* after "cg/" */
        const int own = cg_floor_of(file);
        if (own == 0) {
            cr_log_error("%s has no sub-floor: give it one in cg_floors (tests/build/layering/include_floors_test.c) "
                         "and docs/ARCHITECTURE.md",
                         library_files[i].path);
            ++bad;
            continue;
        }
        bad += check_cg_subfloors(library_files[i].path, own, 1);
    }
    for (size_t i = 0; i < NCG_FLOORS; ++i) {
        char path[192];
        snprintf(path, sizeof path, "cg/%s", cg_floors[i].file);
        FILE *f = fopen(path, "r");
        cr_expect(f != NULL, "%s has a sub-floor in cg_floors but is not in the library: take it off", path);
        if (f)
            fclose(f);
    }
    cr_expect_eq((size_t)files, NCG_FLOORS, "cg/ has %d files, cg_floors lists %zu", files, NCG_FLOORS);
    cr_expect_eq(bad, 0, "%d include(s) or file(s) of cg/ break its sub-floors (listed above)", bad);
}

/* Writes a probe file for a checker's own test. */
static void write_probe_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The checker itself: inside cg/, an include of a higher sub-floor and of a
 * file the table lacks are caught; the own and lower sub-floors, other
 * folders and system headers pass. */
Test(include_floors, the_check_catches_an_include_up_the_sub_floors_of_cg)
{
    const char *path = "cg_subfloor_probe.h";
    write_probe_file(path, "#include \"../base/config.h\"\n#include \"group_header.h\"\n#include \"tile.h\"\n"
                     "#include \"generic.h\"\n  #  include \"groups.h\"\n#include \"not_in_the_table.h\"\n#include <string.h>\n");
    cr_expect_eq(check_cg_subfloors(path, 2, 0), 3,
                 "on sub-floor 2 (groups): generic.h (3), groups.h (5) and a file without a sub-floor must be "
                 "reported, group_header.h (1) and tile.h (2) not");
    cr_expect_eq(check_cg_subfloors(path, 5, 0), 1, "on sub-floor 5 only the file without a sub-floor is wrong");
    cr_expect_eq(check_cg_subfloors(path, 1, 0), 4, "on sub-floor 1 tile.h, generic.h and groups.h point up");
    remove(path);
    cr_expect(cg_floor_of("thread_group.h") == 3 && cg_floor_of("group_kinds.h") == 1 &&
                  cg_floor_of("no_such_file.h") == 0,
              "the table decides");
}

/* The checker itself: an include from the ground floor up is caught. */
Test(include_floors, the_check_catches_an_upward_include)
{
    const char *path = "upward_probe.h";
    write_probe_file(path, "#include \"../base/config.h\"\n#include \"../cg/cg.h\"\n#include \"cg.h\"\n");
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
    write_probe_file(path, "#include \"base/config.h\"\n#include <cg/tile.h>\n  #  include \"tile.h\"\n#include <stdint.h>\n"
                     "#include <cuda/ptx>\n#include \"../base/config.h\"\n");
    cr_expect_eq(check_file("cg", path, 0), 2, "\"base/config.h\" and <cg/tile.h> in cg/ must both be reported");
    remove(path);
}

/* Writes `text` to dir/name (the probes below). */
static void write_probe(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    write_probe_file(path, text);
}

static void remove_probe(const char *dir, const char *const *names, int n)
{
    char path[512];
    for (int i = 0; i < n; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    rmdir(dir);
}

/* The checker itself: a loop inside a folder is found, through a third file
 * too, and only a loop: a file included from two others is not one. */
Test(include_floors, the_check_catches_an_include_loop_inside_a_folder)
{
    const char *dir = "loop_probe";
    const char *names[] = {"a.h", "b.h", "c.h", "d.h", "e.c"};
    cr_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
    write_probe(dir, "a.h", "#include \"../base/config.h\"\n#include \"b.h\"\n");
    write_probe(dir, "b.h", "#include \"c.h\"\n#include <stdint.h>\n");
    write_probe(dir, "c.h", "  #  include \"a.h\"\n");
    write_probe(dir, "d.h", "#include \"a.h\"\n#include \"c.h\"\n");
    write_probe(dir, "e.c", "#include \"d.h\"\n#include \"e.h\"\n");
    cr_expect_eq(check_folder_loops(dir, 0), 1, "a.h -> b.h -> c.h -> a.h must be found, once");
    write_probe(dir, "c.h", "#include <stddef.h>\n");
    cr_expect_eq(check_folder_loops(dir, 0), 0, "no loop once c.h includes none of them");
    write_probe(dir, "d.h", "#include \"d.h\"\n");
    cr_expect_eq(check_folder_loops(dir, 0), 1, "a file that includes itself is a loop");
    remove_probe(dir, names, 5);
}

/* The checker itself: asm statements are found in every spelling, and
 * comments, strings and names that merely contain "asm" are not. */
Test(include_floors, the_check_catches_an_asm_statement)
{
    const char *path = "asm_probe.h";
    write_probe_file(path, "asm(\"trap;\");\n"                                    /* 1 */
                     "    asm volatile(\"exit;\" ::: \"memory\");\n"        /* 2 */
                     "__asm__ __volatile__(\"trap;\");\n"                   /* 3 */
                     "x = 1; asm (\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n" /* 4 */
                     "asm volatile\n(\"trap;\");\n"                          /* 5 */
                     "/* asm(\"in a comment\") */ int plasma(void);\n"
                     "// asm volatile(\"a line comment\")\n"
                     "/* a comment\n   asm(\"over two lines\") */\n"
                     "const char *s = \"asm(not code)\"; int asm_count, my_asm;\n");
    cr_expect_eq(count_asm(path, 0), 5, "five asm statements in the probe");
    remove(path);
    cr_expect(is_asm_file("base/sreg.h") && !is_asm_file("cg/grid.h"), "the list decides");
}

/* ---------------------------------------------------------------------------
 * Internal names stay in their folder
 * ---------------------------------------------------------------------------
 * A name that ends in one underscore (cg_grid_rank_, CG_GRID_TOK_SPREAD_) is
 * internal to the folder that defines it (docs/ARCHITECTURE.md). A file of
 * another folder, and any file of bench/, tests/ or examples/, may not use
 * it. Two kinds of use are allowed in the library: base/'s (the ground floor
 * holds the idioms every layer shares: the arch gates CG_AT_SM90_, the
 * report marker CG_REPORT_, the debug timer...) and the seams a folder
 * exports to a higher floor (seam_names below, each with the one higher
 * folder that may use it). Outside the library nothing is allowed but the
 * uses listed in known_uses, each naming why it is still there; the test
 * fails on a new one, and on a listed one that is gone (the list only
 * shrinks).
 *
 * Which folder defines a name: a #define of it, or a line at column 0 (a
 * function's, struct's, typedef's or variable's definition) where it is the
 * last internal name before the first "(" (or, without one, before ";",
 * "{", "[" or "="). The library's folders are read in floor order, so a
 * name defined in two is the lower one's. Comments, string and character
 * literals are blanked first. bench/, tests/ and examples/ reach this test
 * through each package's :layering_sources filegroup (its BUILD.bazel); a
 * new package needs one there and a line in tests/build/layering/BUILD.bazel. */

static const struct {
    const char *name, *folder, *user, *why;
} seam_names[] = {
    {"cg_grid_bar_t_", "barrier", "cg", "the grid barrier's state, which cg_grid_t embeds"},
    {"cg_grid_bar_arrive_", "barrier", "cg", "the grid barrier's arrive, which cg_grid_barrier_arrive forwards to"},
    {"cg_grid_bar_wait_", "barrier", "cg", "the grid barrier's wait, which cg_grid_barrier_wait forwards to"},
    {"cg_grid_bar_sync_", "barrier", "cg", "the grid barrier's sync, which cg_grid_sync forwards to"},
    {"cg_named_barrier_sync_", "barrier", "cg", "the named-barrier PTX form the wide tiles' sync is"},
    {"cg_named_barrier_sync_aligned_", "barrier", "cg", "its aligned form (the wide tiles' CG_WIDE_TILE_SYNC_ALIGNED setting)"},
    {"cg_block_sync_unaligned_", "barrier", "cg", "the non-aligned block barrier the block's split-barrier set-up uses"},
};
#define NSEAM_NAMES (sizeof seam_names / sizeof seam_names[0])

static const struct {
    const char *path, *name, *why;
} known_uses[] = {
    {"tests/stress/handoff/handoff_kernels.cu", "cg_pipeline_advance_", "the handoff tests (the pipeline's owner)"},
    {"tests/cg/group_kinds_test.c", "CG_GROUP_KINDS_ANY_NAMES_", "checks the kinds table itself (group API's owner)"},
    {"tests/cg/launch_gpu_test.c", "CG_DBAR_INIT_STATE_", "builds a device barrier's word by hand (device barrier's owner)"},
};
#define NKNOWN_USES (sizeof known_uses / sizeof known_uses[0])

/* The whole of `path`, NUL-terminated (the caller frees it). */
static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot read %s", path);
    cr_assert(fseek(f, 0, SEEK_END) == 0);
    const long n = ftell(f);
    cr_assert(n >= 0 && fseek(f, 0, SEEK_SET) == 0);
    char *s = malloc((size_t)n + 1);
    cr_assert(s != NULL);
    cr_assert(fread(s, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Blanks comments and the insides of string and character literals (kept:
 * newlines and the quotes), so only code is left. */
static void blank_non_code(char *s)
{
    enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
    for (char *c = s; *c; ++c) {
        switch (st) {
        case CODE:
            if (c[0] == '/' && c[1] == '*') {
                st = BLOCK;
                c[0] = c[1] = ' ';
                ++c;
            } else if (c[0] == '/' && c[1] == '/') {
                st = LINE;
                c[0] = c[1] = ' ';
                ++c;
            } else if (*c == '"') {
                st = STR;
            } else if (*c == '\'') {
                st = CHR;
            }
            break;
        case BLOCK:
            if (c[0] == '*' && c[1] == '/') {
                st = CODE;
                c[0] = c[1] = ' ';
                ++c;
            } else if (*c != '\n') {
                *c = ' ';
            }
            break;
        case LINE:
            if (*c == '\n')
                st = CODE;
            else
                *c = ' ';
            break;
        case STR:
        case CHR:
            if (c[0] == '\\' && c[1] && c[1] != '\n') {
                c[0] = c[1] = ' ';
                ++c;
            } else if (*c == (st == STR ? '"' : '\'')) {
                st = CODE;
            } else if (*c != '\n') {
                *c = ' ';
            }
            break;
        }
    }
}

/* An internal name: ends in "_", does not start with "__" (__shared__,
 * __VA_ARGS__), longer than "_". */
static int is_internal(const char *s, size_t n) { return n > 1 && s[n - 1] == '_' && !(s[0] == '_' && s[1] == '_'); }

/* Owned names: an open-addressing table name -> folder. */
#define OWNED_SLOTS 8192
static struct {
    char name[96];
    const char *folder;
} owned[OWNED_SLOTS];
static int n_owned;

static unsigned name_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The slot of name s[0..n) (empty when absent). */
static int owned_slot(const char *s, size_t n)
{
    unsigned i = name_hash(s, n) % OWNED_SLOTS;
    while (owned[i].folder && !(strlen(owned[i].name) == n && strncmp(owned[i].name, s, n) == 0))
        i = (i + 1) % OWNED_SLOTS;
    return (int)i;
}

static const char *owner_of(const char *s, size_t n)
{
    if (n >= sizeof owned[0].name)
        return NULL;
    return owned[owned_slot(s, n)].folder;
}

static void own(const char *s, size_t n, const char *folder)
{
    if (!is_internal(s, n) || n >= sizeof owned[0].name)
        return;
    const int i = owned_slot(s, n);
    if (owned[i].folder)
        return; /* the lower floor's (folders are read in floor order) */
    cr_assert(n_owned < OWNED_SLOTS / 2, "more than %d internal names: raise OWNED_SLOTS", OWNED_SLOTS / 2);
    memcpy(owned[i].name, s, n);
    owned[i].name[n] = '\0';
    owned[i].folder = folder;
    ++n_owned;
}

/* The names `text` (blanked) of a file of `folder` defines (see above). */
static void collect_definitions(char *text, const char *folder)
{
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        const char *p = line;
        if (*p == '#') {
            ++p;
            while (*p == ' ' || *p == '\t')
                ++p;
            if (strncmp(p, "define", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
                p += 6;
                while (*p == ' ' || *p == '\t')
                    ++p;
                const char *q = p;
                while (is_ident(*q))
                    ++q;
                own(p, (size_t)(q - p), folder);
            }
        } else if (*p && *p != ' ' && *p != '\t') {
            const char *stop = strchr(p, '(');
            if (!stop)
                stop = p + strcspn(p, ";{[=");
            const char *last = NULL;
            size_t last_n = 0;
            for (const char *q = p; q < stop;) {
                if (is_ident(*q) && (q == p || !is_ident(q[-1]))) {
                    const char *e = q;
                    while (is_ident(*e))
                        ++e;
                    if (is_internal(q, (size_t)(e - q))) {
                        last = q;
                        last_n = (size_t)(e - q);
                    }
                    q = e;
                } else {
                    ++q;
                }
            }
            if (last)
                own(last, last_n, folder);
        }
        if (end)
            *end = '\n';
        line = end ? end + 1 : NULL;
    }
}

static void collect_owned_names(void)
{
    if (n_owned)
        return;
    const int n_files = list_library_files(library_files);
    for (int i = 0; i < n_files; ++i) {
        char *s = read_whole(library_files[i].path);
        blank_non_code(s);
        collect_definitions(s, library_files[i].folder);
        free(s);
    }
}

/* 1 when `path` (of top folder `top`) may use `name`, defined in `folder`. */
static int use_allowed(const char *path, const char *top, const char *name, const char *folder)
{
    if (strcmp(top, folder) == 0)
        return 1;
    const int library = floor_of(top) != 0;
    if (library && strcmp(folder, "base") == 0)
        return 1;
    for (size_t i = 0; i < NSEAM_NAMES; ++i)
        if (library && strcmp(seam_names[i].name, name) == 0 && strcmp(seam_names[i].folder, folder) == 0 &&
            strcmp(seam_names[i].user, top) == 0)
            return 1;
    for (size_t i = 0; i < NKNOWN_USES; ++i)
        if (strcmp(known_uses[i].path, path) == 0 && strcmp(known_uses[i].name, name) == 0)
            return 1;
    return 0;
}

/* Uses in `text` (the file at `path`, top folder `top`) of other folders'
 * internal names that are not allowed; each reported when `report`. Counts
 * a name once per line. */
static int check_internal_uses(const char *path, const char *top, char *text, int report)
{
    int bad = 0, lineno = 1;
    blank_non_code(text);
    for (const char *c = text; *c;) {
        if (*c == '\n') {
            ++lineno;
            ++c;
            continue;
        }
        if (!is_ident(*c) || (c > text && is_ident(c[-1]))) {
            ++c;
            continue;
        }
        const char *e = c;
        while (is_ident(*e))
            ++e;
        const size_t n = (size_t)(e - c);
        const char *folder = is_internal(c, n) ? owner_of(c, n) : NULL;
        if (folder) {
            char name[96];
            memcpy(name, c, n);
            name[n] = '\0';
            if (!use_allowed(path, top, name, folder)) {
                ++bad;
                if (report)
                    cr_log_error("%s:%d uses %s, internal to %s/: call a name %s/ exports (or add it to "
                                 "seam_names in tests/build/layering/include_floors_test.c, with its reason)",
                                 path, lineno, name, folder, folder);
            }
        }
        c = e;
    }
    return bad;
}

/* Every .c/.h/.cu/.cuh file under `dir` (recursively), checked; *files
 * counts them. */
static int check_tree(const char *dir, const char *top, int *files)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            bad += check_tree(path, top, files);
            continue;
        }
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || !(strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".cu") == 0 ||
                      strcmp(dot, ".cuh") == 0))
            continue;
        char *s = read_whole(path);
        bad += check_internal_uses(path, top, s, 1);
        free(s);
        ++*files;
    }
    closedir(d);
    return bad;
}

Test(include_floors, internal_names_stay_in_their_folder)
{
    collect_owned_names();
    cr_assert_gt(n_owned, 100, "only %d internal names found in the library: is the data list complete?", n_owned);
    for (size_t i = 0; i < NSEAM_NAMES; ++i) {
        const char *f = owner_of(seam_names[i].name, strlen(seam_names[i].name));
        cr_expect(f != NULL && strcmp(f, seam_names[i].folder) == 0,
                  "seam_names lists %s as %s/'s (%s), but %s/ defines it", seam_names[i].name,
                  seam_names[i].folder, seam_names[i].why, f ? f : "no folder");
        cr_expect_gt(floor_of(seam_names[i].user), floor_of(seam_names[i].folder),
                     "a seam is used from a higher floor only (%s)", seam_names[i].name);
    }
    int bad = 0, files = 0;
    static const char *const tops[] = {"base", "barrier", "cluster", "dsmem", "async", "cg", "bench", "tests",
                                       "examples"};
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; ++i)
        bad += check_tree(tops[i], tops[i], &files);
    cr_log_info("%d internal names; %d files checked (library, bench, tests, examples)", n_owned, files);
    cr_expect_gt(files, 200, "only %d files checked: are bench/, tests/ and examples/ in the data list?", files);
    /* Every known use is still there (the list only shrinks). */
    for (size_t i = 0; i < NKNOWN_USES; ++i) {
        FILE *f = fopen(known_uses[i].path, "r");
        int used = 0;
        if (f) {
            fclose(f);
            char *s = read_whole(known_uses[i].path);
            blank_non_code(s);
            for (const char *c = s; (c = strstr(c, known_uses[i].name)) != NULL; c += strlen(known_uses[i].name))
                used |= (c == s || !is_ident(c[-1])) && !is_ident(c[strlen(known_uses[i].name)]);
            free(s);
        }
        cr_expect(used, "known_uses lists %s in %s (%s), which no longer uses it: take it off the list",
                  known_uses[i].name, known_uses[i].path, known_uses[i].why);
    }
    cr_expect_eq(bad, 0, "%d use(s) of another folder's internal names (listed above)", bad);
}

/* check_internal_uses on a copy of `text` (it blanks what it reads). */
static int uses_in_copy(const char *path, const char *top, const char *text)
{
    char *copy = strdup(text);
    cr_assert(copy != NULL);
    const int n = check_internal_uses(path, top, copy, 0);
    free(copy);
    return n;
}

/* The checker itself: definitions are found in every form; a use from
 * another folder is caught unless base/'s in the library or a listed seam;
 * comments, strings and characters do not count. */
Test(include_floors, the_check_catches_a_use_of_another_folders_internal_name)
{
    collect_owned_names();
    char defs[] = "#define CG_PROBE_MACRO_ 1\n"
                  "CG_DEVICE uint32_t cg_probe_fn_(void)\n"
                  "typedef struct cg_probe_s_ {\n"
                  "} cg_probe_t_;\n"
                  "static __device__ int cg_probe_var_[4];\n"
                  "    int cg_probe_local_ = 0;\n";
    blank_non_code(defs);
    collect_definitions(defs, "dsmem");
    cr_expect(owner_of("CG_PROBE_MACRO_", 15) && owner_of("cg_probe_fn_", 12) && owner_of("cg_probe_s_", 11) &&
                  owner_of("cg_probe_t_", 11) && owner_of("cg_probe_var_", 13),
              "every form of definition is found");
    cr_expect(owner_of("cg_probe_local_", 15) == NULL, "an indented declaration defines nothing");
    char use[] = "x = cg_probe_fn_() + CG_PROBE_MACRO_; /* cg_probe_var_ */ s = \"cg_probe_t_\";\n"
                 "c = '\"'; y = cg_probe_var_[0]; CG_UNLIKELY_(1); cg_grid_bar_wait_(0, t);\n";
    cr_expect_eq(uses_in_copy("cg/probe.h", "cg", use), 3,
                 "cg/: the three dsmem/ names in code are caught; base/'s and the seam's are not");
    cr_expect_eq(uses_in_copy("dsmem/probe.h", "dsmem", use), 1, "dsmem/: its own names pass; the seam is cg/'s only");
    cr_expect_eq(uses_in_copy("tests/x/probe.c", "tests", use), 5,
                 "tests/: every other folder's internal name is caught, base/'s and the seam's too");
}
