"""The op table's columns (script/ir/ops.py): each per-op fact that more than one place needs
is a column of `OPS`. These pin which ops have each (the sets of op names the code kept
before they were columns), so that a change to a row is a deliberate one."""

from script.ir.ops import OPS


def names(column: str) -> set:
    return {name for name, op in OPS.items() if getattr(op, column)}


def family(name: str) -> set:
    return {n for n, op in OPS.items() if op.family == name}


def test_columns():
    assert names("may_raise") == {"check", "raise", "reraise", "alloc", "poll", "str_new", "str_char",
                                  "str_py", "str_concat"}
    assert names("fresh") == {"alloc", "call", "tuple", "list_new", "list_null", "str_new", "str_py",
                              "str_char", "str_concat", "catch", "exception"}
    assert names("consumes") == {"ret", "tuple"}
    assert names("reads") == {"load", "list_get", "list_len", "str_get"}
    assert names("env_only") == {"check", "poll", "raise", "reraise"}
    assert names("view") == {"view", "transpose", "reshape", "part"}
    assert names("complex_ok") == {"add", "sub", "mul", "div", "neg", "cmp", "select", "convert", "math",
                                   "extract", "tuple", "call", "ret", "br", "cbr", "load", "store",
                                   "list_get", "list_set", "alloc"}
    assert names("commutative") == {"add", "acc", "mul", "and", "or", "xor"}
    assert names("always_defined") == {"cmp", "and", "or", "xor", "not", "invert", "add", "acc", "sub", "mul",
                                       "neg", "abs", "min", "max", "select", "dim", "stride", "extract"}
    assert names("kernel_ok") == {
        "add", "sub", "mul", "div", "floordiv", "mod", "pow", "and", "or", "xor", "shl", "shr",
        "min", "max", "neg", "invert", "not", "abs", "cmp", "convert", "select", "tuple", "dim",
        "stride", "load", "store", "view", "transpose", "extract", "math", "call", "check", "br",
        "cbr", "ret", "raise", "sreg", "barrier", "shared", "atomic"}
    assert family("caught") == {"exception", "raised", "catch", "exc_match", "reraise"}
    assert family("kernel") == {"sreg", "barrier", "shared", "atomic"}


def test_columns_agree():
    """Facts that follow from others: what raises or writes the Env only is impure; reads and
    views are no terminators; an op defined for any operand has no effect."""
    for name, op in OPS.items():
        assert op.family, f"{name} has no family"
        if op.env_only or op.reads:
            assert not op.pure and not op.terminator or op.env_only, name
        if op.always_defined:
            assert op.pure and not op.may_raise, name
        if op.commutative:
            assert op.nargs == 2, name
