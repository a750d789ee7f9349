"""Module-level lists, dicts and sets that the module's functions write: live parameters.

A global container is a constant of compiled code (copied when the function is compiled),
except one that some function of its module writes: a memo table (``memo[n] = r``), a list
of results (``solutions.append(board)``), a set of seen nodes. CPython's answer depends on
the writes being seen by the next call and by Python, so such a global is a *hidden
parameter* of every module-level function that reads or writes it, directly or through the
module's functions it calls::

    memo = {0: 0, 1: 1}
    def fib(n):                       # compiled as  def fib(n, *, memo)
        if n not in memo:
            memo[n] = fib(n - 1) + fib(n - 2)   # the call passes its own `memo` on
        return memo[n]

The dispatcher passes the global's current object on every call from Python, typed like an
argument (an empty dict's types are guessed as an empty argument's are), and the entry point
writes the object back after the call as it does a written argument
(backend.runtime.list_reflect, table_reflect); a call from compiled code passes the caller's
own (`FunctionLowering.call_script`), which has it as a hidden parameter too, since callers'
sets include their callees'.

A module-level bool, int, float or str that a function rebinds (`global count; count += 1`)
is a hidden parameter too, in a *cell*: a one-item list named ``$global:count``, to whose
item 0 the function's reads and writes of the name are rewritten (`cell_rewrite`); the
dispatcher stores the item back into the module after the call.

What is read is syntax, once per file: which module-level names hold a list, dict or set
or a scalar (the module's globals as they are now, and the module-level displays and
constants), which of them any function of the file writes (a store or `del` of an item or
slice, an augmented assignment of an item, a call of a method or of a heapq/bisect/shuffle
function that changes the container, a `global` rebinding of a scalar), and which
module-level functions each function reads and calls by name. A container that a function
rebinds (`global memo; memo = {}`) keeps today's rule: its `global` declaration is not
compiled.
"""

from __future__ import annotations

import ast
import functools
import inspect
import types

MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",  # list
    "update", "setdefault", "popitem",                                         # dict
    "add", "discard", "difference_update", "intersection_update",              # set
    "symmetric_difference_update"})
MUTATING_FUNCTIONS = frozenset({"heappush", "heappop", "heapify", "heappushpop", "heapreplace",
                                "insort", "insort_left", "insort_right", "shuffle"})    # of their first argument
CONTAINERS = (list, dict, set)
SCALARS = (bool, int, float, str)
CELL = "$global:"      # the parameter of a rebound scalar global: its cell, a one-item list

_files: dict = {}       # filename -> (source text, {def name: frozenset of hidden names})


def hidden_globals(py_func, node: ast.FunctionDef) -> tuple[str, ...]:
    """The hidden parameters of `py_func` (a module-level function, `node` its def): the
    written module containers and the cells (`CELL` + name) of the rebound scalars it uses,
    in a fixed order; () for any other function."""
    if "." in py_func.__qualname__ or py_func.__closure__ or node.name != py_func.__name__ \
            or (py_func.__module__ or "").startswith("script.") or _in_stdlib(py_func):
        return ()       # the library's own and the standard library's: their globals are constants
    try:
        lines, _ = inspect.findsource(py_func)
    except (OSError, TypeError):
        return ()
    text = "".join(lines)
    filename = py_func.__code__.co_filename
    cached = _files.get(filename)
    # (again when a name the module binds twice has been bound since: its value's type was
    # not known when an earlier function of the file was compiled)
    if cached is None or cached[0] != text or cached[2] != _bound(cached[3], py_func.__globals__):
        hidden, again = _analyse(text, py_func.__globals__)
        cached = _files[filename] = (text, hidden, _bound(again, py_func.__globals__), again)
    return cached[1].get(node.name, ())


def module_rebinds(py_func) -> set[str]:
    """The names the module-level statements of `py_func`'s file bind more than once
    (`_module_rebinds`); none when its source cannot be read."""
    filename = py_func.__code__.co_filename
    cached = _files.get(filename)
    if cached is not None:
        return cached[3]
    try:
        return _module_rebinds(ast.parse("".join(inspect.findsource(py_func)[0])))
    except (OSError, TypeError, SyntaxError):
        return set()


def _bound(names: set, module_globals: dict) -> frozenset:
    return frozenset(n for n in names if n in module_globals)


def _in_stdlib(py_func) -> bool:
    filename = py_func.__code__.co_filename
    return filename.startswith(_stdlib() + "/") and "-packages" not in filename


@functools.cache
def _stdlib() -> str:
    import sysconfig
    return sysconfig.get_paths()["stdlib"]


def hidden_of(py_func, name: str) -> tuple[str, ...]:
    """The hidden parameters of the module-level function `name` of `py_func`'s file (a
    nested function calling it reads them from the function it is nested in: closures.py)."""
    cached = _files.get(py_func.__code__.co_filename)
    return cached[1].get(name, ()) if cached is not None else ()


def strip_global_declarations(node: ast.FunctionDef, names: tuple[str, ...]) -> None:
    """Drop `global` declarations of hidden parameters only (`global memo` before
    `memo[n] = r`, which Python does not need): the name is the parameter's."""
    for n in ast.walk(node):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(n, field, None)
            if isinstance(body, list) and any(isinstance(s, ast.Global) for s in body):
                kept = [s for s in body if not (isinstance(s, ast.Global) and set(s.names) <= set(names))]
                body[:] = kept or [ast.copy_location(ast.Pass(), body[0])]


def _analyse(text: str, module_globals: dict) -> tuple[dict, set[str]]:
    """(def name -> the hidden parameters it takes: the written containers and the cells of
    the rebound scalars (`CELL` + name) it reads, writes or reaches by calls; the names the
    module's statements bind again)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}, set()
    again = _module_rebinds(tree)       # `N = 20` after a call compiled with `N = 10`
    containers = {n for n, v in module_globals.items() if type(v) in CONTAINERS} | _displayed(tree)
    scalars = {n for n, v in module_globals.items() if type(v) in SCALARS} | _constants(tree)
    defs = {}
    for stmt in _module_statements(tree.body):
        if isinstance(stmt, ast.FunctionDef):
            defs[stmt.name] = stmt      # the last def of a name is the module's function
    written: set[str] = set()
    rebound: set[str] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            w, r = _writes(fn, containers | scalars)
            written |= w
            rebound |= r
    values = {n for n in again if _passed_as_is(module_globals.get(n))} | again & _displayed(tree, (ast.Tuple,))
    live = (written - rebound) & containers | (again & containers | values) - rebound
    cells = (rebound | again) & scalars - containers
    if not live and not cells:
        return {}, again
    loads = {name: _loads(fn) for name, fn in defs.items()}
    direct = {name: loads[name] & live | {CELL + n for n in (loads[name] | _declared(fn)) & cells}
              for name, fn in defs.items()}
    calls = {name: loads[name] & defs.keys() for name in defs}
    changed = True
    while changed:                      # callers take what their callees take
        changed = False
        for name in defs:
            grown = direct[name].union(*(direct[c] for c in calls[name]))
            if grown != direct[name]:
                direct[name], changed = grown, True
    return {name: tuple(sorted(names)) for name, names in direct.items() if names}, again


def _passed_as_is(value) -> bool:
    """Whether a global bound again at module level is passed to compiled code as an argument
    is (a tuple, a Fraction, an instance of a user's class) rather than kept as a constant."""
    cls = type(value)
    if cls is tuple or (cls.__module__, cls.__name__) == ("fractions", "Fraction"):
        return True
    return cls.__module__ not in ("builtins", "numpy") and hasattr(value, "__dict__") and \
        not isinstance(value, (type, types.ModuleType, types.FunctionType, functools.partial))


def _module_rebinds(tree: ast.Module) -> set[str]:
    """Names the module's own statements bind more than once: assigned twice, augmented, or
    bound inside a module-level loop or as its target. A function compiled at its first call
    would otherwise keep the value the name had then as a constant, where CPython reads the
    name's value at each call (`N = 10; print(f()); N = 20; print(f())`)."""
    counts: dict[str, int] = {}

    def bind(target, weight: int) -> None:
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + weight

    def visit(body: list, looped: bool) -> None:
        weight = 2 if looped else 1
        for stmt in body:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    bind(target, weight)
            elif isinstance(stmt, ast.AugAssign):
                bind(stmt.target, 2)
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                bind(stmt.target, weight)
            elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                bind(stmt.target, 2)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        bind(item.optional_vars, weight)
            loop = looped or isinstance(stmt, (ast.For, ast.AsyncFor, ast.While))
            if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(stmt, field, []), loop)
                for handler in getattr(stmt, "handlers", []):
                    visit(handler.body, loop)

    visit(tree.body, False)
    return {name for name, count in counts.items() if count > 1}


def _displayed(tree: ast.Module, kinds: tuple = ()) -> set[str]:
    """Names a module-level statement binds to a list, dict or set display or comprehension, or
    to a call of list/dict/set (a function decorated before the module has run them); with
    `kinds`, to a display of those ast classes only."""
    out = set()
    for stmt in _module_statements(tree.body):
        value = getattr(stmt, "value", None)
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign) and value is not None:
            targets = [stmt.target]
        else:
            continue
        if kinds:
            if isinstance(value, kinds):
                out |= {t.id for t in targets if isinstance(t, ast.Name)}
            continue
        if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)) or \
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "dict", "set"):
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def _constants(tree: ast.Module) -> set[str]:
    """Names a module-level statement binds to a number or str constant (`count = 0`)."""
    out = set()
    for stmt in _module_statements(tree.body):
        value = stmt.value.operand if isinstance(getattr(stmt, "value", None), ast.UnaryOp) else getattr(stmt, "value", None)
        if isinstance(stmt, ast.Assign) and isinstance(value, ast.Constant) and type(value.value) in SCALARS:
            out |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    return out


def _declared(fn) -> set[str]:
    """The names `fn` declares `global`."""
    return {name for n in ast.walk(fn) if isinstance(n, ast.Global) for name in n.names}


def shadowed_cells(node: ast.FunctionDef, hidden: tuple[str, ...]) -> list[str]:
    """The rebound globals of `hidden` that a function, lambda or comprehension nested in
    `node` also binds (a parameter, an assignment, a `for` target): there the name is that
    scope's own, which `cell_rewrite` cannot tell apart (callers refuse them)."""
    cells = {name[len(CELL):] for name in hidden if name.startswith(CELL)}
    bound = set()
    for n in ast.walk(node):
        if n is node or not isinstance(n, _SCOPES):
            continue
        if not isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            bound |= {a.arg for a in ast.walk(n.args) if isinstance(a, ast.arg)}
        bound |= {x.id for x in ast.walk(n) if isinstance(x, ast.Name) and isinstance(x.ctx, (ast.Store, ast.Del))}
    return sorted(cells & bound)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)


def cell_rewrite(node: ast.FunctionDef, hidden: tuple[str, ...]) -> None:
    """Make each rebound global `g` of `hidden` (``$global:g``) the item 0 of its cell,
    a one-item list parameter: ``count += 1`` is ``$global:count[0] += 1``; its `global`
    declarations go."""
    cells = {name[len(CELL):]: name for name in hidden if name.startswith(CELL)}
    if not cells:
        return

    class Cells(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id not in cells:
                return n
            cell = ast.copy_location(ast.Name(cells[n.id], ast.Load()), n)
            return ast.copy_location(ast.Subscript(cell, ast.copy_location(ast.Constant(0), n), n.ctx), n)

        def visit_Global(self, n):
            rest = [name for name in n.names if name not in cells]
            return ast.copy_location(ast.Global(rest) if rest else ast.Pass(), n)

    node.body = [Cells().visit(stmt) for stmt in node.body]


def _module_statements(body: list):
    """The statements run at module level: the body, and the bodies of its `if`/`try`."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _module_statements(stmt.body + stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from _module_statements(stmt.body + stmt.orelse + stmt.finalbody)


def _local_names(fn) -> set[str]:
    """`fn`'s parameters and the names it assigns (a `global` declaration's excepted)."""
    args = fn.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    declared = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Global):
            declared.update(n.names)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not fn:
            names.add(n.name)
        elif isinstance(n, ast.alias):
            names.add((n.asname or n.name).split(".")[0])
    return names - declared


def _writes(fn, containers: set[str]) -> tuple[set[str], set[str]]:
    """(global containers `fn` writes in place, those it rebinds with a `global` declaration).
    Nested functions are walked as part of `fn` (a name they do not assign is `fn`'s)."""
    local = _local_names(fn)
    declared = _declared(fn)
    written, rebound = set(), set()
    for n in ast.walk(fn):
        base = None
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)):
            base = n.value
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Subscript):
            base = n.target.value
        elif isinstance(n, ast.Call) and n.args and _called_name(n.func) in MUTATING_FUNCTIONS:
            base = n.args[0]            # heapq.heappush(heap, x), bisect.insort(xs, x), shuffle(xs)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATING_METHODS:
            base = n.func.value
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id in declared:
            rebound.add(n.id)
        while isinstance(base, ast.Subscript):      # (`grid[i][j] = v`, `rows[i].append(x)`: its rows)
            base = base.value
        if isinstance(base, ast.Name) and base.id in containers and base.id not in local:
            written.add(base.id)
    return written, rebound & containers


def _called_name(func) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _loads(fn) -> set[str]:
    """The names `fn` (nested scopes included) reads, less its own locals."""
    return {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - _local_names(fn)
