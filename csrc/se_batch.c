/* Batch ranking: the hot loop and its CPU dispatch; the threads are se_threads.c's. */
#include "studeval.h"

#include "se_hand.h"
#include "se_threads.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Threads take rows in chunks of this size (tens of microseconds of work). */
#define SE_CHUNK_ROWS 8192
#define SE_NO_ROW ((size_t)-1)

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SE_X86_GNU 1
#include <cpuid.h>
#elif defined(_MSC_VER) && defined(_M_X64)
#define SE_X86_MSVC 1
#endif

struct se_job;
typedef size_t (*se_block_fn)(const struct se_job *, size_t, size_t, int);

typedef struct se_job {
    const uint8_t *cards;
    size_t rows;
    size_t row_stride;
    size_t col_stride;
    int k;
    uint16_t *high;
    uint16_t *low;
    uint16_t *low8;
    int check;
    int want;
    se_block_fn kernel;         /* rows whose cards are adjacent (col_stride 1) */
    se_block_fn strided_kernel; /* rows whose cards are col_stride bytes apart */
    size_t first_bad[SE_MAX_THREADS]; /* per worker: the first bad row it found */
} se_job;

/* hw selects the POPCNT instruction where the compiler only emits it on
 * request; the generic build of the loop stays runnable on any x86-64 CPU. */
SE_INLINE int se_popcount(uint64_t x, int hw) {
#if defined(SE_X86_MSVC)
    return hw ? (int)__popcnt64(x) : se_popcount_portable(x);
#elif defined(__GNUC__) || defined(__clang__)
    (void)hw;
    return __builtin_popcountll(x);
#else
    (void)hw;
    return se_popcount_portable(x);
#endif
}

/* Ranks rows [begin, end). k and want are compile-time constants at every call
 * site, so each instantiation is a straight-line loop. Returns the first
 * invalid row when checking, else SE_NO_ROW. (One 8-byte load per row instead of
 * k byte loads was tried: 4-9% slower on an Intel Xeon, whose load ports are not
 * the bottleneck here, so the bytes are read one by one.) */
SE_INLINE size_t se_rank_rows(const se_job *job, size_t begin, size_t end, const int k,
                              const int want, const int hw, const int strided) {
    const uint8_t *row = job->cards + begin * job->row_stride;
    const size_t stride = job->row_stride;
    const size_t col = job->col_stride;
    const int check = job->check;
    uint16_t *high = job->high;
    uint16_t *low = job->low;
    uint16_t *low8 = job->low8;
    for (size_t r = begin; r < end; r++, row += stride) {
        se_sums s;
        if (strided) { /* a row's cards are `col` bytes apart (a column-major array) */
            uint8_t cards[7];
            for (int i = 0; i < k; i++) cards[i] = row[(size_t)i * col];
            s = se_sum_cards(cards, k);
        } else {
            s = se_sum_cards(row, k);
        }
        if (check && se_popcount(s.mask, hw) != k) {
            return r;
        }
        uint32_t slot = se_slot(s.key);
        if (want & SE_RANK_HIGH) {
            high[r] = se_high_of(s, slot);
        }
        if (want & (SE_RANK_LOW | SE_RANK_LOW8)) {
            uint16_t lo = se_low_table[slot];
            if (want & SE_RANK_LOW) {
                low[r] = lo;
            }
            if (want & SE_RANK_LOW8) {
                low8[r] = se_low8_of(lo);
            }
        }
    }
    return SE_NO_ROW;
}

#define SE_CASE_K(K, WANT, HW, S)                               \
    case K:                                                     \
        return se_rank_rows(job, begin, end, K, (WANT), (HW), (S));

#define SE_CASE_WANT(WANT, HW, S)                               \
    case WANT:                                                  \
        switch (job->k) {                                       \
            SE_CASE_K(5, WANT, HW, S)                           \
            SE_CASE_K(6, WANT, HW, S)                           \
            SE_CASE_K(7, WANT, HW, S)                           \
        }                                                       \
        break;

/* One instantiation per (outputs wanted, k); S: cards a column stride apart. */
#define SE_DISPATCH_S(HW, S)                                    \
    switch (want) {                                             \
        SE_CASE_WANT(1, HW, S)                                  \
        SE_CASE_WANT(2, HW, S)                                  \
        SE_CASE_WANT(3, HW, S)                                  \
        SE_CASE_WANT(4, HW, S)                                  \
        SE_CASE_WANT(5, HW, S)                                  \
        SE_CASE_WANT(6, HW, S)                                  \
        SE_CASE_WANT(7, HW, S)                                  \
    }                                                           \
    return SE_NO_ROW;
#define SE_DISPATCH(HW) SE_DISPATCH_S(HW, 0)

static size_t se_rank_block_generic(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH(0)
}

/* Column-strided rows (rare: Fortran-order arrays, Dask partitions) take one
 * portable loop; gathering the bytes costs more than the POPCNT choice saves. */
static size_t se_rank_block_strided(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH_S(0, 1)
}

#if defined(SE_X86_GNU)
__attribute__((target("popcnt"))) static size_t se_rank_block_popcnt(const se_job *job,
                                                                     size_t begin, size_t end,
                                                                     int want) {
    SE_DISPATCH(1)
}
#elif defined(SE_X86_MSVC)
static size_t se_rank_block_popcnt(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH(1)
}
#endif

/* ---- The AVX-512 kernel (F, BW, VBMI, BITALG): 16 hands a step -------------------
 * Contiguous rows (row stride k), 16 at a time: two 64-byte loads hold the 16 rows.
 * One byte permute over each load turns every card code into its mask bit's place,
 * 16 * suit + rank (one byte each), and one zero-masked byte permute per card
 * position then moves that card of every row into a dword lane. Column-major rows
 * (row stride 1) read card j of 16 rows as 16 bytes of column j and permute them the
 * same way. From the place alone:
 *   - the rank-multiset id, from a 16-entry table in a register (a dword permute
 *     reads the place's low four bits, which are the rank);
 *   - the mask, as a sum of bits over two dwords (suits 0-1 and 2-3): a shift by the
 *     place sums suits 0-1 (a shift of 32 or more gives 0), a rotate sums all four
 *     folded onto one dword, and their difference is suits 2-3.
 * After the cards: a hand is valid when every code is below 52 and the mask has k
 * bits (a repeated card carries, and carries only lose bits); a suit with five or
 * more bits in its 16-bit field is a flush, ranked by that field. The hash
 * displacement and an interleaved high|low table are gathered, and flushes gather
 * their own table. Seven vector operations a card (the suit counters and the OR of
 * the bits that a validity check by equal OR and sum needs are gone); bit-exact with
 * the scalar loop (tests/c/exhaustive.c checks every hand on each kernel). A group
 * of 16 rows with an invalid one is ranked again by the scalar loop, which names the
 * first bad row. */
#if defined(SE_X86_GNU)
#include <immintrin.h>
#define SE_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512bitalg")))

/* Shared by the AVX-512 and AVX2 kernels (se_simd_tables fills them once). */
static uint32_t se_id_by_rank[16];            /* the id part of a card's key, by rank; 0 past 12 */
static uint32_t se_hilo_table[SE_HASH_SLOTS]; /* high | low << 16 by slot */
static uint32_t se_flush32[8192];             /* se_flush_table widened: gathers read 4 bytes */
static uint8_t se_place_by_code[64];          /* 16 * suit + rank by code; 0 past 51 */

static void se_simd_tables(void) {
    /* The id part of a key depends on the rank alone (the suit lives in the low
     * half), so one 16-entry permute finds it. */
    for (int c = 0; c < 52; c++) se_id_by_rank[c >> 2] = (uint32_t)(se_card_table[c].key >> 32);
    for (int c = 0; c < 52; c++) se_place_by_code[c] = (uint8_t)(16 * (c & 3) + (c >> 2));
    for (uint32_t i = 0; i < SE_HASH_SLOTS; i++)
        se_hilo_table[i] = (uint32_t)se_high_table[i] | ((uint32_t)se_low_table[i] << 16);
    for (int i = 0; i < 8192; i++) se_flush32[i] = se_flush_table[i];
}

SE_AVX512 SE_INLINE size_t se_avx512_rows(const se_job *job, size_t begin, size_t end,
                                          const int k, const int want, const int columns) {
    const __m512i ids = _mm512_loadu_si512(se_id_by_rank);
    const __m512i places = _mm512_loadu_si512(se_place_by_code);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i fifty_two = _mm512_set1_epi8(52);
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    /* Byte 4r of pick[j]: byte r*k + j of the two loads, card j of row r (the other
     * bytes are zeroed by the permute's mask). */
    const __mmask64 dword_low_bytes = 0x1111111111111111ull;
    __m512i pick[7];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 7
#endif
    for (int j = 0; j < k; j++)
        pick[j] = _mm512_add_epi32(_mm512_mullo_epi32(lane, _mm512_set1_epi32(k)),
                                   _mm512_set1_epi32(j));
    /* The bytes of the second load that hold rows of this step: 16k - 64 of them. */
    const __mmask64 second_used = (1ull << (16 * k - 64)) - 1u;
    const uint8_t *cards = job->cards;
    const size_t col = job->col_stride;
    size_t r = begin;
    /* Whole steps of 16 rows whose loads stay inside the rows given: rows of k
     * bytes, 128 bytes a step; or columns (row stride 1), 16 bytes of each. */
    for (; r + 16 <= end && (columns || (r * (size_t)k) + 128 <= job->rows * (size_t)k);
         r += 16) {
        const uint8_t *base = columns ? cards + r : cards + r * (size_t)k;
        __m512i a = _mm512_setzero_si512(), b = a;
        __mmask64 bad = 0;
        if (!columns) {
            a = _mm512_loadu_si512(base);
            b = _mm512_loadu_si512(base + 64);
            bad = _mm512_cmpge_epu8_mask(a, fifty_two) |
                  (_mm512_cmpge_epu8_mask(b, fifty_two) & second_used);
            a = _mm512_permutexvar_epi8(a, places);
            b = _mm512_permutexvar_epi8(b, places);
        }
        __m512i id = _mm512_setzero_si512(), lo = id, all = id;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 7
#endif
        for (int j = 0; j < k; j++) {
            __m512i place;
            if (columns) {
                __m512i bytes = _mm512_castsi128_si512(
                    _mm_loadu_si128((const __m128i *)(base + (size_t)j * col)));
                bad |= _mm512_mask_cmpge_epu8_mask(0xFFFF, bytes, fifty_two);
                place = _mm512_cvtepu8_epi32(
                    _mm512_castsi512_si128(_mm512_permutexvar_epi8(bytes, places)));
            } else {
                place = _mm512_maskz_permutex2var_epi8(dword_low_bytes, a, pick[j], b);
            }
            id = _mm512_add_epi32(id, _mm512_permutexvar_epi32(place, ids));
            lo = _mm512_add_epi32(lo, _mm512_sllv_epi32(one, place));
            all = _mm512_add_epi32(all, _mm512_rolv_epi32(one, place));
        }
        __m512i hi = _mm512_sub_epi32(all, lo);
        /* Bits in each suit's 16-bit field, and in each hand. */
        __m512i count_lo = _mm512_popcnt_epi16(lo), count_hi = _mm512_popcnt_epi16(hi);
        if (job->check) {
            __m512i bits = _mm512_madd_epi16(_mm512_add_epi16(count_lo, count_hi),
                                             _mm512_set1_epi16(1));
            __mmask16 valid = _mm512_cmpeq_epi32_mask(bits, _mm512_set1_epi32(k));
            if (bad || valid != 0xFFFF) {
                size_t first_bad = se_rank_rows(job, r, r + 16, k, want, 1, columns);
                if (first_bad != SE_NO_ROW) return first_bad;
                continue; /* not reached: the scalar loop agrees, and ranked the rows */
            }
        }
        __m512i bucket = _mm512_srli_epi32(id, 32 - SE_BUCKET_BITS);
        __m512i disp = _mm512_i32gather_epi32(bucket, (const void *)se_hash_disp, 4);
        __m512i slot = _mm512_and_si512(_mm512_xor_si512(id, disp),
                                        _mm512_set1_epi32((int)(SE_HASH_SLOTS - 1u)));
        __m512i hilo = _mm512_i32gather_epi32(slot, (const void *)se_hilo_table, 4);
        if (want & SE_RANK_HIGH) {
            __m512i high = _mm512_and_si512(hilo, _mm512_set1_epi32(0xFFFF));
            const __m512i five = _mm512_set1_epi16(5);
            __mmask32 flush_lo = _mm512_cmpge_epu16_mask(count_lo, five);
            __mmask32 flush_hi = _mm512_cmpge_epu16_mask(count_hi, five);
            if (flush_lo | flush_hi) {
                /* The flush suit's field (one at most in a valid hand of up to 7
                 * cards), moved to a dword's low half: its rank bits. (A scalar
                 * load per flush lane instead of a masked gather was tried: 4%
                 * slower on an Intel Xeon, its loop's branch mispredicted.) */
                __m512i field = _mm512_or_si512(_mm512_maskz_mov_epi16(flush_lo, lo),
                                                _mm512_maskz_mov_epi16(flush_hi, hi));
                __m512i index = _mm512_and_si512(
                    _mm512_or_si512(field, _mm512_srli_epi32(field, 16)),
                    _mm512_set1_epi32(0x1FFF));
                __mmask16 flush = _mm512_test_epi32_mask(field, field);
                high = _mm512_mask_i32gather_epi32(high, flush, index, (const void *)se_flush32, 4);
            }
            _mm256_storeu_si256((__m256i *)(job->high + r), _mm512_cvtepi32_epi16(high));
        }
        if (want & (SE_RANK_LOW | SE_RANK_LOW8)) {
            __m512i low = _mm512_srli_epi32(hilo, 16);
            if (want & SE_RANK_LOW)
                _mm256_storeu_si256((__m256i *)(job->low + r), _mm512_cvtepi32_epi16(low));
            if (want & SE_RANK_LOW8) {
                __mmask16 none = _mm512_cmpgt_epu32_mask(low, _mm512_set1_epi32(56));
                __m512i low8 = _mm512_mask_mov_epi32(low, none, _mm512_set1_epi32(0xFFFF));
                _mm256_storeu_si256((__m256i *)(job->low8 + r), _mm512_cvtepi32_epi16(low8));
            }
        }
    }
    /* The rest (and any row the 128-byte loads could not reach) the scalar way. */
    return se_rank_rows(job, r, end, k, want, 1, columns);
}

/* One instantiation per (outputs wanted, k) of a vector kernel's rows function FN;
 * COLUMNS: rows 1 byte apart, their cards a column stride apart. */
#define SE_CASE_KV(FN, K, WANT, COLUMNS)                        \
    case K:                                                     \
        return FN(job, begin, end, K, (WANT), (COLUMNS));
#define SE_CASE_WANTV(FN, WANT, COLUMNS)                        \
    case WANT:                                                  \
        switch (job->k) {                                       \
            SE_CASE_KV(FN, 5, WANT, COLUMNS)                    \
            SE_CASE_KV(FN, 6, WANT, COLUMNS)                    \
            SE_CASE_KV(FN, 7, WANT, COLUMNS)                    \
        }                                                       \
        break;
#define SE_DISPATCH_VECTOR(FN, COLUMNS)                         \
    switch (want) {                                             \
        SE_CASE_WANTV(FN, 1, COLUMNS)                           \
        SE_CASE_WANTV(FN, 2, COLUMNS)                           \
        SE_CASE_WANTV(FN, 3, COLUMNS)                           \
        SE_CASE_WANTV(FN, 4, COLUMNS)                           \
        SE_CASE_WANTV(FN, 5, COLUMNS)                           \
        SE_CASE_WANTV(FN, 6, COLUMNS)                           \
        SE_CASE_WANTV(FN, 7, COLUMNS)                           \
    }                                                           \
    return SE_NO_ROW;

SE_AVX512 static size_t se_rank_block_avx512(const se_job *job, size_t begin, size_t end,
                                             int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 0)
}

/* Column-strided rows: the AVX-512 kernel reads a column's 16 bytes at once when
 * the rows are 1 byte apart (a column-major array, as pandas hands over), else
 * the portable strided loop. */
SE_AVX512 static size_t se_rank_block_avx512_strided(const se_job *job, size_t begin,
                                                     size_t end, int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 1)
}

/* ---- The AVX2 kernel: 8 hands a step ---------------------------------------------
 * The AVX-512 kernel's steps on 8 lanes, for CPUs without AVX-512 (most laptops and
 * many servers). AVX2 has no byte permute across the two 128-bit halves, so the 8
 * rows are spread first: one dword permute puts rows 0-1 in the low half and rows
 * 2-3 in the high half of one register (rows 4-7 likewise from a second load), and
 * one byte shuffle a register then moves card j of each row into its own dword. The
 * lanes then hold rows 0, 1, 4, 5, 2, 3, 6, 7, put back in order as the ranks are
 * packed to 16 bits. There are no mask registers: masks are all-ones lanes. A group
 * of 8 rows with an invalid one is ranked again by the scalar loop, which names the
 * first bad row. Bit-exact with the scalar loop (tests/c/exhaustive.c). */
#define SE_AVX2 __attribute__((target("avx2,popcnt")))
#define SE_ALIGN32 __attribute__((aligned(32)))

/* The row of each lane, for contiguous rows. */
static const int se_avx2_row[8] = {0, 1, 4, 5, 2, 3, 6, 7};

/* table[index] for 8 lanes by scalar loads: a gather instruction cost more than the
 * eight loads on the CPUs measured (Intel's gathers carry a microcode fix for a
 * data leak, and AMD's were never fast). */
SE_AVX2 SE_INLINE __m256i se_avx2_lookup(const uint32_t *table, __m256i index) {
    SE_ALIGN32 uint32_t at[8];
    _mm256_store_si256((__m256i *)at, index);
    return _mm256_setr_epi32((int)table[at[0]], (int)table[at[1]], (int)table[at[2]],
                             (int)table[at[3]], (int)table[at[4]], (int)table[at[5]],
                             (int)table[at[6]], (int)table[at[7]]);
}

/* 8 dword results, in lane order `order_index` puts back, as 8 uint16 at out. */
SE_AVX2 SE_INLINE void se_avx2_store16(uint16_t *out, __m256i values, __m256i order_index) {
    __m256i packed = _mm256_packus_epi32(values, values); /* 4 a half, twice */
    packed = _mm256_permutevar8x32_epi32(packed, order_index);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(packed));
}

SE_AVX2 SE_INLINE size_t se_avx2_rows(const se_job *job, size_t begin, size_t end, const int k,
                                      const int want, const int columns) {
    const __m256i ids_low = _mm256_loadu_si256((const __m256i *)se_id_by_rank);
    const __m256i ids_high = _mm256_loadu_si256((const __m256i *)(se_id_by_rank + 8));
    /* A card's suit counter, 1 << (4 * suit): vpermd reads the code's low 3 bits. */
    const __m256i suit_bits = _mm256_setr_epi32(1, 16, 256, 4096, 1, 16, 256, 4096);
    const __m256i one = _mm256_set1_epi32(1), thirty_two = _mm256_set1_epi32(32);
    const __m256i seven = _mm256_set1_epi32(7), limit = _mm256_set1_epi32(52);
    /* Rows 2 and 3 start at byte 2k: from dword k / 2 on, `skew` bytes into it. */
    const int first = k / 2, skew = 2 * k - 4 * first;
    const __m256i spread = _mm256_setr_epi32(0, 1, 2, 3, first, first + 1, first + 2, first + 3);
    /* Packed ranks, as dwords of two: rows (0,1) (4,5) | (2,3) (6,7) become 0..7;
     * columns come in order. */
    const __m256i order = columns ? _mm256_setr_epi32(0, 1, 4, 5, 0, 1, 4, 5)
                                  : _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5);
    __m256i pick_a[7], pick_b[7];
    for (int j = 0; j < k; j++) {
        /* Byte 0 of dwords 0 and 1 of each half from a, of dwords 2 and 3 from b. */
        int8_t a[32], b[32];
        memset(a, 0x80, sizeof a); /* a byte shuffle writes zero for 0x80 */
        memset(b, 0x80, sizeof b);
        a[0] = b[8] = (int8_t)j;
        a[4] = b[12] = (int8_t)(k + j);
        a[16] = b[24] = (int8_t)(skew + j);
        a[20] = b[28] = (int8_t)(skew + k + j);
        pick_a[j] = _mm256_loadu_si256((const __m256i *)a);
        pick_b[j] = _mm256_loadu_si256((const __m256i *)b);
    }
    const uint8_t *cards = job->cards;
    const size_t col = job->col_stride;
    size_t r = begin;
    /* Steps of 4 groups of 8 rows: the keys of all four first, then their table
     * reads, so that the four groups' gathers (each two in a row, the second on
     * the first) wait together rather than one after another. Each group's loads
     * stay inside the rows given: two 32-byte loads, at its rows 0 and 4; or
     * columns (row stride 1), 8 bytes of each. */
    for (; r + 32 <= end && (columns || (r + 28) * (size_t)k + 32 <= job->rows * (size_t)k);
         r += 32) {
        __m256i ids[4], suit_sums[4];
        int ranked = 0; /* groups the scalar loop ranked (one holds an invalid row) */
        for (int g = 0; g < 4; g++) {
            const size_t at = r + 8 * (size_t)g;
            const uint8_t *base = columns ? cards + at : cards + at * (size_t)k;
            __m256i x = _mm256_setzero_si256(), y = x;
            if (!columns) {
                x = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)base),
                                                spread);
                y = _mm256_permutevar8x32_epi32(
                    _mm256_loadu_si256((const __m256i *)(base + 4 * (size_t)k)), spread);
            }
            __m256i id = _mm256_setzero_si256(), suits = _mm256_set1_epi32(SE_SUIT_BIAS);
            __m256i top = id, lo = id, hi = id, lo_or = id, hi_or = id;
            for (int j = 0; j < k; j++) {
                __m256i code =
                    columns ? _mm256_cvtepu8_epi32(
                                  _mm_loadl_epi64((const __m128i *)(base + (size_t)j * col)))
                            : _mm256_or_si256(_mm256_shuffle_epi8(x, pick_a[j]),
                                              _mm256_shuffle_epi8(y, pick_b[j]));
                top = _mm256_max_epu32(top, code); /* valid rows have top codes < 52 */
                /* As in the AVX-512 kernel, nothing is masked by validity: an
                 * invalid row is refused or may take any rank, and every index
                 * stays inside its register table or, masked to the table's size,
                 * its gather. */
                __m256i rank = _mm256_srli_epi32(code, 2);
                __m256i id_card = _mm256_blendv_epi8(
                    _mm256_permutevar8x32_epi32(ids_low, rank),
                    _mm256_permutevar8x32_epi32(ids_high, rank), _mm256_cmpgt_epi32(rank, seven));
                id = _mm256_add_epi32(id, id_card);
                suits = _mm256_add_epi32(suits, _mm256_permutevar8x32_epi32(suit_bits, code));
                if (job->check) { /* bit `code` of 52, in two dwords: a repeat carries */
                    __m256i bit_lo = _mm256_sllv_epi32(one, code); /* 0 from 32 on */
                    __m256i bit_hi = _mm256_sllv_epi32(one, _mm256_sub_epi32(code, thirty_two));
                    lo = _mm256_add_epi32(lo, bit_lo);
                    lo_or = _mm256_or_si256(lo_or, bit_lo);
                    hi = _mm256_add_epi32(hi, bit_hi);
                    hi_or = _mm256_or_si256(hi_or, bit_hi);
                }
            }
            if (job->check) {
                __m256i valid = _mm256_and_si256(
                    _mm256_cmpgt_epi32(limit, top),
                    _mm256_and_si256(_mm256_cmpeq_epi32(lo, lo_or), _mm256_cmpeq_epi32(hi, hi_or)));
                if (_mm256_movemask_ps(_mm256_castsi256_ps(valid)) != 0xFF) {
                    size_t bad = se_rank_rows(job, at, at + 8, k, want, 1, columns);
                    if (bad != SE_NO_ROW) return bad;
                    ranked |= 1 << g;
                }
            }
            ids[g] = id;
            suit_sums[g] = suits;
        }
        for (int g = 0; g < 4; g++) {
            if (ranked >> g & 1) continue;
            const size_t at = r + 8 * (size_t)g;
            __m256i bucket = _mm256_srli_epi32(ids[g], 32 - SE_BUCKET_BITS);
            __m256i disp = se_avx2_lookup(se_hash_disp, bucket);
            __m256i slot = _mm256_and_si256(_mm256_xor_si256(ids[g], disp),
                                            _mm256_set1_epi32((int)(SE_HASH_SLOTS - 1u)));
            __m256i hilo = se_avx2_lookup(se_hilo_table, slot);
            if (want & SE_RANK_HIGH) {
                __m256i flush_bits =
                    _mm256_and_si256(suit_sums[g], _mm256_set1_epi32((int)SE_FLUSH_BITS));
                int plain = _mm256_movemask_ps(_mm256_castsi256_ps(
                    _mm256_cmpeq_epi32(flush_bits, _mm256_setzero_si256())));
                se_avx2_store16(job->high + at,
                                _mm256_and_si256(hilo, _mm256_set1_epi32(0xFFFF)), order);
                /* A flush (about one 7-card hand in 33) is ranked again by the scalar
                 * loop: the lanes hold no suit's ranks. */
                for (int lanes = ~plain & 0xFF; lanes != 0; lanes &= lanes - 1) {
                    int lane = se_lowest_bit((uint32_t)lanes);
                    size_t row = at + (size_t)(columns ? lane : se_avx2_row[lane]);
                    (void)se_rank_rows(job, row, row + 1, k, SE_RANK_HIGH, 1, columns);
                }
            }
            if (want & (SE_RANK_LOW | SE_RANK_LOW8)) {
                __m256i low = _mm256_srli_epi32(hilo, 16);
                if (want & SE_RANK_LOW) se_avx2_store16(job->low + at, low, order);
                if (want & SE_RANK_LOW8) {
                    /* 0xFFFF where no low qualifies (not -1: the packing saturates). */
                    __m256i none = _mm256_and_si256(
                        _mm256_cmpgt_epi32(low, _mm256_set1_epi32(56)), _mm256_set1_epi32(0xFFFF));
                    se_avx2_store16(job->low8 + at, _mm256_or_si256(low, none), order);
                }
            }
        }
    }
    /* The rest (and any row the loads could not reach) the scalar way. */
    return se_rank_rows(job, r, end, k, want, 1, columns);
}

SE_AVX2 static size_t se_rank_block_avx2(const se_job *job, size_t begin, size_t end, int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx2_rows, 0)
}

SE_AVX2 static size_t se_rank_block_avx2_strided(const se_job *job, size_t begin, size_t end,
                                                 int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx2_rows, 1)
}

static int se_cpu_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

static int se_cpu_has_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bitalg");
}
#endif

static int se_cpu_has_popcnt(void) {
#if defined(SE_X86_GNU)
    unsigned int a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 23));
#elif defined(SE_X86_MSVC)
    int info[4];
    __cpuid(info, 1);
    return (info[2] & (1 << 23)) != 0;
#else
    return 0;
#endif
}

/* ---- Which kernel ------------------------------------------------------------------
 * The kernels this CPU can run, and the one each kind of call takes: chosen once per
 * process (racing first calls wait for the one that chooses, so no thread ever reads
 * a half-written pointer). By default ("auto") they are timed against each other at
 * the first batch, on the same 4,096 random hands, in turn, best of 7: the same
 * instructions run at very different speeds on different CPUs (AVX-512 gathers and
 * permutes on AMD Zen 4 against Intel, say), so the choice is what runs faster here,
 * not what the CPU claims. Calls for the high rank alone and calls with a low are
 * timed apart. A vector kernel must beat the scalar loop by 3% to be taken.
 * STUDEVAL_KERNEL=scalar, avx2 or avx512 takes that kernel where the CPU has it (for
 * tests and benchmarks), else the scalar loop. */
typedef struct se_kernel {
    const char *name;
    se_block_fn rows;    /* rows whose cards are adjacent (col_stride 1) */
    se_block_fn strided; /* rows whose cards are col_stride bytes apart */
} se_kernel;

enum { SE_FOR_HIGH = 0, SE_FOR_LOWS = 1 }; /* the high rank alone; any low */
#define SE_SAMPLE_ROWS 4096
#define SE_SAMPLE_ROUNDS 7

static se_kernel se_kernels[3];
static int se_kernel_count = 0;
static const se_kernel *se_chosen[2];
static char se_chosen_name[32];
static char se_chosen_why[512];
static char se_kernel_names[32]; /* the kernels this CPU runs, by spaces */
static se_once_flag se_kernel_once = SE_ONCE_INIT;

/* Nanoseconds a hand of `kernel` over the sample, for `want`: the best of `rounds`
 * (the caller alternates kernels round by round). */
static double se_time_kernel(const se_kernel *kernel, const uint8_t *sample, uint16_t *out,
                             int want) {
    se_job job;
    memset(&job, 0, sizeof job);
    job.cards = sample;
    job.rows = SE_SAMPLE_ROWS;
    job.row_stride = 7;
    job.col_stride = 1;
    job.k = 7;
    job.low = (want & SE_RANK_LOW) ? out + SE_SAMPLE_ROWS : NULL;
    job.low8 = (want & SE_RANK_LOW8) ? out + 2 * SE_SAMPLE_ROWS : NULL;
    job.high = (want & SE_RANK_HIGH) ? out : NULL;
    job.check = 1;
    job.want = want;
    uint64_t start = se_clock_ns();
    (void)kernel->rows(&job, 0, SE_SAMPLE_ROWS, want);
    return (double)(se_clock_ns() - start) / SE_SAMPLE_ROWS;
}

/* Random valid 7-card hands, the same every run (splitmix64). */
static void se_sample_hands(uint8_t *sample) {
    uint64_t state = 0x5EED5EEDull;
    for (int r = 0; r < SE_SAMPLE_ROWS; r++) {
        uint64_t seen = 0;
        for (int i = 0; i < 7;) {
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            int card = (int)((z ^ (z >> 31)) % 52);
            if (seen >> card & 1) continue;
            seen |= 1ull << card;
            sample[r * 7 + i++] = (uint8_t)card;
        }
    }
}

/* Times every kernel for both kinds of call and takes the fastest of each. */
static void se_calibrate(void) {
    static uint8_t sample[SE_SAMPLE_ROWS * 7];
    static uint16_t out[3 * SE_SAMPLE_ROWS];
    static const int wants[2] = {SE_RANK_HIGH, SE_RANK_HIGH | SE_RANK_LOW | SE_RANK_LOW8};
    double best[3][2];
    se_sample_hands(sample);
    for (int c = 0; c < se_kernel_count; c++) best[c][0] = best[c][1] = 1e30;
    for (int round = 0; round < SE_SAMPLE_ROUNDS; round++)
        for (int w = 0; w < 2; w++)
            for (int c = 0; c < se_kernel_count; c++) {
                double ns = se_time_kernel(&se_kernels[c], sample, out, wants[w]);
                if (ns < best[c][w]) best[c][w] = ns;
            }
    size_t used = (size_t)snprintf(se_chosen_why, sizeof se_chosen_why,
                                   "auto (timed at the first batch, ns a hand, best of %d on %d "
                                   "hands):", SE_SAMPLE_ROUNDS, SE_SAMPLE_ROWS);
    for (int w = 0; w < 2; w++) {
        int pick = 0; /* the scalar loop, unless a vector kernel beats it by 3% */
        for (int c = 1; c < se_kernel_count; c++)
            if (best[c][w] < 0.97 * best[0][w] && best[c][w] < best[pick][w]) pick = c;
        se_chosen[w] = &se_kernels[pick];
        for (int c = 0; c < se_kernel_count && used < sizeof se_chosen_why; c++)
            used += (size_t)snprintf(se_chosen_why + used, sizeof se_chosen_why - used,
                                     "%s%s %.2f", c == 0 ? (w == 0 ? " high: " : "; all three: ")
                                                         : ", ",
                                     se_kernels[c].name, best[c][w]);
        if (used < sizeof se_chosen_why)
            used += (size_t)snprintf(se_chosen_why + used, sizeof se_chosen_why - used,
                                     " -> %s", se_chosen[w]->name);
    }
}

static void se_choose_kernel(void) {
    se_kernel scalar = {"scalar", se_rank_block_generic, se_rank_block_strided};
#if defined(SE_X86_GNU) || defined(SE_X86_MSVC)
    if (se_cpu_has_popcnt()) scalar.rows = se_rank_block_popcnt;
#else
    (void)se_cpu_has_popcnt;
#endif
    se_kernels[se_kernel_count++] = scalar;
#if defined(SE_X86_GNU)
    if (se_cpu_has_popcnt() && (se_cpu_has_avx2() || se_cpu_has_avx512())) se_simd_tables();
    if (se_cpu_has_popcnt() && se_cpu_has_avx2()) {
        se_kernel avx2 = {"avx2", se_rank_block_avx2, se_rank_block_avx2_strided};
        se_kernels[se_kernel_count++] = avx2;
    }
    if (se_cpu_has_popcnt() && se_cpu_has_avx512()) {
        se_kernel avx512 = {"avx512", se_rank_block_avx512, se_rank_block_avx512_strided};
        se_kernels[se_kernel_count++] = avx512;
    }
#endif
    for (int c = 0, used = 0; c < se_kernel_count; c++)
        used += snprintf(se_kernel_names + used, sizeof se_kernel_names - (size_t)used, "%s%s",
                         c ? " " : "", se_kernels[c].name);
    const char *asked = getenv("STUDEVAL_KERNEL");
    if (asked != NULL && *asked != '\0' && strcmp(asked, "auto") != 0) {
        const se_kernel *pick = &se_kernels[0];
        for (int c = 0; c < se_kernel_count; c++)
            if (strcmp(asked, se_kernels[c].name) == 0) pick = &se_kernels[c];
        se_chosen[SE_FOR_HIGH] = se_chosen[SE_FOR_LOWS] = pick;
        snprintf(se_chosen_why, sizeof se_chosen_why, "STUDEVAL_KERNEL=%.40s%s", asked,
                 strcmp(asked, pick->name) == 0
                     ? ""
                     : ": not a kernel this CPU runs (scalar, avx2, avx512), the scalar loop");
    } else if (se_kernel_count == 1) {
        se_chosen[SE_FOR_HIGH] = se_chosen[SE_FOR_LOWS] = &se_kernels[0];
        snprintf(se_chosen_why, sizeof se_chosen_why,
                 "auto: this CPU has neither AVX2 nor AVX-512 F/BW/VBMI");
    } else {
        se_calibrate();
    }
    if (se_chosen[SE_FOR_HIGH] == se_chosen[SE_FOR_LOWS])
        snprintf(se_chosen_name, sizeof se_chosen_name, "%s", se_chosen[SE_FOR_HIGH]->name);
    else
        snprintf(se_chosen_name, sizeof se_chosen_name, "%s/%s", se_chosen[SE_FOR_HIGH]->name,
                 se_chosen[SE_FOR_LOWS]->name);
}

const char *se_batch_kernel(void) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen_name;
}

const char *se_batch_kernels(void) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_kernel_names;
}

const char *se_batch_kernel_why(void) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen_why;
}

static const se_kernel *se_kernel_for(int want) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen[want == SE_RANK_HIGH ? SE_FOR_HIGH : SE_FOR_LOWS];
}

static int se_want(const se_job *job) {
    return (job->high ? SE_RANK_HIGH : 0) | (job->low ? SE_RANK_LOW : 0) |
           (job->low8 ? SE_RANK_LOW8 : 0);
}

static int se_batch_chunk(void *context, size_t begin, size_t end, int worker) {
    se_job *job = (se_job *)context;
    size_t bad = job->col_stride == 1 ? job->kernel(job, begin, end, job->want)
                                      : job->strided_kernel(job, begin, end, job->want);
    if (bad != SE_NO_ROW) {
        if (bad < job->first_bad[worker]) {
            job->first_bad[worker] = bad;
        }
        return 1; /* no one needs to start a later chunk */
    }
    return 0;
}

se_status se_rank_batch(const uint8_t *cards, size_t rows, size_t row_stride, int k,
                        uint16_t *high, uint16_t *low, uint16_t *low8, int threads,
                        int check, size_t *first_bad_row) {
    return se_rank_batch_strided(cards, rows, row_stride, 1, k, high, low, low8, threads, check,
                                 first_bad_row);
}

se_status se_rank_batch_strided(const uint8_t *cards, size_t rows, size_t row_stride,
                                size_t col_stride, int k, uint16_t *high, uint16_t *low,
                                uint16_t *low8, int threads, int check,
                                size_t *first_bad_row) {
    se_job job;
    int workers;
    if (k < 5 || k > 7) {
        return SE_BAD_SIZE;
    }
    if (col_stride < 1 || row_stride < 1 || (col_stride == 1 && row_stride < (size_t)k) ||
        (rows > 0 && cards == NULL)) {
        return SE_BAD_ARGUMENT;
    }
    if (rows > 0 && high == NULL && low == NULL && low8 == NULL) {
        return SE_BAD_ARGUMENT;
    }
    if (rows == 0) {
        return SE_OK;
    }
    job.cards = cards;
    job.rows = rows;
    job.row_stride = row_stride;
    job.col_stride = col_stride;
    job.k = k;
    job.high = high;
    job.low = low;
    job.low8 = low8;
    job.check = check != 0;
    job.want = se_want(&job);
    const se_kernel *kernel = se_kernel_for(job.want);
    job.kernel = kernel->rows;
    job.strided_kernel = kernel->strided;
    {
        size_t min_rows = se_batch_min_rows_per_thread();
        workers = se_workers_for(rows, min_rows, threads);
        for (int t = 0; t < workers; t++) {
            job.first_bad[t] = SE_NO_ROW;
        }
        /* A thread that cannot start leaves its chunks to the others, so the
         * result is complete either way. */
        /* Chunks of at most half a thread's least share, so that every thread
         * gets several (tests lower the least share to run small batches on
         * several threads; by default the chunks are SE_CHUNK_ROWS rows). */
        size_t chunk = min_rows / 2 < SE_CHUNK_ROWS ? min_rows / 2 : SE_CHUNK_ROWS;
        (void)se_parallel_for(rows, chunk > 0 ? chunk : 1, min_rows, workers, se_batch_chunk,
                              &job);
    }
    {
        size_t first_bad = SE_NO_ROW;
        for (int t = 0; t < workers; t++) {
            if (job.first_bad[t] < first_bad) {
                first_bad = job.first_bad[t];
            }
        }
        if (first_bad != SE_NO_ROW) {
            if (first_bad_row != NULL) {
                *first_bad_row = first_bad;
            }
            return SE_INVALID_ROW;
        }
    }
    return SE_OK;
}
