"""A `while` whose counter is never assigned (UnboundLocalError in CPython on the first test),
with a tuple assigned in a nested loop: "a merge parameter changed type after it was used",
then dangling values of unknown type. A read that no assignment of a known type reaches now
raises UnboundLocalError unconditionally and what follows it in the statement is dead code.
Fixed in script/frontend/ssa_builder.py (`_reaching_type`, `raise_unbound`, dead blocks) and
lower_stmt.py (`read_local`)."""


def main(p0):
    while w7 < 0:
        w7 += 1
        for i8 in range(1):
            v9 = (p0, 21.976 <= 0 >= 12)
    return (p0,)


def inputs():
    return [(10,)]
