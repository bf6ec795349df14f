/* The random generator shared by Monte Carlo equity and the engine's shuffles:
 * xoshiro256** seeded through splitmix64, drawn 16 bits at a time. Internal. */
#ifndef SE_RANDOM_H
#define SE_RANDOM_H

#include <stdint.h>

#include "base/se_inline.h"

typedef struct se_xoshiro {
    uint64_t s[4];
} se_xoshiro;

SE_INLINE uint64_t se_splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

SE_INLINE uint64_t se_rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

SE_INLINE uint64_t se_next(se_xoshiro *r) { /* xoshiro256** */
    uint64_t result = se_rotl(r->s[1] * 5, 7) * 9;
    uint64_t t = r->s[1] << 17;
    r->s[2] ^= r->s[0];
    r->s[3] ^= r->s[1];
    r->s[1] ^= r->s[2];
    r->s[0] ^= r->s[3];
    r->s[2] ^= t;
    r->s[3] = se_rotl(r->s[3], 45);
    return result;
}

/* 16 random bits at a time: each 64-bit output serves four draws (a card among
 * at most 52 needs few bits; the rejection below keeps every draw exactly uniform). */
typedef struct se_rng {
    se_xoshiro x;
    uint64_t bits;
    int left;
} se_rng;

SE_INLINE uint32_t se_u16(se_rng *r) {
    if (r->left == 0) {
        r->bits = se_next(&r->x);
        r->left = 4;
    }
    uint32_t v = (uint32_t)(r->bits & 0xFFFFu);
    r->bits >>= 16;
    r->left--;
    return v;
}

/* A uniform integer in 0..range-1, range <= 65536 (Lemire: multiply-shift,
 * rejecting the few values that would bias it: about range / 65536 of them). */
SE_INLINE uint32_t se_below(se_rng *r, uint32_t range) {
    uint32_t m = se_u16(r) * range;
    uint32_t low = m & 0xFFFFu;
    if (low < range) {
        uint32_t threshold = (65536u - range) % range;
        while (low < threshold) {
            m = se_u16(r) * range;
            low = m & 0xFFFFu;
        }
    }
    return m >> 16;
}

/* A generator whose whole state comes from one 64-bit seed. */
SE_INLINE se_rng se_rng_seeded(uint64_t seed) {
    se_rng r;
    for (int i = 0; i < 4; i++) r.x.s[i] = se_splitmix(&seed);
    r.bits = 0;
    r.left = 0;
    return r;
}

#endif
