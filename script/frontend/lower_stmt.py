"""Statements and the per-function lowering driver state.

`FunctionLowering` builds one specialization (one tuple of argument types) of one user
function: it walks the function's statements, creating blocks as control flow requires, and
returns the typed SSA `Function`. Code after a `return`, `break`, `continue` or `raise` is
unreachable: `self.block` is None there and such statements are skipped, as CPython would
never run them.
"""

from __future__ import annotations

import ast
import builtins as py_builtins
import operator

from script.errors import STRICT_NAMES, CompileError, SourceLoc
from script.frontend import (arrays, bool_ints, bounded_deques, built_exceptions, builtins_lowering, bytes_values, class_members,
                             class_methods, class_types, class_unions, closures, complex_arrays, complex_lowering,
                             default_tables, dict_methods, dicts, elementwise, enum_members, enum_values, exceptions,
                             fraction_calls, generator_args, generators, global_tables, held_generators, held_iterators, itertools_calls, lists, match, messages,
                             mixed_numbers, named_tuples, numpy_alloc, optional, python_classes, records, star_zip, strings,
                             strmethods, union_returns, user_exceptions)
from script.frontend.held_iterators import HeldIterators
from script.frontend.int_consts import RANGE_TEXT, check_int_as_u64
from script.frontend.bound_methods import hold_bound_method
from script.frontend.dispatch_tables import hold_dispatch_table
from script.frontend.held_functions import hold_function
from script.frontend.numba_compat import is_prange
from script.frontend.callee_hints import settle_deferred_returns, settle_returned
from script.frontend.python_classes import is_deque, note_return as note_class_return
from script.frontend.table_args import note_return
from script.frontend.iterator_returns import note_iterator_return
from script.frontend.elementwise import ArrayExpr
from script.frontend.bounded_deques import DequeBounds
from script.frontend.messages import ComplexText
from script.frontend.closures import NestedFunction
from script.frontend import function_values
from script.frontend.int_consts import is_library
from script.pyhooks.named_instance import is_named_tuple_class
from script.frontend.class_methods import mixed_classes
from script.frontend.default_tables import TableDefaults
from script.frontend.optional import is_optional, python_name, test_facts
from script.frontend.lower_expr import (_NO_SAMPLE, NOT_CONTAINERS, ExprLowering, WeakConst, const_of, kind_sample,
                                       sample_type_error)
from script.frontend.pymessages import message, printf_escape, unbound_free, unbound_local
from script.frontend.pyref import PyRef, Undefined
from script.frontend.random_calls import assign_default_rng
from script.frontend import registered  # noqa: F401  (the registry's entries: registry.py)
from script.frontend.ssa_builder import Restart, SSABuilder, holds_list
from script.frontend.loop import Growing, Loop
from script.frontend.unknown import UNKNOWN, PendingElement, Undef, Unknown, has_unknown
from script.frontend.typeinfer import type_from_annotation
from script.ir import types as T
from script.ir.core import Const, Function, Value, reachable_blocks, set_terminator
from script.ir.ops import EXCEPTIONS, ExcInfo
from script.ir.parallel import PRANGE_HEAD

_UNSUPPORTED_STMTS = {
    "TryStar": "'except*' (exception groups)",
    "AsyncWith": "'async with'", "AsyncFor": "'async for'", "AsyncFunctionDef": "async functions",
    "Global": "'global' declarations", "Nonlocal": "'nonlocal' declarations",
"ClassDef": "class definitions",
}

# Statements lowered by free functions over the lowering (the others are still `stmt_X`
# methods of FunctionLowering's bases: issue 19).
_STMT_FUNCTIONS = {"Match": match.stmt_Match, "FunctionDef": closures.stmt_FunctionDef,
                   "Try": exceptions.stmt_Try}


def _lists_at_conflict(cx, other: Value, v: Value) -> None:
    lists.merge_pending_list(cx, other.type, v.type)    # lists.py: `x = []` meets a typed list
    lists.widen_list_at_merge(cx, other, v)             # lists.py: `[1] * n` meets a list[f64]
    class_types.widen_number_fields(cx, other.type, v.type)   # P(0, 1) meets P(1.5, 2)


def _attribute_store_error(sample, attr: str) -> str | None:
    """CPython's AttributeError text for ``x.attr = v`` of every value like `sample` (None, a
    number, a str, a container: they take no attributes); None when it raises none."""
    if sample is _NO_SAMPLE:
        return None
    try:
        setattr(sample, attr, None)
    except AttributeError as e:
        return str(e)
    except Exception:  # noqa: BLE001 - no text to give
        return None
    return None


def _item_store_error(t: T.Type) -> str | None:
    """CPython's TypeError for `x[i] = v` where every value of type `t` refuses it."""
    return sample_type_error(lambda x: operator.setitem(x, 0, 0), kind_sample(t))


def _unpack_two(x) -> None:
    """CPython's unpacking, run on a sample to take its TypeError's text."""
    a, b = x


class FunctionLowering(SSABuilder, ExprLowering):
    def __init__(self, ctx, info, arg_types, hints: dict, name: str, boundscheck: bool = True):
        func = Function(name, arg_types, T.NONE, SourceLoc(info.filename, info.first_line),
                        info.param_names)
        super().__init__(func, info.filename, hints)
        self.emit_hook = exceptions.try_emit
        self.raise_hook = exceptions.try_raise_unbound
        self.conflict_hook = _lists_at_conflict
        self.ctx = ctx
        self.info = info
        self.pre_evaluated: dict[int, Value] = {}     # node id -> its value (lower_expr.lazy)
        self.splitting: set[int] = set()        # ids of expressions being lowered per type (mixed_numbers)
        self.bool_int_uses: dict[int, str] = {}       # node id -> how a bool|int read there is taken (bool_ints.py)
        self.bound_methods: dict[str, tuple] = {}     # name -> (synthetic local, method): bound_methods.py
        self.dispatch_tables: dict[str, list] = {}    # name -> [(key, function node)]: dispatch_tables.py
        self.held_functions: dict[str, tuple] = {}    # name -> (index local, function nodes): held_functions.py
        self.boundscheck = boundscheck
        self.loops: list[Loop] = []
        self.declared: dict[str, T.Type] = {}
        self.python_ints: set[int] = set()             # ids of int(a[i]), a[i].item(): lower_expr.is_numpy_int
        # The return annotation is a first guess (it types `return []` and recursive calls),
        # given up for the returns' own types where a value would change (do_return).
        annotated = None if hints.get(("ret", "unannotated")) else info.return_type
        self.ret_annotated = annotated is not None
        self.ret_type: T.Type | None = annotated or hints.get(("ret", None))
        self.used_ret_hint = False
        self.locals = info.local_names
        self.counter = 0
        self.nested_functions = dict(getattr(info, "visible", {}))     # closures.py
        self.imported: dict = {}        # names bound by imports in the body (stmt_Import)
        self.comp_scopes: list[dict[str, str]] = []    # comprehension targets (lists.py)
        self.pending_lists: set = set()                # empty lists of unknown type (lists.py)
        self.list_origins: dict = {}                   # id(list value) -> the display that made it (lists.py)
        self.returned_displays: list = []               # the displays of the lists returned (do_return)
        self.name_origins: dict = {}                    # local name -> the display of the list it holds (lists.py)
        self.inner_origins: dict = {}                   # a display -> the displays of its inner lists (lists.py)
        self.deferred_returns: list = []               # returned before typed (callee_hints.py)
        self.unknown_stores: set = set()               # of those, given values of unknown type
        self.pending_tables: dict = {}                 # node -> is_set, of tables of unknown types (dicts.py)
        self.foreign: frozenset = frozenset()          # callers' pending nodes in the arguments (callee_hints.py)
        self.may_escape = False                        # its own pending containers may be returned to a caller
        self.escape_key = None                         # (info, (types, boundscheck)): Context.escapes
        self.escaping: set = set()                     # ids of the nodes of those it returns (callee_hints.py)
        self.global_lists: dict[int, str] = {}         # id of a global list's copy -> its name (lists.py)
        self.optional_names: set[str] = set()          # locals read as optionals (optional.py)
        self.try_frames: list = []                     # enclosing `try` statements (exceptions.py)
        self.handling: list = []                       # exceptions being handled (exceptions.py)
        self.dropping: list = []                       # `finally` bodies run for an exception (exceptions.py)
        self.exc_names: dict = {}                      # `except E as name` (exceptions.py)
        self.arg_types: dict | None = None             # id(argument) -> type, of a raise (built_exceptions.py)
        self.gen_active = None          # the generator (generators.Inlined) whose body is being built here
        self.gen_chain: tuple = ()      # the generator functions being inlined, outermost first
        self.call_active = None         # the function call given a generator being inlined (generator_args.py)
        self.call_chain: tuple = ()     # the functions inlined so, outermost first
        self.gen_total = False          # the walk being built takes all, showing nothing (generators.py)
        self.rng_names: dict[str, object] = {}         # default_rng(), random.Random() names (random_calls.py)
        self.call_classes: dict = {}    # id(call node) -> the Python class its result has (python_classes.py)
        self.read_names: dict = {}      # id(dict or list value) -> (it, the name read) (python_classes.note_read)
        self.dict_views: dict = {}      # id of a `d.keys()` call -> "dict_keys", ... (python_classes.note_view)
        self.deque_bounds = DequeBounds()
        self.table_defaults = TableDefaults(info)
        self.complex_text = ComplexText()
        self.held_nodes: list = []                     # nodes standing for values (match.held)
        self.held = HeldIterators()                    # ranges and iterators held as values (held_iterators.py)
        self.held_gens: dict = {}                      # name -> the generator it holds (held_generators.py)
        self.hoisted_tables: dict = {}                 # id of a global container -> its value (global_tables.py)
        self.frozen_lists: dict = {}                   # id of a global list -> its frozen array (global_tables.py)
        if self.ret_type is not None:       # (a recursive maker's `[]` typed since: callee_hints.py)
            self.ret_type = lists.resolve_pending(self, self.ret_type)

    # ---- driver --------------------------------------------------------------------------

    def build(self) -> Function:
        entry = self.func.entry
        for name, p, ann in zip(self.info.param_names, entry.params, self.info.param_types):
            self.write(name, p)
            self.write("$def:" + name, Const(True, T.BOOL))
            if ann is not None:
                self.declared[name] = ann
        for name in self.locals:
            if name not in self.info.param_names:
                self.write("$def:" + name, Const(False, T.BOOL))
        global_tables.hoist(self)
        self.stmts(self.info.node.body)
        if self.block is not None:
            last = self.info.node.body[-1] if self.info.node.body else self.info.node
            self.do_return(None, last, implicit=True)
        held_generators.settle(self)
        settle_deferred_returns(self)
        held_iterators.settle(self)
        lists.settle_pending_lists(self)
        dicts.settle_pending_tables(self)
        self.func.ret_type = self.ret_type if self.ret_type is not None else T.NONE
        order = reachable_blocks(self.func)
        live = set(order)
        dead = [b for b in self.func.blocks if b not in live]
        for b in dead:          # first every use by unreachable code (of values it defines too)
            for instr in b.instrs:
                instr.drop_operands()
        for b in dead:
            self.func.remove_block(b)
        self.func.blocks = order        # reverse postorder: definitions print before uses
        self.drop_unknown_params()
        return self.func

    def loc(self, node) -> SourceLoc | None:
        if node is None or not hasattr(node, "lineno"):
            return None
        return self.info.loc(node)

    def error(self, message_: str, node=None, reason: str | None = None):
        raise CompileError(message_, self.loc(node), reason=reason)

    def stmts(self, body) -> None:
        for s in body:
            if self.block is None or self.is_dead():
                return          # unreachable: after return/break/continue/raise
            self.stmt(s)

    def stmt(self, node: ast.stmt) -> None:
        start, stacks = self.block, (len(self.loops), len(self.comp_scopes), len(self.try_frames),
                                     len(self.handling), len(self.dropping))
        made = len(self.func.blocks)
        try:
            self.stmt_typed(node)
        except (CompileError, TypeError, AttributeError, KeyError, IndexError, ValueError,
                AssertionError) as e:
            if not self._never_runs(start, isinstance(e, CompileError), made):
                raise
            # Nothing runs what failed (a raise earlier, inside an expression: `range(x)` of a
            # float, `s ** 2` of a str), so what it could not type never happens, as in CPython.
            del self.loops[stacks[0]:], self.comp_scopes[stacks[1]:], self.try_frames[stacks[2]:]
            del self.handling[stacks[3]:], self.dropping[stacks[4]:]
            exceptions.start_dead(self)

    def _never_runs(self, start, typing_error: bool, made: int) -> bool:
        """Whether the statement that began in block `start` failed where nothing runs: it
        began unreachable (any CompileError there), or the block it was building when it
        failed is one that a raise inside an expression left dead (`round(s ** 2)` of a str
        raises at `**`; `round` of its value, which never exists, is not typed), and no loop
        it opened where it runs is left half built (a comprehension's head waiting for its
        back edge, the other side of a statement split on an int|float name: the
        statement's error stands)."""
        if start is not None and typing_error and not self.reachable(start):
            return True
        if self.block is None or self.block not in self.dead_from or self.reachable(self.block):
            return False
        return all(not self.reachable(b) or (b in self.sealed and (b is self.block or b.terminator))
                   for b in self.func.blocks[made:])

    def stmt_typed(self, node: ast.stmt) -> None:
        if self.hints.get(mixed_numbers.SPLIT_HINT):
            try:
                if not mixed_numbers.split_statement(self, node, lambda: self.stmt_as_is(node)):
                    self.stmt_as_is(node)
            except mixed_numbers.NumRead as e:
                if mixed_numbers.retry(self, node, e.node):
                    raise Restart() from None
                raise CompileError(e.message, e.loc, reason=e.reason) from None
            return
        try:
            self.stmt_as_is(node)
        except mixed_numbers.NumRead as e:
            if mixed_numbers.retry(self, node, e.node):    # built again, the statement split on it
                raise Restart() from None
            raise CompileError(e.message, e.loc, reason=e.reason) from None
        except CompileError:
            if mixed_numbers.reads_num(self, node):      # built again, statements split on such names
                self.hints[mixed_numbers.SPLIT_HINT] = True
                self.hints_changed = True
                raise Restart() from None
            raise

    def stmt_as_is(self, node: ast.stmt) -> None:
        """Lower statement `node` (`stmt`: after splitting it on int|float names)."""
        kind = type(node).__name__
        if kind in _UNSUPPORTED_STMTS:
            self.error(f"{_UNSUPPORTED_STMTS[kind]} are not supported in compiled code", node)
        lowering = _STMT_FUNCTIONS.get(kind)
        if lowering is not None:
            lowering(self, node)
            return
        method = getattr(self, "stmt_" + kind, None)
        if method is None:
            self.error(f"'{kind}' statements are not supported in compiled code", node)
        method(node)

    # ---- names ---------------------------------------------------------------------------

    def resolve_name(self, node: ast.Name) -> Value:
        ref = self.lookup(node)
        if isinstance(ref, PyRef) and isinstance(ref.obj, Undefined):
            return self.name_error(ref.obj, node)
        if isinstance(ref, PyRef) and isinstance(ref.obj, NestedFunction):
            return function_values.nested_value(self, ref.obj, node)    # g = add: function_values.py
        if isinstance(ref, PyRef) and function_values.is_global_function(ref.obj):
            return function_values.global_value(self, ref.obj, node.id, node)     # fs = [helper, abs]
        if isinstance(ref, PyRef):
            self.error(f"'{node.id}' ({_describe(ref.obj)}) cannot be used as a value here", node)
        return ref

    def lookup(self, node: ast.Name):
        name = node.id
        pre = self.pre_evaluated.get(id(node))
        if isinstance(pre, PyRef):
            return pre                      # a function of a global dispatch table (dispatch_tables.py)
        if name in self.exc_names:
            return self.exc_names[name]     # raised again or made text (exceptions.py)
        nested = self.nested_functions.get(name)
        if nested is not None:
            return PyRef(nested, name)
        if name in self.imported:
            return self.python_object(self.imported[name], name, node)
        scoped = lists.comprehension_var(self, name) if self.comp_scopes else None
        if scoped is not None:
            return self.read(scoped, self.loc(node))
        if name in self.rng_names:
            return PyRef(self.rng_names[name], name)
        if name in self.held_gens:
            held_generators.refuse_use(self, node)
        if name in self.locals:
            value = self.read_local(name, node)
            if is_optional(value):
                self.optional_names.add(name)       # narrowed by tests of it (optional.py)
            return value
        found, obj = self.info.global_value(name)
        if not found:
            if hasattr(py_builtins, name):
                return PyRef(getattr(py_builtins, name), name)
            later = self.later_sibling(name, node)
            if later is not None:
                return PyRef(later, name)
            if STRICT_NAMES.get():
                self.error(f"name '{name}' is not defined", node)
            return PyRef(Undefined(name), name)     # its NameError where it is read
        return self.python_object(obj, name, node)

    def name_error(self, undefined: Undefined, node) -> Value:
        """CPython's NameError, raised where the `undefined` name is read or called (a path
        that never runs it never fails); the rest of the statement is built in a dead block."""
        return self.raise_always("NameError", f"name '{undefined.name}' is not defined", node)

    def later_sibling(self, name: str, node):
        """In a nested function, the nested function `name` of the enclosing function defined
        after this one (mutual recursion: `parse_expr` calling `parse_term`), when it reads
        no outer variable this one does not pass on; None when there is no such function."""
        later = getattr(self.info, "siblings", {}).get(name)
        if later is None:
            outer = getattr(self.info, "outer", None)
            if outer is not None and any(isinstance(n, ast.FunctionDef) and n.name == name
                                         for n in ast.walk(outer.node)):
                self.error(f"'{name}' is a nested function defined after '{self.info.name}' is called: "
                           f"define it before the first call", node)
            return None
        missing = [v for v in later.info.free if v not in self.info.free]
        if missing or later.info.nonlocals:
            what = f"reads '{missing[0]}'" if missing else "assigns nonlocal variables"
            self.error(f"'{name}' is a nested function defined after '{self.info.name}', which calls it, and "
                       f"{what} of the enclosing function: compiled code needs it defined first", node)
        return later

    def python_object(self, obj, name: str, node):
        """A global's value: scalars and tuples of them become constants, objects that lower
        themselves to a value (`__script_value__`, e.g. `cuda.threadIdx.x`) that value, the rest
        PyRefs."""
        value_of = getattr(type(obj), "__script_value__", None)
        if value_of is not None:
            return value_of(obj, self, node)
        made = global_tables.hoisted(self, obj)
        if made is not None:
            return made                     # made once, where the function starts
        if enum_values.is_plain_member(obj):        # a plain Enum's member: a value of its own (enum_values.py)
            if enum_values.refusal(type(obj)) is not None and enum_members.read_from(self, node):
                return PyRef(obj, name)     # (`Cls.X.value` of a class compiled code holds no member of)
            return enum_values.member(self, obj, node)
        if enum_members.is_valued_member(obj):      # `Color.RED` of an IntEnum: its value, where that is CPython's
            plain = enum_members.member_value(self, obj, name, node)
            if plain is None:
                return PyRef(obj, name)     # (`Color.RED.value`)
            obj = plain
        made = fraction_calls.constant(self, obj, name, node)
        if made is not None:
            return made
        if obj is None or isinstance(obj, (bool, int, float, complex)):
            try:
                return const_of(obj, self.loc(node))
            except OverflowError:
                self.error(f"global '{name}' = {obj} does not fit in 64 bits ({RANGE_TEXT})", node)
        if isinstance(obj, list):
            return lists.global_list(self, obj, name, node)
        if type(obj) in (dict, set, frozenset):
            return dicts.global_table(self, obj, name, node)
        if isinstance(obj, str):
            return strings.str_constant(self, str(obj), node)
        if is_named_tuple_class(type(obj)) and all(isinstance(x, (bool, int, float, complex, tuple, str))
                                                   or x is None for x in obj):
            return named_tuples.named_tuple_of(self, type(obj), [self.python_object(x, name, node) for x in obj],
                                               node)
        if isinstance(obj, tuple) and all(isinstance(x, (bool, int, float, complex, tuple, str, list)) or x is None
                                          for x in obj):
            items = [self.python_object(x, name, node) for x in obj]
            if not all(isinstance(v, Value) for v in items):
                return PyRef(obj, name)
            t = self.make_tuple(items, node)
            if holds_list(t.type):          # its lists are read-only, as a global list is
                self.global_lists[id(t)] = self.global_rows[id(t)] = name
            return t
        if type(obj).__name__ == "ndarray" and type(obj).__module__ == "numpy":
            from script.frontend.frozen import frozen_array, reject_rebound_array
            reject_rebound_array(self, obj, name, node)
            return frozen_array(self, obj, name, node)
        return PyRef(obj, name)

    def read_local(self, name: str, node, free: bool = False) -> Value:
        """The value of local `name` here; raises UnboundLocalError at run time on the paths
        where it was never assigned (a CompileError when that is every path). `free`: read for
        a nested function (its free variable), which raises CPython's NameError instead."""
        value = self.read(name, self.loc(node))
        if self.is_dead():
            return value        # after a certain raise: nothing here runs
        defined = self.read("$def:" + name, self.loc(node))
        shown = name.split(":", 1)[1] if name.startswith("$gen") else name     # generators.py renames
        exc = ExcInfo("NameError", unbound_free(shown).replace("%", "%%")) if free else \
            ExcInfo("UnboundLocalError", unbound_local(shown).replace("%", "%%"))
        if isinstance(defined, Const) and defined.value and not isinstance(value.type, Unknown):
            return value
        if isinstance(defined, Undef) or isinstance(defined, Const) and not defined.value:
            self.error(f"local variable '{shown}' is read before any assignment to it", node)
        if isinstance(value.type, Unknown):
            # No assignment with a value of a known type reaches here: when the types have
            # settled (no Restart), the only assignments that could are themselves computed
            # from such reads, so at run time this read always finds `name` unassigned.
            return self.raise_unbound(exc, self.loc(node))
        self.emit("check", [self.emit("not", [defined], T.BOOL, None, self.loc(node))], T.NONE,
                  exc, self.loc(node))
        return value

    def assign_name(self, name: str, value: Value, node) -> None:
        if name in self.declared and not keeps_python_value(value.type, self.declared[name]) \
                and not isinstance(value.type, Unknown):
            # `x: float = 0` holds the int 0 in CPython: the annotation was a hint, and the
            # name is typed by its values from here on, as an unannotated one.
            del self.declared[name]
        if name in self.declared:
            want = self.declared[name]
            lists.mark_typed_by_stores(self, value.type)      # (a hint: a store of another kind widens it)
            lists.merge_pending(self, want, value.type)        # `rows: list[list[float]] = []`, `xs: list[str] = []`
            if isinstance(want, T.HashType) and isinstance(value.type, T.HashType):
                dicts.merge_pending_table(self, value.type, want)      # `d: dict[str, int] = {}`
            if not T.is_convertible(value.type, want) and not isinstance(value.type, Unknown) \
                    and T.unify(value.type, want) != want:
                self.error(f"cannot assign a value of type {value.type} to '{name}', declared {want}", node)
            if isinstance(value, Const) and value.type == T.U64 and isinstance(want, T.IntType) \
                    and value.value > want.max:         # `x: int = 0xFFFFFFFFFFFFFFFF` (int_consts.py)
                self.error(f"cannot assign {value.value} to '{name}', declared {want}: it does not fit", node)
            value = self.coerce(value, want, node)
        if is_optional(value):
            self.optional_names.add(name)
        held_iterators.assigned(self, name, value)
        if id(value) in self.list_origins:
            self.name_origins[name] = self.list_origins[id(value)]
        else:
            self.name_origins.pop(name, None)
        self.write(name, value, loc=self.loc(node))
        self.write("$def:" + name, Const(True, T.BOOL))

    def assign(self, target: ast.expr, value: Value, node) -> None:
        if isinstance(target, ast.Name):
            self.assign_name(target.id, value, node)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if is_optional(value):
                value = optional.unwrap(self, value, node, "cannot unpack non-iterable NoneType object")
            self.unpack(target.elts, value, node)
        elif isinstance(target, ast.Subscript):
            self.assign_subscript(target, value, node)
        elif isinstance(target, ast.Attribute):
            self.assign_attribute(target, value, node)
        else:
            self.error(f"cannot assign to {type(target).__name__.lower()}", target)

    def assign_attribute(self, target: ast.Attribute, value: Value, node) -> None:
        """``obj.f = value`` for an instance of a class (records.py), and ``a.real = v`` /
        ``a.imag = v`` for an array: `v` written into that part, broadcast (complex_arrays.py)."""
        function_values.refuse_escape(self, getattr(value, "type", None), node, "stored in an attribute")
        base = class_types.instance_base(self, builtins_lowering.callee_ref(self, target.value), target.attr, target)
        if isinstance(getattr(base, "type", None), T.ArrayType) and target.attr in ("real", "imag"):
            part = complex_arrays.array_part(self, base, 0 if target.attr == "real" else 1, target)
            elementwise.store_expr(self, part, value, node)
            return
        if isinstance(getattr(base, "type", None), Unknown):
            return              # (a value not typed yet: a round to be rebuilt)
        if not T.is_instance_type(getattr(base, "type", None)):
            text = None if isinstance(base, PyRef) else _attribute_store_error(kind_sample(base.type), target.attr)
            if text is not None:        # None, an int, a str, a list...: CPython's AttributeError
                self.raise_always("AttributeError", text, target)
                return
            what = base.name if isinstance(base, PyRef) else f"a value of type {base.type}"
            self.error(f"cannot assign to an attribute of {what} in compiled code (only to the fields of "
                       "class instances)", target)
        records.store_record_field(self, base, target.attr, value, node)

    def unpack(self, targets, value: Value, node) -> None:
        """`a, b = value` and `a, *rest, z = value` for a tuple (its length is known: a wrong
        count is a CompileError), a list or an array (checked when it runs, with CPython's
        ValueError); the starred target gets a list."""
        stars = [k for k, e in enumerate(targets) if isinstance(e, ast.Starred)]
        if len(stars) > 1:
            self.error("multiple starred expressions in assignment", targets[stars[1]])
        k, loc = len(targets), self.loc(node)
        if isinstance(value.type, T.TupleType):
            n = len(value.type.elems)
            if n != k if not stars else n < k - 1:
                self.error(f"cannot unpack a tuple of {n} values into {k} targets", node)
            count = Const(n, T.I64)
            item = lambda i: self.emit("extract", [value], value.type.elems[i.value], i.value, loc)  # noqa: E731
        elif isinstance(value.type, (T.ListType, T.ArrayType)):
            count, item = self.checked_unpack(value, k, bool(stars), node)
        else:
            refused = sample_type_error(_unpack_two, kind_sample(value.type))
            if refused is not None:     # `a, b = None`: CPython's TypeError, where it raises it
                self.raise_always("TypeError", refused, node)
                return
            self.error(f"cannot unpack a value of type {value.type}", node)
        star = stars[0] if stars else k
        tail = k - 1 - star                     # targets after the starred one
        for j, t in enumerate(targets[:star]):
            self.assign(t, item(Const(j, T.I64)), node)
        if stars:
            rest = self.emit("sub", [count, Const(k - 1, T.I64)], T.I64, None, loc) \
                if not isinstance(count, Const) else Const(count.value - (k - 1), T.I64)
            self.assign(targets[star].value, self.list_of_items(rest, star, item, node), node)
        for j, t in enumerate(targets[star + 1:]):
            at = Const(count.value - tail + j, T.I64) if isinstance(count, Const) else \
                self.emit("add", [count, Const(j - tail, T.I64)], T.I64, None, loc)
            self.assign(t, item(at), node)

    def checked_unpack(self, value: Value, k: int, starred: bool, node):
        """(count, item) of a list or array unpacked into `k` targets (one `starred`), with
        CPython's ValueError when the count does not fit."""
        count, item, _ = self.iterable_value(value, node)
        if not starred:
            self.raise_if(self.cmp("lt", count, Const(k, T.I64), node), "ValueError",
                          f"not enough values to unpack (expected {k}, got %lld)", node, [count])
            self.raise_if(self.cmp("gt", count, Const(k, T.I64), node), "ValueError",
                          f"too many values to unpack (expected {k})", node)
        else:
            self.raise_if(self.cmp("lt", count, Const(k - 1, T.I64), node), "ValueError",
                          f"not enough values to unpack (expected at least {k - 1}, got %lld)", node, [count])
        return count, item

    def list_of_items(self, n: Value, first: int, item, node) -> Value:
        """A new list of `item(first)`, ..., `item(first + n - 1)` (the starred target)."""
        if isinstance(n, Const):
            values = [item(Const(first + j, T.I64)) for j in range(n.value)]
            if not values:
                return lists.list_of_unknown(self, node)
            lst = lists.new_list(self, lists.element_type(self, [v.type for v in values], node), n, node)
            for j, v in enumerate(values):
                lists.set_item(self, lst, v, Const(j, T.I64), node)
            return lst
        lst = lists.list_of_unknown(self, node)
        lists.for_range(self, node, n, lambda i: lists.append_item(self, 
            lst, item(self.emit("add", [i, Const(first, T.I64)], T.I64, None, self.loc(node))), node))
        return lst

    def assign_subscript(self, target, value, node):
        base = self.expr(target.value)
        if T.is_instance_type(base.type):
            return class_methods.instance_setitem(self, base, target.slice, value, node)
        if is_optional(value) and not isinstance(base.type, (T.ListType, T.HashType)):
            value = optional.unwrap(self, value, node)        # (a list or dict may hold None: lists.fit_optional)
        if isinstance(base.type, T.ArrayType):
            return arrays.array_store(self, base, target.slice, value, node)
        if isinstance(base.type, T.ListType):
            return lists.list_store(self, base, target.slice, value, node, target.value)
        if isinstance(base.type, Unknown):
            return None     # a round to be rebuilt (lists.get_item)
        if isinstance(base.type, T.HashType):
            return dict_methods.table_store_item(self, base, target.slice, value, node)
        refused = _item_store_error(base.type)
        if refused is not None:     # `t[i] = v` of a tuple: CPython's TypeError, after the index
            return lists.raise_after_index(self, target.slice, "TypeError", refused, target)
        self.error(f"item assignment is not supported on {base.type}", target)

    # ---- simple statements ---------------------------------------------------------------

    def stmt_Delete(self, node: ast.Delete) -> None:
        """`del lst[i]` (lists.py) and `del name` (the name is unbound afterwards)."""
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in self.locals:
                self.read_local(target.id, target)          # UnboundLocalError if unassigned
                self.write("$def:" + target.id, Const(False, T.BOOL))
                continue
            if isinstance(target, ast.Subscript):
                base = self.expr(target.value)
                if T.is_instance_type(base.type):
                    class_methods.instance_delitem(self, base, target.slice, target)
                    continue
                if isinstance(base.type, T.ListType):
                    lists.list_delete(self, base, target.slice, target)
                    continue
                if isinstance(base.type, T.HashType):
                    dict_methods.table_delete(self, base, target.slice, target)
                    continue
            self.error(f"'del' of {ast.unparse(target)!r} is not supported in compiled code "
                       "(only list and dict items and local names)", target)

    def stmt_Import(self, node: ast.Import) -> None:
        """`import m` / `import m.sub as s` in the body: bound when the function is compiled,
        to the module the statement would import (as a module-level import is read)."""
        for alias in node.names:
            module = self.import_module(alias.name, 0, node)
            if alias.asname is None:
                top = alias.name.split(".")[0]
                self.imported[top] = self.import_module(top, 0, node)
            else:
                self.imported[alias.asname] = module

    def stmt_ImportFrom(self, node: ast.ImportFrom) -> None:
        """`from m import x as y` in the body, as `stmt_Import`."""
        module = self.import_module(node.module or "", node.level, node)
        for alias in node.names:
            if alias.name == "*":
                self.error("'from ... import *' is not supported in compiled code", node)
            if hasattr(module, alias.name):
                obj = getattr(module, alias.name)
            else:
                obj = self.import_module(f"{module.__name__}.{alias.name}", 0, node)
            self.imported[alias.asname or alias.name] = obj

    def import_module(self, name: str, level: int, node):
        import importlib
        package = self.info.global_value("__package__")[1] if level else None
        try:
            return importlib.import_module("." * level + name, package)
        except Exception as e:  # noqa: BLE001 - whatever importing raises is the user's
            self.error(f"cannot import {'.' * level + name}: {type(e).__name__}: {e}", node)

    def stmt_With(self, node: ast.With) -> None:
        """``with np.errstate(...):``: the body as it is (compiled code gives NumPy's inf and
        nan without warnings, so there is nothing to silence); any other context manager is
        a CompileError."""
        import numpy as np
        for item in node.items:
            call = item.context_expr
            ref = builtins_lowering.callee_ref(self, call.func) if isinstance(call, ast.Call) and isinstance(
                call.func, (ast.Name, ast.Attribute)) else None
            if not isinstance(ref, PyRef) or ref.obj is not np.errstate or item.optional_vars is not None:
                self.error("'with' statements are not supported in compiled code (except `with "
                           "open(...) as name:` reading a text file, and `with np.errstate(...):`, whose "
                           "body runs as it is)", node)
        self.stmts(node.body)

    def stmt_Pass(self, node) -> None:
        pass

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):
            return        # docstrings and bare constants do nothing
        if isinstance(node.value, (ast.Yield, ast.YieldFrom)):
            return generators.stmt_yield(self, node.value)
        bool_ints.permit(self, bool_ints.KEEP, node.value)
        optional.expr_opt(self, node.value, num=True, union=True)     # (discarded: a None, an int|float, a union, a bool|int too)

    def stmt_Assign(self, node: ast.Assign) -> None:
        if hold_function(self, node):                           # held_functions.py: op = operator.lt
            return
        if isinstance(node.value, ast.Lambda) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if closures.is_bound_in_order(self.info, name):
                closures.assign_lambda(self, node.targets[0], node.value)
                return
            if closures.is_def_name(self.info, name):
                self.error(f"'{name}' is bound to a def and to a lambda in '{self.info.name}', not all in its own "
                           "body's statements: not supported in compiled code; give each function its own name",
                           node)
            # (bound in a branch or a loop: a variable holding a function value, function_values.py)
        if generators.store_generator(self, node):                          # generators.py: g = gen(...)
            return
        if held_generators.store(self, node):                   # held_generators.py: g = gen(...); next(g)
            return
        if hold_bound_method(self, node):                       # bound_methods.py: ins = xs.insert
            return
        if hold_dispatch_table(self, node):                     # dispatch_tables.py: ops = {"+": f}
            return
        if assign_default_rng(self, node):                      # random_calls.py: rng = default_rng(s)
            return
        if all(isinstance(t, ast.Name) for t in node.targets):
            bool_ints.permit(self, bool_ints.KEEP, node.value)        # a local may hold a bool|int
        # An array expression assigned into an array is computed straight into it.
        into_array = len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
        value = self.lazy_opt(node.value) if into_array else generators.unpacked_generator(self, node.targets, node.value)
        # (an int|float stays one where it is given a name: mixed_numbers.py)
        names = all(isinstance(t, ast.Name) for t in node.targets)
        value = value if value is not None else optional.expr_opt(self, node.value, num=names, union=names)
        for target in node.targets:
            default_tables.note_default_table(self, target, node.value)    # defaultdict, Counter (default_tables.py)
            bounded_deques.note_bounded_deque(self, target, node.value)    # deque(maxlen=n)
            self.assign(target, value, node)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):     # `self.items: list[int] = []` in a method:
            if node.value is not None:                  # CPython only assigns
                self.stmt_Assign(ast.copy_location(ast.Assign([node.target], node.value), node))
            return
        t = self.annotation_type(node.annotation)
        name = node.target.id
        if t is not None:               # (`g: Dict[int, set] = {}`: typed by its stores)
            self.declared[name] = t
        else:
            self.declared.pop(name, None)
        if node.value is not None:
            value = optional.expr_opt(self, node.value, num=True)
            default_tables.note_default_table(self, node.target, node.value)
            bounded_deques.note_bounded_deque(self, node.target, node.value)
            self.assign_name(name, value, node)

    def annotation_type(self, ann_node) -> T.Type | None:
        """The type a local's annotation names, None for one that names no type the compiler
        knows (`Any`, `int | str`, a name it cannot evaluate): a hint CPython ignores too."""
        try:
            ann = self.info.eval_annotation(ann_node)
        except Exception:   # noqa: BLE001 - CPython never evaluates a local's annotation
            return None
        return type_from_annotation(ann)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        bool_ints.permit_operands(self, node.op, node.value, node.target)     # (as BinOp's operands)
        if not isinstance(node.target, ast.Name):
            return self.aug_assign_other(node)
        current = self.resolve_name(ast.Name(node.target.id, ast.Load(), lineno=node.lineno,
                                             col_offset=node.col_offset))
        if isinstance(current.type, T.ArrayType):        # in place, as ndarray.__iadd__
            return elementwise.array_aug_assign_to(self, current, type(node.op), self.lazy(node.value), node)
        if isinstance(current.type, T.ListType) and isinstance(node.op, ast.Add) \
                and not isinstance(current.type, (T.ClassType, T.VarTupleType)):   # (a tuple's += makes a new one)
            return lists.extend_list(self, current, node.value, node)      # in place, as list.__iadd__
        if isinstance(current.type, T.ListType) and isinstance(node.op, ast.Mult) \
                and not isinstance(current.type, (T.ClassType, T.VarTupleType)):
            return lists.repeat_in_place(self, current, self.expr(node.value), node)     # as list.__imul__
        if isinstance(current.type, T.HashType):
            return dict_methods.table_aug_assign_in_place(self, current, node)
        if bool_ints.is_bool_int(current):          # (`x += 1`: read as its int, as BinOp's operands)
            current = bool_ints.read(self, current, node.target)
        value = self.binop(type(node.op), current, self.lazy_any(node.value), node)   # as BinOp: a num too
        if isinstance(value, ArrayExpr):        # (a scalar name += an array: a new array, as in NumPy)
            value = elementwise.materialize(self, value, node)
        self.assign_name(node.target.id, value, node)

    def aug_assign_other(self, node):
        if isinstance(node.target, ast.Attribute):       # obj.f += v: read once, store (records.py)
            base = class_types.instance_base(self, optional.expr_opt(self, node.target.value), node.target.attr, node.target)
            if not T.is_instance_type(base.type):
                self.error("augmented assignment to an attribute is only supported on class instances", node.target)
            current = records.record_field(self, base, node.target)
            records.store_record_field(self, base, node.target.attr,
                                       self.binop(type(node.op), current, self.lazy_opt(node.value), node), node)
            return
        if isinstance(node.target, ast.Subscript):
            base = lists.pre_evaluate(self, node.target.value)
            if T.is_instance_type(base.type):
                return class_methods.instance_aug_item(self, node)
            if isinstance(base.type, T.ListType):
                return lists.list_aug_assign(self, node)
            if isinstance(base.type, T.HashType):
                return dict_methods.table_aug_assign(self, self.expr(node.target.value), node)
            if isinstance(base.type, (T.TextType, T.TupleType)) and _item_store_error(base.type):
                return self.aug_assign_immutable(base, node)
            return arrays.array_aug_assign(self, node)
        self.error("augmented assignment is only supported on names and array elements", node.target)

    def aug_assign_immutable(self, base: Value, node: ast.AugAssign) -> None:
        """`s[i] += v` of a str, bytes or tuple, as CPython runs it: the item read (its
        IndexError), `v` evaluated and the operator applied (its TypeError), then the store's
        TypeError (`assign_subscript`'s), which no value of the type escapes."""
        target = node.target
        read = ast.copy_location(ast.Subscript(target.value, target.slice, ast.Load()), target)
        self.binop(type(node.op), self.lazy_opt(read), self.lazy_opt(node.value), node)
        if self.block is not None and not self.is_dead():
            self.raise_always("TypeError", _item_store_error(base.type), node)

    def stmt_Assert(self, node: ast.Assert) -> None:
        cond = self.condition(node.test)
        if isinstance(cond, Const) and cond.value:
            return
        if node.msg is None or isinstance(node.msg, ast.Constant):
            text = messages.args_message(self, [node.msg])[0] if node.msg is not None else None
            if isinstance(cond, Const):
                self.emit_raise(ExcInfo("AssertionError", text), [], node)
                return
            bad = self.emit("not", [cond], T.BOOL, None, self.loc(node))
            self.emit("check", [bad], T.NONE, ExcInfo("AssertionError", text), self.loc(node))
            optional.narrow(self, test_facts(node.test)[0])
            return
        # A message with values is computed only when the assertion fails, as in Python.
        if not isinstance(cond, Const):
            fail, ok = self.new_block("assert.fail"), self.new_block("assert.ok")
            self.branch(cond, ok, fail, self.loc(node))
            self.seal(fail)
            self.start(fail)
        else:
            ok = None
        text, args = messages.args_message(self, [node.msg])
        self.emit_raise(ExcInfo("AssertionError", text), args, node)
        if ok is not None:
            self.finish_join(ok)
            optional.narrow(self, test_facts(node.test)[0])

    def stmt_Raise(self, node: ast.Raise) -> None:
        if node.cause is not None:
            exceptions.check_cause(self, node.cause)
        if node.exc is None or isinstance(node.exc, ast.Name) and node.exc.id in self.exc_names:
            return exceptions.reraise(self, node)
        if isinstance(node.exc, ast.Name) and node.exc.id in self.locals:
            e = self.expr(node.exc)             # `err = ValueError(...)` earlier: its value
            if e.type != T.EXC:
                self.error(f"exceptions must derive from BaseException, not {e.type}", node.exc)
            exceptions.throw(self, e, self.loc(node))
            return
        made = self.exception_parts(node.exc, node)
        if made is None:
            return
        key = user_exceptions.raised_key(made[0])
        if key is not None and built_exceptions.is_built(key):
            built_exceptions.raise_built(self, *made, node)     # CPython makes it
            return
        self.emit_raise(*made, node)

    def exception_parts(self, exc, node, value: bool = False):
        """(ExcInfo, message values) of the exception `exc` (a class, or a call of one)
        makes; None when its message holds complex numbers, raised here in branches (unless
        a `value` is wanted: then a CompileError)."""
        call_args = []
        if isinstance(exc, ast.Call):
            if exc.keywords:
                self.error("an exception takes no keyword arguments here", exc)
            if any(isinstance(a, ast.Starred) for a in exc.args):
                self.error("*args in the arguments of an exception are not supported in compiled code", exc)
            call_args = exc.args
            exc = exc.func
        ref = self.lookup(exc) if isinstance(exc, ast.Name) else \
            builtins_lowering.attribute_ref(self, exc) if isinstance(exc, ast.Attribute) else None   # np.linalg.LinAlgError
        if isinstance(getattr(ref, "obj", None), Undefined):    # `raise Missing(...)`: NameError first
            return ExcInfo("NameError", printf_escape(f"name '{ref.obj.name}' is not defined")), ()
        user = user_exceptions.user_exception_class(self, getattr(ref, "obj", None), exc)
        cls = user[0] if user is not None else self.exception_class(exc)
        built = user is not None and built_exceptions.is_built(user[1])
        self.arg_types = {} if built else None
        try:
            text, args, numbers = messages.raise_message(self, call_args)
            if built:
                built_exceptions.note_raise(self, ref.obj, call_args, self.arg_types)
        finally:
            self.arg_types = None
        if numbers:
            if user is not None or value:
                self.error("a complex number in the message of an exception made outside a 'raise' "
                           "statement or of a user exception is not supported", node)
            messages.raise_with_complex(self, cls, text, args, numbers, node)
            return None
        if user is not None:
            built_exceptions.check_arguments(self, user[1], call_args, exc)
            if value:
                built_exceptions.exception_value_refused(self, user[1], node)
            text = user_exceptions.user_raise_text(self, user[1], text)
        return ExcInfo(cls, text), args

    def exception_value(self, node: ast.Call) -> Value:
        """`ValueError("...")` outside a ``raise``: an exception value (`err = ...; raise err`)."""
        exc, args = self.exception_parts(node, node, value=True)
        return self.emit("exception", list(args), T.EXC, exc, self.loc(node))

    def exception_class(self, node) -> str:
        ref = self.lookup(node) if isinstance(node, ast.Name) else None
        obj = ref.obj if isinstance(ref, PyRef) else None
        if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__name__ in EXCEPTIONS \
                and getattr(py_builtins, obj.__name__, None) is obj:
            return obj.__name__
        self.error("only builtin exception classes can be raised in compiled code "
                   f"({', '.join(EXCEPTIONS[:6])}, ...)", node)

    def emit_raise(self, exc: ExcInfo, args, node) -> None:
        if exceptions.route_raise(self, exc, args, self.loc(node)):        # inside a `try`
            return
        set_terminator(self.block, "raise", args, attr=exc, loc=self.loc(node))
        self.block = None

    # ---- return --------------------------------------------------------------------------

    def stmt_Return(self, node: ast.Return) -> None:
        if self.gen_active is not None:
            return generators.generator_return(self, node)
        if self.call_active is not None:
            return generator_args.inlined_return(self, node)
        if isinstance(node.value, ast.Name) and node.value.id == "NotImplemented" \
                and node.value.id not in self.locals and self.info.global_value("NotImplemented")[1] in (None, NotImplemented):
            return class_methods.return_not_implemented(self, node)
        if isinstance(node.value, ast.IfExp) and self.hints.get(("split_return", id(node))):
            # `return a if c else b` of types CPython keeps apart: two returns (union_returns.py)
            made = self.info.__dict__.setdefault("_split_returns", {})     # (the same nodes each round)
            split = made.get(id(node))
            if split is None:
                v = node.value
                split = made[id(node)] = ast.copy_location(ast.If(
                    v.test, [ast.copy_location(ast.Return(v.body), v.body)],
                    [ast.copy_location(ast.Return(v.orelse), v.orelse)]), node)
            return self.stmt(split)
        try:
            value = optional.expr_opt(self, node.value, num=True, union=True) if node.value is not None else None
        except CompileError as e:
            if isinstance(node.value, ast.IfExp) and not self.ret_annotated \
                    and "the two sides have incompatible types" in e.message:
                self.hints[("split_return", id(node))] = True
                self.hints_changed = True
                from script.frontend.ssa_builder import Restart
                raise Restart() from None
            raise
        note_return(self, node)                 # table_args.py: a defaultdict or Counter returned
        note_class_return(self, node)           # python_classes.py: a Counter, deque... returned
        note_iterator_return(self, node)        # iterator_returns.py: map(...) returned
        if self.try_frames or self.dropping:
            exceptions.keep_foreign(self, 0, node)
            exceptions.run_finally(self, 0, node)           # exceptions.py: `finally` bodies first
            if self.block is None:
                return
        self.do_return(value, node)

    def do_return(self, value: Value | None, node, implicit: bool = False) -> None:
        if self.is_dead():
            self.block = None
            return
        if value is None:
            value = Const(None, T.NONE)
        if isinstance(value, WeakConst):
            value = Const(value.value, value.type, value.loc)
        value = function_values.escape(self, value, node)          # (a closure record: function_values.py)
        if not is_library(getattr(self.info, "py_func", None)):      # (dict.get gives one back to its owner)
            function_values.refuse_escape(self, value.type, node, "returned")
        if settle_returned(self, value.type, node):     # callee_hints.py: the type comes
            self.block = None                           # from a later return, next round
            return
        if has_unknown(value.type):        # (a tuple holding a value not typed yet)
            self.saw_unknown = self.saw_unknown or self.loc(node)
            self.block = None
            return
        if id(value) in self.list_origins:
            self.returned_displays.append(self.list_origins[id(value)])
        if self.ret_type is None:
            self.ret_type = value.type
            self.hints[("ret", None)] = value.type
        want = self.ret_type
        if isinstance(want, T.UnionType):       # returns of types CPython keeps apart (union_returns.py)
            value = union_returns.into_union(self, value, want, node)
        else:
            if T.bool_and_number(want, value.type) and not self.ret_annotated:
                # `return False` beside `return x`: CPython returns False, a number made of it is 0
                union_returns.widen(self, want, value.type)
                self.error(f"function '{self.info.name}' returns {python_name(want)} on one path and "
                           f"{python_name(value.type)} on another: CPython keeps a bool apart from a "
                           "number and compiled code has no value that is either (return int(...) or "
                           "bool(...) on every path)", node)
            if value.type != want:
                u = T.merge(want, value.type) or T.returns_meet(want, value.type)
                if self.ret_annotated:
                    if not keeps_python_value(value.type, want):
                        # CPython returns the value as it is (`-> float` returning an int gives
                        # the int): the annotation was a hint; the returns type the result.
                        self.hints[("ret", "unannotated")] = True
                        self.hints_changed = True
                        from script.frontend.ssa_builder import Restart
                        raise Restart()
                elif u is None:
                    lists.merge_pending(self, want, value.type)    # `return right` beside `return left`, a `[]`
                    if isinstance(want, T.ListType) and isinstance(value.type, T.ListType) and \
                            T.merge(want.elem, value.type.elem) == T.INT_FLOAT:
                        # lists of ints or floats beside lists of num: the displays returned, or
                        # `return []` typed by a hint, make lists of num in the next round
                        self.hints[("ret", None)] = T.ListType(T.INT_FLOAT)
                        lists.retype_lists(self, {("list", n): T.INT_FLOAT for n in self.returned_displays
                                                  if self.hints.get(("list", n)) != T.INT_FLOAT})
                        if want.elem in (T.I64, T.F64):
                            lists.retype_lists(self, lists.typed_by_stores(self, want.elem))
                    if implicit or isinstance(value.type, T.NoneType) or isinstance(want, T.NoneType):
                        self.error(f"function '{self.info.name}' returns {want} on one path and "
                                   f"{value.type} on another"
                                   + (" (it can reach its end, which returns None)" if implicit else ""), node)
                    union_returns.widen(self, want, value.type)
                    self.error(f"function '{self.info.name}' returns incompatible types {want} and "
                               f"{value.type}" + mixed_classes(want, value.type), node)
                elif u != want:
                    self.hints[("ret", None)] = u
                    self.hints_changed = True
                    from script.frontend.ssa_builder import Restart
                    raise Restart()
                if want == T.U64:
                    check_int_as_u64(self, value, node)
                value = self.coerce(value, want, node)
        operands = [] if isinstance(want, T.NoneType) else [value]
        set_terminator(self.block, "ret", operands, loc=self.loc(node))
        self.block = None

    # ---- control flow --------------------------------------------------------------------

    def stmt_If(self, node: ast.If) -> None:
        cond = self.condition(node.test)
        if isinstance(cond, Const):
            self.stmts(node.body if cond.value else node.orelse)
            return
        yes, no = optional.optional_facts(self, node.test)
        then, other, join = self.new_block("if.then"), self.new_block("if.else"), self.new_block("if.end")
        self.branch(cond, then, other if node.orelse or no else join, self.loc(node))
        self.seal(then)
        self.start(then)
        optional.narrow(self, yes)
        self.stmts(node.body)
        self.goto(join, self.loc(node))
        if node.orelse or no:
            self.seal(other)
            self.start(other)
            optional.narrow(self, no)
            self.stmts(node.orelse)
            self.goto(join, self.loc(node))
        self.finish_join(join)

    def finish_join(self, join) -> None:
        """Go on after a join: in `join`, or nowhere when nothing reaches it (every path
        returned, raised or broke out). Inside unreachable code (a constant-false branch, the
        rest of `3 > 11 > min(a)`), nothing reaches it either, but an expression whose
        lowering made the loop or branch (a reduction, an element-wise loop) still goes on
        there: the join becomes unreachable code too."""
        self.seal(join)
        if join.preds:
            self.block = join
        elif self._left is not None and self.is_dead(self._left):
            self.start(join)
        else:
            self.block = None

    def stmt_Break(self, node) -> None:
        if not self.loops:
            self.error("'break' outside a loop", node)
        exceptions.leave_loop(self, node)                   # exceptions.py: `finally` bodies first
        self.goto(self.loops[-1].break_to, self.loc(node))

    def stmt_Continue(self, node) -> None:
        if not self.loops:
            self.error("'continue' outside a loop", node)
        exceptions.leave_loop(self, node)
        self.goto(self.loops[-1].continue_to, self.loc(node))

    def stmt_While(self, node: ast.While) -> None:
        header = self.new_block("while.head", loop_key=node)
        self.goto(header, self.loc(node))
        self.enter_loop_header(header)
        self.start(header)
        cond = self.condition(node.test)
        yes, no = optional.optional_facts(self, node.test)
        body, after = self.new_block("while.body"), self.new_block("while.end")
        other = self.new_block("while.else") if node.orelse or no else after
        self.branch(cond, body, other, self.loc(node))
        self.seal(body)
        self.start(body)
        optional.narrow(self, yes)
        self.loops.append(Loop(after, header))
        self.stmts(node.body)
        self.loops.pop()
        self.goto(header, self.loc(node))
        self.seal(header)
        if node.orelse or no:
            self.seal(other)
            self.start(other if other.preds else None)
            optional.narrow(self, no)
            self.stmts(node.orelse)
            self.goto(after, self.loc(node))
        self.finish_join(after)

    def stmt_For(self, node: ast.For) -> None:
        it = node.iter
        if generators.walks_generator(self, it) or strmethods.is_str_parts(self, it):
            return generators.for_generator(self, node)         # generators.py, strmethods.py
        builtin = self.builtin_call(it)
        if builtin is range:
            start, stop, step = self.range_args(it)
            return self.counted_loop(node, start, stop, step,
                                     lambda i: self.assign(node.target, i, node),
                                     head=PRANGE_HEAD if self.calls_prange(it) else "for.head")
        seq = self.unrolls(it) if builtin is None and enum_values.class_ref(self, it) is None else None
        if seq is not None:
            return self.unrolled_loop(node, seq)
        source = self.iterable(it)
        n, item, _ = source
        length, done = getattr(source, "length", None), None
        walked = it.args[0] if builtin is enumerate and it.args else it      # `for k, x in enumerate(d)`
        if length is not None and isinstance(walked, ast.Name) and is_deque(self, walked):
            length, done = bounded_deques.iterated_deque(self, walked, n, length, node)
        self.counted_loop(node, Const(0, T.I64), n, Const(1, T.I64),
                          lambda i: self.assign(node.target, item(i), node),
                          exhausted=getattr(source, "exhausted", None), length=length)
        if done is not None:
            done()

    def unrolls(self, it) -> Value | None:
        """The tuple `for x in it` iterates when its elements have no one type (`*args` of an
        int, a float and a str; a bool among numbers), else None. Only a name, or a display
        of names and constants, is looked at (reading it again costs nothing)."""
        if not (isinstance(it, ast.Name) or isinstance(it, ast.Tuple) and all(
                isinstance(e, (ast.Name, ast.Constant)) for e in it.elts)):
            return None
        seq = self.lazy_opt(it)
        if not isinstance(getattr(seq, "type", None), T.TupleType) or isinstance(
                seq.type, (T.OptionalType, T.IntFloatType)) or T.is_instance_union(seq.type) or not seq.type.elems:
            return None
        kinds = set(seq.type.elems)
        if len(kinds) == 1:
            return None
        et = seq.type.elems[0]
        for e in seq.type.elems[1:]:
            et = T.merge(et, e) if et is not None else None
        return seq if et is None or T.BOOL in kinds else None     # (a bool among numbers: a number)

    def unrolled_loop(self, node: ast.For, seq: Value) -> None:
        """`for x in t` of a tuple of several types, as CPython runs it: the body once per
        element, in order, `x` of that element's type; `break`, `continue` and `else` as in a
        loop (Numba's literal_unroll)."""
        loc = self.loc(node)
        after = self.new_block("for.end")
        other = self.new_block("for.else") if node.orelse else after
        for k, et in enumerate(seq.type.elems):
            nxt = self.new_block("for.next")
            if self.block is not None:
                self.assign(node.target, self.emit("extract", [seq], et, k, loc), node)
            self.loops.append(Loop(after, nxt))
            self.stmts(node.body)
            self.loops.pop()
            self.goto(nxt, loc)
            self.seal(nxt)
            self.start(nxt if nxt.preds else None)
        self.goto(other, loc)
        if node.orelse:
            self.seal(other)
            self.start(other if other.preds else None)
            self.stmts(node.orelse)
            self.goto(after, loc)
        self.finish_join(after)

    def builtin_call(self, node):
        """`range`, `enumerate`, `zip` or `reversed` when `node` calls that builtin, else None."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id not in self.locals:
            ref = self.lookup(node.func)
            if isinstance(ref, PyRef) and is_prange(ref.obj) and not node.keywords:
                return range                # a parallel range: serial but for ir.parallel
            if isinstance(ref, PyRef) and ref.obj in (range, enumerate, zip, reversed) and (
                    not node.keywords or ref.obj is enumerate
                    and [k.arg for k in node.keywords] == ["start"]):
                return ref.obj
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords \
                and node.func.attr == "prange" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id not in self.locals:
            base = self.lookup(node.func.value)       # numba.prange(n), nb.prange(n), script.prange(n)
            obj = getattr(base.obj, "prange", None) if isinstance(base, PyRef) else None
            if obj is range or is_prange(obj):
                return range
        return None

    def calls_prange(self, node) -> bool:
        """Whether `node`, which `builtin_call` found a range, calls `script.prange` or
        `numba.prange` (its loop is outlined by ir.parallel when the function is parallel)."""
        func = node.func
        ref = self.lookup(func if isinstance(func, ast.Name) else func.value)
        obj = ref.obj if isinstance(ref, PyRef) else None
        return is_prange(obj if isinstance(func, ast.Name) else getattr(obj, "prange", None))

    def iterable(self, node):
        """(length, item, element type) for what a `for` may iterate: `item(i)` gives the
        i-th element for 0 <= i < length. Ranges, arrays (along the first axis), tuples,
        `a.flat`, `np.ndenumerate(a)`, and `enumerate`/`zip`/`reversed` of those; a
        generator (generators.py) is run to its end first, into a list."""
        if generators.walks_generator(self, node):
            return self.iterable_value(generators.generator_list(self, node), node)
        builtin = self.builtin_call(node)
        loc = self.loc(node)
        if builtin is range:
            start, stop, step = self.range_args(node)
            ut = T.IntType(start.type.bits, False)
            n = self.coerce(self.trip_count(start, stop, step, ut, node), T.I64, node)
            return n, lambda i: self.emit("add", [start, self.emit("mul", [self.coerce(i, start.type, node), step],
                                                                   start.type, None, loc)], start.type, None, loc), start.type
        if builtin is enumerate:
            generators.check_enumerate(self, node)
            inner = self.iterable(node.args[0])
            n, item, et = inner
            first = generators.enumerate_first(self, node)
            out = (n, lambda i: self.make_tuple([self.emit("add", [i, first], T.I64, None, loc), item(i)], node),
                   T.TupleType([T.I64, et]))
            return Growing(*out, inner.length) if isinstance(inner, Growing) else out
        if builtin is zip:
            if not node.args:
                self.error("zip() needs at least one iterable here", node)
            if any(isinstance(a, ast.Starred) for a in node.args):
                return star_zip.zip_unpacked(self, node)
            return star_zip.zip_parts(self, [self.iterable(a) for a in node.args], node)
        if builtin is reversed:
            if len(node.args) != 1:
                self.error(f"reversed() takes exactly one argument ({len(node.args)} given)", node)
            inner = self.builtin_call(node.args[0])
            if inner is None and (dicts.table_view(self, node.args[0]) is not None or isinstance(node.args[0], ast.Name)
                                  and isinstance(lists.pre_evaluate(self, node.args[0]).type, T.HashType)):
                return self.reversed_table(node.args[0], node)
            if inner in (enumerate, zip):
                self.error(f"'{inner.__name__}' object is not reversible", node)
            if generators.walks_generator(self, node.args[0]):
                self.error("'generator' object is not reversible", node)
            n, item, et = self.iterable(node.args[0])
            last = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)
            return n, lambda i: item(self.emit("sub", [last, i], T.I64, None, loc)), et
        cls = enum_values.class_ref(self, node)
        if cls is not None:
            return enum_values.iterable(self, cls, node)       # for m in Color
        flat = arrays.flat_iterable(self, node)     # arrays.py: a.flat, np.ndenumerate(a)
        if flat is None:
            flat = itertools_calls.iterable_call(self, node)         # count(), cycle(), repeat()
        if flat is None:
            flat = default_tables.fromkeys_keys(self, node)         # default_tables.py: list(dict.fromkeys(xs))
        if flat is None:
            flat = dicts.table_iterable_of(self, node)     # dicts.py: d.keys(), d.values(), d.items()
        if flat is not None:
            return flat
        held_iterators.iterated(self, node)     # (`for x in map(f, xs)`: no held map object)
        seq = optional.expr_opt(self, node)
        if is_optional(seq):          # (an optional list: CPython's TypeError where it is None)
            seq = optional.unwrap(self, seq, node, "'NoneType' object is not iterable")
        return self.iterable_value(seq, node)

    def iterable_value(self, seq: Value, node):
        """`iterable` for a tuple, array or list value (lists.py: the length when the loop
        starts, each element read with a bounds check)."""
        if T.is_instance_type(seq.type):
            return class_methods.instance_iterable(self, seq, node)
        if isinstance(seq.type, T.ListType):
            et = seq.type.elem
            return Growing(lists.list_len(self, seq, node), lambda i: lists.checked_item(self, seq, i, node),
                           UNKNOWN if isinstance(et, PendingElement) else et,       # lists.get_item
                           lambda: lists.list_len(self, seq, node))
        if isinstance(seq.type, Unknown):
            return Const(0, T.I64), lambda i: Undef(UNKNOWN, self.loc(node)), UNKNOWN
        if isinstance(seq.type, T.HashType):
            return dicts.table_iterable(self, seq, "keys", node)
        if isinstance(seq.type, T.StrType):
            return strings.str_iterable(self, seq, node)
        if isinstance(seq.type, T.BytesType):
            return bytes_values.bytes_iterable(self, seq, node)
        if isinstance(seq.type, T.TupleType):
            et = seq.type.elems[0] if seq.type.elems else T.I64
            for e in seq.type.elems[1:]:
                et = T.merge(et, e) or et           # ints and floats: a num, as CPython keeps them
            return Const(len(seq.type.elems), T.I64), lambda i: self.tuple_item(seq, i, node, node), et
        if isinstance(seq.type, T.ArrayType):
            t = seq.type
            et = t.dtype if t.ndim == 1 else T.ArrayType(t.dtype, t.ndim - 1, "A")
            return arrays.array_len(self, seq, node), lambda i: arrays.array_item(self, seq, i, node), et
        if seq.type in NOT_CONTAINERS:      # CPython's TypeError, where it raises it
            self.raise_always("TypeError", f"'{python_name(seq.type)}' object is not iterable", node)
            return Const(0, T.I64), lambda i: Undef(T.I64, self.loc(node)), T.I64     # (dead code)
        self.error(f"cannot iterate over a value of type {seq.type}", node)

    def reversed_table(self, arg, node):
        """`reversed(d)` (`d.keys()`, `d.values()`, `d.items()`): the dict's entries from the
        last stored; each step raises CPython's RuntimeError when the dict's size changed
        since it began. A set is not reversible (CPython's TypeError)."""
        from script.frontend.dicts import TableIterable
        view = dicts.table_view(self, arg)
        d, what = (view[0], view[1]) if view is not None else (self.expr(arg), "keys")
        if view is not None:
            self.expr(arg.func.value)           # (given again by pre_evaluate)
        loc = self.loc(node)
        if isinstance(d.type, T.SetType):
            self.raise_always("TypeError", "'set' object is not reversible", node)
            return Const(0, T.I64), lambda i: Undef(UNKNOWN, loc), T.I64
        lst = dict_methods.table_list(self, d, what, node)
        n = lists.list_len(self, lst, node)
        last = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)

        def check():
            changed = self.cmp("ne", dicts.table_len(self, d, node), n, node)
            self.raise_if(changed, "RuntimeError", "dictionary changed size during iteration", node)

        def item(i):
            check()
            return lists.get_item(self, lst, self.emit("sub", [last, i], T.I64, None, loc), node)

        return TableIterable(n, item, lst.type.elem, check)

    def new_var(self, prefix: str, init: Value) -> str:
        """A fresh synthetic local holding `init` (``$`` keeps it apart from Python names;
        the same name in every rebuild of the function, so type hints find it again)."""
        self.counter += 1
        var = f"${prefix}{self.counter}"
        self.write(var, init)
        return var

    def reduce_loop(self, node, n: Value, item, init: Value, step) -> Value:
        """Fold `step(acc, item(i))` over 0 <= i < n starting from `init`; `step` keeps the
        accumulator's type. The loop's key is `node`, so type hints survive rebuilds."""
        var = self.new_var("acc", init)
        loop = self.info.synthetic_loop(node)

        def bind(i):
            self.write(var, step(self.read(var, self.loc(node)), item(i)))

        self.counted_loop(loop, Const(0, T.I64), n, Const(1, T.I64), bind)
        return self.read(var, self.loc(node))

    def range_args(self, call: ast.Call):
        args = [self.expr(a) for a in call.args]
        if not 1 <= len(args) <= 3:
            self.error(f"range expected 1 to 3 arguments, got {len(args)}", call)
        for k, (a, n) in enumerate(zip(args, call.args)):
            if not isinstance(a.type, (T.IntType, T.BoolType, Unknown)):   # CPython's TypeError, where it raises it
                self.raise_if(Const(True, T.BOOL), "TypeError",
                              f"'{python_name(a.type)}' object cannot be interpreted as an integer", n)
                args[k] = Const(1, T.I64)       # (dead from here: not a zero step)
        t = T.I64
        for a in args:
            if not isinstance(a, WeakConst) and isinstance(a.type, T.IntType):
                t = T.promote(t, a.type) if t != T.I64 else (a.type if a.type.bits == 64 else T.I64)
        args = [self.coerce(a, t, call) for a in args]
        if len(args) == 1:
            return Const(0, t), args[0], Const(1, t)
        if len(args) == 2:
            return args[0], args[1], Const(1, t)
        step = args[2]
        if isinstance(step, Const) and step.value == 0:
            self.error("range() arg 3 must not be zero", call.args[2])
        if not isinstance(step, Const):
            zero = self.emit("cmp", [step, Const(0, t)], T.BOOL, "eq", self.loc(call))
            self.raise_if(zero, "ValueError", message("range_zero_step"), call)
        return args[0], args[1], step

    def counted_loop(self, node, start: Value, stop: Value, step: Value, bind, exhausted=None,
                     head: str = "for.head", length=None) -> None:
        """`for` over start, start+step, … while before `stop`; `bind(i)` assigns the target;
        `exhausted()` emits code run when the loop ends by its condition (not by `break`);
        `length()` (step 1), when given, emits the bound to test before each element instead
        of `stop` (a list's length now: `Growing`).

        With a step of 1 or -1 the loop counts `i` itself and compares it with `stop` (it can
        never step past the int range). Other steps count iterations: the trip count is
        computed once, in unsigned arithmetic, so a range that ends near the edge of the int
        range stops where Python's does instead of wrapping around."""
        loc = self.loc(node)
        t = start.type
        if isinstance(step, Const) and step.value in (1, -1):
            counter, limit, pred, unit = start, stop, "lt" if step.value > 0 else "gt", step
            value_of = lambda k: k  # noqa: E731 - the counter is the value
        else:
            ut = T.IntType(t.bits, False)
            counter, limit, pred, unit = Const(0, ut), self.trip_count(start, stop, step, ut, node), "lt", Const(1, ut)
            value_of = lambda k: self.emit(  # noqa: E731
                "add", [start, self.emit("mul", [self.coerce(k, t, node), step], t, None, loc)], t, None, loc)
        var = self.new_var("iter", counter)
        header = self.new_block(head, loop_key=node)
        self.goto(header, loc)
        self.enter_loop_header(header)
        self.start(header)
        cur = self.read(var, loc)
        cond = self.emit("cmp", [cur, limit if length is None else length()], T.BOOL, pred, loc)
        body, latch, after = self.new_block("for.body"), self.new_block("for.next"), self.new_block("for.end")
        other = self.new_block("for.else") if node.orelse or exhausted else after
        self.branch(cond, body, other, loc)
        self.seal(body)
        self.start(body)
        bind(value_of(cur))
        self.loops.append(Loop(after, latch))
        self.stmts(node.body)
        self.loops.pop()
        self.goto(latch, loc)
        self.seal(latch)
        if latch.preds:
            self.start(latch)
            nxt = self.emit("add", [self.read(var, loc), unit], cur.type, None, loc)
            self.write(var, nxt)
            self.goto(header, loc)
        self.seal(header)
        if node.orelse or exhausted:
            self.seal(other)
            self.start(other if other.preds else None)
            if exhausted is not None and self.block is not None:
                exhausted()
            self.stmts(node.orelse)
            self.goto(after, loc)
        self.finish_join(after)

    def trip_count(self, start: Value, stop: Value, step: Value, ut: T.IntType, node) -> Value:
        """len(range(start, stop, step)) as an unsigned int; `step` is not zero."""
        loc = self.loc(node)
        t = start.type
        us, ue = self.coerce(start, ut, node), self.coerce(stop, ut, node)
        up_span = self.emit("sub", [ue, us], ut, None, loc)
        down_span = self.emit("sub", [us, ue], ut, None, loc)
        if isinstance(step, Const):
            up = step.value > 0
            nonempty = self.cmp("lt" if up else "gt", start, stop, node)
            span = up_span if up else down_span
            astep = Const(abs(step.value), ut)
        else:
            pos = self.cmp("gt", step, Const(0, t), node)
            nonempty = self.emit("select", [pos, self.cmp("lt", start, stop, node),
                                            self.cmp("gt", start, stop, node)], T.BOOL, None, loc)
            span = self.emit("select", [pos, up_span, down_span], ut, None, loc)
            ustep = self.coerce(step, ut, node)
            neg_step = self.emit("sub", [Const(0, ut), ustep], ut, None, loc)
            astep = self.emit("select", [pos, ustep, neg_step], ut, None, loc)
        last = self.emit("floordiv", [self.emit("sub", [span, Const(1, ut)], ut, None, loc), astep], ut, None, loc)
        n = self.emit("add", [last, Const(1, ut)], ut, None, loc)
        return self.emit("select", [nonempty, n, Const(0, ut)], ut, None, loc)


# The lowering's methods that are features' free functions: the `expr_<node>` methods
# `lower_expr.lazy_opt` dispatches to, and what one feature's lowering asks of another through
# the lowering (`cx.array_view(...)`) where importing the other's module would close an import
# cycle (arrays imports elementwise, fancy_index and numpy_join, which take views and items of
# arrays). Each name is the module's free function, which takes the lowering first, so the
# method is the function itself. A name given twice, or one the class already has, is an
# error at import.
CONTEXT_API = {
    arrays: ("array_view", "check_int_fits", "item_value", "sequence_as_array", "store_element"),
    builtins_lowering: ("attribute_of", "attribute_ref", "better_of", "call_script", "callee_ref",
                        "check_float_to_int", "convert_checked", "float_arg", "lower_call",
                        "positional", "resolve_attribute", "ufunc_special"),
    default_tables: ("counter_binop", "counter_unary", "table_default_of"),
    dict_methods: ("table_compare", "table_subscript", "view_list"),
    dicts: ("entry_part", "expr_Dict", "expr_DictComp", "expr_Set", "expr_SetComp", "guessed_nodes",
            "hinted_table", "key_message", "new_table", "probe_args", "settle_table_types",
            "store_types", "table_call", "table_contains", "table_iterable", "table_key", "table_len",
            "table_parts", "table_store", "table_type", "table_view", "update_from"),
    generators: ("expr_Yield", "expr_YieldFrom", "generator_contains", "generator_list",
                 "inline_generator", "walks_generator"),
    lists: ("any_of", "append_item", "frozen_item", "compare_lists", "comprehension", "comprehension_var", "each",
            "expr_GeneratorExp", "expr_List", "expr_ListComp", "extend_list", "fill_from",
            "fit_optional", "for_range", "get_item", "list_contains", "list_len", "list_of",
            "list_of_unknown", "list_subscript", "list_to_array", "merge_pending", "merge_pending_list",
            "new_list", "none_elements", "pre_evaluate", "read_type", "read_type_of", "resize_list",
            "resolve_pending", "retype_lists", "set_item", "settle_list_types", "stored_type",
            "var_tuple_of", "widen_list_at_merge"),
    numpy_alloc: ("alloc_array", "cast_element", "copy_array", "dims_of", "dtype_arg",
                  "is_c_contiguous", "loop_nest", "np_args", "np_library", "reshape", "size_of", "when"),
    optional: ("expr_opt",),
    python_classes: ("class_text", "note_read", "source_class", "view_compare"),
    records: ("identity_compare", "make_record"),
    bytes_values: ("bytes_compare", "bytes_constant", "bytes_subscript", "bytes_truth"),
    strings: ("expr_JoinedStr", "format_value", "str_compare", "str_constant", "str_join_parts",
              "str_lib", "str_of", "str_subscript", "str_truth"),
}


def _install_api(cls, api: dict) -> None:
    for module, names in api.items():
        for name in names:
            if hasattr(cls, name):
                raise TypeError(f"{module.__name__}.{name}: {cls.__name__} has '{name}' already")
            setattr(cls, name, getattr(module, name))


_install_api(FunctionLowering, CONTEXT_API)


def _describe(obj) -> str:
    if isinstance(obj, NestedFunction):
        return "a nested function"
    if isinstance(obj, type):
        return f"class {obj.__name__}"
    if callable(obj):
        return "a function"
    return f"a {type(obj).__name__}"


def keeps_python_value(have: T.Type, want: T.Type) -> bool:
    """Whether a value of type `have` converted to `want` is still the same Python object to
    its reader: wrapped in an optional, or a container whose parts were not typed yet (`[]`)
    given types; not an int made a float, a bool an int, or a list of ints one of floats."""
    if have == want or isinstance(have, T.IntType) and isinstance(want, T.IntType):
        return True         # (ints of any width are Python ints; a width that does not fit is refused)
    if isinstance(want, T.OptionalType):
        inner = have.value if isinstance(have, T.OptionalType) else have
        return isinstance(have, T.NoneType) or keeps_python_value(inner, want.value)
    if isinstance(have, T.ListType) and isinstance(want, T.ListType) and type(have) is type(want):
        return keeps_python_value(have.elem, want.elem)
    if isinstance(have, T.DictType) and isinstance(want, T.DictType):
        return keeps_python_value(have.key, want.key) and keeps_python_value(have.value, want.value)
    if isinstance(have, T.SetType) and isinstance(want, T.SetType):
        return keeps_python_value(have.key, want.key)
    if isinstance(have, T.TupleType) and isinstance(want, T.TupleType) and type(have) is type(want):
        return len(have.elems) == len(want.elems) and all(map(keeps_python_value, have.elems, want.elems))
    return not isinstance(have, (T.BoolType, T.IntType, T.FloatType, T.ComplexType, T.StrType,
                                 T.NoneType, T.ArrayType, T.TupleType, T.HashType, T.ListType))
