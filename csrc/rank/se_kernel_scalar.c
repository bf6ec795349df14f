/* The scalar kernels: the portable rows loop of se_batch.h instantiated for each
 * (outputs wanted, k), adjacent or column-strided, and with POPCNT where the CPU has
 * it. Every other kernel falls back on these for rows they do not take. */
#include "rank/se_batch.h"

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

size_t se_rank_block_generic(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH(0)
}

/* Column-strided rows (rare: Fortran-order arrays, Dask partitions) take one
 * portable loop; gathering the bytes costs more than the POPCNT choice saves. */
size_t se_rank_block_strided(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH_S(0, 1)
}

#if defined(SE_X86_GNU)
__attribute__((target("popcnt"))) size_t se_rank_block_popcnt(const se_job *job, size_t begin,
                                                              size_t end, int want) {
    SE_DISPATCH(1)
}
#elif defined(SE_X86_MSVC)
size_t se_rank_block_popcnt(const se_job *job, size_t begin, size_t end, int want) {
    SE_DISPATCH(1)
}
#endif
