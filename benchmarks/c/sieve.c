#include <stdlib.h>
#include <string.h>
#include "bench.h"

/* kernels_classic.sieve: the number of primes <= n (a fresh byte array each call). */
static int64_t sieve(int64_t n) {
    unsigned char *flags = malloc(n + 1);
    memset(flags, 1, n + 1);
    flags[0] = flags[1] = 0;
    for (int64_t i = 2; i * i <= n; i++)
        if (flags[i])
            for (int64_t j = i * i; j <= n; j += i)
                flags[j] = 0;
    int64_t count = 0;
    for (int64_t i = 0; i <= n; i++)
        if (flags[i])
            count++;
    free(flags);
    return count;
}

double bench_sieve(int64_t n, int reps, double *check) {
    int64_t c = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        c = sieve(m);
        LAUNDER(c);
    }
    double t1 = bench_now();
    *check = (double)c;
    return (t1 - t0) / reps;
}
