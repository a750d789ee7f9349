"""The per-machine store: object code every process needs (the runtime library, the entry
point of each signature), and what LLVM said about this CPU, kept on disk so that loading
saved code in a new process neither compiles nor imports LLVM.

Where: ``$SCRIPT_CACHE_DIR/native`` when that is set, else ``native`` in the user's cache
directory (`user_cache_dir`).

- The host record (``host-<id>.txt``: a line naming the format, then the id, the triple,
  the CPU name, the CPU features and LLVM's version, one a line) holds what LLVM gave when it
  was first loaded on this machine. `id` digests what can be read cheaply and determines
  them: the OS and machine, /proc/cpuinfo's vendor, family, model, stepping, model name and
  flags of the first CPU (the kernel's view of CPUID, the source LLVM reads them from), and
  llvmlite's shared library (path, size, time), which fixes LLVM's version; it is found on
  ``sys.path`` as the import system would find it, without importing llvmlite. A record
  whose id is not this machine's is never read; where no id can be made (no /proc/cpuinfo,
  no llvmlite), LLVM is asked. Whenever the JIT is running, its own answer is used, and a
  record that disagrees with it is rewritten.
- An object is named by the BLAKE2b digest (`digest`) of what it was compiled from: its kind and description
  (a signature), the compiler (`compiler_fingerprint`: version and its own files), the Python
  ABI and the host target. Its file carries the digest of its bytes: a damaged file is
  ignored with a RuntimeWarning and removed (whoever compiles it next writes it again).
- A source checkout's listing (``checkout-<digest of its path>.txt``): which files the
  compiler fingerprint of a checkout ``stat``s, kept while no folder of the package changes
  (`fingerprint`).

Writes are atomic (a temporary file and a rename) and their failures silent: the store
never turns a compile or a load into an error.

This module is on the path of every cache hit and load: it imports neither json nor hashlib
(nor llvmlite, unless LLVM must be asked), and each answer is computed once a process.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
import threading
import time

# CPython's own BLAKE2b: hashlib would load OpenSSL (5-10 ms). BLAKE2b rather than SHA-256
# for what identifies and checks the store's and the cache's files: CPython's own SHA-256
# hashes three times as slowly (a cache hit hashes the runtime library, its code and its
# entry: ~60 KB), and nothing here needs SHA-256 in particular. Saved modules keep SHA-256,
# which their manifest names (`sha256`, imported when first used).
try:
    from _blake2 import blake2b as _blake2b
except ImportError:                             # another implementation
    from hashlib import blake2b as _blake2b

_MAGIC = b"script-object 2\n"
_DIGEST = 64                    # hex `digest` of the payload, after the magic
_MAX_OBJECT = 64 << 20

_host: tuple | None = None      # (triple, cpu, features, llvm_version) for this process
_host_jit = None                # the JIT `_host` was last asked of
_HOST_FORMAT = "script-host 2"  # the first line of a host record


def digest(data: bytes) -> str:
    """The hex BLAKE2b-256 of `data` (64 digits): what names and checks the store's files
    and the compile cache's entries and keys."""
    return _blake2b(data, digest_size=32).hexdigest()


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


def checksum(data: bytes) -> bytes:
    """The hex `digest` of `data` that a file of the store carries, which finds a damaged file
    (a truncated write, a flipped bit). Not zlib's CRC-32, though it computes four times as
    fast: importing zlib costs a fresh process more (0.6 ms) than hashing the two shared
    objects of a hit, except where something else imported it before."""
    return digest(data).encode("ascii")


def read_file(path: str, limit: int) -> bytes:
    """The bytes of the file at `path`, only its first ``limit + 1`` when it is larger (the
    caller tells a file over `limit` by the length). OSError when it cannot be read.

    One ``open``, ``fstat``, ``read`` and ``close``: Python's ``open(path, "rb").read(n)``
    makes eight system calls, and with ``n = limit + 1`` allocates that first (256 MiB for a
    cache entry). A regular file is read up to its size (the files read here are replaced by
    renames, never grown in place); another kind of file (a pipe) up to the end."""
    fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        regular = stat.S_ISREG(st.st_mode)
        want = min(st.st_size, limit) if regular else limit
        chunks = []
        got = 0
        while got <= want:
            chunk = os.read(fd, want + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if regular and got == st.st_size:
                break
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


_OPEN_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def cache_root() -> str:
    """Where the compile cache and this store live: $SCRIPT_CACHE_DIR, else the user's."""
    return os.environ.get("SCRIPT_CACHE_DIR") or user_cache_dir()


def user_cache_dir() -> str:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~/AppData/Local")
        return os.path.join(base, "script", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/script")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "script")


def python_abi() -> str:
    """The CPython ABI object code depends on: implementation, minor version, ABI flags."""
    impl = sys.implementation
    tag = impl.cache_tag or f"{impl.name}-{sys.version_info[0]}{sys.version_info[1]}"
    return tag + getattr(sys, "abiflags", "")


# What a checkout's fingerprint leaves out: top-level entries of the package that compiling,
# loading and the cache never import (the command line, the examples and the demo that shows
# them); tests/test_cache.py checks that nothing else imports them.
NOT_COMPILER = frozenset({"cli", "examples", "demo.py", "__main__.py"})


@functools.cache
def compiler_fingerprint() -> str:
    """What identifies the compiler's own code: a changed compiler misses. An installed copy
    (in site-packages) changes only with a new installation, which rewrites its RECORD: one
    ``stat``. A source checkout (an editable install, where files are edited in place, which
    changes neither a directory's time nor its listing) is described by the path, size and
    modification time of each of its ``.py`` files but those of `NOT_COMPILER` (~130): a
    ``stat`` each, the floor of what finds an edit in place. Which files there are is kept in
    the store (`fingerprint`), so that listing the package's folders is not paid each time."""
    return fingerprint(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def fingerprint(package: str, records: str | None = None) -> str:
    """`compiler_fingerprint` of the package directory `package`.

    Its files are listed once and the listing kept in `records` (the store's folder by
    default) as ``checkout-<digest of the path>.txt``: a line naming the format, the package
    and `NOT_COMPILER` (another set of files lists again), then a line per folder, tab-separated: its path below the package, its
    modification time when it was listed, its ``.py`` files. A folder's time changes
    whenever a file in it is added, removed or renamed (an editor's save by renaming too), so
    a listing is used while every folder has its recorded time and every file is there, and
    made again otherwise; either way each file is ``stat``ed. A listing with a folder changed
    in the last `_RACY_NS` is not kept: a file added to it in the same tick of the clock
    after the listing would leave its time as recorded (git's "racy" entries)."""
    parent = os.path.dirname(package)
    if os.path.basename(parent) in ("site-packages", "dist-packages"):
        from script import __version__
        for path in (os.path.join(parent, f"script-{__version__}.dist-info", "RECORD"),
                     os.path.join(package, "__init__.py")):
            try:
                st = os.stat(path)
            except OSError:
                continue
            return digest(f"installed {path} {st.st_size} {st.st_mtime_ns}".encode(
                "utf-8", "backslashreplace"))[:16]
    record = os.path.join(records or os.path.join(cache_root(), "native"), "checkout-"
                          f"{digest(package.encode('utf-8', 'backslashreplace'))[:24]}.txt")
    head = "\t".join([_CHECKOUT_FORMAT, package, *sorted(NOT_COMPILER)])  # what is listed
    folders = _read_listing(record, head)
    if folders is not None:
        try:
            return _files_fingerprint(package, folders, check=True)
        except OSError:                 # a folder changed, or a file is gone
            pass
    folders = _list_package(package)
    lines = [head] + ["\t".join([where, str(mtime), *names]) for where, mtime, names in folders]
    settled = time.time_ns() - _RACY_NS
    if all(mtime < settled for _, mtime, _ in folders) and not any("\n" in line for line in lines) \
            and not any("\t" in name for where, _, names in folders for name in [where, *names]):
        _write(record, ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))
    return _files_fingerprint(package, folders, check=False)


_CHECKOUT_FORMAT = "script-checkout 1"
_RACY_NS = 2_000_000_000        # what a folder's time may lag behind a change to it, at most


def _read_listing(record: str, head: str) -> list | None:
    """The folders of the listing at `record` (`fingerprint`) when its first line is `head`."""
    try:
        text = read_file(record, 1 << 20).decode("utf-8", "surrogateescape")
    except OSError:
        return None
    lines = text.split("\n")
    if lines[0] != head or lines[-1]:
        return None
    folders = []
    for line in lines[1:-1]:
        where, mtime, *names = line.split("\t")
        if not mtime.isdigit():
            return None
        folders.append((where, int(mtime), names))
    return folders


def _list_package(package: str) -> list:
    """``(folder, its time, its .py files)`` for each folder of `package` (as ``""`` or
    ``"a/b/"``) but ``__pycache__`` and `NOT_COMPILER`'s, in name order; a folder's time is
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
                if not where and name in NOT_COMPILER:
                    continue
                if name.endswith(".py"):
                    names.append(name)
                elif name != "__pycache__" and e.is_dir():
                    pending.append(f"{where}{name}/")
        folders.append((where, mtime, sorted(names)))
    folders.sort()
    return folders


def _files_fingerprint(package: str, folders: list, check: bool) -> str:
    """The digest of the path, size and time of each file of `folders`; with `check`, OSError
    when a folder's time is not the recorded one (or a file is gone)."""
    lines = []
    for where, mtime, names in folders:
        folder = os.path.join(package, where)
        if check and os.stat(folder).st_mtime_ns != mtime:
            raise OSError("the folder changed")
        for name in names:
            st = os.stat(folder + name)     # `folder` ends with a separator
            lines.append(f"{where}{name} {st.st_size} {st.st_mtime_ns}")
    return digest("\n".join(lines).encode("utf-8", "backslashreplace"))[:16]


# ---- the host -----------------------------------------------------------------------------

def host_target() -> tuple:
    """(triple, CPU name, CPU features, LLVM version) of the JIT, read from the host record
    when the JIT is not running (see the module docstring)."""
    global _host, _host_jit
    jit_module = sys.modules.get("script.backend.llvm.jit")
    jit = None if jit_module is None else jit_module._jit
    if jit is not None:
        if jit is _host_jit:
            return _host
        live = _ask_llvm()
        if live != _host and live != _read_host_record():
            _write_host_record(live)
        _host, _host_jit = live, jit
        return live
    if _host is None:
        _host = _read_host_record()
        if _host is None:
            _host = _ask_llvm()
            _write_host_record(_host)
    return _host


def _ask_llvm() -> tuple:
    import llvmlite.binding as llvm
    from script.backend.llvm.jit import get_jit
    jit = get_jit()
    return (jit.triple, jit.cpu, jit.features, ".".join(map(str, llvm.llvm_version_info)))


@functools.cache
def host_id() -> str | None:
    """The digest that names this machine's host record, or None where it cannot be made."""
    so = _llvmlite_library()
    if so is None:
        return None
    try:
        fd = os.open("/proc/cpuinfo", os.O_RDONLY | _OPEN_FLAGS)
        try:
            text = os.read(fd, 4096)
            while b"\n\n" not in text and len(text) < 1 << 16:     # the first CPU's block
                more = os.read(fd, 4096)
                if not more:
                    break
                text += more
        finally:
            os.close(fd)
        st = os.stat(so)
    except OSError:
        return None
    first = text.decode("ascii", "replace").split("\n\n", 1)[0]
    keys = ("vendor_id", "cpu family", "model", "model name", "stepping", "flags")
    fields = {}
    for line in first.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in keys:
            fields[key.strip()] = " ".join(value.split())
    if set(fields) != set(keys):
        return None
    lines = [f"host 2 {sys.platform} {os.uname().machine}",
             f"llvmlite {so} {st.st_size} {st.st_mtime_ns}"] + [f"{k}: {fields[k]}" for k in keys]
    return digest("\n".join(lines).encode("utf-8", "backslashreplace"))


def _llvmlite_library() -> str | None:
    """The path of llvmlite's shared library (what fixes LLVM's version): beside the imported
    llvmlite, else in the first ``sys.path`` entry that has the package, as the import
    system finds it (importing llvmlite costs a millisecond a hit does not need)."""
    tail = os.path.join("binding", "libllvmlite.so")
    module = sys.modules.get("llvmlite")
    if module is not None and getattr(module, "__file__", None):
        candidates = [os.path.dirname(module.__file__)]
    else:
        candidates = [os.path.join(p or os.curdir, "llvmlite") for p in sys.path
                      if isinstance(p, str)]
    for folder in candidates:
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            so = os.path.join(os.path.abspath(folder), tail)
            return so if os.path.isfile(so) else None
    return None


def _host_record_path() -> str | None:
    hid = host_id()
    return None if hid is None else os.path.join(cache_root(), "native", f"host-{hid[:24]}.txt")


def _read_host_record() -> tuple | None:
    path = _host_record_path()
    if path is None:
        return None
    try:
        lines = read_file(path, 1 << 16).decode("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) != 7 or lines[0] != _HOST_FORMAT or lines[1] != host_id() or lines[6] \
            or not all(lines[2:6]):
        return None
    return tuple(lines[2:6])


def _write_host_record(value: tuple) -> None:
    path = _host_record_path()
    if path is not None and all(isinstance(v, str) and v and "\n" not in v for v in value):
        _write(path, "\n".join([_HOST_FORMAT, host_id(), *value, ""]).encode("utf-8"))


# ---- objects ------------------------------------------------------------------------------

def object_path(kind: str, description: str) -> str:
    """The file of the object `kind` compiled from `description` here (see the docstring)."""
    return _path(kind, description, "o")


def shared_path(kind: str, description: str) -> str:
    """The file of the shared object `kind` linked from `description` here."""
    return _path(kind, description, "so")


def _path(kind: str, description: str, suffix: str) -> str:
    from script import __version__
    key = "\n".join([f"object 1 {kind}", description, f"compiler {__version__} "
                     f"{compiler_fingerprint()}", f"python {python_abi()}",
                     "target " + " ".join(host_target())])
    return os.path.join(cache_root(), "native", f"{kind}-{digest(key.encode())[:32]}.{suffix}")


def read_object(path: str) -> bytes | None:
    """The object stored at `path` (`object_path`), or None when there is none or it is damaged
    (with a RuntimeWarning)."""
    try:
        data = read_file(path, _MAX_OBJECT + len(_MAGIC) + _DIGEST)
    except OSError:
        return None
    head = len(_MAGIC) + _DIGEST
    payload = data[head:]
    if data[:len(_MAGIC)] != _MAGIC or data[len(_MAGIC):head] != checksum(payload) \
            or len(payload) > _MAX_OBJECT:
        _discard(path, "object")
        return None
    return payload


def check_shared(path: str) -> bool:
    """Whether the shared object at `path` (`shared_path`) is there and whole: its file ends
    with the digest of what precedes it (the system's loader reads only what the ELF headers
    name). A damaged one is removed with a RuntimeWarning."""
    try:
        data = read_file(path, _MAX_OBJECT + len(_MAGIC) + _DIGEST)
    except OSError:
        return False
    head, tail = data[:-len(_MAGIC) - _DIGEST], data[-len(_MAGIC) - _DIGEST:]
    if tail[:len(_MAGIC)] == _MAGIC and tail[len(_MAGIC):] == checksum(head) \
            and len(data) <= _MAX_OBJECT:
        return True
    _discard(path, "shared object")
    return False


def write_shared(path: str, data: bytes) -> None:
    """Store the shared object `data` at `path` (silently nothing when that cannot be written)."""
    _write(path, bytes(data) + _MAGIC + checksum(data))


def _discard(path: str, what: str) -> None:
    import warnings             # not before: few processes warn, and importing it costs one
    warnings.warn(f"script: ignoring a damaged {what} {path}; compiling it again",
                  RuntimeWarning, stacklevel=4)
    try:
        os.unlink(path)             # so that whoever compiles it next writes it again
    except OSError:
        pass


def write_object(path: str, data: bytes) -> None:
    """Store `data` at `path` (silently nothing when that cannot be written)."""
    _write(path, _MAGIC + checksum(data) + bytes(data))


def _write(path: str, data: bytes) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomically(path, data)
    except OSError:
        pass


def write_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` atomically (a temporary file beside it, named by process and
    thread, then a rename; removed when that fails). OSError when it cannot be written."""
    temp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        with open(temp, "wb") as f:
            f.write(data)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
