#include <stdlib.h>
#include "bench.h"
#include "strtable.h"

/* kernels_workloads.anagram_groups: words of a space-separated ASCII text grouped by their
 * letters sorted (insertion sort of the bytes), counted in a table keyed by the sorted
 * letters (strtable.h; keys copied into an arena, as a dict keeps its key strs); returns the
 * sum of squared group sizes plus the number of groups. */
static int64_t anagram_groups(const char *s, int64_t n, char *arena) {
    strtable tb;
    table_init(&tb);
    char key[256];
    int64_t i = 0, top = 0;
    for (;;) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        int64_t b = i;
        while (i < n && s[i] != ' ') i++;
        int64_t len = i - b < 256 ? i - b : 256;
        for (int64_t p = 0; p < len; p++) {
            char c = s[b + p];
            int64_t q = p - 1;
            while (q >= 0 && key[q] > c) { key[q + 1] = key[q]; q--; }
            key[q + 1] = c;
        }
        slot *e = table_count(&tb, key, len);
        if (e->count == 1) {            /* a new group: its key kept in the arena */
            memcpy(arena + top, key, len);
            e->w = arena + top;
            top += len;
        }
    }
    return table_total(&tb);
}

double bench_anagram_groups(const char *s, int64_t n, int reps, double *check) {
    int64_t res = 0;
    char *arena = malloc(n + 1);
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const char *p = s;
        LAUNDER(p);
        res = anagram_groups(p, n, arena);
        LAUNDER(res);
    }
    double t1 = bench_now();
    free(arena);
    *check = (double)res;
    return (t1 - t0) / reps;
}
