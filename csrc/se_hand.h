/*
 * The hand kernel shared by single-hand and batch ranking (internal).
 *
 * A hand is summarised by two 64-bit sums over its cards (see
 * csrc/gen/gen_tables.py): `key` (rank multiset id in the high 32 bits, suit
 * counters in the low 16) and `mask` (bit 16 * suit + rank per card). Because
 * the mask is a sum, a repeated card carries into another bit and an invalid
 * code adds nothing, so the hand is valid exactly when the mask has k bits.
 */
#ifndef SE_HAND_H
#define SE_HAND_H

#include <stdint.h>

#include "se_tables.h"

#if defined(_MSC_VER)
#include <intrin.h>
#define SE_INLINE static __forceinline
#else
#define SE_INLINE static inline __attribute__((always_inline))
#endif

/* Suit counters start at 3 so that a fifth card of a suit sets its nibble's bit 3. */
#define SE_SUIT_BIAS 0x3333u
#define SE_FLUSH_BITS 0x8888u

typedef struct se_sums {
    uint64_t key;
    uint64_t mask;
} se_sums;

#if defined(__x86_64__) || defined(_M_X64)
/* x86-64 always has SSE2: one 128-bit add per card sums key and mask together.
 * (Only x86-64: 32-bit x86 lacks _mm_cvtsi128_si64 and takes the plain loop.) */
#include <emmintrin.h>
SE_INLINE se_sums se_sum_cards(const uint8_t *cards, int k) {
    __m128i acc = _mm_set_epi64x(0, SE_SUIT_BIAS);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 7
#endif
    for (int i = 0; i < k; i++) {
        acc = _mm_add_epi64(acc, _mm_loadu_si128((const __m128i *)&se_card_table[cards[i]]));
    }
    se_sums s;
    s.key = (uint64_t)_mm_cvtsi128_si64(acc);
    s.mask = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc));
    return s;
}
#else
SE_INLINE se_sums se_sum_cards(const uint8_t *cards, int k) {
    se_sums s = {SE_SUIT_BIAS, 0};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 7
#endif
    for (int i = 0; i < k; i++) {
        const se_card *card = &se_card_table[cards[i]];
        s.key += card->key;
        s.mask += card->mask;
    }
    return s;
}
#endif

SE_INLINE uint32_t se_slot(uint64_t key) {
    uint32_t id = (uint32_t)(key >> 32);
    return (id ^ se_hash_disp[id >> (32 - SE_BUCKET_BITS)]) & (SE_HASH_SLOTS - 1u);
}

SE_INLINE int se_lowest_bit(uint32_t x) {
#if defined(_MSC_VER)
    unsigned long index;
    _BitScanForward(&index, x);
    return (int)index;
#else
    return __builtin_ctz(x);
#endif
}

/* Best high rank: the flush table when a suit has five or more cards (a flush
 * always beats whatever else seven cards can hold), else the multiset's value. */
SE_INLINE uint16_t se_high_of(se_sums s, uint32_t slot) {
    uint32_t flush = (uint32_t)s.key & SE_FLUSH_BITS;
    if (flush) {
        int suit = se_lowest_bit(flush) >> 2;
        return se_flush_table[(s.mask >> (16 * suit)) & 0x1FFFu];
    }
    return se_high_table[slot];
}

/* Branch-free on purpose: about one random hand in five qualifies, so a branch
 * here would be mispredicted often. */
SE_INLINE uint16_t se_low8_of(uint16_t low) {
    return (uint16_t)(low | (0u - (uint32_t)(low > 56)));
}

/* Portable population count (used outside the hot loop). */
SE_INLINE int se_popcount_portable(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

#endif /* SE_HAND_H */
