"""Codemod: turn one mixin class of `FunctionLowering` into module-level free functions.

    python tools/unmix.py MODULE CLASS

In script/frontend/MODULE.py, the methods of CLASS become functions `def name(cx, ...)`
(`self.` -> `cx.`, a call of a sibling `self.name(...)` -> `name(cx, ...)`); every call
`self.name(...)`, `cx.name(...)` or `low.name(...)` of one of them elsewhere in script/
becomes `MODULE.name(self, ...)`, and such a file gets `from script.frontend import MODULE`.

A module whose new import of MODULE would close an import cycle (tests/test_import_graph.py)
keeps calling through the lowering (`cx.name(...)`): those names, and MODULE's `expr_<node>`
functions (which `lower_expr` finds by name), join `lower_stmt.CONTEXT_API`, which makes
each function a method of FunctionLowering. What it cannot rewrite (a method used as a
value, `super()`, a decorator, a class attribute, a call through another name such as
`b.name(...)`) it prints, to be done by hand; then check `git diff`, the import graph test,
and that CLASS left FunctionLowering's bases.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "script"
FRONTEND = SCRIPT / "frontend"
# The names a lowering goes by in the frontend (the mixin's `self`, a free function's `cx`,
# a registry entry's `low`).
RECEIVERS = "self|cx|low"


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
    for stmt in cls.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and getattr(stmt, "value", None) is not None:
            notes.append(f"{path.name}:{stmt.lineno}: class attribute {ast.unparse(stmt)[:60]!r} is dropped: "
                         "give the lowering the field in FunctionLowering.__init__")
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
    rest = [_rewrite_outside("".join(part), own, cls_name) for part in (lines[:start], lines[end:])]
    out = rest[0] + head + body + rest[1]
    path.write_text(out)
    return names, notes


def _rewrite_outside(text: str, own: str, cls_name: str) -> str:
    """The module's code outside the class: `CLASS.name` (a registration) is the function,
    a call through a lowering (`low.name(...)`) calls it with the lowering first."""
    text = re.sub(rf"\b{cls_name}\.({own})\b", r"\1", text)
    text = re.sub(rf"\b({RECEIVERS})\.({own})\(\s*\)", r"\2(\1)", text)
    return re.sub(rf"\b({RECEIVERS})\.({own})\(", r"\2(\1, ", text)


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
    pattern = re.compile(rf"\b({RECEIVERS})\.({own})\(")
    value_use = re.compile(rf"\b({RECEIVERS})\.({own})\b(?!\()")
    for path in sorted(SCRIPT.rglob("*.py")):
        if path == FRONTEND / f"{module}.py":
            continue
        src = path.read_text()
        new = drop_class_import(src, module, cls)
        new = re.sub(rf"\b({RECEIVERS})\.({own})\(\s*\)", rf"{module}.\2(\1)", new)
        new = pattern.sub(rf"{module}.\2(\1, ", new)
        new = re.sub(rf"\b{cls}\.({own})\b", rf"{module}.\1", new)     # a registration
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


def cycle_callers(module: str) -> set[str]:
    """The modules that import `module` and lie on an import cycle with it."""
    sys.path.insert(0, str(SCRIPT.parent / "tests"))
    import test_import_graph as graphs
    graphs.import_graph.cache_clear()
    graph = graphs.import_graph(str(SCRIPT))
    target = f"script.frontend.{module}"
    return {m for comp in graphs.cycles(graph) if target in comp for m in comp if target in graph[m]}


def through_context(module: str) -> tuple[set[str], list[str]]:
    """Callers on a cycle with `module` call its functions through the lowering again: the
    names they call, and notes."""
    names, notes = set(), []
    for _ in range(20):
        callers = cycle_callers(module)
        if not callers:
            break
        for mod in sorted(callers):
            path = SCRIPT.parent / (mod.replace(".", "/") + ".py")
            src = path.read_text()
            names |= set(re.findall(rf"(?<![\w.]){module}\.(\w+)\((?:{RECEIVERS})\b", src))
            new = re.sub(rf"(?<![\w.]){module}\.(\w+)\(({RECEIVERS})\)", r"\2.\1()", src)
            new = re.sub(rf"(?<![\w.]){module}\.(\w+)\(({RECEIVERS}), ", r"\2.\1(", new)
            if not re.search(rf"(?<![\w/.]){module}\.\w+\(", new):      # the import is unused now
                new = re.sub(rf"^from script\.frontend import {module}\n", "", new, flags=re.M)
                new = re.sub(rf"(^from script\.frontend import \(?[^\n]*?)\b{module}, ", r"\1", new, flags=re.M)
                new = re.sub(rf"(^from script\.frontend import [^\n]*?), {module}\b", r"\1", new, flags=re.M)
            path.write_text(new)
            notes.append(f"{path.relative_to(SCRIPT.parent)}: calls {module} through the lowering")
    else:
        notes.append(f"an import cycle through {module} is left: see tests/test_import_graph.py")
    return names, notes


def add_to_context_api(module: str, names: set[str]) -> None:
    """`names` of `module` into lower_stmt.CONTEXT_API (one entry per module, names sorted)."""
    path = FRONTEND / "lower_stmt.py"
    src = path.read_text()
    table = re.search(r"CONTEXT_API = \{\n(.*?)\n\}\n", src, re.S)
    entries = {m: set(re.findall(r'"(\w+)"', body))
               for m, body in re.findall(r"(\w+): \(([^)]*)\)", table.group(1), re.S)}
    entries.setdefault(module, set()).update(names)
    lines = []
    for mod in sorted(entries):
        head = f"    {mod}: ("
        text = ", ".join(f'"{n}"' for n in sorted(entries[mod]))
        comma = "," if len(entries[mod]) == 1 else ""          # a tuple of one name
        lines.append(head + ("\n" + " " * len(head)).join(textwrap.wrap(text, 104 - len(head))) + comma + "),")
    src = src[:table.start()] + "CONTEXT_API = {\n" + "\n".join(lines) + "\n}\n" + src[table.end():]
    if not re.search(rf"^from script\.frontend import \(?[^)]*?\b{module}\b", src, re.M | re.S):
        src = src.replace("from script.frontend import (", f"from script.frontend import {module}\n"
                          "from script.frontend import (", 1)
    path.write_text(src)


def shadowed(path: Path) -> list[str]:
    """Functions of `path` that call a module-level function a local of theirs shadows (a
    method's local `present` did not hide the method `present`; the function's does)."""
    tree = ast.parse(path.read_text())
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    notes = []
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        local = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        local |= {x.id for x in ast.walk(fn) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)}
        called = {x.func.id for x in ast.walk(fn) if isinstance(x, ast.Call) and isinstance(x.func, ast.Name)}
        for name in sorted(local & top & called):
            notes.append(f"{path.name}:{fn.lineno}: {fn.name} has a local '{name}' and calls the function '{name}'")
    return notes


def main(argv) -> int:
    module, cls = argv
    names, notes = convert_module(FRONTEND / f"{module}.py", cls)
    notes += shadowed(FRONTEND / f"{module}.py")
    notes += rewrite_callers(module, names, cls)
    api, more = through_context(module)
    notes += more
    tree = ast.parse((FRONTEND / f"{module}.py").read_text())
    api |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("expr_")
            and isinstance(getattr(ast, n.name[len("expr_"):], None), type)}     # expr_Dict, not expr_opt
    if api:
        add_to_context_api(module, api)
        notes.append(f"lower_stmt.CONTEXT_API: {module}: {', '.join(sorted(api))}")
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
