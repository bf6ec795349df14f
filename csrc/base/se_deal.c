/* Random hands for the command line's --random and the benchmarks (studeval.h). */
#include "studeval.h"

#include "base/se_random.h"

se_status se_random_hands(uint64_t seed, size_t count, int size, uint8_t *out,
                          size_t row_stride) {
    if (size < 1 || size > 52 || (count > 0 && out == NULL) || row_stride < (size_t)size)
        return SE_BAD_ARGUMENT;
    se_rng rng = se_rng_seeded(seed);
    for (size_t r = 0; r < count; r++) {
        /* Floyd's subset sampling: for j = 52 - size .. 51 draw t in 0..j, and take j
         * instead when t is already held. Every set of cards is equally likely. */
        uint64_t held = 0;
        uint8_t *row = out + r * row_stride;
        for (int j = 52 - size, col = 0; j < 52; j++, col++) {
            uint32_t t = se_below(&rng, (uint32_t)j + 1);
            if (held & (1ull << t)) t = (uint32_t)j;
            held |= 1ull << t;
            row[col] = (uint8_t)t;
        }
    }
    return SE_OK;
}
