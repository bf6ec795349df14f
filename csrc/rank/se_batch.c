/* Batch ranking's entry points: a job checked, its kernel asked of se_kernel_choice.c,
 * its rows spread over the threads of se_threads.c. */
#include "rank/se_batch.h"

#include "base/se_threads.h"

/* Threads take rows in chunks of this size (tens of microseconds of work). */
#define SE_CHUNK_ROWS 8192

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
