#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generates cgc's API reference from the public headers, as they are.

The list of public names is what the compiler sees, not a hand list:
`nvcc -E` of the umbrella header cg/cg.h (every table row and pasted name
expanded) gives every function cgc defines or declares; a name is public
when it starts with cg_ or cgc_ and does not end with an underscore (the
project's mark of an internal name) and is not an arch-error fallback
(cg_error_*). The generic calls, which are macros, come from the headers'
`#define cg_*(` lines. Each name's contract is the comment the header gives
it: the comment above its definition or prototype, above its table row (or
the nearest one above a run of rows: a group's comment), or above the line
that stamps it.

Writes (checked in; CI regenerates them and fails on a difference):
  docs/reference/api.md        every public function and generic call: its
                               signature, its contract, where it is defined
  docs/reference/ptx_forms.md  every row of every PTX-form table: name, PTX
                               instruction, PTX ISA version, lowest SM
and, with --doxygen DIR, DIR/contracts.h: the same contracts as Doxygen
comments (\\fn blocks) for tools/ci/check_reference.sh's Doxygen run.

  tools/ci/gen_reference.py            rewrite the two pages
  tools/ci/gen_reference.py --check    exit 1 when a page differs from what the
                                    headers give, or a public name has no
                                    contract (named)
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ["base", "barrier", "cluster", "dsmem", "async", "cg"]  # floors, lowest first
NOT_A_TYPE = {"return", "else", "case", "do", "sizeof", "decltype", "__typeof__", "typeof", "goto", "defined"}
NAME = r"cgc?_[A-Za-z0-9_]*[A-Za-z0-9]"


def nvcc():
    cuda = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return os.path.join(cuda, "bin", "nvcc")


def preprocess():
    """The umbrella header through nvcc's preprocessor (host pass: every
    device function is still defined, the host prototypes are there)."""
    cmd = [nvcc(), "-std=c++17", "-arch=sm_90a", "-E", "-x", "cu", "-Xcompiler", "-CC", "-I.", "cg/cg.h"]
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def norm(path):
    path = os.path.normpath(path)
    return path if not path.startswith("/") else None


def matching_paren(text, i):
    """Index of the parenthesis closing the one at text[i]."""
    depth = 0
    quote = None
    j = i
    while j < len(text):
        c = text[j]
        if quote:
            if c == "\\":
                j += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def clean_decl(prefix):
    """The return type from the text before a function's name."""
    s = re.sub(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)", " ", prefix)
    s = re.sub(r'\bextern\s+"C"', " ", s)
    s = re.sub(r"\b(static|__inline__|inline|extern|__forceinline__)\b", " ", s)
    return " ".join(s.split())


def scan(text):
    """One pass over preprocessed text (comments kept, -CC): the comments,
    strings and paragraph breaks at brace depth 0, and each position's
    depth. Returns (comments [(start, end, text)], skip ranges, breaks,
    depth changes [(pos, depth)])."""
    comments, skips, breaks, depth_at = [], [], [], [(0, 0)]
    depth, i, n = 0, 0, len(text)
    line_start = True
    stack = []  # per open brace: whether it counts (extern "C" { does not)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            if depth == 0:
                comments.append((i, j, text[i + 2 : j - 2]))
            skips.append((i, j))
            i = j
            line_start = False
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if depth == 0:
                comments.append((i, j, text[i + 2 : j]))
            skips.append((i, j))
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            skips.append((i, j + 1))
            i = j + 1
            line_start = False
            continue
        if c == "\n":
            k = i + 1
            while k < n and text[k] in " \t":
                k += 1
            if depth == 0 and (k >= n or text[k] == "\n" or (text[k] == "#" and text.startswith("# ", k))):
                breaks.append(i)
            i += 1
            continue
        if c == "{":
            counts = not re.search(r'extern\s+"C"\s*$', text[max(0, i - 40) : i])
            stack.append(counts)
            if counts:
                depth += 1
                depth_at.append((i + 1, depth))
        elif c == "}":
            if stack.pop() if stack else True:
                depth -= 1
                depth_at.append((i + 1, depth))
        i += 1
    return comments, skips, breaks, depth_at


def comment_text(raw):
    out = []
    for l in raw.split("\n"):
        l = l.strip()
        out.append(re.sub(r"^\*( |$)", "", l) if l.startswith("*") else l)
    text = "\n".join(out).strip()
    return re.sub(r"^-+\s*|\s*-+$", "", text).strip()


def public_functions(text):
    """{name: (file, line, signature, contract)} for every public function in
    the preprocessed text (comments kept), at its first definition or
    declaration. Its contract: the nearest comment before it at file scope
    with no blank line between (its own, or its group's)."""
    import bisect

    comments, skips, breaks, depth_at = scan(text)
    skip_starts = [a for a, _ in skips]
    depth_pos = [p for p, _ in depth_at]
    com_ends = [e for _, e, _ in comments]
    markers = [(m.start(), norm(m.group(2)), int(m.group(1))) for m in re.finditer(r'(?m)^# (\d+) "([^"]*)"', text)]
    marker_pos = [m[0] for m in markers]

    def inside_skip(p):
        k = bisect.bisect_right(skip_starts, p) - 1
        return k >= 0 and skips[k][0] <= p < skips[k][1]

    def depth(p):
        return depth_at[bisect.bisect_right(depth_pos, p) - 1][1]

    def where(p):
        k = bisect.bisect_right(marker_pos, p) - 1
        if k < 0:
            return None, 0
        _, file, line = markers[k]
        return file, line + text.count("\n", text.index("\n", markers[k][0]) + 1, p)

    found = {}
    for m in re.finditer(r"(?<![\w.>])(" + NAME + r")\s*\(", text):
        name = m.group(1)
        if name.startswith("cg_error_") or name in found:
            continue
        if depth(m.start()) != 0 or inside_skip(m.start()):
            continue
        ls = text.rfind("\n", 0, m.start()) + 1
        before = text[ls : m.start()]
        # Drop comments on the same line before the name.
        before = re.sub(r"/\*.*?\*/", " ", before).rstrip()
        prev = re.search(r"([A-Za-z_]\w*|\*|&)$", before)
        if not prev or prev.group(1) in NOT_A_TYPE:
            continue
        close = matching_paren(text, m.end() - 1)
        if close < 0:
            continue
        after = text[close + 1 : close + 400].lstrip()
        after = re.sub(r"^(__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*)+", "", after)
        if not (after.startswith("{") or after.startswith(";")):
            continue
        file, line = where(m.start())
        if not file or not any(file.startswith(f + "/") for f in FOLDERS):
            continue
        # The return type starts after the last ; } { or comment end on the
        # line, or at the line's start when there is none.
        start = max(before.rfind(";") + 1, before.rfind("}") + 1, before.rfind("{") + 1,
                    before.rfind("*/") + 2 if "*/" in before else 0)
        rtype = clean_decl(before[start:])
        params = " ".join(re.sub(r"/\*.*?\*/", " ", text[m.end() : close]).split())
        # The contract: the last file-scope comment before the name, with no
        # paragraph break between.
        k = bisect.bisect_left(com_ends, m.start() + 1) - 1
        contract_text = None
        if k >= 0:
            cstart, cend, raw = comments[k]
            b = bisect.bisect_right(breaks, cend)
            if b >= len(breaks) or breaks[b] > m.start():
                t = comment_text(raw)
                if t and not t.startswith("clang-format") and "SPDX-License-Identifier" not in t:
                    contract_text = t
        found[name] = (file, line, "%s %s(%s)" % (rtype, name, params), contract_text)
    return found


def generic_macros():
    """{name: (file, line, signature)} for the lowercase function-like
    macros (the generic calls); the C++ spelling's line when both exist."""
    found = {}
    for folder in FOLDERS:
        for fn in sorted(os.listdir(os.path.join(ROOT, folder))):
            if not fn.endswith(".h"):
                continue
            path = folder + "/" + fn
            with open(os.path.join(ROOT, path)) as f:
                for n, l in enumerate(f, 1):
                    m = re.match(r"#\s*define\s+(" + NAME + r")\(([^)]*)\)", l)
                    if m and m.group(1) not in found:
                        found[m.group(1)] = (path, n, "%s(%s)" % (m.group(1), m.group(2)))
    return found


_lines_cache = {}


def lines_of(path):
    if path not in _lines_cache:
        with open(os.path.join(ROOT, path)) as f:
            _lines_cache[path] = [l.rstrip("\n") for l in f]
    return _lines_cache[path]


def strip_cont(l):
    l = l.rstrip()
    if l.endswith("\\"):
        l = l[:-1].rstrip()
    return l


def comment_ending_at(lines, i):
    """The text of the comment whose last line is lines[i] (a comment on a
    line of its own, not one trailing code), or None."""
    if not strip_cont(lines[i]).endswith("*/"):
        return None
    j = i
    while j >= 0 and "/*" not in lines[j]:
        j -= 1
    if j < 0 or not lines[j].strip().startswith("/*"):
        return None
    s = "\n".join(strip_cont(l) for l in lines[j : i + 1])
    s = s[s.index("/*") + 2 : s.rindex("*/")]
    out = []
    for l in s.split("\n"):
        l = l.strip()
        out.append(re.sub(r"^\*( |$)", "", l) if l.startswith("*") else l)
    text = "\n".join(out).strip()
    text = re.sub(r"^-+\s*|\s*-+$", "", text).strip()  # a banner's dashes
    if text.startswith("clang-format"):
        text = ""
    return text, j


def comment_above(lines, i):
    """The nearest comment above line i in the same paragraph (no blank
    line between): the comment of a definition, of a run of definitions or
    table rows (a group's comment), of a table, or of the macro whose
    expansion line i is."""
    j = i - 1
    while j >= 0:
        if not strip_cont(lines[j]).strip():
            return None
        c = comment_ending_at(lines, j)
        if c is not None:
            text, first = c
            if text:
                return text
            j = first - 1
            continue
        j -= 1
    return None


def locate(name, file, line):
    """Where a function is written: its table row or definition line in the
    header, else the line whose macro stamps it."""
    lines = lines_of(file)
    pat = re.compile(r"(?<![\w.>])" + re.escape(name) + r"\s*[(,]")
    for n, l in enumerate(lines):
        s = l.lstrip()
        if s.startswith(("/*", "*", "//")) or not pat.search(l):
            continue
        if re.match(r"^\s*X\(\s*\w+\s*,\s*" + re.escape(name) + r"\s*,", l) or re.match(
                r"^\s*[A-Za-z_][\w ]*[\w*]\s*\**\s*" + re.escape(name) + r"\s*\(", l):
            if not re.match(r"^\s*(return|else|if|while|for)\b", l):
                return file, n + 1
    return file, line


def contract(name, file, line):
    """(text, file, line) of a name's contract."""
    lines = lines_of(file)
    # A table row naming it.
    for n, l in enumerate(lines):
        if re.match(r"^\s*X\(\s*\w+\s*,\s*" + re.escape(name) + r"\s*,", l):
            text = comment_above(lines, n)
            return text, file, n + 1
    # A definition, prototype or #define at the start of a line.
    for n, l in enumerate(lines):
        s = l.lstrip()
        if s.startswith(("/*", "*", "//")):
            continue
        if re.search(r"#\s*define\s+" + re.escape(name) + r"\(", l) or (
            re.search(r"(?<![\w.>])" + re.escape(name) + r"\s*\(", l)
            and re.match(r"^\s*[A-Za-z_][\w ]*[\w*]\s*\**\s*" + re.escape(name) + r"\s*\(", l)
            and not re.match(r"^\s*(return|else|if|while|for)\b", l)
        ):
            text = comment_above(lines, n)
            if text is not None:
                return text, file, n + 1
    # Stamped by a macro (a pasted name): the line that stamps it.
    if 0 < line <= len(lines):
        return comment_above(lines, line - 1), file, line
    return None, file, line


def from_overview(name, file):
    """A generic call's entry in its header's opening comment: the line that
    shows the call and the lines indented under it (the overview lists the
    generic calls that way; _T stands for the type suffix)."""
    lines = lines_of(file)
    text, k = [], 0
    while k < len(lines) and k < 400:
        if lines[k].strip().startswith("/*") and "SPDX" not in lines[k]:
            break
        k += 1
    body = []
    while k < len(lines):
        body.append(re.sub(r"^\s*/?\*+ ?", "", lines[k]).rstrip("/").rstrip("*").rstrip())
        if "*/" in lines[k]:
            break
        k += 1
    names = [name, re.sub(r"_(u32|i32|u64|i64|f32|f64)$", "_T", name)]
    for n, l in enumerate(body):
        m = re.search(r"(?<![\w.>])(" + "|".join(map(re.escape, names)) + r")\(", l)
        if not m or re.match(r"^\s*(T|uint32_t|auto)\b.*=", l):
            continue
        indent = len(l) - len(l.lstrip())
        out = [l.strip()]
        for l2 in body[n + 1 :]:
            if not l2.strip() or len(l2) - len(l2.lstrip()) <= indent:
                break
            out.append(l2.strip())
        if len(out) > 1 or len(l.strip()) > len(m.group(0)) + 20:
            return "\n".join(out) + "\n(From the overview of `%s`.)" % file
    return None


def header_order(path):
    folder, fn = path.split("/", 1)
    return (FOLDERS.index(folder), fn)


def header_summary(path):
    """The first sentence of a header's opening comment."""
    lines = lines_of(path)
    text = "\n".join(lines)
    m = re.search(r"/\*(.*?)\*/", text, re.S)
    if not m:
        return ""
    body = " ".join(re.sub(r"^\s*\*", "", l).strip() for l in m.group(1).split("\n"))
    body = body.replace("SPDX-License-Identifier: BSD-3-Clause", "").strip()
    if not body:
        m2 = re.search(r"/\*(.*?)\*/", text[m.end() :], re.S)
        body = " ".join(re.sub(r"^\s*\*", "", l).strip() for l in m2.group(1).split("\n")) if m2 else ""
    body = re.sub(r"^" + re.escape(path) + r"\s*[—-]\s*", "", body.strip())
    end = body.find(". ")
    return body[: end + 1] if end > 0 else body


def anchor(name):
    return name.lower()


def api_page(entries):
    out = [
        "<!-- generated by tools/ci/gen_reference.py from the public headers: do not edit -->",
        "# cgc API reference",
        "",
        "Every public function and generic call of cgc, by header (floors lowest",
        "first), with the contract its header gives it: what it does, its memory",
        "order and scope, its limits. The list is what `nvcc -E` of `cg/cg.h`",
        "defines (the table-stamped names included), so it cannot miss one;",
        "`tools/ci/check_reference.sh` (CI) regenerates this page, fails on a",
        "public name without a contract, and builds the Doxygen HTML",
        "(`doxygen Doxyfile`, into `build/reference/html`). The PTX behind each",
        "wrapper: [ptx_forms.md](ptx_forms.md).",
        "",
        "%d names in %d headers." % (len(entries), len({e[1] for e in entries})),
        "",
    ]
    by_header = {}
    for e in entries:
        by_header.setdefault(e[1], []).append(e)
    out.append("## Headers")
    out.append("")
    for h in sorted(by_header, key=header_order):
        out.append("- [`%s`](#%s) (%d): %s" % (h, h.replace("/", "").replace(".", ""), len(by_header[h]),
                                              header_summary(h)))
    out.append("")
    for h in sorted(by_header, key=header_order):
        out.append("## %s" % h)
        out.append("")
        for name, _, line, sig, text, kind in sorted(by_header[h], key=lambda e: (e[2], e[0])):
            out.append("### %s" % name)
            out.append("")
            out.append("```c")
            out.append(sig + (";" if kind == "function" else "  /* generic call (macro) */"))
            out.append("```")
            out.append("")
            out.append("[`%s:%d`](../../%s#L%d)" % (h, line, h, line))
            out.append("")
            for para in (text or "").split("\n"):
                out.append(("    " + para) if para.startswith("  ") else para)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def ptx_tables():
    """[(header, data file, [(name, ptx, isa, sm, flavor)])]: every PTX-form
    data file (<family>_forms.tbl, tools/ptx/README.md) with the generated
    header it becomes, read by tools/ptx/gen.py's own reader, the PTX as
    `nvcc -ptx` prints it."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "ptx"))
    import gen  # tools/ptx/gen.py

    tables = []
    for folder in FOLDERS:
        for fn in sorted(os.listdir(os.path.join(ROOT, folder))):
            if fn.endswith("_forms.tbl"):
                t = gen.read_table(folder + "/" + fn)
                rows = []
                for r in gen.rows(t):
                    f = gen.form_fields(r)
                    rows.append((f["name"], gen.ptx_display(f["ptx"]), int(f["isa"]), f["sm"], f["flavor"]))
                tables.append((t.path[: -len(".tbl")] + ".h", t.path, rows))
    return tables


def ptx_text(expr):
    """The PTX of a row: its string literals joined, escapes made plain."""
    lits = re.findall(r'"((?:[^"\\]|\\.)*)"', expr)
    s = "".join(lits).replace("\\n", " ").replace("\\t", " ").replace('\\"', '"')
    return " ".join(s.split())


def ptx_page(tables):
    total = sum(len(r) for _, _, r in tables)
    out = [
        "<!-- generated by tools/ci/gen_reference.py from the PTX-form data files: do not edit -->",
        "# PTX forms",
        "",
        "Every PTX instruction cgc emits from a data row, one row per wrapper, as",
        "`cuda::ptx`'s documentation lists its instructions: the wrapper's",
        "name, the instruction exactly as emitted (`%0` is a result, then the",
        "operands in order), the lowest PTX ISA version and the lowest target.",
        "`tools/ptx/README.md` says how a row becomes a function; names ending in",
        "`_` are internal forms that a public call in [api.md](api.md) wraps.",
        "Forms a row cannot say (several results, loops) are written out in",
        "their header with the same three facts in their comment.",
        "",
        "sm: 70/80/90 the lowest target; 90a only on the arch-specific targets",
        "(sm_90a, sm_100a: multicast). order: MEM (asm volatile, `memory`",
        "clobber), VOLATILE (asm volatile, orders no memory), PURE (a value the",
        "compiler may merge).",
        "",
        "%d forms in %d data files." % (total, len(tables)),
        "",
    ]
    for path, table, rows in tables:
        out.append("## %s (`%s`)" % (table, path))
        out.append("")
        out.append("| name | PTX | ISA | sm | kind |")
        out.append("|---|---|---|---|---|")
        for name, ptx, isa, sm, flavor in rows:
            out.append("| `%s` | `%s` | %d.%d | %s | %s |" % (name, ptx.replace("|", "\\|"), isa // 10, isa % 10, sm,
                                                            flavor))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def doxygen_contracts(entries):
    """Doxygen \\fn blocks: the contracts for the functions Doxygen finds
    by expanding the headers' macros."""
    out = ["/* generated by tools/ci/gen_reference.py: the contracts of cgc's public functions for Doxygen */"]
    for name, header, line, sig, text, kind in entries:
        body = (text or "").replace("*/", "* /")
        cmd = "\\fn %s" % sig if kind == "function" else "\\def %s" % sig
        out.append("/**\n %s\n \\brief %s\n\n %s\n\n Defined in %s:%d.\n */" % (
            cmd, first_sentence(body), body.replace("\n", "\n "), header, line))
    return "\n".join(out) + "\n"


def first_sentence(text):
    t = " ".join(text.split())
    end = t.find(". ")
    return t[: end + 1] if end > 0 else t


def collect():
    forms = {r[0]: r for _, _, rows in ptx_tables() for r in rows}
    funcs = public_functions(preprocess())
    macros = generic_macros()
    entries, missing, doxy_macros = [], [], {}
    for name, (file, line, sig, text) in sorted(funcs.items()):
        cfile, cline = locate(name, file, line)
        if not text:  # a table's or a stamping macro's comment, in the header
            text = contract(name, cfile, cline)[0] or contract(name, file, line)[0]
        if text and name in forms:
            _, ptx, isa, sm, flavor = forms[name]
            text += "\n\nPTX: `%s` (PTX ISA %d.%d, sm_%s; %s)." % (ptx, isa // 10, isa % 10, sm, flavor)
        entries.append((name, cfile, cline, sig, text, "function"))
        if not text:
            missing.append("%s (%s:%d)" % (name, cfile, cline))
    for name, (file, line, sig) in sorted(macros.items()):
        if name in funcs:
            # A same-name macro that checks its arguments, then calls the
            # function: Doxygen lists both; each carries the contract.
            doxy_macros[name] = sig
            continue
        text, cfile, cline = contract(name, file, line)
        if not text:
            text = from_overview(name, file)
        entries.append((name, cfile, cline, sig, text, "macro"))
        if not text:
            missing.append("%s (%s:%d)" % (name, cfile, cline))
    return entries, missing, doxy_macros


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the checked-in pages; change nothing")
    ap.add_argument("--doxygen", metavar="DIR", help="also write DIR/contracts.h for Doxygen")
    ap.add_argument("--names", action="store_true", help="print the public names, one a line, and stop")
    args = ap.parse_args()
    entries, missing, doxy_macros = collect()
    if args.names:
        for e in entries:
            print(e[0])
        return 0
    pages = {
        "docs/reference/api.md": api_page(entries),
        "docs/reference/ptx_forms.md": ptx_page(ptx_tables()),
    }
    if args.doxygen:
        os.makedirs(args.doxygen, exist_ok=True)
        with open(os.path.join(args.doxygen, "contracts.h"), "w") as f:
            doc = [e for e in entries if e[4]]
            doc += [(e[0], e[1], e[2], doxy_macros[e[0]], e[4], "macro") for e in doc if e[0] in doxy_macros]
            f.write(doxygen_contracts(doc))
    rc = 0
    for name in missing:
        print("reference: no contract for public name %s: give it a comment above its definition or table row" % name)
        rc = 1
    for path, text in pages.items():
        full = os.path.join(ROOT, path)
        old = open(full).read() if os.path.exists(full) else None
        if args.check:
            if old != text:
                print("reference: %s is not what the headers give: run tools/ci/gen_reference.py" % path)
                rc = 1
        elif old != text:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
            print("reference: wrote %s" % path)
    n_forms = sum(len(r) for _, _, r in ptx_tables())
    print("reference: %d public names (%d without a contract), %d PTX forms" % (len(entries), len(missing), n_forms))
    return rc


if __name__ == "__main__":
    sys.exit(main())
