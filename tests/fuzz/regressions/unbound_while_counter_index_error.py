"""A `while` inside a `for` whose counter is never assigned (UnboundLocalError in CPython), and
an augmented assignment of a maybe-unbound variable in the loop's `else`: "IndexError: list
index out of range" from inside the compiler. Removing a trivial parameter re-examined every
parameter of the blocks it flowed into, including one still waiting for its arguments. Fixed
in script/frontend/ssa_builder.py (`_replace_param` re-examines only the parameters that
received the removed one). (The fuzzer's original case, where `v1` is assigned nowhere, is now
the known "read before any assignment" compile error.)"""


def main(p0, p1):
    if p1 > 1000:
        v1 = 1.5
    v7 = 33.31105255445929
    for i9 in range(0, 2, 3):
        while w11 < 1 and max(1.0 if False else v7, abs(15.8)):
            w11 += 1
            p0 = False
    else:
        if p0:
            v1 += v7
    return (p1,)


def inputs():
    return [(False, 100), (True, 100), (True, 2000)]
