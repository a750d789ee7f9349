#include "bench.h"

/* kernels_shapes.mandelbrot_count: total escape steps over a width x height grid. */
static int64_t mandelbrot_count(int64_t width, int64_t height, int64_t maxiter) {
    int64_t total = 0;
    for (int64_t y = 0; y < height; y++) {
        double ci = -1.5 + 3.0 * (double)y / (double)height;
        for (int64_t x = 0; x < width; x++) {
            double cr = -2.0 + 3.0 * (double)x / (double)width;
            double zr = 0.0, zi = 0.0;
            int64_t k = 0;
            while (k < maxiter && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                k++;
            }
            total += k;
        }
    }
    return total;
}

double bench_mandelbrot_count(int64_t w, int64_t h, int64_t it, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = it;
        LAUNDER(m);
        res = mandelbrot_count(w, h, m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
