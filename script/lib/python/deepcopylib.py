"""`copy.deepcopy` of a list or dict of containers (`list[list[int]]`, `dict[str, list[str]]`,
a list of dicts or sets), written in the compiled subset (copy_calls.py).

CPython's deepcopy copies each object once, however many places hold it, by a memo keyed by
`id()`: `[[0] * 3] * 3` copies to three references to one new row, as the original holds
one row three times. These keep that memo, keyed by `identity(x)` (the `list_id` op, the
object's address while it lives). The inner containers hold values nothing can change
(numbers, strs, tuples of them), so each is copied with `copy.copy`, as deepcopy's own copy
of it would be.
"""

import copy

from script.frontend.library_intrinsics import identity


def deep_list(xs) -> list:
    memo = {}
    out = []
    for x in xs:
        k = identity(x)
        if k in memo:
            out.append(memo[k])
        else:
            c = copy.copy(x)
            memo[k] = c
            out.append(c)
    return out


def deep_dict(d) -> dict:
    memo = {}
    out = {}
    for key in d:
        x = d[key]
        k = identity(x)
        if k in memo:
            out[key] = memo[k]
        else:
            c = copy.copy(x)
            memo[k] = c
            out[key] = c
    return out
