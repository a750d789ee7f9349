"""The process-wide JIT: host target machine, LLVM optimization, object emission, linking.

One `Jit` per process, made on first use by `get_jit()`. Object code is relocatable and
position-independent; every external symbol (the CPython C-API, libm) is referenced by name
and bound when an object is linked: first from symbol libraries (`add_symbols`: a JITDylib of
absolute addresses, made once and shared by every object), then from the running process, so
the same bytes can be saved and linked in another process on the same CPU. Each library (one
or several objects) is linked into its own JITDylib with a fresh name, so libraries that
define the same symbols never clash; a library stays loaded while its `ResourceTracker` is
referenced.

LLVM is not thread-safe per target machine, so every method takes the JIT's lock.
"""

from __future__ import annotations

import contextlib
import itertools
import threading

import llvmlite.binding as llvm

from script.store import llvm_host

_jit = None
_jit_lock = threading.Lock()


class Jit:
    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.triple, self.cpu, self.features, _ = llvm_host()    # the host record's values
        target = llvm.Target.from_triple(self.triple)
        self.tm = self._target_machine(target, 3)
        self._tm_fast = self._target_machine(target, 0)     # for -O0: fast instruction selection
        self.data_layout = str(self.tm.target_data)
        self.lljit = llvm.create_lljit_compiler(self.tm)
        self.lock = threading.RLock()
        self._names = itertools.count()
        self._symbol_libraries: dict[str, object] = {}

    def _target_machine(self, target, opt: int):
        return target.create_target_machine(cpu=self.cpu, features=self.features, opt=opt,
                                            reloc="pic", codemodel="default")

    def parse(self, text: str) -> llvm.ModuleRef:
        """Parse and verify LLVM IR text (a verifier failure is a backend bug), in an LLVM
        context of its own: constants and types are uniqued in their context and freed only
        with it, so in the global one a dropped function's constants (a frozen 16 MB array)
        stayed for the life of the process. The module keeps its context alive."""
        with self.lock:
            context = llvm.create_context()
            mod = llvm.parse_assembly(text, context)
            _own_context(mod, context)
            mod.triple = self.triple
            mod.data_layout = self.data_layout
            mod.verify()
            return mod

    def optimize(self, mod: llvm.ModuleRef, level: int = 3) -> None:
        """Run LLVM's default -O`level` pipeline (new pass manager) for the host CPU.

        SLP vectorization (packing independent scalar operations into vectors) runs only at
        -O3: on scalar code its cost model misjudges int/float conversions on this CPU family
        (the two independent draws of benchmarks' lcg_pi, packed, ran 2.2x slower), and it
        costs compile time. Loop vectorization and unrolling run at every level from -O1
        (script.compiler `llvm_level` picks -O1 for code without memory, whose reductions
        still vectorize)."""
        if level <= 0:
            return
        with self.lock, _llvm_options(_OPT_OPTIONS):
            pto = llvm.create_pipeline_tuning_options(speed_level=min(level, 3))
            pto.loop_vectorization = True
            pto.slp_vectorization = level >= 3
            pb = llvm.create_pass_builder(self.tm, pto)
            mpm = pb.getModulePassManager()
            try:
                mpm.run(mod, pb)
            finally:
                _dispose_pass_manager(mpm)

    def emit_object(self, mod: llvm.ModuleRef, level: int = 3) -> bytes:
        """Machine code for `mod`; code generation optimizes unless `level` is 0."""
        with self.lock, _llvm_options(_CODEGEN_OPTIONS):
            return bytes((self.tm if level > 0 else self._tm_fast).emit_object(mod))

    def emit_assembly(self, mod: llvm.ModuleRef, level: int = 3) -> str:
        with self.lock, _llvm_options(_CODEGEN_OPTIONS):
            return (self.tm if level > 0 else self._tm_fast).emit_assembly(mod)

    def add_symbols(self, name: str, table: dict[str, int]) -> str:
        """Define a library `name` binding each symbol of `table` to its address (once per
        name: later calls return at once). Returns `name`, for `link`."""
        with self.lock:
            if name not in self._symbol_libraries:
                builder = llvm.JITLibraryBuilder()
                for symbol, address in table.items():
                    builder.import_symbol(symbol, address)
                self._symbol_libraries[name] = builder.link(self.lljit, name)
            return name

    def link(self, objects, exports, libraries=(), name: str | None = None
             ) -> llvm.ResourceTracker:
        """Load `objects` (object code, or a list of them that reference each other) into a
        new JITDylib (called `name`, or a fresh name); `tracker[s]` is the address of each
        export `s`. Undefined symbols resolve in the JITDylib itself, then in `libraries`
        (JITDylib names: see `add_symbols`), then in the process."""
        if isinstance(objects, (bytes, bytearray)):
            objects = [objects]
        with self.lock:
            builder = llvm.JITLibraryBuilder()
            for object_code in objects:
                builder.add_object_img(object_code)
            for library in libraries:
                builder.add_jit_library(library)
            builder.add_current_process()
            for symbol in exports:
                builder.export_symbol(symbol)
            return builder.link(self.lljit, name or f"script.lib{next(self._names)}")


@contextlib.contextmanager
def _llvm_options(options: dict[str, tuple[str, str]]):
    """LLVM's command-line `options` set to their first value while script optimizes or
    emits code, and back to the second (LLVM's default) after. They are process-wide and
    LLVM reads them when it builds each pipeline, so other users of LLVM in the process
    (Numba) keep the defaults."""
    for on, _ in options.values():
        llvm.set_option("", on)
    try:
        yield
    finally:
        for _, off in options.values():
            llvm.set_option("", off)


# Code generation options (`emit_object`, `emit_assembly`), each with why.
_CODEGEN_OPTIONS = {
    # Loop strength reduction rewrote `i % 3` of a loop counter into divisions computed in
    # the loop header on every iteration (`i % 7` too, though only one branch used it):
    # benchmarks' branchy ran 1.3x C with it and 1.13x without; the array kernels of
    # benchmarks/arrays.py and interrupt_cost.py ran the same within noise (their addresses
    # are `base + i * 8`, which x86 addressing does in place).
    "lsr": ("-disable-lsr=true", "-disable-lsr=false"),
    # The x86 cmov converter turns a `select` into a branch when it guesses the branch is
    # predictable; in a DP recurrence (benchmarks/shapes.py levenshtein: three `min`s a
    # cell, data-dependent) it turned 3 of 4 cmovs into mispredicted branches: 7.5 -> 6.2
    # ms a call without it (C: 7.5). The other kernels of shapes.py and classic.py ran the
    # same within noise (benchmarks/README.md, section 10).
    "cmov": ("-x86-cmov-converter=false", "-x86-cmov-converter=true"),
}

# Optimizer options (`optimize`), each with why.
_OPT_OPTIONS = {
    # Loop vectorization of float sums kept in order. Python adds in order, so LLVM may not
    # reassociate ``s += d * d``; on x86 its vectorizer then leaves such a loop scalar,
    # while in-order vector reductions (``llvm.vector.reduce.fadd`` without ``reassoc``:
    # the lanes added one by one, the same rounding as the scalar loop) still vectorize the
    # loads, subtractions and multiplications around them, as gcc does. benchmarks'
    # kmeans_assign (a 4-term squared distance per centroid) ran 0.83x its time with them;
    # the other classic and array kernels the same within noise. It costs LLVM time on
    # array code with reductions (the RNN loop kernel 98 -> 116 ms).
    "ordered_reductions": ("-force-ordered-reductions=true", "-force-ordered-reductions=false"),
    # The loop vectorizer hoists its memory-overlap check of an inner loop out of the outer
    # loop when it can; in Floyd-Warshall (`d[i, j]` against row `d[k, :]` of the same
    # matrix) the hoisted check spans the whole matrix and always fails, so the scalar
    # loop always ran. Checked per inner loop it passes for every row but k: classic.py's
    # floyd_warshall 5.8 -> 0.64 ms a call (C: 2.9 ms; gcc does not vectorize it).
    "runtime_checks": ("-hoist-runtime-checks=false", "-hoist-runtime-checks=true"),
    # Not `-enable-nontrivial-unswitch` (the histogram's `if clamp:` unswitched at -O2,
    # 1.90x -> 1.43x C): it also unswitched `while flag[1] == 0: i += 1` on the load of
    # flag[1], so a loop waiting for another Python thread's write never saw it
    # (test_interrupts' worker thread spun forever). Python threads see each other's writes.
}


def _dispose_pass_manager(mpm) -> None:
    """Free a module pass manager now. llvmlite 0.50 never does: `ModulePassManager` derives
    from `ffi.ObjectRef` before `NewPassManager`, so its `_dispose` is ObjectRef's, which does
    nothing, and each pipeline (its ~30 KiB of pass objects, and what running it left in
    them) stayed for the life of the process: ~67 KiB of every compile, 2,000 dropped
    functions +143 MiB (docs/memory.md). Disposing it twice is impossible: `detach` marks it
    closed."""
    if not mpm.closed:
        llvm.ffi.lib.LLVMPY_DisposeNewModulePassManger(mpm)
        mpm.detach()


class _ModuleOwningContext(llvm.ModuleRef):
    """A module that disposes of its LLVM context right after itself. Its context must outlive
    it, and the garbage collector finalizes a cycle's objects in any order (a context disposed
    first crashed the module's disposal), so the context never disposes of itself."""

    def _dispose(self):
        super()._dispose()
        llvm.ffi.lib.LLVMPY_ContextDispose(self._context_pointer)


def _own_context(mod: llvm.ModuleRef, context) -> None:
    mod._context_pointer = context._ptr
    context._owned = True       # ffi.ObjectRef: not disposed by its own close()
    mod.__class__ = _ModuleOwningContext


def get_jit() -> Jit:
    global _jit
    if _jit is None:
        with _jit_lock:
            if _jit is None:
                _jit = Jit()
    return _jit
