"""`math.trunc(v3)` where `v3` is read in code that never runs and no assignment of a known
type reaches it (`v3 = v2` with `v2` never assigned, in an `else` that is never taken): the
value has no type there, and `math.floor`/`ceil`/`trunc`/`isnan`/`isinf`/`isfinite` of it
crashed the frontend (`TypeError: no constants of type ?`, an internal error). Found by
`python -m tests.fuzz --seed 10005 --unbound-reads` (program 668). Fixed in
script/frontend/builtins_lowering.py `call_math`: an operand without a type gives a value
without a type, as the other builtins do; the other calls here already did."""
import math
import numpy as np

def main(p0, p1, a0):
    if True:
        pass
    else:
        v3 = v2
    for i6 in range(1, 0, 1):
        v1 //= math.trunc(v3)
        v4 = math.floor(v3) + math.ceil(v3) + math.isnan(v3) + math.isinf(v3) + math.isfinite(v3)
        v5 = math.sqrt(v3) + math.exp(v3) + round(v3) + abs(v3) + min(v3, 1.0) + math.fmod(v3, 2.0) + math.log(v3, 2.0)
        v6 = math.isclose(v3, 1.0) + math.gcd(v3, 2) + math.copysign(v3, 1.0) + math.ldexp(v3, 2) + math.frexp(v3)[0] + math.modf(v3)[0]
        v7 = math.degrees(v3) + math.ulp(v3) + math.hypot(v3, 1.0) + math.atan2(v3, 1.0) + divmod(v3, 2)[0] + pow(v3, 2)
        v8 = math.isqrt(v3) + math.factorial(v3) + math.comb(v3, 2) + int(v3) + float(v3) + bool(v3) + math.remainder(v3, 2.0) + math.lcm(v3, 2)
    return p0

def inputs():
    return [(3, 4, (2, 4))]
