#include <stdlib.h>
#include "bench.h"

/* kernels_workloads.primes_list: the sum of the primes below n, by trial division by the
 * primes so far, kept in a growable array (capacity doubles, as a list's does). */
static int64_t primes_list(int64_t n) {
    int64_t cap = 4, len = 0;
    int64_t *primes = malloc(sizeof(int64_t) * cap);
    primes[len++] = 2;
    for (int64_t k = 3; k < n; k += 2) {
        int is_prime = 1;
        for (int64_t q = 0; q < len; q++) {
            int64_t p = primes[q];
            if (p * p > k) break;
            if (k % p == 0) { is_prime = 0; break; }
        }
        if (is_prime) {
            if (len == cap) { cap *= 2; primes = realloc(primes, sizeof(int64_t) * cap); }
            primes[len++] = k;
        }
    }
    int64_t s = 0;
    for (int64_t q = 0; q < len; q++) s += primes[q];
    free(primes);
    return s;
}

double bench_primes_list(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = primes_list(m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
