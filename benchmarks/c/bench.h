/* Shared by the C kernels: a monotonic clock and a compiler barrier.
 *
 * Each kernel file exports `double bench_<name>(<args>, int reps, <type> *out)`: it runs the
 * kernel `reps` times inside C and returns the seconds per call (clock_gettime, MONOTONIC),
 * storing the last result in *out. LAUNDER hides a value from the optimizer, so gcc can
 * neither hoist the kernel out of the repetition loop nor fold repeated calls into one; it
 * costs nothing at run time (an empty asm statement).
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <time.h>

#define LAUNDER(x) __asm__ volatile("" : "+r"(x))     /* integers */
#define LAUNDER_F(x) __asm__ volatile("" : "+x"(x))   /* doubles (SSE register) */

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
