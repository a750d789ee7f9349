"""No import cycle between the files of `script/` (DESIGN.md, "Target layout").

The graph is read from the source with `ast`, so every import counts: those at the top of a
module and those inside function bodies (a lazy import keeps `import script` light, but it
may not close a cycle). An edge goes from a module to the module it names:

- ``import a.b.c`` and ``from a.b import c`` (c a submodule) name ``a.b.c``;
- ``from a.b import name`` (name not a submodule) names the package or module ``a.b``, so
  ``from script import __version__`` is an edge to the package's ``__init__``;
- the import of a package's ``__init__`` that Python makes on the way to a submodule is not
  an edge: ``import script.ir.core`` runs ``script/__init__.py`` first, but only an explicit
  ``import script`` / ``from script import x`` depends on what it defines.

There is no allowance: a lower module that calls a higher one is handed the function, or
what both need is in a leaf below them (docs/architecture.md, "Where the code departs", says
how the layers stand).

    python tests/test_import_graph.py      # prints every cycle's files and edges
"""

from __future__ import annotations

import ast
import functools
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "script")


def module_files(root: str = ROOT) -> dict[str, str]:
    """Dotted module name -> path, for every .py file under `root` (the package `script`)."""
    top = os.path.dirname(os.path.abspath(root))
    mods = {}
    for directory, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            mod = os.path.relpath(path, top)[:-3].replace(os.sep, ".")
            mods[mod[:-len(".__init__")] if mod.endswith(".__init__") else mod] = path
    return mods


def _known(name: str, mods) -> str | None:
    """`name`, or the nearest enclosing module of the package that exists."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@functools.cache
def import_graph(root: str = ROOT) -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first import naming it}. Parsed once a
    process (~230 files: seconds); not to be changed by callers."""
    mods = module_files(root)
    graph: dict[str, dict[str, int]] = {m: {} for m in mods}
    for mod, path in mods.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [_known(alias.name, mods) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in mods else _known(base, mods))
            for target in targets:
                if target is not None and target != mod:
                    graph[mod].setdefault(target, node.lineno)
    return graph


def cycles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def without(graph, edges) -> dict[str, dict[str, int]]:
    """`graph` less `edges` ((importer, imported) pairs of full module names)."""
    return {m: {t: line for t, line in targets.items() if (m, t) not in edges}
            for m, targets in graph.items()}


def describe(graph, component) -> str:
    members = set(component)
    lines = [f"cycle of {len(component)} modules:"]
    for m in component:
        for t, line in sorted(graph[m].items()):
            if t in members:
                lines.append(f"  {m} -> {t}  (line {line})")
    return "\n".join(lines)


def test_no_import_cycle():
    graph = import_graph()
    left = cycles(graph)
    assert not left, "import cycles:\n" + "\n".join(describe(graph, c) for c in left)


def test_the_graph_has_lazy_imports_and_names_the_package():
    """Imports inside functions are edges (a cycle through them would otherwise go unseen);
    ``from script import name`` is an edge to the package, ``import script.x`` is not."""
    graph = import_graph()
    assert "script.backend.runtime.parallel" in graph["script"]       # inside set_num_threads
    assert "script.store" in graph["script.cli"]                      # inside version()
    assert "script" not in graph["script.store"]


def test_the_backend_imports_only_ir_errors_and_the_store():
    graph = import_graph()
    for mod, targets in graph.items():
        if mod.startswith("script.backend"):
            outside = [t for t in targets if not t.startswith(("script.backend", "script.ir"))
                       and t not in ("script.errors", "script.store")]
            assert not outside, f"{mod} imports {outside}"


def test_the_store_is_a_leaf():
    assert import_graph()["script.store"] == {}


def minimal_cut(graph, component) -> list[tuple[str, str]]:
    """Edges inside `component` whose removal leaves it acyclic, none removable from the
    set: the back edges of a DFS in sorted order, then each put back where that stays
    acyclic: the edges to break first, printed below."""
    members = set(component)
    sub = {m: {t: l for t, l in graph[m].items() if t in members} for m in component}
    cut, state = [], {}

    def visit(v):
        state[v] = 1
        for w in sorted(sub[v]):
            if state.get(w) == 1:
                cut.append((v, w))
            elif w not in state:
                visit(w)
        state[v] = 2

    sys.setrecursionlimit(10000)
    for v in sorted(sub):
        if v not in state:
            visit(v)
    kept = set(cut)
    for edge in list(cut):
        if not cycles(without(sub, kept - {edge})):
            kept.discard(edge)
    return sorted(kept)


if __name__ == "__main__":
    g = import_graph()
    for comp in cycles(g):
        print(describe(g, comp))
        print("  a minimal cut:", minimal_cut(g, comp))
