"""The instance layout of the compiled-function type (`struct CompiledFunction`, 64-bit),
shared by the code that generates its C functions (runtime.dispatch) and the code that makes
the type and writes its instances (runtime.pymodule, whose constants the load path uses:
so this module imports nothing)::

    offset  field
       0    PyObject_HEAD (ob_refcnt, ob_type)
      16    vectorcallfunc vectorcall                             (__vectorcalloffset__)
      24    PyObject *dict                                        (__dictoffset__)
      32    PyObject *weaklist                                    (__weaklistoffset__)
      40    PyObject *fallback      called when no specialization matches
      48    PyObject *keepalive     a list owning the entry tables and their libraries
      56    Py_ssize_t nargs        positional arguments every specialization takes (-1: none)
      64    Py_ssize_t ntry         entries of `tries` in use
      72    vectorcallfunc *tries   entry points (runtime.entry), tried in order
      80    PyObject *rerun         called instead when a call that leaves no trace raised
                                    OverflowError (NULL: never; runtime.entry `script.rerun`)
"""

VECTORCALL, DICT, WEAKLIST, FALLBACK, KEEPALIVE, NARGS, NTRY, TRIES, RERUN = range(16, 88, 8)
BASICSIZE = 88
OBJECT_FIELDS = (DICT, FALLBACK, KEEPALIVE, RERUN)      # strong references, visited and cleared
