/* Batch ranking: the hot loop and its CPU dispatch; the threads are se_threads.c's. */
#include "studeval.h"

#include "se_hand.h"
#include "se_threads.h"

#include <stddef.h>

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
    se_block_fn kernel;
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
 * invalid row when checking, else SE_NO_ROW. */
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
static se_once_flag se_kernel_once = SE_ONCE_INIT;

static void se_choose_kernel(void) {
    se_block_fn fn = se_rank_block_generic;
#if defined(SE_X86_GNU) || defined(SE_X86_MSVC)
    if (se_cpu_has_popcnt()) {
        fn = se_rank_block_popcnt;
    }
#else
    (void)se_cpu_has_popcnt;
#endif
    se_chosen_kernel = fn;
}

static se_block_fn se_block_kernel(void) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen_kernel;
}

static int se_want(const se_job *job) {
    return (job->high ? SE_RANK_HIGH : 0) | (job->low ? SE_RANK_LOW : 0) |
           (job->low8 ? SE_RANK_LOW8 : 0);
}

static int se_batch_chunk(void *context, size_t begin, size_t end, int worker) {
    se_job *job = (se_job *)context;
    size_t bad = job->col_stride == 1 ? job->kernel(job, begin, end, job->want)
                                      : se_rank_block_strided(job, begin, end, job->want);
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
    job.kernel = se_block_kernel();
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
