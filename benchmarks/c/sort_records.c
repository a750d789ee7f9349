#include <stdlib.h>
#include "bench.h"

/* kernels_workloads.sort_records: n records (x % 1000, i, (x >> 10) % 10007) of an LCG x in
 * an array grown by doubling, sorted by the first field ascending and the third descending
 * (qsort; ties by position, as Python's stable sort keeps them), then a checksum. */
typedef struct { int64_t a, i, c; } rec;

static int cmp(const void *p, const void *q) {
    const rec *x = p, *y = q;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->c != y->c) return x->c > y->c ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int64_t sort_records(int64_t n, int64_t seed) {
    int64_t cap = 8, len = 0;
    rec *r = malloc(cap * sizeof(rec));
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        if (len == cap) {
            cap *= 2;
            r = realloc(r, cap * sizeof(rec));
        }
        r[len++] = (rec){x % 1000, i, (x >> 10) % 10007};
    }
    qsort(r, n, sizeof(rec), cmp);
    int64_t s = 0;
    for (int64_t k = 0; k < n; k++) s += r[k].i * (k % 7) + r[k].c;
    free(r);
    return s;
}

double bench_sort_records(int64_t n, int64_t seed, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = sort_records(m, seed);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
