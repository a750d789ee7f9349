"""The one table of IR opcodes.

Every opcode is declared here once: its name, how many operands it takes, which attribute it
carries, how its result type follows from its operands, whether it is pure (no side effect,
may be removed when unused, merged with an equal twin, or moved), and whether it ends a block.
The printer, the parser, the verifier and the passes all read this table.

Semantics (operands of binary ops have one type, checked by the verifier):

=============  ==============================================================================
add sub mul    integer ops wrap modulo 2**bits; float ops are IEEE
div            true division; float operands only (the frontend converts ints first)
floordiv       Python ``//``: rounds toward minus infinity; ints and floats. The divisor is
               never zero (the frontend emits a `check` before it)
mod            Python ``%``: the result has the sign of the divisor; divisor never zero
pow            floats: C ``pow``; ints: repeated multiplication, exponent >= 0 (checked)
and or xor     bitwise, on ints and bools
shl shr        shift by the second operand (>= 0, checked); ``shr`` is arithmetic for signed
               ints; a count >= the width gives 0 (or -1 for a negative signed ``shr``)
min max        Python's ``min(a, b)``/``max(a, b)``: ``b if b < a else a`` (resp. ``>``)
neg invert     ``-x``; ``~x`` on ints
not            logical not of a bool
abs            ``abs(x)``; wraps for the most negative int
ovf.K          ``ovf.K %a, %b, %r : bool`` (K in `OVF_OPS`; unary K: ``ovf.K %a, %r``): whether
               Python's exact result of int K on i64 operands lies outside int64, %r being the
               wrapping op's result (``%r = K %a, %b``), which the check guards. Tying %r keeps
               the check with its result through rewrites: the `masked` pass drops a check
               whose result reaches only masks (the high bits Python keeps cannot reach the
               value), `ranges` one its intervals prove; docs/integers.md
cmp.P          P in eq ne lt le gt ge; result bool; floats compare as Python does (``ne`` is
               true when either is NaN, the others false)
convert        to the result type: int<->int truncates or extends by the source's sign,
               int->float rounds, float->int truncates toward zero (the frontend checks the
               range first), x->bool is ``x != 0``, bool->x is 0 or 1; str <-> bytes is
               the same text object seen as the other type (code points unchanged: the
               frontend makes bytes only of text whose code points are < 256)
select         ``a if c else b``
tuple          builds a tuple of its operands; with a dict or set type written on it, that
               dict or set from its two lists (types.HashType); with a named tuple type, that
               named tuple (types.NamedTupleType)
extract.N      element N of a tuple (or list N of a dict or set); of a complex number, its real
               (0) or imaginary (1) part
hash           ``hash %k``: a hash of a dict key (bool, int, float or a tuple
               of them) for the tables of script/lib/python/dictlib.py: an i64 >= 0, equal for
               equal keys (0.0 and -0.0 alike). Not Python's `hash()`
pyhash         ``pyhash %k``: CPython's own `hash()` of a set element (bool, int, float, str or a
               tuple of them; never -1; a str's keyed by this process's hash secret), which
               orders the sets of script/lib/python/setlib.py as CPython orders its sets
complex        ``complex %re, %im``: the complex number of two floats of one type (f64: c128,
               f32: c64). On complex operands (docs/complex.md) only `add` `sub` `mul` `div`
               (CPython's ``_Py_c_prod``/``_Py_c_quot``; divisor never zero: checked first)
               `neg`, `cmp.eq`/`cmp.ne` (both parts equal), `select`, `convert` (from any
               numeric type to complex, c64 <-> c128) and `extract` are defined
math.F         the C math function F on floats (table MATH_FUNCS gives arity); on one complex
               operand for F in COMPLEX_MATH, C's cF (cexp, csqrtf, ...)
call           calls the function named by the attribute; may raise what the callee raises
check          if the bool first operand is true, raise the attribute's exception; the extra
               operands are integer arguments of the message's printf-style format
poll           ``poll``: if a SIGINT arrived since the compiled call began, run Python's signal
               handlers there and raise what they raise (KeyboardInterrupt by default); else
               nothing. ``poll %due``: the same when the bool `%due` is true (seldom: a test
               of a loop counter). Inserted into loops after optimization (script.ir.interrupts)
print          ``print "text", %a, ...``: writes the text, a message format as for `check` with
               its operands, to Python's sys.stdout (taking the GIL for it when the call
               released it). Never raises: an error of the stream is dropped
dim.K          the length of an array along axis K (i64)
stride.K       the distance in bytes between elements along axis K (i64)
load           ``load %a, %i0, ... %iN``: the element of array %a at those indices (i64, each
               already within 0 <= i < dim: the frontend checks bounds first); reads memory,
               so it is not pure (a store may change what it reads)
store          ``store %a, %v, %i0, ... %iN``: writes %v (of the array's element type)
view.AXES      a view of an array sharing its memory; AXES has one letter per axis of the
               source: ``i`` takes one operand (an index, in bounds: the axis is dropped),
               ``s`` three (start, length, step: a slice already normalized as
               `slice.indices` does, so every element it names is in bounds); ``n``, no
               operand and no source axis, inserts an axis of length 1 (``a[:, None]``);
               the result is an any-layout array of the sliced and inserted axes
transpose      the same array with its axes reversed (`a.T`): a view
part.K         ``part.K %a : f64[:]``: the real (K 0) or imaginary (K 1) parts of the elements of
               complex array %a (`a.real`, `a.imag`): a view of the same shape and strides,
               of the parts' float type, any layout
overlap        ``overlap %a, %b``: whether the bytes spanned by arrays %a and %b (each from its
               lowest element to its highest) intersect; false when either is empty. NumPy's
               bounds test of whether two arrays may share memory
reshape        ``reshape %a, %d0, ... %dN : T``: the elements of %a, which are C-contiguous
               (the frontend checks, whatever %a's layout), seen as a C array of type T with
               those lengths (their product is %a's size): a view. ``reshape %a, %d0, ...
               %dN, %s0, ... %sN : T`` (T of any layout): the memory of %a from its first
               element seen with lengths %d and byte strides %s: a view whose every element
               is one of %a's (the frontend computes NumPy's no-copy strides; numpy_alloc)
const_array.D  ``const_array.2x3_0011… : T``: a read-only C-contiguous array whose shape and
               bytes are the attribute (`ArrayData`): a module-level NumPy array frozen when the
               function was compiled. Nobody owns it (no reference counting); never written
gemm           ``gemm %c, %a, %b``: C = A @ B through the process's BLAS (script/backend/llvm/
               blas.py) when it has one and the product is large; gives whether it did (false:
               C untouched). A is 2-d, B and C both 2-d or both 1-d (a column); arrays of one
               dtype, f32 or f64, with matching lengths (the frontend checks); C (and a 1-d B)
               C-contiguous, a 2-d A or B of any layout: BLAS reads it in place when it is C- or
               Fortran-contiguous at run time (a transpose), and gives false otherwise
lapack.R       ``lapack.R %x0, ... : i64``: calls LAPACK routine R (`LAPACK_ROUTINES`, its
               Fortran argument list) of the process's LAPACK (script/backend/llvm/lapack.py)
               with one operand per argument, each passed by reference as Fortran does: an
               array by its data (C-contiguous; the routine reads and writes it), a scalar
               through a temporary. Gives the routine's INFO (0 for the BLAS routines of
               `LAPACK_NO_INFO`), or `LAPACK_MISSING` (nothing called) when the process has
               no LAPACK with 64-bit integers
alloc          ``alloc %d0, ... %dN : T``: a new C-contiguous array of type T (layout "C") with
               those lengths (each >= 0, and the byte size in range: the frontend checks),
               contents undefined; raises MemoryError when memory runs out. Never merged
               with an equal twin or moved, but deleted when unused (`removable`)
list_new       ``list_new : list[T]``: a new empty list with one reference. Never fails: when
               memory runs out it gives a list whose every `list_resize` fails (so the
               frontend follows it with a checked `list_resize`). Deleted when unused
list_null      ``list_null : obj[...]``: no instance, the value an absent optional instance
               holds (`opt[obj[...]]`, frontend/optional.py); counting leaves it alone, and
               nothing reads it
list_len       the number of elements of a list (i64); reads memory, so it is not pure
list_get       ``list_get %l, %i``: element %i of the list (0 <= %i < len: the frontend checks)
list_set       ``list_set %l, %v, %i``: writes element %i (in bounds) of the list
list_same      ``list_same %a, %b``: whether two lists (of one type) are the same object: ``is``
               between two class instances (types.ClassType)
list_id        ``list_id %a : i64``: the address of a list, its identity while it lives: the key of
               `copy.deepcopy`'s memo (lib/python/deepcopylib.py)
is_null        ``is_null %x : bool``: whether list or str %x is NULL (a `list_null`, a list slot never
               written): the test script.ir.safety puts before what reads a list or str of IR
               loaded from outside
list_resize    ``list_resize %l, %n``: sets the length to %n >= 0, keeping the first elements
               (new ones are undefined; capacity grows by doubling, so appending is amortized
               O(1)); gives false, changing nothing, when memory runs out
str_const      ``str_const "text" : str``: the string constant (any code points; printed as a JSON
               string). Nobody owns it (no reference counting is needed); the same object
               each time (pure)
str_new        ``str_new %n : str``: a new string of %n >= 0 code points (contents undefined,
               filled by `str_set` before anyone reads it); raises MemoryError when memory runs
               out. Deleted when unused
str_char       ``str_char %c : str``: the one-character string of code point %c (an i64 in
               0..0x10FFFF); one of 256 immortal objects for %c < 256, else a new one
               (MemoryError when memory runs out). Pure: two of the same %c may be one
str_concat     ``str_concat %a, %b : str``: a + b. Takes over %a's reference: when it was the
               only one (and %a is not a constant) %a's memory is extended in place (amortized
               O(1) appends, as CPython's ``s += t``). MemoryError when memory runs out
str_len        the number of code points of a string (i64); strings are immutable (pure)
str_eq         ``str_eq %a, %b : bool``: whether the strings hold the same code points (pure)
str_get        ``str_get %s, %i : i64``: code point %i (0 <= %i < len: the frontend checks);
               reads memory a `str_set` may write, so it is not pure
str_set        ``str_set %s, %c, %i``: writes code point %c (an i64 in 0..0x10FFFF) at %i (in
               bounds) of a string made by `str_new` that nobody has read yet
str_py.F       ``str_py.F %x... : T``: what CPython computes for F (`STR_PY`: int(s), float(s),
               str(x) of a float, s.lower(), format(x, spec), ...), run with the GIL (taken
               back when the call released it); raises what CPython raises, with its message
sreg.R         a GPU thread's special register R (`SREGS`: ``tid_x``, ``ntid_y``, ``ctaid_z``,
               ``nctaid_x``, ...) as an i64: the same within one thread (pure), kernels only
barrier        ``cuda.syncthreads()``: waits until every thread of the block reaches it
shared         ``shared %d0, ... %dN : T``: the block's static shared-memory array of type T
               (layout "C"); the lengths are i64 constants. One array per instruction,
               the same memory each time it runs, so it is never merged or moved
rng_state.S    ``rng_state.G_P : u32[::1]`` (``f64[::1]`` for P = ``gauss``, ``u64[::1]`` for
               ``pcg``): part P of the state of random generator G (`RNG_STATES`:
               ``random_key``, ``numpy_pos``, ``generator_pcg``...), one per process, as an array (script/backend/llvm/rng.py). The same
               memory each time (pure)
atomic.F       ``atomic.F %a, %v, %i0, ...`` (``cas``: ``%a, %expected, %new, %i0, ...``):
               updates the element in one indivisible step and gives its old value.
               F in `ATOMIC_FUNCS`: add, max, min (Python's `max`/`min` of old and %v),
               cas (store %new when the element equals %expected)
br             jump, passing block arguments
cbr            conditional jump: ``cbr %c, then(args), else(args)``
ret            return the operand (none: no operand)
raise          raise the attribute's exception (as `check` with a true condition)
exception      ``exception E "fmt", %a, ... : exc``: the exception `raise` would raise, as a
               value (an `exc`), raising nothing: inside a ``try``, where the frontend sends
               it to a handler instead (script.frontend.exceptions)
raised         ``raised : bool``, right after a ``call`` or a ``str_py``: whether it raised. It
               then does not leave this function: the exception stays pending until a `catch`
catch          ``catch : exc``: takes the pending exception (after `raised` gave true)
exc_match.C    ``exc_match.C %e : bool``: whether %e's class is builtin class C or a subclass
               (C in `MATCH_CLASSES`; an exception a Python signal handler raised matches none)
reraise        ``reraise %e``: raise %e again, with its message as it was made
=============  ==============================================================================
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from script.ir import types as T


@dataclass(frozen=True)
class ArrayData:
    """The attribute of `const_array`: a C-contiguous array's shape and bytes, written
    ``2x3_<hex>`` (``x``-separated lengths, then the little-endian bytes in hex)."""

    shape: tuple
    data: bytes

    def __str__(self) -> str:
        return "x".join(map(str, self.shape)) + "_" + self.data.hex()

    @staticmethod
    def parse(text: str) -> "ArrayData | None":
        dims, sep, digits = text.partition("_")
        parts = dims.split("x")
        if not sep or not all(p.isdigit() for p in parts) or len(digits) % 2:
            return None
        try:
            return ArrayData(tuple(int(p) for p in parts), bytes.fromhex(digits))
        except ValueError:
            return None


@dataclass(frozen=True)
class OpInfo:
    """One row of the op table: every fact about an op that more than one place needs is a
    column here, read as ``instr.op.<column>`` (a local set of op names is what this
    replaces)."""

    name: str
    nargs: int | None          # None: variadic
    attr: str | None           # "pred", "index", "fn", "callee", "exc", "sreg", "atomic", "rng",
                               # "lapack", "text", "strpy", "class", "ovf" or None
    result: str                # result type rule, see `result_type`
    pure: bool = True
    terminator: bool = False
    removable: bool = False    # impure, yet deleted when its result is unused (`alloc`)
    operands: str = ""         # the verifier's operand rule (verifier._RULES); "" for the op's name
    family: str = ""           # the group of ops it belongs to ("arith", "array", "list", "str",
                               # "kernel", "caught", ...): docs and the verifier's tests
    may_raise: bool = False    # raises by itself (a call raises what its callee raises)
    fresh: bool = False        # its result is a new reference its user owns (backend refcount)
    consumes: bool = False     # takes over its operands' references (`ret`, `tuple`)
    reads: bool = False        # impure only because it reads memory a write may change
    env_only: bool = False     # impure, but writes no memory besides the Env's exception and
                               # interrupt fields (raises, polls)
    view: bool = False         # its result is a view of its first operand's elements
    complex_ok: bool = False   # defined on complex operands (the others are not: the frontend
                               # lowers `abs`, `**` and cmath through these and float ops)
    commutative: bool = False  # its two operands may be swapped for any operand type
    always_defined: bool = False   # no effect, no trap and no LLVM poison for any operand: may
                                   # run before the checks above it (backend/llvm/lower.py)
    kernel_ok: bool = False    # GPU kernels have it (script.cuda.compile); another op in a
                               # kernel is a CompileError until its GPU lowering exists

    @property
    def deletable(self) -> bool:
        """Whether an instruction of this op whose result is unused may be deleted."""
        return (self.pure or self.removable) and not self.terminator

    @property
    def rule(self) -> str:
        """The name of the verifier's operand rule for this op."""
        return self.operands or self.name


# Special registers `sreg.R` reads: thread index in the block, block size, block index in
# the grid, grid size (PTX's tid, ntid, ctaid, nctaid), each along x, y and z.
SREGS = tuple(f"{r}_{a}" for r in ("tid", "ntid", "ctaid", "nctaid") for a in "xyz")
ATOMIC_FUNCS = ("add", "max", "min", "cas")
# The compiled random generators `rng_state` names. Mersenne Twisters: the interpreter's
# `random` and `numpy.random` (their own memory), and compiled code's own for
# `random.Random(seed)`; the parts of each one's state: the key and position, whether a
# Gaussian is cached, and the cached Gaussian. `generator_pcg`: the PCG64 of
# `numpy.random.default_rng(seed)`, one part of six u64 words (lib/numpy/pcg64.py).
RNG_GENERATORS = ("random", "numpy", "instance")
RNG_PARTS = ("key", "pos", "has_gauss", "gauss")
RNG_STATES = tuple(f"{g}_{p}" for g in RNG_GENERATORS for p in RNG_PARTS) + ("generator_pcg",)

# What `str_py.F` computes through CPython: F -> (operand types, result type), each type
# spelled as in the IR. The string functions whose exact Unicode rules (case mappings,
# character classes, the syntax of numbers) are CPython's own (frontend/strings.py).
STR_PY = {
    "int": (("str",), "i64"), "int_base": (("str", "i64"), "i64"), "float": (("str",), "f64"), "repr_float": (("f64",), "str"),
    "format_int": (("i64", "str"), "str"), "format_float": (("f64", "str"), "str"),
    "format_str": (("str", "str"), "str"),
    "lower": (("str",), "str"), "upper": (("str",), "str"), "casefold": (("str",), "str"),
    "title": (("str",), "str"), "capitalize": (("str",), "str"), "swapcase": (("str",), "str"),
    "isdigit": (("str",), "bool"), "isalpha": (("str",), "bool"), "isalnum": (("str",), "bool"),
    "isspace": (("str",), "bool"), "isupper": (("str",), "bool"), "islower": (("str",), "bool"),
    "isdecimal": (("str",), "bool"), "isnumeric": (("str",), "bool"), "istitle": (("str",), "bool"),
    "isidentifier": (("str",), "bool"), "isprintable": (("str",), "bool"),
    "repr": (("str",), "str"),
    # str(e) and repr(e) of a caught exception (script.caught_text reads the record)
    "exc_str": (("exc",), "str"), "exc_repr": (("exc",), "str"),
    # whether a caught exception is of the user class "module:qualname" (frontend/user_exceptions.py)
    "exc_is": (("exc", "str"), "bool"),
    # raise the user exception a record stands for, made by CPython (its class's __init__
    # run: frontend/built_exceptions.py), and `e.attr` of it as the type the class declares
    "exc_raise": (("exc",), "bool"), "exc_attr_int": (("exc", "str"), "i64"),
    "exc_attr_float": (("exc", "str"), "f64"), "exc_attr_str": (("exc", "str"), "str"),
    "exc_attr_bool": (("exc", "str"), "bool"),
    # format(x, spec) of a u64 (an int from 2**63 on: frontend/int_consts.py)
    "format_uint": (("u64", "str"), "str"),
    # format(b, spec) of a bool (the i64 0 or 1): int's format but for an empty spec, and
    # CPython's errors naming 'bool'
    "format_bool": (("i64", "str"), "str"),
    # the interpreter's random.seed(n) and random.gauss() (frontend/pyrandom.py)
    "random_seed": (("i64",), "bool"), "random_gauss": ((), "f64"),
    # s.encode(...) and b.decode(...) (frontend/bytes_values.py: a bytes value as the str of
    # its code points; the second operand "encoding\0errors"), by script.pyhooks.codecs_text
    "str_encode": (("str", "str"), "str"), "bytes_decode": (("str", "str"), "str"),
    # int(b, base) and float(b) of bytes (as the str of their code points), as CPython parses them
    "bytes_int": (("str", "i64"), "i64"), "bytes_float": (("str",), "f64"),
    # CPython's `re` (lib/python/relib.py: its arguments and results packed in one str)
    "re_call": (("str",), "str"),
    # reading a text file whole (its path; "encoding\0errors"), one function of os.path on
    # packed strs (lib/python/textio.py), by script.pyhooks.files
    "read_text": (("str", "str"), "str"), "os_path": (("str",), "str"),
    # str(a) and repr(a) of an array of any element type and rank (frontend/array_text.py):
    # NumPy's own text, of an ndarray made over the elements for the call
    "array_str": (("array",), "str"), "array_repr": (("array",), "str"),
    # sys.setrecursionlimit(n), sys.getrecursionlimit(): the interpreter's (frontend/interpreter_calls.py)
    "sys_setrecursionlimit": (("i64",), "bool"), "sys_getrecursionlimit": ((), "i64"),
}

# The LAPACK routines `lapack.R` calls (NumPy's own, the ones numpy.linalg's gufuncs call; and
# the BLAS ?gemm that its matmul calls), by their Fortran argument lists less the final INFO,
# one letter an argument: ``c`` CHARACTER*1 (an i64 operand holding its code), ``i`` INTEGER
# (i64), ``f`` DOUBLE PRECISION (f64), ``r`` REAL (f32), ``d`` a DOUBLE PRECISION array (a C
# f64 array), ``s`` a REAL array (a C f32 array), ``n`` an INTEGER array (a C i64 array; also
# an INTEGER output such as gelsd's RANK, as an array of one).
LAPACK_ROUTINES = {
    "dsyevd": "ccididdini",         # JOBZ UPLO N A LDA W WORK LWORK IWORK LIWORK
    "dgesdd": "ciididdididin",      # JOBZ M N A LDA S U LDU VT LDVT WORK LWORK IWORK
    "dgelsd": "iiidididfndin",      # M N NRHS A LDA B LDB S RCOND RANK WORK LWORK IWORK
    "dgeqrf": "iididdi",            # M N A LDA TAU WORK LWORK
    "dorgqr": "iiididdi",           # M N K A LDA TAU WORK LWORK
    "dpotrf": "cidi",               # UPLO N A LDA
    "dgetrf": "iidin",              # M N A LDA IPIV
    "dgesv": "iidindi",             # N NRHS A LDA IPIV B LDB
    "dgemm": "cciiifdidifdi",       # TRANSA TRANSB M N K ALPHA A LDA B LDB BETA C LDC
    "sgemm": "cciiirsisirsi",       # the same in REAL
}
LAPACK_NO_INFO = frozenset(("dgemm", "sgemm"))      # BLAS: no INFO argument (`lapack` gives 0)
# What `lapack` gives, calling nothing, when the process has no such routine (INFO itself is
# never below minus the number of arguments).
LAPACK_MISSING = -(1 << 62)

CMP_PREDS = ("eq", "ne", "lt", "le", "gt", "ge")
# The int64 ops whose Python result may not fit 64 bits, which `ovf.K` tests (the frontend
# checks Python's `int` arithmetic only: sized NumPy ints and u64 wrap, as NumPy's do).
OVF_OPS = ("add", "sub", "mul", "shl", "pow", "floordiv", "neg", "abs")

# name -> (arity, can_overflow). Arity 2 functions take (x, y).
MATH_FUNCS = {
    "sqrt": (1, False), "exp": (1, True), "expm1": (1, True), "exp2": (1, True),
    "log": (1, False), "log2": (1, False), "log10": (1, False), "log1p": (1, False),
    "sin": (1, False), "cos": (1, False), "tan": (1, False),
    "asin": (1, False), "acos": (1, False), "atan": (1, False),
    "sinh": (1, True), "cosh": (1, True), "tanh": (1, False),
    "asinh": (1, False), "acosh": (1, False), "atanh": (1, False),
    "erf": (1, False), "erfc": (1, False), "gamma": (1, True), "lgamma": (1, True),
    "floor": (1, False), "ceil": (1, False), "trunc": (1, False), "fabs": (1, False),
    "rint": (1, False), "cbrt": (1, False),
    "atan2": (2, False), "hypot": (2, False), "copysign": (2, False), "fmod": (2, False),
    "norm2": (2, False),        # Python's math.hypot(x, y): correctly rounded (llvm/mathlib.py)
    "pow": (2, True), "nextafter": (2, False), "remainder": (2, False),
    "fma": (3, False),          # fma(x, y, z): x * y + z rounded once (NumPy's complex multiply)
    "round_digits": (2, False),  # Python's round(x, n), n an integral float (llvm/mathlib.py)
    # IEEE 754-2019 maximum/minimum: a NaN operand gives a NaN, -0.0 < 0.0 (LLVM's
    # llvm.maximum): NumPy's float max/min of an array, which LLVM vectorizes (numpy_reduce)
    "fmaximum": (2, False), "fminimum": (2, False),
}

# The `math` functions also defined on one complex operand: C99's cexp, clog, ... (csqrtf
# for c64), which NumPy's complex loops call.
COMPLEX_MATH = ("exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh")

OPS: dict[str, OpInfo] = {}


def _op(name, nargs, result, attr=None, **columns):
    OPS[name] = OpInfo(name, nargs, attr, result, **columns)


# Columns most rows share, spelled once: `_NUM` an op on numbers a kernel has, defined for
# any operand (`_SAFE`) or not.
_NUM = dict(family="arith", kernel_ok=True)
_SAFE = dict(_NUM, always_defined=True)

# Arithmetic (operand rules: "numeric" one numeric type, "float" one float or complex type,
# "bits" one int or bool type, "int" one int type; see the verifier).
_op("add", 2, "same", operands="numeric", complex_ok=True, commutative=True, **_SAFE)
# A float add whose operands LLVM may regroup with other `acc`s (``fadd reassoc nsz``): a
# gradient's accumulation of adjoints (script.autodiff), which has no CPython result to
# match, so a loop's sum of them may be split into partial sums and vectorized. Never made
# from a user's `+`: only an add of the user's keeps CPython's order.
_op("acc", 2, "same", operands="float", commutative=True, always_defined=True, family="arith")
_op("sub", 2, "same", operands="numeric", complex_ok=True, **_SAFE)
_op("mul", 2, "same", operands="numeric", complex_ok=True, commutative=True, **_SAFE)
_op("div", 2, "same", operands="float", complex_ok=True, **_NUM)
_op("floordiv", 2, "same", operands="numeric", **_NUM)
_op("mod", 2, "same", operands="numeric", **_NUM)
_op("pow", 2, "same", operands="numeric", **_NUM)
_op("and", 2, "same", operands="bits", commutative=True, **_SAFE)
_op("or", 2, "same", operands="bits", commutative=True, **_SAFE)
_op("xor", 2, "same", operands="bits", commutative=True, **_SAFE)
_op("shl", 2, "same", operands="int", **_NUM)
_op("shr", 2, "same", operands="int", **_NUM)
_op("min", 2, "same", operands="numeric", **_SAFE)      # not commutative on floats (NaN)
_op("max", 2, "same", operands="numeric", **_SAFE)
_op("neg", 1, "same", operands="numeric", complex_ok=True, **_SAFE)
_op("invert", 1, "same", operands="int", **_SAFE)
_op("not", 1, "same", operands="bool", **_SAFE)
_op("abs", 1, "same", operands="numeric", **_SAFE)
_op("ovf", None, "bool", attr="ovf", family="arith")
_op("cmp", 2, "bool", attr="pred", complex_ok=True, **_SAFE)
_op("convert", 1, "given", complex_ok=True, **_NUM)    # float -> int may be poison (lower.py)
_op("select", 3, "select", complex_ok=True, **_SAFE)
_op("math", None, "same", attr="fn", complex_ok=True, **_NUM)
_op("complex", 2, "complex", family="arith")
_op("hash", 1, "i64", family="arith")
_op("pyhash", 1, "i64", operands="hash", family="arith")
# Tuples (and dicts, sets, named tuples, optionals made of them: types.HashType).
_op("tuple", None, "tuple", family="tuple", fresh=True, consumes=True, complex_ok=True, kernel_ok=True)
_op("extract", 1, "extract", attr="index", family="tuple", complex_ok=True, always_defined=True,
    kernel_ok=True)
# Arrays.
_ARRAY = dict(family="array")
_op("dim", 1, "i64", attr="index", operands="axis", always_defined=True, kernel_ok=True, **_ARRAY)
_op("stride", 1, "i64", attr="index", operands="axis", always_defined=True, kernel_ok=True, **_ARRAY)
_op("load", None, "element", pure=False, reads=True, complex_ok=True, kernel_ok=True, **_ARRAY)
_op("store", None, "void", pure=False, complex_ok=True, kernel_ok=True, **_ARRAY)
_op("view", None, "given", attr="axes", view=True, kernel_ok=True, **_ARRAY)
_op("transpose", 1, "given", view=True, kernel_ok=True, **_ARRAY)
_op("part", 1, "given", attr="index", view=True, **_ARRAY)
_op("overlap", 2, "bool", **_ARRAY)
_op("reshape", None, "given", view=True, **_ARRAY)
_op("alloc", None, "given", pure=False, removable=True, may_raise=True, fresh=True, complex_ok=True,
    **_ARRAY)
_op("const_array", 0, "given", attr="data", **_ARRAY)
_op("gemm", 3, "bool", pure=False, **_ARRAY)
_op("lapack", None, "i64", attr="lapack", pure=False, **_ARRAY)
# Calls, checks and output.
_op("call", None, "callee", attr="callee", pure=False, family="control", fresh=True, complex_ok=True,
    kernel_ok=True)
_op("check", None, "void", attr="exc", operands="exc", pure=False, family="control", may_raise=True,
    env_only=True, kernel_ok=True)
_op("poll", None, "void", pure=False, family="control", may_raise=True, env_only=True)   # no operand, or the bool %due
_op("print", None, "void", attr="text", pure=False, family="control")
# Lists (script/backend/llvm/lists.py): reads and writes of memory, so none is pure.
_LIST = dict(family="list", operands="list")
_op("list_new", 0, "given", pure=False, removable=True, fresh=True, **_LIST)
_op("list_null", 0, "given", fresh=True, **_LIST)
_op("list_len", 1, "i64", pure=False, removable=True, reads=True, **_LIST)
_op("list_get", 2, "item", pure=False, removable=True, reads=True, complex_ok=True, **_LIST)
_op("list_set", 3, "void", pure=False, complex_ok=True, **_LIST)
_op("list_resize", 2, "bool", pure=False, **_LIST)
_op("list_same", 2, "bool", **_LIST)
_op("list_id", 1, "i64", **_LIST)
_op("is_null", 1, "bool", family="list")
# Strings (script/backend/llvm/strings.py): immutable once filled.
_STR = dict(family="str", operands="str")
_op("str_const", 0, "given", attr="text", **_STR)
_op("str_new", 1, "given", pure=False, removable=True, may_raise=True, fresh=True, **_STR)
_op("str_char", 1, "given", may_raise=True, fresh=True, **_STR)
_op("str_concat", 2, "given", pure=False, may_raise=True, fresh=True, **_STR)
_op("str_len", 1, "i64", **_STR)
_op("str_eq", 2, "bool", **_STR)
_op("str_get", 2, "i64", pure=False, removable=True, reads=True, **_STR)
_op("str_set", 3, "void", pure=False, **_STR)
_op("str_py", None, "given", attr="strpy", pure=False, may_raise=True, fresh=True, **_STR)
# The CUDA kernel language (script.cuda): thread indices, barriers, shared memory, atomics.
_KERNEL = dict(family="kernel", kernel_ok=True)
_op("sreg", 0, "i64", attr="sreg", **_KERNEL)
_op("barrier", 0, "void", pure=False, **_KERNEL)
_op("shared", None, "given", pure=False, **_KERNEL)
_op("atomic", None, "element", attr="atomic", pure=False, **_KERNEL)
# The compiled random generators (script/frontend/pyrandom.py).
_op("rng_state", 0, "given", attr="rng", family="array")
# Terminators.
_op("br", None, "void", operands="branch", terminator=True, family="control", complex_ok=True,
    kernel_ok=True)
_op("cbr", None, "void", operands="branch", terminator=True, family="control", complex_ok=True,
    kernel_ok=True)
_op("ret", None, "void", terminator=True, family="control", consumes=True, complex_ok=True,
    kernel_ok=True)
_op("raise", None, "void", attr="exc", operands="exc", pure=False, terminator=True, family="control",
    may_raise=True, env_only=True, kernel_ok=True)
# Exceptions caught in compiled code (script.frontend.exceptions, backend/llvm/lower.py).
_CAUGHT = dict(family="caught")
_op("exception", None, "exc", attr="exc", operands="exc", fresh=True, **_CAUGHT)
_op("raised", 0, "bool", pure=False, **_CAUGHT)
_op("catch", 0, "exc", pure=False, fresh=True, **_CAUGHT)
_op("exc_match", 1, "bool", attr="class", **_CAUGHT)
_op("reraise", 1, "void", pure=False, terminator=True, may_raise=True, env_only=True, **_CAUGHT)


def result_type(op: OpInfo, operand_types: list, attr, given: T.Type | None = None) -> T.Type | None:
    """The result type `op` gives for these operand types and attribute, or None if ill-typed.

    `given` is the result type written on the instruction, which "given" rules and calls use.
    Returns `T.NONE` for ops without a result.
    """
    rule = op.result
    if rule == "void":
        return T.NONE
    if rule == "given":
        return given
    if rule == "bool":
        return T.BOOL
    if rule == "i64":
        return T.I64
    if rule == "exc":
        return T.EXC
    if rule == "element":
        t = operand_types[0] if operand_types else None
        return t.dtype if isinstance(t, T.ArrayType) else None
    if rule == "item":
        t = operand_types[0] if operand_types else None
        return t.elem if isinstance(t, T.ListType) else None
    if rule == "same":
        return operand_types[0] if operand_types else None
    if rule == "select":
        return operand_types[1] if len(operand_types) == 3 else None
    if rule == "tuple":
        if isinstance(given, (T.OptionalType, T.HashType, T.NamedTupleType, T.IntFloatType, T.UnionType)) and \
                list(given.elems) == list(operand_types):
            return given            # (present, value) is how an optional is made; (index, entries) a dict;
            #                         (is_float, int, float) an int|float; (tag, a, b) a union
        return T.TupleType(operand_types)
    if rule == "complex":
        if len(operand_types) == 2 and operand_types[0] == operand_types[1] \
                and isinstance(operand_types[0], T.FloatType):
            return T.complex_of(operand_types[0])
        return None
    if rule == "extract":
        t = operand_types[0] if operand_types else None
        if isinstance(t, T.ComplexType) and attr in (0, 1):
            return t.part
        if isinstance(t, (T.TupleType, T.HashType)) and isinstance(attr, int) and 0 <= attr < len(t.elems):
            return t.elems[attr]
        return None
    if rule == "callee":
        return attr.ret_type if attr is not None else None
    raise AssertionError(f"unknown result rule {rule}")


@dataclass(frozen=True)
class ExcInfo:
    """The exception a `check` or `raise` throws: a builtin exception class name, a printf-style
    message format (a directive of `MESSAGE_DIRECTIVE` for each operand; ``%%`` for a percent
    sign), or None for an exception raised without a message."""

    name: str
    message: str | None


# The directives of exception messages (script.frontend.messages): ``%lld``/``%llu`` take an
# int, ``%B`` a bool, ``%R`` (Python's str of a float), ``%Q`` and ``%+Q`` (a part of a
# complex number as its repr writes it: no ".0", the second with its sign), ``%U`` a str (its
# text) and ``%.Nf``/``e``/``g`` an f64.
MESSAGE_DIRECTIVE = re.compile(r"%%|%lld|%llu|%B|%R|%U|%\+?Q|%\.(\d+)([feg])")


def message_operands(message: str) -> list[str]:
    """What each operand of `message` is: "int", "bool", "float" or "str", in order."""
    kinds = []
    for m in MESSAGE_DIRECTIVE.finditer(message):
        d = m.group()
        if d != "%%":
            kinds.append("int" if d in ("%lld", "%llu") else "bool" if d == "%B" else "str" if d == "%U"
                         else "float")
    return kinds


# The most integer operands a `check`'s message takes: the message slots of the backends'
# exception record (llvm.abi `Env`), enough for NumPy's broadcast messages, which name every
# operand's shape (three 3-d operands and an output: `shapes (2,2,2) (3,2,2) (1,2,2)`).
MAX_MESSAGE_ARGS = 12

# Builtin exception classes compiled code may raise, by name (CPython's PyExc_<name>).
EXCEPTIONS = (
    "ArithmeticError", "AssertionError", "Exception", "IndexError", "KeyError",
    "LookupError", "NotImplementedError", "OverflowError", "RecursionError", "RuntimeError",
    "TypeError", "UnboundLocalError", "ValueError", "ZeroDivisionError", "FloatingPointError",
    "MemoryError", "NameError", "StopIteration", "AttributeError", "KeyboardInterrupt",
)

# What `exc_match` may name: the classes above and BaseException (a bare ``except:``).
MATCH_CLASSES = EXCEPTIONS + ("BaseException",)


def is_subclass(name: str, cls: str) -> bool:
    """Whether builtin exception class `name` is `cls` or a subclass of it (CPython's own
    hierarchy, read from the running interpreter)."""
    import builtins
    return issubclass(getattr(builtins, name), getattr(builtins, cls))
