"""Codemod: turn one mixin class of `FunctionLowering` into module-level free functions.

    python tools/unmix.py MODULE CLASS

In script/frontend/MODULE.py, the methods of CLASS become functions `def name(cx, ...)`
(`self.` -> `cx.`, a call of a sibling `self.name(...)` -> `name(cx, ...)`); every call
`self.name(...)` or `cx.name(...)` of one of them elsewhere in script/ becomes
`MODULE.name(self, ...)`, and such a file gets `from script.frontend import MODULE`. What it
cannot rewrite (a method used as a value, `super()`, a decorator) it prints, to be done by
hand; then check `git diff`, `python tools/mixin_graph.py --cycles BASE` (no new cycle
edges) and remove CLASS from FunctionLowering's bases.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "script"
FRONTEND = SCRIPT / "frontend"


def open_brackets(text: str) -> dict[int, int]:
    """line number (0-based) -> column of the innermost bracket open at the line's start."""
    import io
    import tokenize
    stack, out = [], {}
    lineno = 0
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        row = tok.start[0] - 1
        while lineno < row:
            lineno += 1
            if stack:
                out[lineno] = stack[-1]
        if tok.type == tokenize.OP and tok.string in "([{":
            stack.append(tok.start[1])
        elif tok.type == tokenize.OP and tok.string in ")]}":
            stack.pop()
    return out


def realign(old: str, new: str) -> str:
    """Continuation lines aligned with their bracket in `old` aligned with it in `new` (same
    lines, some of them rewritten)."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    if len(old_lines) != len(new_lines):
        return new
    was, now = open_brackets(old), open_brackets(new)
    for k, line in enumerate(new_lines):
        if k not in was or k not in now:
            continue
        indent = len(old_lines[k]) - len(old_lines[k].lstrip(" "))
        if indent == was[k] + 1 and was[k] != now[k]:
            new_lines[k] = " " * (now[k] + 1) + line.lstrip(" ")
    return "".join(new_lines)


def convert_module(path: Path, cls_name: str) -> list[str]:
    src = path.read_text()
    tree = ast.parse(src)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name)
    methods = [f for f in cls.body if isinstance(f, ast.FunctionDef)]
    names = [f.name for f in methods]
    notes = []
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    for n in names:
        if n in top:
            notes.append(f"{path.name}: a module-level name {n} exists already")
    lines = src.splitlines(keepends=True)
    start = cls.lineno - 1 - len(cls.decorator_list)
    end = cls.end_lineno
    first = methods[0].lineno - 1 - len(methods[0].decorator_list) if methods else end
    # keep comments/blank lines between the class docstring and the first method
    body = textwrap.dedent("".join(lines[first:end]))
    before = body
    for f in methods:
        for d in f.decorator_list:
            notes.append(f"{path.name}:{f.lineno}: decorator {ast.unparse(d)} on {f.name}")
    if "super()" in body:
        notes.append(f"{path.name}: super() in {cls_name}")
    body = re.sub(r"^def (\w+)\(self\b", r"def \1(cx", body, flags=re.M)
    body = re.sub(r"^(\s+)def (\w+)\(self\b", r"\1def \2(cx", body, flags=re.M)
    own = "|".join(sorted(names, key=len, reverse=True))
    body = re.sub(rf"\bself\.({own})\(\s*\)", r"\1(cx)", body)
    body = re.sub(rf"\bself\.({own})\(", r"\1(cx, ", body)
    for m in re.finditer(rf"\bself\.({own})\b(?!\()", body):
        notes.append(f"{path.name}: self.{m.group(1)} used as a value")
    body = re.sub(r"\bself\b", "cx", body)
    body = realign(before, body)
    body = re.sub(r"\n\n(?=(@|def ))", "\n\n\n", body)
    doc = ast.get_docstring(cls)
    head = ""
    if doc and "mixin" not in doc.lower().split(".")[0] or doc and len(doc.split()) > 6:
        head = "".join(f"# {line}\n".replace("# \n", "#\n") for line in doc.splitlines())
        notes.append(f"{path.name}: class docstring kept as a comment; move it to the module docstring")
    out = "".join(lines[:start]) + head + body + "".join(lines[end:])
    path.write_text(out)
    return names, notes


def drop_class_import(src: str, module: str, cls: str) -> str:
    """`from script.frontend.MODULE import CLASS, X` -> `... import X` plus a module import;
    CLASS out of FunctionLowering's bases."""
    def repl(m):
        rest = [n.strip() for n in m.group(1).split(",") if n.strip() and n.strip() != cls]
        line = f"from script.frontend import {module}\n"
        return (f"from script.frontend.{module} import {', '.join(rest)}\n" + line) if rest else line
    src = re.sub(rf"^from script\.frontend\.{module} import ([^\n(]*\b{cls}\b[^\n]*)\n", repl, src,
                 flags=re.M)
    src = re.sub(rf"(class FunctionLowering\([^)]*?)\b{cls}, ", r"\1", src, flags=re.S)
    src = re.sub(rf"(class FunctionLowering\([^)]*?), {cls}\b", r"\1", src, flags=re.S)
    return src


def rewrite_callers(module: str, names: list[str], cls: str) -> list[str]:
    notes = []
    own = "|".join(sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"\b(self|cx)\.({own})\(")
    value_use = re.compile(rf"\b(self|cx)\.({own})\b(?!\()")
    for path in sorted(SCRIPT.rglob("*.py")):
        if path == FRONTEND / f"{module}.py":
            continue
        src = path.read_text()
        new = drop_class_import(src, module, cls)
        new = re.sub(rf"\b(self|cx)\.({own})\(\s*\)", rf"{module}.\2(\1)", new)
        new = pattern.sub(rf"{module}.\2(\1, ", new)
        # a comment that only said where the method was defined
        new = re.sub(rf"({module}\.\w+\(.*?)\s+# {module}\.py\n", r"\1\n", new)
        new = realign(src, new) if src.count("\n") == new.count("\n") else new
        for m in value_use.finditer(new):
            line = new.count("\n", 0, m.start()) + 1
            notes.append(f"{path.relative_to(SCRIPT.parent)}:{line}: {m.group(0)} used as a value")
        if new == src:
            continue
        imp = f"from script.frontend import {module}\n"
        if imp not in new and not re.search(rf"^from script\.frontend import .*\b{module}\b", new, re.M):
            tree = ast.parse(src)
            last = max((n.end_lineno for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))),
                       default=0)
            lines = new.splitlines(keepends=True)
            lines.insert(last, imp)
            new = "".join(lines)
            if re.search(rf"\b{module}\s*=|\bfor {module}\b|\({module}\b|, {module}\b", src):
                notes.append(f"{path.relative_to(SCRIPT.parent)}: the name {module} may be shadowed")
        path.write_text(new)
        notes.append(f"rewrote {path.relative_to(SCRIPT.parent)}")
    return notes


def main(argv) -> int:
    module, cls = argv
    names, notes = convert_module(FRONTEND / f"{module}.py", cls)
    notes += rewrite_callers(module, names, cls)
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
