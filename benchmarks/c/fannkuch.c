#include "bench.h"

/* kernels_workloads.fannkuch: fannkuch-redux over all permutations of 0..n-1 (n <= 16). */
static int64_t fannkuch(int64_t n) {
    int64_t perm1[16], perm[16], count[16];
    for (int64_t i = 0; i < n; i++) { perm1[i] = i; perm[i] = 0; count[i] = 0; }
    int64_t max_flips = 0, checksum = 0, nperm = 0, r = n;
    for (;;) {
        while (r != 1) { count[r - 1] = r; r--; }
        for (int64_t i = 0; i < n; i++) perm[i] = perm1[i];
        int64_t flips = 0, k = perm[0];
        while (k != 0) {
            int64_t i = 0, j = k;
            while (i < j) { int64_t t = perm[i]; perm[i] = perm[j]; perm[j] = t; i++; j--; }
            flips++;
            k = perm[0];
        }
        if (flips > max_flips) max_flips = flips;
        if (nperm % 2 == 0) checksum += flips; else checksum -= flips;
        for (;;) {
            if (r == n) return max_flips * 1000000 + checksum;
            int64_t p0 = perm1[0];
            for (int64_t i = 0; i < r; i++) perm1[i] = perm1[i + 1];
            perm1[r] = p0;
            count[r]--;
            if (count[r] > 0) break;
            r++;
        }
        nperm++;
    }
}

double bench_fannkuch(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = fannkuch(m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
