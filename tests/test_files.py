"""Text files read in compiled code (`open`, `with open(...) as f`, file methods) and
`os.path` (frontend/file_calls.py, with_open.py, textio.py; pyhooks/files.py), run
against CPython: values, types, exceptions and messages."""

import os

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


def read_all(path):
    with open(path) as f:
        text = f.read()
    return text, f.closed


def read_lines(path, encoding):
    with open(path, encoding=encoding) as f:
        lines = f.readlines()
    return lines


def read_parts(path, n):
    f = open(path, "r")
    first = f.readline()
    some = f.read(n)
    short = f.readline(n)
    rest = f.readlines()
    f.close()
    return first, some, short, rest, f.closed, f.mode


def line_lengths(path):
    out = []
    for line in open(path):
        out.append(len(line.rstrip("\n")))
    return out


def grid_sum(folder, name):
    with open(os.path.join(folder, name)) as handle:
        grid = [[int(x) for x in row.split(",")] for row in handle.read().strip().splitlines()]
    return sum(sum(row) for row in grid)


def closes_on_error(path):
    try:
        with open(path) as f:
            raise ValueError(f.readline())
    except ValueError as e:
        message = str(e)
    return message, f.closed


def read_after_close(path):
    with open(path) as f:
        pass
    return f.read()


def two_files(a, b):
    with open(a) as x, open(b) as y:
        return x.read() + y.read()


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(b"3,1,4\r\n1,5\n9,2,6\n\xc3\xa9,x\nlast")
    return str(path)


def test_reading_against_cpython(text_file, tmp_path):
    check_all_levels(read_all, text_file)
    check_all_levels(read_lines, text_file, "utf-8")
    check_all_levels(read_lines, text_file, "ascii")         # CPython's UnicodeDecodeError
    check_all_levels(read_lines, text_file, "no-such-codec")  # its LookupError
    for n in (0, 2, 100):
        check_all_levels(read_parts, text_file, n)
    check_all_levels(line_lengths, text_file)
    check_all_levels(closes_on_error, text_file)
    check_all_levels(read_after_close, text_file)             # ValueError: closed file
    check_all_levels(read_all, str(tmp_path / "missing.txt"))  # FileNotFoundError
    check_all_levels(two_files, text_file, text_file)
    grid = tmp_path / "grid.txt"
    grid.write_text("1,2\n3,4\n")
    check_all_levels(grid_sum, str(tmp_path), "grid.txt")


def _writes(path):
    with open(path, "w") as f:
        f.read()


def _newline(path):
    return open(path, newline="").read()


def _read_after_loop(path):
    f = open(path)
    for line in f:
        break
    return f.read()


def test_what_is_not_compiled_is_refused(text_file):
    with pytest.raises(CompileError, match="reads text files only"):
        script.script(_writes)(text_file)
    with pytest.raises(CompileError, match="newline= is not supported"):
        script.script(_newline)(text_file)
    with pytest.raises(RuntimeError, match="reading a file after iterating over it"):
        script.script(_read_after_loop)(text_file)


def paths(a, b):
    return (os.path.join(a, b), os.path.join(a), os.path.dirname(a), os.path.basename(a),
            os.path.split(a), os.path.splitext(b), os.path.normpath(a), os.path.isabs(b))


@settings(max_examples=40, deadline=None)
@given(st.text("ab./ ", max_size=8), st.text("ab./", max_size=6))
def test_os_path_against_cpython(a, b):
    check_all_levels(paths, a, b)


def exists(path):
    return os.path.exists(path), os.path.isfile(path), os.path.isdir(os.path.dirname(path))


def test_os_path_of_the_disk(text_file):
    check_all_levels(exists, text_file)
    check_all_levels(exists, text_file + ".nope")
