"""Specializations: one typed SSA function per (user function, argument types).

`specialize(info, types)` builds, or returns the cached, unoptimized IR of a user function
for these argument types, building its callees on demand. The build of one function is tried
in rounds (see ssa_builder.Restart): type hints widen between rounds until they are stable.

Recursion: while `f` is being built, a call to `f` itself uses `f`'s return type — the
annotation, or the hint from an earlier round. In the first round there is none: the call's
result has the unknown type (unknown.Unknown), which operations pass on, merges ignore and
`return` skips, so the round types `f` from its returns that do not depend on the call (the
base cases, wherever they are: `return 1 if n < 2 else n * f(n - 1)` gives int). That round is
never kept: `f` is built again with the type found as a hint, and again while its return type
still widens (a fixed point: `1 if n < 2 else f(n - 1) * 0.5` settles at float), so the body
that is kept was checked whole against the final type. A function that no known `return`
types is a CompileError asking for an annotation. Mutual recursion works the same way:
functions built while `f`'s return type is unknown are *tainted* (they may have used it); they
are cached only for the rest of `f`'s round, which is always rolled back. Entries cached while a
round ran are dropped if it restarts, since they may have used a stale return type.

All of this runs under one process-wide lock, so compiling from several threads is safe.
"""

from __future__ import annotations

import threading
import weakref

from script.errors import CompileError
from script.frontend.callee_hints import (CalleeHint, adopt_returned, escape_hints, foreign_nodes, raise_foreign,
                                          take_hints)
from script.frontend.class_types import MAX_WIDENINGS, FieldsWidened, note_users, seed_from_argument
from script.frontend.random_calls import check_generator_callees
from script.frontend.source import FunctionInfo
from script.frontend.ssa_builder import Restart
from script.frontend.unknown import UNKNOWN
from script.ir import types as T
from script.ir.core import Function, closure_of

COMPILE_LOCK = threading.RLock()
MAX_ROUNDS = 12


class PerInfo:
    """A cache keyed by ``(info, ...)`` whose entries live in the info itself (its
    ``__dict__[name]``, keyed by the rest of the key), so they go when the info goes: a
    process-wide dict would keep every function compiled once, and everything its closure
    holds, for the life of the process (docs/memory.md)."""

    def __init__(self, name: str):
        self.name = name

    def get(self, key: tuple, default=None):
        return key[0].__dict__.get(self.name, {}).get(key[1:], default)

    def __setitem__(self, key: tuple, value) -> None:
        key[0].__dict__.setdefault(self.name, {})[key[1:]] = value

    def __getitem__(self, key: tuple):
        return key[0].__dict__[self.name][key[1:]]


class Context:
    def __init__(self):
        self.in_progress: dict[tuple, object] = {}     # (info, types) -> FunctionLowering
        self.journal: list[tuple] = []                 # cache insertions while a build runs, in order
        self.depth = 0                                 # builds of functions called from Python running
        self.infos = weakref.WeakKeyDictionary()       # py_func -> FunctionInfo, while py_func lives
        self.names: dict[str, tuple] = {}
        self.nested_infos = PerInfo("_nested_infos")   # (outer info, def node id) -> info (closures.py)
        self.lambda_defs: dict[int, object] = {}           # lambda node id -> its def (closures.py)
        self.bound_infos = PerInfo("_bound_infos")     # (info, statics) -> (BoundFunctionInfo, info) (static_args.py)
        self.escapes = PerInfo("_escapes")             # (info, (types, boundscheck)) -> hint keys (callee_hints.py)

    # ---- user functions ------------------------------------------------------------------

    @staticmethod
    def script_info(obj) -> FunctionInfo | None:
        try:
            d = object.__getattribute__(obj, "__dict__")
        except AttributeError:
            return None
        info = d.get("_script_info") if isinstance(d, dict) else None
        return info if isinstance(info, FunctionInfo) else None

    def info_for(self, py_func) -> FunctionInfo:
        try:
            info = self.infos.get(py_func)
        except TypeError:               # not weakly referable: made again each time
            return FunctionInfo(py_func)
        if info is None:
            info = self.infos[py_func] = FunctionInfo(py_func)
        return info

    def callee(self, builder, info: FunctionInfo, types: tuple, node) -> Function:
        key = self._in_progress_key((info, self._skey(info, types, builder.boundscheck, builder)[0]))
        current = self.in_progress.get(key)
        if current is not None:
            if current.ret_type is None and current.deferred_returns:
                # only a `return []` (of pending types) came before its own call: the call
                # gives that container, so that `f(n - 1) + [x]` or `out.append(x)` types it
                current.func.ret_type = current.deferred_returns[0]
                return current.func
            if current.ret_type is None:
                self._mark_unknown_recursion(key, builder.loc(node))
                current.func.ret_type = UNKNOWN     # the call gives an Undef (call_script)
                return current.func
            current.used_ret_hint = True
            current.func.ret_type = current.ret_type
            adopt_returned(builder, current.ret_type)
            return current.func
        func = self.specialize(info, types, builder.boundscheck, builder)
        adopt_returned(builder, func.ret_type)      # its containers of pending types (callee_hints.py)
        return func

    def _in_progress_key(self, key: tuple) -> tuple:
        """`key`, or the key its function and types are being built under with other hints
        for the containers it returns (its first caller's: `_skey`): a recursive call."""
        if key in self.in_progress:
            return key
        info, skey = key
        for k in self.in_progress:
            if k[0] is info and k[1][:2] == skey[:2]:
                return k
        return key

    def _skey(self, info: FunctionInfo, types: tuple, boundscheck: bool, caller) -> tuple:
        """The cache key of `info` for `types` and the hints it is built with: for a function
        called from `caller` whose result holds containers it made of pending types (known
        from an earlier build: `escapes`), the caller's hints for them are part of the key."""
        skey = (types, boundscheck)
        esc = self.escapes.get((info, skey)) if caller is not None else None
        if esc is None:
            return skey, {}
        given = escape_hints(caller, esc)
        return skey + (tuple(given.items()),), given

    def _mark_unknown_recursion(self, key, loc) -> None:
        """A call to the in-progress `key` whose return type is not known yet: that round must
        be rebuilt, and every function being built inside it (the stack above it) may have
        used the unknown type."""
        keys = list(self.in_progress)
        target = self.in_progress[key]
        if target.unknown_recursion is None:
            target.unknown_recursion = loc
        for k in keys[keys.index(key) + 1:]:
            self.in_progress[k].tainted = True

    def never_returns(self, func: Function) -> bool:
        """Whether a finished specialization raises on every path (it has no `ret`)."""
        if any(b.func is func for b in self.in_progress.values()):
            return False
        return not any(b.terminator is not None and b.terminator.opname == "ret" for b in func.blocks)

    def specialize(self, info: FunctionInfo, types: tuple, boundscheck: bool = True, caller=None) -> Function:
        """The IR of `info` for argument `types`; `boundscheck=False` builds array indexing
        without bounds checks (callees built for it inherit the choice). `caller`: the builder
        of the function calling it, which takes the containers of pending types it returns
        (callee_hints.py); None for a function called from Python."""
        skey, given = self._skey(info, types, boundscheck, caller)
        cached = info.specializations.get(skey)
        if cached is not None:
            return cached
        from script.frontend.lower_stmt import FunctionLowering
        key = (info, skey)
        hints: dict = dict(given)
        mark = len(self.journal)
        name = self.unique_name(info, types, skey[2:]) + ("" if boundscheck else ".nobc")
        foreign = foreign_nodes(types)      # a caller's containers of pending types (callee_hints.py)
        rounds = 0
        while rounds < MAX_ROUNDS:
            rounds += 1
            builder = FunctionLowering(self, info, types, hints, name, boundscheck)
            builder.unknown_recursion = None    # where a call to this function found no type yet
            builder.tainted = False             # built while a caller's return type is unknown
            builder.foreign = foreign
            builder.may_escape = caller is not None
            builder.escape_key = (info, (types, boundscheck))
            self.in_progress[key] = builder
            try:
                try:
                    func = builder.build()
                except Exception:
                    raise_foreign(foreign, hints, builder)     # (a round about a caller's types)
                    raise
                raise_foreign(foreign, hints, builder)
            except Restart:
                self._rollback(mark)
                continue
            except CalleeHint as e:
                self._rollback(mark)
                if take_hints(e, foreign, hints, builder):
                    rounds -= 1     # a callee's new hints: one a container, so they run out
                continue
            except CompileError:
                # An error in a round where a recursive call's result was unknown may come from
                # that (`range(f(n - 1))`): the next round, with a return type, decides.
                self._rollback(mark)
                if builder.unknown_recursion is None or builder.tainted:
                    raise
                self._next_ret_hint(info, builder, hints)
                continue
            finally:
                self.in_progress.pop(key, None)
            if builder.tainted:
                # Junk typed with a caller's unknown return type; the caller's round is rolled
                # back, this entry with it. Its return type, if any, lets the caller go on.
                func.ret_type = builder.ret_type or hints.get(("ret", None)) or UNKNOWN
                info.specializations[skey] = func
                self.journal.append(key)
                note_users(builder, info, skey)
                return func
            if builder.unknown_recursion is not None:
                self._rollback(mark)
                self._next_ret_hint(info, builder, hints)
                continue
            if builder.saw_unknown is not None:
                self._rollback(mark)
                if builder.hints_changed:
                    continue
                raise CompileError("a variable is used before it has a value of a known type here",
                                   builder.saw_unknown)
            if builder.used_ret_hint and func.ret_type != hints.get(("ret", None), func.ret_type):
                self._rollback(mark)
                hints[("ret", None)] = func.ret_type
                continue
            info.specializations[skey] = func
            self.journal.append(key)
            note_users(builder, info, skey)
            return func
        raise CompileError(f"the types of '{info.name}' did not settle after {MAX_ROUNDS} rounds of "
                           "inference; annotate its variables", info.loc(info.node))

    @staticmethod
    def _next_ret_hint(info: FunctionInfo, builder, hints: dict) -> None:
        """After a round that met its own recursive call untyped: the return type its other
        returns gave (the hint `do_return` recorded), or the error asking for an annotation."""
        if hints.get(("ret", None)) is None:
            raise CompileError(f"cannot infer the return type of recursive function '{info.name}': "
                               "no return gives a value that does not depend on the recursive call; "
                               "annotate it (-> int, -> float, ...)",
                               builder.unknown_recursion or info.loc(info.node)) from None

    def _rollback(self, mark: int) -> None:
        for info, skey in self.journal[mark:]:
            info.specializations.pop(skey, None)
        del self.journal[mark:]

    def unique_name(self, info: FunctionInfo, types: tuple, extra: tuple = ()) -> str:
        """A symbol name for `info` specialized for `types` (`extra`: the rest of its key)."""
        base = info.qualname + "." + "_".join(mangle(t) for t in types) if types else info.qualname
        name = base
        n = 1
        while name in self.names and self.names[name] != (id(info), types, extra):
            n += 1
            name = f"{base}.{n}"
        self.names[name] = (id(info), types, extra)
        return name


def mangle(t: T.Type) -> str:
    """A type as part of a symbol name: letters, digits and underscores only."""
    if isinstance(t, T.OptionalType):
        return "O" + mangle(t.value) + "E"
    if isinstance(t, T.TupleType):
        return "T" + "".join(mangle(e) for e in t.elems) + "E"
    if isinstance(t, T.ArrayType):
        return f"A{t.ndim}{t.layout}{t.dtype}"
    return str(t)


CONTEXT = Context()


def specialize(info: FunctionInfo, types: tuple, boundscheck: bool = True) -> Function:
    """`Context.specialize` for a function called from Python: built again from the start
    while the fields of a class widen (class_types.py: they have one type everywhere)."""
    with COMPILE_LOCK:
        for t in types:                         # instances from Python (instance_args)
            held = [t] if isinstance(t, T.ClassType) else [t.elem] if isinstance(t, T.ListType) \
                else list(t.elems) if type(t) is T.TupleType else []
            for c in held:
                if isinstance(c, T.ClassType):
                    seed_from_argument(c)
        CONTEXT.depth += 1
        try:
            for _ in range(MAX_WIDENINGS):
                mark = len(CONTEXT.journal)
                try:
                    func = CONTEXT.specialize(info, types, boundscheck)
                    check_generator_callees(closure_of(func))
                    return func
                except FieldsWidened:
                    CONTEXT._rollback(mark)
                    CONTEXT.in_progress.clear()
        finally:
            CONTEXT.depth -= 1
            if CONTEXT.depth == 0:
                CONTEXT.journal.clear()     # nothing left to roll back; it would keep every info
        raise CompileError(f"the types of the fields of the classes '{info.name}' uses did not settle; "
                           "annotate them", info.loc(info.node))


