"""`script.save` writes compiled functions to one file; `script.load` gives them back in another
process, without their source (here: a child Python that never sees this file)."""

import os
import subprocess
import sys
import tempfile

import numpy as np

import script


@script.script
def smooth(a: script.f64[:]) -> script.f64[:]:
    out = a.copy()
    for i in range(1, a.shape[0] - 1):
        out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0
    return out


@script.script
def steps(n: int) -> int:
    k = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k


CHILD = """
import sys, numpy as np, script
m = script.load(sys.argv[1])
print(m)
print("steps(27) =", m.steps(27))
print("smooth =", m.smooth(np.array([0.0, 3.0, 0.0, 3.0, 0.0])))
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernels.smod")
        script.save([smooth, steps], path)
        print(f"saved {os.path.getsize(path)} bytes to {path}")
        subprocess.run([sys.executable, "-c", CHILD, path], check=True, cwd=tmp)
    print("here:", smooth(np.array([0.0, 3.0, 0.0, 3.0, 0.0])))


if __name__ == "__main__":
    main()
