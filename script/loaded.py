"""A specialization loaded from a saved module or a compile-cache entry: what both read (its
object code linked, or its IR compiled again), apart from saved.py so that a cache hit does
not import the saving and loading of modules.
"""

from __future__ import annotations

import time

from script.errors import LoadError

# The annotations naming the container's and the manifest's classes (Archive, Member,
# SpecEntry: saved_archive, saved_manifest) are never evaluated.


class LoadedSpecialization:
    """A specialization read from a saved module or a cache entry: `compiler.Specialization`'s
    interface (not its subclass: loading imports neither the compiler nor the IR classes).
    `record` is its manifest entry. Its texts are read from the archive (their size and
    SHA-256 checked; `LoadError` if damaged) and its IR parsed only when asked for, so
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
            self._module = parse_ir(self.opt_text, self.record, self.origin)
        return self._module

    @property
    def entry(self):
        return next(iter(self.module.functions.values()))

    def ir(self, stage: str) -> str:
        from script.compiler import Specialization
        return Specialization.ir(self, stage)       # the same stages and messages

    def __repr__(self):
        return f"<LoadedSpecialization {self.record.entry} from {self.origin}>"


def parse_ir(text: str, record: SpecEntry, origin: str):
    """The verified IR module of `record`, checked against its manifest entry (a `SpecEntry`,
    or a kernel's `KernelModule`)."""
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
    return module


def load_specialization(archive: Archive, record: SpecEntry, use_object: bool,
                        numpy_scalars: tuple = (), digest: str | None = None
                        ) -> LoadedSpecialization:
    """Link `record`'s object code when `use_object`, else compile its IR for this CPU; the
    entry point takes NumPy scalars at the positions `numpy_scalars` (script.dispatcher
    `numpy_scalar_params`: the unannotated parameters' narrow scalars). `digest`, a SHA-256
    that identifies the object code (a cache entry's own), names its shared object in the
    store; by default the manifest's SHA-256 of the object (checked when it is read)."""
    start = time.perf_counter()
    for text in (record.ir, record.ssa):
        if text is not None:
            archive.check(text.path, text.size)    # present; its hash is checked when read
    module = None
    if use_object and record.object is not None:
        from script.backend import load_object
        code = archive.member(*member_fields(record.object))
        try:
            native = load_object(code, record.entry, record.arg_types, record.ret_type,
                                 numpy_scalars, digest or record.object.sha256)
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
