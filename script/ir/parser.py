"""The one reader of IR text: builds, through the core.py API, the IR that printer.py wrote.

`parse_module` and `parse_function` accept exactly the format `printer.py` writes (the
grammar is `grammar/ir.lark`, shipped inside the installed package as `script/grammar`), so
``format_function(parse_function(t)) == t`` for printed text `t`. Blank lines are allowed and
the column padding before a ``; line:col`` location is free; nothing else is.

What the text carries and the parse restores: value and block structure, types, attributes,
constants (exact floats through ``repr``, ``nan``, ``inf``, ``-0.0``), JSON-escaped strings,
instruction locations (``; line:col``, in the file of the function's ``"file":line``
header, or `filename` when there is none) and the function's location. Value names and the
locations of block parameters and constants are not printed, so they come back as None.

References may point forward: to blocks, to values defined further down (a loop's back
edge), and to functions defined later in the module. Every error — a syntax error, an
unknown op, value, block, function or exception, a constant out of range, a value defined
twice — raises `IRParseError` (a `LoadError`) with ``file:line:col``, the line and a caret;
never a lark traceback. The result is then verified, and a `VerifyError` comes out as an
`IRParseError` with the verifier's message.

lark is imported on the first parse, not on import of this module, and the built parser is
kept for the life of the process.
"""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path

from script.errors import LoadError, SourceLoc, VerifyError
from script.ir import types as T
from script.ir.core import Block, Const, Function, Instr, Module, Value, replace_all_uses_with
from script.ir.ops import (ATOMIC_FUNCS, CMP_PREDS, EXCEPTIONS, LAPACK_ROUTINES, MATCH_CLASSES, MATH_FUNCS, OPS, OVF_OPS,
                           RNG_STATES, SREGS, STR_PY, ArrayData, ExcInfo)

__all__ = ["IRParseError", "parse_module", "parse_function"]


class IRParseError(LoadError):
    """IR text that cannot be read. `line` and `col` (1-based) are None for verifier errors."""

    def __init__(self, message: str, filename: str = "<ir>", line: int | None = None,
                 col: int | None = None, source_line: str | None = None):
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        text = message
        if line is not None:
            text = f"{filename}:{line}:{col}: {message}"
            if source_line is not None:
                text += f"\n    {source_line}\n    {' ' * (col - 1)}^"
        super().__init__(text)


def parse_module(text: str, filename: str = "<ir>", verify: bool = True) -> Module:
    """All functions in `text`, in order; calls may name any function of the module."""
    with _deep_nesting_is_an_error(filename):
        return _parse_module(text, filename, verify)


def parse_function(text: str, filename: str = "<ir>", callees=None, verify: bool = True) -> Function:
    """The one function in `text`. It may call itself and the functions in `callees`
    (a mapping from name to `Function`)."""
    with _deep_nesting_is_an_error(filename):
        return _parse_function(text, filename, callees, verify)


@contextlib.contextmanager
def _deep_nesting_is_an_error(filename: str):
    try:
        yield
    except RecursionError:
        raise IRParseError("types nested too deeply", filename) from None


def _parse_module(text: str, filename: str, verify: bool) -> Module:
    tree = _parse_tree(text, filename)
    reader = _Reader(text, filename)
    funcs = [reader.declare(ft) for ft in tree.children]
    module = Module()
    for f, ft in zip(funcs, tree.children):
        if f.name in module.functions:
            reader.fail(f"function @{f.name} is defined twice", ft.children[0])
        module.add(f)
    for f, ft in zip(funcs, tree.children):
        reader.define(f, ft, module.functions)
    if verify:
        for f in funcs:
            _verify(f)
    return module


def _parse_function(text: str, filename: str, callees, verify: bool) -> Function:
    tree = _parse_tree(text, filename)
    reader = _Reader(text, filename)
    if len(tree.children) != 1:
        raise IRParseError(f"expected one function, found {len(tree.children)}", filename)
    ft = tree.children[0]
    func = reader.declare(ft)
    known = dict(callees or {})
    known[func.name] = func
    reader.define(func, ft, known)
    if verify:
        _verify(func)
    return func


def _verify(func: Function) -> None:
    from script.ir.verifier import verify_function
    try:
        verify_function(func, after="parse")
    except VerifyError as e:
        raise IRParseError(str(e)) from None


# --- lark ---------------------------------------------------------------------------------

def _grammar_path() -> Path:
    """`script/grammar/ir.lark`: in the installed package a data file, in the source tree a
    link to the top-level `grammar/` directory."""
    return Path(__file__).resolve().parent.parent / "grammar" / "ir.lark"


@functools.lru_cache(maxsize=None)
def _lark():
    import lark
    return lark.Lark(_grammar_path().read_text(encoding="utf-8"), parser="lalr",
                     propagate_positions=True, maybe_placeholders=True)


_TERMINAL_WORDS = {
    "VALUE": "a value (%N)", "LABEL": "a block label (bbN)", "FUNC_NAME": "a function name (@f)",
    "OPNAME": "an opcode", "EXC": "an exception name", "SCALAR": "a type",
    "NUMBER": "a number", "INT": "a line number", "STRING": "a string",
    "LOC": "a location (; line:col)", "_NL": "end of line", "$END": "end of input",
}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        return repr(_lark().get_terminal(name).pattern.value)
    except (KeyError, AttributeError):
        return name


def _parse_tree(text: str, filename: str):
    import lark
    try:
        return _lark().parse(text)
    except lark.exceptions.UnexpectedInput as e:
        line, col = e.line, e.column
        at_end = isinstance(e, lark.exceptions.UnexpectedEOF) or (
            isinstance(e, lark.exceptions.UnexpectedToken) and e.token.type == "$END")
        if at_end or line is None or line < 1:
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        if at_end:
            found, expected = "end of input", getattr(e, "expected", ())
        elif isinstance(e, lark.exceptions.UnexpectedToken):
            found = "end of line" if e.token.type == "_NL" else repr(str(e.token))
            expected = e.accepts or e.expected
        else:   # UnexpectedCharacters: the lexer's lookahead sets are too wide to list
            found, expected = f"character {text[e.pos_in_stream]!r}", ()
        words = sorted({_describe_terminal(n) for n in expected or ()})
        message = f"unexpected {found}"
        if words:
            message += ", expected " + (words[0] if len(words) == 1 else
                                        "one of " + ", ".join(words))
        raise IRParseError(message, filename, line, col, _source_line(text, line)) from None


def _source_line(text: str, line: int) -> str | None:
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else None


# --- building the IR ---------------------------------------------------------------------

class _Reader:
    """Turns parse trees into IR, raising `IRParseError` at the offending token."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.class_keys: list[str] = []     # the classes whose fields are being read (rec_type)

    def fail(self, message: str, where) -> None:
        if hasattr(where, "meta"):
            line, col = where.meta.line, where.meta.column
        else:
            line, col = where.line, where.column
        raise IRParseError(message, self.filename, line, col, _source_line(self.text, line))

    def string(self, token, text: str | None = None) -> str:
        try:
            return json.loads(str(token) if text is None else text)
        except ValueError:
            self.fail("malformed string", token)

    def func_name(self, token) -> str:
        name = str(token)[1:]
        return self.string(token, name) if name.startswith('"') else name

    # header

    def declare(self, ft) -> Function:
        """The function of a `function` tree, with its signature and no body yet."""
        name_tok, params, ret, src, *_ = ft.children
        param_trees = params.children if params is not None else []
        loc = None
        if src is not None:
            file_tok, line_tok = src.children
            loc = SourceLoc(self.string(file_tok), int(line_tok), 0)
        types = [self.type(p.children[1]) for p in param_trees]
        return Function(self.func_name(name_tok), types, self.type(ret), loc)

    def type(self, tree) -> T.Type:
        if not hasattr(tree, "data"):
            return T.parse_scalar(str(tree))
        if tree.data == "array_type":
            scalar, dims = tree.children
            dtype = T.parse_scalar(str(scalar))
            if not dtype.is_numeric():
                self.fail(f"arrays of {dtype} are not supported", scalar)
            text = str(dims)
            return T.ArrayType(dtype, text.count(":") - text.count("::"), "C" if "::1" in text else "A")
        if tree.data in ("list_type", "var_tuple_type"):
            elem = self.type(tree.children[0])
            if not T.is_list_element(elem):
                self.fail(f"lists of {elem} are not supported", tree.children[0])
            return T.ListType(elem) if tree.data == "list_type" else T.VarTupleType(elem)
        if tree.data == "iter_type":
            kind, elem = self.string(tree.children[0]), self.type(tree.children[1])
            if not T.is_list_element(elem) or not kind.isidentifier():
                self.fail(f"iterables {kind!r} of {elem} are not supported", tree.children[1])
            return T.IterType(elem, kind)
        if tree.data in ("dict_type", "set_type"):
            key = self.type(tree.children[0])
            if not T.is_key_type(key):
                self.fail(f"dict keys and set elements of type {key} are not supported", tree.children[0])
            if tree.data == "set_type":
                return T.SetType(key)
            value = self.type(tree.children[1])
            if not T.is_list_element(value):
                self.fail(f"dict values of type {value} are not supported", tree.children[1])
            return T.DictType(key, value)
        if tree.data == "rec_type":
            key = self.string(tree.children[0])
            if key not in self.class_keys:
                self.fail(f"rec[{key!r}] outside the fields of class {key!r}", tree)
            return T.ClassRef(key)
        if tree.data == "enum_type":
            return T.EnumType(self.string(tree.children[0]))
        if tree.data == "fn_type":
            return T.FuncType(self.string(tree.children[0]))
        if tree.data in ("named_type", "obj_type"):
            key, *fields = tree.children
            names = [self.string(f.children[0]) for f in fields]
            if tree.data == "named_type":
                return T.NamedTupleType(self.string(key), names, [self.type(f.children[1]) for f in fields])
            self.class_keys.append(self.string(key))
            try:
                elems = [self.type(f.children[1]) for f in fields]
            finally:
                self.class_keys.pop()
            if not all(T.is_field_type(e) for e in elems):
                self.fail(f"fields of types {', '.join(map(str, elems))} are not supported", tree)
            return T.ClassType(self.string(key), names, T.TupleType(elems))
        if tree.data == "opt_type":
            value = self.type(tree.children[0])
            if not T.is_optional_value(value):
                self.fail(f"optionals of {value} are not supported", tree.children[0])
            return T.OptionalType(value)
        if tree.data == "union_type":
            alternatives = [self.type(c) for c in tree.children]
            for c, alt in zip(tree.children, alternatives):
                if not T.is_union_alternative(alt):
                    self.fail(f"unions of {alt} are not supported", c)
            return T.UnionType(alternatives)
        return T.TupleType([self.type(c) for c in tree.children])

    # body

    def define(self, func: Function, ft, functions) -> None:
        _FunctionReader(self, func, functions).read(ft)


class _FunctionReader:
    """The state of reading one function body: names of values and blocks.

    Blocks and their parameters are all created before any instruction, so branches may name
    later blocks. A use of a value defined further down gets a placeholder that the
    definition replaces; placeholders left at the end are unknown values.
    """

    def __init__(self, reader: _Reader, func: Function, functions):
        self.r = reader
        self.func = func
        self.functions = functions
        self.values: dict[str, Value] = {}
        self.pending: dict[str, tuple[Value, object]] = {}   # name -> (placeholder, first use)
        self.blocks: dict[str, Block] = {}
        self.file = func.loc.file if func.loc is not None else reader.filename

    def read(self, ft) -> None:
        name_tok, params, _ret, _src, *block_trees = ft.children
        if not block_trees:
            self.r.fail("a function needs at least one block", name_tok)
        for p, tree in zip(self.func.params, params.children if params is not None else []):
            self.define_value(tree.children[0], p)
        for k, bt in enumerate(block_trees):
            self.declare_block(k, bt)
        for bt in block_trees:
            self.read_block(bt)
        for name, (_, use) in self.pending.items():
            self.r.fail(f"unknown value {name}", use)

    def declare_block(self, k: int, bt) -> None:
        label, params = bt.children[0], bt.children[1]
        if str(label) in self.blocks:
            self.r.fail(f"block {label} is defined twice", label)
        block = self.func.entry if k == 0 else self.func.add_block()
        self.blocks[str(label)] = block
        if params is None:
            return
        if k == 0:
            self.r.fail("the entry block's parameters are written in the function header", label)
        for p in params.children:
            self.define_value(p.children[0], block.add_param(self.r.type(p.children[1])))

    def define_value(self, token, value: Value) -> None:
        name = str(token)
        if name in self.values:
            self.r.fail(f"value {name} is defined twice", token)
        self.values[name] = value
        if name in self.pending:
            placeholder, _ = self.pending.pop(name)
            replace_all_uses_with(placeholder, value)

    def read_block(self, bt) -> None:
        label = bt.children[0]
        block = self.blocks[str(label)]
        for it in bt.children[2:]:
            if block.terminator is not None:
                self.r.fail(f"instruction after the terminator of {label}", it)
            self.read_instr(block, it)
        if block.terminator is None:
            self.r.fail(f"block {label} does not end in a terminator", label)

    def read_instr(self, block: Block, it) -> None:
        if it.data == "assign":
            name_tok, stmt, type_tree, loc_tok = it.children
            rtype = self.r.type(type_tree)
            if rtype == T.NONE:
                self.r.fail("a result of type none is not written", type_tree)
        else:
            name_tok, (stmt, loc_tok), rtype = None, it.children, T.NONE
        instr = self.make_instr(stmt, rtype, name_tok)
        if loc_tok is not None:
            line, col = str(loc_tok)[1:].strip().split(":")
            instr.loc = SourceLoc(self.file, int(line), int(col))
        block.append(instr)
        if name_tok is not None:
            self.define_value(name_tok, instr)

    def make_instr(self, stmt, rtype: T.Type, name_tok) -> Instr:
        kind = stmt.data
        ch = stmt.children
        if kind == "op":
            return self.make_op(ch[0], self.operands(ch[1]), rtype, name_tok)
        if kind == "call":
            name = self.r.func_name(ch[0])
            callee = self.functions.get(name)
            if callee is None:
                self.r.fail(f"unknown function @{name}", ch[0])
            return Instr("call", self.operands(ch[1]), rtype, callee)
        if kind == "br":
            block, args = self.target(ch[0])
            return Instr("br", args, succs=[block], succ_nargs=[len(args)])
        if kind == "cbr":
            cond = self.operand(ch[0])
            (b1, a1), (b2, a2) = self.target(ch[1]), self.target(ch[2])
            return Instr("cbr", [cond, *a1, *a2], succs=[b1, b2], succ_nargs=[len(a1), len(a2)])
        if kind == "check":
            cond, exc, *extra = ch
            return Instr("check", [self.operand(cond), *map(self.operand, extra)], attr=self.exc(exc))
        if kind in ("raise", "exception"):
            exc, *extra = ch
            return Instr(kind, [self.operand(v) for v in extra], rtype, attr=self.exc(exc))
        if kind == "print":
            text, *extra = ch
            return Instr("print", [self.operand(v) for v in extra], attr=self.r.string(text))
        if kind == "str_const":
            return Instr("str_const", [], rtype, self.r.string(ch[0]))
        raise AssertionError(kind)

    def make_op(self, op_tok, operands, rtype: T.Type, name_tok) -> Instr:
        name, _, suffix = str(op_tok).partition(".")
        info = OPS.get(name)
        if info is None or name in ("call", "check", "raise", "exception", "br", "cbr", "print", "str_const"):
            self.r.fail(f"unknown op {name!r}", op_tok)
        if info.result == "void" and name_tok is not None:
            self.r.fail(f"{name} has no result", name_tok)
        attr = None
        if info.attr is None:
            if suffix:
                self.r.fail(f"{name} takes no attribute", op_tok)
        elif not suffix:
            self.r.fail(f"{name} needs an attribute ({name}.…)", op_tok)
        elif info.attr == "pred":
            if suffix not in CMP_PREDS:
                self.r.fail(f"unknown comparison {suffix!r}", op_tok)
            attr = suffix
        elif info.attr == "index":
            if not suffix.isdigit():
                self.r.fail(f"extract needs an index, not {suffix!r}", op_tok)
            attr = int(suffix)
        elif info.attr == "axes":
            if not suffix or set(suffix) - {"i", "s", "n"}:
                self.r.fail(f"view needs axes of i, s and n, not {suffix!r}", op_tok)
            attr = suffix
        elif info.attr == "fn":
            if suffix not in MATH_FUNCS:
                self.r.fail(f"unknown math function {suffix!r}", op_tok)
            attr = suffix
        elif info.attr == "data":
            attr = ArrayData.parse(suffix)
            if attr is None:
                self.r.fail(f"bad array data {suffix[:40]!r}: lengths joined by x, _, hex bytes", op_tok)
        elif info.attr in ("sreg", "atomic", "rng", "lapack", "strpy", "class", "ovf"):
            known = {"sreg": SREGS, "atomic": ATOMIC_FUNCS, "rng": RNG_STATES,
                     "lapack": LAPACK_ROUTINES, "strpy": STR_PY, "class": MATCH_CLASSES,
                     "ovf": OVF_OPS}[info.attr]
            if suffix not in known:
                self.r.fail(f"unknown {name} {suffix!r}; expected one of {', '.join(known)}", op_tok)
            attr = suffix
        return Instr(info, operands, rtype, attr)

    def exc(self, tree) -> ExcInfo:
        name_tok, msg_tok = tree.children
        if str(name_tok) not in EXCEPTIONS:
            self.r.fail(f"unknown exception {name_tok}", name_tok)
        return ExcInfo(str(name_tok), None if msg_tok is None else self.r.string(msg_tok))

    def target(self, tree) -> tuple[Block, list[Value]]:
        label, args = tree.children
        block = self.blocks.get(str(label))
        if block is None:
            self.r.fail(f"unknown block {label}", label)
        return block, self.operands(args)

    def operands(self, tree) -> list[Value]:
        return [] if tree is None else [self.operand(c) for c in tree.children]

    def operand(self, node) -> Value:
        if not hasattr(node, "data"):                 # a VALUE token
            name = str(node)
            value = self.values.get(name)
            if value is not None:
                return value
            if name not in self.pending:
                self.pending[name] = (Value(T.NONE), node)
            return self.pending[name][0]
        if node.data == "true":
            return Const(True, T.BOOL)
        if node.data == "false":
            return Const(False, T.BOOL)
        if node.data == "none":
            return Const(None, T.NONE)
        return self.number(*node.children)

    def number(self, tok, type_tree) -> Const:
        t = self.r.type(type_tree)
        text = str(tok)
        if isinstance(t, T.FloatType) and not text.endswith("j"):
            return Const(float(text), t)
        if isinstance(t, T.ComplexType) and text.endswith("j"):
            body = text[:-1]        # the '+' between the parts, not an exponent's (1e+23+nanj)
            cut = next(i for i in range(1, len(body)) if body[i] == "+" and body[i - 1] not in "eE")
            re_text, im_text = body[:cut], body[cut + 1:]
            return Const(complex(float(re_text), float(im_text)), t)
        if text.endswith("j"):
            self.r.fail(f"{text} is not a constant of type {t}", tok)
        if not isinstance(t, T.IntType):
            self.r.fail(f"no numeric constants of type {t}", tok)
        if not text.lstrip("-").isdigit():
            self.r.fail(f"{text} is not an integer", tok)
        value = int(text)
        if not t.min <= value <= t.max:
            self.r.fail(f"{value} is out of range for {t}", tok)
        return Const(value, t)
