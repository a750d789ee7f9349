"""The per-machine store and what names it: digests, the user's secret, paths, symbols and
magics. A leaf: it imports only Python's own modules (llvmlite in `llvm_host`, only where no
host record answers), so that the backend, the load path and the cache all build on it
without importing each other (DESIGN.md, "Target layout"); tests/test_import_graph.py checks
that nothing of script's is imported here.

The store: ``$SCRIPT_CACHE_DIR/native``, else ``native`` in the user's cache directory
(`user_cache_dir`), used only when it is the user's and closed to others (`cache_root`): object
code every process needs (the runtime library, the entry point of each signature), and what
LLVM said about this CPU, kept on disk so that loading saved code in a new process neither
compiles nor imports LLVM. A cache hit imports this module and script.loadpath, nothing
more of script's: a fresh process pays ~0.3 ms for each module and package it imports, and a
hit is meant to cost under 5 ms in all (docs/saved-modules.md). So this imports only what
`import script` has loaded, even where Python starts without site (which imports re, struct
and warnings in many installations, and not in a clean one), and CPython's BLAKE2b
(tests/test_loader.py checks what a hit imports).

- The host record (``host-<id>.txt``: a line naming the format, then the id, the triple,
  the CPU name, the CPU features and LLVM's version, one a line) holds what LLVM gave when it
  was first loaded on this machine. `host_id` digests what can be read cheaply and
  determines them: the OS and machine, /proc/cpuinfo's first CPU, and llvmlite's shared
  library (path, size, time), which fixes LLVM's version; it is found on ``sys.path`` as the
  import system would find it, without importing llvmlite. A record whose id is not this
  machine's is never read; where no id can be made (no /proc/cpuinfo, no llvmlite), LLVM is
  asked (`llvm_host`). Whenever the JIT is running, its own answer is used, and a record that
  disagrees with it is rewritten.
- An object is named by the `digest` of what it was compiled from: its kind and description
  (a signature), the compiler (`compiler_fingerprint`: version and its own files), the Python
  ABI and the host target. Its file carries the `mac` of its bytes (`checksum`) — after a
  magic line for an object, at the end for a shared object, whose start the system's loader
  reads — so a damaged file is ignored with a RuntimeWarning and removed (whoever compiles it
  next writes it again).
- A source checkout's listing (``checkout-<digest of its path>.txt``, `list_checkout`):
  which files the compiler fingerprint of a checkout ``stat``s, kept while no folder of the
  package changes.
- The runtime library (backend runtime.shared has its contents) is, on x86-64 Linux, a
  shared object in the store (linked by backend native.elfso), imported as the extension
  module ``script._runtime`` (runtime.pymodule) with RTLD_GLOBAL, so that the shared objects
  of compiled code find its functions by name. `runtime_library` loads it from there, or has
  its caller's `build` make it (runtime.shared `build_runtime`: into the store, else into the
  JIT); either way it has its module and, on demand, its addresses.

Writes are atomic (a temporary file of a random name, opened O_EXCL | O_NOFOLLOW with mode
0600, then a rename) and their failures silent: the store never turns a compile or a load
into an error. Each file carries a MAC under the user's key, so a file another user planted
or re-hashed is damaged, never loaded (docs/saved-modules.md, "Trust").

Nothing is kept for ever: what a new compiler, an edited function or another signature no
longer uses would pile up (a checkout whose compiler is edited makes a new runtime library
and new entry points each time). Reading a file of the store, or a cache entry, touches it
when it was last touched more than a day ago (`read_file`), and at most once a day a process
that writes to the store removes (`sweep`) the store's files, and the cache entries in the
cache's own folder, untouched for 30 days (`MAX_AGE_S`), and temporary files a killed writer
left an hour ago. What is removed is made again when needed.
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

__version__ = "0.1.1"       # the package's (script.__version__); pyproject.toml says it too

# CPython's own BLAKE2b: hashlib would load OpenSSL (5-10 ms). BLAKE2b rather than SHA-256,
# which hashes three times as slowly (a hit hashes the runtime library, its code and its
# entry: ~60 KB); saved modules keep SHA-256, which their manifest names (`sha256`).
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

NUMPY_OBJECTS = ("PyArray_Type",)
NUMPY_PREFIX = "script.np."     # runtime.capi's names of NumPy's API functions and scalar types
CACHE_MAGIC = b"script-cache-entry 3\n"  # a compile cache entry's first line (script.cache)
CACHE_SUFFIX = ".cache"                  # an entry's file: <file stem>.<qualname>.<slot>.cache
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
# touched is touched again: `sweep` removes those untouched for `MAX_AGE_S`.
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
    is kept in `records` (the store's folder by default) as a listing that
    `list_checkout` writes and describes; it is used while every folder has its recorded
    time and every file is there, and made again otherwise; either way each file is
    ``stat``ed."""
    parent = os.path.dirname(package)
    if os.path.basename(parent) in ("site-packages", "dist-packages"):
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


# ---- the host ------------------------------------------------------------------------------

_host: tuple | None = None      # (triple, cpu, features, llvm_version) for this process


def host_target() -> tuple:
    """(triple, CPU name, CPU features, LLVM version): the JIT's when it is running (a host
    record that disagrees is rewritten), else the host record's (`llvm_host` when there is
    none)."""
    global _host
    jit_module = sys.modules.get("script.backend.llvm.jit")     # running: not imported here
    if jit_module is not None and jit_module._jit is not None:
        live = llvm_host()          # what the JIT was made with (llvm.jit `Jit`)
        if live != _host:
            if live != read_host_record():
                write_host_record(live)
            _host = live
        return live
    if _host is None:
        _host = read_host_record()
        if _host is None:
            _host = llvm_host()
            write_host_record(_host)
    return _host


@functools.cache
def llvm_host() -> tuple:
    """(triple, CPU name, CPU features, LLVM version) as LLVM gives them in this process:
    what the JIT compiles for (backend llvm.jit `Jit` takes them from here) and what the host
    record keeps. Imports llvmlite (~100 ms): only where no host record answers, or for the
    JIT."""
    import llvmlite.binding as llvm
    llvm.initialize_native_target()
    return (llvm.Target.from_default_triple().triple, llvm.get_host_cpu_name(),
            llvm.get_host_cpu_features().flatten(), ".".join(map(str, llvm.llvm_version_info)))


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


def bound_at_run_time(name: str) -> bool:
    """Whether generated code's external symbol `name` is found in this process's objects
    (NumPy's, the random generators' states, BLAS and LAPACK tables: runtime.symbols
    `resolve`) rather than a library's symbol table, where no loader finds it."""
    return name in NUMPY_OBJECTS or name.startswith((NUMPY_PREFIX, "script.lapack.", "script.rng.")) \
        or name in ("script.blas", "script.parallel")


def signature_symbol(entry: str, param_types, ret_type) -> str:
    """The symbol that object code compiled for the IR function `entry` of this signature
    defines (backend.llvm.lower, cuda.compile), and that linking it requires: a manifest or
    entry that declares other types than the code was compiled for does not link (a
    LoadError, not a call that reads its arguments or result as the wrong types)."""
    text = f"{entry}({', '.join(map(str, param_types))}) -> {ret_type}"
    return f"{SIGNATURE_SYMBOL}.{digest(text.encode('utf-8', 'surrogateescape'))[:32]}"


def _path(kind: str, description: str, suffix: str) -> str:
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
_runtime_lock = threading.RLock()     # (a collection inside it may release an arena block, which asks again)


def runtime_library(build=None) -> RuntimeLibrary:
    """The runtime functions, loaded on first use, then kept for the process (never unloaded:
    the type of compiled functions points into them): from the store's shared object where
    there is one that loads, else made by `build()` (backend runtime.shared `build_runtime`,
    which the load path imports only then). Without `build`, the library must be loaded
    already (the runtime's own threads ask for it)."""
    global _runtime
    if _runtime is not None:
        return _runtime
    with _runtime_lock:
        if _runtime is None:
            lib = load_runtime(runtime_path()) if is_supported() else None
            if lib is None:
                if build is None:
                    raise RuntimeError("the runtime library is not loaded")
                lib = build()
            _runtime = lib
        return _runtime


def runtime_path() -> str:
    """The store's file of the runtime library's shared object."""
    return shared_path("runtime", "runtime library")


def load_runtime(path: str) -> RuntimeLibrary | None:
    """The runtime library from the shared object at `path`, loaded with RTLD_GLOBAL; None
    when the store has none or it does not load."""
    module = _import(path)
    if module is None:
        return None
    return RuntimeLibrary(None, module, path=path, handle=module.dlopen(path.encode()))


def _import(path: str):
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


def install_sigint_hook(runtime: RuntimeLibrary) -> bool:
    """Put the SIGINT hook of the loaded `runtime` (backend runtime.interrupt) in front of
    Python's handler, unless it is there already or Python does not handle SIGINT (through a
    Python-level handler: ``signal.getsignal(SIGINT)`` is callable); called whenever code is
    compiled or loaded. Returns whether the hook is installed. At exit SIGINT goes back to
    the handler the hook chains to, before the JIT's code is unmapped."""
    import _signal as signal        # the C module, without `signal`'s enums
    if os.name != "posix" or not hasattr(signal, "SIGINT") \
            or not callable(signal.getsignal(signal.SIGINT)):
        return False
    module = runtime.module
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


def entry_point_path(runtime: RuntimeLibrary, param_types, ret_type, numpy_scalars=()) -> str:
    """The store's file of the entry point for this signature (IR types) whose parameters at
    the positions `numpy_scalars` take NumPy scalars, for the stack limit the loaded `runtime`
    reads (runtime.entry `stack_budget`)."""
    limit = runtime.module.stack_limit()
    scalars = f"; numpy scalars {', '.join(map(str, numpy_scalars))}" if numpy_scalars else ""
    return object_path("entry", f"({', '.join(map(str, param_types))}) -> {ret_type}"
                                f"{scalars}; stack limit {limit}")


# ---- writing the store --------------------------------------------------------------------

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


# ---- writing the host record ----------------------------------------------------------------

def write_host_record(value: tuple) -> None:
    path = host_record_path()
    if path is not None and all(isinstance(v, str) and v and "\n" not in v for v in value):
        _write(path, "\n".join([HOST_FORMAT, host_id(), *value, ""]).encode("utf-8"))


# ---- a checkout's listing -----------------------------------------------------------------

_RACY_NS = 2_000_000_000        # what a folder's time may lag behind a change to it, at most


def list_checkout(package: str, record: str, head: str) -> list:
    """The folders of the checkout `package` (`_list_package`), kept at `record` as a listing:
    its first line `head` (the format, the package and `NOT_COMPILER`: another set of files
    lists again), then a line per folder, tab-separated: its path below the package, its
    modification time when it was listed, its ``.py`` files. A folder's time changes whenever
    a file in it is added, removed or renamed (an editor's save by renaming too), so
    `fingerprint` uses a listing while every folder has its recorded time. A listing
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


@functools.cache
def _file_patterns() -> tuple:
    """The names of the store's files and of the cache's entries, and of their temporary
    files (`write_atomically`): only files this package writes. Compiled on the first sweep
    (a hit does not import re)."""
    import re
    return (re.compile(r"(runtime|entry|code|host|checkout)-[0-9a-f]{16,}[-\w.]*?"
                       r"\.(so|o|txt)(\.\d+\.[0-9a-f]+\.tmp)?"),
            re.compile(r".+\.[0-9a-f]{16}\.cache(\.\d+\.[0-9a-f]+\.tmp)?"))


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
    store_file, entry_file = _file_patterns()
    for folder, pattern in ((os.path.join(root, "native"), store_file), (root, entry_file)):
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
