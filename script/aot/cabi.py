"""The C ABI of an exported function: its C declaration, and the LLVM wrapper that gives it.

A compiled function ``f(x: float, a: f64[:], n: int) -> float`` is exported as

    int32_t f(double x, const double *a_data, const int64_t *a_shape,
              const int64_t *a_strides, int64_t n, double *out);

Scalars go by value (``bool`` as C's ``bool``, ints as ``<stdint.h>`` types, ``f32``/``f64``
as ``float``/``double``); an array as its data pointer (``const`` unless the function may
write it: script.ir.analysis.written_array_params), its shape and its strides in bytes, as
NumPy gives them (``strides`` may be NULL: C-contiguous); the result, unless it is None,
through ``out`` (a tuple of scalars as a struct of its elements, `result_struct`). The status
is 0, or ``1 +`` the index of the exception class in script.ir.ops.EXCEPTIONS (the header
names them), and the library's ``<prefix>_error_message()`` gives the exception's text.

The wrapper (LLVM IR, in the same module as the lowered function, so it is the only exported
symbol) makes the array structs of llvm.abi (owner NULL: nobody's reference), checks what the
CPython entry point would (shapes not negative, data aligned, a C-contiguous array's strides),
fills an `Env` on its own stack (stack limit for recursion as the entry point sets it) and
calls the function; a pending exception goes to ``<prefix>__raised(env)`` (the C support
code, script.aot.support), which formats the message and gives the status.
"""

from __future__ import annotations

from dataclasses import dataclass

from script.errors import CompileError
from script.ir import types as T
from script.backend.llvm.abi import (ARRAY_DATA, ARRAY_SHAPE, ARRAY_STRIDES, ENV, ENV_STACK, ENV_STATUS,
                                     alignment, itemsize, llvm_type)
from script.backend.llvm.builder import NULL, Builder, NativeModule, Value, int_const, undef

_C_SCALAR = {T.BOOL: "bool", T.I8: "int8_t", T.I16: "int16_t", T.I32: "int32_t", T.I64: "int64_t",
             T.U8: "uint8_t", T.U16: "uint16_t", T.U32: "uint32_t", T.U64: "uint64_t",
             T.F32: "float", T.F64: "double"}


class NotExportable(CompileError):
    """A function that cannot be called from C without Python; the message says why."""


def c_scalar(t: T.Type, what: str) -> str:
    c = _C_SCALAR.get(t)
    if c is None:
        raise NotExportable(f"{what} is of type {t}: only bools, ints, floats and arrays of them "
                            "cross the C ABI (lists, strs, dicts, sets, complex numbers and class "
                            "instances are Python objects or have no C type here)")
    return c


def _array_dtype(t: T.ArrayType, what: str) -> str:
    return c_scalar(t.dtype, f"{what}'s element")


def type_suffix(t: T.Type) -> str:
    """A C identifier part for a type: ``f64``, ``f64a2`` (a 2-d array), ``i64Cf64`` (a tuple)."""
    if isinstance(t, T.ArrayType):
        return f"{t.dtype}a{t.ndim}" + ("c" if t.layout == "C" else "")
    if isinstance(t, T.TupleType):
        return "t" + "".join(type_suffix(e) for e in t.elems)
    return str(t)


@dataclass
class CFunction:
    """One exported specialization: its C name, parameters and result."""

    c_name: str
    py_name: str
    param_names: list
    param_types: list
    ret_type: T.Type
    written: set                       # positions of the array parameters it may write

    def check(self) -> None:
        """NotExportable unless every parameter and the result have a C form."""
        for name, t in zip(self.param_names, self.param_types):
            what = f"parameter {name!r}"
            if isinstance(t, T.ArrayType):
                _array_dtype(t, what)
            else:
                c_scalar(t, what)
        r = self.ret_type
        if isinstance(r, T.TupleType) and not isinstance(r, T.HashType):
            for k, e in enumerate(r.elems):
                c_scalar(e, f"element {k} of the result")
        elif isinstance(r, T.ArrayType):
            raise NotExportable("it returns an array: a new array is a NumPy object (return "
                                "nothing and write into an array argument instead)")
        elif r != T.NONE:
            c_scalar(r, "the result")

    def result_c_type(self) -> str | None:
        r = self.ret_type
        if r == T.NONE:
            return None
        if isinstance(r, T.TupleType):
            return f"{self.c_name}_result"
        return _C_SCALAR[r]

    def declaration(self) -> str:
        params = []
        for k, (name, t) in enumerate(zip(self.param_names, self.param_types)):
            if isinstance(t, T.ArrayType):
                const = "" if k in self.written else "const "
                params += [f"{const}{_C_SCALAR[t.dtype]} *{name}_data", f"const int64_t *{name}_shape",
                           f"const int64_t *{name}_strides"]
            else:
                params.append(f"{_C_SCALAR[t]} {name}")
        out = self.result_c_type()
        if out is not None:
            params.append(f"{out} *out")
        return f"int32_t {self.c_name}({', '.join(params) or 'void'});"

    def result_struct(self) -> str | None:
        """The C struct of a tuple result (the layout of LLVM's literal struct)."""
        r = self.ret_type
        if not isinstance(r, T.TupleType):
            return None
        fields = "".join(f" {_C_SCALAR[e]} f{k};" for k, e in enumerate(r.elems))
        return f"typedef struct {{{fields} }} {self.c_name}_result;"


def _llvm_param_types(fn: CFunction) -> list[str]:
    out = []
    for t in fn.param_types:
        if isinstance(t, T.ArrayType):
            out += ["ptr", "ptr", "ptr"]
        elif t == T.BOOL:
            out.append("i8")
        else:
            out.append(llvm_type(t))
    if fn.ret_type != T.NONE:
        out.append("ptr")
    return out


def build_wrapper(m: NativeModule, fn: CFunction, kernel, raised_symbol: str, stack_budget: int,
                  exc_index: dict) -> None:
    """Define the exported ``i32 <c_name>(...)`` calling `kernel` (the lowered entry function)
    in `m`. `exc_index[name]` is the class index of the exceptions the checks raise."""
    w = m.new_function(fn.c_name, "i32", _llvm_param_types(fn), linkage="external", attrs=("nounwind",))
    b = Builder(w, w.append_block("entry"))
    env = b.alloca(ENV)
    b.store_at(int_const("i32", 0), env, ENV_STATUS)
    b.store_at(b.sub(b.ptrtoint(env, "i64"), int_const("i64", stack_budget)), env, ENV_STACK)
    for offset in (ENV_STACK + 8, ENV_STACK + 16):      # no thread state, no SIGINTs seen
        b.store_at(int_const("i64", 0), env, offset)
    raise_ = m.declare(raised_symbol, "i32", ["ptr", "i32", "ptr"], attrs=("nounwind", "cold"))
    args = iter(w.args)
    values = []
    for name, t in zip(fn.param_names, fn.param_types):
        if isinstance(t, T.ArrayType):
            values.append(_array_struct(m, b, w, t, name, next(args), next(args), next(args),
                                        raise_, exc_index["ValueError"]))
        elif t == T.BOOL:
            values.append(b.icmp("ne", next(args), int_const("i8", 0)))
        else:
            values.append(next(args))
    result = b.call(kernel, [env] + values)
    failed, ok = w.append_block("raised"), w.append_block("ok")
    b.cbranch(b.icmp("ne", b.load_at("i32", env, ENV_STATUS), int_const("i32", 0)), failed, ok)
    b.position_at_end(failed)
    b.ret(b.call(raise_, [env, int_const("i32", 0), NULL]))
    b.position_at_end(ok)
    if fn.ret_type != T.NONE:
        out = next(args)
        if fn.ret_type == T.BOOL:
            result = b.zext(result, "i8")
        b.store(result, out)
    b.ret(int_const("i32", 0))


def _array_struct(m: NativeModule, b: Builder, w, t: T.ArrayType, name: str, data, shape, strides,
                  raise_, value_error: int) -> Value:
    """The llvm.abi struct of an array argument; returns ValueError from the wrapper when its
    shape is negative, its data misaligned, or a C-contiguous parameter's strides are not."""
    lt = llvm_type(t)
    out = b.insert_value(undef(lt), NULL, 0)
    out = b.insert_value(out, data, ARRAY_DATA)
    bad = b.icmp("ne", b.and_(b.ptrtoint(data, "i64"), int_const("i64", alignment(t.dtype) - 1)),
                 int_const("i64", 0))
    has_strides = b.icmp("ne", strides, NULL)
    step = int_const("i64", itemsize(t.dtype))
    for axis in reversed(range(t.ndim)):
        n = b.load_at("i64", shape, 8 * axis)
        bad = b.or_(bad, b.icmp("slt", n, int_const("i64", 0)))
        # strides NULL: C-contiguous; read only when given (b.select would load NULL)
        given_block, join = w.append_block("strides_given"), w.append_block("strides_join")
        here = b.block
        b.cbranch(has_strides, given_block, join)
        b.position_at_end(given_block)
        given = b.load_at("i64", strides, 8 * axis)
        b.branch(join)
        b.position_at_end(join)
        s = b.phi("i64")
        s.add_incoming(step, here)
        s.add_incoming(given, given_block)
        if t.layout == "C":          # NumPy's C_CONTIGUOUS: any stride on an axis of length one
            bad = b.or_(bad, b.and_(b.icmp("ne", s, step), b.icmp("ne", n, int_const("i64", 1))))
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {n.ref}, {ARRAY_SHAPE}, {axis}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {s.ref}, {ARRAY_STRIDES}, {axis}")
        step = b.mul(step, b.select(b.icmp("sgt", n, int_const("i64", 0)), n, int_const("i64", 1)))
    rejected, fine = w.append_block("bad_array"), w.append_block("array_ok")
    b.cbranch(bad, rejected, fine)
    b.position_at_end(rejected)
    what = "C-contiguous, " if t.layout == "C" else ""
    message = (f"array argument {name!r} must be {what}aligned to {alignment(t.dtype)} bytes, "
               "with a shape of no negative length").encode()
    b.ret(b.call(raise_, [NULL, int_const("i32", value_error), m.cstring(message)]))
    b.position_at_end(fine)
    return out
