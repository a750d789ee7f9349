"""Strings: compiled against CPython on generated text, non-ASCII included (docs/strings.md)."""

import gc
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
import str_kernels as K
from difftest import check_all_levels, compiled
from script.ir.parser import parse_module
from script.ir.printer import format_module

# Text whose characters collide often (so searches find things), with non-ASCII of every
# width: Latin-1, the BMP, beyond it, case mappings that change lengths (ß, ŉ), spaces.
ALPHABET = "ab ,.AB0189éßŉİΣς€\u2003\u3000😀\t"
TEXT = st.text(alphabet=ALPHABET, max_size=12)
ANY_TEXT = st.text(max_size=10)                 # any code point but surrogates
SHORT = st.text(alphabet="ab,é😀 ", max_size=3)
SMALL = st.integers(-14, 14)
EXAMPLES = settings(max_examples=20, deadline=None)


def test_examples_from_the_brief():
    check_all_levels(K.edit_distance, "kitten", "sitting")
    check_all_levels(K.lcs_length, "AGGTAB", "GXTXAYB")
    check_all_levels(K.is_palindrome, "été")
    check_all_levels(K.count_chars, "banana", "n")
    check_all_levels(K.digit_value, "a1b2c3")
    check_all_levels(K.word_lengths, "the quick  brown fox")
    check_all_levels(K.caesar, "hello, wörld", 3)


@EXAMPLES
@given(TEXT, TEXT)
def test_dynamic_programming(a, b):
    check_all_levels(K.edit_distance, a, b)
    check_all_levels(K.lcs_length, a, b)
    check_all_levels(K.compare, a, b)
    check_all_levels(K.contains, a, b)


@EXAMPLES
@given(ANY_TEXT, st.characters())
def test_characters(s, c):
    check_all_levels(K.is_palindrome, s)
    check_all_levels(K.is_palindrome, s + s[::-1])
    check_all_levels(K.count_chars, s, c)
    check_all_levels(K.vowels, s)
    check_all_levels(K.chars, s)
    check_all_levels(K.codes, s)
    check_all_levels(K.ord_of, c)
    check_all_levels(K.ord_of, s)
    check_all_levels(K.truth, s)
    check_all_levels(K.last_word, s)
    check_all_levels(K.largest_char, s)


@EXAMPLES
@given(TEXT, SMALL, SMALL, SMALL)
def test_indexing_and_slicing(s, a, b, c):
    check_all_levels(K.index, s, a)
    if c != 0:
        check_all_levels(K.slices, s, a, b, c)
    check_all_levels(K.concat, s, s[::2], a)
    check_all_levels(K.build_by_appending, a + 14, s)


@EXAMPLES
@given(TEXT, st.integers(0, 3))
def test_functions_users_write(s, n):
    check_all_levels(K.reverse_recursive, s)
    check_all_levels(K.run_length, s)
    check_all_levels(K.run_length_decode, K.run_length(s))
    check_all_levels(K.with_closures, s, n)
    check_all_levels(K.unpacking, s)
    check_all_levels(K.longest_or_none, s)
    check_all_levels(K.optional_ops, s, s[:n])


def test_slice_step_zero_and_index_messages():
    check_all_levels(K.slices, "abc", 0, 1, 0)        # ValueError: slice step cannot be zero
    check_all_levels(K.index, "", 0)
    check_all_levels(K.index, "é", -2)


@EXAMPLES
@given(TEXT, SHORT, SMALL, SMALL)
def test_searching(s, sub, start, end):
    check_all_levels(K.search, s, sub, start, end)
    check_all_levels(K.index_of, s, sub)


@EXAMPLES
@given(TEXT, SHORT, SHORT, st.integers(-1, 3))
def test_splitting_and_replacing(s, sep, new, n):
    check_all_levels(K.splits, s, sep, n)
    check_all_levels(K.replaces, s, sep, new, n)
    check_all_levels(K.join_words, s, sep)
    check_all_levels(K.strips, s, sep)
    check_all_levels(K.partitions, s.replace("b", "\n").replace("A", "\r\n").replace("B", "\u2028"), sep)


@EXAMPLES
@given(ANY_TEXT)
def test_case_and_classes(s):
    check_all_levels(K.cases, s)
    check_all_levels(K.classes, s)


@EXAMPLES
@given(TEXT, st.integers(-2, 16))
def test_justify(s, w):
    check_all_levels(K.justify, s, w)
    check_all_levels(K.tabs, s, w)


@EXAMPLES
@given(st.integers(-2**63, 2**63 - 1), st.floats(), st.booleans())
def test_numbers_to_text(i, x, b):
    check_all_levels(K.to_text, i, x, b)
    check_all_levels(K.fstring, str(i), i // 2)          # (i * 2 would wrap: int64)
    check_all_levels(K.formats, str(b), i, x)


def converted_then_formatted(x, i):
    return f"{x!s:.3}|{x!r:>12}|{i!s:>5}|{i!r:<4}|{x!s:^9}"


@EXAMPLES
@given(st.floats(), st.integers(-10**6, 10**6))
def test_a_conversion_before_a_spec_formats_the_text(x, i):
    """`{x!s:.3}` formats str(x) ('3.1' of 3.14159), not x ('3.14'): the explicit !s was
    dropped where a spec followed."""
    check_all_levels(converted_then_formatted, x, i)


@EXAMPLES
@given(st.one_of(st.from_regex(r"\s*[-+]?[0-9_]{0,22}\s*", fullmatch=True), TEXT,
                 st.integers(-2**63, 2**63 - 1).map(str), st.floats().map(str)))
def test_text_to_numbers(s):
    try:
        beyond_i64 = not -2**63 <= int(s) < 2**63
    except ValueError:
        beyond_i64 = False
    if beyond_i64:          # documented: compiled ints are 64 bits
        with pytest.raises(OverflowError):
            compiled(K.parse_int, int_overflow="raise")(s)
    check_all_levels(K.parse_int, s)        # (beyond: CPython runs the call)
    check_all_levels(K.parse_float, s)


def test_numbers_from_unicode_digits_and_errors():
    for s in ("٣٤", " 12 ", "1_000", "-0", "+7", "", " ", "1e5", "0x10", "١٢.٥", "nan", "-inf", "1__0"):
        check_all_levels(K.parse_int, s)
        check_all_levels(K.parse_float, s)
    for s, base in (("ff", 16), ("0x1F", 0), ("0b101", 0), ("101", 2), ("z", 36), ("12", 1), ("12", 37),
                    ("-7f", 16), ("08", 0), (" 1_0 ", 8), ("9", 8), ("1", -1), ("1", 1 << 40)):
        check_all_levels(K.parse_int_base, s, base)


@EXAMPLES
@given(st.integers(-5, 0x110005))
def test_chr(i):
    check_all_levels(K.chr_of, i)


@EXAMPLES
@given(st.lists(st.integers(0, 0x10FFFF).filter(lambda c: not 0xD800 <= c < 0xE000), max_size=8))
def test_strings_built_from_code_points(xs):
    check_all_levels(K.from_codes, xs)


@EXAMPLES
@given(st.lists(TEXT, max_size=6), TEXT)
def test_lists_of_strings(words, w):
    check_all_levels(K.list_ops, words, w)
    check_all_levels(K.sort_words, ",".join(words))
    check_all_levels(K.max_word, " ".join(words))
    check_all_levels(K.extremes, " ".join(words), w)


def test_strings_in_tuples_lists_and_globals():
    check_all_levels(K.tuple_of, "xyé", 3)
    check_all_levels(K.build_number_list, 12)
    for i in range(4):
        check_all_levels(K.use_globals, i)
    check_all_levels(K.call_with_mode, 2.0)         # a string bound when compiling
    check_all_levels(K.call_shout)                  # a string argument the callee assigns


def test_surrogates_and_nul_pass_through():
    for s in ("\ud800", "a\udfffb", "\0", "a\0b", "\U0010FFFF"):
        check_all_levels(K.concat, s, s, 2)
        check_all_levels(K.is_palindrome, s)
        check_all_levels(K.cases, s)


@EXAMPLES
@given(TEXT, TEXT)
def test_hash_of_equal_strings_is_equal(a, b):
    assert compiled(K.hashes_agree)(a, b)
    assert compiled(K.hashes_agree)(a, "".join(list(a)))


def test_print_and_messages_with_strings(capsys):
    check_all_levels(K.print_it, "héllo", 3)
    out = capsys.readouterr().out
    assert out == "héllo 3 héllo!\n" * 4

    def bad(s: str, n: int):
        if n > 2:
            raise ValueError(f"bad word {s!r} at {n}: {s:>6}|" + s)
        return s

    for s, n in (("héllo", 3), ("x", 1), ("'\"", 4)):
        check_all_levels(bad, s, n)


def test_results_are_python_strs():
    f = compiled(K.concat)
    t, a, b, n = f("ab", "€", 2)
    assert type(t) is str and t == "ab€ab" and a == "abab" and b == "€€" and n == 5

    class S(str):
        pass

    with pytest.raises(TypeError, match="a subclass of str"):     # CPython gives its own object back where
        f(S("x"), "y", 1)                                       # compiled code would give a plain str
    assert f(str(S("x")), "y", 1)[0] == "xyx"


def test_arguments_are_evaluated_once_in_the_order_written():
    check_all_levels(K.argument_order, "a b c")


def test_appending_in_a_loop_extends_in_place():
    f = compiled(K.build_by_appending)
    out = f(2_000_000, "ab")[0]         # (copying at each append would take minutes)
    assert len(out) == 2_000_000 and out[:3] == "abc" and out[-1] == chr(97 + 1_999_999 % 26)
    ir = f.ir("opt")
    assert "str_concat" in ir


def test_strings_run_in_bounded_memory():
    f = compiled(K.build_number_list)
    g = compiled(K.splits)
    f(1000)
    for _ in range(3):
        g("a,b c,,d", ",", 2)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(300):
        f(1000)
        g("a,b c,,d é" * 50, ",", -1)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20_000


def test_string_constants_round_trip_in_ir_text():
    texts = ['"', "\\", "\n\t\r", "\0", "é€😀", "\ud800", "%lld %%", "str_const \"x\"", "; 1:2", "}"]

    def consts():
        return ('"', "\\", "\n\t\r", "\0", "é€😀", "\ud800", "%lld %%", "str_const \"x\"", "; 1:2", "}")

    f = script.script(consts)
    assert f() == tuple(texts)
    for spec in f._specializations.values():
        for text in (spec.ssa_text, spec.opt_text):
            assert format_module(parse_module(text)) == text
            assert text.isascii()


def test_unsupported_uses_name_the_line():
    def assign_item(s: str):
        s[0] = "x"
        return s

    def percent(s: str):
        return "%(k)s!" % s          # ("%s!" % s works: tests/test_printf.py)

    def str_plus_int(s: str):
        return s + 1

    with pytest.raises(script.CompileError, match="printf-style") as info:
        compiled(percent)("ab")
    assert info.value.loc.line > 0
    with pytest.raises(TypeError, match=r'can only concatenate str \(not "int"\) to str'):
        compiled(str_plus_int)("ab")            # CPython's error, raised where CPython raises it
    with pytest.raises(TypeError, match="'str' object does not support item assignment"):
        compiled(assign_item)("ab")             # likewise


LOADER = r'''
import json, sys
import script
m = script.load(sys.argv[1])
out = [m.edit_distance("kitten", "sitting"), m.word_lengths("a bb ccc é"), m.mode(2.0),
       m.mode(2.0, "slow"), m.splits("a,b,,c d", ",", 1), m.__recompiled__ is None]
print(json.dumps(out))
'''

CACHED = r'''
import json, sys
import script

@script.script(cache=True)
def shout(s: str, n: int) -> list[str]:
    return [s.upper() + "!" * n, f"{s}:{n}"]

result = shout("héllo", 2)
hit = type(next(iter(shout._specializations.values()))).__name__ == "LoadedSpecialization"
print(json.dumps([result, hit]))
'''


def _run(code: str, *args, env=None) -> list:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    import json
    return json.loads(out.stdout.splitlines()[-1])


def test_saved_modules_keep_strings(tmp_path):
    import archive_tools as A
    fns = {"edit_distance": compiled(K.edit_distance), "word_lengths": compiled(K.word_lengths),
           "mode": compiled(K.mode), "splits": compiled(K.splits)}
    fns["edit_distance"]("a", "b")
    fns["word_lengths"]("a")
    fns["mode"](1.0)
    fns["mode"](1.0, "x")
    fns["splits"]("a", ",", 1)
    path = tmp_path / "strings.smod"
    script.save(fns, path)
    want = [3, ["BB", "CCC"], 4.0, 2.0, [list(x) for x in K.splits("a,b,,c d", ",", 1)], True]
    got = _run(LOADER, str(path))
    assert got == want
    other = tmp_path / "other-cpu.smod"
    A.rewrite(path, other, A.other_cpu)           # compiled again from the IR text
    again = _run(LOADER, str(other))
    assert again[:5] == got[:5] and again[5] is False


def test_cache_keeps_strings(tmp_path):
    import os
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    main = tmp_path / "cached_strings.py"
    main.write_text(CACHED)
    run = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"
    first = _run(run, str(main), env=env)
    second = _run(run, str(main), env=env)
    assert first == [["HÉLLO!!", "héllo:2"], False]
    assert second == [["HÉLLO!!", "héllo:2"], True]


def _join_chars(s, sep):
    return sep.join(s), "".join(sorted(s)), ", ".join(s.upper())


@pytest.mark.parametrize("s", ["", "a", "abc", "héllo"])
def test_join_of_a_strs_characters(s):
    check_all_levels(_join_chars, s, "-")


def _round_keywords(x, n):
    return round(x, ndigits=n), round(number=x, ndigits=n), round(x, ndigits=None)


@pytest.mark.parametrize("args", [(2.675, 2), (15.5, -1), (0.125, 2), (-2.5, 0)])
def test_round_takes_its_keywords(args):
    check_all_levels(_round_keywords, *args)


def _tuple_texts(xs):
    t = tuple(xs)
    print(t, [t], [c for c in zip(*[xs, xs])])
    return str(t), repr(t), f"{t}|{t!r}", str([t]), str(tuple(xs[:1])), str({0: t})


@pytest.mark.parametrize("xs", [[1], [1, 2, 3], ["a", "b"], [1.5]])
def test_text_of_a_tuple_of_run_time_length(xs, capsys):
    # tuple(xs) is written as a tuple, `(1,)` with its comma (was written as a list: '[1, 2]')
    check_all_levels(_tuple_texts, xs)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(-1, 6), st.text(max_size=2))
def test_join_of_strs_that_may_be_none(n, hole, sep):
    check_all_levels(K.join_optional, n, hole, sep)


def _bool_formats(b: bool, spec: str):
    return (f"{b:>6}", "{:d}|{:x}|{:.2f}|{:^5}|{}".format(b, b, b, b, b), f"{b!r:>7}", f"{b}",
            format(b, spec))


@pytest.mark.parametrize("b", [True, False])
@pytest.mark.parametrize("spec", ["", ">6", "05", "+", "s"])
def test_format_of_a_bool_is_ints_but_for_an_empty_spec(b, spec):
    # bool.__format__ is int's: f"{True:>6}" is "     1" (was "  True"), and a code ints do
    # not take raises CPython's ValueError naming 'bool'
    check_all_levels(_bool_formats, b, spec)


def _constant_char_in_a_named_str(s):
    vowels = "aeiou"
    t = str(" pad ")
    return "a" in t, "e" in vowels, "u" in vowels, "z" in vowels, "d" not in t, " " in t, "a" in s


@pytest.mark.parametrize("s", ["", "xa"])
def test_a_constant_character_in_a_named_str(s):
    # `"a" in t` of `t = " pad "` was decided by t's last character only (False): a silent
    # wrong answer the str fuzzer found
    check_all_levels(_constant_char_in_a_named_str, s)


@EXAMPLES
@given(st.text(alphabet="AZQ09a ", max_size=8), st.integers(0, 30))
def test_methods_of_a_modules_str_constant(message, key):
    assert isinstance(K.caesar_by_module_alphabet(message, key), str)
    check_all_levels(K.caesar_by_module_alphabet, message, key)
