"""64-bit hashes, PRNGs and bit tricks written with Python masks (tests/realistic_bits.py),
compiled against CPython at opt=0 and the default level, on non-negative and negative ints.
The rules that make them compile (frontend/int_consts.py) are tested one by one in
tests/test_int_consts.py."""

import json

import pytest
from hypothesis import given, settings, strategies as st

import realistic_bits as R
import script
from difftest import check_all_levels

SET = settings(max_examples=30, deadline=None)
I64 = st.integers(-2**63, 2**63 - 1)
SMALL = st.integers(-1000, 1000)
EDGE = st.sampled_from([0, 1, -1, 2**63 - 1, -2**63, 2**32 - 1, 2**32, -2**32, 0x5555555555555555])
INT = st.one_of(I64, SMALL, EDGE)
TEXT = st.text(max_size=12)
INTS = st.lists(INT, min_size=1, max_size=10)     # [] has no element type
STEPS = st.integers(0, 20)


@SET
@given(TEXT)
def test_string_hashes(s):
    for fn in (R.fnv1a_64, R.fnv1a_32, R.djb2, R.djb2_32, R.sdbm, R.sdbm_mod):
        check_all_levels(fn, s)


@SET
@given(INTS)
def test_hashes_of_int_lists(data):
    for fn in (R.fnv1a_64_ints, R.fnv1_64_ints, R.hash_ints):
        check_all_levels(fn, data)


@SET
@given(INT)
def test_mixers_and_bit_tricks(x):
    for fn in (R.fmix64, R.fmix64_of_int, R.popcount, R.popcount_swar, R.reverse_bits64,
               R.reverse_bits64_swap, R.parity64, R.lowest_set_bit, R.highest_bit_index,
               R.bswap64, R.to_signed64, R.to_unsigned64, R.mix32, R.splitmix_mix):
        check_all_levels(fn, x)     # (negative x too: an int's >> is arithmetic in both)


@SET
@given(INT, INT)
def test_two_operand_tricks(a, b):
    check_all_levels(R.wraps_like_c, a, b)
    check_all_levels(R.compare_u64, a, b)
    check_all_levels(R.hash_combine, a & R.MASK64 if a >= 0 else a & (2**63 - 1), b & (2**63 - 1))


@SET
@given(INT, st.integers(1, 63))
def test_rotations(x, r):
    x &= 2**63 - 1 if x < 0 else R.MASK64      # rotl64 is written for non-negative x
    check_all_levels(R.rotl64, x, r)
    check_all_levels(R.rotr64, x, r)
    check_all_levels(R.rotl32, x, r)


@SET
@given(INT, STEPS)
def test_generators(seed, n):
    for fn in (R.splitmix64, R.xorshift64, R.xorshift64_star, R.xoshiro256ss, R.lcg64, R.lcg32):
        check_all_levels(fn, seed, n)
    if seed >= 0:
        check_all_levels(R.splitmix64_last, seed, n)


@SET
@given(INT, INT, STEPS)
def test_pcg32(state, inc, n):
    check_all_levels(R.pcg32, state, inc, n)


@SET
@given(st.lists(st.booleans(), min_size=1, max_size=20))
def test_zobrist(pieces):
    table = [(k * 0x9E3779B97F4A7C15) & (2**63 - 1) for k in range(len(pieces))]
    check_all_levels(R.zobrist, table, pieces)
    check_all_levels(R.zobrist_seeded, pieces)


@SET
@given(st.lists(st.integers(0, 200), min_size=1, max_size=12))
def test_zobrist_with_a_global_table_of_64_bit_keys(squares):
    assert max(R.ZOBRIST) >= 2**63 and max(R.ZOBRIST_SHORT) >= 2**63
    check_all_levels(R.zobrist_global, squares)


@SET
@given(TEXT, INT)
def test_formatting_and_bit_counts(s, x):
    check_all_levels(R.hex_digest, s)
    check_all_levels(R.bit_counts, x)


@SET
@given(st.integers(0, 2**64 - 1))
def test_full_64_bit_arguments_to_u64_parameters(k):
    check_all_levels(R.fmix64_arg, k)
    check_all_levels(R.digits_and_divmod, k)


def test_bloom_filter_indices():
    check_all_levels(R.bloom_bits, ["alpha", "beta", "", "ü"], 1000)


def test_known_values():
    f = script.script(R.fnv1a_64)
    assert f("") == 0xcbf29ce484222325 and f("a") == 0xaf63dc4c8601ec8c
    assert script.script(R.splitmix64_last)(0, 1) == 0xe220a8397b1dcdaf
    assert script.script(R.mask_inside)() == (2**64 - 1, 2**63 - 1, 2**63 - 1)


def test_results_are_python_ints_usable_by_json_and_hash():
    h = script.script(R.fnv1a_64)("hello")
    assert type(h) is int and h == R.fnv1a_64("hello") and h >= 2**63
    assert json.loads(json.dumps({"h": h})) == {"h": h} and hash(h) == hash(R.fnv1a_64("hello"))
    outs, state = script.script(R.xoshiro256ss)(7, 3)
    assert all(type(v) is int for v in outs + state)
    assert (outs, state) == R.xoshiro256ss(7, 3)
