"""Kernels in saved modules: `script.save`/`script.load` of `@script.kernel` (CPU path against
NumPy in a fresh process without the source, the CPU code compiled again from IR, PTX kept
byte for byte and assembled by ptxas, damaged archives as `LoadError`), and the command
line's `dump --stage ptx` and `inspect` of kernels."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import archive_tools as A
import script
from script import cuda
from script.errors import LoadError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not installed")
PYTHONPATH = os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))


@pytest.fixture(scope="module", autouse=True)
def default_arch_sm80():
    """The default architecture these tests expect, also on a machine with another GPU (and
    in the processes they start)."""
    before = os.environ.get("SCRIPT_CUDA_ARCH")
    os.environ["SCRIPT_CUDA_ARCH"] = "sm_80"
    yield
    if before is None:
        del os.environ["SCRIPT_CUDA_ARCH"]
    else:
        os.environ["SCRIPT_CUDA_ARCH"] = before

SOURCE = textwrap.dedent('''
    import numpy as np
    import script
    from script import cuda

    @script.script
    def twice(x: float) -> float:
        return 2.0 * x

    def clamp(v, lo, hi):
        return min(max(v, lo), hi)

    @script.kernel
    def saxpy(a: float, x: script.f32[:], y: script.f32[:]):
        i = cuda.grid(1)
        if i < x.shape[0]:
            y[i] = a * x[i] + y[i]

    @script.kernel
    def block_sum(x: script.f64[:], out: script.f64[:]):
        sh = cuda.shared.array(64, script.f64)
        tid = cuda.threadIdx.x
        i = cuda.grid(1)
        sh[tid] = x[i] if i < x.shape[0] else 0.0
        cuda.syncthreads()
        s = cuda.blockDim.x // 2
        while s > 0:
            if tid < s:
                sh[tid] += sh[tid + s]
            cuda.syncthreads()
            s //= 2
        if tid == 0:
            out[cuda.blockIdx.x] = sh[0]

    @script.kernel
    def clip_2d(a: script.f64[:, :], lo: float, hi: float):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = clamp(a[i, j], lo, hi)

    @script.kernel
    def scale(a, k):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] = a[i] * k

    @script.kernel
    def divide(a: script.i64[:], d: int):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] = a[i] // d

    def compiled():
        """What the tests save: `scale` for the two signatures launched, the others as
        annotated."""
        scale[1, 4](np.zeros(4, np.float32), 1.5)
        scale[1, 4](np.zeros(4, np.int64), 3)
        return [twice, saxpy, block_sum, clip_2d, scale, divide]
''')

RUNNER = textwrap.dedent(r'''
    import importlib.util, json, sys
    import numpy as np
    import script

    def launches(ns):
        out = {}
        rng = np.random.default_rng(7)
        x = rng.random(300).astype(np.float32); y = rng.random(300).astype(np.float32)
        ns["saxpy"][(300 + 127) // 128, 128](2.5, x, y); out["saxpy"] = y.tolist()
        v = rng.random(500); sums = np.zeros(8)
        ns["block_sum"][8, 64](v, sums); out["block_sum"] = sums.tolist()
        m = rng.random((13, 9)) * 4 - 2
        ns["clip_2d"][(4, 3), (4, 4)](m, -1.0, 1.0); out["clip_2d"] = m.tolist()
        f = np.arange(10, dtype=np.float32); ns["scale"][1, 16](f, 1.5); out["scale_f32"] = f.tolist()
        g = np.arange(10, dtype=np.int64); ns["scale"][1, 16](g, 3); out["scale_i64"] = g.tolist()
        h = np.arange(10, dtype=np.int64) * 7; ns["divide"][1, 16](h, 2); out["divide"] = h.tolist()
        try:
            ns["divide"][1, 16](h, 0); out["divide0"] = "no error"
        except ZeroDivisionError as e:
            out["divide0"] = "ZeroDivisionError: " + str(e)
        out["twice"] = ns["twice"](4.0)
        return out

    mode, path = sys.argv[1:3]
    if mode == "save":
        sys.path.insert(0, sys.argv[3])
        import kmod
        fns = kmod.compiled()
        result = {"launches": launches({f.__name__: f for f in fns})}
        script.save(fns, path)
        ns = {f.__name__: f for f in fns}
    else:
        m = script.load(path)
        ns = {n: getattr(m, n) for n in m.__all__}
        result = {"launches": launches(ns), "summary": str(m), "kernels": m.__kernels__,
                  "recompiled": m.__recompiled__, "lark": "lark" in sys.modules,
                  "source_importable": importlib.util.find_spec("kmod") is not None}
        try:
            ns["saxpy"][1, 1](1.0, np.zeros(2), np.zeros(2))
            result["wrong_types"] = "no error"
        except TypeError as e:
            result["wrong_types"] = str(e)
    result["ptx"] = {n: ns[n].ptx() for n in ("saxpy", "block_sum", "clip_2d", "divide")}
    print(json.dumps(result))
''')


def expected_launches() -> dict:
    """The NumPy results of RUNNER's launches."""
    rng = np.random.default_rng(7)
    x = rng.random(300).astype(np.float32)
    y = rng.random(300).astype(np.float32)
    v = rng.random(500)
    m = rng.random((13, 9)) * 4 - 2
    return {"saxpy": np.float32(2.5) * x + y, "v": v, "clip_2d": np.clip(m, -1.0, 1.0)}


def run(tmp_path, *args) -> dict:
    env = {**os.environ, "SCRIPT_CUDA": "cpu", "PYTHONPATH": PYTHONPATH}
    r = subprocess.run([sys.executable, "-c", RUNNER, *map(str, args)], capture_output=True,
                       text=True, cwd=tmp_path, timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def saved_elsewhere(tmp_path_factory):
    """An archive of kernels saved by another process from a source file then deleted."""
    tmp = tmp_path_factory.mktemp("kernels_elsewhere")
    src = tmp / "src"
    src.mkdir()
    (src / "kmod.py").write_text(SOURCE)
    before = run(tmp, "save", tmp / "k.smod", src)
    shutil.rmtree(src)
    return tmp, tmp / "k.smod", before


def _check_against_numpy(launches: dict) -> None:
    want = expected_launches()
    np.testing.assert_allclose(np.array(launches["saxpy"], np.float32), want["saxpy"], rtol=1e-6)
    v = want["v"]
    sums = [v[b * 64:(b + 1) * 64].sum() for b in range(8)]
    np.testing.assert_allclose(launches["block_sum"], sums, rtol=1e-12)
    np.testing.assert_allclose(launches["clip_2d"], want["clip_2d"])
    assert launches["scale_f32"] == (np.arange(10, dtype=np.float32) * np.float32(1.5)).tolist()
    assert launches["scale_i64"] == (np.arange(10) * 3).tolist()
    assert launches["divide"] == (np.arange(10) * 7 // 2).tolist()
    assert launches["divide0"].startswith("ZeroDivisionError")
    assert launches["twice"] == 8.0


def test_kernels_round_trip_in_a_fresh_process_without_the_source(saved_elsewhere):
    tmp, path, before = saved_elsewhere
    _check_against_numpy(before["launches"])
    after = run(tmp, "load", path)
    assert not after["source_importable"]
    assert after["launches"] == before["launches"]
    assert after["ptx"] == before["ptx"], "the PTX text changed in the round trip"
    assert after["recompiled"] is None
    assert not after["lark"], "loading object code must not parse IR"
    assert sorted(after["kernels"]) == ["block_sum", "clip_2d", "divide", "saxpy", "scale"]
    assert "argument 'x' must be f32[:]" in after["wrong_types"]
    summary = after["summary"]
    for text in ("format 2", "functions:", "twice(x)", "kernels:",
                 "kernel saxpy(a: float, x: f32[:], y: f32[:])",
                 "(float, f32[:], f32[:])  PTX sm_80", "kernel scale(a, k)",
                 "(f32[::1], float)  PTX sm_80", "(i64[::1], int)  PTX sm_80"):
        assert text in summary, (text, summary)


def test_kernels_cpu_code_compiled_again_from_ir_in_a_fresh_process(saved_elsewhere):
    tmp, path, before = saved_elsewhere
    other = tmp / "other-cpu.smod"
    A.rewrite(path, other, A.other_cpu)
    after = run(tmp, "load", other)
    assert "some-other-cpu" in after["recompiled"]
    assert after["launches"] == before["launches"]
    assert after["ptx"] == before["ptx"]


# ---- in this process ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def kmod(tmp_path_factory):
    src = tmp_path_factory.mktemp("kmod_src")
    (src / "kmod_inproc.py").write_text(SOURCE)
    sys.path.insert(0, str(src))
    try:
        import kmod_inproc
    finally:
        sys.path.remove(str(src))
    return kmod_inproc


@pytest.fixture(scope="module")
def archive(kmod, tmp_path_factory):
    kmod.saxpy.compile_ptx(tuple(kmod.saxpy._info.param_types), "sm_90")
    path = tmp_path_factory.mktemp("ksaved") / "k.smod"
    script.save(kmod.compiled(), path)
    return path


@pytest.fixture
def on_cpu():
    before = cuda.selected()
    cuda.select("cpu")
    yield
    cuda.select(before)


def test_ptx_identical_after_load_for_every_saved_arch(kmod, archive):
    m = script.load(archive)
    types = tuple(kmod.saxpy._info.param_types)
    assert m.saxpy.saved_archs(types) == ["sm_80", "sm_90"]       # the default first
    for arch in ("sm_80", "sm_90"):
        assert m.saxpy.ptx(arch=arch) == kmod.saxpy.ptx(arch=arch)
    assert m.saxpy.ptx() == kmod.saxpy.ptx()
    sig = kmod.scale.signatures[0]
    assert m.scale.ptx(signature=sig) == kmod.scale.ptx(signature=sig)
    assert m.saxpy.ir("opt") == kmod.saxpy.ir("opt")
    manifest = json.loads(A.read_members(archive)["manifest.json"])
    assert manifest["format_version"] == 2
    spec = manifest["kernels"][0]["specializations"][0]
    assert [p["arch"] for p in spec["ptx"]] == ["sm_80", "sm_90"]
    assert spec["gpu"]["entry"].endswith(".nobc") and spec["cpu"]["object"]["path"].endswith(".o")


def test_arch_not_saved_is_made_from_the_saved_ir(kmod, archive):
    m = script.load(archive)
    ptx = m.block_sum.ptx(arch="sm_86")
    # made from IR that came from outside, so with its loads and stores checked
    # (script.ir.safety): more than the kernel compiled here without bounds checks
    assert ".target sm_86" in ptx and ptx != kmod.block_sum.ptx(arch="sm_86")
    assert "define" in m.block_sum.llvm_ir(arch="sm_86")
    with pytest.raises(ValueError, match="not saved"):
        m.saxpy.llvm_ir()


def test_newest_compatible_saved_ptx_is_chosen_for_a_device():
    from script.saved_cuda import _newest_for
    assert _newest_for(["sm_80", "sm_90"], "sm_90") == "sm_90"
    assert _newest_for(["sm_80", "sm_90"], "sm_89") == "sm_80"
    assert _newest_for(["sm_90a"], "sm_100") is None
    assert _newest_for(["sm_80"], "sm_75") is None


@ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_assembles_the_loaded_ptx(archive, arch):
    from script.backend.nvptx.target import run_ptxas
    m = script.load(archive)
    for name in m.__kernels__:
        k = getattr(m, name)
        for types in k.signatures:
            assert "registers" in run_ptxas(k.ptx(arch=arch, signature=types), arch)
    assert "registers" in m.saxpy.inspect(arch=arch)


def test_loaded_kernels_launch_like_the_originals(kmod, archive, on_cpu):
    m = script.load(archive)
    a = np.linspace(-3, 3, 40).reshape(5, 8)
    b = a.copy()
    kmod.clip_2d[(2, 2), (4, 4)](a, -1.0, 1.0)
    m.clip_2d[(2, 2), (4, 4)](b, -1.0, 1.0)
    assert np.array_equal(a, b)
    c = np.arange(6, dtype=np.float32)
    m.scale[1, 8](c, 2)                                   # int -> the saved (f32[::1], float)
    assert c.tolist() == [0, 2, 4, 6, 8, 10]
    m.saxpy[1, 8](1, c, c)                      # C-contiguous arrays -> the saved f32[:]
    assert c.tolist() == [0, 4, 8, 12, 16, 20]
    with pytest.raises(TypeError, match="cannot compile new signatures"):
        m.scale[1, 8](np.zeros(3, np.int32), 2)
    with pytest.raises(ZeroDivisionError):
        m.divide[1, 4](np.ones(4, np.int64), 0)
    with pytest.raises(TypeError, match="configuration"):
        m.saxpy(1.0, c, c)
    assert repr(m).endswith("1 function, 5 kernels>")


def test_loaded_kernels_save_again(archive, tmp_path, on_cpu):
    m = script.load(archive)
    script.save({"k": m.saxpy, "t": m.twice}, tmp_path / "again.smod")
    m2 = script.load(tmp_path / "again.smod")
    assert m2.k.ptx(arch="sm_90") == m.saxpy.ptx(arch="sm_90")
    assert m2.k.saved_archs(m2.k.signatures[0]) == ["sm_80", "sm_90"]
    x, y = np.ones(4, np.float32), np.ones(4, np.float32)
    m2.k[1, 4](3.0, x, y)
    assert y.tolist() == [4.0] * 4


def test_save_kernels_with_signatures(kmod, tmp_path):
    script.save(kmod.scale, tmp_path / "s.smod", signatures=[(script.f64[:], float)])
    m = script.load(tmp_path / "s.smod")
    assert [tuple(map(str, t)) for t in m.scale.signatures] == [("f64[:]", "f64")]
    fresh = script.kernel(kmod.scale.py_func)
    with pytest.raises(ValueError, match="no compiled signature"):
        script.save(fresh, tmp_path / "none.smod")


@pytest.mark.skipif(not cuda.is_available(), reason="no GPU")
def test_loaded_kernel_runs_on_the_gpu_with_the_saved_ptx(archive):
    m = script.load(archive)
    cuda.select("gpu")
    try:
        x = np.arange(1000, dtype=np.float32)
        y = np.ones(1000, np.float32)
        m.saxpy[8, 128](2.0, x, y)
        assert np.allclose(y, 2.0 * np.arange(1000) + 1.0)
        v = np.random.rand(512)
        out = np.zeros(8)
        m.block_sum[8, 64](v, out)
        assert np.allclose(out, v.reshape(8, 64).sum(axis=1))
    finally:
        cuda.select("auto")


# ---- damaged archives -------------------------------------------------------------------

def _kspec(m, k=0):
    return m["kernels"][k]["specializations"][0]


def _flip_member(name_of):
    def edit(m, members):
        path = name_of(m)
        data = bytearray(members[path])
        data[len(data) // 2] ^= 0x10
        members[path] = bytes(data)               # manifest not updated: a hash mismatch
    return edit


def _replace_member(name_of, change):
    def edit(m, members):
        path = name_of(m)
        A.set_member(m, members, path, change(members[path]))
    return edit


CORRUPT = {
    "ptx bit flip": (_flip_member(lambda m: _kspec(m)["ptx"][0]["member"]["path"]), "is corrupt"),
    "cpu object bit flip": (_flip_member(lambda m: _kspec(m)["cpu"]["object"]["path"]), "is corrupt"),
    "ptx of another kernel": (
        lambda m, members: A.set_member(m, members, _kspec(m)["ptx"][0]["member"]["path"],
                                        members[_kspec(m, 1)["ptx"][0]["member"]["path"]]),
        "is not PTX for sm_80 with entry"),
    "ptx not text": (_replace_member(lambda m: _kspec(m)["ptx"][0]["member"]["path"],
                                     lambda b: b"\xff\xfe" + b), "not UTF-8"),
    "cpu object of another kernel": (
        lambda m, members: A.set_member(m, members, _kspec(m)["cpu"]["object"]["path"],
                                        members[_kspec(m, 1)["cpu"]["object"]["path"]]),
        "does not load"),
    "ptx member missing": (lambda m, members: members.pop(_kspec(m)["ptx"][0]["member"]["path"]),
                           "is missing"),
    "bad arch": (lambda m, _: _kspec(m)["ptx"][0].update(arch="sm_x"), "not a CUDA architecture"),
    "bad ptx entry": (lambda m, _: _kspec(m)["ptx"][0].update(entry="a b"), "not a PTX identifier"),
    "messages not a list": (lambda m, _: _kspec(m)["ptx"][0].update(messages="x"), "expected a list"),
    "message not latin-1": (lambda m, _: _kspec(m)["ptx"][0].update(messages=["\u20ac"]), "latin-1"),
    "two ptx for one arch": (lambda m, _: _kspec(m).update(ptx=_kspec(m)["ptx"] * 2),
                             "same architecture"),
    "cpu object missing": (lambda m, _: _kspec(m)["cpu"].pop("object"), "missing 'object'"),
    "kernel named as a function": (lambda m, _: m["kernels"][0].update(name="twice"),
                                   "same name"),
    "kernel with a tuple": (lambda m, _: m["kernels"][3]["specializations"][0].update(
        arg_types=[{"array": {"dtype": "f64", "ndim": 1, "layout": "A"}}, {"tuple": ["f64"]}]),
        "not tuples"),
    "kernels missing": (lambda m, _: m.pop("kernels"), "missing 'kernels'"),
    "opt out of range": (lambda m, _: m["kernels"][0].update(opt=9), "opt"),
    "boundscheck a string": (lambda m, _: m["kernels"][0].update(boundscheck="yes"),
                             "expected true, false or null"),
    "cpu ir damaged, other cpu": (
        lambda m, members: (A.set_member(m, members, _kspec(m, 1)["cpu"]["ir"]["path"],
                                         members[_kspec(m, 1)["cpu"]["ir"]["path"]].replace(
                                             b"-> none", b"-> nonsense", 1)),
                            A.other_cpu(m, members)),
        "k1/s0.cpu.ir"),
    "cpu ir of another kernel, other cpu": (
        lambda m, members: (A.set_member(m, members, _kspec(m, 1)["cpu"]["ir"]["path"],
                                         members[_kspec(m, 0)["cpu"]["ir"]["path"]]),
                            A.other_cpu(m, members)),
        "the manifest"),
}


@pytest.mark.parametrize("case", CORRUPT, ids=list(CORRUPT))
def test_damaged_kernel_archives_raise_load_error(archive, tmp_path, case):
    edit, message = CORRUPT[case]
    bad = tmp_path / "bad.smod"
    A.rewrite(archive, bad, edit)
    with pytest.raises(LoadError) as info:
        script.load(bad)
    assert message in str(info.value), str(info.value)


def test_truncated_and_flipped_kernel_archives(archive, tmp_path):
    data = archive.read_bytes()
    for i, cut in enumerate((len(data) // 3, len(data) - 1)):
        bad = tmp_path / f"t{i}.smod"
        bad.write_bytes(data[:cut])
        with pytest.raises(LoadError):
            script.load(bad)
    info = zipfile.ZipFile(archive).getinfo("k0/s0.sm_80.ptx")
    flipped = bytearray(data)
    flipped[info.header_offset + 30 + len(info.filename) + 20] ^= 0x01
    bad = tmp_path / "flip.smod"
    bad.write_bytes(bytes(flipped))
    with pytest.raises(LoadError):
        script.load(bad)


def test_format_version_1_archives_still_load(tmp_path):
    @script.script
    def f(x: int) -> int:
        return x + 1
    path = tmp_path / "v2.smod"
    script.save(f, path)
    old = tmp_path / "v1.smod"
    A.rewrite(path, old, lambda m, _: (m.update(format_version=1), m.pop("kernels")))
    m = script.load(old)
    assert m.f(2) == 3 and m.__manifest__.format_version == 1 and m.__kernels__ == []


# ---- the command line ----------------------------------------------------------------------

def scriptc(*args, cwd):
    env = {**os.environ, "PYTHONPATH": PYTHONPATH, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "script", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600)


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_kernels")
    (d / "kmod.py").write_text(SOURCE)
    return d


def test_cli_dump_ptx(cli_dir):
    p = scriptc("dump", "kmod.py:saxpy", "--stage", "ptx", "--arch", "sm_90", cwd=cli_dir)
    assert p.returncode == 0, p.stderr
    head, _, body = p.stdout.partition("\n")
    assert head == "// script: kernel saxpy(float, f32[:], f32[:]) for sm_90"
    assert ".target sm_90" in body and ".entry script_saxpy_f64_A1Af32_A1Af32_nobc(" in body
    p = scriptc("dump", "kmod.py", "scale", "--stage", "ptx", "--signature", "f64[:], float",
                cwd=cli_dir)
    assert p.returncode == 0, p.stderr
    assert "// script: kernel scale(f64[:], float) for sm_80" in p.stdout and ".entry script_scale" in p.stdout
    p = scriptc("dump", "kmod.py", "--stage", "ptx", cwd=cli_dir)    # every annotated kernel
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("// script: kernel") == 4 and "twice" not in p.stdout


def test_cli_dump_other_stages_of_kernels(cli_dir):
    p = scriptc("dump", "kmod.py", "block_sum", "--stage", "ssa", cwd=cli_dir)
    assert p.returncode == 0 and "barrier" in p.stdout and "func @block_sum" in p.stdout, p.stderr
    p = scriptc("dump", "kmod.py", "clip_2d", cwd=cli_dir)
    assert p.returncode == 0 and "func @clip_2d" in p.stdout and "sreg" in p.stdout, p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--stage", "llvm", cwd=cli_dir)
    assert p.returncode == 0 and 'target triple = "nvptx64-nvidia-cuda"' in p.stdout, p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--print-after", "dce", cwd=cli_dir)
    assert p.returncode == 0 and "// IR after dce" in p.stdout, p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--format", "dot", "--stage", "ssa", cwd=cli_dir)
    assert p.returncode == 0 and p.stdout.startswith("digraph"), p.stderr


def test_cli_dump_errors(cli_dir):
    p = scriptc("dump", "kmod.py", "twice", "--stage", "ptx", cwd=cli_dir)
    assert p.returncode == 2 and "twice is not a kernel" in p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--stage", "asm", cwd=cli_dir)
    assert p.returncode == 2 and "saxpy is a kernel" in p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--stage", "ptx", "--arch", "sm_5x", cwd=cli_dir)
    assert p.returncode == 2 and "--arch" in p.stderr
    p = scriptc("dump", "kmod.py", "saxpy", "--stage", "opt", "--arch", "sm_90", cwd=cli_dir)
    assert p.returncode == 2 and "--arch" in p.stderr
    (cli_dir / "plain.py").write_text("import script\n@script.script\ndef f(x: int) -> int:\n    return x\n")
    p = scriptc("dump", "plain.py", "--stage", "ptx", cwd=cli_dir)
    assert p.returncode == 2 and "has no kernels" in p.stderr


def test_cli_compile_and_inspect_kernels(cli_dir):
    p = scriptc("compile", "kmod.py", "-o", "k.smod", "--sig", "scale=f32[:], float", cwd=cli_dir)
    assert p.returncode == 0, p.stderr
    assert "saved 1 function and 5 kernels (6 signatures) to k.smod" in p.stdout     # not the launched ones
    p = scriptc("inspect", "k.smod", cwd=cli_dir)
    assert p.returncode == 0, p.stderr
    for text in ("format 2", "kernels:", "kernel saxpy(a: float, x: f32[:], y: f32[:])",
                 "(f32[:], float)  PTX sm_80", "twice(x)"):
        assert text in p.stdout, (text, p.stdout)
    p = scriptc("inspect", "k.smod", "saxpy", "--stage", "ptx", cwd=cli_dir)
    assert p.returncode == 0, p.stderr
    dumped = scriptc("dump", "kmod.py:saxpy", "--stage", "ptx", cwd=cli_dir)
    assert p.stdout == dumped.stdout and "for sm_80\n" in p.stdout
    p = scriptc("inspect", "k.smod", "--stage", "ptx", "--arch", "sm_90", cwd=cli_dir)
    assert p.returncode == 0 and p.stdout.count(".target sm_90") == 5, p.stderr
    p = scriptc("inspect", "k.smod", "scale", "--stage", "opt", cwd=cli_dir)
    assert p.returncode == 0 and "func @scale" in p.stdout, p.stderr
    p = scriptc("inspect", "k.smod", "twice", "--stage", "ptx", cwd=cli_dir)
    assert p.returncode == 2 and "twice is not a kernel" in p.stderr
