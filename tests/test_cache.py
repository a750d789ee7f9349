"""``@script(cache=True)``: hits, misses and every invalidation rule, where entries go,
corrupt entries, and processes that compile the same function at the same time."""

import importlib.util
import itertools
import json
import linecache
import os
import re
import subprocess
import sys
import textwrap
import time
import warnings

import pytest

import script
from script import cache
from script import store
from script.dispatcher import compile_before_call, is_script_function
from script.saved import LoadedSpecialization

_names = itertools.count()
_mtime = itertools.count(1_000_000_000)

MAIN = """
import script
from helpers import helper

K = 3

@script.script(cache=True)
def work(n: int) -> int:
    t = 0
    for i in range(n):
        t += helper(i) * K
    return t

@script.script(cache=True)
def free(x, y):
    return x * y + K

def unrelated(a):
    return a + 1
"""

HELPERS = """
SCALE = 2

def helper(i):
    return i * SCALE + 1
"""


def write(path, text: str) -> None:
    """Write `text` with a new, later modification time, so neither linecache nor the
    bytecode cache can mistake the new file for the old one."""
    path.write_text(textwrap.dedent(text))
    t = next(_mtime) * 10**9
    os.utime(path, ns=(t, t))


def fresh_import(src, name="main", first_calls=True):
    """`src/name.py` imported anew (new function objects), with its imports also anew; with
    `first_calls`, each annotated function not found in the cache at decoration is then
    compiled for its annotations, as its first call would (through the cache)."""
    linecache.clearcache()
    for mod in ("main", "helpers"):
        sys.modules.pop(mod, None)
    spec = importlib.util.spec_from_file_location(f"{name}_{next(_names)}", src / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(src))
    try:
        spec.loader.exec_module(mod)
        for fn in list(vars(mod).values()) if first_calls else ():
            if is_script_function(fn):
                compile_before_call(fn)
    finally:
        sys.path.remove(str(src))
    return mod


def test_decorating_compiles_nothing_and_the_first_call_fills_the_cache(src, tmp_path):
    mod = fresh_import(src, first_calls=False)
    assert mod.work._specializations == {} and entries(tmp_path / "cache") == []
    assert mod.work(10) == expected_work(10)
    assert len(entries(tmp_path / "cache")) == 1
    again = fresh_import(src, first_calls=False)
    assert hit(again.work)        # found at decoration, before any call


def hit(fn, key=None) -> bool:
    specs = fn._specializations
    spec = specs[key] if key is not None else next(iter(specs.values()))
    return isinstance(spec, LoadedSpecialization)


def entries(directory) -> list:
    return sorted(f for f in os.listdir(directory) if f.endswith(cache.SUFFIX)) \
        if directory.exists() else []


@pytest.fixture
def src(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    d = tmp_path / "src"
    d.mkdir()
    write(d / "main.py", MAIN)
    write(d / "helpers.py", HELPERS)
    return d


def expected_work(n, k=3, scale=2):
    return sum((i * scale + 1) * k for i in range(n))


def test_miss_then_hit(src, tmp_path):
    first = fresh_import(src)
    assert not hit(first.work) and first.work(10) == expected_work(10)
    assert len(entries(tmp_path / "cache")) == 1
    again = fresh_import(src)
    assert hit(again.work) and again.work(10) == expected_work(10)
    assert again.work.ir("opt") == first.work.ir("opt")
    assert again.work.signatures == first.work.signatures


def test_a_hit_writes_no_code_into_the_store(src, tmp_path):
    # a hit links the entry's object in memory (native.elfload, into the arena): the store
    # keeps the runtime library and entry points, no shared object per function
    fresh_import(src)
    assert hit(fresh_import(src).work)
    native = tmp_path / "cache" / "native"
    assert not native.is_dir() or not [f for f in os.listdir(native) if f.startswith("code-")]


def test_each_signature_and_option_has_its_entry(src, tmp_path):
    m = fresh_import(src)
    assert (m.free(2, 3), m.free(2.0, 3), m.free(True, 2)) == (9, 9.0, 5)
    assert len(entries(tmp_path / "cache")) == 4          # work + three signatures of free
    again = fresh_import(src)
    assert (again.free(2.0, 3), again.free(2, 3)) == (9.0, 9)
    assert all(hit(again.free, k) for k in again.free._specializations)
    other_opt = script.script(again.free.py_func, opt=0, cache=True)
    assert other_opt(2, 3) == 9 and not hit(other_opt)


def test_editing_the_function_invalidates(src):
    fresh_import(src)
    write(src / "main.py", MAIN.replace("t += helper(i) * K", "t += helper(i) * K + 1"))
    m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10) + 10


def test_editing_a_callee_in_another_file_invalidates(src):
    fresh_import(src)
    write(src / "helpers.py", HELPERS.replace("i * SCALE + 1", "i * SCALE + 2"))
    m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10) + 30


def test_a_global_constant_invalidates_also_in_a_callee(src):
    fresh_import(src)
    write(src / "main.py", MAIN.replace("K = 3", "K = 4"))
    m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10, k=4)
    write(src / "helpers.py", HELPERS.replace("SCALE = 2", "SCALE = 5"))
    m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10, k=4, scale=5)


def test_editing_an_unrelated_function_in_the_same_file_does_not(src):
    fresh_import(src)
    write(src / "main.py", MAIN.replace("return a + 1", "return a + 2") + "\nOTHER = 7\n")
    write(src / "helpers.py", HELPERS + "\ndef more():\n    return 1\n")
    m = fresh_import(src)
    assert hit(m.work) and m.work(10) == expected_work(10)


def test_compiler_llvm_and_cpu_are_in_the_key(src, monkeypatch):
    fresh_import(src)
    triple, cpu, features = cache.host_target()
    for name, value in [("llvm_version", "0.0.0"), ("compiler_fingerprint", "another build"),
                        ("python_abi", "cpython-399"),
                        ("host_target", (triple, "other", features))]:
        monkeypatch.setattr(cache, name, lambda value=value: value)
        assert not hit(fresh_import(src).work), name
        assert hit(fresh_import(src).work), name


def test_a_new_entry_replaces_the_old_one_of_its_slot(src, tmp_path):
    fresh_import(src)
    [name] = entries(tmp_path / "cache")
    before = (tmp_path / "cache" / name).read_bytes()
    older = name.replace(".cache", ".0123456789abcdef0123456789abcdef.cache")   # the old naming
    (tmp_path / "cache" / older).write_bytes(before)
    zipped = name.replace(".cache", ".smod")            # the zip format entries had before
    (tmp_path / "cache" / zipped).write_bytes(b"PK an old entry")
    write(src / "main.py", MAIN.replace("K = 3", "K = 5"))
    assert not hit(fresh_import(src).work)
    assert entries(tmp_path / "cache") == [name]
    assert not (tmp_path / "cache" / zipped).exists()
    assert (tmp_path / "cache" / name).read_bytes() != before


@pytest.mark.parametrize("damage", [b"", b"garbage", "truncate", "flip", "other-key"])
def test_a_corrupt_entry_warns_and_is_rebuilt(src, tmp_path, damage):
    fresh_import(src)
    path = tmp_path / "cache" / entries(tmp_path / "cache")[0]
    data = path.read_bytes()
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data = data[:500] + bytes([data[500] ^ 1]) + data[501:]
    elif damage == "other-key":           # a valid entry of another function under this name
        fresh_other = fresh_import(src)
        fresh_other.free(1, 2)
        other = [e for e in entries(tmp_path / "cache") if ".free." in e][0]
        data = (tmp_path / "cache" / other).read_bytes()
    else:
        data = damage
    path.write_bytes(data)
    with pytest.warns(RuntimeWarning, match="corrupt cache entry"):
        m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hit(fresh_import(src).work)


def _damaged(data: bytes, how: str) -> bytes:
    """`data` (an entry's bytes) damaged in one of the ways the entry format must detect."""
    head = len(cache.MAGIC)
    if how.startswith("truncate"):
        return data[:{"truncate-head": head + 10, "truncate-text": head + 80,
                      "truncate-object": len(data) - 1}[how]]
    if how == "version":
        return data.replace(cache.MAGIC, b"script-cache-entry 99\n", 1)
    if how == "appended":
        return data + b"\0"
    at = {"flip-magic": 3, "flip-digest": head + 5, "flip-sizes": head + 66,
          "flip-text": head + 90, "flip-object": len(data) - 20}[how]
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]


@pytest.mark.parametrize("how", ["truncate-head", "truncate-text", "truncate-object", "version",
                                 "appended", "flip-magic", "flip-digest", "flip-sizes",
                                 "flip-text", "flip-object"])
def test_the_entry_format_detects_damage_warns_and_is_rebuilt(src, tmp_path, how):
    fresh_import(src)
    [name] = entries(tmp_path / "cache")
    path = tmp_path / "cache" / name
    good = path.read_bytes()
    path.write_bytes(_damaged(good, how))
    match = "another version" if how == "version" else "corrupt cache entry"
    with pytest.warns(RuntimeWarning, match=match):
        m = fresh_import(src)
    assert not hit(m.work) and m.work(10) == expected_work(10)
    assert path.read_bytes() != _damaged(good, how)        # rewritten, whole
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hit(fresh_import(src).work)


def test_every_single_bit_flip_or_truncation_is_a_load_error(src, tmp_path):
    from script.errors import LoadError
    fresh_import(src)
    [name] = entries(tmp_path / "cache")
    data = (tmp_path / "cache" / name).read_bytes()
    entry = cache.decode(data, name)
    assert entry.qualname == "work" and entry.record.entry.startswith("work.")
    for at in range(0, len(data), max(1, len(data) // 300)):
        for damaged in (data[:at], data[:at] + bytes([data[at] ^ (1 << at % 8)]) + data[at + 1:]):
            with pytest.raises(LoadError):
                cache.decode(damaged, name)


@pytest.mark.parametrize("text", ["i64", "bool", "f32", "none", "(i64, f64)", "(i64,)",
                                  "f64[:,::1]", "i32[:]", "u8[:,:,:]", "list[i64]",
                                  "list[(i64, bool)]", "((f64, i64), f64[::1])", "list[list[f64]]",
                                  "list[(i64, list[bool])]", "list[f64[:,::1]]", "list[opt[i64]]",
                                  "dict[i64, set[i64]]", "list[tuple[i64, ...]]", "bytes", "list[bytes]"])
def test_entry_types_round_trip(text):
    assert str(cache.parse_type(text)) == text


@pytest.mark.parametrize("text", ["", "i65", "(i64", "f64[", "list[none]", "bytearray", "f64[:,]x"])
def test_entry_types_reject_what_is_not_a_type(text):
    with pytest.raises(ValueError):
        cache.parse_type(text)


def test_entries_go_to_pycache_beside_the_source(src, monkeypatch):
    monkeypatch.delenv("SCRIPT_CACHE_DIR")
    fresh_import(src)
    names = entries(src / "__pycache__")
    assert len(names) == 1 and names[0].startswith("main.work.")
    assert hit(fresh_import(src).work)


def test_unwritable_pycache_falls_back_to_the_user_cache_dir(src, tmp_path, monkeypatch):
    monkeypatch.delenv("SCRIPT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "platform", "linux")
    (src / "__pycache__").write_text("a file where the directory would be")
    assert not hit(fresh_import(src).work)
    assert len(entries(tmp_path / "xdg" / "script")) == 1
    assert hit(fresh_import(src).work)


# ---- other processes ----------------------------------------------------------------------

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter()
import main
result = main.work(10)      # (a miss compiles on this first call; a hit was loaded at import)
spec = next(iter(main.work._specializations.values()))
print(json.dumps({"result": result, "hit": type(spec).__name__ == "LoadedSpecialization",
                  "ms": (time.perf_counter() - t0) * 1e3}))
"""


def child(src, env, wait=True):
    p = subprocess.Popen([sys.executable, "-c", CHILD, str(src)], env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p if not wait else finish(p)


def finish(p) -> dict:
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, out + err
    assert "Warning" not in err, err
    return json.loads(out.splitlines()[-1])


def test_a_hit_in_a_fresh_process(src, tmp_path):
    env = dict(os.environ)
    first = child(src, env)
    second = child(src, env)
    assert not first["hit"] and second["hit"]
    assert first["result"] == second["result"] == expected_work(10)


def test_concurrent_processes_share_the_cache_safely(src, tmp_path):
    env = dict(os.environ)
    results = [finish(p) for p in [child(src, env, wait=False) for _ in range(4)]]
    assert all(r["result"] == expected_work(10) for r in results)
    names = os.listdir(tmp_path / "cache")
    assert len([n for n in names if n != "native"]) == 1
    assert all(n.endswith(cache.SUFFIX) for n in names if n != "native")
    native = os.listdir(tmp_path / "cache" / "native")   # the runtime, entry points, code
    assert native and all(n.endswith((".o", ".so", ".txt")) for n in native)
    assert child(src, env)["hit"]


# ---- hits without parsing -----------------------------------------------------------------

def test_a_hit_parses_nothing_while_the_files_are_unchanged(src, monkeypatch):
    from script.frontend import specialize
    fresh_import(src)
    parsed = []
    real = specialize.Context.info_for
    with monkeypatch.context() as m:
        m.setattr(specialize.Context, "info_for",
                  lambda self, f: parsed.append(f.__name__) or real(self, f))
        again = fresh_import(src)
    assert hit(again.work) and "_script_info" not in again.work.__dict__
    assert parsed == ["free"]           # unannotated: described at decoration, compiled at calls
    assert again.work(10) == expected_work(10)
    assert again.work.ir("opt") and "_script_info" not in again.work.__dict__
    from script.dispatcher import function_info
    assert function_info(again.work).name == "work" == again.work._script_info.name


def test_a_changed_file_is_parsed_once_then_recorded_again(src, monkeypatch):
    from script.frontend import specialize
    fresh_import(src)
    write(src / "helpers.py", HELPERS + "\ndef more():\n    return 1\n")
    parsed = []
    real = specialize.Context.info_for
    monkeypatch.setattr(specialize.Context, "info_for",
                        lambda self, f: parsed.append(f.__name__) or real(self, f))
    assert hit(fresh_import(src).work) and "helper" in parsed      # the key, built by parsing
    parsed.clear()
    assert hit(fresh_import(src).work) and parsed == ["free"]       # the rewritten record


CALLER = """
import script

@script.script(cache=True)
def g(x: int) -> int:
    return x * 3

@script.script
def f(x: int) -> int:
    return g(x) + 1
"""


def test_a_compiled_caller_sees_a_callee_that_was_a_hit(src):
    write(src / "main.py", CALLER)
    assert fresh_import(src).f(2) == 7
    m = fresh_import(src)
    assert hit(m.g) and m.f(2) == 7 and m.g(5) == 15


def test_key_of_a_bound_method_names_it_without_an_address():
    # random.seed is a bound method of a Random instance: its repr differs in every process,
    # which made every lookup of a function calling it a miss
    import random
    from script.cache import _Description
    text = _Description([], None).value(random.seed)
    assert "0x" not in text and text == "method random.Random.seed"


def _checkout(tmp_path, names) -> tuple:
    """A package folder with the files `names`, and a folder for its listing records."""
    package = tmp_path / "checkout" / "script"
    for name in names:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("x = 1\n")
    return package, str(tmp_path / "records")


def _settle(package):
    """Give every folder of `package` a time long past, as an unchanged checkout has."""
    for folder, _, _ in os.walk(package):
        os.utime(folder, ns=(next(_mtime), next(_mtime)))


def test_the_compiler_fingerprint_is_the_script_packages(tmp_path, monkeypatch):
    # of the package's own folder: not the checkout around it (tests, benchmarks), nor less
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path))
    seen, real = [], store.fingerprint
    monkeypatch.setattr(store, "fingerprint",
                        lambda package, records=None: seen.append(package) or real(package))
    store.compiler_fingerprint.cache_clear()
    try:
        store.compiler_fingerprint()
    finally:
        store.compiler_fingerprint.cache_clear()
    assert seen == [os.path.dirname(os.path.abspath(script.__file__))]


def test_the_compiler_fingerprint_of_a_checkout_follows_its_files(tmp_path):
    package, records = _checkout(tmp_path, ["__init__.py", "ir/core.py"])
    before = store.fingerprint(str(package), records)
    (package / "ir" / "core.py").write_text("x = 22\n")          # edited in place
    assert store.fingerprint(str(package), records) != before


def test_the_checkout_fingerprint_covers_every_file_a_compile_can_import(tmp_path):
    package, records = _checkout(tmp_path, [
        "__init__.py", "frontend/lower_expr.py", "backend/llvm/lower.py", "cuda/kernel.py",
        "cli/dump.py", "examples/scalar.py", "demo.py"])
    fingerprints = {store.fingerprint(str(package), records)}
    for name in ("frontend/lower_expr.py", "backend/llvm/lower.py", "cuda/kernel.py"):
        (package / name).write_text("x = 2\n")                    # the same size, a later time
        os.utime(package / name, ns=(next(_mtime), next(_mtime)))
        fingerprints.add(store.fingerprint(str(package), records))
    (package / "ir").mkdir()
    (package / "ir" / "new.py").write_text("")                    # a new module
    fingerprints.add(store.fingerprint(str(package), records))
    assert len(fingerprints) == 5
    for name in ("cli/dump.py", "examples/scalar.py", "demo.py"):
        (package / name).write_text("x = 22\n")                   # never imported by a compile
    (package / "cli" / "new.py").write_text("")
    assert store.fingerprint(str(package), records) in fingerprints


def test_a_checkout_listing_is_kept_and_made_again_when_a_folder_changes(tmp_path):
    package, records = _checkout(tmp_path, ["__init__.py", "ir/core.py", "ir/types.py"])
    fresh = store.fingerprint(str(package), records)
    assert not os.path.exists(records)              # folders changed just now: racy, not kept
    _settle(package)
    assert store.fingerprint(str(package), records) == fresh
    [record] = os.listdir(records)
    text = open(os.path.join(records, record)).read()
    assert "ir/\t" in text and "core.py\ttypes.py" in text
    (package / "ir" / "types.py").write_text("y = 1\n")           # in place: the listing holds
    edited = store.fingerprint(str(package), records)
    assert edited != fresh and open(os.path.join(records, record)).read() == text
    os.unlink(package / "ir" / "types.py")                        # removed
    _settle(package)
    removed = store.fingerprint(str(package), records)
    assert removed not in (fresh, edited) and "types.py" not in \
        open(os.path.join(records, record)).read()
    (package / "ir" / "new.py").write_text("")                    # added
    _settle(package)
    added = store.fingerprint(str(package), records)
    assert added not in (fresh, edited, removed)
    open(os.path.join(records, record), "w").write("damaged")     # unreadable: made again
    assert store.fingerprint(str(package), records) == added
    assert open(os.path.join(records, record)).read().startswith("script-checkout 1\t")


def test_a_checkout_listing_of_other_left_out_files_is_made_again(tmp_path, monkeypatch):
    package, records = _checkout(tmp_path, ["__init__.py", "cli/main.py"])
    _settle(package)
    before = store.fingerprint(str(package), records)
    assert store.fingerprint(str(package), records) == before        # from the listing
    monkeypatch.setattr(store, "NOT_COMPILER", frozenset())          # the command line counts
    with_cli = store.fingerprint(str(package), records)
    assert with_cli != before
    (package / "cli" / "main.py").write_text("x = 333\n")
    assert store.fingerprint(str(package), records) != with_cli


def test_nothing_the_fingerprint_leaves_out_is_imported_by_the_rest():
    # store.NOT_COMPILER may leave a file out only while compiling, loading and the cache
    # cannot import it: only what it leaves out imports it
    root = os.path.dirname(script.__file__)
    left_out = sorted(os.path.splitext(n)[0] for n in store.NOT_COMPILER)
    pattern = re.compile(r"\bscript\.(%s)\b|from script import .*\b(%s)\b"
                         % ("|".join(left_out), "|".join(left_out)))
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel.split(os.sep)[0] in store.NOT_COMPILER:
            continue
        for name in files:
            if name.endswith(".py") and not (rel == "." and name in store.NOT_COMPILER):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    assert not pattern.search(f.read()), os.path.join(rel, name)


def test_store_files_are_read_with_a_buffer_of_their_size(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert store.read_file(str(path), 1000) == b"x" * 100
    assert store.read_file(str(path), 100) == b"x" * 100
    assert store.read_file(str(path), 10) == b"x" * 11          # more than the limit: limit + 1
    path.write_bytes(b"")
    assert store.read_file(str(path), 10) == b""


def test_an_installed_compiler_is_fingerprinted_by_its_record(tmp_path):
    site = tmp_path / "site-packages"
    package = site / "script"
    (package / "ir").mkdir(parents=True)
    (package / "ir" / "core.py").write_text("x = 1\n")
    info = site / f"script-{script.__version__}.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("script/ir/core.py,,\n")
    before = store.fingerprint(str(package))
    (package / "ir" / "core.py").write_text("x = 22\n")          # not how an install changes
    assert store.fingerprint(str(package)) == before
    (info / "RECORD").write_text("script/ir/core.py,sha256=new,7\n")    # a new installation
    assert store.fingerprint(str(package)) != before


def test_a_damaged_shared_object_in_the_store_is_removed_and_rebuilt(tmp_path):
    path = str(tmp_path / "lib-x.so")
    store.write_shared(path, b"\x7fELF some shared object")
    assert store.check_shared(path)
    data = bytearray(open(path, "rb").read())
    data[5] ^= 1
    open(path, "wb").write(bytes(data))
    with pytest.warns(RuntimeWarning, match="damaged shared object"):
        assert not store.check_shared(path)
    assert not os.path.exists(path)
    assert not store.check_shared(path)                      # absent: no warning


def test_every_bit_flip_or_truncation_of_a_store_file_is_found(tmp_path):
    path = str(tmp_path / "f")
    payload = bytes(range(40))
    for write, check in ((store.write_shared, store.check_shared),
                         (store.write_object, store.read_object)):
        write(path, payload)
        good = open(path, "rb").read()
        assert check(path)
        damaged = [good[:n] for n in range(len(good))] + [
            good[:i] + bytes([good[i] ^ 1 << bit]) + good[i + 1:]
            for i in range(len(good)) for bit in range(8)]
        for data in damaged:
            open(path, "wb").write(data)
            with pytest.warns(RuntimeWarning, match="damaged"):
                assert not check(path)


def test_a_checked_shared_object_is_sealed_and_not_read_again(tmp_path, monkeypatch):
    path = str(tmp_path / ("runtime-" + "a" * 32 + ".so"))
    store.write_shared(path, bytes(range(100)))
    assert os.stat(path).st_mtime_ns % 10**9 != store._seal(path)   # as written: no seal
    assert store.check_shared(path)                                  # read and hashed
    st = os.stat(path)
    assert st.st_mtime_ns % 10**9 == store._seal(path) and st.st_mtime_ns <= time.time_ns()

    def no_reading(*args, **kwargs):
        raise AssertionError("a sealed file is read")
    monkeypatch.setattr(store, "read_file", no_reading)
    assert store.check_shared(path)
    monkeypatch.undo()
    with open(path, "r+b") as f:        # any write unseals it: the damage is found
        f.seek(10)
        f.write(b"\xff")
    with pytest.warns(RuntimeWarning, match="damaged shared object"):
        assert not store.check_shared(path)
    assert not os.path.exists(path)


# ---- nothing is kept for ever -------------------------------------------------------------

def _age(path, days: float) -> None:
    t = time.time() - days * 86400
    os.utime(path, (t, t))


def test_the_sweep_removes_only_its_own_files_untouched_for_a_month(tmp_path):
    native = tmp_path / "native"
    native.mkdir()
    old = ["runtime-" + "a" * 32 + ".so", "entry-" + "b" * 32 + ".o", "host-" + "c" * 24 + ".txt",
           "code-" + "d" * 32 + "-entry-" + "e" * 32 + ".so", "checkout-" + "f" * 24 + ".txt"]
    for name in old + ["entry-" + "1" * 32 + ".o", "notes.txt", "entry-mine.o"]:
        (native / name).write_bytes(b"x")
    for name in ["main.work.0123456789abcdef.cache", "main.other.0123456789abcdef.cache",
                 "report.cache", "x.tmp"]:
        (tmp_path / name).write_bytes(b"x")
    (native / ("entry-" + "2" * 32 + ".o.12.34.tmp")).write_bytes(b"x")
    for path in [*(native / n for n in old), native / "notes.txt", native / "entry-mine.o",
                 tmp_path / "main.work.0123456789abcdef.cache", tmp_path / "report.cache",
                 tmp_path / "x.tmp"]:
        _age(path, 31)
    _age(native / ("entry-" + "2" * 32 + ".o.12.34.tmp"), 0.1)       # a killed writer's
    assert store.sweep(str(tmp_path), time.time()) == len(old) + 2
    assert sorted(os.listdir(native)) == sorted(["entry-" + "1" * 32 + ".o", "notes.txt",
                                                  "entry-mine.o"])
    assert sorted(os.listdir(tmp_path)) == sorted(["native", "main.other.0123456789abcdef.cache",
                                                    "report.cache", "x.tmp"])


def test_the_sweep_runs_at_most_once_a_day(tmp_path):
    (tmp_path / "native").mkdir()
    stale = tmp_path / "native" / ("entry-" + "a" * 32 + ".o")
    stale.write_bytes(b"x")
    _age(stale, 40)
    assert store.maybe_sweep(str(tmp_path)) == 1                    # no stamp yet: sweeps
    stale.write_bytes(b"x")
    _age(stale, 40)
    assert store.maybe_sweep(str(tmp_path)) == 0 and stale.exists()  # swept today
    _age(tmp_path / "native" / "swept.txt", 1.5)
    assert store.maybe_sweep(str(tmp_path)) == 1 and not stale.exists()


def test_what_a_hit_reads_is_kept_fresh(src):
    # the entry is touched when read a day or more after its last touch (the runtime
    # library, the entry points, the host record and the listing, read once a process, the
    # same way: store `read_file(touch=True)`)
    fresh_import(src)
    assert hit(fresh_import(src).work)
    cache_dir = src.parent / "cache"
    files = [p for p in cache_dir.rglob("*") if p.is_file() and p.name != "swept.txt"]
    for path in files:
        _age(path, 20)
    assert hit(fresh_import(src).work)
    touched = {p.name for p in files if time.time() - p.stat().st_mtime < 3600}
    assert any(n.endswith(".cache") for n in touched), touched
    store.sweep(str(cache_dir), time.time() + 15 * 86400)     # what was read outlives the rest
    assert all(p.exists() for p in files if p.name in touched)
    assert hit(fresh_import(src).work)


def test_reading_touches_only_a_file_untouched_for_a_day(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"data")
    _age(path, 0.5)
    before = path.stat().st_mtime
    assert store.read_file(str(path), 100, touch=True) == b"data"
    assert path.stat().st_mtime == before                            # touched today: left
    _age(path, 2)
    assert store.read_file(str(path), 100) == b"data" and time.time() - path.stat().st_mtime > 86400
    store.read_file(str(path), 100, touch=True)
    assert time.time() - path.stat().st_mtime < 3600
