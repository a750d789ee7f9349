"""native.elfso, the linker of the JIT's objects into shared objects: what it links loads with
glibc's dlopen and behaves (calls into the C-API and libm, jump tables, constants, pointers in
data written by the loader, read-only tables of pointers, .bss, several objects, weak
definitions, Python extension modules, imports from libraries loaded before), what it cannot
link is an ElfError, never a crash, and the runtime library and compiled functions link and
run in a fresh process."""

import ctypes
import functools
import importlib.machinery
import importlib.util
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys

import llvmlite.binding as llvm
import pytest

import script
from script.backend.native import elfload, elfso
from test_elfload import with_relocation_type

pytestmark = pytest.mark.skipif(not elfload.is_supported(), reason="elfso links for x86-64 Linux")


@functools.cache
def target_machine(reloc: str):
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm.Target.from_default_triple().create_target_machine(
        opt=2, reloc=reloc, codemodel="default")


def compile_ir(text: str, reloc: str = "pic") -> bytes:
    """The object code of LLVM IR `text`, as the JIT emits it (or with another relocation
    model)."""
    tm = target_machine(reloc)
    mod = llvm.parse_assembly(text)
    mod.triple, mod.data_layout = tm.triple, str(tm.target_data)
    mod.verify()
    return bytes(tm.emit_object(mod))


def write_so(tmp_path, texts, name: str = "lib.so", **options) -> str:
    """Link objects of IR texts (or object code) into `name` in `tmp_path`; returns its path."""
    objects = [compile_ir(t) if isinstance(t, str) else t for t in texts]
    path = tmp_path / name
    path.write_bytes(elfso.link_shared(objects, **options))
    return str(path)


def function(lib, name: str, restype=ctypes.c_int64, argtypes=(ctypes.c_int64,)):
    f = lib[name]
    f.restype, f.argtypes = restype, list(argtypes)
    return f


# ---- what links and runs ------------------------------------------------------------------

CAPI = """
declare ptr @PyLong_FromLong(i64)
declare i64 @PyLong_AsLong(ptr)
declare void @Py_DecRef(ptr)
define i64 @"capi.roundtrip"(i64 %x) {
  %o = call ptr @PyLong_FromLong(i64 %x)
  %v = call i64 @PyLong_AsLong(ptr %o)
  call void @Py_DecRef(ptr %o)
  %r = add i64 %v, 1
  ret i64 %r
}
"""


def test_a_call_into_the_c_api(tmp_path):
    lib = ctypes.PyDLL(write_so(tmp_path, [CAPI]))     # holds the GIL while it runs
    f = function(lib, "capi.roundtrip")
    assert [f(x) for x in (0, -7, 10**12)] == [1, -6, 10**12 + 1]


@pytest.mark.parametrize("needed", [(), ("libm.so.6",)])
def test_a_call_into_libm(tmp_path, needed):
    lib = ctypes.CDLL(write_so(tmp_path, ["""
        declare double @sin(double)
        define double @"m.sine"(double %x) {
          %r = call double @sin(double %x)
          ret double %r
        }"""], needed=needed))
    f = function(lib, "m.sine", ctypes.c_double, [ctypes.c_double])
    assert f(0.5) == math.sin(0.5)


SWITCH = """
define i64 @pick(i64 %k, i64 %x) {
entry:
  switch i64 %k, label %other [i64 0, label %a  i64 1, label %b  i64 2, label %c
                               i64 3, label %d  i64 4, label %e  i64 5, label %f]
a:
  %ra = add i64 %x, 11
  ret i64 %ra
b:
  %rb = mul i64 %x, 3
  ret i64 %rb
c:
  %rc = sub i64 %x, 7
  ret i64 %rc
d:
  %rd = xor i64 %x, 5
  ret i64 %rd
e:
  %re = shl i64 %x, 2
  ret i64 %re
f:
  %rf = sdiv i64 %x, 3
  ret i64 %rf
other:
  ret i64 -1
}
"""


def test_a_switch_lowered_to_a_jump_table(tmp_path):
    obj = compile_ir(SWITCH)
    o = elfload._Object(obj, 0)
    assert any(o.loaded[rel.section].part == elfload._RODATA for rel in o.relocations)
    f = function(ctypes.CDLL(write_so(tmp_path, [obj])), "pick",
                 argtypes=[ctypes.c_int64, ctypes.c_int64])
    x = 1000
    assert [f(k, x) for k in range(-1, 7)] == [-1, x + 11, 3 * x, x - 7, x ^ 5, 4 * x, x // 3, -1]


def test_constants_in_rodata(tmp_path):
    values = [1.5, -2.25, 3e10, math.inf, 1e-300]
    lib = ctypes.CDLL(write_so(tmp_path, [f"""
        @table = private unnamed_addr constant [5 x double] [{", ".join(
            f"double 0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016X}" for v in values)}]
        define double @"table.at"(i64 %i) {{
          %p = getelementptr [5 x double], ptr @table, i64 0, i64 %i
          %v = load double, ptr %p
          ret double %v
        }}"""]))
    f = function(lib, "table.at", ctypes.c_double)
    assert [f(i) for i in range(5)] == values


POINTERS = """
@answer = global i64 42
@links = global { ptr, ptr, i64 } { ptr @answer, ptr @twice, i64 7 }
define i64 @twice(i64 %x) {
  %r = mul i64 %x, 2
  ret i64 %r
}
define i64 @"links.use"(i64 %x) {
  %p = load ptr, ptr @links
  %a = load i64, ptr %p
  %fp = getelementptr { ptr, ptr, i64 }, ptr @links, i32 0, i32 1
  %f = load ptr, ptr %fp
  %r = call i64 %f(i64 %x)
  %s = add i64 %a, %r
  ret i64 %s
}
"""


def test_pointers_in_writable_data(tmp_path):
    lib = ctypes.CDLL(write_so(tmp_path, [POINTERS]))
    links = (ctypes.c_void_p * 3).in_dll(lib, "links")
    answer = ctypes.c_int64.in_dll(lib, "answer")
    assert links[0] == ctypes.addressof(answer)
    assert links[1] == ctypes.cast(lib.twice, ctypes.c_void_p).value
    assert links[2] == 7
    use = function(lib, "links.use")
    assert use(5) == 52
    answer.value = 100                      # writable, and read through the pointer
    assert use(5) == 110


FUNCTION_TABLES = """
define i64 @inc(i64 %x) {
  %r = add i64 %x, 1
  ret i64 %r
}
define i64 @dec(i64 %x) {
  %r = sub i64 %x, 1
  ret i64 %r
}
define i64 @neg(i64 %x) {
  %r = sub i64 0, %x
  ret i64 %r
}
@ops = constant [3 x ptr] [ptr @inc, ptr @dec, ptr @neg]
@named = constant [2 x ptr] [ptr @neg, ptr @inc], section ".rodata.named"
define i64 @"ops.apply"(i64 %i, i64 %x) {
  %p = getelementptr [3 x ptr], ptr @ops, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}
define i64 @"named.apply"(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @named, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}
"""


def mapping_of(address: int) -> str:
    """The permissions of the mapping of this process that holds `address`."""
    with open("/proc/self/maps") as f:
        for line in f:
            span, perms = line.split()[:2]
            start, end = (int(x, 16) for x in span.split("-"))
            if start <= address < end:
                return perms
    raise AssertionError(f"{address:#x} is not mapped")


def read_only(obj: bytes, name: str) -> bytes:
    """`obj` with its section `name` marked read-only (LLVM marks a section it writes
    relocated pointers to writable, other assemblers may not)."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", obj, 0x3C)
    names_at, = struct.unpack_from("<Q", obj, shoff + 64 * shstrndx + 24)
    data = bytearray(obj)
    for k in range(shnum):
        name_at, = struct.unpack_from("<I", obj, shoff + 64 * k)
        if obj[names_at + name_at:].startswith(name.encode() + b"\0"):
            flags, = struct.unpack_from("<Q", obj, shoff + 64 * k + 8)
            struct.pack_into("<Q", data, shoff + 64 * k + 8, flags & ~1)     # SHF_WRITE
            return bytes(data)
    raise AssertionError(f"no section {name}")


def test_read_only_tables_of_pointers_are_relocated_then_protected(tmp_path):
    obj = read_only(compile_ir(FUNCTION_TABLES), ".rodata.named")
    o = elfload._Object(obj, 0)
    names = {sec.name: sec.part for sec in o.loaded.values()}
    assert names[".data.rel.ro"] == elfload._DATA and names[".rodata.named"] == elfload._RODATA
    lib = ctypes.CDLL(write_so(tmp_path, [obj]))
    apply, named = (function(lib, n, argtypes=[ctypes.c_int64] * 2)
                    for n in ("ops.apply", "named.apply"))
    assert [apply(i, 10) for i in range(3)] == [11, 9, -10]
    assert [named(i, 10) for i in range(2)] == [-10, 11]
    for table in ("ops", "named"):
        address = ctypes.addressof(ctypes.c_void_p.in_dll(lib, table))
        assert mapping_of(address) == "r--p"        # PT_GNU_RELRO


def test_bss_is_zero_and_not_in_the_file(tmp_path):
    path = write_so(tmp_path, ["""
        @zeros = global [131072 x i64] zeroinitializer
        define i64 @"zeros.bump"(i64 %i, i64 %v) {
          %p = getelementptr [131072 x i64], ptr @zeros, i64 0, i64 %i
          %old = load i64, ptr %p
          %new = add i64 %old, %v
          store i64 %new, ptr %p
          ret i64 %new
        }"""])
    assert os.path.getsize(path) < 64 * 1024           # 1 MiB of .bss
    lib = ctypes.CDLL(path)
    zeros = (ctypes.c_int64 * 131072).in_dll(lib, "zeros")
    assert not any(zeros)
    bump = function(lib, "zeros.bump", argtypes=[ctypes.c_int64] * 2)
    assert (bump(131071, 5), bump(131071, 5), zeros[131071]) == (5, 10, 10)


CALLER = """
declare i64 @"b.g"(i64)
@"b.counter" = external global i64
define i64 @"a.h"(i64 %x) {
  %r = mul i64 %x, 10
  ret i64 %r
}
define i64 @"a.f"(i64 %x) {
  %g = call i64 @"b.g"(i64 %x)
  %c = load i64, ptr @"b.counter"
  %r = add i64 %g, %c
  ret i64 %r
}
"""
CALLEE = """
declare i64 @"a.h"(i64)
@"b.counter" = global i64 3
define i64 @"b.g"(i64 %x) {
  %h = call i64 @"a.h"(i64 %x)
  %r = add i64 %h, 5
  ret i64 %r
}
"""


def test_two_objects_call_each_other(tmp_path):
    lib = ctypes.CDLL(write_so(tmp_path, [CALLER, CALLEE]))
    assert function(lib, "a.f")(4) == 48
    ctypes.c_int64.in_dll(lib, "b.counter").value = 100      # reached through the GOT
    assert function(lib, "a.f")(4) == 145


WEAK_CALLER = """
define weak i64 @w() {
  ret i64 1
}
@absent = extern_weak global i64
define i64 @"weak.call"() {
  %r = call i64 @w()
  ret i64 %r
}
define i64 @"weak.absent"() {
  %c = icmp eq ptr @absent, null
  %r = zext i1 %c to i64
  ret i64 %r
}
"""


@pytest.mark.parametrize("others, expected", [
    ([], 1),
    (["define i64 @w() {\n ret i64 2\n}"], 2),                 # strong wins
    (["define weak i64 @w() {\n ret i64 3\n}"], 1),            # the first weak one
])
def test_weak_definitions(tmp_path, others, expected):
    lib = ctypes.CDLL(write_so(tmp_path, [WEAK_CALLER] + others))
    assert function(lib, "weak.call", argtypes=[])() == expected
    assert function(lib, "weak.absent", argtypes=[])() == 1     # an undefined weak import


EXTENSION = """
%PyMethodDef = type { ptr, ptr, i32, ptr }
%PyModuleDef = type { i64, ptr, ptr, i64, ptr, ptr, ptr, i64, ptr, ptr, ptr, ptr, ptr }
@name = private unnamed_addr constant [10 x i8] c"elfso_ext\\00"
@method = private unnamed_addr constant [6 x i8] c"twice\\00"
@methods = internal global [2 x %PyMethodDef] [
  %PyMethodDef { ptr @method, ptr @twice, i32 8, ptr null },    ; METH_O
  %PyMethodDef zeroinitializer]
@def = internal global %PyModuleDef { i64 1, ptr null, ptr null, i64 0, ptr null,
  ptr @name, ptr null, i64 -1, ptr @methods, ptr null, ptr null, ptr null, ptr null }
declare ptr @PyModule_Create2(ptr, i32)
declare ptr @PyLong_FromLong(i64)
declare i64 @PyLong_AsLong(ptr)
define internal ptr @twice(ptr %self, ptr %arg) {
  %v = call i64 @PyLong_AsLong(ptr %arg)
  %d = mul i64 %v, 2
  %r = call ptr @PyLong_FromLong(i64 %d)
  ret ptr %r
}
define ptr @PyInit_elfso_ext() {
  %m = call ptr @PyModule_Create2(ptr @def, i32 1013)
  ret ptr %m
}
"""


def test_a_python_extension_module(tmp_path):
    path = write_so(tmp_path, [EXTENSION], "elfso_ext.so", soname="elfso_ext.so")
    loader = importlib.machinery.ExtensionFileLoader("elfso_ext", path)
    spec = importlib.util.spec_from_file_location("elfso_ext", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    assert module.__name__ == "elfso_ext" and module.twice(21) == 42


PROVIDER = """
@"elfso_test.value" = global i64 5
define i64 @"elfso_test.provide"(i64 %x) {
  %r = add i64 %x, 100
  ret i64 %r
}
"""
CONSUMER = """
declare i64 @"elfso_test.provide"(i64)
@"elfso_test.value" = external global i64
define i64 @"consumer.use"(i64 %x) {
  %p = call i64 @"elfso_test.provide"(i64 %x)
  %v = load i64, ptr @"elfso_test.value"
  %r = add i64 %p, %v
  ret i64 %r
}
"""


def test_imports_from_a_library_loaded_before_with_rtld_global(tmp_path):
    consumer = compile_ir(CONSUMER)
    with pytest.raises(OSError, match="undefined symbol: elfso_test"):
        ctypes.CDLL(write_so(tmp_path, [consumer], "early.so"))       # RTLD_NOW
    ctypes.CDLL(write_so(tmp_path, [PROVIDER], "provider.so"), mode=os.RTLD_GLOBAL | os.RTLD_NOW)
    lib = ctypes.CDLL(write_so(tmp_path, [consumer], "consumer.so"))
    assert function(lib, "consumer.use")(1) == 106


def test_the_output_is_deterministic_and_readelf_reads_it(tmp_path):
    objects = [compile_ir(t) for t in (CALLER, CALLEE, FUNCTION_TABLES, CAPI)]
    data = elfso.link_shared(objects, soname="libx.so")
    assert elfso.link_shared([bytes(o) for o in objects], soname="libx.so") == data
    if shutil.which("readelf") is None:
        pytest.skip("no readelf")
    path = tmp_path / "libx.so"
    path.write_bytes(data)
    for options in ("-lW", "-aW"):
        r = subprocess.run(["readelf", options, str(path)], capture_output=True, text=True)
        assert r.returncode == 0 and "arning" not in r.stderr + r.stdout, r.stderr
    r = subprocess.run(["readelf", "-lW", "--dyn-syms", "-d", str(path)],
                       capture_output=True, text=True)
    assert "GNU_RELRO" in r.stdout and "GNU_STACK" in r.stdout and "TEXTREL" not in r.stdout
    assert "libx.so" in r.stdout and "BIND_NOW" in r.stdout
    for name in ("a.f", "b.g", "b.counter", "ops", "capi.roundtrip"):
        assert f" {name}\n" in r.stdout


# ---- what it declines ---------------------------------------------------------------------

LATE = """
@"late.table" = external global i64
declare i64 @"late.fn"(i64)
define i64 @"late.use"(i64 %x) {
  %t = load i64, ptr @"late.table"
  %y = call i64 @"late.fn"(i64 %x)
  %r = add i64 %t, %y
  ret i64 %r
}
"""

LATE_PROVIDER = """
@"late.value" = global i64 100
define i64 @"late.double"(i64 %x) {
  %r = mul i64 %x, 2
  ret i64 %r
}
"""


def test_late_bound_names_get_writable_slots_filled_after_loading(tmp_path):
    provider = ctypes.CDLL(write_so(tmp_path, [LATE_PROVIDER], "provider.so"))
    path = write_so(tmp_path, [LATE], late=lambda name: name.startswith("late."))
    lib = ctypes.CDLL(path)         # nothing to bind: loads though the names are nowhere
    table, fn = (ctypes.c_void_p.in_dll(lib, f"script.got.late.{n}") for n in ("table", "fn"))
    assert ctypes.addressof(ctypes.c_void_p.in_dll(lib, "script.late")) in (
        ctypes.addressof(table), ctypes.addressof(fn))
    assert table.value is None and fn.value is None
    table.value = ctypes.addressof(ctypes.c_int64.in_dll(provider, "late.value"))
    fn.value = ctypes.cast(provider["late.double"], ctypes.c_void_p).value
    assert function(lib, "late.use")(21) == 142


def test_a_late_bound_name_needs_a_got_slot():
    with pytest.raises(elfso.ElfError, match="bound late"):
        elfso.link_shared([compile_ir(LATE.replace('@"late.table" = external global i64',
                                                   '@"late.table" = external dso_local global i64'))],
                          late=lambda name: name.startswith("late."))


def test_absolute_32_bit_relocations_are_declined():
    obj = compile_ir("""
        @g = dso_local global i64 1
        define ptr @addr() {                 ; movl $g, %eax: R_X86_64_32
          ret ptr @g
        }""", reloc="static")
    with pytest.raises(elfso.ElfError, match="not position-independent"):
        elfso.link_shared([obj])


def test_a_pc_relative_reference_to_an_import_is_declined():
    obj = compile_ir("""
        @elsewhere = external dso_local global i64
        define i64 @get() {
          %v = load i64, ptr @elsewhere
          ret i64 %v
        }""")
    with pytest.raises(elfso.ElfError, match="copy relocation"):
        elfso.link_shared([obj])


def test_an_absolute_relocation_in_code_is_declined():
    with pytest.raises(elfso.ElfError, match="in code"):
        elfso.link_shared([with_relocation_type(compile_ir(CAPI), 1)])


@pytest.mark.parametrize("change, message", [
    (lambda o: o[:18] + struct.pack("<H", 183) + o[20:], "not an x86-64 object"),
    (lambda o: with_relocation_type(o, 19), "relocation type 19"),     # TLSGD
    (lambda o: o[:100], "truncated"),
])
def test_what_elfload_declines_is_declined(change, message):
    with pytest.raises(elfso.ElfError, match=message):
        elfso.link_shared([change(compile_ir(CAPI))])


def test_two_strong_definitions_are_declined():
    with pytest.raises(elfso.ElfError, match="defined twice"):
        elfso.link_shared([compile_ir(CALLEE), compile_ir(CALLEE)])


def test_damaged_objects_never_crash_the_linker():
    rng = random.Random(5)
    for obj in (compile_ir(CALLER + FUNCTION_TABLES), compile_ir(SWITCH + POINTERS)):
        for trial in range(300):
            data = bytearray(obj)
            if trial % 3 == 0:
                data = data[:rng.randrange(len(data))]
            for _ in range(1 + trial % 4):
                if data:
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            try:
                elfso.link_shared([bytes(data)])
            except elfso.ElfError:
                pass


# ---- the runtime library and compiled functions, in a fresh process ----------------------

def triangle(n: int) -> int:
    t = 0
    for i in range(n):
        t += i * i
    return t


CHILD = """
import ctypes, json, os, sys, time
runtime, function, names = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
start = time.perf_counter()
rt = ctypes.CDLL(runtime, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
middle = time.perf_counter()
lib = ctypes.PyDLL(function, mode=os.RTLD_NOW)
end = time.perf_counter()
missing = [n for n in names if not hasattr(rt, n)]
entry = lib["script.entry"]
entry.restype = ctypes.py_object
entry.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.py_object), ctypes.c_size_t,
                  ctypes.c_void_p]
results = [entry(None, (ctypes.py_object * 1)(n), 1, None) for n in (0, 10, 1000)]
print(json.dumps({"missing": missing, "results": results,
                  "ms": [1e3 * (middle - start), 1e3 * (end - middle)]}))
"""


def test_the_runtime_library_and_a_compiled_function_run_from_shared_objects(tmp_path):
    from script.backend.runtime.library import entry_point
    from script.backend.runtime.shared import compile_runtime
    code, names = compile_runtime()
    runtime = tmp_path / "libscript-runtime.so"
    runtime.write_bytes(elfso.link_shared([code], soname=runtime.name))
    f = script.script(triangle)
    f(3)
    spec = next(iter(f._specializations.values()))
    point = entry_point(spec.arg_types, spec.ret_type, spec.native.numpy_scalars)
    function = tmp_path / "triangle.so"
    function.write_bytes(elfso.link_shared([spec.native.object_code, point.object_code]))
    r = subprocess.run([sys.executable, "-c", CHILD, str(runtime), str(function),
                        json.dumps(names)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["missing"] == [] and out["results"] == [triangle(n) for n in (0, 10, 1000)]
