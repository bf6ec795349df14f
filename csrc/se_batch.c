/* Batch ranking: the hot loop and its CPU dispatch; the threads are se_threads.c's. */
#include "studeval.h"

#include "se_hand.h"
#include "se_threads.h"

#include <stddef.h>
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

/* ---- The AVX-512 kernel (F, BW, VBMI): 16 hands a step --------------------------
 * Contiguous rows (row stride k), 16 at a time: two 64-byte loads hold the 16
 * rows, and one byte permute per card position moves that card of every row into
 * a lane; or column-major rows (row stride 1), where card j of 16 rows is 16
 * bytes of column j as they lie. Each card's rank-multiset id comes from a 16-entry table by rank
 * in one register (one dword permute), its suit counter and its rank bit are computed,
 * the hash displacement and an interleaved high|low table are gathered, and
 * flushes gather their own table. A hand is valid when every code is below 52
 * and no rank bit repeats (the OR of the bits equals their sum). Bit-exact with
 * the scalar loop; tests/c/exhaustive.c checks every hand on each kernel. */
#if defined(SE_X86_GNU)
#include <immintrin.h>
#define SE_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))

static uint32_t se_id_by_rank[16];          /* the id part of a card's key, by rank; 0 past 12 */
static uint32_t se_hilo_table[SE_HASH_SLOTS]; /* high | low << 16 by slot */
static uint32_t se_flush32[8192];             /* se_flush_table widened: gathers read 4 bytes */

static void se_avx512_tables(void) {
    /* The id part of a key depends on the rank alone (the suit lives in the low
     * half), so one 16-entry permute finds it. */
    for (int c = 0; c < 52; c++) se_id_by_rank[c >> 2] = (uint32_t)(se_card_table[c].key >> 32);
    for (uint32_t i = 0; i < SE_HASH_SLOTS; i++)
        se_hilo_table[i] = (uint32_t)se_high_table[i] | ((uint32_t)se_low_table[i] << 16);
    for (int i = 0; i < 8192; i++) se_flush32[i] = se_flush_table[i];
}

SE_AVX512 SE_INLINE size_t se_avx512_rows(const se_job *job, size_t begin, size_t end,
                                          const int k, const int want, const int columns) {
    const __m512i ids = _mm512_loadu_si512(se_id_by_rank);
    /* A card's suit counter, 1 << (4 * suit), by the code's low four bits. */
    const __m512i suit_bits = _mm512_set_epi32(4096, 256, 16, 1, 4096, 256, 16, 1, 4096, 256,
                                               16, 1, 4096, 256, 16, 1);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    /* Bytes 0..15: byte r*k + j of the two loads, for row r (the rest of each index
     * register is left as it falls: it only picks bytes that are never used). */
    __m512i pick[7];
    for (int j = 0; j < k; j++)
        pick[j] = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(_mm512_add_epi32(
            _mm512_mullo_epi32(lane, _mm512_set1_epi32(k)), _mm512_set1_epi32(j))));
    const uint8_t *cards = job->cards;
    const size_t col = job->col_stride;
    size_t r = begin;
    /* Whole steps of 16 rows whose loads stay inside the rows given: rows of k
     * bytes, 128 bytes a step; or columns (row stride 1), 16 bytes of each. */
    for (; r + 16 <= end && (columns || (r * (size_t)k) + 128 <= job->rows * (size_t)k);
         r += 16) {
        const uint8_t *base = columns ? cards + r : cards + r * (size_t)k;
        __m512i a = _mm512_setzero_si512(), b = a;
        if (!columns) {
            a = _mm512_loadu_si512(base);
            b = _mm512_loadu_si512(base + 64);
        }
        __m512i id = _mm512_setzero_si512(), suits = _mm512_set1_epi32(SE_SUIT_BIAS);
        __m512i lo = _mm512_setzero_si512(), hi = lo, lo_or = lo, hi_or = lo;
        __mmask16 valid = 0xFFFF;
        for (int j = 0; j < k; j++) {
            /* Card j of the 16 rows, one byte each (a column's 16 bytes as they lie,
             * or picked out of the rows), then one per dword lane. */
            __m128i bytes =
                columns ? _mm_loadu_si128((const __m128i *)(base + (size_t)j * col))
                        : _mm512_castsi512_si128(_mm512_permutex2var_epi8(a, pick[j], b));
            __m512i code = _mm512_cvtepu8_epi32(bytes);
            __mmask16 ok = _mm512_cmplt_epu32_mask(code, _mm512_set1_epi32(52));
            valid &= ok;
            /* No masking by `ok` below: a code of 52 or more already makes the row
             * invalid, and an unchecked invalid row may get any rank; every index
             * stays inside its register table, or is masked before a gather. */
            __m512i rank = _mm512_srli_epi32(code, 2);
            id = _mm512_add_epi32(id, _mm512_permutexvar_epi32(rank, ids));
            suits = _mm512_add_epi32(suits, _mm512_permutexvar_epi32(code, suit_bits));
            /* Rank bit 16 * suit + rank, split over two dwords (suits 0-1, 2-3). */
            __m512i shift = _mm512_add_epi32(rank,
                                             _mm512_slli_epi32(_mm512_and_si512(code, one), 4));
            __m512i bit = _mm512_sllv_epi32(one, shift);
            __mmask16 to_hi = _mm512_test_epi32_mask(code, _mm512_set1_epi32(2));
            __mmask16 to_lo = (__mmask16)~to_hi;
            lo = _mm512_mask_add_epi32(lo, to_lo, lo, bit);
            lo_or = _mm512_mask_or_epi32(lo_or, to_lo, lo_or, bit);
            hi = _mm512_mask_add_epi32(hi, to_hi, hi, bit);
            hi_or = _mm512_mask_or_epi32(hi_or, to_hi, hi_or, bit);
        }
        valid &= _mm512_cmpeq_epi32_mask(lo, lo_or) & _mm512_cmpeq_epi32_mask(hi, hi_or);
        if (job->check && valid != 0xFFFF)
            return r + (size_t)__builtin_ctz((unsigned)(uint16_t)~valid);
        __m512i bucket = _mm512_srli_epi32(id, 32 - SE_BUCKET_BITS);
        __m512i disp = _mm512_i32gather_epi32(bucket, (const void *)se_hash_disp, 4);
        __m512i slot = _mm512_and_si512(_mm512_xor_si512(id, disp),
                                        _mm512_set1_epi32((int)(SE_HASH_SLOTS - 1u)));
        __m512i hilo = _mm512_i32gather_epi32(slot, (const void *)se_hilo_table, 4);
        if (want & SE_RANK_HIGH) {
            __m512i high = _mm512_and_si512(hilo, _mm512_set1_epi32(0xFFFF));
            __m512i flush_bits = _mm512_and_si512(suits, _mm512_set1_epi32((int)SE_FLUSH_BITS));
            __mmask16 flush = _mm512_test_epi32_mask(flush_bits, flush_bits);
            if (flush) {
                /* The lowest flush suit, as the scalar loop picks it. */
                __m512i ranks0 = _mm512_and_si512(lo, _mm512_set1_epi32(0x1FFF));
                __m512i ranks1 = _mm512_and_si512(_mm512_srli_epi32(lo, 16),
                                                  _mm512_set1_epi32(0x1FFF));
                __m512i ranks2 = _mm512_and_si512(hi, _mm512_set1_epi32(0x1FFF));
                __m512i ranks3 = _mm512_and_si512(_mm512_srli_epi32(hi, 16),
                                                  _mm512_set1_epi32(0x1FFF));
                __mmask16 f0 = _mm512_test_epi32_mask(flush_bits, _mm512_set1_epi32(0x8));
                __mmask16 f1 = _mm512_test_epi32_mask(flush_bits, _mm512_set1_epi32(0x80));
                __mmask16 f2 = _mm512_test_epi32_mask(flush_bits, _mm512_set1_epi32(0x800));
                __m512i index = _mm512_mask_blend_epi32(f2, ranks3, ranks2);
                index = _mm512_mask_blend_epi32(f1, index, ranks1);
                index = _mm512_mask_blend_epi32(f0, index, ranks0);
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

#define SE_CASE_K512(K, WANT, COLUMNS)                          \
    case K:                                                     \
        return se_avx512_rows(job, begin, end, K, (WANT), (COLUMNS));
#define SE_CASE_WANT512(WANT, COLUMNS)                          \
    case WANT:                                                  \
        switch (job->k) {                                       \
            SE_CASE_K512(5, WANT, COLUMNS)                      \
            SE_CASE_K512(6, WANT, COLUMNS)                      \
            SE_CASE_K512(7, WANT, COLUMNS)                      \
        }                                                       \
        break;
#define SE_DISPATCH512(COLUMNS)                                 \
    switch (want) {                                             \
        SE_CASE_WANT512(1, COLUMNS)                             \
        SE_CASE_WANT512(2, COLUMNS)                             \
        SE_CASE_WANT512(3, COLUMNS)                             \
        SE_CASE_WANT512(4, COLUMNS)                             \
        SE_CASE_WANT512(5, COLUMNS)                             \
        SE_CASE_WANT512(6, COLUMNS)                             \
        SE_CASE_WANT512(7, COLUMNS)                             \
    }                                                           \
    return SE_NO_ROW;

SE_AVX512 static size_t se_rank_block_avx512(const se_job *job, size_t begin, size_t end,
                                             int want) {
    if (job->row_stride != (size_t)job->k) return se_rank_block_popcnt(job, begin, end, want);
    SE_DISPATCH512(0)
}

/* Column-strided rows: the AVX-512 kernel reads a column's 16 bytes at once when
 * the rows are 1 byte apart (a column-major array, as pandas hands over), else
 * the portable strided loop. */
SE_AVX512 static size_t se_rank_block_avx512_strided(const se_job *job, size_t begin,
                                                     size_t end, int want) {
    if (job->row_stride != 1) return se_rank_block_strided(job, begin, end, want);
    SE_DISPATCH512(1)
}

static int se_cpu_has_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
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

/* The loop for this CPU, chosen once per process (racing first calls wait for
 * the one that chooses, so no thread ever reads a half-written pointer). */
static se_block_fn se_chosen_kernel = NULL;
static se_block_fn se_chosen_strided = NULL;
static se_once_flag se_kernel_once = SE_ONCE_INIT;

static const char *se_chosen_name = "scalar";

/* STUDEVAL_KERNEL=scalar keeps the scalar loop even where AVX-512 is there (for
 * tests and benchmarks); avx512 or auto (the default) takes the AVX-512 kernel
 * when the CPU has it. */
static void se_choose_kernel(void) {
    se_block_fn fn = se_rank_block_generic, strided = se_rank_block_strided;
    const char *asked = getenv("STUDEVAL_KERNEL");
    int scalar_only = asked != NULL && strcmp(asked, "scalar") == 0;
#if defined(SE_X86_GNU) || defined(SE_X86_MSVC)
    if (se_cpu_has_popcnt()) {
        fn = se_rank_block_popcnt;
    }
#else
    (void)se_cpu_has_popcnt;
#endif
#if defined(SE_X86_GNU)
    if (!scalar_only && se_cpu_has_popcnt() && se_cpu_has_avx512()) {
        se_avx512_tables();
        fn = se_rank_block_avx512;
        strided = se_rank_block_avx512_strided;
        se_chosen_name = "avx512";
    }
#endif
    (void)scalar_only;
    se_chosen_kernel = fn;
    se_chosen_strided = strided;
}

const char *se_batch_kernel(void) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen_name;
}

static se_block_fn se_block_kernel(int strided) {
    se_once(&se_kernel_once, se_choose_kernel);
    return strided ? se_chosen_strided : se_chosen_kernel;
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
    job.kernel = se_block_kernel(0);
    job.strided_kernel = se_block_kernel(1);
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
