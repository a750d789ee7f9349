"""Functions for test_memory.py: a closure over an array, made anew for each array."""

import script


def closure_over(a):
    @script.script
    def item(i):
        return a[i]
    return item
