"""`it = iter(xs)` held in a variable, of a list, a range, a str or a tuple of a run-time length: an
iterator object written in the compiled subset, instantiated as a record (records.py) where
user code calls `iter`, as queues.py does for `queue.Queue`.

Code that walks a sequence by hand holds one: ``first = next(it)`` then ``for x in it``, a
token stream that skips with ``next(it, None)``, ``tuple(islice(it, n))`` chunks. The record
holds the sequence and the index of the next item, as CPython's list iterator does: an
item appended before the iterator reaches the end is seen, and once exhausted it stays
exhausted. Each call site of `iter` gets its own class (its items' type is its own). Other
iterables (`iter(d)` of a dict, whose iterator CPython invalidates when the dict changes
size) are a CompileError; `iter(x)` where it is iterated at once (`for x in iter(xs)`,
`next(iter(xs))`) is not this: those are walked where they stand (builtins_lowering). Like a
queue, it stays inside compiled code: returned to Python it is a CompileError.
"""

from __future__ import annotations

import ast

from script.frontend.registry import lowers
from script.ir import types as T


class SeqIterator:
    """The iterator of a list, a str or a run-time-length tuple: the next index, or -1
    once exhausted (CPython's `it_seq = NULL`)."""

    def __init__(self, items):
        self.items = items
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        if _exhausted(self):
            raise StopIteration
        return self.items[_advance(self)]


_SITES: dict = {}       # (file, line, column) -> the class of that call site's iterators


@lowers(iter)
def _make_iterator(low, node: ast.Call, name: str):
    """`iter(xs)` held: a record of this call site's own iterator class."""
    if len(node.args) != 1 or node.keywords:
        low.error("iter() with a sentinel, or keywords, is not supported in compiled code", node)
    items = low.expr(node.args[0])
    t = items.type
    if is_seq_iterator(t):
        return items            # (iter() of an iterator is the iterator itself)
    low.pre_evaluated[id(node.args[0])] = items     # (what the record's __init__ call takes)
    if not (type(t) in (T.ListType, T.VarTupleType) or isinstance(t, T.StrType) or _is_range(t)):
        low.error(f"iter() of a {t} held as a value is not supported in compiled code (of a list, "
                  "a range, a str or a tuple it is; iterate the object itself)", node)
    key = (low.info.filename, node.lineno, node.col_offset)
    cls = _SITES.get(key)
    if cls is None:
        name = f"SeqIterator{len(_SITES)}"      # (a class key of its own: its items' type)
        ns = {k: v for k, v in vars(SeqIterator).items() if callable(v)}
        ns.update(__module__=__name__, __qualname__=name, __doc__=SeqIterator.__doc__)
        cls = _SITES[key] = type(name, (), ns)
    return low.make_record(cls, node)


def _is_range(t: T.Type) -> bool:
    """A range held as the list of its items (held_iterators.py): a sequence that never
    changes, so an index into it is CPython's range iterator."""
    return isinstance(t, T.IterType) and t.kind == "range"


def is_seq_iterator(t: T.Type) -> bool:
    return isinstance(t, T.ClassType) and t.key.startswith(f"{__name__}:SeqIterator")


def _remaining(it) -> int:
    if it.i < 0:
        return 0
    return len(it.items) - it.i


def _advance(it) -> int:
    i = it.i
    it.i = i + 1
    return i


def _at(it, i: int):
    return it.items[i]


def _finish(it) -> None:
    it.i = -1


def _exhausted(it) -> bool:
    """Whether `it` has no item left (then it stays so, as CPython's list iterator does)."""
    if it.i < 0 or it.i >= len(it.items):
        it.i = -1
        return True
    return False


def _next_or(it, default):
    if _exhausted(it):
        return default
    return it.items[_advance(it)]


def _call(low, fn, it, node, args=()):
    return low.call_script(low.ctx.info_for(fn), ast.copy_location(ast.Call(ast.Name(fn.__name__, ast.Load()),
                                                                              list(args), []), node), leading=(it,))


def next_item(low, it, default, node):
    """`next(it)` (StopIteration once exhausted) or `next(it, default)`."""
    if default is None:
        return _call(low, SeqIterator.__next__, it, node)
    return _call(low, _next_or, it, node, [default])


def iterable(low, it, node):
    """`iterable`'s (n, item, type) of `for x in it`: each step takes the item at the
    iterator's index, so a `next(it)` in the body skips one; the loop tests before each step
    whether one is left (the `Growing` length: the items given so far plus those left); ending
    by itself, it leaves the iterator exhausted."""
    from script.frontend.loop import Growing
    from script.ir.core import Const
    loc = low.loc(node)
    given = low.new_var("iter_given", Const(0, T.I64))
    last_k = low.new_var("iter_k", Const(-1, T.I64))       # the step asked for last, and the
    last_at = low.new_var("iter_at", Const(-1, T.I64))     # index it took (min/max ask twice)
    items_t = it.type.elem.elems[it.type.fields.index("items")]
    et = T.STR if isinstance(items_t, T.StrType) else items_t.elem

    def item(k):
        same = low.emit("cmp", [k, low.read(last_k, loc)], T.BOOL, "eq", loc)
        at = low.choose(same, lambda: low.read(last_at, loc), lambda: _call(low, _advance, it, node), node)
        low.write(last_k, k)
        low.write(last_at, at)
        step = low.emit("select", [same, Const(0, T.I64), Const(1, T.I64)], T.I64, None, loc)
        low.write(given, low.emit("add", [low.read(given, loc), step], T.I64, None, loc))
        return low.call_script(low.ctx.info_for(_at), ast.copy_location(
            ast.Call(ast.Name("_at", ast.Load()), [], []), node), leading=(it, at))

    def length():
        return low.emit("add", [low.read(given, loc), _call(low, _remaining, it, node)], T.I64, None, loc)

    out = Growing(_call(low, _remaining, it, node), item, et, length)
    out.exhausted = lambda: _call(low, _finish, it, node)
    out.held_iterator = True        # (zip() of two: star_zip.zip_parts)
    return out
