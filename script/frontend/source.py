"""What the frontend knows about one user function: its AST, names, annotations, defaults.

Built once per Python function (`FunctionInfo.of`). Source positions are mapped back to the
user's file: `ast` numbers lines from the start of the extracted source and columns from its
dedented text, so both are shifted here.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import tokenize
import weakref

from script.errors import CompileError, SourceLoc
from script.frontend.assigned_names import assigned_names as _assigned_names
from script.frontend.held_moves import move_held_iterators
from script.frontend.mangling import mangle_private_names
from script.frontend.shared_defaults import shared_defaults
from script.frontend.with_open import with_open
from script.frontend.global_writes import cell_rewrite, hidden_globals, shadowed_cells, strip_global_declarations
from script.frontend.typeinfer import is_open_annotation, is_table_argument_value, type_from_annotation
from script.ir import types as T


def binding_annotation(t: T.Type | None) -> T.Type | None:
    """`t` where an annotation binds its parameter's type: a scalar width no Python value has
    (`script.i32`, `numpy.float32`), which converts what the call passes; None for a hint."""
    if isinstance(t, T.IntType) and t != T.I64 or t == T.F32:
        return t
    return None


class FunctionInfo:
    @property
    def py_func(self):
        """The Python function, held weakly: a dropped function frees what its closure
        holds, and the frontend's caches (specialize.CONTEXT) let its info go with it."""
        f = self._py_func
        return f() if isinstance(f, weakref.ref) else f

    @py_func.setter
    def py_func(self, f) -> None:
        try:
            self._py_func = weakref.ref(f)
        except TypeError:           # not weakly referable: held
            self._py_func = f

    def __init__(self, py_func):
        self.py_func = py_func
        self.name = py_func.__name__
        self.qualname = py_func.__qualname__.replace("<locals>.", "")
        code = py_func.__code__
        self.filename = code.co_filename
        try:
            if self.name == "<lambda>":
                lines, first, tree = _read_lambda(py_func)
            else:
                lines, first, tree = _read_source(py_func)
        except (OSError, TypeError) as e:
            raise CompileError(_no_source_message(self.name, self.filename, e),
                               SourceLoc(self.filename, code.co_firstlineno)) from None
        except SyntaxError as e:
            raise CompileError(f"cannot parse the source of '{self.name}': {e.msg}",
                               SourceLoc(self.filename, e.lineno or code.co_firstlineno)) from None
        self.source = "".join(lines)    # as in the file; the compile cache keys on it
        self.indent = len(lines[0]) - len(lines[0].lstrip()) if lines and tree.body else 0
        self.line_offset = first - 1
        node = tree.body[0] if tree.body else getattr(tree, "lambda_def", None)
        if not isinstance(node, ast.FunctionDef):
            raise CompileError(f"'{self.name}' is not a plain 'def' function or a lambda (async "
                               "functions cannot be compiled)", SourceLoc(self.filename, first))
        if "__" in self.source:         # `self.__p` in class C is `self._C__p` (mangling.py)
            mangle_private_names(node, py_func.__qualname__)
        self.node = node
        self.first_line = first + node.lineno - 1
        # written module containers: hidden keyword-only parameters (global_writes.py)
        self.hidden_globals = hidden_globals(py_func, node) if self.name != "<lambda>" else ()
        if self.hidden_globals:
            shadowed = shadowed_cells(node, self.hidden_globals)
            if shadowed:
                raise CompileError(f"global '{shadowed[0]}', which a function of this module rebinds, is also "
                                   "a name a nested function, lambda or comprehension of "
                                   f"'{self.name}' binds: not supported in compiled code (rename one)",
                                   self.loc(node))
            cell_rewrite(node, self.hidden_globals)
            strip_global_declarations(node, self.hidden_globals)
            node.args.kwonlyargs += [ast.copy_location(ast.arg(g), node) for g in self.hidden_globals]
            node.args.kw_defaults += [None] * len(self.hidden_globals)
        positional = [a.arg for a in node.args.posonlyargs + node.args.args]
        self.n_positional = len(positional)     # `*args`, then keyword-only parameters follow them
        self.vararg = node.args.vararg.arg if node.args.vararg is not None else None    # varargs.py
        self.kwarg = node.args.kwarg.arg if node.args.kwarg is not None else None      # varargs.py
        self.param_names = [a.arg for a in all_params(node)] + ([self.kwarg] if self.kwarg else [])
        self.defaults = {}
        for name, value in zip(reversed(positional), reversed(py_func.__defaults__ or ())):
            self.defaults[name] = value
        self.defaults.update(py_func.__kwdefaults__ or {})
        self.shared_defaults = shared_defaults(py_func, node, self.defaults)
        self.any_array_params: set[str] = set()     # annotated `numpy.ndarray`: rank, dtype from the call
        # Annotations are hints, as in CPython: a call specializes on its arguments' own types
        # (`x: float` given 1 computes with the int). `param_hints` keeps what they name, for
        # an empty container argument (`xs: list[float]` given []) and for the signatures
        # compiled before any call (`scriptc check`, `script.save`, the cache); only a width
        # no Python value has (`x: script.i32`) binds the parameter (`param_types`).
        self.param_hints = [None if a is node.args.vararg else self._annotation(a.arg, a.annotation)
                            for a in all_params(node)]     # `*args`: specialized on each call's
        if self.hidden_globals:         # `memo: dict[tuple[int, int], int] = {}` at module level
            module_hints = [self._global_annotation(g) for g in self.hidden_globals]
            self.param_hints[len(self.param_hints) - len(module_hints):] = module_hints
        if self.kwarg:          # `**kwargs`, after those: a dict of strs to each call's values (ints when none)
            self.param_hints.append(T.DictType(T.STR, T.I64))
        self.param_types = [binding_annotation(t) for t in self.param_hints]
        # A generator's return annotation (Iterator[int], ...) describes no compiled value: its
        # body is inlined where it is iterated (generators.py).
        is_generator = code.co_flags & inspect.CO_GENERATOR
        self.return_type = self._annotation("return", node.returns) \
            if node.returns is not None and not is_generator else None
        if "cache" in self.source:      # @functools.cache on this def or a nested one (memo.py)
            from script.frontend.memo import memoize_nested, memoize_self
            memoize_self(node, self.global_value)
            memoize_nested(node, self.global_value)
        # `g = (... for ...)` read once just after: moved there; where iterators go (held_iterators)
        move_held_iterators(node, self.global_value)
        with_open(node, self.global_value)     # `with open(p) as f:`: try/finally f.close()
        self.local_names = frozenset(_assigned_names(node)) | frozenset(self.param_names)
        self.is_annotated = all(t is not None for t in self.param_types)
        self.hinted_signature = tuple(self.param_hints) if None not in self.param_hints else None
        self.specializations: dict[tuple, object] = {}     # arg types -> IR Function (unoptimized)

    def bind_annotations(self) -> None:
        """Make every annotation bind its parameter (a kernel's: `script.kernel`), not only
        the widths no Python value has."""
        self.param_types = list(self.param_hints)
        self.is_annotated = all(t is not None for t in self.param_types)

    def synthetic_loop(self, node) -> ast.For:
        """An empty `for` standing for a loop the compiler makes for `node` (a reduction, a
        slice fill): the same object in every build round, so loop type hints keyed by it
        carry over."""
        loops = self.__dict__.setdefault("_synthetic_loops", {})
        loop = loops.get(id(node))
        if loop is None:
            loop = loops[id(node)] = ast.For(target=ast.Name("_"), iter=None, body=[], orelse=[],
                                             lineno=getattr(node, "lineno", 1),
                                             col_offset=getattr(node, "col_offset", 0))
        return loop

    def _annotation(self, name: str, ann_node) -> T.Type | None:
        """The type a parameter's or the return's annotation names, None where it names none
        the compiler can use (`Any`, `int | str`, a name it cannot evaluate): as CPython
        ignores annotations, such a parameter is specialized on each call's argument."""
        if ann_node is None:
            return None
        try:
            ann = self.eval_annotation(ann_node)
        except Exception:  # noqa: BLE001 - CPython never evaluates a hint it does not need
            return None
        if getattr(ann, "__name__", None) == "ndarray" and getattr(ann, "__module__", None) == "numpy":
            self.any_array_params.add(name)
            return None                    # specialized on each call's array type
        from script.pyhooks.named_instance import is_record_class
        if is_record_class(ann):
            return None                    # `other: "Vec"`: an instance, its fields from each call's
        t = type_from_annotation(ann)
        if t is None and is_open_annotation(ann):
            return None             # `xs: list`, `Sequence[int]`: specialized on each call's argument
        if t is None:
            return None             # `Any`, `int | float`, `Node | None`: only a hint
        if isinstance(t, T.OptionalType) and name != "return":
            return None     # `x: Optional[T]`: specialized on each call's None or value
        if name != "return" and _has_list_valued_table(t):
            raise CompileError(f"a dict parameter whose values hold arrays ('{name}') is not supported (dicts "
                               "of numbers, strs, tuples, lists, dicts and sets are; dicts of arrays can be "
                               "results)", self.loc(ann_node))
        return t

    def _global_annotation(self, name: str) -> T.Type | None:
        """The type a module-level annotation gives the written module container `name` (a
        hidden parameter: global_writes.py), for when it is empty: None where there is none
        or it names no type the compiler can use."""
        ann = (self.py_func.__globals__.get("__annotations__") or {}).get(name)
        if ann is None:
            return None
        try:
            return self._annotation(name, ast.Constant(ann) if isinstance(ann, str) else ann)
        except CompileError:
            return None

    def eval_annotation(self, ann_node):
        if not isinstance(ann_node, ast.AST):
            return ann_node             # a module annotation, evaluated by CPython already
        if isinstance(ann_node, ast.Constant) and isinstance(ann_node.value, str):
            ann_node = ast.parse(ann_node.value, mode="eval").body
        scope = dict(self.py_func.__globals__)
        scope.update(self.closure_vars())
        return eval(compile(ast.Expression(ann_node), self.filename, "eval"), scope)  # noqa: S307

    def closure_vars(self) -> dict:
        code = self.py_func.__code__
        cells = self.py_func.__closure__ or ()
        out = {}
        for name, cell in zip(code.co_freevars, cells):
            try:
                out[name] = cell.cell_contents
            except ValueError:
                pass
        return out

    def global_value(self, name: str):
        """(found, value) for a free name: closure cells first, then module globals."""
        closure = self.closure_vars()
        if name in closure:
            return True, closure[name]
        g = self.py_func.__globals__
        if name in g:
            return True, g[name]
        return False, None

    def loc(self, node) -> SourceLoc:
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.indent
        return SourceLoc(self.filename, line, col)


def _read_source(py_func) -> tuple[list[str], int, ast.Module]:
    """`inspect.getsourcelines(py_func)` (the lines of the def and its decorators, and the
    number of the first) and the parse of their dedented text. `_def_block` finds the lines
    without `inspect.getblock`'s tokenizer (two thirds of the time of reading a function);
    where it declines, or its lines do not parse, `inspect.getblock` decides. SyntaxError
    (also for source that ends inside a bracket, where getblock's tokenizer fails) carries
    the line number in the file."""
    py_func = inspect.unwrap(py_func)
    try:
        lines, start = inspect.findsource(py_func)
    except OSError:
        lines, start = _cached_lines(py_func.__code__), py_func.__code__.co_firstlineno - 1
        if not lines or not 0 <= start < len(lines):
            raise
    block = _def_block(lines, start)
    if block is not None:
        try:
            return block, start + 1, ast.parse(textwrap.dedent("".join(block)))
        except SyntaxError:
            pass
    try:
        block = inspect.getblock(lines[start:])
    except tokenize.TokenError:         # its source ends inside a bracket or a string
        block = block or lines[start:]
    try:
        return block, start + 1, ast.parse(textwrap.dedent("".join(block)))
    except SyntaxError as e:
        e.lineno = start + (e.lineno or 1)
        raise


def _read_lambda(py_func) -> tuple[list[str], int, ast.Module]:
    """`_read_source` for a lambda: its text, 1, and an empty module whose `lambda_def` is the
    `def` the lambda means, with the positions of the whole file (a lambda is an expression
    inside a statement that may span lines before and after it, so the file is parsed). The
    lambda is the one whose line, parameters and body's first position are its code
    object's; two alike on one line (whose code would say the same) are refused."""
    code = py_func.__code__
    try:
        lines, _ = inspect.findsource(py_func)
    except OSError:
        lines = _cached_lines(code)
        if not lines:
            raise
    text = "".join(lines)
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                              + bool(code.co_flags & inspect.CO_VARARGS)]
    starts = {(p[0], p[2]) for p in code.co_positions() if p[0] is not None}
    found = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Lambda)
             and n.lineno == code.co_firstlineno
             and tuple(a.arg for a in all_params_of(n.args)) == params
             and (n.body.lineno, n.body.col_offset) in starts]
    if len(found) != 1:
        raise OSError(f"{'no' if not found else 'more than one'} lambda on line "
                      f"{code.co_firstlineno} matches its code")
    module = ast.Module(body=[], type_ignores=[])
    module.lambda_def = lambda_as_def("<lambda>", found[0])
    return [ast.get_source_segment(text, found[0]) or ""], 1, module


def lambda_as_def(name: str, node: ast.Lambda) -> ast.FunctionDef:
    """`name = lambda args: body` as the `def` it means."""
    fn = ast.FunctionDef(name=name, args=node.args, body=[ast.Return(node.body)], decorator_list=[],
                         returns=None, type_comment=None)
    ast.copy_location(fn.body[0], node.body)
    return ast.copy_location(fn, node)


def _cached_lines(code) -> list[str] | None:
    """The lines `linecache` holds for `code`'s file where inspect finds none. Python 3.13's
    REPL registers each input's source under its code object, not its name
    (`<python-input-N>`); 3.13.1 and later look it up with `_getlines_from_code`. (Entries
    under a file's name, as IPython and Jupyter make them with mtime None, inspect finds.)
    Found lines are registered under the file's name too, so errors show their line."""
    import linecache
    import types
    name = code.co_filename
    from_code = getattr(linecache, "_getlines_from_code", None)
    lines = from_code(code) if from_code is not None else None
    if not lines:
        lines = next((entry[2] for key, entry in list(linecache.cache.items())
                      if isinstance(key, types.CodeType) and len(entry) == 4 and entry[3] == name), None)
    if not lines:
        return None
    linecache.cache[name] = (sum(map(len, lines)), None, lines, name)
    return lines


def _no_source_message(name: str, filename: str, e: Exception) -> str:
    """Why the source of function `name` defined in `filename` cannot be read, and what to do."""
    where = {"<string>": "in a string given to `python -c` or exec()", "<stdin>": "in the interactive "
             "interpreter, which keeps no source before Python 3.13"}.get(filename, f"in {filename}")
    return (f"cannot read the source of '{name}' ({e}): it was defined {where}, and compiled functions "
            "are compiled from their source. Put it in a .py file and import that; for source made "
            "at run time, compile it with a file name and put its lines in `linecache` (as IPython "
            "does); or load compiled code without source (script.load, pickle)")


def _indent(line: str) -> int | None:
    """The indentation of `line` in columns, or None where it has tabs (tokenize's rules)."""
    body = line.lstrip(" ")
    return None if body.startswith(("\t", "\f")) else len(line) - len(body)


def _def_block(lines: list[str], start: int) -> list[str] | None:
    """The lines `inspect.getblock(lines[start:])` returns for a `def` at `lines[start]`
    (after one-line decorators) whose header is one line ending in ':', found by
    indentation alone: the block runs to the last line, indented deeper than the def, before
    the first line of code that is not (comments count where indented at least as the body,
    as inspect counts them). None where that reading may be wrong (tabs, a header over
    several lines or with a comment, a one-line body). A line that a string or a bracket
    continues at the def's indentation or less ends the block early: what comes back then
    does not parse, and the caller asks inspect."""
    indent = _indent(lines[start])
    i = start
    while i < len(lines) and lines[i].lstrip(" ").startswith("@"):
        if _indent(lines[i]) != indent:
            return None
        i += 1
    if i >= len(lines) or _indent(lines[i]) != indent:
        return None
    header = lines[i].strip()
    if not header.startswith("def ") or not header.endswith(":") or "#" in header:
        return None
    end, body = i + 1, None
    for k in range(i + 1, len(lines)):
        text = lines[k].strip()
        if not text:
            continue
        col = _indent(lines[k])
        if col is None:
            return None
        if text.startswith("#"):
            if body is not None and col >= body:
                end = k + 1
            continue
        if col <= indent:
            break
        if body is None:
            body = col
        end = k + 1
    return lines[start:end] if body is not None else None


def all_params(fn: ast.FunctionDef) -> list[ast.arg]:
    """The parameters of `fn` in the order of `FunctionInfo.param_names` (and of Python's
    `inspect.signature`): positional ones, `*args` (a tuple), then keyword-only ones."""
    return all_params_of(fn.args)


def all_params_of(args: ast.arguments) -> list[ast.arg]:
    star = [args.vararg] if args.vararg is not None else []
    return args.posonlyargs + args.args + star + args.kwonlyargs


def _has_list_valued_table(t: T.Type) -> bool:
    """Whether `t` has a dict whose values an argument cannot hold (typeinfer.is_table_argument_value)."""
    if isinstance(t, T.TupleType):
        return any(_has_list_valued_table(e) for e in t.elems)
    if isinstance(t, T.ListType):
        return _has_list_valued_table(T.contents(t))
    return isinstance(t, T.DictType) and not is_table_argument_value(t.value)
