#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Lays out the X-macro tables of the library's headers: one row per line,
columns aligned, comments between rows kept as they are.

    tools/format_ptx_tables.py FILE...          rewrite the files in place
    tools/format_ptx_tables.py --check FILE...  exit 1 if a file would change

A table is a `#define NAME(X)` whose continuation lines hold rows `X(...)`
(base/ptx_form.h describes the PTX-form columns). A row that spans several
lines is joined into one, and the columns of the rows between two comment
lines (a group) are aligned; in a group with VALUE rows, a VOID row of a
PTX-form table (no result type or constraint) leaves those two columns blank
so its later columns line up with the VALUE rows'. Only whitespace changes: the tokens of every row stay as
they are, so the stamped code (and its PTX) does not change.
"""
import re
import sys


def split_args(text):
    """Top-level comma-separated arguments of a row's parentheses."""
    out, cur, depth, quote = [], "", 0, False
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
            cur += c
        elif c in "([":
            depth += 1
            cur += c
        elif c in ")]":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur.strip())
    return out


def balanced(text):
    """Whether the parentheses of `text` (outside string literals) close."""
    depth, quote, i = 0, False, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return depth == 0


def format_table(lines):
    """lines: the table's source lines (first is the #define). Returns new lines."""
    head = lines[0].rstrip().rstrip("\\").rstrip()
    items, cur = [], None
    for raw in lines[1:]:
        t = raw.rstrip()
        if t.endswith("\\"):
            t = t[:-1].rstrip()
        s = t.strip()
        if cur is not None:
            cur += " " + s
            if balanced(cur):
                items.append(("row", cur))
                cur = None
            continue
        if s.startswith("X("):
            if balanced(s):
                items.append(("row", s))
            else:
                cur = s
        elif s:
            items.append(("text", t))
    if cur is not None:
        raise ValueError("unbalanced row: " + cur)
    rows = [split_args(t[2:-1]) for k, t in items if k == "row"]
    ptx_form = any(r[0] == "VALUE" for r in rows)
    # Columns line up within a group: rows with no other line between them.
    groups, group = [], []
    for kind, t in items:
        if kind == "row":
            group.append(split_args(t[2:-1]))
        elif group:
            groups.append(group)
            group = []
    if group:
        groups.append(group)
    laid = []
    for g in groups:
        if ptx_form and any(r[0] == "VALUE" for r in g):
            g = [r[:5] + ["", ""] + r[5:] if r[0] == "VOID" else r for r in g]
        ncol = max(len(r) for r in g)
        width = [max((len(r[i]) for r in g if i < len(r) - 1), default=0) for i in range(ncol)]
        for r in g:
            parts = []
            for i, c in enumerate(r):
                if i == len(r) - 1:
                    parts.append(c)
                elif c == "":
                    parts.append(" " * (width[i] + 1))
                else:
                    parts.append((c + ",").ljust(width[i] + 1))
            laid.append("    X(" + " ".join(parts).rstrip() + ")")
    body, k = [], 0
    for kind, t in items:
        if kind == "text":
            body.append(t)
        else:
            body.append(laid[k])
            k += 1
    out = [head + " \\"] + [b + " \\" for b in body[:-1]] + [body[-1]]
    return out


def format_text(text):
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        if re.match(r"#define \w+\(X\)\s*\\\s*$", lines[i]):
            j = i
            while lines[j].rstrip().endswith("\\"):
                j += 1
            out += format_table(lines[i : j + 1])
            i = j + 1
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    changed = []
    for path in files:
        text = open(path).read()
        new = format_text(text)
        if new != text:
            changed.append(path)
            if not check:
                open(path, "w").write(new)
    if check and changed:
        print("tables not laid out (run tools/format_ptx_tables.py): " + " ".join(changed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
