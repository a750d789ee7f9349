"""`open(path)` for reading text, `with open(...) as f:`, and `os.path` in compiled code.

The file is read whole by CPython where `open` is called (textio.py, pyhooks/files.py), so
what it holds, how it is decoded and what `open` raises are CPython's; compiled code then
reads it as a `textio.TextFile` record. Only reading text is compiled: another mode,
`newline=`, `buffering=`, `closefd=` or `opener=` is a CompileError naming it.

``with open(p) as f:`` is rewritten before lowering (with_open.py).
"""

from __future__ import annotations

import ast
import builtins
import os.path

from script.lib.python import textio
from script.frontend.builtins_lowering import callee_ref
from script.frontend.registry import lowers
from script.ir import types as T
from script.pyhooks.files import PATH_FUNCTIONS

_READ_MODES = ("r", "rt", "tr")
_PARAMETERS = ("file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener")


@lowers(builtins.open)
def lower_open(cx, node: ast.Call, name: str):
    """``open(file, mode="r", encoding=None, errors=None)``: a TextFile over the file's text.
    The arguments are evaluated once each, in the order written."""
    if len(node.args) > len(_PARAMETERS):
        cx.error(f"open() takes at most {len(_PARAMETERS)} arguments ({len(node.args)} given)", node)
    given = list(zip(_PARAMETERS, node.args)) + [(k.arg, k.value) for k in node.keywords]
    args = dict(given)
    if len(args) < len(given):
        cx.error("open() got multiple values for one argument", node)
    for k in args:
        if k not in _PARAMETERS:
            cx.error(f"open() got an unexpected keyword argument '{k}'", node)
    if "file" not in args:
        cx.error("open() missing required argument 'file' (pos 1)", node)
    mode = args.get("mode")
    mode_text = "r" if mode is None else mode.value if isinstance(mode, ast.Constant) else None
    if mode_text not in _READ_MODES:
        cx.error(f"open() in compiled code reads text files only (mode 'r'): mode "
                 f"{ast.unparse(mode)} is not supported", mode or node)
    for k in ("buffering", "newline", "closefd", "opener"):
        if k in args and not (isinstance(args[k], ast.Constant) and args[k].value is None and k in ("newline", "opener")):
            cx.error(f"open() with {k}= is not supported in compiled code (a text file is read with "
                     "universal newlines and default buffering)", args[k])
    values = {}
    for k, v in given:                  # in the order written, each left for its node's `expr`
        if k in ("file", "encoding", "errors"):
            values[k] = cx.pre_evaluate(v)
            if not (isinstance(values[k].type, T.StrType) or k != "file" and values[k].type == T.NONE):
                cx.error(f"open()'s {k} must be a str in compiled code, not {values[k].type}", v)
    pre = [args["file"]] + [ast.BinOp(ast.Constant("="), ast.Add(), args[k])
                            if k in values and values[k].type != T.NONE else ast.Constant("")
                            for k in ("encoding", "errors")]
    options = ast.BinOp(ast.BinOp(pre[1], ast.Add(), ast.Constant("\0")), ast.Add(), pre[2])
    call = ast.Call(ast.Name("open_text", ast.Load()), [pre[0], options, ast.Constant(mode_text)], [])
    for n in ast.walk(call):
        if not hasattr(n, "lineno"):
            ast.copy_location(n, node)
    return cx.call_script(cx.ctx.info_for(textio.open_text), call)


_PATH_KINDS = {"str": textio.path_str, "bool": textio.path_bool, "pair": textio.path_pair}


@lowers(*(getattr(os.path, f) for f in PATH_FUNCTIONS))
def lower_os_path(cx, node: ast.Call, name: str):
    """``os.path.join(a, b)``, ``os.path.dirname(p)``, ...: CPython's os.path on strs."""
    obj = callee_ref(cx, node.func).obj
    fname = next(f for f in PATH_FUNCTIONS if getattr(os.path, f) is obj)
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        cx.error(f"os.path.{fname}() takes its paths as positional arguments in compiled code", node)
    if fname == "join" and not node.args:
        cx.error("join() missing 1 required positional argument: 'a'", node)
    if fname != "join" and len(node.args) != 1:
        cx.error(f"{fname}() takes 1 positional argument but {len(node.args)} were given", node)
    for a in node.args:                 # in the order written, each a str left for its node's `expr`
        t = cx.pre_evaluate(a).type
        if not isinstance(t, T.StrType):
            cx.error(f"os.path.{fname}() of a {t} is not supported in compiled code (paths are strs)", a)
    call = ast.Call(ast.Name("path", ast.Load()), [ast.Constant(fname), ast.List(list(node.args), ast.Load())], [])
    for n in ast.walk(call):
        if not hasattr(n, "lineno"):
            ast.copy_location(n, node)
    fn = _PATH_KINDS[PATH_FUNCTIONS[fname]]
    return cx.call_script(cx.ctx.info_for(fn), call)
