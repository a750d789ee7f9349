"""What the entry point cannot write back to the caller's arguments: CompileErrors.

Lists passed from Python are the caller's lists: the entry point writes a written list
argument back after the call (backend.runtime.list_reflect). Two things cannot be written
back faithfully, so writing them is a CompileError at the line (the facts come from
ir.list_flow, run on the functions as built, before the passes):

- the tables of dict and set arguments (and the lists they hold): they are copies, and the
  entry point does not write tables back;
- a value converted on its way into a list that may be an argument's (`xs[i] = 0` in a list
  of floats, `flags.append(True)` in a list of ints): compiled code stores 0.0 or 1, and the
  caller would see them where CPython's list holds 0 or True. The list stores that convert
  are recorded as they are built (`record_converted_store`).
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Function, Instr
from script.ir.list_flow import depth, param_list_effects


def record_converted_store(func: Function, store: Instr) -> None:
    """Remember that `store` (a `list_set` of `func`) stores a value of another Python type
    than the list's elements (`changes_python_type`)."""
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
    if isinstance(dst, T.OptionalType):
        if isinstance(src, T.NoneType):
            return False
        return changes_python_type(src.value if isinstance(src, T.OptionalType) else src, dst.value)
    if isinstance(src, T.TupleType) and isinstance(dst, T.TupleType) and len(src.elems) == len(dst.elems):
        return any(changes_python_type(s, d) for s, d in zip(src.elems, dst.elems))
    return _scalar_class(src) != _scalar_class(dst)


def _scalar_class(t: T.Type):
    for cls in (T.BoolType, T.IntType, T.FloatType, T.ComplexType):
        if isinstance(t, cls):
            return cls
    return t


def reject_argument_list_writes(funcs: list[Function]) -> None:
    """CompileError at the first write of a dict or set argument's table, or at the first
    store converting a value into a list that may be an argument's (`funcs[0]` the entry
    function, the rest what it calls, as built: the converted stores are recorded on them)."""
    entry = funcs[0]
    writes, _ = param_list_effects(funcs)
    for (k, _), instr in sorted(writes.items(), key=lambda kv: kv[0]):
        t = entry.param_types[k]
        if isinstance(t, T.HashType):
            name = entry.params[k].name or f"#{k}"
            kind = "set" if isinstance(t, T.SetType) else "dict"
            copy = f"{name} = {kind}({name})"
            if isinstance(t, T.DictType) and isinstance(t.value, T.ListType):
                copy = f"{name} = {{k: list(v) for k, v in {name}.items()}} (its lists are the caller's too)"
            raise CompileError(f"{kind} argument '{name}' is written here: {kind}s passed from Python are "
                               f"read-only in compiled code (they are copies, so the write would be lost); "
                               f"copy it first with {copy}", instr.loc or entry.loc)
    stores = {k for f in funcs for k in getattr(f, "converted_stores", ())}
    if not stores:
        return
    converted, _ = param_list_effects(funcs, lambda i: id(i) in stores)
    if not converted:
        return
    (k, _), instr = min(converted.items(), key=lambda kv: kv[0])
    name = entry.params[k].name or f"#{k}"
    raise CompileError(f"this stores a value of another type into list argument '{name}' "
                       f"(a {entry.param_types[k]}), converting it: the caller's list would hold the "
                       f"converted value where CPython's holds the value itself (an int where floats "
                       f"are, a bool where ints are); convert it first (float(x), int(b)) or copy the "
                       f"list with {_copy_hint(name, entry.param_types[k])}", instr.loc or entry.loc)


def _copy_hint(name: str, t: T.Type) -> str:
    if isinstance(t, T.ListType) and depth(t) > 1:
        return f"{name} = [list(x) for x in {name}]"
    return f"{name} = list({name})"
