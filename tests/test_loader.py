"""The load path without ctypes or LLVM (script.loadpath): the runtime library as the extension
module ``script._runtime`` (runtime.pymodule), and compiled code as shared objects in the
store (native.elfso), with late binding of what the system's loader cannot bind."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import script
from script import loadpath as loader, store
from script.loadpath import runtime_library

pytestmark = pytest.mark.skipif(not store.is_supported(), reason="shared objects: x86-64 Linux")


def module():
    return runtime_library().module


def test_the_runtime_module_checks_its_arguments():
    m = module()
    with pytest.raises(TypeError, match="takes 2 arguments"):
        m.dlsym(1)
    with pytest.raises(TypeError):
        m.new_type("not bytes")
    with pytest.raises(TypeError):
        m.dlsym("not an int", b"x")
    with pytest.raises(OSError, match="nonexistent"):
        m.dlopen(b"/nonexistent/lib.so")
    with pytest.raises(TypeError):
        m.set_specializations(loader.new_instance(loader.plain_function_type(), print),
                              "not bytes", 1, None)


def test_the_runtime_module_reads_what_ctypes_would():
    import ctypes
    import resource
    m = module()
    assert m.stack_limit() == resource.getrlimit(resource.RLIMIT_STACK)[0]
    handle = m.dlopen(runtime_library().path.encode())
    assert m.dlsym(handle, b"script.dispatch") == runtime_library().address["script.dispatch"]
    assert m.dlsym(handle, b"no such symbol") == 0
    libm = m.dlopen(b"libm.so.6")
    assert m.dlsym(libm, b"cos") == ctypes.cast(ctypes.CDLL("libm.so.6").cos, ctypes.c_void_p).value
    cell = ctypes.c_void_p(0)
    m.poke(ctypes.addressof(cell), 0x1234)
    assert cell.value == 0x1234


def test_the_runtime_module_names_every_export():
    assert set(module().names.decode().split("\n")) == set(runtime_library().address)
    assert all(runtime_library().address.values())


HIT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import kernels
results = [kernels.steps(27), kernels.ramp(4).tolist()]     # (a miss compiles on the first call)
specs = [next(iter(f._specializations.values())) for f in (kernels.steps, kernels.ramp)]
print(json.dumps({
    "kinds": [type(s).__name__ for s in specs],
    "elfload": [type(getattr(s.native, "_image", None)).__name__ for s in specs],
    "results": results,
    "heavy": sorted(m for m in ("ctypes", "llvmlite", "script.frontend.specialize")
                    if m in sys.modules and m not in kernels.BEFORE),
}))
"""

KERNELS = """
import sys
BEFORE = set(sys.modules)
import script

@script.script(cache=True)
def steps(n: int) -> int:
    k = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k

import numpy as np
BEFORE |= set(sys.modules)

@script.script(cache=True)
def ramp(n: int):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * 0.5
    return out
"""


def run_child(tmp_path) -> dict:
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", HIT, str(tmp_path)], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_a_cache_hit_links_with_elfload_without_ctypes_or_llvm(tmp_path):
    (tmp_path / "kernels.py").write_text(textwrap.dedent(KERNELS))
    first = run_child(tmp_path)
    assert first["kinds"] == ["Specialization"] * 2
    second = run_child(tmp_path)
    assert second["kinds"] == ["LoadedSpecialization"] * 2
    assert second["elfload"] == ["Image", "Image"]      # into the arena, NumPy's names too
    assert second["results"] == first["results"] == [111, [0.0, 0.5, 1.0, 1.5]]
    assert second["heavy"] == []                 # ctypes: only NumPy's own import
    native_dir = tmp_path / "cache" / "native"
    assert not [n for n in os.listdir(native_dir) if n.startswith("code-")]


PLAIN = """
import script

@script.script(cache=True)
def steps(n: int) -> int:
    k = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k
"""

CLEAN_HIT = r"""
import sys
import script
before = set(sys.modules)
sys.path.insert(0, sys.argv[1])
import plain
assert plain.steps(27) == 111
assert type(next(iter(plain.steps._specializations.values()))).__name__ == "LoadedSpecialization"
print(" ".join(sorted(m for m in set(sys.modules) - before if m != "plain")))
"""


def test_a_hit_imports_no_module_of_python_that_import_script_did_not(tmp_path):
    # Without site, Python starts with few modules (site imports re, typing, struct, warnings
    # in many installations, not in a clean one): each a hit imported cost a fresh process's
    # hit 0.5-13 ms there (typing with re and enum: ~13). Only BLAKE2b and atexit are its own;
    # of script's, the cache, the load path and elfload with its arena (each module costs a
    # fresh process ~0.3 ms).
    import site
    (tmp_path / "plain.py").write_text(textwrap.dedent(PLAIN))
    root = os.path.dirname(os.path.dirname(os.path.abspath(script.__file__)))
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([root, *site.getsitepackages()]))
    miss = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                           "import plain; plain.steps(27)", str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=300)      # (a miss compiles on the first call)
    assert miss.returncode == 0, miss.stderr
    for _ in range(2):
        hit = subprocess.run([sys.executable, "-S", "-c", CLEAN_HIT, str(tmp_path)], env=env,
                             capture_output=True, text=True, timeout=300)
        assert hit.returncode == 0, hit.stderr
    assert set(hit.stdout.split()) <= {"_blake2", "atexit", "script._runtime", "script.cache",
                                       "script.loadpath", "script.backend", "script.backend.native",
                                       "script.backend.native.elfload",
                                       "script.backend.native.arena"}, hit.stdout


def test_a_damaged_runtime_library_is_rebuilt(tmp_path):
    (tmp_path / "kernels.py").write_text(textwrap.dedent(KERNELS))
    run_child(tmp_path)
    run_child(tmp_path)
    native_dir = tmp_path / "cache" / "native"
    for name in os.listdir(native_dir):
        if name.startswith("runtime-"):
            path = native_dir / name
            data = bytearray(path.read_bytes())
            data[len(data) // 3] ^= 0x40
            path.write_bytes(bytes(data))
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", HIT, str(tmp_path)], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "damaged shared object" in r.stderr
    again = json.loads(r.stdout.splitlines()[-1])
    assert again["results"] == [111, [0.0, 0.5, 1.0, 1.5]]
    assert run_child(tmp_path)["elfload"] == ["Image", "Image"]


def test_loaded_code_matches_compiled_code(tmp_path):
    @script.script
    def mix(a, k: int):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * (i % k)
        return s

    a = np.linspace(0.0, 3.0, 17)
    expected = mix(a, 3)
    lib = next(iter(mix._specializations.values())).native
    spec = next(iter(mix._specializations.values()))
    loaded = loader.load_object(lib.object_code, spec.entry.name if hasattr(spec, "entry") else
                                lib.function_name, spec.arg_types, spec.ret_type)
    assert loaded is not None and loaded._image is not None
    obj = loader.new_instance(loader.plain_function_type(), print)
    loader.set_specializations(obj, [loaded], 2)
    assert obj(a, 3) == expected


JIT_ONLY = r"""
import json, signal
import script
from script import store
store.is_supported = lambda: False          # as on another OS: the runtime goes into the JIT
from script.loadpath import runtime_library, install_sigint_hook

@script.script
def f(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s

rt = runtime_library()
print(json.dumps({"path": rt.path, "jit": rt._tracker is not None, "f": f(10),
                  "hook": install_sigint_hook(), "count": rt.module.sigint_count()}))
"""


def test_where_shared_objects_do_not_run_the_runtime_goes_into_the_jit(tmp_path):
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    (tmp_path / "jit_only.py").write_text(JIT_ONLY)
    r = subprocess.run([sys.executable, str(tmp_path / "jit_only.py")], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == {
        "path": None, "jit": True, "f": 285, "hook": True, "count": 0}
