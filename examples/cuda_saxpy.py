"""A CUDA kernel: `@script.kernel` compiles it to PTX; a launch runs on the GPU when one is usable
(the driver loads and a device exists; needs the optional `cuda` extra for nothing: script talks
to the driver itself) and on the CPU otherwise, with the same results and exceptions."""

import numpy as np

import script
from script import cuda


@script.kernel
def saxpy(a: float, x: script.f32[:], y: script.f32[:]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i] + y[i]


def main():
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    print("\n".join(saxpy.ptx().splitlines()[:12]), "\n...")
    saxpy[(n + 255) // 256, 256](2.0, x, y)
    assert np.allclose(y, 2.0 * np.arange(n) + 1.0)
    print("saxpy ran on the", "GPU" if cuda.is_available() else "CPU", "- y[:5] =", y[:5])


if __name__ == "__main__":
    main()
