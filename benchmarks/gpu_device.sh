#!/bin/bash
# The whole GPU check in one call on a machine with an NVIDIA GPU (the device tool of our
# workplace runs it from the repository root; anywhere else: bash benchmarks/gpu_device.sh).
# Wheels in .whl/ (llvmlite, lark where the machine lacks them) go to /tmp/site first.
# Writes env.txt, check.txt and figures.json to $OUT (default /tmp/gpu_out).
set -u
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    python3 --version; command -v ptxas; ptxas --version | tail -1; nproc
} > "$OUT/env.txt" 2>&1
if ls .whl/*.whl > /dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl >> "$OUT/env.txt" 2>&1 || { cat "$OUT/env.txt"; exit 1; }
    export PYTHONPATH=/tmp/site:$PWD
else
    export PYTHONPATH=$PWD
fi
python3 -m pip list 2>/dev/null | grep -iE "^(numba|numba-cuda|cupy|numpy|llvmlite|cuda-python|cuda-bindings) " >> "$OUT/env.txt"
python3 -c "import llvmlite, lark, numpy; print('ours: llvmlite', llvmlite.__version__, 'numpy', numpy.__version__)" >> "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
timeout "${CHECK_TIMEOUT:-420}" python3 benchmarks/gpu_check.py --json "$OUT/figures.json" "$@" 2>&1 | tee "$OUT/check.txt"
