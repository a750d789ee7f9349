"""`collections.deque(iterable, maxlen)` in compiled code: a list (docs/lists.md) that
drops items from the other end when it grows past `maxlen`.

A deque is a list in compiled code, and a list does not carry a bound, so the bound is kept
by the variable, as a defaultdict's default is (default_tables.py): `d = deque(maxlen=n)`
records `d`'s bound (a synthetic local holding `n`), and `d.append(x)`, `d.extend(xs)`,
through that name then drop the oldest items (`d.appendleft(x)`, `d.extendleft(xs)` the
newest), and `d.insert(i, x)` of a full one raises IndexError, as CPython's deque does. A name holding a bounded deque may
not be assigned anything else; passing it to another compiled function, or returning it to
Python, is a CompileError (the list there would have no bound).
"""

from __future__ import annotations

import ast
import weakref

from script.lib.python import collectionslib
from script.ir import types as T
from script.ir.core import Const, Value

_FRONT = ("append", "extend")
_BACK = ("appendleft", "extendleft")


class DequeBounds:
    """The bounds of one function's deques (`FunctionLowering.deque_bounds`), and the deques
    its loops are iterating now (`iterated_deque`)."""

    __slots__ = ("calls", "names", "iterated")

    def __init__(self):
        self.calls: dict = {}       # id(deque call node) -> synthetic local of its maxlen
        self.names: dict = {}       # variable name -> synthetic local of its maxlen
        self.iterated: dict = {}    # name of a deque a loop iterates -> its "changed" local


def make_deque(cx, node: ast.Call) -> Value:
    """`deque()`, `deque(iterable)`, `deque(iterable, maxlen)`, `deque(maxlen=n)`."""
    kw = {k.arg: k.value for k in node.keywords}
    if set(kw) - {"iterable", "maxlen"} or len(node.args) + len(kw) > 2 or len(node.args) > 2 \
            or len(node.args) == 2 and kw:
        cx.error("deque() takes an iterable and a maxlen", node)
    source = node.args[0] if node.args else kw.get("iterable")
    bound = node.args[1] if len(node.args) > 1 else kw.get("maxlen")
    lst = cx.list_of(source, node) if source is not None else cx.list_of_unknown(node)
    if bound is None or isinstance(bound, ast.Constant) and bound.value is None:
        return lst
    if id(node) not in _assigned_calls(cx.info.node):
        cx.error("a deque with a maxlen must be assigned to a name (`d = deque(xs, n)`) in compiled "
                 "code, which keeps its bound by the name: here the bound would be lost", node)
    m = cx.coerce(cx.expr(bound), T.I64, node)
    cx.raise_if(cx.cmp("lt", m, Const(0, T.I64), node), "ValueError", "maxlen must be non-negative", node)
    var = cx.new_var("maxlen", m)
    cx.deque_bounds.calls[id(node)] = var
    if source is not None:      # (an empty deque is within any bound; its type may be pending)
        trim_deque(cx, lst, var, collectionslib.trim_front, node)
    return lst

_ASSIGNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()    # function node -> ids


def _assigned_calls(tree: ast.AST) -> frozenset:
    """The ids of the calls that are the whole value assigned to one name in `tree`
    (`d = deque(xs, n)`, `d: deque = deque(maxlen=n)`), once per function's AST."""
    ids = _ASSIGNED.get(tree)
    if ids is None:
        ids = _ASSIGNED[tree] = frozenset(
            id(n.value) for n in ast.walk(tree)
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Call)
            and (len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) if isinstance(n, ast.Assign)
                 else isinstance(n.target, ast.Name)))
    return ids


def reject_bounded_deque_arguments(cx, info, node: ast.Call) -> None:
    """A bounded deque passed to a compiled function is a CompileError at the argument:
    the callee gets the plain list, whose appends would keep the items CPython's deque
    drops."""
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if isinstance(arg, ast.Name) and arg.id in cx.deque_bounds.names or id(arg) in cx.deque_bounds.calls:
            cx.error(f"a deque with a maxlen cannot be passed to {info.name}() in compiled code (the "
                     "callee would get a list without the bound); pass list(d) and bound it there", arg)


def note_bounded_deque(cx, target, value_node) -> None:
    """After `target = value_node`: remember a name assigned a bounded deque; reject
    another value assigned to such a name."""
    if not isinstance(target, ast.Name):
        return
    made = cx.deque_bounds.calls.get(id(value_node))
    if made is not None:
        cx.deque_bounds.names[target.id] = made
    elif target.id in cx.deque_bounds.names:
        cx.error(f"'{target.id}' holds a deque with a maxlen; assigning it another value is not "
                 "supported in compiled code (use another name)", target)


def bounded_insert_check(cx, lst: Value, name: str, node: ast.Call) -> None:
    """Before `d.insert(i, x)` of a bounded deque: CPython's IndexError when it is full."""
    if name != "insert" or not isinstance(node.func.value, ast.Name):
        return
    var = cx.deque_bounds.names.get(node.func.value.id)
    if var is None:
        return
    full = cx.cmp("ge", cx.list_len(lst, node), cx.read(var, cx.loc(node)), node)
    cx.raise_if(full, "IndexError", "deque already at its maximum size", node)


def bounded_method(cx, lst: Value, name: str, node: ast.Call) -> None:
    """After `d.<name>(...)` of a list: the bound kept, when `d` names a bounded deque."""
    if name not in _FRONT + _BACK or not isinstance(node.func.value, ast.Name):
        return
    var = cx.deque_bounds.names.get(node.func.value.id)
    if var is None:
        return
    trim = collectionslib.trim_front if name in _FRONT else collectionslib.trim_back
    trim_deque(cx, lst, var, trim, node)


def trim_deque(cx, lst: Value, var: str, trim, node) -> None:
    bound = cx.read(var, cx.loc(node))
    cx.call_script(cx.ctx.info_for(trim), ast.Call(node.func, [], []), leading=(lst, bound))


# `for x in d` of a deque: CPython's iterator raises RuntimeError at its next step once the
# deque has changed (its `state` counter moved), even after the last item. These methods
# always move it when they return; `extend`, `extendleft` and `clear` only when they change
# the length; `rotate` when the deque holds two items or more; `d[i] = x` and `reverse()` never.
_CHANGES = frozenset({"append", "appendleft", "insert", "pop", "popleft", "remove"})
_CHANGES_IF_LONGER = frozenset({"extend", "extendleft", "clear"})
MUTATED = "deque mutated during iteration"


def iterated_deque(cx, it: ast.expr, start: Value, length, node: ast.For):
    """The length test of `for x in d` over a deque named `d` (lower_stmt.stmt_For): the
    loop's own `length()` (`Growing`), raising CPython's RuntimeError first where `d` changed
    since the loop began: its length differs from `start` (a change through any name), or
    a method called on `d` in the body moved its state (`deque_state_before`/`_after`:
    appending and popping, which keep the length). Returns (the test, a function ending the loop's watch)."""
    changed = cx.new_var("deque.changed", Const(False, T.BOOL))
    outer = cx.deque_bounds.iterated.get(it.id)
    cx.deque_bounds.iterated[it.id] = changed

    def test() -> Value:
        now = length()
        loc = cx.loc(node)
        moved = cx.emit("or", [cx.read(changed, loc), cx.cmp("ne", now, start, node)], T.BOOL, None, loc)
        cx.raise_if(moved, "RuntimeError", MUTATED, node.iter)
        return now

    def done() -> None:
        if outer is None:
            cx.deque_bounds.iterated.pop(it.id, None)
        else:
            cx.deque_bounds.iterated[it.id] = outer
    return test, done


def deque_state_before(cx, lst: Value, name: str, node: ast.Call):
    """Before `d.<name>(...)` of a deque a loop iterates: what `deque_state_after` needs (the
    length before, where whether the state moves depends on it), or None."""
    target = node.func.value
    if not isinstance(target, ast.Name) or target.id not in cx.deque_bounds.iterated:
        return None
    if name in _CHANGES:
        return Const(True, T.BOOL)
    if name == "rotate":
        return cx.cmp("gt", cx.list_len(lst, node), Const(1, T.I64), node)
    if name in _CHANGES_IF_LONGER:
        return cx.list_len(lst, node)
    return None


def deque_state_after(cx, lst: Value, name: str, node: ast.Call, before) -> None:
    """After the call: record on the loop's "changed" local whether the state moved."""
    if before is None or cx.block is None:
        return
    var = cx.deque_bounds.iterated[node.func.value.id]
    loc = cx.loc(node)
    if name in _CHANGES_IF_LONGER:
        before = cx.cmp("ne", cx.list_len(lst, node), before, node)
    cx.write(var, cx.emit("or", [cx.read(var, loc), before], T.BOOL, None, loc))
