"""Compiled functions and loaded modules pickle by their IR (script.pickling) and run in other
processes without their source: a child process, a ProcessPoolExecutor, a Dask cluster."""

import concurrent.futures
import copy
import importlib.util
import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import script
from script.errors import LoadError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SOURCE = '''
import math
import numpy as np
import script

@script
def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

@script
def energy(x, scale=2.0):
    s = 0.0
    for v in x:
        s += math.sqrt(abs(v)) * scale
    return s

@script
def checked(n: int, d: int = 3) -> int:
    if n < 0:
        raise ValueError(f"negative: {n}")
    return n // d + collatz(n + 1)
'''


@pytest.fixture(scope="module")
def kern(tmp_path_factory):
    """A module compiled from a file that is deleted at once: only its IR can travel."""
    path = tmp_path_factory.mktemp("src") / "eco_pickled_kernels.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("eco_pickled_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.energy(np.arange(5.0))
    module.energy(np.arange(5), 0.5)
    os.unlink(path)
    return module


def child_env():
    """The environment of a child that imports script but not the tests' folders."""
    return dict(os.environ, PYTHONPATH=ROOT)


def test_a_child_without_the_source_unpickles_and_runs(kern, tmp_path):
    blob = tmp_path / "f.pickle"
    blob.write_bytes(pickle.dumps([kern.collatz, kern.energy, kern.checked]))
    program = textwrap.dedent(f"""
        import pickle, sys
        import numpy as np
        try:
            import eco_pickled_kernels
            sys.exit("the source module is importable")
        except ImportError:
            pass
        collatz, energy, checked = pickle.loads(open({str(blob)!r}, "rb").read())
        print(collatz(27), energy(np.arange(5.0)), energy(np.arange(5), scale=0.5), checked(10, d=4))
        print(energy.signatures)
        for bad in ((-1,), ("x",)):
            try:
                checked(*bad)
            except (ValueError, TypeError) as e:
                print(type(e).__name__, e)
    """)
    r = subprocess.run([sys.executable, "-c", program], env=child_env(), cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == " ".join(map(str, (kern.collatz(27), kern.energy(np.arange(5.0)),
                                          kern.energy(np.arange(5), scale=0.5), kern.checked(10, d=4))))
    assert lines[1] == str(kern.energy.signatures)
    assert lines[2] == "ValueError negative: -1"
    assert lines[3].startswith("TypeError checked() got arguments of types (str, int)")


def test_unpickled_functions_dispatch_like_loaded_ones(kern):
    energy = pickle.loads(pickle.dumps(kern.energy))
    assert energy is not kern.energy and energy.signatures == kern.energy.signatures
    a = np.random.default_rng(1).normal(size=50)
    assert energy(a, 3.0) == kern.energy(a, 3.0)
    assert pickle.loads(pickle.dumps(kern.energy)) is energy       # the same bytes: memoized
    assert "func @" in energy.ir("opt")
    with pytest.raises(TypeError, match="it accepts"):
        energy([1.0])                       # no source: no new specialization
    again = pickle.loads(pickle.dumps(energy))                      # a loaded function pickles too
    assert again(a) == kern.energy(a)
    assert copy.copy(kern.energy) is kern.energy and copy.deepcopy(kern.energy) is kern.energy


def test_a_pickle_carries_no_object_code(kern):
    from script.saved_archive import read_archive_bytes
    for fn in (kern.collatz, kern.energy):
        reduce, (data, name) = fn.__reduce__()
        names = read_archive_bytes(data, "x")._infos
        assert any(n.endswith(".ir") for n in names) and not any(n.endswith(".o") for n in names)


def test_saved_modules_pickle(kern, tmp_path):
    script.save([kern.collatz, kern.checked], tmp_path / "m.smod")
    m = script.load(tmp_path / "m.smod")
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.__name__ == "m" and m2.__all__ == ["collatz", "checked"]
    assert m2.checked(40) == kern.checked(40) and "unpickled" in m2.__recompiled__


def test_what_cannot_be_pickled_says_why():
    @script.script
    def later(n):
        return n
    with pytest.raises(pickle.PicklingError, match="no compiled specialization"):
        pickle.dumps(later)
    from script.pickling import unpickle_function
    data = pickle.dumps(script.script(lambda_free))
    good = pickle.loads(data)
    assert good(2) == 3
    reduce, (blob, name) = script.script(lambda_free).__reduce__()
    broken = blob[:100] + bytes([blob[100] ^ 1]) + blob[101:]
    with pytest.raises(LoadError):
        unpickle_function(broken, name)


def lambda_free(n: int) -> int:
    return n + 1


def _pool_results(fn, values):
    ctx = multiprocessing.get_context("spawn")       # nothing inherited: the pickle is all they get
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        return list(pool.map(fn, values))


def test_a_process_pool_runs_compiled_functions(kern, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", ROOT)
    values = [27, 97, 871, 6171]
    assert _pool_results(kern.collatz, values) == [kern.collatz(v) for v in values]


def test_a_dask_cluster_runs_compiled_functions(kern, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setenv("PYTHONPATH", ROOT)
    arrays = [np.random.default_rng(i).random(100) for i in range(6)]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        got = client.gather(client.map(kern.energy, arrays))
        pids = set(client.run(os.getpid).values())
    assert got == [kern.energy(a) for a in arrays]
    assert os.getpid() not in pids
