"""A defaultdict or Counter passed to another compiled function keeps its default there.

    def count(word):
        c = Counter(word)
        return helper(c, "z")      # helper's c["z"] is 0, as in CPython

    def helper(c, k):
        return c[k]

A special dict is a plain dict (`T.DictType`) in compiled code; its default belongs to the
name that holds it (default_tables.py). So a call whose argument names (or makes) such a
dict compiles the callee as a variant whose parameter starts with the same default, as a
nested function's free variables do (`free_defaults`, closures.share_table_defaults). The
variant is cached per (callee, defaults), so a recursive helper passing the table on reuses
itself.

A defaultdict's factory is an expression of the caller's source, evaluated in the callee:
it is passed only when every name it reads means the same object there (`int`, `list`, a
module-level function, `lambda: defaultdict(int)`); a factory reading the caller's local
names is a CompileError at the call, never a dict that raises KeyError where CPython
inserts.
"""

from __future__ import annotations

import ast
import builtins

from script.frontend.source import FunctionInfo
from script.ir import types as T

MISSING = object()


def argument_defaults(low, info: FunctionInfo, node: ast.Call, before: int) -> dict:
    """{parameter name: (kind, factory node)} for the arguments of `node` that name or make a
    defaultdict or Counter; `before`: how many arguments come ahead of the call's own."""
    if not isinstance(node, ast.Call):
        return {}
    names = info.param_names
    n_positional = getattr(info, "n_positional", len(names))
    found = {}
    for k, arg in enumerate(node.args):
        if isinstance(arg, ast.Starred) or before + k >= n_positional:
            break
        found[names[before + k]] = low.table_default_of(arg)
    for kw in node.keywords:
        if kw.arg in names:
            found[kw.arg] = low.table_default_of(kw.value)
    return {n: d for n, d in found.items() if d is not None}


def with_defaults(low, info: FunctionInfo, defaults: dict, node) -> FunctionInfo:
    """`info`, or its variant whose parameters in `defaults` (those it still has after
    static binding) read missing keys as the caller's table does."""
    from script.frontend.static_args import BoundFunctionInfo
    defaults = {n: d for n, d in defaults.items() if n in info.param_names}
    if not defaults:
        return info
    for name, (kind, factory) in defaults.items():
        if factory is not None and not _portable(low, factory, info):
            low.error(f"a {kind} whose factory reads names of this function cannot be passed to "
                      f"{info.name}() in compiled code (argument '{name}'): use a module-level factory", node)
    own = dict(getattr(info, "free_defaults", None) or {})
    merged = {**own, **defaults}
    if _key(merged) == _key(own):
        return info
    key = (info, ("table_defaults", _key(merged)))
    entry = low.ctx.bound_infos.get(key)
    if entry is None:
        variant = BoundFunctionInfo(info, {}, [], "defaults_" + "_".join(sorted(defaults)))
        variant.free_defaults = merged
        entry = low.ctx.bound_infos[key] = (variant, info)
    return entry[0]


def _key(defaults: dict) -> tuple:
    return tuple(sorted((n, kind, ast.dump(f) if f is not None else None) for n, (kind, f) in defaults.items()))


def _portable(low, factory: ast.expr, callee: FunctionInfo) -> bool:
    """Whether every name `factory` reads means the same object in the caller and in `callee`
    (module globals or builtins, no local of either)."""
    params = {a.arg for n in ast.walk(factory) if isinstance(n, ast.Lambda) for a in n.args.args}
    for n in ast.walk(factory):
        if not isinstance(n, ast.Name) or n.id in params:
            continue
        if n.id in low.locals or n.id in low.nested_functions or n.id in callee.local_names:
            return False
        mine, theirs = global_object(low.info, n.id), global_object(callee, n.id)
        if mine is MISSING or mine is not theirs:
            return False
    return True


def global_object(info: FunctionInfo, name: str):
    found, obj = info.global_value(name)
    if found:
        return obj
    return getattr(builtins, name, MISSING)


# ---- returned tables ---------------------------------------------------------------------


def note_return(low, node: ast.Return) -> None:
    """Record on the function being built what its `return` gives: a defaultdict or Counter
    (kind, factory node), or None, with the line (`returned_default`)."""
    if node.value is None:
        return
    low.func.__dict__.setdefault("returned_tables", []).append((low.table_default_of(node.value), low.loc(node)))


def returned_default(low, info: FunctionInfo, callee, node: ast.Call) -> None:
    """A call of `callee` (built from `info`) whose every return gives a defaultdict or
    Counter gives one to the caller too: `c = count(xs)` then `c[k]` reads a missing key as
    CPython does. Returns that mix special and plain dicts are a CompileError."""
    returns = getattr(callee, "returned_tables", ())
    if not any(d is not None for d, _ in returns):
        return
    kinds = {_key({"": d}) if d is not None else None for d, _ in returns}
    kind, factory = next(d for d, _ in returns if d is not None)
    if len(kinds) > 1:
        low.error(f"{info.name}() returns a {kind} on some paths and another value on others: not supported "
                  "in compiled code (the caller could not tell how missing keys read)", node)
    if factory is not None and not _portable(low, factory, info):
        low.error(f"{info.name}() returns a {kind} whose factory reads its own local names: not supported "
                  "in compiled code (use a module-level factory)", node)
    low.table_defaults.calls[id(node)] = (kind, factory)



# ---- two Counters meeting ----------------------------------------------------------------


def is_counter(low, node: ast.expr) -> bool:
    """Whether expression `node` is a known Counter (default_tables.table_default_of)."""
    return (low.table_default_of(node) or ("",))[0] == "Counter"


def both_counters(low, left: ast.expr, right: ast.expr) -> bool:
    """Whether the expressions `left` and `right` are both known Counters (`a | b` is then
    Counter's union, not a dict merge; `a == b` counts a missing key as zero)."""
    return is_counter(low, left) and is_counter(low, right)


def operands(node) -> tuple | None:
    """The two operand expressions of a binary operation, augmented assignment or single
    comparison; None for anything else."""
    if isinstance(node, ast.BinOp):
        return node.left, node.right
    if isinstance(node, ast.AugAssign):
        return node.target, node.value
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return node.left, node.comparators[0]
    return None


def counter_operands(low, op: type, a, b, node) -> bool:
    """Whether `a op b` is `+`, `-`, `|` or `&` of two known Counters (plain dicts have no `+`
    and `&`, and their `|` is a merge): default_tables.counter_binop then computes it."""
    pair = operands(node)
    return op in (ast.Add, ast.Sub, ast.BitOr, ast.BitAnd) and pair is not None and \
        isinstance(getattr(a, "type", None), T.DictType) and a.type == b.type and both_counters(low, *pair)
