/* The vector batch kernels for x86-64 (AVX-512 and AVX2), each compiled for its
 * instructions alone and run only where the CPU has them (se_kernel_choice.c chooses). */
#include "rank/se_batch.h"

#include <string.h>

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
 * displacement and an interleaved high|low table (the high table alone where only
 * high is asked for; for 7-card rows, the seven-card hash's 16-bit displacements and
 * tables, a quarter of the size) are read by gathers ("avx512") or by scalar loads
 * ("avx512_loads": gathers are slow on some CPUs, AMD's among them), and so are the
 * flushes' ranks. Seven vector operations a card (the suit counters and the OR of
 * the bits that a validity check by equal OR and sum needs are gone); bit-exact with
 * the scalar loop (tests/c/exhaustive.c checks every hand on each kernel). A group
 * of 16 rows with an invalid one is ranked again by the scalar loop, which names the
 * first bad row. */
#if defined(SE_X86_GNU)
#include <immintrin.h>
#define SE_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512bitalg")))
#define SE_ALIGN64 __attribute__((aligned(64)))

/* Shared by the AVX-512 and AVX2 kernels (se_simd_tables fills them once). */
static uint32_t se_id_by_rank[16];            /* the id part of a card's key, by rank; 0 past 12 */
static uint32_t se_hilo_table[SE_HASH_SLOTS]; /* high | low << 16 by slot */
/* se_high_table and 2 bytes more, so that a gather's 4-byte read of the last slot
 * stays inside: a call for high alone reads these 256 KiB, not the hilo table's 512
 * (which alone fills the L2 of a Zen 3 core). */
static uint16_t se_high_padded[SE_HASH_SLOTS + 2];
/* The seven-card hash's tables (se_slot7), likewise: high padded, and the 16-bit
 * displacements padded for a gather's 4-byte reads (high | low << 16 is generated:
 * se_hilo7_table). */
static uint16_t se_high7_padded[SE_HASH7_SLOTS + 2];
static uint16_t se_disp7_padded[(1u << SE_BUCKET7_BITS) + 2];
static uint32_t se_flush32[8192];             /* se_flush_table widened: gathers read 4 bytes */
static uint8_t se_place_by_code[64];          /* 16 * suit + rank by code; 0 past 51 */

void se_simd_tables(void) {
    /* The id part of a key depends on the rank alone (the suit lives in the low
     * half), so one 16-entry permute finds it. */
    for (int c = 0; c < 52; c++) se_id_by_rank[c >> 2] = (uint32_t)(se_card_table[c].key >> 32);
    for (int c = 0; c < 52; c++) se_place_by_code[c] = (uint8_t)(16 * (c & 3) + (c >> 2));
    for (uint32_t i = 0; i < SE_HASH_SLOTS; i++)
        se_hilo_table[i] = (uint32_t)se_high_table[i] | ((uint32_t)se_low_table[i] << 16);
    memcpy(se_high_padded, se_high_table, sizeof se_high_table);
    memcpy(se_high7_padded, se_high7_table, sizeof se_high7_table);
    memcpy(se_disp7_padded, se_hash7_disp, sizeof se_hash7_disp);
    for (int i = 0; i < 8192; i++) se_flush32[i] = se_flush_table[i];
}

/* The hilo table's entries of 16 ids by scalar loads (or the high table's alone, for
 * `high_only`): the address arithmetic and the loads run on the integer ports, which
 * the vector work leaves idle, where a gather may be slow (AMD's have never been fast). */
SE_AVX512 SE_INLINE __m512i se_avx512_hilo_by_loads(__m512i id, const int high_only,
                                                    const int seven) {
    uint32_t SE_ALIGN64 lane_id[16], lane_hilo[16];
    /* Volatile on purpose: left alone, the compiler moves the lanes out and back in
     * by vector extracts and inserts, on the shuffle ports this kernel saves. */
    volatile uint32_t *ids = lane_id, *hilo = lane_hilo;
    _mm512_store_si512(lane_id, id);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (int i = 0; i < 16; i++) {
        uint64_t key = (uint64_t)ids[i] << 32; /* the id is a key's top half */
        if (seven) {
            uint32_t slot = se_slot7(key);
            hilo[i] = high_only ? se_high7_table[slot] : se_hilo7_table[slot];
        } else {
            uint32_t slot = se_slot(key);
            hilo[i] = high_only ? se_high_table[slot] : se_hilo_table[slot];
        }
    }
    return _mm512_load_si512(lane_hilo);
}

/* The same by gathers, from the general hash or the seven-card one (whose 16-bit
 * displacements are read as dwords: the XOR's upper half falls to the slot mask). */
SE_AVX512 SE_INLINE __m512i se_avx512_hilo_by_gathers(__m512i id, const int high_only,
                                                      const int seven) {
    __m512i bucket = _mm512_srli_epi32(id, 32 - (seven ? SE_BUCKET7_BITS : SE_BUCKET_BITS));
    __m512i disp = seven ? _mm512_i32gather_epi32(bucket, (const void *)se_disp7_padded, 2)
                         : _mm512_i32gather_epi32(bucket, (const void *)se_hash_disp, 4);
    __m512i slot = _mm512_and_si512(
        _mm512_xor_si512(id, disp),
        _mm512_set1_epi32((int)((seven ? SE_HASH7_SLOTS : SE_HASH_SLOTS) - 1u)));
    if (high_only)
        return _mm512_i32gather_epi32(slot, seven ? (const void *)se_high7_padded
                                                  : (const void *)se_high_padded, 2);
    return _mm512_i32gather_epi32(slot, seven ? (const void *)se_hilo7_table
                                              : (const void *)se_hilo_table, 4);
}

SE_AVX512 SE_INLINE size_t se_avx512_rows(const se_job *job, size_t begin, size_t end,
                                          const int k, const int want, const int columns,
                                          const int gathers) {
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
        /* high | low << 16, or high and 16 bits of garbage when only high is wanted */
        __m512i hilo;
        if (gathers) {
            hilo = se_avx512_hilo_by_gathers(id, want == SE_RANK_HIGH, k == 7);
        } else {
            hilo = se_avx512_hilo_by_loads(id, want == SE_RANK_HIGH, k == 7);
        }
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
                if (gathers) {
                    high = _mm512_mask_i32gather_epi32(high, flush, index,
                                                       (const void *)se_flush32, 4);
                } else {
                    uint32_t SE_ALIGN64 lane_index[16];
                    _mm512_store_si512(lane_index, index);
                    for (unsigned lanes = flush; lanes != 0; lanes &= lanes - 1) {
                        int lane = se_lowest_bit(lanes);
                        lane_index[lane] = se_flush_table[lane_index[lane]];
                    }
                    high = _mm512_mask_mov_epi32(high, flush, _mm512_load_si512(lane_index));
                }
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
 * the arguments after FN are its own last ones, compile-time constants: COLUMNS
 * (rows 1 byte apart, their cards a column stride apart), and for AVX-512 whether
 * the tables are read by gathers. */
#define SE_CASE_KV(FN, K, WANT, ...)                            \
    case K:                                                     \
        return FN(job, begin, end, K, (WANT), __VA_ARGS__);
#define SE_CASE_WANTV(FN, WANT, ...)                            \
    case WANT:                                                  \
        switch (job->k) {                                       \
            SE_CASE_KV(FN, 5, WANT, __VA_ARGS__)                \
            SE_CASE_KV(FN, 6, WANT, __VA_ARGS__)                \
            SE_CASE_KV(FN, 7, WANT, __VA_ARGS__)                \
        }                                                       \
        break;
#define SE_DISPATCH_VECTOR(FN, ...)                             \
    switch (want) {                                             \
        SE_CASE_WANTV(FN, 1, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 2, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 3, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 4, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 5, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 6, __VA_ARGS__)                       \
        SE_CASE_WANTV(FN, 7, __VA_ARGS__)                       \
    }                                                           \
    return SE_NO_ROW;

SE_AVX512 size_t se_rank_block_avx512(const se_job *job, size_t begin, size_t end,
                                             int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 0, 1)
}

SE_AVX512 size_t se_rank_block_avx512_loads(const se_job *job, size_t begin, size_t end,
                                                   int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 0, 0)
}

/* Column-strided rows: the AVX-512 kernel reads a column's 16 bytes at once when
 * the rows are 1 byte apart (a column-major array, as pandas hands over), else
 * the portable strided loop. */
SE_AVX512 size_t se_rank_block_avx512_strided(const se_job *job, size_t begin,
                                                     size_t end, int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 1, 1)
}

SE_AVX512 size_t se_rank_block_avx512_loads_strided(const se_job *job, size_t begin,
                                                           size_t end, int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx512_rows, 1, 0)
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

/* The same from a table of 16-bit entries. */
SE_AVX2 SE_INLINE __m256i se_avx2_lookup16(const uint16_t *table, __m256i index) {
    SE_ALIGN32 uint32_t at[8];
    _mm256_store_si256((__m256i *)at, index);
    return _mm256_setr_epi32(table[at[0]], table[at[1]], table[at[2]], table[at[3]],
                             table[at[4]], table[at[5]], table[at[6]], table[at[7]]);
}

/* high | low << 16 of 8 ids (high and 16 bits of garbage for `high_only`, from a
 * 16-bit table: half the lines of the hilo table's), by the seven-card hash for
 * `seven`, else by the general one. */
SE_AVX2 SE_INLINE __m256i se_avx2_hilo(__m256i id, const int high_only, const int seven) {
    __m256i bucket = _mm256_srli_epi32(id, 32 - (seven ? SE_BUCKET7_BITS : SE_BUCKET_BITS));
    __m256i disp = seven ? se_avx2_lookup16(se_hash7_disp, bucket)
                         : se_avx2_lookup(se_hash_disp, bucket);
    __m256i slot = _mm256_and_si256(
        _mm256_xor_si256(id, disp),
        _mm256_set1_epi32((int)((seven ? SE_HASH7_SLOTS : SE_HASH_SLOTS) - 1u)));
    if (high_only) return se_avx2_lookup16(seven ? se_high7_table : se_high_table, slot);
    return se_avx2_lookup(seven ? se_hilo7_table : se_hilo_table, slot);
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
    const __m256i one = _mm256_set1_epi32(1), twenty_six = _mm256_set1_epi32(26);
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
                if (job->check) {
                    /* A card's bit in two dwords, whose sums equal their ORs exactly
                     * when no code repeats (a repeat carries). Codes 0-25 sit at bits
                     * 0-25 of the first and 26-51 at bits 0-25 of the second, so up to
                     * seven repeats carry inside the dword. (Splitting at 32 missed a
                     * code 31 three times: 3 << 31 wraps to 1 << 31.) The first dword
                     * also gets codes 26-31, at bits 26-31: those repeats the second
                     * finds, and distinct ones cannot wrap the first, whose other
                     * at most 7 - m bits sum below 1 << (32 - m) for m of them. */
                    __m256i bit_lo = _mm256_sllv_epi32(one, code); /* 0 from 32 on */
                    __m256i bit_hi = _mm256_sllv_epi32(one, _mm256_sub_epi32(code, twenty_six));
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
            __m256i hilo = se_avx2_hilo(ids[g], want == SE_RANK_HIGH, k == 7);
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

SE_AVX2 size_t se_rank_block_avx2(const se_job *job, size_t begin, size_t end, int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx2_rows, 0)
}

SE_AVX2 size_t se_rank_block_avx2_strided(const se_job *job, size_t begin, size_t end,
                                                 int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH_VECTOR(se_avx2_rows, 1)
}

int se_cpu_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

int se_cpu_has_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bitalg");
}
#else
typedef int se_kernel_x86_none; /* no x86 vector kernels on this platform or compiler */
#endif
