#include "bench.h"

/* kernels_workloads.ackermann: the Ackermann function by plain double recursion. */
static int64_t ackermann(int64_t m, int64_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

double bench_ackermann(int64_t m, int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t a = m, b = n;
        LAUNDER(a);
        LAUNDER(b);
        res = ackermann(a, b);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
