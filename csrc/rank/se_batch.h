/* The batch loop's shared parts (internal): a job, the scalar rows loop that every
 * kernel falls back on, and the kernels se_kernel_choice.c chooses among (the vector ones are
 * se_kernel_x86.c's). */
#ifndef SE_BATCH_H
#define SE_BATCH_H

#include "studeval.h"

#include "rank/se_hand.h"

#include <stddef.h>
#include <stdint.h>

#define SE_NO_ROW ((size_t)-1)

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SE_X86_GNU 1
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
        /* Seven cards read the seven-card tables (k is a constant: no branch). */
        uint32_t slot = k == 7 ? se_slot7(s.key) : se_slot(s.key);
        const int lows = want & (SE_RANK_LOW | SE_RANK_LOW8);
        uint16_t lo = 0;
        if (k == 7 && (want & SE_RANK_HIGH) && lows) {
            /* One entry for both: on a 512 KiB L2 (a Zen 3), reading the two
             * 16-bit tables cost 1.34x high alone and this 1.25x, both with 2**13
             * displacements (1.41x with 2**14, before either change). */
            high[r] = se_hilo7_of(s, slot, &lo);
        } else {
            if (want & SE_RANK_HIGH) {
                high[r] = se_high_in(s, k == 7 ? se_high7_table : se_high_table, slot);
            }
            if (lows) lo = (k == 7 ? se_low7_table : se_low_table)[slot];
        }
        if (want & SE_RANK_LOW) low[r] = lo;
        if (want & SE_RANK_LOW8) low8[r] = se_low8_of(lo);
    }
    return SE_NO_ROW;
}

/* The kernels: rows [begin, end) of a job, `want` the rankings asked for; each
 * returns the first invalid row when checking, else SE_NO_ROW. The scalar loop
 * (se_kernel_scalar.c), portable and for rows a column stride apart: */
size_t se_rank_block_generic(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_strided(const se_job *job, size_t begin, size_t end, int want);
#if defined(SE_X86_GNU) || defined(SE_X86_MSVC)
size_t se_rank_block_popcnt(const se_job *job, size_t begin, size_t end, int want);
#endif

#if defined(SE_X86_GNU)
/* The vector kernels (se_kernel_x86.c), and what they need of the CPU. */
void se_simd_tables(void);
int se_cpu_has_avx2(void);
int se_cpu_has_avx512(void);
size_t se_rank_block_avx2(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_avx2_strided(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_avx512(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_avx512_strided(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_avx512_loads(const se_job *job, size_t begin, size_t end, int want);
size_t se_rank_block_avx512_loads_strided(const se_job *job, size_t begin, size_t end,
                                          int want);
#endif

/* A kernel: its name and its two loops. se_kernel_choice.c says which one a call with
 * these outputs (SE_RANK_* bits) takes, choosing once per process. */
typedef struct se_kernel {
    const char *name;
    se_block_fn rows;    /* rows whose cards are adjacent (col_stride 1) */
    se_block_fn strided; /* rows whose cards are col_stride bytes apart */
} se_kernel;
const se_kernel *se_kernel_for(int want);

#endif /* SE_BATCH_H */
