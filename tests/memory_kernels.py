"""Functions for test_memory.py: a closure over an array, made anew for each array; two
functions to save and load."""

import script


def closure_over(a):
    @script.script
    def item(i):
        return a[i]
    return item


@script.script
def scaled(x: float, k: int) -> float:
    return x * k


@script.script
def offset(n: int) -> int:
    return n + 7
