"""A variable reassigned in an inner loop that never runs read as unbound afterwards (the inner
loop's entry edge passed `0, false`): the same root cause as
param_unbound_after_reduction_in_while_test.py. Fixed in script/frontend/ssa_builder.py
(`_reaching_type`)."""


def main(p0, p1, p2):
    v1 = p0
    for x2 in (p0, 1, 0):
        for i3 in range(7, 6, 1):
            v1 = 0
    v5, v6, v7 = (v1, 20, v1)
    return (v5, v7)


def inputs():
    return [(6, 10.0, 11.307721506988031)]
