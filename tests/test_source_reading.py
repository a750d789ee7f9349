"""Reading a function's source (frontend.source `_read_source`): the same lines and first line
number as `inspect.getsourcelines`, whose text the compile cache keys on, for the layouts that
its indentation-only reading takes and for those it leaves to inspect's tokenizer. Every case
is a module written to a file, imported, and each of its functions read both ways."""

import importlib.util
import inspect
import textwrap

import pytest

import script
from script.errors import CompileError
from script.frontend.source import _def_block, _read_source

CASES = {
    "plain": '''
        def f(x):
            return x + 1
        ''',
    "decorated_and_followed": '''
        import functools

        def deco(g):
            return g

        @deco
        @functools.lru_cache(maxsize=None)
        def f(x):
            y = x * 2
            return y
        x = 3
        ''',
    "trailing_comments": '''
        def f(x):
            y = x
            # a comment at the body's indentation is part of the block
          # one between the def and the body is not
        # nor one at the def's

        def g(x):
            return x
                # deeper: part of g
        ''',
    "blank_lines_inside": '''
        def f(x):

            y = x


            return y



        z = 1
        ''',
    "string_at_column_zero": '''
        def f(x):
            s = """
        a line of the string at column 0
        """
            return x + len(s)

        def g(x):
            return x
        ''',
    "continuations": '''
        def f(x):
            y = (x +
        1)
            z = x + \\
        2
            return y + z
        ''',
    "hash_in_string_last": '''
        def f(x):
            s = """
          # not a comment
        """
            return s
        ''',
    "method": '''
        class C:
            def f(self, x):
                return x

            # trailing comment at the class body's indentation
            def g(self):
                return 1
        ''',
    "nested": '''
        def outer():
            def f(x):
                return x * 2
            return f
        f = outer()
        ''',
    "one_line_body": '''
        def f(x): return x + 1
        def g(x):
            return x
        ''',
    "multi_line_header": '''
        def f(x,
              y=2):
            return x + y

        def g(
            x,
        ):
            return x
        ''',
    "header_comment": '''
        def f(x):  # a comment: with a colon
            return x
        ''',
    "tabs": 'def f(x):\n\treturn x\n\ndef g(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n',
    "crlf": 'def f(x):\r\n    y = x\r\n    return y\r\n\r\ndef g(x):\r\n    return x\r\n',
    "no_final_newline": 'def f(x):\n    return x',
    "comment_before_def": '''
        @staticmethod
        # a comment between the decorator and the def
        def f(x):
            return x
        ''',
}


def _load(tmp_path, name, text):
    path = tmp_path / f"srcread_{name}.py"
    path.write_text(textwrap.dedent(text) if "\n        " in text else text, newline="")
    spec = importlib.util.spec_from_file_location(f"srcread_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _functions(mod):
    out = []
    for value in vars(mod).values():
        if inspect.isfunction(value) and value.__module__ == mod.__name__:
            out.append(value)
        if inspect.isclass(value):
            out.extend(v for v in vars(value).values() if inspect.isfunction(v))
        if isinstance(value, staticmethod):
            out.append(value.__func__)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_lines_as_inspect(tmp_path, name):
    mod = _load(tmp_path, name, CASES[name])
    funcs = _functions(mod)
    assert funcs
    for fn in funcs:
        lines, first, tree = _read_source(fn)
        assert (lines, first) == tuple(inspect.getsourcelines(fn)), fn.__qualname__
        assert tree.body and tree.body[0].name == fn.__name__


def test_indentation_reading_declines_where_it_may_be_wrong(tmp_path):
    """The layouts it does not read itself (one-line bodies, headers over several lines or
    with a comment, tabs, a comment after a decorator) go to inspect; the plain ones not."""
    for name, expected in (("plain", True), ("one_line_body", False), ("header_comment", False),
                           ("tabs", False), ("comment_before_def", False)):
        fn = _functions(_load(tmp_path, name, CASES[name]))[0]
        lines, start = inspect.findsource(fn)
        assert (_def_block(lines, start) is not None) == expected, name


def test_truncated_reading_falls_back(tmp_path):
    """A string at column 0 ends the indentation reading early; the lines it gives do not
    parse, and inspect's are used (the compiled function works)."""
    mod = _load(tmp_path, "string_at_column_zero", CASES["string_at_column_zero"])
    lines, start = inspect.findsource(mod.f)
    assert ''.join(_def_block(lines, start)).rstrip().endswith('s = """')
    assert script.script(mod.f)(2) == mod.f(2)


def test_compiled_functions_read_both_ways_agree(tmp_path):
    for name in ("trailing_comments", "continuations", "method", "crlf", "no_final_newline"):
        mod = _load(tmp_path, name, CASES[name])
        fn = getattr(mod, "f", None) or mod.C.f
        if name == "method":
            assert script.script(fn)(None, 3) == 3
        else:
            assert script.script(fn)(5) == fn(5)


def test_syntax_error_names_the_file_line(tmp_path):
    """Source that does not parse (here: linecache's copy of the file edited after the
    import) is a CompileError at the file's line, after both readings tried it."""
    mod = _load(tmp_path, "edited", '''
        import asyncio

        def f(x):
            y = x
            return y
        ''')
    import linecache
    path = mod.f.__code__.co_filename
    lines = linecache.getlines(path)
    linecache.cache[path] = (len(lines), None, lines[:5] + ["    return (y\n"], path)
    try:
        with pytest.raises(CompileError, match=r"cannot parse the source of 'f'") as info:
            script.script(mod.f)
        assert f"{path}:6" in str(info.value) or ":6:" in str(info.value)
    finally:
        linecache.cache.pop(path, None)
