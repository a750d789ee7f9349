"""What the entry point cannot write back to the caller's arguments: CompileErrors.

Lists passed from Python are the caller's lists: the entry point writes a written list
argument back after the call (backend.runtime.list_reflect). Two things cannot be written
back faithfully, so writing them is a CompileError at the line (the facts come from
ir.list_flow, run on the functions as built, before the passes):

- the tables inside dict and set arguments (a dict of sets): they are copies, and the entry
  point writes back only an argument's own table (runtime.table_reflect) and its lists;
- a value converted on its way into a list, dict or set that may be an argument's (`xs[i] =
  0` in a list of floats, `flags.append(True)` in a list of ints, `seen.add(1)` in a set of
  floats): compiled code stores 0.0 or 1, and the caller would see them where CPython's
  holds 0 or True. The stores that convert are recorded as they are built
  (`record_converted_store`: a `list_set`, or the call of dictlib or setlib that stores).
"""

from __future__ import annotations

from script.errors import MIXED_NUMBERS, CompileError
from script.ir import types as T
from script.ir.core import Function, Instr
from script.ir.list_flow import depth, param_list_effects


def record_converted_store(func: Function, store: Instr) -> None:
    """Remember that `store` (a `list_set` of `func`, or a call storing into a table) stores a
    value of another Python type than the list's elements (`changes_python_type`)."""
    if not hasattr(func, "converted_stores"):
        func.converted_stores = {}
    func.converted_stores[id(store)] = store


def changes_python_type(src: T.Type, dst: T.Type) -> bool:
    """Whether converting a value of type `src` to `dst` gives an object of another Python
    class (an int to a float, a bool to an int, a float to a complex), at any tuple position."""
    if src == dst:
        return False
    if isinstance(dst, T.IntFloatType):     # a num keeps an int an int and a float a float
        return not (isinstance(src, T.IntFloatType) or src == T.F64 or isinstance(src, T.IntType) and src.signed)
    if isinstance(dst, T.UnionType):        # a union keeps each value as it is, of its alternatives
        return not _held(src) <= _held(dst)
    if isinstance(dst, T.OptionalType):
        if isinstance(src, T.NoneType):
            return False
        return changes_python_type(src.value if isinstance(src, T.OptionalType) else src, dst.value)
    if isinstance(src, T.TupleType) and isinstance(dst, T.TupleType) and len(src.elems) == len(dst.elems):
        return any(changes_python_type(s, d) for s, d in zip(src.elems, dst.elems))
    return _scalar_class(src) != _scalar_class(dst)


def _held(t: T.Type) -> set:
    """The types a value of type `t` may hold as itself: a union's alternatives, an
    int|float's int and float, an optional's value and None."""
    out = set()
    for a in t.alternatives if isinstance(t, T.UnionType) else (T.I64, T.F64) if isinstance(t, T.IntFloatType) else (t,):
        out |= {a.value, T.NONE} if isinstance(a, T.OptionalType) else {a}
    return out


def _scalar_class(t: T.Type):
    for cls in (T.BoolType, T.IntType, T.FloatType, T.ComplexType):
        if isinstance(t, cls):
            return cls
    return t


def reject_argument_list_writes(funcs: list[Function]) -> None:
    """CompileError at the first write of a table inside a dict or set argument, or at the
    first store converting a value into a list or table that may be an argument's (`funcs[0]` the entry
    function, the rest what it calls, as built: the converted stores are recorded on them)."""
    entry = funcs[0]
    writes, _ = param_list_effects(funcs)
    for (k, level), instr in sorted(writes.items(), key=lambda kv: kv[0]):
        t = entry.param_types[k]
        if isinstance(t, T.HashType) and level > 0 and _holds_table(t.value if isinstance(t, T.DictType) else t.key):
            name = entry.params[k].name or f"#{k}"
            kind = "set" if isinstance(t, T.SetType) else "dict"
            raise CompileError(f"a table inside {kind} argument '{name}' may be written here: the entry point "
                               f"writes back the argument's own table and the lists it holds, not the dicts "
                               f"and sets inside it (they are copies, so the write would be lost); copy "
                               f"it first with {_inner_copy_hint(name, t)}", instr.loc or entry.loc)
    stores = {k for f in funcs for k in getattr(f, "converted_stores", ())}
    if not stores:
        return
    converted, _ = param_list_effects(funcs, lambda i: id(i) in stores)
    if not converted:
        return
    (k, _), instr = min(converted.items(), key=lambda kv: kv[0])
    name = entry.params[k].name or f"#{k}"
    t = entry.param_types[k]
    kind = "set" if isinstance(t, T.SetType) else "dict" if isinstance(t, T.DictType) else "list"
    raise CompileError(f"this stores a value of another type into {kind} argument '{name}' "
                       f"(a {t}), converting it: the caller's {kind} would hold the "
                       f"converted value where CPython's holds the value itself (an int where floats "
                       f"are, a bool where ints are); convert it first (float(x), int(b)) or copy the "
                       f"{kind} with {_copy_hint(name, t)}", instr.loc or entry.loc,
                       reason=MIXED_NUMBERS if kind == "list" else None)


def _inner_copy_hint(name: str, t: T.HashType) -> str:
    v = t.value if isinstance(t, T.DictType) else None
    if isinstance(v, T.HashType):
        return f"{name} = {{k: {'set' if isinstance(v, T.SetType) else 'dict'}(v) for k, v in {name}.items()}}"
    return f"{name} = copy.deepcopy({name}) in the caller"


def _holds_table(t: T.Type) -> bool:
    if isinstance(t, T.HashType):
        return True
    return isinstance(t, (T.ListType, T.TupleType)) and any(_holds_table(e) for e in (
        [t.elem] if isinstance(t, T.ListType) else t.elems))


def _copy_hint(name: str, t: T.Type) -> str:
    if isinstance(t, T.HashType):
        return f"{name} = {'set' if isinstance(t, T.SetType) else 'dict'}({name})"
    if isinstance(t, T.ListType) and depth(t) > 1:
        return f"{name} = [list(x) for x in {name}]"
    return f"{name} = list({name})"
