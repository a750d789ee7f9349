"""`script.save` / `script.load`: round trips in a fresh process without the source, the
recompile-from-IR path, and every kind of damaged or forged archive (always `LoadError`)."""

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import warnings
import zipfile

import pytest

import archive_tools as A
import saved_kernels as K
import script
from script.errors import LoadError

HERE = os.path.dirname(os.path.abspath(__file__))

RUNNER = r'''
import ast, importlib.util, json, sys
import script

def outcomes(ns, calls):
    out = []
    for name, args, kwargs in calls:
        try:
            out.append(["ok", repr(ns[name](*args, **kwargs))])
        except Exception as e:
            out.append(["raise", type(e).__name__, str(e)])
    return out

mode, calls_file, path = sys.argv[1:4]
calls = ast.literal_eval(open(calls_file).read())
if mode == "save":
    sys.path.insert(0, sys.argv[4])
    import kernels
    fns = kernels.compiled()
    result = {"outcomes": outcomes(fns, calls)}
    script.save(fns, path)
else:
    m = script.load(path)
    fns = {n: getattr(m, n) for n in m.__all__}
    result = {"outcomes": outcomes(fns, calls), "lark": "lark" in sys.modules,
              "summary": str(m), "recompiled": m.__recompiled__,
              "source_importable": importlib.util.find_spec("kernels") is not None}
    try:
        m.poly(True)
        result["unsaved"] = "no error"
    except TypeError as e:
        result["unsaved"] = str(e)
result["signatures"] = {n: f.signatures for n, f in fns.items()}
print(json.dumps(result))
'''


def run(tmp_path, *args) -> dict:
    calls = tmp_path / "calls.txt"
    calls.write_text(repr(K.CALLS))
    r = subprocess.run([sys.executable, "-c", RUNNER, args[0], str(calls), *map(str, args[1:])],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def saved_elsewhere(tmp_path_factory):
    """An archive saved by another process from a source file that is then deleted."""
    tmp = tmp_path_factory.mktemp("elsewhere")
    src = tmp / "src"
    src.mkdir()
    shutil.copy(os.path.join(HERE, "saved_kernels.py"), src / "kernels.py")
    before = run(tmp, "save", tmp / "kernels.smod", src)
    shutil.rmtree(src)
    return tmp, tmp / "kernels.smod", before


def test_round_trip_in_a_fresh_process_without_the_source(saved_elsewhere):
    tmp, path, before = saved_elsewhere
    after = run(tmp, "load", path)
    assert not after["source_importable"]
    assert after["outcomes"] == before["outcomes"]
    assert after["signatures"] == before["signatures"]
    assert after["recompiled"] is None
    assert not after["lark"], "loading object code must not parse IR"
    assert "it accepts (float, int) or (int, int)" in after["unsaved"]
    kinds = {o[1] for o in after["outcomes"] if o[0] == "raise"}
    assert {"ZeroDivisionError", "ValueError", "TypeError", "OverflowError"} <= kinds
    summary = after["summary"]
    for text in ("collatz(n)", "(int) -> int", "poly(x, k=3)", "(float, int) -> float",
                 "total(limit)  calls collatz", "x86_64", "CPython 3.", "script 0.1",
                 "object code, as saved"):
        assert text in summary, (text, summary)


def test_other_cpu_compiles_the_ir_again_in_a_fresh_process(saved_elsewhere):
    tmp, path, before = saved_elsewhere
    other = tmp / "other-cpu.smod"
    A.rewrite(path, other, A.other_cpu)
    after = run(tmp, "load", other)
    assert "some-other-cpu" in after["recompiled"]
    assert after["outcomes"] == before["outcomes"]
    assert after["signatures"] == before["signatures"]


# ---- in this process ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def compiled():
    return K.compiled()


@pytest.fixture(scope="module")
def archive(compiled, tmp_path_factory):
    path = tmp_path_factory.mktemp("saved") / "k.smod"
    script.save(compiled, path)
    return path


def test_loaded_functions_behave_like_the_originals(compiled, archive):
    m = script.load(archive)
    assert K.outcomes({n: getattr(m, n) for n in K.NAMES}) == K.outcomes(compiled)
    assert m.__all__ == K.NAMES and m.__name__ == "k"
    assert "14 functions" in repr(m)
    assert m.collatz.__name__ == "collatz" and m.collatz.py_func is None
    assert m.collatz.signatures == compiled["collatz"].signatures


def test_ir_text_is_kept_and_parses_back(compiled, archive):
    from script.ir.printer import format_module
    m = script.load(archive)
    for name in ("total", "poly", "pair"):
        assert m.__dict__[name].ir("opt") == compiled[name].ir("opt")
        assert m.__dict__[name].ir("ssa") == compiled[name].ir("ssa")
        for spec in m.__dict__[name]._specializations.values():
            assert format_module(spec.module) == spec.opt_text
    with pytest.raises(ValueError, match="loaded from object code"):
        m.collatz.ir("llvm")


@pytest.mark.parametrize("edit, reason", [
    (A.other_cpu, "some-other-cpu"),
    (lambda m, _: m["python"].update(abi="cpython-399"), "cpython-399"),
    (lambda m, _: m["compiler"].update(version="0.0.1"), "script 0.0.1"),
    (lambda m, _: m["target"].update(features=m["target"]["features"] + ",+made-up"), "made-up"),
])
def test_mismatched_target_compiles_the_ir_again(compiled, archive, tmp_path, edit, reason):
    other = tmp_path / "other.smod"
    A.rewrite(archive, other, edit)
    m = script.load(other)
    assert reason in m.__recompiled__
    assert K.outcomes({n: getattr(m, n) for n in K.NAMES}) == K.outcomes(compiled)
    assert "compiled again from IR" in str(m)
    assert "define" in m.fib.ir("llvm")


def test_array_functions_round_trip(tmp_path):
    np = pytest.importorskip("numpy")
    total, scale = script.script(K.array_total), script.script(K.array_scale)
    a = np.arange(10.0)
    want = total(a), total(a[::2])
    scale(a.copy(), 2.0)
    script.save([total, scale], tmp_path / "arrays.smod")
    m = script.load(tmp_path / "arrays.smod")
    assert (m.array_total(a), m.array_total(a[::2])) == want
    b = a.copy()
    m.array_scale(b, 2.0)
    assert (b == 2 * a).all()
    assert m.array_total.signatures == total.signatures
    ro = a.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        m.array_scale(ro, 2.0)


def test_save_with_signatures_and_save_again(tmp_path):
    f = script.script(K.poly)
    path = tmp_path / "poly.smod"
    script.save(f, path, signatures=[(float, int), (script.f32, int)])
    m = script.load(path)
    assert m.poly.signatures == ["(float, int) -> float", "(f32, int) -> float"]
    assert m.poly(2.0, 2) == K.poly(2.0, 2)
    script.save({"p": m.poly, "c": script.script(K.collatz)}, tmp_path / "again.smod")
    again = script.load(tmp_path / "again.smod")
    assert again.p(2.0) == K.poly(2.0) and again.c(27) == 111
    assert again.p.signatures == m.poly.signatures
    script.save([m.poly], tmp_path / "one.smod", signatures={"poly": [(float, int)]})
    assert script.load(tmp_path / "one.smod").poly.signatures == ["(float, int) -> float"]
    with pytest.raises(TypeError, match="loaded from a saved module"):
        m.poly.compile(int, int)


def test_save_refuses_what_it_cannot_save(tmp_path):
    path = tmp_path / "x.smod"
    with pytest.raises(ValueError, match="no compiled specialization"):
        script.save(script.script(K.poly), path)
    with pytest.raises(TypeError, match="not a compiled function"):
        script.save(K.collatz, path)
    c = script.script(K.collatz)
    with pytest.raises(ValueError, match="two functions"):
        script.save([c, c], path)
    for bad in ("not a name", "__class__", "class", 3):
        with pytest.raises(ValueError, match="cannot name"):
            script.save({bad: c}, path)
    with pytest.raises(ValueError, match="not saved"):
        script.save([c], path, signatures={"other": [(int,)]})
    assert not path.exists() and os.listdir(tmp_path) == []


def test_loaded_archive_is_deterministic(compiled, tmp_path):
    script.save(compiled, tmp_path / "a.smod")
    script.save(compiled, tmp_path / "b.smod")
    assert (tmp_path / "a.smod").read_bytes() == (tmp_path / "b.smod").read_bytes()


def test_manifest_round_trips_through_json():
    from script.ir import types as T
    from script.saved_manifest import (FunctionEntry, Manifest, Member, Param, SpecEntry,
                                       Target, manifest_json, parse_manifest)
    arg_types = [T.I64, T.TupleType([T.F32, T.TupleType([T.BOOL])]), T.U8]
    if hasattr(T, "ArrayType"):
        arg_types.append(T.ArrayType(T.F64, 2, "C"))
    spec = SpecEntry(tuple(arg_types), T.NONE, "f.x", 3, ("f.x", "g.y"),
                     {"f.x": ("g.y",), "g.y": ("g.y",)}, Member("f0/s0.ir", 10, "ab" * 32),
                     None, Member("f0/s0.o", 5, "cd" * 32))
    params = [Param("a", T.I64), Param("b", None, True, (1, 2.5, None, True, float("inf"))),
              Param("c", T.U8, True, 10**30), Param("d", None)][:len(arg_types)]
    m = Manifest("0.1.0", "3.11.7", "cpython-311", "22.1.0", Target("x86_64", "cpu", "+a,-b"),
                 (FunctionEntry("f", "A.f", "mod", "doc", tuple(params), (), (spec,)),))
    assert parse_manifest(json.loads(json.dumps(manifest_json(m))), "<test>") == m


# ---- damaged and forged archives ------------------------------------------------------------

def _raw(members):
    def build(src, dst):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # zipfile warns about duplicate names
            A.write_members(dst, members(A.read_members(src)))
    return build


def _edit(edit, rehash=True, compression=zipfile.ZIP_DEFLATED):
    return lambda src, dst: A.rewrite(src, dst, edit, rehash, compression)


def _bytes(change):
    return lambda src, dst: dst.write_bytes(change(src.read_bytes()))


def _data_offset(data: bytes, name: str) -> int:
    """Where member `name`'s (compressed) bytes start in the archive `data`."""
    import io
    import struct
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    return info.header_offset + 30 + name_len + extra_len


def _flip(data: bytes, at: int) -> bytes:
    b = bytearray(data)
    b[at] ^= 0x10
    return bytes(b)


def _set_ir(index: int, text):
    """Replace the IR of function `index` (a string, or a function of the old text) and
    pretend the archive comes from another CPU, so the IR is compiled."""
    def edit(m, members):
        spec = m["functions"][index]["specializations"][0]
        path = spec["members"]["ir"]["path"]
        new = text(members[path].decode()) if callable(text) else text
        A.set_member(m, members, path, new.encode())
        A.other_cpu(m, members)
    return _edit(edit)


def _spec0(m):
    return m["functions"][0]["specializations"][0]


def _object_of(index: int):
    def edit(m, members):
        src = m["functions"][index]["specializations"][0]["members"]["object"]["path"]
        A.set_member(m, members, _spec0(m)["members"]["object"]["path"], members[src])
    return _edit(edit)


CORRUPT = {
    "not a zip": (lambda s, d: d.write_bytes(b"hello, world\n" * 10), "not a zip archive"),
    "empty": (lambda s, d: d.write_bytes(b""), "not a zip archive"),
    "missing file": (lambda s, d: None, "cannot read"),
    "truncated to half": (_bytes(lambda b: b[:len(b) // 2]), ""),
    "truncated by one": (_bytes(lambda b: b[:-1]), ""),
    "truncated to 100": (_bytes(lambda b: b[:100]), ""),
    "bit flip in object code": (_bytes(lambda b: _flip(b, _data_offset(b, "f1/s0.o") + 50)), ""),
    "bit flip in manifest": (_bytes(lambda b: _flip(b, _data_offset(b, "manifest.json") + 50)), ""),
    "bit flip in directory": (_bytes(lambda b: _flip(b, len(b) - 60)), ""),
    "stored, bit flip in manifest": (
        lambda s, d: (A.rewrite(s, d, compression=zipfile.ZIP_STORED),
                      d.write_bytes(d.read_bytes().replace(b'"format_version": 2',
                                                           b'"format_version": 3'))), ""),
    "member missing": (_raw(lambda m: {k: v for k, v in m.items() if k != "f0/s0.o"}),
                       "'f0/s0.o' named in the manifest is missing"),
    "manifest missing": (_raw(lambda m: {k: v for k, v in m.items() if k != "manifest.json"}),
                         "no manifest.json"),
    "manifest hash wrong": (_edit(lambda m, _: _spec0(m).update(opt_level=2), rehash=False),
                            "manifest is corrupt"),
    "member corrupt": (_raw(lambda m: {**m, "f0/s0.o": _flip(m["f0/s0.o"], 40)}),
                       "'f0/s0.o' is corrupt"),
    "manifest not json": (_raw(lambda m: {**m, "manifest.json": b"{",
                                          "manifest.sha256": hashlib.sha256(b"{").hexdigest().encode()}),
                          "not valid JSON"),
    "manifest nested deeply": (_raw(lambda m: {**m, "manifest.json": b"[" * 100000,
                                               "manifest.sha256": hashlib.sha256(b"[" * 100000).hexdigest().encode()}),
                               "not valid JSON"),
    "manifest is a list": (_edit(lambda m, _: (m.clear(), m.update(x=1))), "missing 'format'"),
    "unknown format version": (_edit(lambda m, _: m.update(format_version=3)),
                               "unknown format version 3"),
    "another format": (_edit(lambda m, _: m.update(format="zip")), "not a saved script module"),
    "functions not a list": (_edit(lambda m, _: m.update(functions="x")), "expected a list"),
    "opt level a string": (_edit(lambda m, _: _spec0(m).update(opt_level="3")),
                           "opt_level: expected an integer"),
    "unknown type": (_edit(lambda m, _: _spec0(m).update(ret_type="i128")), "i128"),
    "type not data": (_edit(lambda m, _: _spec0(m).update(arg_types=[5])), "not a type"),
    "param name not a string": (_edit(lambda m, _: m["functions"][0]["params"][0].update(name=5)),
                                "expected a string"),
    "negative size": (_edit(lambda m, _: _spec0(m)["members"]["ir"].update(size=-1)),
                      "expected an integer"),
    "huge size": (_edit(lambda m, _: _spec0(m)["members"]["ir"].update(size=1 << 50)),
                  "expected an integer"),
    "wrong size": (_edit(lambda m, _: _spec0(m)["members"]["ir"].update(size=3)),
                   "the manifest says 3"),
    "bad digest": (_edit(lambda m, _: _spec0(m)["members"]["object"].update(sha256="00" * 32)),
                   "is corrupt"),
    "absolute member name": (_raw(lambda m: {**m, "/etc/evil": b"x"}), "'/etc/evil' is not allowed"),
    "dotdot member name": (_raw(lambda m: {**m, "../evil": b"x"}), "'../evil' is not allowed"),
    "inner dotdot": (_raw(lambda m: {**m, "f0/../../evil": b"x"}), "is not allowed"),
    "backslash name": (_raw(lambda m: {**m, "..\\evil": b"x"}), "is not allowed"),
    "directory member": (_raw(lambda m: {**m, "f0/": b""}), "is not allowed"),
    "dotdot in manifest": (_edit(lambda m, _: _spec0(m)["members"]["ir"].update(path="../f0/s0.ir")),
                           "is not allowed"),
    "duplicate member": (_raw(lambda m: list(m.items()) + [("f0/s0.o", b"x")]), "appears twice"),
    "too many members": (_raw(lambda m: {**m, **{f"x{i}": b"" for i in range(5000)}}), "more than"),
    "bzip2 member": (lambda s, d: _write_bz2(s, d), "unsupported compression"),
    "duplicate function": (_edit(lambda m, _: m["functions"].append(m["functions"][0])),
                           "same name"),
    "calls an unsaved function": (_edit(lambda m, _: m["functions"][0].update(calls=["nope"])),
                                  "not saved"),
    "entry not first": (_edit(lambda m, _: _spec0(m).update(entry="other")), "entry first"),
    "callee outside": (_edit(lambda m, _: _spec0(m)["calls"].update({_spec0(m)["entry"]: ["x"]})),
                       "outside the module"),
    "annotation disagrees": (_edit(lambda m, _: next(f for f in m["functions"] if f["name"] == "wrap32")
                                   ["specializations"][0].update(arg_types=["i64", "i64"])),
                             "annotated i32"),
    "no specializations": (_edit(lambda m, _: m["functions"][0].update(specializations=[])),
                           "without specializations"),
    "bad default": (_edit(lambda m, _: m["functions"][5]["params"][1].update(default={"float": "x"})),
                    "not a float"),
    "bad function name": (_edit(lambda m, _: m["functions"][0].update(name="__class__")),
                          "not a name"),
    "IR does not parse": (_set_ir(0, "func @collatz.i64(%0: i64 -> i64 {\n"), "line 1|1:"),
    "IR does not verify": (_set_ir(0, lambda t: t.replace("cmp.ne %", "cmp.ne 1.5:f64, %", 1)),
                           ""),
    "IR of another function": (_set_ir(0, lambda t: t.replace("collatz.i64", "other.i64")),
                               "the manifest lists"),
    "IR with other types": (_set_ir(0, lambda t: t.replace("-> i64", "-> f64", 1)), ""),
    "object code garbage": (_edit(lambda m, mem: A.set_member(m, mem, "f0/s0.o", b"\x7fELF" + b"\0" * 60)),
                            "does not load"),
    "object code of another function": (_object_of(2), "does not load"),
}


def _write_bz2(src, dst):
    members = A.read_members(src)
    with zipfile.ZipFile(dst, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data, compress_type=zipfile.ZIP_BZIP2)


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_damaged_archives_raise_load_error(archive, tmp_path, case):
    build, message = CORRUPT[case]
    bad = tmp_path / "bad.smod"
    build(archive, bad)
    with pytest.raises(LoadError) as info:
        script.load(bad)
    assert message.split("|")[0] in str(info.value) or any(
        m in str(info.value) for m in message.split("|")), str(info.value)
    assert sorted(os.listdir(tmp_path)) == (["bad.smod"] if bad.exists() else [])


def test_ir_errors_point_at_the_line(archive, tmp_path):
    bad = tmp_path / "bad.smod"
    _set_ir(0, "func @collatz.i64(%0: i64) -> i64 {\nbb0:\n  ret %7\n}\n")(archive, bad)
    with pytest.raises(LoadError, match=r"f0/s0\.ir:3:\d+: .*\n.*ret %7\n\s*\^"):
        script.load(bad)


def test_damaged_ir_text_is_reported_when_it_is_read(compiled, archive, tmp_path):
    """IR text is read (and its hash checked) when shown or compiled, not to run object code."""
    bad = tmp_path / "bad.smod"
    A.rewrite(archive, bad, lambda m, mem: mem.update({"f2/s0.ir": _flip(mem["f2/s0.ir"], 30)}))
    m = script.load(bad)
    assert m.fib(20) == 6765
    with pytest.raises(LoadError, match="'f2/s0.ir' is corrupt"):
        m.fib.ir("opt")
    A.rewrite(bad, tmp_path / "bad-other-cpu.smod", A.other_cpu)
    with pytest.raises(LoadError, match="'f2/s0.ir' is corrupt"):
        script.load(tmp_path / "bad-other-cpu.smod")


def test_a_valid_manifest_does_not_survive_the_hash_check(archive, tmp_path):
    """The manifest hash covers every byte: an edit that keeps the JSON valid still fails."""
    bad = tmp_path / "bad.smod"
    A.rewrite(archive, bad, lambda m, _: m["functions"][0].update(doc="changed"), rehash=False)
    with pytest.raises(LoadError, match="manifest is corrupt"):
        script.load(bad)


# ---- fuzzing (in a child process, so that a crash is a failure, not the end of pytest) -----

def _fuzz(compiled, tmp_path, mode: str, examples: int) -> None:
    names = ["collatz", "poly", "pair", "divide"]
    path = tmp_path / "fuzz.smod"
    script.save({n: compiled[n] for n in names}, path)
    calls = [c for c in K.CALLS if c[0] in names]
    (tmp_path / "calls.txt").write_text(repr(calls))
    (tmp_path / "expected.json").write_text(json.dumps(K.outcomes(compiled, calls)))
    r = subprocess.run([sys.executable, os.path.join(HERE, "fuzz_saved.py"), mode, str(path),
                        str(tmp_path / "calls.txt"), str(tmp_path / "expected.json"), str(examples)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=3600)
    tail = r.stdout[-4000:] + r.stderr[-4000:]
    assert r.returncode == 0, f"fuzzer exited with {r.returncode} (a crash?):\n{tail}"
    assert "FUZZ OK" in r.stdout, tail
    counts = ast.literal_eval(r.stdout.split("FUZZ OK")[1].strip())
    assert counts["cases"] == examples and counts["load_error"] > 0


@pytest.mark.parametrize("mode", ["bytes", "manifest", "ir"])
def test_fuzzed_archives_load_or_raise_load_error(compiled, tmp_path, mode):
    _fuzz(compiled, tmp_path, mode, int(os.environ.get("SCRIPT_FUZZ_EXAMPLES", "30")))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["bytes", "manifest", "ir"])
def test_fuzzed_archives_at_length(compiled, tmp_path, mode):
    _fuzz(compiled, tmp_path, mode, 5000)
