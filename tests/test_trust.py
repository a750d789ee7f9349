"""Trust (docs/saved-modules.md, "Trust"): saved modules run object code only when signed
under a key the caller trusts; the cache and the store are used only when private, their
files carry a MAC under the user's key, and nothing there follows a symbolic link; forged
objects and manifests give LoadError; zip bombs fail at once; `scriptc inspect` links
nothing. The mutation fuzzer (tests/fuzz_trust.py) runs a bounded share here."""

import hashlib
import json
import os
import stat
import subprocess
import sys
import time
import warnings
import zipfile

import pytest

import archive_tools as A
import script
from script import store
from script.errors import LoadError

HERE = os.path.dirname(os.path.abspath(__file__))


def _module(folder, name: str, body: str):
    """A module `name` in `folder` defining ``answer(x: int) -> int`` as `body` returns (at the
    top level: the same IR name in every module, so one's object links in another's place)."""
    import importlib.util
    path = os.path.join(folder, f"{name}.py")
    with open(path, "w") as f:
        f.write(f"import script\n\n@script.script\ndef answer(x: int) -> int:\n    return {body}\n")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer


def _answer(folder):
    return _module(folder, "good_answer", "x * 2 + 1")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """An archive of ``answer(x) = 2x + 1`` and the object code of an ``answer`` that returns
    42, each saved by a process of its own (IR names are unique within a process: there both
    have the same name, so the one's object links in the other's place)."""
    folder = tmp_path_factory.mktemp("pair")
    for name, body in (("good", "x * 2 + 1"), ("evil", "42")):
        with open(folder / f"{name}_answer.py", "w") as f:
            f.write(f"import script\n\n@script.script\ndef answer(x: int) -> int:\n"
                    f"    return {body}\n")
        code = (f"import sys; sys.path.insert(0, sys.argv[1]); import script, {name}_answer; "
                f"script.save({name}_answer.answer, sys.argv[1] + '/{name}.smod', "
                "signatures=[(int,)])")
        subprocess.run([sys.executable, "-c", code, str(folder)], check=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE),
                                SCRIPT_CACHE_DIR=str(folder / "cache")))
    return folder / "good.smod", A.read_members(folder / "evil.smod")["f0/s0.o"]


@pytest.fixture
def saved(pair, tmp_path, monkeypatch):
    """(this test's copy of the good archive, the evil object code)."""
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "a.smod"
    path.write_bytes(pair[0].read_bytes())
    return path, pair[1]


def _forge(src, dst, obj, sign=False, edit=None):
    """`src` with its object code replaced by `obj` and every hash recomputed, as anyone can;
    signed again under this user's key only with `sign` (which a forger cannot)."""
    def replace(manifest, members):
        A.set_member(manifest, members, "f0/s0.o", obj)
        if edit is not None:
            edit(manifest, members)
    A.rewrite(src, dst, replace, sign=sign)


def test_signed_archive_runs_its_object_code(saved):
    path, _ = saved
    m = script.load(path)
    assert m.__recompiled__ is None and m.answer(5) == 11


def test_forged_archive_does_not_run_its_code_by_default(saved, tmp_path):
    path, evil = saved
    forged = tmp_path / "forged.smod"
    _forge(path, forged, evil)                      # old signature: no longer verifies
    m = script.load(forged)
    assert m.answer(5) == 11                        # compiled from the IR, not the forgery
    assert "does not verify" in m.__recompiled__
    members = A.read_members(forged)
    del members["manifest.sig"]
    A.write_members(tmp_path / "unsigned.smod", members)
    m = script.load(tmp_path / "unsigned.smod")
    assert m.answer(5) == 11 and "not signed" in m.__recompiled__
    # the caller may vouch for a file, as for a native library: then its code runs
    assert script.load(forged, object_code=True).answer(5) == 42
    assert script.load(path, object_code=False).answer(5) == 11


def test_foreign_key_loads_through_ir_and_trusted_keys_link(saved, tmp_path):
    path, _ = saved
    team = os.urandom(32)
    other = tmp_path / "team.smod"
    script.save(script.load(path).answer, other, key=team)
    m = script.load(other)
    assert m.answer(5) == 11
    assert "not yours and not in trusted_keys" in m.__recompiled__
    assert script.load(other, trusted_keys=[team]).__recompiled__ is None
    key_file = tmp_path / "team.key"
    key_file.write_bytes(b"script-key 1\n" + team.hex().encode() + b"\n")
    m = script.load(other, trusted_keys=key_file)
    assert m.__recompiled__ is None and m.answer(5) == 11
    with pytest.raises(ValueError):
        script.load(other, trusted_keys=[b"short"])


def test_forged_signature_under_a_guessed_key_id(saved, tmp_path):
    path, evil = saved
    forged = tmp_path / "forged.smod"
    _forge(path, forged, evil)
    members = A.read_members(forged)
    head = members["manifest.sig"].split()[:4]      # this user's key id, another MAC
    members["manifest.sig"] = b" ".join(head + [b"0" * 64]) + b"\n"
    A.write_members(forged, members)
    m = script.load(forged)
    assert m.answer(5) == 11 and "does not verify" in m.__recompiled__


@pytest.mark.parametrize("edit", ["ret_type", "arg_types", "entry"])
def test_forged_declared_types_do_not_link(saved, tmp_path, edit):
    """Even with object_code=True, object code runs only with the types it was compiled for
    (its signature symbol, checked at link)."""
    path, _ = saved

    def change(manifest, members):
        spec = manifest["functions"][0]["specializations"][0]
        if edit == "ret_type":
            spec["ret_type"] = "f64"
        elif edit == "arg_types":
            spec["arg_types"] = ["f64"]
            manifest["functions"][0]["params"][0]["type"] = "f64"
        else:
            spec["entry"] = spec["functions"][0] = "other.i64"
            spec["calls"] = {"other.i64": []}
    bad = tmp_path / "bad.smod"
    A.rewrite(path, bad, change)                    # signed: the types are the only lie
    with pytest.raises(LoadError, match="does not load"):
        script.load(bad, object_code=True)


def test_objects_elfload_cannot_read_never_reach_llvm(saved, tmp_path):
    path, evil = saved
    for k, obj in enumerate([b"\x7fELF" + bytes(60), evil[:200], evil[:-7] + b"\xff" * 7]):
        bad = tmp_path / f"bad{k}.smod"
        _forge(path, bad, obj, sign=True)
        try:
            script.load(bad).answer(5)
        except LoadError as e:
            assert "does not load" in str(e)


def test_zip_bomb_fails_at_once(tmp_path):
    bomb = tmp_path / "bomb.smod"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("manifest.json", b"{}")
        zf.writestr("manifest.sha256", hashlib.sha256(b"{}").hexdigest())
        zf.writestr("f0/s0.o", bytes(200 << 20))
    assert bomb.stat().st_size < 300 << 10
    start = time.perf_counter()
    with pytest.raises(LoadError, match="zip bomb|too large"):
        script.load(bomb)
    assert time.perf_counter() - start < 0.5


def test_inspect_links_nothing(saved, tmp_path):
    """`scriptc inspect` reads an archive whose object code does not load (or would run a
    forgery): it links none of it."""
    path, evil = saved
    forged = tmp_path / "crash.smod"
    _forge(path, forged, b"\x7fELF" + os.urandom(600), sign=True)
    with pytest.raises(LoadError, match="does not load"):
        script.load(forged)
    view = script.saved.inspect(forged)
    assert "none linked" in str(view)
    assert "answer(x)" in str(view) and "func @answer.i64" in view.answer.ir("opt")
    with pytest.raises(ValueError, match="load it"):
        view.answer.ir("asm")
    p = subprocess.run([sys.executable, "-m", "script", "inspect", str(forged), "--stage", "opt"],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE)))
    assert p.returncode == 0 and "func @answer.i64" in p.stdout, p.stderr


# ---- the user's key -----------------------------------------------------------------------

def test_key_is_made_private_and_a_loose_one_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(store, "_keys", {})
    key = store.user_key()
    path = store.key_path()
    assert len(key) == 32 and store.user_key() == key
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    monkeypatch.setattr(store, "_keys", {})
    assert store.user_key() == key                       # read back, not made again
    os.chmod(path, 0o644)
    monkeypatch.setattr(store, "_keys", {})
    with pytest.warns(RuntimeWarning, match="cannot be used"):
        loose = store.user_key()
    assert loose != key


# ---- the cache and the store --------------------------------------------------------------

def _use_root(monkeypatch, root) -> tuple:
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(root))
    monkeypatch.setattr(store, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        used = store.cache_root()
        assert store.cache_root() == used
    return used, [str(w.message) for w in caught]


def test_cache_root_of_another_user_is_not_used(tmp_path, monkeypatch):
    if not hasattr(os, "getuid"):
        pytest.skip("no user ids")
    root = tmp_path / "theirs"
    root.mkdir(mode=0o700)
    if os.getuid() == 0:
        os.chown(root, 54321, 54321)
    else:
        monkeypatch.setattr(os, "getuid", lambda: 54321)
    used, messages = _use_root(monkeypatch, root)
    assert used != str(root) and len(messages) == 1 and "not owned by you" in messages[0]
    monkeypatch.undo()


@pytest.mark.parametrize("where", ["root", "native"])
def test_cache_root_others_may_write_is_not_used(tmp_path, monkeypatch, where):
    root = tmp_path / "shared"
    (root / "native").mkdir(parents=True, mode=0o700)
    os.chmod(root if where == "root" else root / "native", 0o777)
    used, messages = _use_root(monkeypatch, root)
    assert used != str(root) and len(messages) == 1 and "0777" in messages[0]
    monkeypatch.setattr(store, "_roots", {})
    # a plain compile with cache=True writes nothing there, and works
    f = script.script(cache=True)(_answer(tmp_path).py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert f(5) == 11
    assert not list(root.glob("*.cache")) and not list((root / "native").iterdir())


def test_cache_and_store_are_private(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "c"))
    f = script.script(cache=True)(_answer(tmp_path).py_func)
    assert f(5) == 11
    for folder in (tmp_path / "c", tmp_path / "c" / "native"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = list((tmp_path / "c").glob("*.cache"))
    assert files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)


def test_cache_entry_with_a_recomputed_digest_is_not_used(pair, tmp_path, monkeypatch):
    """A forger can recompute a digest, not the MAC: the entry is ignored, compiled again."""
    from script import cache
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "c"))
    f = script.script(cache=True)(_answer(tmp_path).py_func)
    assert f(5) == 11
    (entry,) = (tmp_path / "c").glob("*.cache")
    data = entry.read_bytes()
    start = len(cache.MAGIC) + 65
    evil_object = pair[1]
    body = data[start:]
    obj_at = body.rindex(bytes(next(iter(f.__dict__["_specializations"].values())).native.object_code))
    body = body[:obj_at] + evil_object
    sizes, rest = body.split(b"\n", 1)
    parts = sizes.split(b" ")
    parts[3] = str(len(evil_object)).encode()
    body = b" ".join(parts) + b"\n" + rest
    entry.write_bytes(cache.MAGIC + store.digest(body).encode() + b"\n" + body)
    with pytest.warns(RuntimeWarning, match="damaged or not this user's"):
        g = script.script(cache=True)(_answer(tmp_path).py_func)
        assert g(5) == 11


def test_symlinked_stamp_is_not_followed(tmp_path):
    root = tmp_path / "c"
    (root / "native").mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep me")
    old = time.time() - 10 * 86400
    os.utime(victim, (old, old))
    os.symlink(victim, root / "native" / "swept.txt")
    assert store.maybe_sweep(str(root)) == 0
    assert victim.read_bytes() == b"keep me" and abs(victim.stat().st_mtime - old) < 1
    assert not (root / "native" / "swept.txt").is_symlink()      # the link is removed
    store.maybe_sweep(str(root))                                   # then a stamp is made
    stamp = root / "native" / "swept.txt"
    assert stamp.is_file() and not stamp.is_symlink()
    assert stat.S_IMODE(stamp.stat().st_mode) == 0o600


def test_writes_replace_links_and_never_follow_them(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep me")
    target = tmp_path / "entry.o"
    os.symlink(victim, target)
    store.write_atomically(str(target), b"new")
    assert victim.read_bytes() == b"keep me"
    assert not target.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_store_links_are_not_sealed_or_followed(tmp_path):
    victim = tmp_path / "victim.so"
    victim.write_bytes(b"\x7fELF not ours")
    old = time.time() - 10 * 86400
    os.utime(victim, (old, old))
    link = tmp_path / "runtime-0123456789abcdef0123.so"
    os.symlink(victim, link)
    with pytest.warns(RuntimeWarning, match="damaged"):
        assert not store.check_shared(str(link))
    assert not link.exists() and victim.read_bytes() == b"\x7fELF not ours"
    assert abs(victim.stat().st_mtime - old) < 1


def test_store_file_with_a_recomputed_digest_is_not_loaded(tmp_path, monkeypatch):
    """A planted runtime library or code object whose digest a forger recomputed (the MAC it
    cannot) is removed, never loaded."""
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "runtime-0123456789abcdef0123.so"
    payload = b"\x7fELF planted"
    path.write_bytes(payload + store.OBJECT_MAGIC + store.digest(payload).encode())
    with pytest.warns(RuntimeWarning, match="damaged"):
        assert not store.check_shared(str(path))
    assert not path.exists()
    store.write_shared(str(path), payload)                 # this user's own: its MAC verifies
    assert store.check_shared(str(path))
    obj = tmp_path / "entry-0123456789abcdef0123.o"
    obj.write_bytes(store.OBJECT_MAGIC + store.digest(payload).encode() + payload)
    with pytest.warns(RuntimeWarning, match="damaged"):
        assert store.read_object(str(obj)) is None


def test_a_sealed_file_of_another_user_is_checked(tmp_path, monkeypatch):
    """The seal (a modification time whose nanoseconds match the name's) stands for "checked
    since written" only on the user's own files: another's is read and its MAC checked."""
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "code-0123456789abcdef0123.so"
    payload = b"\x7fELF planted"
    path.write_bytes(payload + store.OBJECT_MAGIC + store.digest(payload).encode())
    seal = store._seal(str(path))
    now = time.time_ns()
    os.utime(path, ns=(now, now - now % 1_000_000_000 + seal - 1_000_000_000))
    if os.getuid() == 0:
        os.chown(path, 54321, 54321)
    else:
        monkeypatch.setattr(store, "_UID", -1)
    with pytest.warns(RuntimeWarning, match="damaged"):
        assert not store.check_shared(str(path))


def test_read_file_touches_the_file_it_read_not_a_link(tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"x")
    old = time.time() - 10 * 86400
    os.utime(f, (old, old))
    assert store.read_file(str(f), 10, touch=True) == b"x"
    assert f.stat().st_mtime > old + 86400


# ---- the fuzzer ---------------------------------------------------------------------------

@pytest.mark.parametrize("cases", [32, pytest.param(400, marks=pytest.mark.slow)])
def test_fuzz_trust_bounded(tmp_path, cases):
    """A share of tests/fuzz_trust.py (forged archives, objects, manifests and cache entries,
    each case in a forked child): no crash, no hang, no wrong answer run silently. 32 cases
    (2 of each kind's share) in CI, 400 marked slow; the >= 5,000-case run and its figures:
    docs/saved-modules.md, "Fuzzing the trust boundary"."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE), SCRIPT_CACHE_DIR=str(tmp_path / "c"))
    p = subprocess.run([sys.executable, os.path.join(HERE, "fuzz_trust.py"), "--cases",
                        str(cases), "--seed", str(cases), "--work", str(tmp_path)],
                       capture_output=True, text=True, timeout=30 * cases, env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    summary = json.loads(p.stdout.strip().splitlines()[-1])
    assert summary["crash"] == summary["hang"] == summary["wrong"] == 0, summary
    assert summary["forged_ran"] == summary["other_error"] == 0, summary
    assert summary["cases"] == cases
