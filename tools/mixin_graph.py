"""What each base class of `FunctionLowering` defines, uses and is used by.

Issue 19 (point 3) turns the mixins of `script/frontend/lower_stmt.FunctionLowering` into
modules of free functions over an explicit context. This script reads the frontend's source
(no import) and prints, for each mixin class:

- its methods and the fields it assigns on `self`;
- the other mixins whose methods or fields it reaches through `self` (its dependencies);
- the mixins and free functions that call its methods through `self` or through a
  context object (`cx.name(...)`, `self.name(...)`): its callers;
- names it reads through `getattr(self, ...)`/`hasattr(self, ...)` (dynamic dispatch and
  lazily created state, which a conversion has to make explicit).

Then an order to convert them in, leaves first (a mixin whose own methods no other mixin
calls through `self` can become free functions without touching any other mixin), and the
groups that depend on each other in a cycle.

Usage: python tools/mixin_graph.py [--brief] [--json] [CLASS ...]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from pathlib import Path

FRONTEND = Path(__file__).resolve().parent.parent / "script" / "frontend"
ROOT_CLASS = "FunctionLowering"


def parse_frontend() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(FRONTEND.glob("*.py"))}


def find_classes(modules: dict[str, ast.Module]) -> dict[str, tuple[str, ast.ClassDef]]:
    found = {}
    for mod, tree in modules.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = (mod, node)
    return found


def mixins_of(classes, name: str) -> list[str]:
    """The classes of the frontend `name` inherits from, in MRO-ish order (depth first)."""
    seen: list[str] = []

    def visit(cls: str) -> None:
        if cls not in classes:
            return
        for b in classes[cls][1].bases:
            base = b.id if isinstance(b, ast.Name) else None
            if base in classes and base not in seen:
                seen.append(base)
                visit(base)
    visit(name)
    return seen


def self_uses(fn: ast.AST, selfname: str = "self"):
    """(attributes read or called on `selfname`, attributes assigned, dynamic lookups)."""
    used, assigned, dynamic = set(), set(), set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == selfname:
            (assigned if isinstance(node.ctx, ast.Store) else used).add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr") and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == selfname:
            arg = node.args[1] if len(node.args) > 1 else None
            if isinstance(arg, ast.Constant):
                dynamic.add(f"{node.func.id}:{arg.value}")
            else:
                dynamic.add(f"{node.func.id}:<computed {ast.unparse(arg)[:40]}>")
    return used, assigned, dynamic


def analyse(modules, classes):
    mixins = mixins_of(classes, ROOT_CLASS)
    owner: dict[str, str] = {}          # method or field -> defining class
    info = {}
    for cls in [ROOT_CLASS] + mixins:
        mod, node = classes[cls]
        methods = [f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        used, assigned, dynamic = set(), set(), set()
        for f in node.body:
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                u, a, d = self_uses(f)
                used |= u
                assigned |= a
                dynamic |= d
        info[cls] = {"module": mod, "methods": methods, "used": used, "assigned": assigned,
                     "dynamic": sorted(dynamic), "bases": [ast.unparse(b) for b in node.bases]}
        for m in methods:
            owner.setdefault(m, cls)
    # fields: the first class (FunctionLowering's __init__ first) that assigns them
    for cls in [ROOT_CLASS] + mixins:
        for a in info[cls]["assigned"]:
            owner.setdefault(a, cls)
    # free functions anywhere in the frontend that take the lowering as their first argument
    callers_free: dict[str, set[str]] = defaultdict(set)
    for mod, tree in modules.items():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.args.args:
                first = node.args.args[0].arg
                if first in ("self", "cx", "lowering", "fl", "low"):
                    u, _, _ = self_uses(node, first)
                    for name in u:
                        if name in owner:
                            callers_free[owner[name]].add(f"{mod}.{node.name}")
    deps: dict[str, dict[str, set[str]]] = {}
    for cls in [ROOT_CLASS] + mixins:
        d = defaultdict(set)
        for name in info[cls]["used"] | info[cls]["assigned"]:
            o = owner.get(name)
            if o is not None and o != cls:
                d[o].add(name)
        deps[cls] = d
    users: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for cls, d in deps.items():
        for o, names in d.items():
            users[o][cls] |= names
    return mixins, info, owner, deps, users, callers_free


def sccs(nodes, edges):
    """Tarjan's strongly connected components; edges: node -> iterable of nodes."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            strong(v)
    return out          # reverse topological: dependencies come first


def import_edges(package: Path = FRONTEND.parent) -> set[tuple[str, str]]:
    """Edges module -> module among the files of `script/`, imports in function bodies too."""
    edges = set()
    files = {p: ".".join(("script",) + p.relative_to(package).with_suffix("").parts)
             for p in package.rglob("*.py")}
    names = {m.removesuffix(".__init__") for m in files.values()}
    for path, mod in files.items():
        mod = mod.removesuffix(".__init__")
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for t in targets:
                while t and t not in names:
                    t = t.rpartition(".")[0]
                if t and t != mod and t.startswith("script"):
                    edges.add((mod, t))
    return edges


def cycle_edges(edges: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The edges whose two ends lie in one strongly connected component."""
    graph = defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
    comp_of = {}
    for i, comp in enumerate(sccs(sorted({x for e in edges for x in e}), graph)):
        for m in comp:
            comp_of[m] = i
    return {(a, b) for a, b in edges if comp_of[a] == comp_of[b]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("classes", nargs="*", help="only these mixins (default: all)")
    ap.add_argument("--brief", action="store_true", help="one line per mixin")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cycles", metavar="FILE", help="write the import edges that lie on a cycle "
                    "to FILE, or, when FILE exists, print the ones not in it (new cycle edges)")
    args = ap.parse_args(argv)
    if args.cycles:
        now = cycle_edges(import_edges())
        path = Path(args.cycles)
        if not path.exists():
            path.write_text("".join(f"{a} {b}\n" for a, b in sorted(now)))
            print(f"{len(now)} cycle edges written to {path}")
            return 0
        before = {tuple(line.split()) for line in path.read_text().splitlines() if line.strip()}
        new = sorted(now - before)
        for a, b in new:
            print(f"new cycle edge: {a} -> {b}")
        print(f"{len(now)} cycle edges now, {len(before)} before, {len(new)} new, "
              f"{len(before - now)} gone")
        return 1 if new else 0
    modules = parse_frontend()
    classes = find_classes(modules)
    if ROOT_CLASS not in classes:
        print(f"{ROOT_CLASS} not found", file=sys.stderr)
        return 1
    mixins, info, owner, deps, users, callers_free = analyse(modules, classes)
    root_bases = info[ROOT_CLASS]["bases"]
    chosen = args.classes or mixins
    if args.json:
        out = {c: {"module": info[c]["module"], "methods": info[c]["methods"],
                   "fields": sorted(info[c]["assigned"]),
                   "uses": {o: sorted(n) for o, n in deps[c].items()},
                   "used_by": {o: sorted(n) for o, n in users[c].items()},
                   "free_callers": sorted(callers_free[c]), "dynamic": info[c]["dynamic"]}
               for c in chosen}
        print(json.dumps(out, indent=1))
        return 0
    print(f"{ROOT_CLASS}: {len(root_bases)} direct bases, {len(mixins)} mixin classes in all, "
          f"{sum(len(info[c]['methods']) for c in [ROOT_CLASS] + mixins)} methods, "
          f"{len({a for c in [ROOT_CLASS] + mixins for a in info[c]['assigned']})} fields")
    for c in chosen:
        i = info[c]
        mine_used_by = {o: n for o, n in users[c].items() if o != ROOT_CLASS}
        if args.brief:
            print(f"{c:28} {i['module']:22} methods {len(i['methods']):3}  uses {len(deps[c]):2} mixins  "
                  f"used by {len(mine_used_by):2} mixins, {len(callers_free[c]):2} free functions"
                  + (f"  dynamic {','.join(i['dynamic'])}" if i["dynamic"] else ""))
            continue
        print(f"\n== {c} ({i['module']}.py; bases {', '.join(i['bases']) or '-'})")
        print(f"  methods ({len(i['methods'])}): {', '.join(i['methods'])}")
        own_fields = sorted(a for a in i["assigned"] if owner.get(a) == c)
        if own_fields:
            print(f"  fields it creates: {', '.join(own_fields)}")
        if i["dynamic"]:
            print(f"  dynamic: {', '.join(i['dynamic'])}")
        for o, names in sorted(deps[c].items(), key=lambda kv: -len(kv[1])):
            print(f"  uses {o} ({info[o]['module']}): {', '.join(sorted(names))}")
        for o, names in sorted(users[c].items(), key=lambda kv: -len(kv[1])):
            print(f"  used by {o}: {', '.join(sorted(names))}")
        if callers_free[c]:
            print(f"  free functions using it: {', '.join(sorted(callers_free[c]))}")
    # order: dependencies among mixins by *method calls* into them (field reads count too)
    edges = {c: [o for o in deps[c] if o in mixins] for c in mixins}
    comps = sccs(mixins, edges)
    print("\n== conversion order (dependencies first; a group in [] uses itself in a cycle)")
    for comp in comps:
        label = comp[0] if len(comp) == 1 else "[" + ", ".join(comp) + "]"
        n_users = len({u for c in comp for u in users[c] if u not in comp and u != ROOT_CLASS})
        print(f"  {label}  (used by {n_users} other mixins)")
    leaves = [c for c in mixins if not any(c in deps[o] for o in mixins if o != c)]
    print("\n== mixins no other mixin reaches through self (convertible alone):")
    print("  " + ", ".join(leaves))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
