"""The per-machine store: object code every process needs (the runtime library, the entry
point of each signature), and what LLVM said about this CPU, kept on disk so that loading
saved code in a new process neither compiles nor imports LLVM. This module writes it;
script.loadpath, which every cache hit and load imports, reads it (`digest`, `read_file`,
`object_path`, `shared_path`, `read_object`, `check_shared`, `host_target`,
`compiler_fingerprint`).

Where: ``$SCRIPT_CACHE_DIR/native`` when that is set, else ``native`` in the user's cache
directory (loadpath `user_cache_dir`).

- The host record (``host-<id>.txt``: a line naming the format, then the id, the triple,
  the CPU name, the CPU features and LLVM's version, one a line) holds what LLVM gave when it
  was first loaded on this machine. `id` (loadpath `host_id`) digests what can be read
  cheaply and determines them: the OS and machine, /proc/cpuinfo's first CPU, and
  llvmlite's shared library (path, size, time), which fixes LLVM's version; it is found on
  ``sys.path`` as the import system would find it, without importing llvmlite. A record
  whose id is not this machine's is never read; where no id can be made (no /proc/cpuinfo,
  no llvmlite), LLVM is asked. Whenever the JIT is running, its own answer is used, and a
  record that disagrees with it is rewritten.
- An object is named by the BLAKE2b digest (loadpath `digest`) of what it was compiled from:
  its kind and description (a signature), the compiler (loadpath `compiler_fingerprint`:
  version and its own files), the Python ABI and the host target. Its file carries the
  MAC of its bytes (loadpath `checksum`) — after a magic line for an object, at the end for a shared object,
  whose start the system's loader reads — so a damaged file is ignored with a
  RuntimeWarning and removed (whoever compiles it next writes it again).
- A source checkout's listing (``checkout-<digest of its path>.txt``, `list_checkout`):
  which files the compiler fingerprint of a checkout ``stat``s, kept while no folder of the
  package changes.

Writes are atomic (a temporary file of a random name, opened O_EXCL | O_NOFOLLOW with mode
0600, then a rename) and their failures silent: the store never turns a compile or a load
into an error. The store is used only in a folder of the user's that no one else may write
in (loadpath `cache_root`), and each file carries a MAC under the user's key (loadpath
`mac`), so a file another user planted or re-hashed is damaged, never loaded
(docs/saved-modules.md, "Trust").

Nothing is kept for ever: what a new compiler, an edited function or another signature no
longer uses would pile up (a checkout whose compiler is edited makes a new runtime library
and new entry points each time). Reading a file of the store, or a cache entry, touches it
when it was last touched more than a day ago (loadpath `read_file`), and at most once a day
a process that writes to the store removes (`sweep`) the store's files, and the cache
entries in the cache's own folder, untouched for 30 days (loadpath `MAX_AGE_S`), and
temporary files a killed writer left an hour ago. What is removed is made again when needed.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time

from script import loadpath
from script.loadpath import (HOST_FORMAT, MAX_AGE_S, OBJECT_MAGIC, cache_root, checksum, host_id,
                             host_record_path)

_sha256 = None


def sha256(data: bytes) -> str:
    """The hex SHA-256 of `data` (saved modules' manifests name their members by it)."""
    global _sha256
    if _sha256 is None:
        # CPython's own, chosen by version, since a failed import searches all of sys.path.
        try:
            if sys.version_info >= (3, 12):
                from _sha2 import sha256 as _sha256
            else:
                from _sha256 import sha256 as _sha256
        except ImportError:                     # another implementation
            from hashlib import sha256 as _sha256
    return _sha256(data).hexdigest()


# ---- the host -----------------------------------------------------------------------------

def ask_llvm() -> tuple:
    """(triple, CPU name, CPU features, LLVM version) of the JIT (started if need be)."""
    import llvmlite.binding as llvm
    from script.backend.llvm.jit import get_jit
    jit = get_jit()
    return (jit.triple, jit.cpu, jit.features, ".".join(map(str, llvm.llvm_version_info)))


def write_host_record(value: tuple) -> None:
    path = host_record_path()
    if path is not None and all(isinstance(v, str) and v and "\n" not in v for v in value):
        _write(path, "\n".join([HOST_FORMAT, host_id(), *value, ""]).encode("utf-8"))


# ---- a checkout's listing -----------------------------------------------------------------

_RACY_NS = 2_000_000_000        # what a folder's time may lag behind a change to it, at most


def list_checkout(package: str, record: str, head: str) -> list:
    """The folders of the checkout `package` (`_list_package`), kept at `record` as a listing:
    its first line `head` (the format, the package and loadpath `NOT_COMPILER`: another set of files
    lists again), then a line per folder, tab-separated: its path below the package, its
    modification time when it was listed, its ``.py`` files. A folder's time changes whenever
    a file in it is added, removed or renamed (an editor's save by renaming too), so
    loadpath `fingerprint` uses a listing while every folder has its recorded time. A listing
    with a folder changed in the last `_RACY_NS` is not kept: a file added to it in the same
    tick of the clock after the listing would leave its time as recorded (git's "racy"
    entries)."""
    folders = _list_package(package)
    lines = [head] + ["\t".join([where, str(mtime), *names]) for where, mtime, names in folders]
    settled = time.time_ns() - _RACY_NS
    if all(mtime < settled for _, mtime, _ in folders) and not any("\n" in line for line in lines) \
            and not any("\t" in name for where, _, names in folders for name in [where, *names]):
        _write(record, ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))
    return folders


def _list_package(package: str) -> list:
    """``(folder, its time, its .py files)`` for each folder of `package` (as ``""`` or
    ``"a/b/"``) but ``__pycache__`` and loadpath `NOT_COMPILER`'s, in name order; a folder's time is
    read before its listing, so that a change during the listing shows next time."""
    folders = []
    pending = [""]
    while pending:
        where = pending.pop()
        path = os.path.join(package, where)
        mtime = os.stat(path).st_mtime_ns
        names = []
        with os.scandir(path) as it:
            for e in it:
                name = e.name
                if not where and name in loadpath.NOT_COMPILER:
                    continue
                if name.endswith(".py"):
                    names.append(name)
                elif name != "__pycache__" and e.is_dir():
                    pending.append(f"{where}{name}/")
        folders.append((where, mtime, sorted(names)))
    folders.sort()
    return folders


# ---- objects ------------------------------------------------------------------------------

def write_shared(path: str, data: bytes) -> None:
    """Store the shared object `data` at `path` (silently nothing when that cannot be written)."""
    _write(path, bytes(data) + OBJECT_MAGIC + checksum(data))


def write_object(path: str, data: bytes) -> None:
    """Store `data` at `path` (silently nothing when that cannot be written)."""
    _write(path, OBJECT_MAGIC + checksum(data) + bytes(data))


def _write(path: str, data: bytes) -> None:
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_atomically(path, data)
    except OSError:
        pass
    maybe_sweep(cache_root())


# ---- removing what is no longer used ------------------------------------------------------

SWEEP_EVERY_S = 86400
_TEMP_AGE_S = 3600
_STAMP = "swept.txt"            # in the store: touched by each sweep (empty)
# Only files this package writes, and their temporary files (`write_atomically`).
_STORE_FILE = re.compile(r"(runtime|entry|code|host|checkout)-[0-9a-f]{16,}[-\w.]*?"
                         r"\.(so|o|txt)(\.\d+\.[0-9a-f]+\.tmp)?")
_ENTRY_FILE = re.compile(r".+\.[0-9a-f]{16}\.cache(\.\d+\.[0-9a-f]+\.tmp)?")


def maybe_sweep(root: str) -> int:
    """`sweep` the cache folder `root` when no process has in the last `SWEEP_EVERY_S` (the
    store's stamp file says when); the number of files removed."""
    stamp = os.path.join(root, "native", _STAMP)
    now = time.time()
    try:
        st = os.lstat(stamp)
        if stat.S_ISREG(st.st_mode) and now - st.st_mtime < SWEEP_EVERY_S:
            return 0
    except FileNotFoundError:
        pass
    except OSError:
        return 0
    if not touch_stamp(stamp):          # first, so that concurrent writers do not sweep too
        return 0
    return sweep(root, now)


def touch_stamp(path: str) -> bool:
    """Give the stamp file `path` the current time, making it (0600) when absent; never
    through a symbolic link (one there is removed, not followed) nor into another kind of
    file. Whether it was touched."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                os.unlink(path)         # only the link: its target is left as it is
        except OSError:
            pass
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.utime(fd) if os.utime in os.supports_fd else os.utime(path, follow_symlinks=False)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def sweep(root: str, now: float) -> int:
    """Remove from the cache folder `root` the store's files (in ``native/``) and the cache
    entries (in `root` itself) not touched for `MAX_AGE_S` at time `now`, and their temporary
    files older than an hour; files of other names are left alone (`$SCRIPT_CACHE_DIR` may
    name a folder of the user's). The number of files removed."""
    removed = 0
    for folder, pattern in ((os.path.join(root, "native"), _STORE_FILE), (root, _ENTRY_FILE)):
        try:
            it = os.scandir(folder)
        except OSError:
            continue
        with it:
            for e in it:
                if not pattern.fullmatch(e.name):
                    continue
                age = _TEMP_AGE_S if e.name.endswith(".tmp") else MAX_AGE_S
                try:
                    st = e.stat(follow_symlinks=False)
                    if stat.S_ISREG(st.st_mode) and now - st.st_mtime > age:
                        os.unlink(e.path)
                        removed += 1
                except OSError:
                    pass
    return removed


_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def write_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` atomically: a new temporary file beside it (a random name,
    ``O_EXCL | O_NOFOLLOW``, mode 0600: nothing planted there is followed or reused), then a
    rename, which replaces whatever `path` was, a link included, without following it; the
    temporary file is removed when that fails. OSError when it cannot be written."""
    temp = f"{path}.{os.getpid()}.{os.urandom(8).hex()}.tmp"
    fd = os.open(temp, _WRITE_FLAGS, 0o600)         # before `try`: never remove another's
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
