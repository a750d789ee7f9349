"""Compiled functions and loaded modules pickle by their IR: `multiprocessing`,
`concurrent.futures.ProcessPoolExecutor` and Dask workers run them without the source.

A compiled function pickles as a saved module (script.saved) of that one function, in memory:
its textual IR per specialization, its signatures, parameters and defaults, and no object
code — a pickle may be read on another machine, and native code is never taken from one
(DESIGN.md, "trust"). Unpickling reads that archive with the checks `script.load` makes and
compiles every specialization from its IR through the load path (script.loadpath
`load_specialization`), so IR from elsewhere is verified exactly as a saved module's is.
The result is a function as `script.load` returns one: the same dispatch, errors, keywords
and defaults, and only the specializations it was pickled with (it has no source to compile
others from). A function with no specialization yet (unannotated, never called) cannot be
pickled: call it, annotate it or `f.compile(types)` first. A module from `script.load`
pickles the same way with all its functions; kernels do not pickle (their CPU path needs
object code in a saved module).

The archive a function pickles to is kept on the function until its specializations change,
and a process that unpickles the same bytes again (a Dask worker receives a function with
every task) gets the function it compiled the first time (`_loaded`, a small LRU memo).
"""

from __future__ import annotations

import pickle
import threading

_MEMO_SIZE = 32
_loaded: dict = {}                  # digest of pickled bytes -> SavedModule, oldest first
_lock = threading.Lock()


def reduce_function(fn) -> tuple:
    """`fn.__reduce__()` (script.dispatcher, which has compiled `fn` for its annotations
    where nothing had): rebuilt by `unpickle_function` from its IR archive."""
    d = fn.__dict__
    from script.dispatcher import takes_instances
    specs = tuple(k for k in d["_specializations"] if not takes_instances(k))     # (saved._chosen_specializations)
    hidden = getattr(d.get("_script_info"), "hidden_globals", ())
    if hidden:
        from script.dispatcher import hidden_globals_text
        raise pickle.PicklingError(f"cannot pickle {d['__name__']}: {hidden_globals_text(hidden)}")
    shared = getattr(d.get("_script_info"), "shared_defaults", ())
    if shared:
        from script.frontend.shared_defaults import not_kept_text
        raise pickle.PicklingError(f"cannot pickle {d['__name__']}: {not_kept_text(shared)}")
    if not specs:
        why = ("its specializations take instances of a user's class, which a pickle does not carry "
               "(the dispatcher types them from the objects at each call)" if d["_specializations"] else
               "it has no compiled specialization (a pickle carries IR, not source): call it, annotate "
               "its parameters or call .compile(types) first")
        raise pickle.PicklingError(f"cannot pickle {d['__name__']}: {why}")
    cached = d.get("_pickled")
    if cached is None or cached[0] != specs:
        cached = d["_pickled"] = (specs, _archive(fn, d["__name__"]))
    return unpickle_function, (cached[1], d["__name__"])


def reduce_module(module) -> tuple:
    """`SavedModule.__reduce__()`: its functions, rebuilt by `unpickle_module`."""
    if module.__kernels__:
        raise pickle.PicklingError(f"{module.__name__}: kernels ({', '.join(module.__kernels__)}) "
                                   "cannot be pickled; save the module with script.save instead")
    functions = {name: getattr(module, name) for name in module.__all__}
    return unpickle_module, (_archive(functions, module.__name__), module.__name__)


def _archive(obj, name: str) -> bytes:
    from script.saved import saved_members
    from script.saved_archive import archive_bytes
    try:
        return archive_bytes(*saved_members(obj, object_code=False))
    except (ValueError, TypeError) as e:
        raise pickle.PicklingError(f"cannot pickle {name}: {e}") from None


def unpickle_function(data: bytes, name: str):
    """The function `reduce_function` pickled, compiled again from its IR."""
    module = _load(data, f"<pickled script function {name}>")
    return getattr(module, name)


def unpickle_module(data: bytes, name: str):
    module = _load(data, f"<pickled script module {name}>")
    module.__name__ = name
    return module


def _load(data: bytes, origin: str):
    from script.store import digest
    from script.saved import load_archive
    from script.saved_archive import read_archive_bytes
    if not isinstance(data, bytes):
        from script.errors import LoadError
        raise LoadError(f"{origin}: not the bytes of a pickled function")
    key = digest(data)
    with _lock:
        module = _loaded.pop(key, None)
        if module is None:
            module = load_archive(read_archive_bytes(data, origin), "unpickled: compiled from its IR")
        _loaded[key] = module
        while len(_loaded) > _MEMO_SIZE:
            del _loaded[next(iter(_loaded))]
    return module
