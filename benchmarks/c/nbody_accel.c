#include <math.h>
#include "bench.h"

/* kernels_classic.nbody_accel: softened accelerations of n bodies, all pairs; pos is a
 * C-contiguous (n, 3), acc the (n, 3) output. */
static void nbody_accel(const double *pos, const double *mass, double eps, double *acc, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
        for (int64_t j = 0; j < n; j++) {
            double dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + eps;
            double inv = mass[j] / (r2 * sqrt(r2));
            ax += dx * inv;
            ay += dy * inv;
            az += dz * inv;
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}

double bench_nbody_accel(const double *pos, const double *mass, double eps, double *acc, int64_t n,
                         int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = pos;
        LAUNDER(p);
        nbody_accel(p, mass, eps, acc, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < 3 * n; i++) s += acc[i];
    *check = s;
    return (t1 - t0) / reps;
}
