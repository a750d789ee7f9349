#include "bench.h"

/* kernels_shapes.collatz_longest: the start below n with the longest chain. */
static int64_t collatz_longest(int64_t n) {
    int64_t best = 0, best_start = 1;
    for (int64_t start = 1; start < n; start++) {
        int64_t x = start, steps = 0;
        while (x != 1) {
            if (x % 2 == 0)
                x = x / 2;
            else
                x = 3 * x + 1;
            steps++;
        }
        if (steps > best) {
            best = steps;
            best_start = start;
        }
    }
    return best_start;
}

double bench_collatz_longest(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = collatz_longest(m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
