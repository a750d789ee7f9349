#include "bench.h"

/* Monte-Carlo estimate of pi from n points drawn with the Mersenne Twister as CPython's
 * `random` runs it: init_by_array on the seed's 32-bit words, genrand_res53 (the reference
 * MT19937 of Matsumoto and Nishimura, as in CPython's _randommodule.c). */

#define N 624
#define M 397

typedef struct {
    uint32_t mt[N];
    int pos;
} mt_state;

static void init_genrand(mt_state *s, uint32_t seed) {
    s->mt[0] = seed;
    for (int i = 1; i < N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->pos = N;
}

static void init_by_array(mt_state *s, const uint32_t *key, int length) {
    init_genrand(s, 19650218u);
    int i = 1, j = 0;
    for (int k = N > length ? N : length; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= N) { s->mt[0] = s->mt[N - 1]; i = 1; }
        if (j >= length) j = 0;
    }
    for (int k = N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= N) { s->mt[0] = s->mt[N - 1]; i = 1; }
    }
    s->mt[0] = 0x80000000u;
}

static uint32_t genrand_uint32(mt_state *s) {
    static const uint32_t mag01[2] = {0, 0x9908b0dfu};
    if (s->pos >= N) {
        int k;
        uint32_t y;
        for (k = 0; k < N - M; k++) {
            y = (s->mt[k] & 0x80000000u) | (s->mt[k + 1] & 0x7fffffffu);
            s->mt[k] = s->mt[k + M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; k < N - 1; k++) {
            y = (s->mt[k] & 0x80000000u) | (s->mt[k + 1] & 0x7fffffffu);
            s->mt[k] = s->mt[k + (M - N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (s->mt[N - 1] & 0x80000000u) | (s->mt[0] & 0x7fffffffu);
        s->mt[N - 1] = s->mt[M - 1] ^ (y >> 1) ^ mag01[y & 1];
        s->pos = 0;
    }
    uint32_t y = s->mt[s->pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static double genrand_res53(mt_state *s) {
    uint32_t a = genrand_uint32(s) >> 5, b = genrand_uint32(s) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static double mt_pi(int64_t n, int64_t seed) {
    static mt_state s;      /* one process-wide state, as Python's and script's */
    uint64_t a = seed < 0 ? -(uint64_t)seed : (uint64_t)seed;
    uint32_t key[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
    init_by_array(&s, key, key[1] ? 2 : 1);
    int64_t inside = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = genrand_res53(&s);
        double y = genrand_res53(&s);
        if (x * x + y * y <= 1.0)
            inside += 1;
    }
    return 4.0 * inside / n;
}

double bench_mt_pi(int64_t n, int64_t seed, int reps, double *out) {
    double r = 0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        int64_t m = n, s = seed;
        LAUNDER(m);
        LAUNDER(s);
        r = mt_pi(m, s);
        LAUNDER_F(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}
