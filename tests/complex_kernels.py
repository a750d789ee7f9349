"""Complex functions for the save/load, cache and IR round-trip tests (test_complex_saved)."""

import cmath

import numpy as np

import script

SHIFT = 0.25 - 0.5j


def mandel(c: complex, limit: int = 50) -> int:
    z = 0j
    for i in range(limit):
        z = z * z + c
        if abs(z) > 2.0:
            return i
    return limit


def rotate(a, w: complex = 1j):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * w + SHIFT
    return out


def spectrum(a):
    return np.abs(a), np.angle(a), a.real.sum(), np.exp(a).mean()


def special(z):
    return cmath.sqrt(z), z ** 3, z / (z - 1), complex(z.imag, -0.0), cmath.nan * z


NAMES = ["mandel", "rotate", "spectrum", "special"]


def compiled():
    return {n: script.script(globals()[n]) for n in NAMES}


def calls():
    a = np.array([1 + 2j, -0.5j, 3.0, complex(-0.0, 2.5)])
    return [("mandel", (0.3 + 0.5j,)), ("mandel", (-1 + 0.1j, 80)), ("rotate", (a,)),
            ("rotate", (a, -2 + 1j)), ("spectrum", (a,)), ("spectrum", (a.astype(np.complex64),)),
            ("special", (1.5 - 2j,)), ("special", (complex(-0.0, -0.0),)), ("special", (1,))]
