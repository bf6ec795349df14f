/*
 * CPU time a hand of the C library, one thread: random 7-card hands ranked high by
 * se_rank_batch and by se_high_rank one hand at a call. A benchmark, not a test.
 *
 * Build the library as README.md's "From C" says, install it, and build this against
 * the installed package:
 *
 *   cmake -S . -B build -DSTUDEVAL_PYTHON=OFF && cmake --build build
 *   cmake --install build --prefix "$HOME/.local"
 *   export PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig"   # lib64 on some systems
 *   cc -O2 benchmarks/c_rank_bench.c $(pkg-config --cflags --libs studeval) -o c_rank_bench
 *   ./c_rank_bench [hands, default 4194304] [repeats, default 5]
 *
 * It prints the batch kernel and the best of the repeats in CPU ns a hand. Add
 * -DCMAKE_BUILD_TYPE=Debug to the first command to see what an unoptimised library
 * costs.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <studeval.h>

/* CPU seconds of this process (one thread runs, so also of that thread). */
static double cpu_seconds(void) {
#ifdef CLOCK_PROCESS_CPUTIME_ID
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0) {
        return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
    }
#endif
    return (double)clock() / CLOCKS_PER_SEC;
}

int main(int argc, char **argv) {
    size_t hands = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)1 << 22;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    uint8_t *cards = malloc(hands * 7);
    uint16_t *high = malloc(hands * sizeof *high);
    double best_batch = 1e30, best_single = 1e30;
    uint64_t batch_sum = 0, single_sum = 0;
    size_t i;
    int r;

    if (hands == 0 || repeats < 1 || cards == NULL || high == NULL) {
        fprintf(stderr, "usage: %s [hands >= 1] [repeats >= 1]\n", argv[0]);
        return 2;
    }
    if (se_random_hands(2024, hands, 7, cards, 7) != SE_OK) {
        fprintf(stderr, "se_random_hands failed\n");
        return 1;
    }
    /* The first batch picks the kernel (it times a sample): not counted. */
    se_rank_batch(cards, hands < 4096 ? hands : 4096, 7, 7, high, NULL, NULL, 1, 0, NULL);

    for (r = 0; r < repeats; r++) {
        double start = cpu_seconds(), took;
        se_status status =
            se_rank_batch(cards, hands, 7, 7, high, NULL, NULL, 1, 0, NULL);
        took = cpu_seconds() - start;
        if (status != SE_OK) {
            fprintf(stderr, "se_rank_batch: %s\n", se_status_text(status));
            return 1;
        }
        if (took < best_batch) {
            best_batch = took;
        }
    }
    for (i = 0; i < hands; i++) {
        batch_sum += high[i];
    }

    for (r = 0; r < repeats; r++) {
        uint64_t sum = 0;
        double start = cpu_seconds(), took;
        for (i = 0; i < hands; i++) {
            sum += (uint64_t)se_high_rank(cards + i * 7, 7);
        }
        took = cpu_seconds() - start;
        single_sum = sum;
        if (took < best_single) {
            best_single = took;
        }
    }

    if (batch_sum != single_sum) {
        fprintf(stderr, "the two ways disagree: %llu != %llu\n",
                (unsigned long long)batch_sum, (unsigned long long)single_sum);
        return 1;
    }
    printf("studeval %s, %zu random 7-card hands, 1 thread, best of %d\n", SE_VERSION,
           hands, repeats);
    printf("se_rank_batch (high, kernel %s): %7.2f ns a hand\n", se_batch_kernel(),
           best_batch * 1e9 / (double)hands);
    printf("se_high_rank (one hand a call):  %7.2f ns a hand\n",
           best_single * 1e9 / (double)hands);
    free(cards);
    free(high);
    return 0;
}
