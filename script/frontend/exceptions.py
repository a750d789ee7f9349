"""``try`` / ``except`` / ``else`` / ``finally`` in compiled functions.

Inside a ``try`` every way of raising becomes an edge of the CFG to where the exception
goes. A `check` or ``raise`` has a class known while compiling: its exception is made as a
value (`exception`, after a branch for a check) and jumps straight to the ``except`` clause
that catches that class (CPython's hierarchy of the builtin exceptions), or to the landing
block of the innermost ``finally`` before one; a check nothing catches stays a `check`. A
call (and a `str_py`, whose exception CPython raised: runtime/py_errors.py) is followed by
`raised` and a branch to a block that takes the callee's exception (`catch`) to the
``try``'s landing block, which tests it against each clause in order at run time
(`exc_match`); none matching sends it on to the enclosing ``try`` or out of the function
(`reraise`, with its message as it was made). The exception travels in a
synthetic variable (``$exc<N>``), so the clause gets it, and every variable the handler
reads, as block parameters built like any other merge (Braun et al.): a variable assigned
in the try body is seen by the handler with the value it had where the exception was
raised. Outside every ``try`` nothing changes.

``finally`` bodies are copied, as CPython's compiler copies them: one copy on the normal
exit, one on the exceptional exit (which raises the exception again after it), and one
before each ``return``, ``break`` and ``continue`` that leaves the ``try`` (the returned
value is computed before the copy runs, as in CPython). A copy is built with the handlers
outside its ``try``, so what it raises goes to them.

Functions over the lowering `cx`: `try_emit` and `try_raise_unbound` are the SSA builder's
`emit_hook` and `raise_hook`, so that they see every instruction.

Not caught: KeyboardInterrupt from a `poll` of the function's own loops (it unwinds at
once, ``finally`` bodies skipped) and any exception a Python signal handler raised (status
2 in the Env: it matches no clause, not even a bare ``except:``); MemoryError of an array
allocation. See docs/exceptions.md.
"""

from __future__ import annotations

import ast
import builtins as py_builtins

from script.frontend import built_exceptions, user_exceptions
from script.frontend.user_exceptions import catches, raised_class
from script.frontend.pyref import Undefined
from script.ir import types as T
from script.ir.core import Const, Instr, Value, set_terminator
from script.ir.ops import EXCEPTIONS, ExcInfo


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


def in_try(cx) -> bool:
    return bool(cx.try_frames) and cx.block is not None and not cx.is_dead()


def try_emit(cx, op: str, operands, type: T.Type, attr=None, loc=None) -> Value:
    if op == "check" and in_try(cx):
        return routed_check(cx, operands, attr, loc)
    result = cx.emit_plain(op, operands, type, attr, loc)
    if op in ("call", "str_py") and in_try(cx) and isinstance(result, Instr):
        raised = cx.emit_plain("raised", [], T.BOOL, None, loc)
        land, cont = cx.new_block("try.caught"), cx.new_block("try.cont")
        cx.branch(raised, land, cont, loc)
        cx.seal(land)
        cx.seal(cont)
        cx.start(land)
        throw(cx, cx.emit_plain("catch", [], T.EXC, None, loc), loc)
        cx.start(cont)
    return result


def routed_check(cx, operands, exc: ExcInfo, loc) -> Value:
    """A `check` inside a ``try``: a branch to a block sending the exception to the
    handler; a plain `check` when no handler catches its class (nor a ``finally`` runs)."""
    if _unknown(operands) or not is_caught(cx, exc):
        return cx.emit_plain("check", operands, T.NONE, exc, loc)
    cond, *args = operands
    if isinstance(cond, Const):
        if cond.value:
            throw(cx, cx.emit_plain("exception", args, T.EXC, exc, loc), loc)
            start_dead(cx)
        return Const(None, T.NONE)
    fail, cont = cx.new_block("try.raise"), cx.new_block("try.ok")
    cx.branch(cond, fail, cont, loc)
    cx.seal(fail)
    cx.seal(cont)
    cx.start(fail)
    throw(cx, cx.emit_plain("exception", args, T.EXC, exc, loc), loc)
    cx.start(cont)
    return Const(None, T.NONE)


def start_dead(cx) -> None:
    """Go on in a block nothing reaches (after a certain raise inside an expression)."""
    dead = cx.new_block("dead")
    cx.sealed.add(dead)
    cx.dead_from[dead] = cx._left
    cx.block = dead


def route_raise(cx, exc: ExcInfo, args, loc) -> bool:
    """Send a ``raise`` to the handler that catches it; False when none does (the
    caller ends the block with a `raise`)."""
    if not in_try(cx) or not is_caught(cx, exc):
        return False
    throw(cx, cx.emit_plain("exception", list(args), T.EXC, exc, loc), loc)
    return True


def is_caught(cx, exc: ExcInfo) -> bool:
    """Whether an exception raised here with `exc` reaches a handler or a ``finally`` of
    this function."""
    return destination(cx, exc) is not None


def destination(cx, exc: ExcInfo | None):
    """Where an exception raised here goes: (block, variable) of the ``except`` clause
    that catches the class of `exc` (a user class's too: user_exceptions.py), or of the
    landing block of the innermost ``finally`` before one, or of the innermost landing
    when `exc` is None (a class known only at run time); None when it leaves the function."""
    raised = raised_class(exc) if exc is not None else None
    for frame in reversed(cx.try_frames):
        if frame.handlers is None or raised is None:
            return frame.landing, frame.var
        for classes, block, var in frame.handlers:
            if any(catches(raised, c) for c in classes):
                return block, var
    return None


def throw(cx, e: Value, loc) -> None:
    """End the current block sending exception `e` where it goes: when its class is
    known here (an `exception`), straight to the clause catching it, else to the
    innermost landing block; out of the function when nothing catches it (a `raise`
    of the known class, or `reraise`)."""
    known = isinstance(e, Instr) and e.opname == "exception"
    to = destination(cx, e.attr if known else None)
    if to is not None:
        cx.write(to[1], e)
        cx.goto(to[0], loc)
    elif known:
        set_terminator(cx.block, "raise", list(e.operands), attr=e.attr, loc=loc)
        cx.block = None
    else:
        set_terminator(cx.block, "reraise", [e], loc=loc)
        cx.block = None

# ---- the statement ------------------------------------------------------------------


def stmt_Try(cx, node: ast.Try) -> None:
    check_handlers(cx, node)
    if not node.finalbody:
        try_except(cx, node)
        return
    loc = cx.loc(node)
    frame = Frame(cx.new_block("finally.landing"), exc_var(cx), None, node.finalbody, len(cx.loops))
    cx.try_frames.append(frame)
    try_except(cx, node)
    cx.try_frames.pop()
    join = cx.new_block("finally.end")
    if cx.block is not None:
        cx.stmts(node.finalbody)          # the normal exit
        cx.goto(join, loc)
    cx.seal(frame.landing)
    if frame.landing.preds:
        cx.start(frame.landing)           # the exceptional exit
        e = cx.read(frame.var, loc)
        cx.dropping.append((e, len(cx.loops)))
        try:
            cx.stmts(node.finalbody)
        finally:
            cx.dropping.pop()
        if cx.block is not None:
            throw(cx, e, loc)
    cx.finish_join(join)


def exc_var(cx) -> str:
    """A fresh synthetic variable for a landing block's exception (the same name in
    every rebuild of the function)."""
    cx.counter += 1
    return f"$exc{cx.counter}"


def try_raise_unbound(cx, exc, loc) -> Value:
    if not in_try(cx) or not route_raise(cx, exc, [], loc):
        return cx.raise_unbound_plain(exc, loc)      # (no clause catches it: raised out)
    start_dead(cx)
    from script.frontend.unknown import UNKNOWN, Undef
    return Undef(UNKNOWN, loc)


def try_except(cx, node) -> None:
    """The ``try`` body, its handlers and its ``else``, without the ``finally``."""
    if not node.handlers:
        cx.stmts(node.body)
        return
    loc = cx.loc(node)
    handlers = [(handler_classes(cx, h.type) if h.type is not None and undefined_class(cx, h.type) is None
                 else ["BaseException"], cx.new_block("except"), exc_var(cx)) for h in node.handlers]
    frame = Frame(cx.new_block("try.landing"), exc_var(cx), handlers, None, len(cx.loops))
    cx.try_frames.append(frame)
    cx.stmts(node.body)
    cx.try_frames.pop()
    join = cx.new_block("try.end")
    if cx.block is not None:
        cx.stmts(node.orelse)
        cx.goto(join, loc)
    cx.seal(frame.landing)
    if frame.landing.preds:                 # exceptions of calls: matched at run time
        cx.start(frame.landing)
        e = cx.read(frame.var, loc)
        for h, (classes, block, var) in zip(node.handlers, handlers):
            cx.write(var, e)
            other = cx.new_block("except.next")
            cx.branch(match(cx, e, classes, cx.loc(h)), block, other, cx.loc(h))
            cx.seal(other)
            cx.start(other)
        throw(cx, e, loc)
    for h, (_, block, var) in zip(node.handlers, handlers):
        cx.seal(block)
        if block.preds:
            cx.start(block)
            missing = undefined_class(cx, h.type) if h.type is not None else None
            if missing is not None:     # `except Missing:`: the NameError of evaluating it
                cx.name_error(missing, h.type)
                continue
            handler_body(cx, h, cx.read(var, cx.loc(h)))
            cx.goto(join, cx.loc(h))
    cx.finish_join(join)


def handler_body(cx, h: ast.ExceptHandler, e: Value) -> None:
    cx.handling.append(e)
    saved = cx.exc_names.get(h.name) if h.name else None
    if h.name:
        cx.exc_names[h.name] = e
    try:
        cx.stmts(h.body)
    finally:
        cx.handling.pop()
        if h.name:
            if saved is None:
                del cx.exc_names[h.name]
            else:
                cx.exc_names[h.name] = saved


def match(cx, e: Value, names: list[str], loc) -> Value:
    """Whether exception `e` is of one of the classes `names` (an ``except`` clause's)."""
    result = None
    for name in names:
        if isinstance(name, type):          # a user class (user_exceptions.py)
            base, key = user_exceptions.user_exception_class(cx, name, None)
            m = user_exceptions.match_user_class(cx, e, base, key, loc)
        else:
            m = cx.emit_plain("exc_match", [e], T.BOOL, name, loc)
        result = m if result is None else cx.emit_plain("or", [result, m], T.BOOL, None, loc)
    return result

# ---- checks -------------------------------------------------------------------------


def undefined_class(cx, type_node):
    """The `Undefined` of an ``except`` clause's class (or a class of its tuple) that no scope
    defines, else None: CPython evaluates the clause when an exception reaches it, and
    raises NameError then, whatever the exception."""
    nodes = type_node.elts if isinstance(type_node, ast.Tuple) else [type_node]
    for n in nodes:
        ref = cx.lookup(n) if isinstance(n, ast.Name) and n.id not in cx.locals else None
        if isinstance(getattr(ref, "obj", None), Undefined):
            return ref.obj
    return None


def check_handlers(cx, node: ast.Try) -> None:
    for h in node.handlers:
        if h.type is not None and undefined_class(cx, h.type) is not None:
            continue
        if h.type is not None:
            handler_classes(cx, h.type)
        if h.name and h.name in cx.locals:
            cx.error(f"'{h.name}' names the exception of an 'except ... as {h.name}' and "
                     "is assigned elsewhere: give them different names", h)
        if h.name:
            check_exc_name_uses(cx, h)


def check_exc_name_uses(cx, h: ast.ExceptHandler) -> None:
    """CompileError at a use of ``name`` of ``except E as name`` other than ``raise
    name``, its text (``str(name)``, ``repr``, ``print``, an f-string field: strings.py
    `str_of`) and, when E is one user class, ``name.attr`` (built_exceptions.py), even in a
    handler that nothing can reach (it is not built)."""
    allowed = set()
    classes = handler_classes(cx, h.type) if h.type is not None else []
    user = classes[0] if len(classes) == 1 and isinstance(classes[0], type) else None
    attrs = cx.info.__dict__.setdefault("_caught_attributes", {})     # id(node) -> class
    for s in ast.walk(ast.Module(h.body, [])):
        if user is not None and isinstance(s, ast.Attribute) and isinstance(s.value, ast.Name) \
                and s.value.id == h.name and isinstance(s.ctx, ast.Load) and s.attr != "args":
            attrs[id(s)] = user
            allowed.add(id(s.value))
        if isinstance(s, ast.Raise):
            allowed.update((id(s.exc), id(s.cause)))
        elif isinstance(s, ast.FormattedValue):
            allowed.add(id(s.value))
        elif isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id in ("str", "repr", "print"):
            allowed.update(id(a) for a in s.args)
    for n in ast.walk(ast.Module(h.body, [])):
        if isinstance(n, ast.Name) and n.id == h.name and id(n) not in allowed:
            cx.error(f"the exception '{h.name}' of an 'except ... as {h.name}' can only be raised "
                     f"again ('raise {h.name}', a bare 'raise') or made text (str({h.name}), "
                     f"repr({h.name}), print({h.name}), f'{{{h.name}}}') in compiled code", n)


def caught_attribute(cx, node: ast.Attribute) -> Value | None:
    """``e.attr`` of ``except C as e`` of a user class C (check_exc_name_uses), else None."""
    cls = cx.info.__dict__.get("_caught_attributes", {}).get(id(node))
    if cls is None or not isinstance(node.value, ast.Name) or node.value.id not in cx.exc_names:
        return None
    return built_exceptions.attribute(cx, cx.exc_names[node.value.id], cls, node)


def handler_classes(cx, type_node) -> list[str]:
    nodes = type_node.elts if isinstance(type_node, ast.Tuple) else [type_node]
    names = []
    for n in nodes:
        # `except ValueError`, `except MyError`, `except statistics.StatisticsError`
        ref = cx.lookup(n) if isinstance(n, ast.Name) else \
            cx.attribute_ref(n) if isinstance(n, ast.Attribute) else None
        obj = getattr(ref, "obj", None)
        if user_exceptions.user_exception_class(cx, obj, n) is not None:
            names.append(obj)
            continue
        if not (isinstance(obj, type) and issubclass(obj, BaseException)
                and (obj.__name__ in EXCEPTIONS or obj is BaseException)
                and getattr(py_builtins, obj.__name__, None) is obj):
            cx.error("only builtin exception classes can be caught in compiled code "
                     f"({', '.join(EXCEPTIONS[:6])}, ..., BaseException)", n)
        names.append(obj.__name__)
    return names

# ---- leaving a try: raise, return, break, continue ----------------------------------


def reraise(cx, node) -> None:
    """A bare ``raise`` (or ``raise e`` of an ``except ... as e``)."""
    if isinstance(node.exc, ast.Name):
        e = cx.exc_names[node.exc.id]
    elif not cx.handling:
        cx.error("a bare 'raise' is only supported inside an 'except' clause", node)
    else:
        e = cx.handling[-1]
    throw(cx, e, cx.loc(node))


def check_cause(cx, cause) -> None:
    """``raise X from cause``: `cause` is None or the ``e`` of an ``except ... as e``.
    The exception raised is X, as in CPython; its ``__cause__`` is not kept (compiled
    code has no traceback to show it in)."""
    if isinstance(cause, ast.Constant) and cause.value is None:
        return
    if isinstance(cause, ast.Name) and cause.id in cx.exc_names:
        return
    cx.error("'raise ... from X' takes None or the name of an 'except ... as' in compiled code", cause)


def keep_foreign(cx, loops: int, node) -> None:
    """Before a ``return`` (`loops` 0) or a ``break``/``continue`` of the loop at depth
    `loops`: a jump out of a ``finally`` body run for an exception drops it, as in
    CPython, except one a Python signal handler raised (already set in the thread
    state, matched by no clause), which is raised again instead."""
    for e, depth in reversed(cx.dropping):
        if depth < loops or cx.block is None:
            continue
        loc = cx.loc(node)
        ours = cx.emit_plain("exc_match", [e], T.BOOL, "BaseException", loc)
        drop, keep = cx.new_block("finally.drop"), cx.new_block("finally.keep")
        cx.branch(ours, drop, keep, loc)
        cx.seal(drop)
        cx.seal(keep)
        cx.start(keep)
        throw(cx, e, loc)
        cx.start(drop)


def run_finally(cx, down_to: int, node) -> None:
    """Run the ``finally`` bodies of the frames from the innermost down to index
    `down_to`, each built with only the frames outside it open (what it raises goes
    to those)."""
    frames = cx.try_frames
    for k in range(len(frames) - 1, down_to - 1, -1):
        if cx.block is None:
            break
        if frames[k].finalbody is None:
            continue
        cx.try_frames = frames[:k]
        try:
            cx.stmts(frames[k].finalbody)
        finally:
            cx.try_frames = frames


def leave_loop(cx, node) -> None:
    """Before a ``break`` or ``continue``: the ``finally`` bodies of the frames inside
    the innermost loop."""
    depth = len(cx.loops)
    keep_foreign(cx, depth, node)
    k = len(cx.try_frames)
    while k > 0 and cx.try_frames[k - 1].loops >= depth:
        k -= 1
    run_finally(cx, k, node)


def _unknown(operands) -> bool:
    from script.frontend.unknown import Undef, Unknown
    return any(isinstance(v.type, Unknown) or isinstance(v, Undef) for v in operands)
