"""Generator functions (`yield`) and generator expressions, inlined where they are iterated.

A generator never exists as an object in compiled code. Where one is consumed (a `for`
loop, a comprehension's `for` clause, list(), sum(), min(), max(), any(), all(), sorted(),
set(), dict(), str.join(), enumerate(), zip(), list.extend(), `yield from`) its body is
built right there, in the consumer's function: the call's arguments are bound to its
parameters, and each `yield v` becomes "hand v to the consumer" — for a `for` loop, assign
the target and build the loop body. So the consumer and the generator take turns exactly
as in CPython: code of the generator between two yields runs when the consumer asks for
the next element, and a `break` leaves the generator where it stands.

    def evens(xs):                     for x in evens(xs):
        for x in xs:                       t += x
            if x % 2 == 0:
                yield x                ==> for x' in xs:           (x' is evens's x, renamed)
                                               if x' % 2 == 0:
                                                   x = x'; t += x  (the consumer's body)

In a `for` over a generator the consumer's `continue` resumes the generator after its
`yield`, `break` leaves the whole inlined body, the generator's `return` (or its end) ends
the loop and runs the `else` clause. The generator's locals are renamed (`$gen<N>:x`, in
a copy of its AST made once per call site and kept, so type hints keyed by its nodes survive
the rebuilds of the consumer), its globals are its own module's, and its source positions are
its own, so errors point at its lines. While the consumer's body is built at a `yield`,
the consumer's names, loops, ``try`` handlers and comprehension scopes are back in place:
an exception the consumer raises there is not caught by the generator's ``except``
(as in CPython, where it is raised in the consumer's frame).

A generator expression is walked the same way (`comprehension`, with the consumer's
comprehension scopes back at each element).

`g = gen(...)` whose only use is a later `for ... in g` in the same statement list is
inlined at that loop with the arguments evaluated at the assignment (`store_generator`).

A call held in a variable otherwise (`g = gen(...)`, then `next(g)`, two loops) is built once,
at the assignment, by held_generators.py, which these walks reach through `NAME_WALKERS`.

Not supported (CompileError at the line): a generator object used as a value (returned,
stored in a container; passed to a compiled function it is held: generator_args.py), `send` (the value of a `yield` expression),
recursive generators, `yield` inside a ``try`` that has a ``finally``, nested `def`s inside a
generator (its lambdas are compiled against the renamed copy, `InlineCopy.info`).

A generator function defined inside the compiled function (`def chunks(): ... yield
xs[i:i + k]`) is inlined the same way; the outer variables it reads (its free variables,
closures.py) are not renamed, so the inlined body reads the consumer's variables as they
are when it runs, as CPython's closure cells give. It may not assign `nonlocal` ones.
zip() of several generators runs every generator but the first to its end first (into a
list); reversed() of a generator is an error, as in CPython.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import copy
import itertools
import types

from script.errors import CompileError
from script.frontend.loop import Loop
from script.frontend.lower_expr import WeakConst
from script.frontend.pyref import PyRef, global_callee, static_callee
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo
from script.frontend import class_methods, exceptions, optional, recursive_generators, strmethods

_RENAMES = itertools.count(1)

# What a `yield` swaps between the generator's body and its consumer's.
_STATE = ("info", "locals", "comp_scopes", "loops", "try_frames", "handling", "dropping", "exc_names",
          "nested_functions", "gen_active", "gen_chain", "call_active", "call_chain")

USE_ERROR = ("can only be iterated where it is made in compiled code (a for loop, a comprehension, "
             "list(), sum(), min(), max(), any(), all(), sorted(), set(), dict(), str.join(), "
             "enumerate(), zip(), islice(), next(), yield from), passed to a compiled function, or held "
             "in a local variable (`g = gen()`) and given to next() or iterated later; a generator "
             "object cannot be returned, stored in a container or passed to a nested function")


def is_generator(info) -> bool:
    """Whether the function `info` describes is a generator function (a `yield` in its own
    body, outside nested functions and lambdas); computed once per function."""
    found = info.__dict__.get("_is_generator")
    if found is None:
        found = info.__dict__["_is_generator"] = _has_yield(info.node.body)
    return found


def _has_yield(body) -> bool:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


class InlineCopy:
    """The generator's AST renamed for one call site: `node` (a copy of the def), `names`
    (each local's new name), `locals` (the new names), and `info`, the generator's
    FunctionInfo seen through them (what its lambdas take as their outer function)."""

    __slots__ = ("call", "node", "names", "locals", "info", "prefix")

    def __init__(self, info, call: ast.Call, guard: bool = True):
        self.call = call            # kept alive: the cache is keyed by its id
        self.prefix = f"$gen{next(_RENAMES)}:"
        free = free_names(info)
        self.names = {n: self.prefix + n for n in info.local_names if n not in free}
        self.node = copy.deepcopy(info.node)
        for stmt in self.node.body:
            self._rename(stmt, frozenset(), info)
        if guard:               # (a generator's: PEP 479; not a function's, generator_args.py)
            _guard_stop_iteration(self.node, info)
        # A generator defined in the function that iterates it reads that function's
        # variables by their own names, when it runs (CPython's closure cells).
        self.locals = frozenset(self.names.values()) | frozenset(free)
        self.info = copy.copy(info)
        self.info.node, self.info.local_names = self.node, self.locals
        self.info.__dict__.pop("_inline_copies", None)

    def _rename(self, node, shadowed: frozenset, info) -> None:
        """Rename the generator's locals in `node`, except where a lambda's own parameter
        of the same name hides one."""
        if isinstance(node, ast.FunctionDef):
            raise CompileError("nested functions inside a generator function are not supported in "
                               "compiled code", info.loc(node))
        if isinstance(node, ast.Lambda):
            shadowed = shadowed | {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
        elif isinstance(node, ast.Name) and node.id in self.names and node.id not in shadowed:
            node.id = self.names[node.id]
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name in self.names:
            node.name = self.names[node.name]       # a `match` pattern's capture
        elif isinstance(node, ast.MatchMapping) and node.rest in self.names:
            node.rest = self.names[node.rest]
        for child in ast.iter_child_nodes(node):
            self._rename(child, shadowed, info)


def _guard_stop_iteration(fn: ast.FunctionDef, info) -> None:
    """PEP 479: a StopIteration raised in a generator's body leaves it as RuntimeError
    ("generator raised StopIteration"). Where the body may raise one (it calls `next`, raises
    StopIteration, or calls a function of the user's, which may do either), its statements
    are wrapped in the ``try``/``except StopIteration`` that says so (a copy's, built as any
    other); not elsewhere, since every call inside a ``try`` is followed by a test of its
    exception."""
    if not any(isinstance(n, ast.Raise) and "StopIteration" in ast.dump(n)
               or isinstance(n, ast.Call) and _may_stop(n.func, info) for n in ast.walk(fn)):
        return
    raise_ = ast.Raise(ast.Call(ast.Name("RuntimeError", ast.Load()),
                                [ast.Constant("generator raised StopIteration")], []), None)
    handler = ast.ExceptHandler(ast.Name("StopIteration", ast.Load()), None, [raise_])
    guard = ast.Try(fn.body, [handler], [], [])
    for n in ast.walk(guard):
        if not hasattr(n, "lineno"):
            ast.copy_location(n, fn)
    fn.body = [guard]


def _may_stop(func, info) -> bool:
    """Whether a call of `func` in a generator's body may raise StopIteration: `next`, and a
    function of the user's (a global or closure function, a name the generator holds);
    not a builtin, a class, or a module's function (`math.sqrt`) or a method (`xs.pop`)."""
    if isinstance(func, ast.Attribute):
        return func.attr == "__next__"
    if not isinstance(func, ast.Name):
        return False
    if func.id == "next":
        return True
    if func.id == info.name:
        return False                # (a recursive generator: its call runs nothing)
    found, obj = info.global_value(func.id)
    if not found:
        return func.id not in vars(builtins)
    return isinstance(obj, types.FunctionType) and not obj.__code__.co_flags & 0x20 \
        and not getattr(obj, "__module__", "").startswith("script.")     # (0x20: CO_GENERATOR)


def invisible(cx, node) -> bool:
    """Whether walking `node` (a generator source, or a comprehension walking its first
    iterable) does nothing per item (so a recursive generator's items may be taken at once:
    recursive_generators.py) besides the generator's own work: a source itself,
    enumerate() of one, or a generator expression or comprehension whose `if`s, element
    and later iterables read only names and constants."""
    node = lazy_maker(cx, node) or node
    if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        first, *rest = node.generators
        elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        parts = elts + [c for g in node.generators for c in g.ifs] + [g.iter for g in rest] \
            + [g.target for g in node.generators]
        return all(_plain(p) for p in parts) and invisible(cx, first.iter)
    if isinstance(node, ast.Call) and cx.builtin_call(node) is enumerate:
        return bool(node.args) and invisible(cx, node.args[0])
    if isinstance(node, ast.Call) and cx.builtin_call(node) is not None:
        return False
    return not (while_call(cx, node) or walker(cx, node))


def _plain(node) -> bool:
    """Only names, constants and tuples of them: nothing CPython could show."""
    return all(isinstance(n, (ast.Name, ast.Constant, ast.Tuple, ast.expr_context)) for n in ast.walk(node))


def free_names(info) -> list[str]:
    """The outer variables a generator defined inside a compiled function reads (closures.py:
    the leading parameters of a nested function); none for a module-level one."""
    return list(getattr(info, "free", ()))


class FunctionArg:
    """A function passed to a generator's parameter: the inlined body calls it by name."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


class Inlined:
    """One generator call being built: the consumer's state to go back to at each `yield`
    (`consumer`, a dict of `_STATE`), what to do with each element (`on_item`), where its
    `return` goes (`done`), and how many ``try`` frames, loops and dropped exceptions of the
    consumer lie under the generator's own; `total`: whether the consumer takes every item
    with nothing visible done per item (recursive_generators.py: what a `yield from` inherits)."""

    __slots__ = ("consumer", "on_item", "done", "frames", "loops", "dropping", "total")

    def __init__(self, consumer: dict, on_item, done, total: bool = False):
        self.consumer = consumer
        self.total = total
        self.on_item = on_item
        self.done = done
        self.frames = len(consumer["try_frames"])
        self.loops = len(consumer["loops"]) + 1
        self.dropping = len(consumer["dropping"])


def generator_info(cx, node):
    """The FunctionInfo of the generator function `node` calls, or None."""
    if not isinstance(node, ast.Call):
        return None
    method = class_methods.method_generator(cx, node) or class_methods.instance_generator(cx, node)
    if method is not None:                  # obj.m(...), iter(obj): class_methods.py
        return method
    obj = static_callee(cx, node.func)
    if obj is None:
        return None
    from script.frontend.closures import NestedFunction
    if isinstance(obj, NestedFunction):
        if not is_generator(obj.info):
            return None
        if obj.info.nonlocals:
            cx.error("a generator function defined inside a compiled function may not assign "
                     "'nonlocal' variables in compiled code", node)
        return obj.info
    info = cx.ctx.script_info(obj)
    if info is None:
        import types
        if not isinstance(obj, types.FunctionType) or not obj.__code__.co_flags & 0x20:    # CO_GENERATOR
            return None
        info = cx.ctx.info_for(obj)
    return info if is_generator(info) else None


# Functions of one iterable (their first argument) whose items, when it is a generator source,
# are walked one at a time as it gives them rather than as a list of all of them (so an
# endless generator is fine): obj -> walk(cx, node, on_item, done), registered by the module
# that lowers the function (itertools_calls.py: islice).
WALKERS: dict = {}


# Names standing for an iterator that a module of its own holds (held_generators.py: a
# generator held in a variable): each is find(cx, name node) -> walk(on_item, done) or None.
NAME_WALKERS: list = []


# zip() of several generators, each resumed in turn (generator_args.py): each is
# walk(cx, node, on_item, done) -> whether it took the zip.
ZIP_WALKERS: list = []


def _name_walk(cx, node: ast.Name):
    return next((w for find in NAME_WALKERS if (w := find(cx, node)) is not None), None)


def walker(cx, node):
    """The walk of WALKERS that `node` calls, when its first argument is a generator source."""
    if not (isinstance(node, ast.Call) and node.args and not isinstance(node.args[0], ast.Starred)):
        return None
    obj = global_callee(cx, node.func)
    walk = next((w for o, w in WALKERS.items() if o is obj), None)
    return walk if walk is not None and walks_generator(cx, node.args[0]) else None


def walks_generator(cx, node) -> bool:
    """Whether `node` is a generator source, or enumerate()/zip() of one, or a WALKERS
    function of one."""
    if isinstance(node, ast.Name) and (id(node) in cx.__dict__.get("stored_generators", ())
                                       or _name_walk(cx, node) is not None):
        return True
    if class_methods.instance_generator(cx, node) is not None:     # obj, self.left, iter(obj)
        return True
    if not isinstance(node, ast.Call):
        return isinstance(node, ast.GeneratorExp)
    if lazy_maker(cx, node) is not None or while_call(cx, node) is not None or walker(cx, node) is not None:
        return True
    builtin = cx.builtin_call(node)
    if builtin is enumerate:
        return bool(node.args) and walks_generator(cx, node.args[0])
    if builtin is zip:
        return any(walks_generator(cx, a) for a in node.args)
    return builtin is None and generator_info(cx, node) is not None


def while_call(cx, node):
    """`itertools.takewhile` or `dropwhile` when `node` calls one of them with a predicate
    and an iterable, else None."""
    if not (isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords):
        return None
    obj = global_callee(cx, node.func)
    return obj if obj in (itertools.takewhile, itertools.dropwhile) else None


def _walk_while(cx, node, on_item, done) -> None:
    """`takewhile(p, xs)`: the items of `xs` until `p` is false for one (asking `xs` for no
    more, so an endless generator is fine); `dropwhile(p, xs)`: the items from the first
    for which `p` is false. `p` is called once per item it sees, as CPython calls it."""
    from script.frontend.keyed import call_function_node, method_key
    taking = while_call(cx, node) is itertools.takewhile
    pred, source = method_key(cx, node.args[0]), node.args[1]     # (`str.isspace`: a lambda)
    dropping = None if taking else cx.new_var("dropping", Const(True, T.BOOL))
    loc = cx.loc(node)

    def step(x):
        if taking:
            _stop_unless(cx, cx.truth(call_function_node(cx, pred, [x], node), node), done, node)
            on_item(x)
            return
        still = cx.read(dropping, loc)
        drop = cx.choose(still, lambda: cx.truth(call_function_node(cx, pred, [x], node), node),
                         lambda: Const(False, T.BOOL), node)
        cx.write(dropping, drop)
        keep, after = cx.new_block("dropwhile.keep"), cx.new_block("dropwhile.next")
        cx.branch(drop, after, keep, loc)
        cx.seal(keep)
        cx.start(keep)
        on_item(x)
        if cx.block is not None:
            cx.goto(after, loc)
        cx.seal(after)
        cx.start(after)

    walk_items(cx, source, step, done)


def lazy_maker(cx, node) -> ast.GeneratorExp | None:
    """`map(f, xs, ys)` iterated where it is made as the generator expression `(f(a, b)
    for a, b in zip(xs, ys))`, `filter(f, xs)` as `(x for x in xs if f(x))` (`if x` for
    None), `itertools.filterfalse(f, xs)` as `(x for x in xs if not f(x))`: `f` runs as
    each item is taken, as CPython's iterator calls it (one node per call, so hints keyed by
    it stay); None for other nodes, or an `f` that is not a name or
    an attribute (a lambda: the list of what it gives is made first, as before)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
            and not node.keywords and len(node.args) >= 2):
        return None
    made = cx.info.__dict__.setdefault("_lazy_makers", {})
    if id(node) in made:
        gen = made[id(node)][0]
        source = gen.generators[0].iter if gen is not None else None
        if isinstance(source, ast.Call) and source not in node.args:
            cx.pre_evaluated[id(source.func)] = PyRef(zip, "zip")
        return gen
    obj = global_callee(cx, node.func)
    fn, seqs = node.args[0], node.args[1:]
    none = isinstance(fn, ast.Constant) and fn.value is None
    if not (obj is map and not none or obj in (filter, itertools.filterfalse) and len(seqs) == 1) \
            or any(isinstance(a, ast.Starred) for a in node.args) \
            or not (none or isinstance(fn, (ast.Name, ast.Attribute))):
        made[id(node)] = (None, node)
        return None
    names = [ast.Name(f"$item{k}", ast.Load()) for k in range(len(seqs))]
    target = names[0] if len(names) == 1 else ast.Tuple([ast.Name(n.id, ast.Store()) for n in names], ast.Store())
    if isinstance(target, ast.Name):
        target = ast.Name(target.id, ast.Store())
    source = seqs[0] if len(seqs) == 1 else ast.Call(ast.Name("zip", ast.Load()), list(seqs), [])
    def apply():
        # `str.strip` (an unbound method of str) is the method of the item: `x.strip()`
        if isinstance(fn, ast.Attribute) and len(names) == 1 and isinstance(fn.value, ast.Name) \
                and getattr(cx.lookup(fn.value), "obj", None) is str and callable(getattr(str, fn.attr, None)):
            return ast.Call(ast.Attribute(names[0], fn.attr, ast.Load()), [], [])
        return ast.Call(fn, names, [])

    if obj is map:
        gen = ast.GeneratorExp(apply(), [ast.comprehension(target, source, [], 0)])
    else:
        test = names[0] if none else apply()
        if obj is itertools.filterfalse:            # the items for which f is false
            test = ast.UnaryOp(ast.Not(), test)
        gen = ast.GeneratorExp(names[0], [ast.comprehension(target, source, [test], 0)])
    for n in ast.walk(gen):
        if not hasattr(n, "lineno"):
            ast.copy_location(n, node)
    made[id(node)] = (gen, node)        # (the call kept alive: the cache is keyed by its id)
    return lazy_maker(cx, node)

# ---- walking --------------------------------------------------------------------------


def walk_items(cx, node, on_item, done, whole: bool = False, total=False) -> None:
    """`on_item(x)` for each element `x` of what `node` gives, in order, built where the
    element is made; the walk ends with a jump to `done` (`on_item` may jump there too, to
    stop). `node` is a generator source, enumerate()/zip() of one, or any iterable. With
    `whole`, a generator expression's element that may be None stays an optional (a list
    made of it holds the Nones, as CPython's). `total`: the consumer takes every item and
    does nothing visible with it (a recursive generator may be run at once then:
    recursive_generators.py); None: as the walk being built (a comprehension's clause),
    "yield": as the consumer of the generator being built (`yield from`)."""
    outer = cx.gen_total
    if total == "yield":
        total = cx.gen_active.total
    elif total is None:
        total = outer
    cx.gen_total = bool(total) and invisible(cx, node)
    try:
        _walk_items(cx, node, on_item, done, whole)
    finally:
        cx.gen_total = outer


def _walk_items(cx, node, on_item, done, whole: bool) -> None:
    loc = cx.loc(node)
    node = lazy_maker(cx, node) or node
    builtin = cx.builtin_call(node) if isinstance(node, ast.Call) else None
    if builtin is None and while_call(cx, node) is not None:
        return _walk_while(cx, node, on_item, done)
    if builtin is None and (walk := walker(cx, node)) is not None:
        return walk(cx, node, on_item, done)
    if builtin is enumerate and walks_generator(cx, node):
        return _walk_enumerate(cx, node, on_item, done)
    if builtin is zip and walks_generator(cx, node):
        return _walk_zip(cx, node, on_item, done)
    if isinstance(node, ast.GeneratorExp):
        outer = list(cx.comp_scopes)

        def take(x):
            inner, cx.comp_scopes = cx.comp_scopes, outer
            try:
                on_item(x)
            finally:        # (a Restart unwinds through comprehension's own finally)
                cx.comp_scopes = inner

        def element():
            # (an int|float: each consumer takes it apart; a union: given to it once per
            # alternative, `all(x for x in items)`)
            if whole:
                take(optional.expr_opt(cx, node.elt, num=True, union=True))
            else:
                cx.expr_each(node.elt, take)

        cx.comprehension(node, element)
    elif isinstance(node, ast.Name) and id(node) in cx.__dict__.get("stored_generators", ()):
        info, call, args = cx.stored_generators[id(node)]
        inline_generator(cx, info, call, on_item, done,
                         {p: cx.read(v) if isinstance(v, str) else v for p, v in args.items()})
    elif isinstance(node, ast.Name) and (walk := _name_walk(cx, node)) is not None:
        walk(on_item, done)
    elif (info := class_methods.instance_generator(cx, node)) is not None:
        inline_generator(cx, info, node, on_item, done,
                         {info.param_names[0]: class_methods.iter_instance(cx, node)})
    elif builtin is None and (info := generator_info(cx, node)) is not None:
        inline_generator(cx, info, node, on_item, done)
    elif strmethods.is_str_parts(cx, node):
        strmethods.walk_str_parts(cx, node, on_item, done)
    else:
        n, item, _ = cx.iterable(node)
        cx.for_range(node, n, lambda i: on_item(item(i)))
    cx.goto(done, loc)


def check_enumerate(cx, node: ast.Call) -> None:
    """A CompileError unless `node` is enumerate(iterable, start=0) with the start given by
    position or as `start=` (any other keyword, or a start given twice, is CPython's TypeError)."""
    starts = node.args[1:] + node.keywords
    if len(node.args) < 1 or len(starts) > 1 or any(k.arg != "start" for k in node.keywords):
        cx.error("enumerate() takes an iterable and an optional start", node)


def enumerate_first(cx, node: ast.Call) -> Value:
    """The first count of `node`, an enumerate() call `check_enumerate` accepted."""
    starts = node.args[1:] + [k.value for k in node.keywords]
    return cx.coerce(cx.expr(starts[0]), T.I64, node) if starts else Const(0, T.I64)


def _walk_enumerate(cx, node, on_item, done) -> None:
    check_enumerate(cx, node)
    first = enumerate_first(cx, node)
    count = cx.new_var("count", first)
    loc = cx.loc(node)

    def step(x):
        k = cx.read(count, loc)
        cx.write(count, cx.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
        on_item(cx.make_tuple([k, x], node))

    walk_items(cx, node.args[0], step, done, total=None)


def _walk_zip(cx, node, on_item, done) -> None:
    """zip() with a generator among its arguments: the first one is walked, the others
    are indexed (a generator after the first runs to its end first, into a list). As in
    CPython, the iterables before the walked one are asked first: when one of them ends,
    the generator is not resumed; when one after it ends, its last element is dropped."""
    loc = cx.loc(node)
    if node.keywords:
        cx.error("zip() takes no keyword arguments in compiled code", node)
    if any(walk(cx, node, on_item, done) for walk in ZIP_WALKERS):
        return
    p = next(k for k, a in enumerate(node.args) if walks_generator(cx, a))
    parts = {k: cx.iterable(a) for k, a in enumerate(node.args) if k != p}

    def shortest(ks):
        n = None
        for k in ks:
            n = parts[k][0] if n is None else cx.emit("min", [n, parts[k][0]], T.I64, None, loc)
        return n

    before, after = shortest(range(p)), shortest(range(p + 1, len(node.args)))
    count = cx.new_var("zip", Const(0, T.I64))

    def step(x):
        k = cx.read(count, loc)
        if after is not None:
            _stop_unless(cx, cx.cmp("lt", k, after, node), done, node)
        cx.write(count, cx.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
        on_item(cx.make_tuple([parts[j][1](k) if j != p else x for j in range(len(node.args))], node))
        if before is not None and cx.block is not None:
            _stop_unless(cx, cx.cmp("lt", cx.read(count, loc), before, node), done, node)

    if before is not None:
        _stop_unless(cx, cx.cmp("gt", before, Const(0, T.I64), node), done, node)
    walk_items(cx, node.args[p], step, done)


def _stop_unless(cx, cond: Value, done, node) -> None:
    go_on = cx.new_block("gen.more")
    cx.branch(cond, go_on, done, cx.loc(node))
    cx.seal(go_on)
    cx.start(go_on)


def each_item(cx, node, body, total=False) -> None:
    """`body(x)` for each element of a generator source (or enumerate()/zip() of one);
    `total` as walk_items'."""
    done = cx.new_block("gen.end")
    walk_items(cx, node, body, done, total=total)
    _finish_walk(cx, done)


def _finish_walk(cx, join) -> None:
    """Go on after the walk's `join`; when nothing reaches it (an endless generator whose
    only way out is an exception: `list(g)` of one), in unreachable code, since the
    expression being built goes on there."""
    cx.finish_join(join)
    if cx.block is None:
        exceptions.start_dead(cx)


def first_item(cx, source, default, node) -> Value:
    """`next(<generator expression or call>[, default])`: its first item, asking it for no
    more (`next(i for i, x in enumerate(xs) if x == t)`); when it has none, `default`
    (a None default makes the result an optional) or CPython's StopIteration."""
    loc = cx.loc(node)
    var = cx.new_var("next", Const(None, T.NONE))
    got, done = cx.new_block("next.got"), cx.new_block("next.none")

    def on_item(x):
        cx.write(var, x)
        cx.goto(got, loc)
        cx.block = None

    walk_items(cx, source, on_item, done)
    cx.finish_join(done)
    if cx.block is not None:
        if default is None:
            exceptions.throw(cx, cx.emit("exception", [], T.EXC, ExcInfo("StopIteration", None), loc), loc)
        else:
            cx.write(var, optional.expr_opt(cx, default))
            cx.goto(got, loc)
    _finish_walk(cx, got)
    return cx.read(var, loc)


def generator_list(cx, node, limit: int | None = None) -> Value:
    """A new list of the elements a generator source gives: run to its end now, or until
    it has given `limit` elements."""
    lst = cx.list_of_unknown(node)
    done = cx.new_block("gen.end")

    def put(x):
        cx.append_item(lst, x, node)
        if limit is not None:
            full = cx.cmp("ge", cx.list_len(lst, node), Const(limit, T.I64), node)
            _stop_unless(cx, cx.emit("not", [full], T.BOOL, None, cx.loc(node)), done, node)

    walk_items(cx, node, put, done, whole=True, total=limit is None)
    _finish_walk(cx, done)
    return lst


def unpacked_generator(cx, targets, node) -> Value | None:
    """For `a, b = <generator>`: a list of at most one element more than the targets
    want (CPython asks for no more before it reports too many); None for other values."""
    if not all(isinstance(t, (ast.Tuple, ast.List)) for t in targets) or not walks_generator(cx, node):
        return None
    starred = any(isinstance(e, ast.Starred) for t in targets for e in t.elts)
    return generator_list(cx, node, None if starred else max(len(t.elts) for t in targets) + 1)


def generator_contains(cx, node: ast.Compare) -> Value | None:
    """`x in <generator>` / `not in`: == against each element, stopping at the first
    equal one (the generator is not resumed after it); None for other comparisons."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)) \
            or not walks_generator(cx, node.comparators[0]):
        return None
    x = cx.expr(node.left)
    found = cx.any_of(node.comparators[0], node, lambda e: cx.compare(ast.Eq(), x, e, node))
    return found if isinstance(node.ops[0], ast.In) else cx.emit("not", [found], T.BOOL, None, cx.loc(node))


def for_generator(cx, node: ast.For) -> None:
    """`for target in <generator source>: body else: orelse`."""
    loc = cx.loc(node)
    after, done = cx.new_block("for.end"), cx.new_block("gen.done")

    def on_item(x):
        cx.assign(node.target, x, node)
        resume = cx.new_block("gen.resume")
        cx.loops.append(Loop(after, resume))
        cx.stmts(node.body)
        cx.loops.pop()
        cx.goto(resume, loc)
        cx.finish_join(resume)

    # (a name target may hold None, as CPython's: `for v in map(d.get, keys)`)
    walk_items(cx, node.iter, on_item, done, whole=isinstance(node.target, ast.Name))
    cx.finish_join(done)
    if cx.block is not None:
        cx.stmts(node.orelse)
        cx.goto(after, loc)
    cx.finish_join(after)

# ---- inlining a generator function ----------------------------------------------------


def inline_generator(cx, info, call: ast.Call, on_item, done, params=None) -> None:
    """Build the body of generator function `info` called by `call` here, handing each
    value it yields to `on_item`; its `return` and its end jump to `done`. `params`: its
    parameters' values when the call's arguments were evaluated before (`store_generator`).
    A recursion (`info` being built already) is walked as the list of what it gives, where
    the consumer allows it (recursive_generators.py)."""
    if any(i is info for i in cx.gen_chain):
        if not cx.gen_total:
            recursive_generators.refuse(cx, info, call)
        params = bind_generator_args(cx, info, call) if params is None else params
        given_function = any(isinstance(v, FunctionArg) for v in params.values())
        lst = recursive_generators.items(cx, info, call, params, given_function)
        n, item, _ = cx.iterable_value(lst, call)
        cx.for_range(call, n, lambda i: on_item(item(i)))
        cx.goto(done, cx.loc(call))
        return
    inline = inline_copy(cx, info, call)
    params = bind_generator_args(cx, info, call, inline) if params is None else params
    with entered(cx, info, inline, on_item, done, list(cx.try_frames)):
        bind_parameters(cx, info, inline, params, call)
        cx.stmts(inline.node.body)
        cx.goto(done, cx.loc(call))


@contextlib.contextmanager
def entered(cx, info, inline, on_item, done, frames: list, call=None):
    """Lowering state switched to the body of generator `info` (its renamed copy `inline`)
    for the duration, with `frames` as the ``try`` frames what it raises goes to, and the
    consumer's state (what each `yield` hands `on_item` back to, a dict) yielded; the
    consumer's state is back in place afterwards. `call`: a plain function's body inlined
    at a call given a generator instead (generator_args.InlinedCall: where its `return`
    goes)."""
    if call is None and any(i is info for i in cx.gen_chain):
        cx.error(f"recursive generator '{info.name}' is not supported in compiled code "
                 "(its body is inlined where it is iterated)", inline.call)
    consumer = {a: getattr(cx, a) for a in _STATE}
    record = Inlined(consumer, on_item, done, cx.gen_total)
    record.frames = len(frames)
    cx.info = inline.info
    cx.locals = inline.locals
    cx.comp_scopes = []
    cx.loops = list(consumer["loops"]) + [None]       # (the generator cannot break out of it)
    cx.try_frames = frames
    cx.handling, cx.dropping, cx.exc_names = [], list(consumer["dropping"]), {}
    outer = dict(consumer["nested_functions"]) if hasattr(info, "free") else {}    # (defined beside it)
    cx.nested_functions = outer
    cx.gen_active = record if call is None else None
    cx.gen_chain = consumer["gen_chain"] + (info,) if call is None else consumer["gen_chain"]
    cx.call_active = call
    cx.call_chain = consumer["call_chain"] + ((info,) if call is not None else ())
    try:
        yield consumer
    finally:
        _set_state(cx, consumer)


def bind_parameters(cx, info, inline, params: dict, call) -> None:
    """Write the generator's parameters (its copy's names) from `params` here, and mark its
    other locals unassigned; a function argument is called by its parameter's name, a
    generator (HELD_ARG) is held under the copy's name already (generator_args.py)."""
    for name in info.local_names:
        if name in inline.names:        # (not the outer variables it reads)
            cx.write("$def:" + inline.names[name], Const(name in params, T.BOOL))
    for name, value in params.items():
        if value is HELD_ARG:
            continue
        if isinstance(value, FunctionArg):
            cx.nested_functions[inline.names[name]] = value.obj
            continue
        new = inline.names[name]
        ann = info.param_types[info.param_names.index(name)]
        if ann is not None:
            cx.declared[new] = ann
            value = cx.coerce(value, ann, call)
        cx.write(new, value, loc=cx.loc(call))


def _set_state(cx, state: dict) -> None:
    for a in _STATE:
        setattr(cx, a, state[a])


def store_generator(cx, node: ast.Assign) -> bool:
    """`g = gen(...)` whose only use is a `for ... in g` later in the same statement list:
    the call's arguments are evaluated here, as in CPython, and the body is inlined at
    the loop. False (nothing built) for any other assignment."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) \
            or not isinstance(node.value, ast.Call):
        return False
    info = generator_info(cx, node.value)
    use = _loop_use(cx.info.node, node) if info is not None else None
    if use is None or any(is_arg(cx, a) for is_arg, _ in ARG_HOLDERS
                          for a in node.value.args + [k.value for k in node.value.keywords]):
        return False            # (a generator given to it: held, held_generators.py)
    args = {p: v if isinstance(v, FunctionArg) else cx.new_var("garg", v)
            for p, v in bind_generator_args(cx, info, node.value).items()}
    cx.__dict__.setdefault("stored_generators", {})[id(use)] = (info, node.value, args)
    return True


def inline_copy(cx, info, call: ast.Call, guard: bool = True) -> InlineCopy:
    """The renamed copy for this call, and for its k-th inlining in this build: a call
    inside a consumer body built at several `yield`s is inlined once at each, and each
    copy is typed on its own (the same copies in every rebuild, for the type hints).
    `guard`: a generator's (PEP 479's StopIteration guard); not a plain function's."""
    seen = cx.__dict__.setdefault("inline_counts", {})
    k = seen[id(call)] = seen.get(id(call), -1) + 1
    copies = info.__dict__.setdefault("_inline_copies" if guard else "_call_copies", {})
    found = copies.get((id(call), k))
    if found is None or found.call is not call:
        found = copies[(id(call), k)] = InlineCopy(info, call, guard)
    return found


# A generator given to a generator (`doubled(squares(n))`): (is_generator_arg(cx, node),
# hold(cx, name, node)) of generator_args.py, which hold it in the parameter's renamed name.
ARG_HOLDERS: list = []


class HeldArg:
    """A parameter given a generator, held under the copy's name (ARG_HOLDERS)."""


HELD_ARG = HeldArg()


def bind_generator_args(cx, info, call: ast.Call, inline: InlineCopy | None = None,
                        first: Value | None = None) -> dict[str, Value]:
    """The generator's parameters bound to the call's arguments (evaluated here, in the
    consumer, in order) and defaults, by name. With its copy `inline`, an argument that is a
    generator is held in the copy's parameter (HELD_ARG); without, it is an error. `first`:
    the first parameter's value, given before the call's arguments (a method's instance)."""
    for a in call.args:
        if isinstance(a, ast.Starred):
            cx.error("*args in calls is not supported", a)
    skip = len(free_names(info))       # (read where they are, not passed)
    bound: dict[str, Value] = {}
    if class_methods.iter_call(cx, call):                       # iter(obj): obj.__iter__()
        return {info.param_names[0]: class_methods.iter_instance(cx, call)}
    if class_methods.method_generator(cx, call) is not None:     # obj.m(...): obj is `cx`
        bound[info.param_names[0]] = cx.expr(call.func.value)
        skip += 1
    elif first is not None:
        bound[info.param_names[skip]] = first
        skip += 1
    names = info.param_names[skip:]
    n_positional = getattr(info, "n_positional", len(info.param_names)) - skip
    if len(call.args) > n_positional:
        cx.error(f"{info.name}() takes {n_positional} positional arguments but {len(call.args)} "
                 "were given", call)
    def bind(name, a):
        for is_generator_arg, hold in ARG_HOLDERS:
            if inline is not None and is_generator_arg(cx, a):
                hold(cx, inline.names[name], a, inline)
                bound[name] = HELD_ARG
                return
        bound[name] = argument(cx, a)

    for name, a in zip(names, call.args):
        bind(name, a)
    for k in call.keywords:
        if k.arg is None:
            cx.error("**kwargs in calls is not supported", k.value)
        if k.arg not in names:
            cx.error(f"{info.name}() got an unexpected keyword argument '{k.arg}'", k.value)
        if k.arg in bound:
            cx.error(f"{info.name}() got multiple values for argument '{k.arg}'", k.value)
        bind(k.arg, k.value)
    for name in names:
        if name not in bound:
            if name not in info.defaults:
                cx.error(f"{info.name}() missing required argument '{name}'", call)
            obj = info.defaults[name]
            v = cx.python_object(obj, name, call)
            if not isinstance(v, Value) and not callable(obj):
                cx.error(f"the default of '{name}' of '{info.name}' is not a value "
                         "compiled code can use", call)
            bound[name] = v if isinstance(v, Value) else FunctionArg(obj)
    return bound


def argument(cx, node) -> Value | FunctionArg:
    """An argument's value, or the function it names (a global function, a builtin:
    the generator calls it by its parameter's name)."""
    from script.frontend.closures import NestedFunction
    v = None
    if isinstance(node, ast.Name) and node.id not in cx.locals and not (
            cx.comp_scopes and cx.comprehension_var(node.id)) or isinstance(node, ast.Attribute):
        v = cx.lookup(node) if isinstance(node, ast.Name) else cx.attribute_ref(node)
    if isinstance(v, PyRef) and callable(v.obj) and not isinstance(v.obj, NestedFunction):
        return FunctionArg(v.obj)
    if isinstance(node, ast.Lambda) or isinstance(v, PyRef) and isinstance(v.obj, NestedFunction):
        cx.error("a lambda or nested function passed to a generator is not supported in compiled "
                 "code (pass a module-level function)", node)
    v = optional.expr_opt(cx, node) if not isinstance(v, Value) else v
    return Const(v.value, v.type, v.loc) if isinstance(v, WeakConst) else v

# ---- yield and return inside an inlined generator ---------------------------------------


def stmt_yield(cx, node) -> None:
    """`yield v` / `yield from xs` as a statement."""
    record = cx.gen_active
    if record is None:
        cx.error(f"'{cx.info.name}' is a generator function: compiled code inlines it where it "
                 "is iterated (a for loop, list(), sum(), ...), and it cannot be called from Python, "
                 "since a compiled function cannot return a generator; iterate it inside a compiled "
                 "function, or call the undecorated Python function", node)
    if any(f.finalbody is not None for f in cx.try_frames[record.frames:]) \
            or len(cx.dropping) > record.dropping:
        cx.error("'yield' inside a 'try' that has a 'finally' is not supported in compiled code",
                 node)
    if isinstance(node, ast.YieldFrom):
        each_item(cx, node.value, lambda v: _hand_on(cx, v), total="yield")
        return
    value = cx.expr(node.value) if node.value is not None else Const(None, T.NONE)
    _hand_on(cx, value)


def _hand_on(cx, value: Value) -> None:
    """Give `value` to the consumer of the generator being built: its code is built here,
    with its own state back in place."""
    record = cx.gen_active
    if isinstance(value, WeakConst):
        value = Const(value.value, value.type, value.loc)
    mine = {a: getattr(cx, a) for a in _STATE}
    _set_state(cx, record.consumer)
    try:
        record.on_item(value)
    finally:
        _set_state(cx, mine)


def generator_return(cx, node: ast.Return) -> None:
    """`return` in an inlined generator: the `finally` bodies of its own ``try``
    statements, then the end of the walk (a returned value is computed and dropped: a
    consumer never sees StopIteration.value)."""
    record = cx.gen_active
    if node.value is not None:
        cx.expr(node.value)
    exceptions.keep_foreign(cx, record.loops, node)
    exceptions.run_finally(cx, record.frames, node)
    if cx.block is not None:
        cx.goto(record.done, cx.loc(node))


def expr_Yield(cx, node):
    cx.error("the value of a 'yield' expression (generator.send) is not supported in compiled "
             "code; write 'yield v' as a statement", node)


expr_YieldFrom = expr_Yield


def _loop_use(fn: ast.FunctionDef, assign: ast.Assign) -> ast.Name | None:
    """The `g` of `for ... in g` when that is the only read of the name `assign` stores (its
    only store), in a statement after `assign` in the same statement list; else None."""
    name = assign.targets[0].id
    uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name]
    loads = [n for n in uses if isinstance(n.ctx, ast.Load)]
    if len(uses) != 2 or len(loads) != 1:
        return None
    for node in ast.walk(fn):
        for body in _statement_lists(node):
            if any(s is assign for s in body):
                k = next(i for i, s in enumerate(body) if s is assign)
                return loads[0] if any(isinstance(s, ast.For) and s.iter is loads[0] for s in body[k + 1:]) else None
    return None


def _statement_lists(node):
    for field in ("body", "orelse", "finalbody"):
        body = getattr(node, field, None)
        if isinstance(body, list):
            yield body
    for h in getattr(node, "handlers", ()):
        yield h.body
