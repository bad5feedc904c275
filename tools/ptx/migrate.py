#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/ptx/migrate.py — one-time migration: the X-macro PTX tables of the
hand headers (as they were up to 6ea3366) -> the data files of tools/ptx/gen.py.

  python3 tools/ptx/migrate.py --rev REV     read the headers as they are at
                                             git revision REV (e.g. main after
                                             a merge of branches that still
                                             edited the tables) and write every
                                             *_forms.tbl / *_calls.tbl
then python3 tools/ptx/gen.py regenerates the C. The renames and the one
split it makes on the way (the mbarrier raw forms' names in one qualifier
order; cg_mbarrier_inval as a call on a raw form) are in FIXUPS below, so a
second run gives the same data. Remove this file once no branch edits a table.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from gen_reference import matching_paren  # noqa: E402  (tools/ci/gen_reference.py)

# header -> [(table macro, data file, kind)]
TABLES = {
    "base/gpu_scope.h": [("CG_GPU_SCOPE_FORMS", "base/gpu_scope_forms.tbl")],
    "base/smem.h": [("CG_SMEM_FORMS", "base/smem_forms.tbl")],
    "base/sreg.h": [("CG_SREG_FORMS", "base/sreg_forms.tbl")],
    "base/address.h": [("CG_ADDRESS_FORMS", "base/address_forms.tbl")],
    "base/fence.h": [("CG_FENCE_FORMS", "base/fence_forms.tbl")],
    "barrier/block_sync.h": [("CG_BLOCK_SYNC_FORMS", "barrier/block_sync_forms.tbl")],
    "barrier/mbarrier.h": [("CG_MBARRIER_FORMS", "barrier/mbarrier_forms.tbl")],
    "cluster/cluster.h": [("CG_CLUSTER_FORMS", "cluster/cluster_forms.tbl")],
    "dsmem/dsmem.h": [("CG_DSMEM_FORMS", "dsmem/dsmem_forms.tbl")],
    "async/bulk.h": [("CG_BULK_FORMS", "async/bulk_forms.tbl")],
    "async/tensor.h": [("CG_TENSOR_FORMS", "async/tensor_forms.tbl")],
}
# The forms files' includes beyond base/config.h and base/ptx_form.h: what the
# rows' parameter types and operands name.
INCLUDES = {
    "async/tensor_forms.tbl": ["base/address.h", "barrier/mbarrier.h", "async/tensor_map.h"],
}

# More of a forms file's head comment, where its family has more to say.
HEADS = {
    "barrier/mbarrier_forms.tbl": """#
# `addr` is the barrier's shared::cta address (cg_smem_addr), `raddr` a
# shared::cluster address of another CTA's barrier (cg_mbarrier_remote_addr_),
# `state` a token's 64 bits. An arrive on this CTA's barrier returns its state
# (the token); one on a shared::cluster address returns none (PTX requires the
# sink `_`). A test returns 1 when the phase has completed: the instruction
# sets predicate p inside a block that declares it, and selp turns p into %0.
#
# Flavors: every release, acquire, init and inval form is MEM (its order needs
# the "memory" clobber); a .relaxed arrive, expect_tx and complete_tx orders no
# memory and has none (VOLATILE: the compiler may move ordinary accesses across
# it, as the hardware may). The relaxed try_wait keeps the clobber so the
# compiler hoists no later access above the poll. The sm_80 forms (PTX 7.0, no
# .release/.cta qualifiers: release and acquire at CTA scope are their
# meaning) serve the sm_80 paths of the public calls.
#
# The raw forms' names follow their PTX in one order:
#   cg_mbarrier_ptx_<op>[_tx][_n][_no_complete][_parity][_remote]_<sem>_<scope>[_hint][_if][_sm80]_
# (tools/ptx/gen.py checks it).
""",
}

SPDX = "# SPDX-License-Identifier: BSD-3-Clause\n"
FORMS_HEAD = """# The PTX forms of %s, one function each (written by tools/ptx/gen.py
# into %s; the columns of the data file: tools/ptx/README.md).
"""

# ---------------------------------------------------------------------------
# Reading C
# ---------------------------------------------------------------------------


def read(rev, path):
    if rev:
        return subprocess.run(["git", "-C", ROOT, "show", "%s:%s" % (rev, path)], check=True,
                              stdout=subprocess.PIPE, universal_newlines=True).stdout
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def macro_body(text, name):
    """The body of `#define name(...)`, its continuation backslashes gone."""
    m = re.search(r"^#define %s\([^)]*\)[ \t]*\\?\n" % re.escape(name), text, re.M)
    if not m:
        sys.exit("no #define %s" % name)
    lines, i = [], m.end()
    first = text[m.start():m.end()].rstrip("\n")
    if not first.endswith("\\"):
        return ""
    for line in text[i:].split("\n"):
        more = line.rstrip().endswith("\\")
        lines.append(line.rstrip()[:-1] if more else line)
        if not more:
            break
    return "\n".join(lines)


def split_args(s):
    """Top-level comma split (parentheses, braces and string literals kept)."""
    out, depth, cur, i, q = [], 0, "", 0, None
    while i < len(s):
        c = s[i]
        if q:
            cur += c
            if c == "\\":
                cur += s[i + 1]
                i += 1
            elif c == q:
                q = None
        elif c in "\"'":
            q = c
            cur += c
        elif c in "([{":
            depth += 1
            cur += c
        elif c in ")]}":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def items(body):
    """The comments and invocations of a table body, in order:
    ("comment", [lines]) or ("call", macro name, [args])."""
    out, i = [], 0
    while i < len(body):
        if body.startswith("/*", i):
            j = body.index("*/", i)
            text = body[i + 2:j]
            lines = [re.sub(r"^\s*\*?\s?", "", l).rstrip() for l in text.split("\n")]
            lines = [l for l in lines if l] or [""]
            lines[0] = lines[0].strip()
            out.append(("comment", lines))
            i = j + 2
            continue
        m = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(").match(body, i)
        if m:
            j = matching_paren(body, m.end() - 1)
            out.append(("call", m.group(1), split_args(body[m.end():j])))
            i = j + 1
            continue
        i += 1
    return out


def c_string(expr):
    """The content of a C string expression: adjacent literals, kept escaped;
    CG_MBARRIER_PRED_(instr) expanded."""
    m = re.match(r"^CG_MBARRIER_PRED_\((.*)\)$", expr.strip(), re.S)
    if m:
        return "{\\n\\t.reg .pred p;\\n\\t" + c_string(m.group(1)) + "\\n\\tselp.b32 %0, 1, 0, p;\\n\\t}"
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', expr)
    rest = re.sub(r'"((?:[^"\\]|\\.)*)"', "", expr).strip()
    if rest or not parts:
        sys.exit("not a string expression: %r" % expr)
    return "".join(parts)


def unparen(s):
    s = s.strip()
    assert s.startswith("(") and s.endswith(")"), s
    return s[1:-1].strip()


# The operand shapes of dsmem/dsmem.h (CG_DSMEM_LD_ ...), as rows.
def dsmem_shape(macro, args):
    _, name, T, c, insn = args
    n = "cg_dsmem_" + name
    if macro == "CG_DSMEM_LD_":
        return ["VALUE", n, "78", "90", "MEM", T, '"=" ' + c, "(uint32_t caddr)", insn + ' " %0, [%1];"',
                '("r"(caddr))']
    if macro == "CG_DSMEM_ST_":
        return ["VOID", n, "78", "90", "MEM", "(uint32_t caddr, %s v)" % T, insn + ' " [%0], %1;"',
                '("r"(caddr), %s(v))' % c]
    if macro == "CG_DSMEM_ATOM_":
        return ["VALUE", n, "78", "90", "MEM", T, '"=" ' + c, "(uint32_t caddr, %s v)" % T,
                insn + ' " %0, [%1], %2;"', '("r"(caddr), %s(v))' % c]
    if macro == "CG_DSMEM_RED_ASYNC_":
        return ["VOID", n, "81", "90", "MEM", "(uint32_t caddr, %s v, uint32_t mbar_caddr)" % T,
                '"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes" ' + insn +
                ' " [%0], %1, [%2];"', '("r"(caddr), %s(v), "r"(mbar_caddr))' % c]
    sys.exit("unknown row macro %s" % macro)


def form_cols(a):
    """An X(VALUE|VOID, ...) row -> data columns."""
    if a[0] == "VALUE":
        shape, name, isa, sm, flavor, T, cons, params, ptx, ops = a
        cols = [shape, name, isa, sm, flavor, T, c_string(cons)]
    else:
        shape, name, isa, sm, flavor, params, ptx, ops = a
        cols = [shape, name, isa, sm, flavor]
    ops = unparen(ops)
    return cols + [unparen(params), c_string(ptx), ops or "-"]


def call_cols(a):
    """An X(shape, name, sm, check, params, form, operands, sm80) call row."""
    shape, name, sm, check, params, form, ops, sm80 = a
    ops = unparen(ops)
    ops = ops[1:].strip() if ops.startswith(",") else ops
    return [shape, name, sm, check, unparen(params), form, ops or "-", "-" if sm80 == "NONE" else sm80]


def table_lines(body, convert):
    out, pending = [], []
    for it in items(body):
        if it[0] == "comment":
            text = " ".join(it[1])
            if text.startswith("---- ") and text.endswith(" ----"):
                out.append("## " + text[5:-5])  # a section banner
            else:
                pending += it[1]
            continue
        _, macro, args = it
        cols = convert(dsmem_shape(macro, args) if macro != "X" else args)
        if pending:  # "name(args): does ..." in a table: the function's own comment needs no name
            m = re.match(r"^cg_\w+\([^)]*\): (.)", pending[0])
            if m:
                pending[0] = m.group(1).upper() + pending[0][m.end():]
        out += ["# " + l if l else "#" for l in pending]
        pending = []
        out.append(" | ".join(cols))
    return out


# ---------------------------------------------------------------------------
# Fix-ups on the way (kept here so a second run gives the same data)
# ---------------------------------------------------------------------------

# The mbarrier raw forms, named from their PTX in one order:
#   cg_mbarrier_ptx_<op>[_tx][_n][_no_complete][_parity][_remote]_<sem>_<scope>[_hint][_if][_sm80]_
# (sm_80 forms have no sem/scope; the relaxed expect_tx/complete_tx name it).
MBARRIER_RENAMES = {
    "cg_mbarrier_ptx_expect_tx_cta_": "cg_mbarrier_ptx_expect_tx_relaxed_cta_",
    "cg_mbarrier_ptx_expect_tx_cluster_": "cg_mbarrier_ptx_expect_tx_relaxed_cluster_",
    "cg_mbarrier_ptx_complete_tx_cta_": "cg_mbarrier_ptx_complete_tx_relaxed_cta_",
    "cg_mbarrier_ptx_complete_tx_cluster_": "cg_mbarrier_ptx_complete_tx_relaxed_cluster_",
    "cg_mbarrier_ptx_arrive_remote_release_": "cg_mbarrier_ptx_arrive_remote_release_cluster_",
    "cg_mbarrier_ptx_arrive_remote_n_release_": "cg_mbarrier_ptx_arrive_n_remote_release_cluster_",
    "cg_mbarrier_ptx_arrive_remote_relaxed_": "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_",
    "cg_mbarrier_ptx_arrive_remote_relaxed_if_": "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_",
    "cg_mbarrier_ptx_arrive_remote_release_if_": "cg_mbarrier_ptx_arrive_remote_release_cluster_if_",
    "cg_mbarrier_ptx_arrive_tx_remote_release_": "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_",
    "cg_mbarrier_ptx_arrive_tx_remote_release_if_": "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_if_",
    "cg_mbarrier_ptx_arrive_drop_remote_release_": "cg_mbarrier_ptx_arrive_drop_remote_release_cluster_",
    "cg_mbarrier_ptx_expect_tx_remote_": "cg_mbarrier_ptx_expect_tx_remote_relaxed_cluster_",
    "cg_mbarrier_ptx_complete_tx_remote_": "cg_mbarrier_ptx_complete_tx_remote_relaxed_cluster_",
    "cg_mbarrier_ptx_test_wait_cta_": "cg_mbarrier_ptx_test_wait_acquire_cta_",
    "cg_mbarrier_ptx_test_wait_cluster_": "cg_mbarrier_ptx_test_wait_acquire_cluster_",
    "cg_mbarrier_ptx_test_wait_parity_cta_": "cg_mbarrier_ptx_test_wait_parity_acquire_cta_",
    "cg_mbarrier_ptx_test_wait_parity_cluster_": "cg_mbarrier_ptx_test_wait_parity_acquire_cluster_",
    "cg_mbarrier_ptx_try_wait_cta_": "cg_mbarrier_ptx_try_wait_acquire_cta_",
    "cg_mbarrier_ptx_try_wait_cluster_": "cg_mbarrier_ptx_try_wait_acquire_cluster_",
    "cg_mbarrier_ptx_try_wait_hint_cta_": "cg_mbarrier_ptx_try_wait_acquire_cta_hint_",
    "cg_mbarrier_ptx_try_wait_hint_cluster_": "cg_mbarrier_ptx_try_wait_acquire_cluster_hint_",
    "cg_mbarrier_ptx_try_wait_parity_cta_": "cg_mbarrier_ptx_try_wait_parity_acquire_cta_",
    "cg_mbarrier_ptx_try_wait_parity_cluster_": "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_",
    "cg_mbarrier_ptx_try_wait_parity_hint_cta_": "cg_mbarrier_ptx_try_wait_parity_acquire_cta_hint_",
    "cg_mbarrier_ptx_try_wait_parity_hint_cluster_": "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_hint_",
}


def rename(line):
    return re.sub(r"\bcg_mbarrier_ptx_[a-z0-9_]+_\b", lambda m: MBARRIER_RENAMES.get(m.group(0), m.group(0)), line)


INVAL_FORM = "VOID | cg_mbarrier_ptx_inval_ | 78 | 80 | MEM | uint32_t addr | mbarrier.inval.shared::cta.b64 [%0]; | \"r\"(addr)"
INVAL_CALL = "LOCAL | cg_mbarrier_inval | - | NONE | cg_mbarrier_t *mb | cg_mbarrier_ptx_inval_ | - | -"


def mbarrier_forms_fixup(lines):
    """cg_mbarrier_inval becomes a call on a raw form: the forms file then
    names no type of mbarrier.h (it compiles alone). Returns the forms lines
    and the call's lines (its comment moves with it)."""
    out, call, comment = [], [], []
    for l in lines:
        if l.startswith("#"):
            comment.append(l)
            continue
        if " cg_mbarrier_inval " in l:
            call = comment + [INVAL_CALL]
            out.append(INVAL_FORM)
        else:
            out += comment + [rename(l)]
        comment = []
    return out, call


# ---------------------------------------------------------------------------
# The tensor calls: a COPY row per rank and kind, a BY_RANK row per kind
# ---------------------------------------------------------------------------


def tensor_calls():
    out = ["@region copies", ""]
    kinds = [
        ("cg_tensor_load", "90", "void *dst, const cg_tensor_map_t *map, %s, cg_mbarrier_t *mbar", "dst",
         "dst, map, %s, mbar"),
        ("cg_tensor_load_multicast", "90a",
         "void *dst, const cg_tensor_map_t *map, %s, cg_mbarrier_t *mbar, uint16_t cta_mask", "dst",
         "dst, map, %s, mbar, cta_mask"),
        ("cg_tensor_store", "90", "const cg_tensor_map_t *map, %s, const void *src", "src", "map, %s, src"),
    ]
    for r in range(1, 6):
        coords = ", ".join("int32_t c%d" % i for i in range(r))
        args = ", ".join("c%d" % i for i in range(r))
        out.append("## rank %d" % r)
        for name, sm, params, tile, call in kinds:
            out.append(" | ".join(["COPY", "%s_%dd" % (name, r), sm, params % coords, tile,
                                   "%s_%dd_ptx_" % (name, r), call % args]))
        out.append("")
    out += ["@region by_rank", ""]
    by_rank = [
        ("cg_tensor_load", "90", "void *dst, const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, "
         "cg_mbarrier_t *mbar", "dst, map, {c}, mbar"),
        ("cg_tensor_load_multicast", "90a", "void *dst, const cg_tensor_map_t *map, uint32_t rank, const int32_t "
         "*coords, cg_mbarrier_t *mbar, uint16_t cta_mask", "dst, map, {c}, mbar, cta_mask"),
        ("cg_tensor_store", "90", "const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, const void "
         "*src", "map, {c}, src"),
        ("cg_tensor_prefetch", "90", "const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords",
         "map, {c}"),
    ]
    for name, sm, params, args in by_rank:
        out.append("# %s_<rank>d with the coordinates in an array, coords[0 .. rank-1]." % name)
        out.append(" | ".join(["BY_RANK", name, sm, params, args]))
        out.append("")
    return out


def write(path, lines):
    with open(os.path.join(ROOT, path), "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")
    print("wrote " + path)


def main(argv):
    rev = argv[argv.index("--rev") + 1] if "--rev" in argv else None
    for header, tables in TABLES.items():
        text = read(rev, header)
        for macro, data in tables:
            lines = table_lines(macro_body(text, macro), form_cols)
            call = []
            if data == "barrier/mbarrier_forms.tbl":
                lines, call = mbarrier_forms_fixup(lines)
            head = FORMS_HEAD % (header, data[:-4] + ".h") + HEADS.get(data, "")
            incs = ["@include " + i for i in INCLUDES.get(data, [])]
            write(data, [SPDX + head] + (incs + [""] if incs else []) + lines)
            if data == "barrier/mbarrier_forms.tbl":
                calls = [SPDX + "# The public mbarrier calls on one form each; tools/ptx/gen.py writes them into\n"
                         "# barrier/mbarrier.h's regions [local] and [remote] (columns: tools/ptx/README.md).\n"]
                calls += ["@region local", ""] + call
                calls += [rename(l) for l in table_lines(macro_body(text, "CG_MBARRIER_CALLS"), call_cols)]
                calls += ["", "@region remote", ""]
                calls += [rename(l) for l in table_lines(macro_body(text, "CG_MBARRIER_REMOTE_CALLS"), call_cols)]
                write("barrier/mbarrier_calls.tbl", calls)
    write("async/tensor_calls.tbl", [SPDX + "# The public tensor copies of async/tensor.h, one per rank and kind, "
                                     "and their\n# run-time-rank forms; tools/ptx/gen.py writes them into its "
                                     "regions\n# [copies] and [by_rank] (columns: tools/ptx/README.md).\n"]
          + tensor_calls())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
