"""What a miss adds to the compile cache (script.cache): the outside names a parsed function
reads, which its key describes, and writing its entry (the layout script.cache reads:
"entries"), apart so that a hit does not import them. Below script.cache, which calls it:
what it writes as the cache reads it (the entry's magic and suffix) is the store's, and the
host an entry is for comes from the cache (`store_entry`'s `host`).
"""

from __future__ import annotations

import os

from script.store import (CACHE_MAGIC, CACHE_SUFFIX, __version__, cache_root, mac, maybe_sweep,
                          not_private, write_atomically)


def outside_names(info) -> list[str] | None:
    """Every name, and ``a.b.c`` chain, that `info`'s signature and body read from outside
    the function (not decorators: they do not reach compiled code); None where the body
    imports (what an import binds is read when compiled: the key cannot describe it)."""
    import ast
    node = info.node
    roots = [node.args, *node.body] + ([node.returns] if node.returns is not None else [])
    paths = set()
    for root in roots:
        for n in ast.walk(root):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                return None
            parts = []
            while isinstance(n, ast.Attribute):
                parts.append(n.attr)
                n = n.value
            if isinstance(n, ast.Name) and n.id not in info.local_names:
                paths.add(".".join([n.id, *reversed(parts)]))
    return sorted(paths)


def store_entry(request, key: str, sources, info, spec, host: tuple) -> None:
    """Write the entry of `spec` (compiled for `request`, keyed `key`, its functions described
    by `sources`: their `Source` records, or None) to the first of the request's directories
    that can be written, replacing the slot's other entries; silently nothing when none can.
    `host`: script.cache's ``(host_target(), llvm_version(), python_abi())``."""
    from script.saved import spec_record
    record, members = spec_record(spec, "f0/s0")
    target, llvm, abi = host
    payload = {"ir": members["f0/s0.ir"], "ssa": members.get("f0/s0.ssa.ir"),
               "object": members["f0/s0.o"]}

    def fields(recorded) -> list:
        return entry_fields(key, __version__, abi, llvm, tuple(target),
                            info.py_func.__qualname__, record, recorded)
    try:
        data = encode(fields(sources), payload)
    except ValueError:          # a file name with a tab or line break: no record, lookups parse
        data = encode(fields(None), payload)
    name = request.name()
    for directory in request.directories():
        try:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            if not_private(os.stat(directory)) is not None:
                continue                # made by another user meanwhile, or opened to others
            write_atomically(os.path.join(directory, name), data)
        except OSError:
            continue
        _remove_replaced(directory, name)
        maybe_sweep(cache_root())
        return


def _remove_replaced(directory: str, name: str) -> None:
    """Remove the slot's other entries: written under older names (with the key in the
    name) or in the older zip format (``.smod``)."""
    slot_prefix = name[:-len(CACHE_SUFFIX)] + "."
    try:
        for other in os.listdir(directory):
            if other.startswith(slot_prefix) and other.endswith((CACHE_SUFFIX, ".smod")) \
                    and other != name:
                os.unlink(os.path.join(directory, other))
    except OSError:
        pass


def encode(fields: list, members: dict) -> bytes:
    """The bytes of an entry: `fields` a list of lists of strings (the first of each its
    name), `members` "ir", "ssa" (or None) and "object" -> bytes. ValueError when a field
    holds a tab or a line break (such an entry could not be read back)."""
    lines = []
    for field in fields:
        if any(not isinstance(v, str) or "\t" in v or "\n" in v or "\r" in v for v in field):
            raise ValueError(f"a cache entry field cannot hold {field!r}")
        lines.append("\t".join(field))
    text = ("\n".join(lines) + "\n").encode("utf-8")
    ssa = members.get("ssa")
    sizes = [len(text), len(members["ir"]), -1 if ssa is None else len(ssa),
             len(members["object"])]
    body = b"".join([" ".join(map(str, sizes)).encode("ascii"), b"\n", text, members["ir"],
                     ssa or b"", members["object"]])
    return CACHE_MAGIC + mac(body).encode("ascii") + b"\n" + body


def entry_fields(key: str, compiler: str, python_abi: str, llvm: str, target: tuple,
                 qualname: str, record, sources) -> list:
    """The text fields of an entry for `record` (a `saved_manifest.SpecEntry` or `Record`)."""
    out = [["key", key], ["compiler", compiler], ["python", python_abi], ["llvm", llvm],
           ["target", *target], ["qualname", qualname],
           ["types", *map(str, record.arg_types), str(record.ret_type)],
           ["entry", record.entry], ["opt_level", str(record.opt_level)]]
    for name in record.functions:
        out.append(["function", name, *record.calls[name]])
    for s in sources or ():
        out.append(["source", *s.fields()])
    return out
