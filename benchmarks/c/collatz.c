#include "bench.h"

/* Total number of Collatz steps for the starting values 1..n. */
static int64_t collatz(int64_t n) {
    int64_t total = 0;
    for (int64_t i = 1; i < n + 1; i++) {
        int64_t x = i;
        while (x != 1) {
            if (x % 2 == 0)
                x = x / 2;
            else
                x = 3 * x + 1;
            total += 1;
        }
    }
    return total;
}

double bench_collatz(int64_t n, int reps, int64_t *out) {
    int64_t r = 0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        int64_t m = n;
        LAUNDER(m);
        r = collatz(m);
        LAUNDER(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}
