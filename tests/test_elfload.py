"""native.elfload, the loader of object code without LLVM: loaded code behaves like the code
LLVM's linker loads (results, exceptions, arrays, recursion, calls, Ctrl-C, the GIL), the
loader declines what it does not know so that LLVM takes over, damaged objects never crash
it, and the per-machine store ignores damaged objects with a warning."""

import functools
import os
import random
import struct
import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import saved_kernels as K
import script
from script.errors import LoadError
from test_interrupts import wait_for_flag
from script.backend.llvm import abi
from script import loadpath as link  # the linker of the load path
from script import store
from script.backend.native import elfload
from script.backend.runtime import capi, symbols
from script.loadpath import runtime_library

pytestmark = pytest.mark.skipif(not elfload.is_supported(), reason="elfload runs on x86-64 Linux")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def compiled():
    return K.compiled()


@pytest.fixture(scope="module")
def loaded(compiled, tmp_path_factory):
    path = tmp_path_factory.mktemp("elfload") / "k.smod"
    script.save(compiled, path)
    return script.load(path)


def natives(fn) -> list:
    return [s.native for s in fn._specializations.values()]


def test_names_are_the_backends():
    assert link.ENTRY_SYMBOL == abi.ENTRY_SYMBOL
    assert f"{link.KERNEL_SYMBOL}.f" == abi.kernel_name("f")
    assert all(n.startswith(symbols.NUMPY_PREFIX) for n in capi.NUMPY_FUNCTIONS)


def test_the_runtime_library_is_a_shared_object_from_the_store():
    assert runtime_library().path is not None
    assert "script._runtime" in sys.modules


def test_saved_code_loads_without_llvm_and_behaves_the_same(compiled, loaded):
    assert all(isinstance(n, link.LoadedLibrary) for name in K.NAMES
               for n in natives(getattr(loaded, name)))
    assert K.outcomes({n: getattr(loaded, n) for n in K.NAMES}) == K.outcomes(compiled)


@settings(max_examples=60, deadline=None)
@given(st.integers(-2**40, 2**40), st.integers(-1000, 1000))
def test_loaded_code_matches_python(loaded, a, b):
    def outcome(f, *args):
        try:
            return "ok", f(*args)
        except Exception as e:  # noqa: BLE001 - the outcome is what is compared
            return type(e).__name__, str(e)
    assert outcome(loaded.divide, a, b) == outcome(K.divide, a, b)
    assert outcome(loaded.wrap32, a % 2**31, b) == outcome(script.script(K.wrap32), a % 2**31, b)
    x = abs(b) / 7.0
    assert outcome(loaded.root, x - 3) == outcome(K.root, x - 3)


def ramp(n: int, step: float):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * step
    if n > 1000:
        raise ValueError("too long")
    return out


def test_arrays_in_and_out(tmp_path):
    fns = {f.__name__: script.script(f) for f in (K.array_total, K.array_scale, ramp)}
    a = np.arange(12.0)
    fns["array_total"](a), fns["array_total"](a[::3])       # contiguous and strided
    fns["array_scale"](a.copy(), 2.0)
    script.save(fns, tmp_path / "a.smod")
    m = script.load(tmp_path / "a.smod")
    assert all(isinstance(n, link.LoadedLibrary) for f in fns for n in natives(getattr(m, f)))
    assert m.array_total(a[::3]) == fns["array_total"](a[::3]) == a[::3].sum()
    b = a.copy()
    m.array_scale(b, 2.0)
    assert b.tolist() == (2 * a).tolist()
    out = m.ramp(5, 0.5)
    assert isinstance(out, np.ndarray) and out.tolist() == [0.0, 0.5, 1.0, 1.5, 2.0]
    del out
    with pytest.raises(ValueError, match="too long"):
        m.ramp(2000, 1.0)


def test_a_declined_object_is_a_load_error_never_given_to_llvm(compiled, tmp_path, monkeypatch):
    """LLVM's linker aborts the process on some objects that elfload reads but declines (a
    symbol nobody defines: tests/fuzz_trust.py), so a declined object is a LoadError (issue
    22; it used to be linked by LLVM)."""
    import script.backend as backend
    path = tmp_path / "k.smod"
    script.save(compiled, path)

    def decline(objects, resolve):
        raise elfload.ElfError("declined for the test")

    def llvm(*args, **kwargs):
        raise AssertionError("LLVM's linker was given saved object code")

    monkeypatch.setattr(elfload, "load", decline)
    monkeypatch.setattr(backend, "link_with_llvm", llvm)
    with pytest.raises(LoadError, match="declined for the test"):
        script.load(path)


def test_an_object_of_another_function_does_not_link(compiled):
    code = natives(compiled["fib"])[0].object_code
    with pytest.raises(RuntimeError, match="does not define"):
        link.load_object(code, "collatz.i64", *K_types(compiled["fib"]))


def K_types(fn):
    spec = next(iter(fn._specializations.values()))
    return spec.arg_types, spec.ret_type


# ---- what the loader declines, and damage -------------------------------------------------

@functools.cache
def runtime_object() -> bytes:
    from script.backend.runtime.shared import compile_runtime
    return compile_runtime()[0]


def with_relocation_type(obj: bytes, kind: int) -> bytes:
    """`obj` with the type of its first RELA entry replaced."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, = struct.unpack_from("<H", obj, 0x3C)
    for k in range(shnum):
        type_, = struct.unpack_from("<I", obj, shoff + 64 * k + 4)
        if type_ == 4:
            offset, = struct.unpack_from("<Q", obj, shoff + 64 * k + 24)
            data = bytearray(obj)
            struct.pack_into("<I", data, offset + 8, kind)
            return bytes(data)
    raise AssertionError("no relocations")


@pytest.mark.parametrize("change, message", [
    (lambda o: o[:18] + struct.pack("<H", 183) + o[20:], "not an x86-64 object"),   # aarch64
    (lambda o: o[:16] + struct.pack("<H", 3) + o[18:], "not a relocatable object"),  # ET_DYN
    (lambda o: with_relocation_type(o, 19), "relocation type 19"),                  # TLSGD
    (lambda o: with_relocation_type(o, 37), "relocation type 37"),                  # IRELATIVE
    (lambda o: o[:100], "truncated"),
])
def test_what_the_loader_does_not_know_is_declined(change, message):
    with pytest.raises(elfload.ElfError, match=message):
        elfload.load([change(runtime_object())], symbols.resolve)


def test_an_undefined_symbol_is_declined():
    with pytest.raises(elfload.ElfError, match="undefined symbol"):
        elfload.load([runtime_object()], lambda name: None)


def test_damaged_objects_never_crash_the_loader(compiled):
    objects = [runtime_object(), natives(compiled["total"])[0].object_code]
    rng = random.Random(4)
    for obj in objects:
        for trial in range(300):
            data = bytearray(obj)
            if trial % 3 == 0:
                data = data[:rng.randrange(len(data))]
            for _ in range(1 + trial % 4):
                if data:
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            try:
                elfload.load([bytes(data)], symbols.resolve)     # loaded, never run
            except elfload.ElfError:
                pass


def test_a_damaged_stored_object_is_ignored_with_a_warning_and_rewritten(tmp_path):
    path = str(tmp_path / "native" / "thing.o")
    store.write_object(path, b"object code")
    assert store.read_object(path) == b"object code"
    with open(path, "r+b") as f:
        f.seek(-1, 2)
        f.write(b"X")
    with pytest.warns(RuntimeWarning, match="damaged object"):
        assert store.read_object(path) is None
    assert not os.path.exists(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert store.read_object(path) is None


def test_the_host_record_round_trips_and_a_malformed_one_is_ignored(tmp_path, monkeypatch):
    if store.host_id() is None:
        pytest.skip("no host id here (no /proc/cpuinfo or llvmlite found on sys.path)")
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path))
    value = ("x86_64-unknown-linux-gnu", "somecpu", "+a,-b", "22.1.0")
    store.write_host_record(value)
    path = store.host_record_path()
    assert path.startswith(str(tmp_path)) and path.endswith(".txt")
    assert store.read_host_record() == value
    text = open(path, encoding="utf-8").read()
    for bad in [text.replace("script-host 2", "script-host 1"),     # another format
                text.replace(store.host_id(), "0" * 64),               # another machine
                text[:-1], text + "more\n", text.replace("somecpu", ""), b"\xff\n"]:
        with open(path, "wb") as f:
            f.write(bad if isinstance(bad, bytes) else bad.encode())
        assert store.read_host_record() is None
    store.write_host_record(("with\nnewline", "c", "f", "v"))     # never written
    assert store.read_host_record() is None


# ---- Ctrl-C and the GIL in loaded code ----------------------------------------------------

def test_the_gil_is_released_while_loaded_code_runs(tmp_path):
    # the race of test_interrupts.py's test of the GIL, in loaded code
    f = script.script(wait_for_flag)
    flag, out = np.zeros(2, np.int64), np.zeros(1, np.int64)
    f(flag, out, 1)
    script.save(f, tmp_path / "w.smod")
    g = script.load(tmp_path / "w.smod").wait_for_flag
    assert isinstance(natives(g)[0], link.LoadedLibrary)
    flag[:] = 0
    limit = 10 ** 11            # minutes: reached only if this thread never ran meanwhile
    result = []
    t = threading.Thread(target=lambda: result.append(g(flag, out, limit)))
    t.start()
    while flag[1] == 0:         # the loop has started ...
        t.join(0.001)
    flag[0] = 1                 # ... and this thread runs while it does
    t.join()
    assert result[0] < limit


CHILD = """
import os, signal, sys, threading, time
sys.path.insert(0, {root!r})
import numpy as np
import script

def spin(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
    return x

f = script.script(spin)
f(np.zeros(1, np.int64), 10)
script.save(f, sys.argv[1])
g = script.load(sys.argv[1]).spin
print(type(next(iter(g._specializations.values())).native).__name__)
flag = np.zeros(1, np.int64)

def watch():
    while flag[0] == 0:
        time.sleep(0.001)
    time.sleep(0.05)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=watch, daemon=True).start()
try:
    g(flag, 10 ** 17)
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""


def test_sigint_interrupts_a_long_loop_in_loaded_code(tmp_path):
    program = tmp_path / "child.py"
    program.write_text(CHILD.format(root=ROOT))
    r = subprocess.run([sys.executable, str(program), str(tmp_path / "s.smod")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["LoadedLibrary", "KeyboardInterrupt"]


# ---- a cache hit in a fresh process -------------------------------------------------------

HIT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import main
result = main.work(10)      # (a miss compiles on this first call; a hit was loaded at import)
spec = next(iter(main.work._specializations.values()))
print(json.dumps({"result": result, "native": type(spec.native).__name__,
                  "llvm": "llvmlite.binding" in sys.modules,
                  "frontend": "script.frontend.specialize" in sys.modules}))
"""


def test_a_cache_hit_in_a_fresh_process_imports_neither_llvm_nor_the_frontend(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.py").write_text(textwrap.dedent("""
        import script

        def helper(i):
            return i * 2 + 1

        @script.script(cache=True)
        def work(n: int) -> int:
            t = 0
            for i in range(n):
                t += helper(i)
            return t
    """))
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    import json
    runs = []
    # A third run only if the compiler's own files changed in between (its key changes).
    while len(runs) < 3 and (not runs or runs[-1]["native"] != "LoadedLibrary"):
        r = subprocess.run([sys.executable, "-c", HIT, str(src)], capture_output=True, text=True,
                           env=env, timeout=300)
        assert r.returncode == 0 and "Warning" not in r.stderr, r.stderr
        runs.append(json.loads(r.stdout.splitlines()[-1]))
    assert runs[0]["llvm"] and runs[0]["native"] == "NativeLibrary"
    assert runs[-1] == {"result": 100, "native": "LoadedLibrary", "llvm": False, "frontend": False}
