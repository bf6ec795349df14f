# Declarations of the C core's public API (csrc/include/studeval.h).
from libc.stdint cimport uint8_t, uint16_t


cdef extern from "studeval.h" nogil:
    int SE_HIGH_CLASSES
    int SE_LOW_CLASSES
    int SE_LOW8_CLASSES
    int SE_NO_LOW
    int SE_MAX_THREADS

    ctypedef enum se_status:
        SE_OK
        SE_BAD_SIZE
        SE_INVALID_CARD
        SE_DUPLICATE_CARD
        SE_BAD_ARGUMENT
        SE_INVALID_ROW

    int se_high_rank(const uint8_t *cards, int n)
    int se_low_rank(const uint8_t *cards, int n)
    int se_low8_rank(const uint8_t *cards, int n)
    int se_up_high_rank(const uint8_t *cards, int n)
    int se_up_low_rank(const uint8_t *cards, int n)
    se_status se_rank_batch(const uint8_t *cards, size_t rows, size_t row_stride, int k,
                            uint16_t *high, uint16_t *low, uint16_t *low8, int threads,
                            int check, size_t *first_bad_row)
    int se_high_class(int rank, int ranks_out[5])
    int se_low_class(int rank, int ranks_out[5])
    int se_cpu_count()
    void se_set_batch_min_rows_per_thread(size_t rows)
    size_t se_batch_min_rows_per_thread()
    size_t se_threads_started()
    const char *se_status_text(int status)
