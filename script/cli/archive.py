"""`scriptc compile` and `scriptc inspect`: saved modules (``.smod``) from the command line.

Both stand on the library's `script.save(functions, path)` and `script.load(path)`
(`script/saved.py`), imported only here and only when used, so the rest of the command line
works in a build without them. `compile` compiles every selected function for each of its
signatures first, so the archive holds exactly those specializations; `inspect` prints what
the archive holds (functions, signatures, target, versions) and, with `--stage`, the saved
IR of its functions or PTX of its kernels, without linking or running any of its code
(`script.saved.inspect`).
"""

from __future__ import annotations

from script.cli.errors import UsageError, UserCodeError
from script.cli.target import Target
from script.errors import CompileError


def saved_module():
    """`script.saved`, or a UsageError saying this build has no save/load yet."""
    try:
        import script.saved as saved
    except ImportError as e:
        if getattr(e, "name", None) not in ("script.saved", None):
            raise
        raise UsageError("saved modules are not available in this build: script.save/script.load "
                         "(script/saved.py) do not exist yet") from None
    return saved


def _api(name: str):
    import script
    saved = saved_module()
    fn = getattr(script, name, None) or getattr(saved, name, None)
    if fn is None:
        raise UsageError(f"script.{name} is not available in this build")
    return fn


def compile_targets(targets: list[Target], out_path: str, report, failures: int = 0) -> int:
    """Compile each target for its signatures and, if nothing (here or before: `failures`)
    failed, save them to `out_path`. Returns the number of failures.

    Each function is compiled on a fresh function object, so the archive holds exactly the
    chosen signatures, not also those the file's own top-level calls compiled.
    """
    from script.cli.target import fresh_kernel, wrap_function
    save = _api("save")
    chosen, signatures = {}, {}
    for t in targets:
        if t.is_kernel:
            fn = fresh_kernel(t.fn)
            compile_one = lambda key, k=fn: (k.compile_ptx(key), k.compile_cpu(key))  # noqa: E731
            signatures[t.name] = list(t.keys)
        else:
            d = t.fn.__dict__
            fn = wrap_function(t.fn.py_func, opt=d["_opt"], passes=d["_passes"])
            compile_one = lambda key, f=fn: f.compile(*key)  # noqa: E731
        for key in t.keys:
            try:
                compile_one(key)
            except CompileError as e:
                failures += 1
                report(str(e))
        if t.keys:
            chosen[t.name] = fn
    if failures:
        return failures
    if not chosen:
        raise UsageError("nothing to compile: no function has a signature (annotate them or "
                         "give --sig)")
    from script.errors import ScriptError
    try:
        save(chosen, out_path, signatures=signatures or None)
    except (ScriptError, OSError, ValueError, TypeError) as e:
        raise UserCodeError(f"cannot save {out_path}: {e}") from None
    return 0


def load(path: str):
    """The archive at `path` as `script.saved.inspect` reads it: its manifest and texts,
    checked, and none of its code linked or run (an archive from anywhere can be inspected)."""
    import os
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    inspect = saved_module().inspect
    from script.errors import LoadError
    try:
        return inspect(path)
    except (LoadError, OSError) as e:
        raise UserCodeError(f"cannot load {path}: {e}") from None


def loaded_functions(module) -> dict:
    """The functions and kernels of a loaded module: its attributes that have an `ir` method."""
    return {name: obj for name, obj in vars(module).items()
            if not name.startswith("_") and callable(getattr(obj, "ir", None))}


def stage_text(obj, stage: str, arch: str | None = None) -> str:
    """A loaded function's or kernel's code at `stage`; a kernel's for each saved signature
    (its PTX for `arch`, else the first architecture saved)."""
    from script.cuda.kernel import is_kernel
    if not is_kernel(obj):
        return obj.ir(stage)
    if stage == "asm":
        raise ValueError("a kernel has no CPU assembly stage: use --stage ptx")
    from script.frontend.typeinfer import format_signature
    texts = []
    for types in obj.signatures:
        text = obj.ir(stage, types, arch).rstrip("\n")
        if stage in ("ptx", "llvm"):
            comment = "//" if stage == "ptx" else ";"
            chosen = arch or obj.compile_ptx(types).arch
            text = f"{comment} script: kernel {obj.__name__}{format_signature(types)} for {chosen}\n{text}"
        texts.append(text)
    return "\n\n".join(texts) + "\n"
