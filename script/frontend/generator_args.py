"""Generators passed to a compiled function: `total(squares(n))`, `total(x + 1 for x in xs)`,
`total(g)` of a generator `g` held in a variable (held_generators.py).

A generator never exists as an object in compiled code, so a function given one is not
called: its body is inlined at the call, as a generator's is where it is iterated
(generators.py), in a copy whose locals are renamed (`$gen<N>:x`). The argument is built
first, where CPython evaluates it, as a generator held in the callee's parameter
(held_generators.store, as if `it = squares(n)` were written at the call); every use the
callee makes of the parameter (`for x in it`, `next(it)`, `sum(it)`, `zip(it, ys)`, passing
it on to another function) resumes it where it stands, so CPython's interleaving of the
generator's code and the callee's is kept. A generator already held (`g = squares(n);
next(g); total(g)`) is the same generator in the callee: the callee goes on where the
caller stopped, and the caller after the callee. The callee's `return v` writes the call's
result and leaves the inlined body (its ``finally`` bodies run first).

What a name holding a generator may not do (returned, stored, compared, read by a lambda:
held_generators.refuse_use) it may not do in the callee either: a CompileError at the
callee's line. A method's instance (`acc.add_all(gen)`) is bound to its first parameter. A
callee that calls itself with a generator (it would be inlined without end), a callee with
nested functions or super(), and a nested function or a class method given a generator
are CompileErrors at the call.
"""

from __future__ import annotations

import ast

from script.frontend import exceptions, generators, held_generators, optional
from script.frontend.int_consts import is_library
from script.ir import types as T
from script.ir.core import Const, Value


class InlinedCall:
    """The function call whose body is being built here: where its `return` goes (`join`),
    the variable its value is written to (`result`), and how many ``try`` frames and loops
    of the caller lie under the callee's own."""

    __slots__ = ("join", "result", "frames", "loops")

    def __init__(self, join, result: str, frames: int, loops: int):
        self.join, self.result, self.frames, self.loops = join, result, frames, loops


def inline_call(cx, info, node: ast.Call, first: Value | None = None) -> Value | None:
    """The value of `node`, a call of the compiled function `info` given a generator, with
    the body inlined here; None when no argument is a generator. `first`: the instance of
    a method call (`obj.m(gen)`), its first parameter's value."""
    values = list(node.args) + [k.value for k in node.keywords]
    if not any(held_generators.is_source(cx, a) for a in values):
        return None
    if is_library(getattr(info, "py_func", None)):
        return None
    where = f"'{info.name}' is given a generator"
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        cx.error(f"{where} and *args or **kwargs: not supported in compiled code", node)
    if any(i is info for i in cx.call_chain):
        cx.error(f"{where} and calls itself with one (compiled code inlines a function given a "
                 "generator at its call): not supported", node)
    if getattr(info, "vararg", None) or getattr(info, "kwarg", None) or hasattr(info, "free"):
        cx.error(f"{where}: a function with *args, **kwargs or free variables given a generator "
                 "is not supported in compiled code", node)
    if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           or isinstance(n, ast.Name) and n.id == "super" for stmt in info.node.body for n in ast.walk(stmt)):
        cx.error(f"{where}, and defines functions inside or calls super(): not supported in "
                 "compiled code (its body is inlined at the call)", node)
    inline = generators.inline_copy(cx, info, node, guard=False)
    params = generators.bind_generator_args(cx, info, node, inline, first)    # (a generator: held, HELD_ARG)
    return _build(cx, info, inline, params, node)


def hold_param(cx, name: str, arg, inline) -> None:
    """The generator `arg` held in the parameter `name` of the renamed copy `inline` of the
    function (or generator) it is given to, which may read it only as held_generators allows."""
    held_generators.check_uses(cx, name, None, inline.node)
    held_generators.hold(cx, name, arg)


generators.ARG_HOLDERS.append((held_generators.is_source, hold_param))


def _build(cx, info, inline, params: dict, call: ast.Call) -> Value:
    """The callee's body built here with `params` bound (generators.HELD_ARG: a generator,
    held); the value it returns."""
    loc = cx.loc(call)
    join = cx.new_block("inlined.return")
    record = InlinedCall(join, inline.prefix + "<return>", len(cx.try_frames), len(cx.loops) + 1)
    with generators.entered(cx, info, inline, None, join, list(cx.try_frames), call=record):
        generators.bind_parameters(cx, info, inline, params, call)
        cx.stmts(inline.node.body)
        if cx.block is not None:
            cx.write(record.result, Const(None, T.NONE))
            cx.goto(join, loc)
    cx.finish_join(join)
    if cx.block is None:                # (the callee always raises)
        exceptions.start_dead(cx)
        return Const(None, T.NONE)
    return cx.read(record.result, loc)


def inlined_return(cx, node: ast.Return) -> None:
    """`return v` in the body of a function inlined at a call given a generator."""
    record = cx.call_active
    value = optional.expr_opt(cx, node.value, num=True, union=True) if node.value is not None else Const(None, T.NONE)
    if isinstance(value, generators.WeakConst):
        value = Const(value.value, value.type, value.loc)
    exceptions.keep_foreign(cx, record.loops, node)
    exceptions.run_finally(cx, record.frames, node)
    if cx.block is not None:
        cx.write(record.result, value)
        cx.goto(record.join, cx.loc(node))

# ---- zip() of several generators ------------------------------------------------------------


def walk_zip(cx, node: ast.Call, on_item, done) -> bool:
    """zip() with several generators among its arguments (generator calls, expressions or
    names holding one): each held (`hold`), and at each step asked in turn as CPython's zip
    asks them, the first that ends ending the walk (those after it not asked); the other
    arguments are indexed. False (nothing built) when fewer than two arguments are such
    generators, or one is another walk (enumerate() of one, islice(), ...)."""
    gens = [a for a in node.args if generators.walks_generator(cx, a)]
    if len(gens) < 2 or not all(held_generators.is_source(cx, a) for a in gens):
        return False
    loc = cx.loc(node)
    seen = cx.__dict__.setdefault("zip_counts", {})     # (built at several yields: one hold each)
    k = seen[id(node)] = seen.get(id(node), -1) + 1
    parts = []
    for a in node.args:
        if a not in gens:
            parts.append(cx.iterable(a))
            continue
        g = held_generators.held(cx, a)
        if g is None:
            name = f"$zip{id(a)}.{k}"
            held_generators.hold(cx, name, a)
            g = cx.held_gens[name]
        parts.append(g)
    count = cx.new_var("zip", Const(0, T.I64))
    header = cx.new_block("zip.loop", loop_key=node)
    cx.goto(header, loc)
    cx.enter_loop_header(header)
    cx.start(header)
    i = cx.read(count, loc)
    items = []
    for part in parts:
        if isinstance(part, held_generators.HeldGenerator):
            how = held_generators.resume(cx, part, node)
            _go_on_if(cx, cx.cmp("eq", how, Const(held_generators.ITEM, T.I64), node), done, node)
            items.append(cx.read(part.var("item"), loc))
        else:
            _go_on_if(cx, cx.cmp("lt", i, part[0], node), done, node)
            items.append(part[1](i))
    cx.write(count, cx.emit("add", [i, Const(1, T.I64)], T.I64, None, loc))
    on_item(cx.make_tuple(items, node))
    if cx.block is not None:
        cx.goto(header, loc)
    cx.seal(header)
    return True


def _go_on_if(cx, cond: Value, done, node) -> None:
    go_on = cx.new_block("zip.more")
    cx.branch(cond, go_on, done, cx.loc(node))
    cx.seal(go_on)
    cx.start(go_on)


generators.ZIP_WALKERS.append(walk_zip)
