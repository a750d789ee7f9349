"""``try`` / ``except`` / ``else`` / ``finally`` in compiled functions.

Inside a ``try`` every way of raising becomes an edge of the CFG to where the exception
goes. A `check` or ``raise`` has a class known while compiling: its exception is made as a
value (`exception`, after a branch for a check) and jumps straight to the ``except`` clause
that catches that class (CPython's hierarchy of the builtin exceptions), or to the landing
block of the innermost ``finally`` before one; a check nothing catches stays a `check`. A
call (and a `str_py`, whose exception CPython raised: runtime/py_errors.py) is followed by
`raised` and a branch to a block that takes the callee's exception (`catch`) to the ``try``'s landing block, which tests it against each clause in order at
run time (`exc_match`); none matching sends it on to the enclosing ``try`` or out of the
function (`reraise`, with its message as it was made). The exception travels in a
synthetic variable (``$exc<N>``), so the clause gets it, and every variable the handler
reads, as block parameters built like any other merge (Braun et al.): a variable assigned
in the try body is seen by the handler with the value it had where the exception was
raised. Outside every ``try`` nothing changes.

``finally`` bodies are copied, as CPython's compiler copies them: one copy on the normal
exit, one on the exceptional exit (which raises the exception again after it), and one
before each ``return``, ``break`` and ``continue`` that leaves the ``try`` (the returned
value is computed before the copy runs, as in CPython). A copy is built with the handlers
outside its ``try``, so what it raises goes to them.

Not caught: KeyboardInterrupt from a `poll` of the function's own loops (it unwinds at
once, ``finally`` bodies skipped) and any exception a Python signal handler raised (status
2 in the Env: it matches no clause, not even a bare ``except:``); MemoryError of an array
allocation. See docs/exceptions.md.
"""

from __future__ import annotations

import ast
import builtins as py_builtins

from script.ir import types as T
from script.ir.core import Const, Instr, Value, set_terminator
from script.frontend.user_exceptions import catches, raised_class
from script.ir.ops import EXCEPTIONS, ExcInfo
from script.frontend import user_exceptions


class Frame:
    """One enclosing ``try`` while its protected statements are built: where exceptions go
    (`landing`, through variable `var`: for a ``finally`` every exception, for ``except``
    clauses those whose class is known only at run time), the clauses (`handlers`: for each,
    its classes, its first block and the variable its exception arrives in), and for a
    ``finally`` its body and the number of loops open around the ``try`` (a ``break`` or
    ``continue`` of a loop outside runs it)."""

    __slots__ = ("landing", "var", "handlers", "finalbody", "loops")

    def __init__(self, landing, var: str, handlers=None, finalbody=None, loops: int = 0):
        self.landing = landing
        self.var = var
        self.handlers = handlers
        self.finalbody = finalbody
        self.loops = loops


class TryLowering:
    """The ``try`` statement and the routing of raises inside one (a mixin of
    FunctionLowering, whose `try_emit` and `try_raise_unbound` are the SSA builder's
    `emit_hook` and `raise_hook`, so that they see every instruction)."""

    try_frames: list
    dropping: list          # (exception, loops open) of the `finally` bodies run for one
    handling: list          # the exceptions being handled, innermost last (a bare `raise`)
    exc_names: dict         # `except E as name`: name -> the exception

    # ---- routing ------------------------------------------------------------------------

    def in_try(self) -> bool:
        return bool(self.try_frames) and self.block is not None and not self.is_dead()

    def try_emit(self, op: str, operands, type: T.Type, attr=None, loc=None) -> Value:
        if op == "check" and self.in_try():
            return self.routed_check(operands, attr, loc)
        result = self.emit_plain(op, operands, type, attr, loc)
        if op in ("call", "str_py") and self.in_try() and isinstance(result, Instr):
            raised = self.emit_plain("raised", [], T.BOOL, None, loc)
            land, cont = self.new_block("try.caught"), self.new_block("try.cont")
            self.branch(raised, land, cont, loc)
            self.seal(land)
            self.seal(cont)
            self.start(land)
            self.throw(self.emit_plain("catch", [], T.EXC, None, loc), loc)
            self.start(cont)
        return result

    def routed_check(self, operands, exc: ExcInfo, loc) -> Value:
        """A `check` inside a ``try``: a branch to a block sending the exception to the
        handler; a plain `check` when no handler catches its class (nor a ``finally`` runs)."""
        if _unknown(operands) or not self.is_caught(exc):
            return self.emit_plain("check", operands, T.NONE, exc, loc)
        cond, *args = operands
        if isinstance(cond, Const):
            if cond.value:
                self.throw(self.emit_plain("exception", args, T.EXC, exc, loc), loc)
                self.start_dead()
            return Const(None, T.NONE)
        fail, cont = self.new_block("try.raise"), self.new_block("try.ok")
        self.branch(cond, fail, cont, loc)
        self.seal(fail)
        self.seal(cont)
        self.start(fail)
        self.throw(self.emit_plain("exception", args, T.EXC, exc, loc), loc)
        self.start(cont)
        return Const(None, T.NONE)

    def start_dead(self) -> None:
        """Go on in a block nothing reaches (after a certain raise inside an expression)."""
        dead = self.new_block("dead")
        self.sealed.add(dead)
        self.dead_from[dead] = self._left
        self.block = dead

    def route_raise(self, exc: ExcInfo, args, loc) -> bool:
        """Send a ``raise`` to the handler that catches it; False when none does (the
        caller ends the block with a `raise`)."""
        if not self.in_try() or not self.is_caught(exc):
            return False
        self.throw(self.emit_plain("exception", list(args), T.EXC, exc, loc), loc)
        return True

    def is_caught(self, exc: ExcInfo) -> bool:
        """Whether an exception raised here with `exc` reaches a handler or a ``finally`` of
        this function."""
        return self.destination(exc) is not None

    def destination(self, exc: ExcInfo | None):
        """Where an exception raised here goes: (block, variable) of the ``except`` clause
        that catches the class of `exc` (a user class's too: user_exceptions.py), or of the
        landing block of the innermost ``finally`` before one, or of the innermost landing
        when `exc` is None (a class known only at run time); None when it leaves the function."""
        raised = raised_class(exc) if exc is not None else None
        for frame in reversed(self.try_frames):
            if frame.handlers is None or raised is None:
                return frame.landing, frame.var
            for classes, block, var in frame.handlers:
                if any(catches(raised, c) for c in classes):
                    return block, var
        return None

    def throw(self, e: Value, loc) -> None:
        """End the current block sending exception `e` where it goes: when its class is
        known here (an `exception`), straight to the clause catching it, else to the
        innermost landing block; out of the function when nothing catches it (a `raise`
        of the known class, or `reraise`)."""
        known = isinstance(e, Instr) and e.opname == "exception"
        to = self.destination(e.attr if known else None)
        if to is not None:
            self.write(to[1], e)
            self.goto(to[0], loc)
        elif known:
            set_terminator(self.block, "raise", list(e.operands), attr=e.attr, loc=loc)
            self.block = None
        else:
            set_terminator(self.block, "reraise", [e], loc=loc)
            self.block = None

    # ---- the statement ------------------------------------------------------------------

    def stmt_Try(self, node: ast.Try) -> None:
        self.check_handlers(node)
        if not node.finalbody:
            self.try_except(node)
            return
        loc = self.loc(node)
        frame = Frame(self.new_block("finally.landing"), self.exc_var(), None, node.finalbody, len(self.loops))
        self.try_frames.append(frame)
        self.try_except(node)
        self.try_frames.pop()
        join = self.new_block("finally.end")
        if self.block is not None:
            self.stmts(node.finalbody)          # the normal exit
            self.goto(join, loc)
        self.seal(frame.landing)
        if frame.landing.preds:
            self.start(frame.landing)           # the exceptional exit
            e = self.read(frame.var, loc)
            self.dropping.append((e, len(self.loops)))
            try:
                self.stmts(node.finalbody)
            finally:
                self.dropping.pop()
            if self.block is not None:
                self.throw(e, loc)
        self.finish_join(join)

    def exc_var(self) -> str:
        """A fresh synthetic variable for a landing block's exception (the same name in
        every rebuild of the function)."""
        self.counter += 1
        return f"$exc{self.counter}"

    def try_raise_unbound(self, exc, loc) -> Value:
        if not self.in_try() or not self.route_raise(exc, [], loc):
            return self.raise_unbound_plain(exc, loc)      # (no clause catches it: raised out)
        self.start_dead()
        from script.frontend.unknown import UNKNOWN, Undef
        return Undef(UNKNOWN, loc)

    def try_except(self, node) -> None:
        """The ``try`` body, its handlers and its ``else``, without the ``finally``."""
        if not node.handlers:
            self.stmts(node.body)
            return
        loc = self.loc(node)
        handlers = [(self.handler_classes(h.type) if h.type is not None else ["BaseException"],
                     self.new_block("except"), self.exc_var()) for h in node.handlers]
        frame = Frame(self.new_block("try.landing"), self.exc_var(), handlers, None, len(self.loops))
        self.try_frames.append(frame)
        self.stmts(node.body)
        self.try_frames.pop()
        join = self.new_block("try.end")
        if self.block is not None:
            self.stmts(node.orelse)
            self.goto(join, loc)
        self.seal(frame.landing)
        if frame.landing.preds:                 # exceptions of calls: matched at run time
            self.start(frame.landing)
            e = self.read(frame.var, loc)
            for h, (classes, block, var) in zip(node.handlers, handlers):
                self.write(var, e)
                other = self.new_block("except.next")
                self.branch(self.match(e, classes, self.loc(h)), block, other, self.loc(h))
                self.seal(other)
                self.start(other)
            self.throw(e, loc)
        for h, (_, block, var) in zip(node.handlers, handlers):
            self.seal(block)
            if block.preds:
                self.start(block)
                self.handler_body(h, self.read(var, self.loc(h)))
                self.goto(join, self.loc(h))
        self.finish_join(join)

    def handler_body(self, h: ast.ExceptHandler, e: Value) -> None:
        self.handling.append(e)
        saved = self.exc_names.get(h.name) if h.name else None
        if h.name:
            self.exc_names[h.name] = e
        try:
            self.stmts(h.body)
        finally:
            self.handling.pop()
            if h.name:
                if saved is None:
                    del self.exc_names[h.name]
                else:
                    self.exc_names[h.name] = saved

    def match(self, e: Value, names: list[str], loc) -> Value:
        """Whether exception `e` is of one of the classes `names` (an ``except`` clause's)."""
        result = None
        for name in names:
            if isinstance(name, type):          # a user class (user_exceptions.py)
                base, key = user_exceptions.user_exception_class(self, name, None)
                m = user_exceptions.match_user_class(self, e, base, key, loc)
            else:
                m = self.emit_plain("exc_match", [e], T.BOOL, name, loc)
            result = m if result is None else self.emit_plain("or", [result, m], T.BOOL, None, loc)
        return result

    # ---- checks -------------------------------------------------------------------------

    def check_handlers(self, node: ast.Try) -> None:
        for h in node.handlers:
            if h.type is not None:
                self.handler_classes(h.type)
            if h.name and h.name in self.locals:
                self.error(f"'{h.name}' names the exception of an 'except ... as {h.name}' and "
                           "is assigned elsewhere: give them different names", h)
            if h.name:
                self.check_exc_name_uses(h)

    def check_exc_name_uses(self, h: ast.ExceptHandler) -> None:
        """CompileError at a use of ``name`` of ``except E as name`` other than ``raise
        name`` and its text (``str(name)``, ``repr``, ``print``, an f-string field: strings.py
        `str_of`), even in a handler that nothing can reach (it is not built)."""
        allowed = set()
        for s in ast.walk(ast.Module(h.body, [])):
            if isinstance(s, ast.Raise):
                allowed.update((id(s.exc), id(s.cause)))
            elif isinstance(s, ast.FormattedValue):
                allowed.add(id(s.value))
            elif isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id in ("str", "repr", "print"):
                allowed.update(id(a) for a in s.args)
        for n in ast.walk(ast.Module(h.body, [])):
            if isinstance(n, ast.Name) and n.id == h.name and id(n) not in allowed:
                self.error(f"the exception '{h.name}' of an 'except ... as {h.name}' can only be raised "
                           f"again ('raise {h.name}', a bare 'raise') or made text (str({h.name}), "
                           f"repr({h.name}), print({h.name}), f'{{{h.name}}}') in compiled code", n)

    def handler_classes(self, type_node) -> list[str]:
        nodes = type_node.elts if isinstance(type_node, ast.Tuple) else [type_node]
        names = []
        for n in nodes:
            # `except ValueError`, `except MyError`, `except statistics.StatisticsError`
            ref = self.lookup(n) if isinstance(n, ast.Name) else \
                self.attribute_ref(n) if isinstance(n, ast.Attribute) else None
            obj = getattr(ref, "obj", None)
            if user_exceptions.user_exception_class(self, obj, n) is not None:
                names.append(obj)
                continue
            if not (isinstance(obj, type) and issubclass(obj, BaseException)
                    and (obj.__name__ in EXCEPTIONS or obj is BaseException)
                    and getattr(py_builtins, obj.__name__, None) is obj):
                self.error("only builtin exception classes can be caught in compiled code "
                           f"({', '.join(EXCEPTIONS[:6])}, ..., BaseException)", n)
            names.append(obj.__name__)
        return names

    # ---- leaving a try: raise, return, break, continue ----------------------------------

    def reraise(self, node) -> None:
        """A bare ``raise`` (or ``raise e`` of an ``except ... as e``)."""
        if isinstance(node.exc, ast.Name):
            e = self.exc_names[node.exc.id]
        elif not self.handling:
            self.error("a bare 'raise' is only supported inside an 'except' clause", node)
        else:
            e = self.handling[-1]
        self.throw(e, self.loc(node))

    def check_cause(self, cause) -> None:
        """``raise X from cause``: `cause` is None or the ``e`` of an ``except ... as e``.
        The exception raised is X, as in CPython; its ``__cause__`` is not kept (compiled
        code has no traceback to show it in)."""
        if isinstance(cause, ast.Constant) and cause.value is None:
            return
        if isinstance(cause, ast.Name) and cause.id in self.exc_names:
            return
        self.error("'raise ... from X' takes None or the name of an 'except ... as' in compiled code", cause)

    def keep_foreign(self, loops: int, node) -> None:
        """Before a ``return`` (`loops` 0) or a ``break``/``continue`` of the loop at depth
        `loops`: a jump out of a ``finally`` body run for an exception drops it, as in
        CPython, except one a Python signal handler raised (already set in the thread
        state, matched by no clause), which is raised again instead."""
        for e, depth in reversed(self.dropping):
            if depth < loops or self.block is None:
                continue
            loc = self.loc(node)
            ours = self.emit_plain("exc_match", [e], T.BOOL, "BaseException", loc)
            drop, keep = self.new_block("finally.drop"), self.new_block("finally.keep")
            self.branch(ours, drop, keep, loc)
            self.seal(drop)
            self.seal(keep)
            self.start(keep)
            self.throw(e, loc)
            self.start(drop)

    def run_finally(self, down_to: int, node) -> None:
        """Run the ``finally`` bodies of the frames from the innermost down to index
        `down_to`, each built with only the frames outside it open (what it raises goes
        to those)."""
        frames = self.try_frames
        for k in range(len(frames) - 1, down_to - 1, -1):
            if self.block is None:
                break
            if frames[k].finalbody is None:
                continue
            self.try_frames = frames[:k]
            try:
                self.stmts(frames[k].finalbody)
            finally:
                self.try_frames = frames

    def leave_loop(self, node) -> None:
        """Before a ``break`` or ``continue``: the ``finally`` bodies of the frames inside
        the innermost loop."""
        depth = len(self.loops)
        self.keep_foreign(depth, node)
        k = len(self.try_frames)
        while k > 0 and self.try_frames[k - 1].loops >= depth:
            k -= 1
        self.run_finally(k, node)


def _unknown(operands) -> bool:
    from script.frontend.unknown import Undef, Unknown
    return any(isinstance(v.type, Unknown) or isinstance(v, Undef) for v in operands)
