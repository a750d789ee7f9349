"""The load path: everything a process runs to call code it did not compile — a cache hit, a
saved module — without LLVM, the frontend or ctypes: reading the per-machine store
(native.store has its format and its writers), loading the runtime library, the
compiled-function type, and linking saved object code. One module, beside script.cache, and
not in the backend's packages: a fresh process pays ~0.3 ms for each module and package it
imports, and a cache hit is meant to cost under 5 ms in all (docs/saved-modules.md). So this
imports only what `import script` has loaded, even where Python starts without site (which
imports re, struct and warnings in many installations, and not in a clean one), and
CPython's BLAKE2b (tests/test_loader.py checks what a hit imports).

The store (native.store): ``$SCRIPT_CACHE_DIR/native``, else ``native`` in the user's cache
directory, used only when it is the user's and closed to others (`cache_root`). Its files
are named by the `digest` of what they were compiled from — their kind and description, the
compiler (`compiler_fingerprint`), the Python ABI and the host target (`host_target`, read
from the host record without LLVM) — and carry the `mac` of their bytes, keyed with the
user's secret (`user_key`): a damaged or foreign one is ignored with a RuntimeWarning and
removed.

The runtime library (runtime.shared has its contents) is, on x86-64 Linux, a shared object in
the store (linked by native.elfso), imported as the extension module ``script._runtime``
(runtime.pymodule) with RTLD_GLOBAL, so that the shared objects of compiled code find its
functions by name. Elsewhere, or where elfso declines, runtime.shared compiles it into the
JIT. `runtime_library()` has its module and, on demand, its addresses either way.

The compiled-function type is a heap type with a vectorcall slot, made by the runtime module's
``new_type`` (``PyType_FromSpec``: flags HAVE_VECTORCALL | BASETYPE | HAVE_GC |
DISALLOW_INSTANTIATION; ``tp_call`` is ``PyVectorcall_Call``; ``__vectorcalloffset__``,
``__dictoffset__``, ``__weaklistoffset__`` members; traverse/clear/dealloc from
runtime.dispatch). `make_function_type(name, methods)` assigns `methods` onto the type itself
(a Python subclass would lose the vectorcall fast path; ``__dict__`` and ``__weakref__`` are
skipped). Instances come only from `new_instance`; each has a ``__dict__``, and calls
`fallback(*args, **kwargs)` until `set_specializations` installs entry points (runtime.entry)
to try first. The runtime module writes an instance with the GIL held, in an order that keeps
a concurrent call safe: `ntry` is zeroed before the table changes and set last
(runtime.layout, runtime.dispatch).

Saved object code: `load_object` links a library's object with the entry point of its
signature from the store, as a shared object that the system's loader loads — linked once by
elfso and kept in the store, named by a digest of the object and its entry point's file; it
imports the runtime's functions, the C-API, libc and libm by name, and what the system's
loader cannot bind (NumPy's API and objects, the random generators' states, BLAS and LAPACK:
runtime.symbols) is written into its GOT after loading — else linked in Python by
native.elfload. When the store has no entry point for the signature yet, it is compiled
(runtime.library `entry_point`, which stores it). It returns None, and the caller links
with LLVM instead (backend `load_object`), only where neither runs (not x86-64 Linux); where
they run, an object elfload declines is an error (RuntimeError: the caller's LoadError),
never given to LLVM's linker, which aborts the process on some malformed objects. An
entry point depends on its signature, the positions of the parameters that take NumPy
scalars, and the stack size limit (runtime.entry `stack_budget`), so all three name it.

`load_specialization` turns a saved module's or a cache entry's record into a
`LoadedSpecialization`, with the object code linked or the IR compiled again.
"""

from __future__ import annotations

import functools
import marshal
import os
import stat
import sys
import threading
import time
from types import SimpleNamespace

from script.errors import LoadError

# CPython's own BLAKE2b: hashlib would load OpenSSL (5-10 ms). BLAKE2b rather than SHA-256,
# which hashes three times as slowly (a hit hashes the runtime library, its code and its
# entry: ~60 KB); saved modules keep SHA-256, which their manifest names (native.store).
def _load_blake2():
    """CPython's ``_blake2`` from the interpreter's lib-dynload folder by the import system's
    own loader, without the search of every ``sys.path`` entry before that folder (a listing
    of each not yet searched: 0.3-0.5 ms of a fresh process's hit); the search where that
    folder is not on the path or the module not in it."""
    module = sys.modules.get("_blake2")
    if module is None:
        bootstrap = sys.modules["_frozen_importlib"]
        external = sys.modules["_frozen_importlib_external"]
        for entry in sys.path:
            if isinstance(entry, str) and os.path.basename(entry) == "lib-dynload":
                for suffix in external.EXTENSION_SUFFIXES:
                    path = os.path.join(entry, "_blake2" + suffix)
                    if os.path.isfile(path):
                        loader = external.ExtensionFileLoader("_blake2", path)
                        spec = external.spec_from_file_location("_blake2", path, loader=loader)
                        module = bootstrap._load(spec)
                        break
                break
    if module is None:
        import _blake2 as module
    return module.blake2b


try:
    _blake2b = _load_blake2()
except (ImportError, KeyError, AttributeError):     # another implementation
    from hashlib import blake2b as _blake2b

ENTRY_SYMBOL = "script.entry"       # llvm.abi's names (tests/test_elfload.py checks them)
KERNEL_SYMBOL = "script.kernel"
SIGNATURE_SYMBOL = "script.signature"   # `signature_symbol`
MODULE_NAME, INIT_SYMBOL = "script._runtime", "PyInit__runtime"    # runtime.pymodule's

OBJECT_MAGIC = b"script-object 2\n"     # a store file's, before (objects) or after (shared)
DIGEST_LENGTH = 64                      # hex `digest` of the payload, after the magic
MAX_OBJECT = 64 << 20
HOST_FORMAT = "script-host 2"           # the first line of a host record
CHECKOUT_FORMAT = "script-checkout 1"   # the first line of a checkout's listing

# What a checkout's fingerprint leaves out: top-level entries of the package that compiling,
# loading and the cache never import (the command line, the examples and the demo that shows
# them); tests/test_cache.py checks that nothing else imports them.
NOT_COMPILER = frozenset({"cli", "examples", "demo.py", "__main__.py"})

_OPEN_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def digest(data: bytes) -> str:
    """The hex BLAKE2b-256 of `data` (64 digits): what names the store's files and the
    compile cache's entries and keys. Anyone can compute it: it names, it does not vouch."""
    return _blake2b(data, digest_size=32).hexdigest()


def mac(data: bytes) -> str:
    """The hex BLAKE2b-256 of `data` keyed with the user's secret (`user_key`): BLAKE2's own
    keyed mode (RFC 7693), a MAC, which only this user can compute. What a file of the store
    and a cache entry carry, so that a file another user made (or edited and re-hashed) is
    damaged, never run. Not `hmac` (hashlib would load OpenSSL on the path of a hit)."""
    return _blake2b(data, digest_size=32, key=user_key()).hexdigest()


def checksum(data: bytes) -> bytes:
    """The `mac` a file of the store carries, which finds a damaged or foreign file. Not
    zlib's CRC-32, though it is four times as fast: importing zlib costs a fresh process
    more (0.6 ms)."""
    return mac(data).encode("ascii")


# ---- the user's secret and private directories ---------------------------------------------

KEY_FORMAT = b"script-key 1\n"         # a key file: this line, 64 hex digits, a line break
KEY_BYTES = 32
_keys: dict = {}                        # key file -> its key, read once a process
_warned: set = set()                    # what `warn_once` said


def config_dir() -> str:
    """The user's configuration folder of script, where the secret key is kept (never in the
    cache folder, which $SCRIPT_CACHE_DIR may place where others can read)."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or os.path.expanduser("~/AppData/Roaming")
        return os.path.join(base, "script")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/script")
    return os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config"),
                        "script")


def key_path() -> str:
    return os.path.join(config_dir(), "key")


def user_key() -> bytes:
    """The user's secret (32 bytes): made on first use in `key_path` (mode 0600, in a folder
    made 0700), then read from there. It signs saved modules (script.saved_trust) and keys
    the `mac` of the store's files and the cache's entries. A key file that is not a
    regular file owned by this user and closed to others is not used: the process then
    makes a key of its own, with one warning, so that nothing it writes verifies in another
    process (the cache then misses and loads recompile from IR: slower, never unsafe)."""
    path = key_path()
    key = _keys.get(path)
    if key is None:
        try:
            key = _read_key(path)
        except FileNotFoundError:
            try:
                key = _make_key(path)
            except OSError as e:
                key = _ephemeral_key(path, e)
        except (OSError, ValueError) as e:
            key = _ephemeral_key(path, e)
        _keys[path] = key
    return key


def _read_key(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS | _NOFOLLOW)
    try:
        why = not_private(os.fstat(fd), regular=True)
        if why is not None:
            raise PermissionError(why)
        data = os.read(fd, 256)
    finally:
        os.close(fd)
    hex_key = data[len(KEY_FORMAT):].strip()
    if not data.startswith(KEY_FORMAT) or len(hex_key) != 2 * KEY_BYTES:
        raise ValueError("not a script key file")
    return bytes.fromhex(hex_key.decode("ascii"))


def _make_key(path: str) -> bytes:
    """A new key, written to a temporary file and linked to `path` (so that two processes
    making one at once both end up with the one that was linked first)."""
    import secrets              # only the first process of a user makes a key
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    why = not_private(os.stat(folder))
    if why is not None:
        raise PermissionError(f"{folder}: {why}")
    temp = f"{path}.{os.getpid()}.{secrets.token_hex(8)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS | _NOFOLLOW, 0o600)
    try:
        try:
            os.write(fd, KEY_FORMAT + secrets.token_hex(KEY_BYTES).encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(temp)
    return _read_key(path)


def _ephemeral_key(path: str, error: Exception) -> bytes:
    warn_once(f"script: the key file {path} cannot be used ({error}); this process uses a key "
              "of its own, so saved modules it writes load elsewhere from their IR and it "
              "reuses no compile cache entries")
    return os.urandom(KEY_BYTES)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_UID = os.getuid() if hasattr(os, "getuid") else None


def not_private(st, regular: bool = False) -> str | None:
    """None when the file whose `os.stat` result is `st` is owned by this user and no one
    else may write it (a folder, or with `regular` a regular file that no one else may read
    either), else why not. Always None where there are no user ids (Windows)."""
    if not hasattr(os, "getuid"):
        return None
    if regular and not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if not regular and not stat.S_ISDIR(st.st_mode):
        return "not a directory"
    if st.st_uid != os.getuid():
        return f"owned by user id {st.st_uid}, not by you ({os.getuid()})"
    if st.st_mode & (0o077 if regular else 0o022):
        return f"mode {stat.S_IMODE(st.st_mode):04o} lets others " + \
            ("read or write it" if regular else "write in it")
    return None


def warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        import warnings         # not before: few processes warn, and importing it costs one
        warnings.warn(message, RuntimeWarning, stacklevel=3)


# A file of the store (or a cache entry) read this long after it was last written or
# touched is touched again: native.store `sweep` removes those untouched for `MAX_AGE_S`.
TOUCH_AFTER_S = 86400
MAX_AGE_S = 30 * 86400


def read_file(path: str, limit: int, touch: bool = False) -> bytes:
    """The bytes of the file at `path`, only its first ``limit + 1`` when it is larger (the
    caller tells a file over `limit` by the length). OSError when it cannot be read. With
    `touch`, a file last modified more than `TOUCH_AFTER_S` ago gets the current time (a
    file of the store in use, which the sweep keeps).

    One ``open``, ``fstat``, ``read`` and ``close``: Python's ``open(path, "rb").read(n)``
    makes eight system calls, and with ``n = limit + 1`` allocates that first. A regular file
    is read up to its size (the files read here are replaced by renames, never grown in
    place); another kind of file (a pipe) up to the end."""
    fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        regular = stat.S_ISREG(st.st_mode)
        if touch and regular and st.st_mtime < time.time() - TOUCH_AFTER_S:
            try:
                os.utime(fd) if os.utime in os.supports_fd else \
                    os.utime(path, follow_symlinks=False)    # the file read, never a link's target
            except OSError:
                pass
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


_roots: dict = {}           # the cache folder asked for -> the one used (`cache_root`)


def cache_root() -> str:
    """Where the compile cache and the store live: $SCRIPT_CACHE_DIR, else the user's —
    when that folder and its ``native`` folder are owned by this user and no one else may
    write in them (made so, 0700, when absent), as pip requires of its cache. Otherwise the
    cache is disabled, with one warning: this process keeps the store in a private
    temporary folder of its own (removed at exit), and reuses nothing another process made.
    Checked once a process for each folder asked for."""
    wanted = os.environ.get("SCRIPT_CACHE_DIR") or user_cache_dir()
    root = _roots.get(wanted)
    if root is None:
        root = _roots[wanted] = _checked_root(wanted)
    return root


def _checked_root(root: str) -> str:
    why = None
    for folder in (root, os.path.join(root, "native")):
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            why = not_private(os.stat(folder))
        except OSError as e:
            why = e.strerror or str(e)
        if why is not None:
            warn_once(f"script: the cache folder {folder!r} is not owned by you or others may "
                      f"write in it ({why}); the compile cache is disabled for this process")
            return private_folder()
    return root


_private: list = []


def private_folder() -> str:
    """A folder of this process's own (0700), removed at exit."""
    if not _private:
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="script-cache-")
        os.mkdir(os.path.join(folder, "native"), 0o700)
        atexit.register(shutil.rmtree, folder, True)
        _private.append(folder)
    return _private[0]


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


@functools.cache
def is_supported() -> bool:
    """Whether this process can run what elfload and elfso make (Linux on x86-64)."""
    return sys.platform.startswith("linux") and os.uname().machine == "x86_64" \
        and sys.maxsize > 2**32


# ---- the compiler's fingerprint -----------------------------------------------------------

@functools.cache
def compiler_fingerprint() -> str:
    """What identifies the compiler's own code: a changed compiler misses. An installed copy
    (in site-packages) changes only with a new installation, which rewrites its RECORD: one
    ``stat``. A source checkout (an editable install, where files are edited in place, which
    changes neither a folder's time nor its listing) is described by the path, size and
    modification time of each of its ``.py`` files but those of `NOT_COMPILER` (~160): a
    ``stat`` each, the floor of what finds an edit in place."""
    return fingerprint(os.path.dirname(os.path.abspath(__file__)))     # the package's folder


def fingerprint(package: str, records: str | None = None) -> str:
    """`compiler_fingerprint` of the package directory `package`. Which files a checkout has
    is kept in `records` (the store's folder by default) as a listing that native.store
    `list_checkout` writes and describes; it is used while every folder has its recorded
    time and every file is there, and made again otherwise; either way each file is
    ``stat``ed."""
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
    head = "\t".join([CHECKOUT_FORMAT, package, *sorted(NOT_COMPILER)])  # what is listed
    folders = _read_listing(record, head)
    if folders is not None:
        try:
            return files_fingerprint(package, folders, check=True)
        except OSError:                 # a folder changed, or a file is gone
            pass
    from script.backend.native.store import list_checkout
    return files_fingerprint(package, list_checkout(package, record, head), check=False)


def _read_listing(record: str, head: str) -> list | None:
    """The folders of the listing at `record` when its first line is `head`."""
    try:
        text = read_file(record, 1 << 20, touch=True).decode("utf-8", "surrogateescape")
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


def files_fingerprint(package: str, folders: list, check: bool) -> str:
    """The digest of the path, size and time of each file of `folders`; with `check`, OSError
    when a folder's time is not the recorded one (or a file is gone)."""
    stat = os.stat
    values = []                         # each file's size and time, in the listing's order
    for where, mtime, names in folders:
        folder = os.path.join(package, where)
        if check and stat(folder).st_mtime_ns != mtime:
            raise OSError("the folder changed")
        for name in names:
            st = stat(folder + name)        # `folder` ends with a separator
            values += (st.st_size, st.st_mtime_ns)
    listing = "\n".join(where + "\t" + "\t".join(names) for where, _, names in folders)
    # marshal's version 2 (no references between objects) writes a list of ints the same way
    # in every process; formatting 300 ints as text took a fifth of this function's time
    return digest(listing.encode("utf-8", "backslashreplace") + b"\0"
                  + marshal.dumps(values, 2))[:16]


# ---- the host -----------------------------------------------------------------------------

_host: tuple | None = None      # (triple, cpu, features, llvm_version) for this process
_host_jit = None                # the JIT `_host` was last asked of


def host_target() -> tuple:
    """(triple, CPU name, CPU features, LLVM version): the JIT's when it is running (a host
    record that disagrees is rewritten), else the host record's (native.store
    `ask_llvm` when there is none)."""
    global _host, _host_jit
    jit_module = sys.modules.get("script.backend.llvm.jit")
    jit = None if jit_module is None else jit_module._jit
    if jit is not None:
        if jit is _host_jit:
            return _host
        from script.backend.native.store import ask_llvm, write_host_record
        live = ask_llvm()
        if live != _host and live != read_host_record():
            write_host_record(live)
        _host, _host_jit = live, jit
        return live
    if _host is None:
        _host = read_host_record()
        if _host is None:
            from script.backend.native.store import ask_llvm, write_host_record
            _host = ask_llvm()
            write_host_record(_host)
    return _host


@functools.cache
def host_id() -> str | None:
    """The digest that names this machine's host record, or None where it cannot be made: the
    OS and machine, /proc/cpuinfo's vendor, family, model, stepping, model name and flags of
    the first CPU (the kernel's view of CPUID, which LLVM reads too), and llvmlite's shared
    library (path, size, time), which fixes LLVM's version."""
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
    """The path of llvmlite's shared library: beside the imported llvmlite, else in the first
    ``sys.path`` entry that has the package, as the import system finds it (importing
    llvmlite costs a millisecond a hit does not need)."""
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


def host_record_path() -> str | None:
    hid = host_id()
    return None if hid is None else os.path.join(cache_root(), "native", f"host-{hid[:24]}.txt")


def read_host_record() -> tuple | None:
    path = host_record_path()
    if path is None:
        return None
    try:
        lines = read_file(path, 1 << 16, touch=True).decode("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) != 7 or lines[0] != HOST_FORMAT or lines[1] != host_id() or lines[6] \
            or not all(lines[2:6]):
        return None
    return tuple(lines[2:6])


# ---- the store's files --------------------------------------------------------------------

def object_path(kind: str, description: str) -> str:
    """The file of the object `kind` compiled from `description` here."""
    return _path(kind, description, "o")


def shared_path(kind: str, description: str) -> str:
    """The file of the shared object `kind` linked from `description` here."""
    return _path(kind, description, "so")


def signature_symbol(entry: str, param_types, ret_type) -> str:
    """The symbol that object code compiled for the IR function `entry` of this signature
    defines (backend.llvm.lower, cuda.compile), and that linking it requires: a manifest or
    entry that declares other types than the code was compiled for does not link (a
    LoadError, not a call that reads its arguments or result as the wrong types)."""
    text = f"{entry}({', '.join(map(str, param_types))}) -> {ret_type}"
    return f"{SIGNATURE_SYMBOL}.{digest(text.encode('utf-8', 'surrogateescape'))[:32]}"


def _path(kind: str, description: str, suffix: str) -> str:
    from script import __version__
    key = "\n".join([f"object 2 {kind}", description, f"compiler {__version__} "
                     f"{compiler_fingerprint()}", f"python {python_abi()}",
                     "target " + " ".join(host_target())])
    return os.path.join(cache_root(), "native", f"{kind}-{digest(key.encode())[:32]}.{suffix}")


def read_object(path: str) -> bytes | None:
    """The object stored at `path` (`object_path`), or None when there is none or it is
    damaged (with a RuntimeWarning)."""
    try:
        data = read_file(path, MAX_OBJECT + len(OBJECT_MAGIC) + DIGEST_LENGTH, touch=True)
    except OSError:
        return None
    head = len(OBJECT_MAGIC) + DIGEST_LENGTH
    payload = data[head:]
    if data[:len(OBJECT_MAGIC)] != OBJECT_MAGIC or data[len(OBJECT_MAGIC):head] != \
            checksum(payload) or len(payload) > MAX_OBJECT:
        _discard(path, "object")
        return None
    return payload


def check_shared(path: str) -> bool:
    """Whether the shared object at `path` (`shared_path`) is there and whole: its file ends
    with the digest of what precedes it (the system's loader reads only what the ELF headers
    name). A damaged one is removed with a RuntimeWarning.

    A file found whole gets a modification time whose nanoseconds are `_seal`'s for its name.
    While they are, the file has not been written since (a write sets the time to the clock's,
    which ends with those nanoseconds once in 10**9 writes), and one ``stat`` replaces reading
    and hashing it (git trusts its index's ``stat`` data in the same way): 0.3 ms of a fresh
    process's cache hit, which checks the runtime library and the function's code. A file
    system without nanosecond times never keeps the seal, and its files are hashed each time."""
    seal = _seal(path)
    try:
        st = os.lstat(path)         # a link is not a sealed file: read and checked below
    except OSError:
        return False
    if st.st_mtime_ns % 1_000_000_000 == seal and stat.S_ISREG(st.st_mode) \
            and st.st_uid == _UID:          # another's file is read and MAC-checked below
        if st.st_mtime < time.time() - TOUCH_AFTER_S:
            _set_seal(path, seal)           # in use: the sweep keeps it (`read_file`'s touch)
        return True
    try:
        data = read_file(path, MAX_OBJECT + len(OBJECT_MAGIC) + DIGEST_LENGTH)
    except OSError:
        return False
    head, tail = data[:-len(OBJECT_MAGIC) - DIGEST_LENGTH], data[-len(OBJECT_MAGIC) - DIGEST_LENGTH:]
    if tail[:len(OBJECT_MAGIC)] == OBJECT_MAGIC and tail[len(OBJECT_MAGIC):] == checksum(head) \
            and len(data) <= MAX_OBJECT:
        _set_seal(path, seal)
        return True
    _discard(path, "shared object")
    return False


def _seal(path: str) -> int:
    """The nanoseconds of the modification time of a checked shared object named as `path`."""
    return int(digest(os.path.basename(path).encode("utf-8", "surrogateescape"))[:15], 16) \
        % 1_000_000_000


def _set_seal(path: str, seal: int) -> None:
    now = time.time_ns()
    sealed = now - now % 1_000_000_000 + seal
    try:
        os.utime(path, ns=(now, sealed if sealed <= now else sealed - 1_000_000_000),
                 follow_symlinks=False)
    except OSError:
        pass


def _discard(path: str, what: str) -> None:
    import warnings             # not before: few processes warn, and importing it costs one
    warnings.warn(f"script: ignoring a damaged {what} {path}; compiling it again",
                  RuntimeWarning, stacklevel=4)
    try:
        os.unlink(path)             # so that whoever compiles it next writes it again
    except OSError:
        pass


# ---- the runtime library ------------------------------------------------------------------

class RuntimeLibrary:
    """The loaded runtime functions: `module`, the runtime's extension module
    (runtime.pymodule), `address[name]` for each function (looked up when first asked for: a
    hit through a shared object needs none), and `path`, the shared object's, or None when
    the JIT linked them (`tracker`)."""

    def __init__(self, address: dict | None, module, path: str | None = None, tracker=None,
                 handle: int = 0):
        self._address = address
        self.module = module
        self.path = path
        self._tracker = tracker
        self._handle = handle

    @property
    def address(self) -> dict:
        if self._address is None:
            self._address = {name: self.module.dlsym(self._handle, name.encode())
                             for name in self.module.names.decode().split("\n")}
        return self._address


_runtime: RuntimeLibrary | None = None
_runtime_lock = threading.Lock()


def runtime_library() -> RuntimeLibrary:
    """The runtime functions, loaded on first use, then kept for the process (never unloaded:
    the type of compiled functions points into them)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = _load_runtime()
        return _runtime


def _load_runtime() -> RuntimeLibrary:
    if is_supported():
        path = shared_path("runtime", "runtime library")
        module = _import(path)
        if module is None:
            from script.backend.runtime.shared import compile_runtime
            link_shared(path, [compile_runtime()[0]])
            module = _import(path)
        if module is not None:
            return RuntimeLibrary(None, module, path=path, handle=module.dlopen(path.encode()))
    from script.backend.runtime.shared import load_in_jit
    return RuntimeLibrary(*load_in_jit())


def _import(path: str):
    """The runtime's extension module from the shared object at `path`, loaded with
    RTLD_GLOBAL; None when the store has none or it does not load."""
    if not check_shared(path):
        return None
    import _imp
    flags = sys.getdlopenflags()
    sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
    try:
        return _imp.create_dynamic(SimpleNamespace(name=MODULE_NAME, origin=path))   # a spec
    except ImportError:
        return None
    finally:
        sys.setdlopenflags(flags)


_hook_lock = threading.Lock()
_hooked = []                # the runtime module, once the hook was installed


def install_sigint_hook() -> bool:
    """Put the runtime's SIGINT hook (runtime.interrupt) in front of Python's handler, unless
    it is there already or Python does not handle SIGINT (through a Python-level handler:
    ``signal.getsignal(SIGINT)`` is callable); called whenever code is compiled or loaded.
    Returns whether the hook is installed. At exit SIGINT goes back to the handler the hook
    chains to, before the JIT's code is unmapped."""
    import _signal as signal        # the C module, without `signal`'s enums
    if os.name != "posix" or not hasattr(signal, "SIGINT") \
            or not callable(signal.getsignal(signal.SIGINT)):
        return False
    module = runtime_library().module
    with _hook_lock:
        installed = bool(module.sigint_hook(1))
        if installed and not _hooked:
            import atexit
            atexit.register(_uninstall)
            _hooked.append(module)
        return installed


def _uninstall() -> None:
    with _hook_lock:
        for module in _hooked:
            module.sigint_hook(0)


# ---- the compiled-function type -----------------------------------------------------------

# Attributes of a class body that describe that class, not methods: never copied.
_TYPE_OWN = frozenset({"__dict__", "__weakref__"})

_names_alive = []       # type names a type may point into (CPython < 3.12), kept for good
_types: dict[int, type] = {}    # the types made here, by id (kept alive)


def make_function_type(name: str, methods: dict | None = None) -> type:
    """A new compiled-function type called `name` (``module.Name`` sets ``__module__``)."""
    qualified = (name if "." in name else f"script.{name}").encode()
    _names_alive.append(qualified)
    tp = runtime_library().module.new_type(qualified)
    _types[id(tp)] = tp
    for key, value in (methods or {}).items():
        if key not in _TYPE_OWN:
            setattr(tp, key, value)
    return tp


@functools.cache
def plain_function_type() -> type:
    """A compiled-function type with no methods beyond a repr (for `compile_callable`)."""
    return make_function_type("script.backend.CompiledFunction", {
        "__repr__": lambda self: f"<compiled function {self.__dict__.get('__name__', '?')}>"})


def _check(obj) -> None:
    if not any(id(c) in _types for c in type(obj).__mro__):
        raise TypeError(f"not a compiled-function object: {type(obj).__name__}")


def new_instance(tp: type, fallback) -> object:
    """A new instance of `tp` (from `make_function_type`) that calls `fallback` for now."""
    if id(tp) not in _types:
        raise TypeError(f"{tp!r} was not made by make_function_type")
    if not callable(fallback):
        raise TypeError("the fallback must be callable")
    return runtime_library().module.new_instance(tp, fallback)


def set_specializations(obj, specs, nargs: int) -> None:
    """Make `obj` try `specs` in order for calls with exactly `nargs` positional arguments and
    no keywords, then its fallback.

    Each spec is a `NativeLibrary` (runtime.library), a `LoadedLibrary`, or the address of an
    entry point (runtime.entry); a library is kept alive by `obj`, an address is the
    caller's to keep valid. One spec becomes the object's vectorcall itself; several go
    through ``script.dispatch``."""
    _check(obj)
    specs = list(specs)
    addresses = [s if isinstance(s, int) else s.entry_address for s in specs]
    table = b"".join(a.to_bytes(8, "little") for a in addresses)   # not struct: the imports
    # Calls in flight may still read an old table or run old code: keep them all.
    runtime_library().module.set_specializations(
        obj, table, nargs, (table, [s for s in specs if not isinstance(s, int)]))


# ---- object code --------------------------------------------------------------------------

_entry_points: dict = {}     # (param types, ret type, numpy scalars) -> the object, once read
_entry_points_lock = threading.Lock()


def entry_point_path(param_types, ret_type, numpy_scalars=()) -> str:
    """The store's file of the entry point for this signature (IR types) whose parameters at
    the positions `numpy_scalars` take NumPy scalars."""
    limit = runtime_library().module.stack_limit()
    scalars = f"; numpy scalars {', '.join(map(str, numpy_scalars))}" if numpy_scalars else ""
    return object_path("entry", f"({', '.join(map(str, param_types))}) -> {ret_type}"
                                f"{scalars}; stack limit {limit}")


def _entry_point(param_types, ret_type, numpy_scalars=()) -> bytes | None:
    """The stored entry point of this signature, or None. Its bytes are read once a process
    (a file of the store always holds the same object): loading ten functions of one
    signature reads one file. (The stack limit is read with it: a process that changes it
    later keeps the entry points it has read.)"""
    key = (tuple(param_types), ret_type, tuple(numpy_scalars))
    code = _entry_points.get(key)
    if code is None:
        code = read_object(entry_point_path(*key))
        if code is not None:
            with _entry_points_lock:
                _entry_points[key] = code
    return code


class LoadedLibrary:
    """A library loaded without LLVM: the interface of runtime.library's `NativeLibrary` for
    code loaded from object code (no LLVM IR, no assembly). `image` is elfload's, or None
    for a shared object (never unloaded). The code stays mapped while the library is
    referenced."""

    llvm_ir = None
    asm = None
    opt_level = None

    def __init__(self, function_name: str, entry_address: int, object_code: bytes,
                 seconds: float, numpy_scalars: tuple = (), image=None):
        self.function_name = function_name
        self.numpy_scalars = numpy_scalars
        self._image = image
        self.entry_address = entry_address
        self.try_call_address = entry_address
        self.object_code = object_code
        self.timings = {"link": seconds}
        self.compile_seconds = seconds

    def __repr__(self):
        return f"<LoadedLibrary {self.function_name} at {self.entry_address:#x}>"


def load_object(object_code: bytes, entry: str, param_types, ret_type,
                numpy_scalars=(), code_digest: str | None = None) -> LoadedLibrary | None:
    """Link `object_code`, compiled for the IR function `entry` of this signature, with its
    entry point (whose parameters at the positions `numpy_scalars` take NumPy scalars,
    compiled now when the store has none); None where script's loaders do not run (not
    x86-64 Linux: LLVM's linker is the only one there). RuntimeError when the object is
    not that function's, or for these types, or when elfload declines it. `code_digest` (64 hex digits) identifies `object_code`: its own by
    default."""
    start = time.perf_counter()
    if not is_supported():
        return None
    install_sigint_hook()
    numpy_scalars = tuple(numpy_scalars)
    key = (tuple(param_types), ret_type, numpy_scalars)
    kernel = f"{KERNEL_SYMBOL}.{entry}"
    signature = signature_symbol(entry, param_types, ret_type)
    runtime = runtime_library()
    address = None
    if runtime.path is not None:
        address = _load_shared(object_code, code_digest or digest(object_code), key,
                               (kernel, signature), runtime)
    image = None
    if address is None:
        point = _entry_point(*key) or _make_entry_point(*key)
        from script.backend.native import elfload
        from script.backend.runtime.symbols import resolve
        try:
            image = elfload.load([object_code, point],
                                 lambda name: runtime.address.get(name) or resolve(name))
        except elfload.ElfError as e:
            # Never LLVM's linker instead: it aborts the process on some objects that read
            # well (a symbol nobody defines: "LLVM ERROR", tests/fuzz_trust.py found one).
            raise RuntimeError(f"it is malformed or not script's ({e})") from None
        for name in (kernel, signature, ENTRY_SYMBOL):
            if name not in image.symbols:
                raise RuntimeError(_missing(name, entry))
        address = image[ENTRY_SYMBOL]
    return LoadedLibrary(entry, address, bytes(object_code), time.perf_counter() - start,
                         numpy_scalars, image)


def _missing(name: str, entry: str) -> str:
    if name.startswith(SIGNATURE_SYMBOL):
        return (f"the object code was not compiled for the types declared for {entry} (it does "
                f"not define {name})")
    return f"the object code does not define {name}"


def _make_entry_point(param_types, ret_type, numpy_scalars) -> bytes:
    """The entry point of this signature compiled now (with LLVM) and kept in the store."""
    from script.backend.runtime.library import entry_point
    code = entry_point(param_types, ret_type, numpy_scalars).object_code
    with _entry_points_lock:
        _entry_points[(tuple(param_types), ret_type, tuple(numpy_scalars))] = code
    return code


def _load_shared(object_code: bytes, code_digest: str, key: tuple, required: tuple,
                 runtime) -> int | None:
    """The entry address of the shared object of `object_code` (identified by `code_digest`)
    with the entry point of `key`, linked into the store on first use; None when it cannot be
    made or does not load. RuntimeError when it does not define the `required` symbols."""
    point_path = entry_point_path(*key)
    path = os.path.join(os.path.dirname(point_path), f"code-{code_digest[:32]}-"
                                                     f"{os.path.basename(point_path)[:-2]}.so")
    if not check_shared(path):
        point = _entry_point(*key)
        from script.backend.runtime.symbols import bound_at_run_time
        if point is None or not link_shared(path, [object_code, point], bound_at_run_time):
            return None
    module = runtime.module
    try:
        handle = module.dlopen(path.encode())
    except OSError:
        return None             # a name the system's loader cannot bind: elfload binds it
    if module.dlsym(handle, b"script.late"):
        _bind_late(module, handle)
    address = module.dlsym(handle, ENTRY_SYMBOL.encode())
    for name in required:
        if not address or not module.dlsym(handle, name.encode()):
            raise RuntimeError(_missing(name, required[0][len(KERNEL_SYMBOL) + 1:]))
    return address


def _bind_late(module, handle: int) -> None:
    """Fill the GOT slots of what the system's loader could not bind (runtime.symbols
    `bound_at_run_time`), before any of the code runs. Filling a slot again (the same library
    opened twice) writes the same address."""
    from script.backend.runtime import symbols
    for name in symbols.late_names():
        slot = module.dlsym(handle, f"script.got.{name}".encode())
        if slot:
            address = symbols.resolve(name)
            if not address:
                raise RuntimeError(f"the object code needs {name}, which is not here")
            module.poke(slot, address)


def link_shared(path: str, objects: list, late=None) -> bool:
    """Link `objects` into a shared object stored at `path` (elfso `link_shared`, binding the
    names `late` picks after loading); whether the store now holds it."""
    from script.backend.native import elfload, elfso
    from script.backend.native.store import write_shared
    try:
        data = elfso.link_shared(objects, late=late)
    except elfload.ElfError:
        return False
    write_shared(path, data)
    return check_shared(path)


# ---- loaded specializations ---------------------------------------------------------------

# The annotations naming the container's and the manifest's classes (Archive, Member,
# SpecEntry: saved_archive, saved_manifest; cache's Entry and Record) are never evaluated.

class LoadedSpecialization:
    """A specialization read from a saved module or a cache entry: `compiler.Specialization`'s
    interface (not its subclass: loading imports neither the compiler nor the IR classes).
    `record` is its manifest entry. Its texts are read from the archive (their size and
    digest checked; `LoadError` if damaged) and its IR parsed only when asked for, so
    loading object code neither decompresses IR nor imports lark; `opt_text` is the saved
    text, which is what printing the parsed module gives."""

    def __init__(self, record: SpecEntry, archive: Archive, native, module, timings: dict):
        self.record = record
        self.arg_types = record.arg_types
        self.ret_type = record.ret_type
        self.native = native
        self.timings = timings
        self.origin = archive.origin
        self._archive = archive
        self._texts: dict = {}
        self._module = module

    def _text(self, member: Member | None) -> str | None:
        if member is None:
            return None
        if member.path not in self._texts:
            self._texts[member.path] = self._archive.text(*member_fields(member))
        return self._texts[member.path]

    @property
    def opt_text(self) -> str:
        return self._text(self.record.ir)

    @property
    def ssa_text(self) -> str | None:
        return self._text(self.record.ssa)

    @property
    def module(self):
        if self._module is None:
            self._module = parse_ir(self.opt_text, self.record, self.origin, safe=False)
        return self._module

    @property
    def entry(self):
        return next(iter(self.module.functions.values()))

    def ir(self, stage: str) -> str:
        from script.compiler import Specialization
        return Specialization.ir(self, stage)       # the same stages and messages

    def __repr__(self):
        return f"<LoadedSpecialization {self.record.entry} from {self.origin}>"


def parse_ir(text: str, record: SpecEntry, origin: str, safe: bool = True):
    """The verified IR module of `record`, checked against its manifest entry (a `SpecEntry`,
    a cache entry's `Record`, or a kernel's `KernelModule`); with `safe`, made memory-safe
    (script.ir.safety) for compiling, else as the text says (for inspection only)."""
    from script.ir.parser import parse_module
    module = parse_module(text, f"{origin}:{record.ir.path}")
    where = f"{origin}: IR of {record.entry}"
    if tuple(module.functions) != record.functions:
        raise LoadError(f"{where} defines {', '.join(module.functions)}; the manifest lists "
                        f"{', '.join(record.functions)}")
    entry = module.functions[record.entry]
    if tuple(entry.param_types) != record.arg_types or entry.ret_type != record.ret_type:
        raise LoadError(f"{where} takes ({', '.join(map(str, entry.param_types))}) -> "
                        f"{entry.ret_type}, not the manifest's types")
    calls = {f.name: tuple(c.name for c in f.callees()) for f in module.functions.values()}
    if calls != record.calls:
        raise LoadError(f"{where}: its calls differ from the manifest's callee graph")
    return module if not safe else secure_foreign_ir(module, where)


def secure_foreign_ir(module, where: str):
    """The step every IR module read from a file passes before it is compiled (`parse_ir`:
    saved modules' functions and kernels' CPU code): IR that did not come from this
    process's frontend, which verifies but might index outside its arrays, gets a check on
    every memory access (script.ir.safety; docs/saved-modules.md, "Trust")."""
    from script.ir.safety import make_memory_safe
    return make_memory_safe(module)


def load_specialization(archive: Archive, record: SpecEntry, use_object: bool,
                        numpy_scalars: tuple = (), code_digest: str | None = None
                        ) -> LoadedSpecialization:
    """Link `record`'s object code when `use_object`, else compile its IR for this CPU; the
    entry point takes NumPy scalars at the positions `numpy_scalars` (script.dispatcher
    `numpy_scalar_params`). `code_digest` identifies the object code (a cache entry's own
    digest) and names its shared object in the store; by default the manifest's SHA-256 of
    the object (checked when it is read)."""
    start = time.perf_counter()
    for text in (record.ir, record.ssa):
        if text is not None:
            archive.check(text.path, text.size)    # present; its hash is checked when read
    module = None
    if use_object and record.object is not None:
        code = archive.member(*member_fields(record.object))
        try:
            native = load_object(code, record.entry, record.arg_types, record.ret_type,
                                 numpy_scalars, code_digest or record.object.sha256)
            if native is None:
                from script.backend import link_with_llvm
                native = link_with_llvm(code, record.entry, record.arg_types, record.ret_type,
                                        numpy_scalars)
        except RuntimeError as e:       # the linker: not an object file, symbols missing
            raise LoadError(f"{archive.origin}: object code of {record.entry} does not load: "
                            f"{e}") from None
    else:
        from script.backend import compile_native
        module = parse_ir(archive.text(*member_fields(record.ir)), record, archive.origin)
        try:
            native = compile_native(module, record.entry, record.opt_level,
                                    numpy_scalars=numpy_scalars)
        except Exception as e:  # noqa: BLE001 - verified IR the backend rejects: still the file's
            raise LoadError(f"{archive.origin}: compiling the IR of {record.entry} failed "
                            f"({type(e).__name__}: {e})") from e
    return LoadedSpecialization(record, archive, native, module,
                                {"load": time.perf_counter() - start})


def member_fields(m: Member) -> tuple:
    return m.path, m.size, m.sha256
