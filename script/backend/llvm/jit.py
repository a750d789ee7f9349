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

_jit = None
_jit_lock = threading.Lock()


class Jit:
    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.cpu = llvm.get_host_cpu_name()
        self.features = llvm.get_host_cpu_features().flatten()
        target = llvm.Target.from_default_triple()
        self.triple = target.triple
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
        with self.lock, _ordered_reductions():
            pto = llvm.create_pipeline_tuning_options(speed_level=min(level, 3))
            pto.loop_vectorization = True
            pto.slp_vectorization = level >= 3
            pb = llvm.create_pass_builder(self.tm, pto)
            pb.getModulePassManager().run(mod, pb)

    def emit_object(self, mod: llvm.ModuleRef, level: int = 3) -> bytes:
        """Machine code for `mod`; code generation optimizes unless `level` is 0."""
        with self.lock, _without_lsr():
            return bytes((self.tm if level > 0 else self._tm_fast).emit_object(mod))

    def emit_assembly(self, mod: llvm.ModuleRef, level: int = 3) -> str:
        with self.lock, _without_lsr():
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
def _without_lsr():
    """Code generation without loop strength reduction. LSR rewrote `i % 3` of a loop counter
    into divisions computed in the loop header on every iteration (`i % 7` too, though
    only one branch used it): benchmarks' branchy ran 1.3x C with it and 1.13x without;
    the array kernels of benchmarks/arrays.py and interrupt_cost.py ran the same within
    noise (their addresses are `base + i * 8`, which x86 addressing does in place). LLVM
    reads the option when it builds each code generation pipeline, and it is process-wide:
    it is set only while script emits code, so other users of LLVM here keep theirs."""
    llvm.set_option("", "-disable-lsr=true")
    try:
        yield
    finally:
        llvm.set_option("", "-disable-lsr=false")


@contextlib.contextmanager
def _ordered_reductions():
    """Loop vectorization of float sums kept in order. Python adds in order, so LLVM may
    not reassociate ``s += d * d``; on x86 its vectorizer then leaves such a loop scalar,
    while in-order vector reductions (``llvm.vector.reduce.fadd`` without ``reassoc``: the
    lanes added one by one, the same rounding as the scalar loop) still vectorize the
    loads, subtractions and multiplications around them, as gcc does. benchmarks'
    kmeans_assign (a 4-term squared distance per centroid) ran 0.83x its time with them;
    the other classic and array kernels the same within noise. Set only while script
    optimizes, like `_without_lsr`."""
    llvm.set_option("", "-force-ordered-reductions=true")
    try:
        yield
    finally:
        llvm.set_option("", "-force-ordered-reductions=false")


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
