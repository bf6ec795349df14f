/* Which batch kernel runs: the kernels this CPU has, timed against each other at the
 * first batch (or named by STUDEVAL_KERNEL), and the explanation of the choice. The
 * kernels are se_kernel_scalar.c's and se_kernel_x86.c's; se_batch.c asks here. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime of the thread's CPU time */
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE /* which _POSIX_C_SOURCE would hide things from */
#endif
#include "rank/se_batch.h"

#include "base/se_threads.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(SE_X86_GNU)
#include <cpuid.h>
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
 * The kernels this CPU runs, and the one each kind of call takes: chosen once per
 * process (racing first calls wait for the one that chooses, so no thread ever reads
 * a half-written pointer). By default ("auto") they are timed against each other at
 * the first batch: the same instructions run at very different speeds on different
 * CPUs (AVX-512 gathers and permutes on AMD Zen 4 against Intel, say; and the vector
 * kernels' 512 KiB table against the scalar loop's 256 KiB one on a 512 KiB L2), so
 * the choice is what runs faster here, not what the CPU claims. The timing imitates
 * a long batch: 16,384 random hands (enough to touch nearly every line of the tables
 * a kernel reads), each timed pass right after an untimed pass over the same hands
 * (so every kernel meets its tables in cache, as in steady state, whatever the kernel
 * before it evicted), in the thread's CPU time (a busy neighbour's time slices do not
 * count), kernels in turn round after round, the best of 5 rounds each. Calls for the
 * high rank alone and calls with a low are timed apart. About 2-5 ms of CPU, once.
 * A vector kernel is taken only when it beats the scalar loop by 20%, the fastest
 * such: under a busy neighbour the scalar loop can time up to 1.9x slower for a whole
 * process where the vector kernels slow by 1.3-1.5x (seen on an AMD Zen 4 VM, both
 * vCPUs busy), which made AVX2 look 15-21% faster than the scalar loop where unloaded
 * it is 15% slower (and 45% slower on a Zen 3); a kernel worth taking wins by more
 * (AVX-512 by 1.4-2.3x), and what the margin gives up is under 20%.
 * avx512_loads is taken over avx512 only when 30% faster: on hands in cache (the
 * sample, batches of up to a few 100,000 hands) it ran 14-20% ahead of the gathers on
 * that Zen 4, on batches of a million hands from main memory 12-16% behind; a CPU
 * whose gathers are slow (what the kernel is for) should show it by more.
 * STUDEVAL_KERNEL=scalar, avx2, avx512 or avx512_loads takes that kernel where the CPU
 * has it (for tests and benchmarks), else the scalar loop; STUDEVAL_KERNELS=scalar,avx2
 * (names by commas or spaces) keeps only those among the kernels this CPU runs (the
 * scalar loop always), to imitate a CPU with fewer. */

enum { SE_FOR_HIGH = 0, SE_FOR_LOWS = 1 }; /* the high rank alone; any low */
#define SE_SAMPLE_ROWS 16384
#define SE_SAMPLE_ROUNDS 5
#define SE_SAMPLE_MARGIN 0.20 /* a vector kernel must be this much faster than scalar */
#define SE_LOADS_MARGIN 0.30  /* and avx512_loads this much faster than avx512 */

static se_kernel se_kernels[4];
static int se_kernel_count = 0;
static const se_kernel *se_chosen[2];
static char se_chosen_name[48];
static char se_chosen_why[768];
static char se_kernel_names[64]; /* the kernels this CPU runs, by spaces */
static se_once_flag se_kernel_once = SE_ONCE_INIT;

/* The calling thread's CPU time where the system tells it, else the monotonic clock;
 * *cpu says which. */
static uint64_t se_timing_ns(int *cpu) {
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(_WIN32)
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0) {
        *cpu = 1;
        return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    }
#endif
    *cpu = 0;
    return se_clock_ns();
}

/* Nanoseconds a hand of `kernel` over the sample, for `want`: one untimed pass to
 * bring its tables into cache, then one timed pass. */
static double se_time_kernel(const se_kernel *kernel, const uint8_t *sample, uint16_t *out,
                             int want, int *cpu) {
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
    (void)kernel->rows(&job, 0, SE_SAMPLE_ROWS, want);
    uint64_t start = se_timing_ns(cpu);
    (void)kernel->rows(&job, 0, SE_SAMPLE_ROWS, want);
    return (double)(se_timing_ns(cpu) - start) / SE_SAMPLE_ROWS;
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
            sample[(size_t)r * 7 + (size_t)i++] = (uint8_t)card;
        }
    }
}

/* Appends to the explanation, never past its end. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void se_why(size_t *used, const char *format, ...) {
    va_list args;
    if (*used >= sizeof se_chosen_why) return;
    va_start(args, format);
    int n = vsnprintf(se_chosen_why + *used, sizeof se_chosen_why - *used, format, args);
    va_end(args);
    if (n > 0) *used += (size_t)n;
}

/* Times every kernel for both kinds of call and takes the fastest of each that beats
 * the scalar loop by the margin (and avx512_loads only where it beats avx512 by its). */
static void se_calibrate(const char *kept) {
    static const int wants[2] = {SE_RANK_HIGH, SE_RANK_HIGH | SE_RANK_LOW | SE_RANK_LOW8};
    static const char *const kinds[2] = {" high: ", "; all three: "};
    uint8_t *sample = (uint8_t *)malloc((size_t)SE_SAMPLE_ROWS * 7);
    uint16_t *out = (uint16_t *)malloc((size_t)SE_SAMPLE_ROWS * 3 * sizeof(uint16_t));
    double best[4][2];
    int cpu = 0;
    if (sample == NULL || out == NULL) {
        free(sample);
        free(out);
        se_chosen[SE_FOR_HIGH] = se_chosen[SE_FOR_LOWS] = &se_kernels[0];
        snprintf(se_chosen_why, sizeof se_chosen_why,
                 "auto: no memory for the timing sample, the scalar loop");
        return;
    }
    uint64_t began = se_clock_ns();
    se_sample_hands(sample);
    for (int c = 0; c < se_kernel_count; c++) best[c][0] = best[c][1] = 1e30;
    for (int w = 0; w < 2; w++)
        for (int round = 0; round < SE_SAMPLE_ROUNDS; round++)
            for (int c = 0; c < se_kernel_count; c++) {
                double ns = se_time_kernel(&se_kernels[c], sample, out, wants[w], &cpu);
                if (ns < best[c][w]) best[c][w] = ns;
            }
    double took_ms = (double)(se_clock_ns() - began) * 1e-6;
    free(sample);
    free(out);
    size_t used = 0;
    se_why(&used, "auto%s (timed at the first batch in %.1f ms: %d random 7-card hands, each "
                  "kernel ranks them once to warm its tables then once timed (%s), kernels in "
                  "turn, best of %d rounds; the fastest vector kernel %.0f%% faster than "
                  "scalar is taken, avx512_loads over avx512 only if %.0f%% faster; ns a "
                  "hand):",
           kept, took_ms, SE_SAMPLE_ROWS, cpu ? "thread CPU time" : "wall time",
           SE_SAMPLE_ROUNDS, SE_SAMPLE_MARGIN * 100, SE_LOADS_MARGIN * 100);
    for (int w = 0; w < 2; w++) {
        int pick = 0, gathers = -1; /* the scalar loop, unless a vector kernel beats it */
        for (int c = 1; c < se_kernel_count; c++) {
            if (!(best[c][w] < (1.0 - SE_SAMPLE_MARGIN) * best[0][w])) continue;
            if (strcmp(se_kernels[c].name, "avx512") == 0) gathers = c;
            if (best[c][w] < best[pick][w]) pick = c;
        }
        /* The loads over the gathers only by their own margin (see above). */
        if (gathers >= 0 && strcmp(se_kernels[pick].name, "avx512_loads") == 0 &&
            !(best[pick][w] < (1.0 - SE_LOADS_MARGIN) * best[gathers][w]))
            pick = gathers;
        se_chosen[w] = &se_kernels[pick];
        for (int c = 0; c < se_kernel_count; c++)
            se_why(&used, "%s%s %.2f", c == 0 ? kinds[w] : ", ", se_kernels[c].name, best[c][w]);
        se_why(&used, " -> %s", se_chosen[w]->name);
    }
}

/* Whether STUDEVAL_KERNELS (names by commas or spaces) keeps the kernel; unset or
 * empty keeps every one. */
static int se_kernel_kept(const char *kept, const char *name) {
    if (kept == NULL || *kept == '\0') return 1;
    size_t length = strlen(name);
    for (const char *at = kept; *at != '\0';) {
        size_t n = strcspn(at, ", ");
        if (n == length && strncmp(at, name, n) == 0) return 1;
        at += n;
        at += strspn(at, ", ");
    }
    return 0;
}

static void se_choose_kernel(void) {
    const char *kept = getenv("STUDEVAL_KERNELS");
    char kept_text[72] = "";
    se_kernel scalar = {"scalar", se_rank_block_generic, se_rank_block_strided};
#if defined(SE_X86_GNU) || defined(SE_X86_MSVC)
    if (se_cpu_has_popcnt()) scalar.rows = se_rank_block_popcnt;
#else
    (void)se_cpu_has_popcnt;
#endif
    se_kernels[se_kernel_count++] = scalar;
#if defined(SE_X86_GNU)
    int avx2 = se_cpu_has_popcnt() && se_cpu_has_avx2() && se_kernel_kept(kept, "avx2");
    int avx512 = se_cpu_has_popcnt() && se_cpu_has_avx512();
    int avx512_gathers = avx512 && se_kernel_kept(kept, "avx512");
    int avx512_loads = avx512 && se_kernel_kept(kept, "avx512_loads");
    if (avx2 || avx512_gathers || avx512_loads) se_simd_tables();
    if (avx2) {
        se_kernel kernel = {"avx2", se_rank_block_avx2, se_rank_block_avx2_strided};
        se_kernels[se_kernel_count++] = kernel;
    }
    if (avx512_gathers) {
        se_kernel kernel = {"avx512", se_rank_block_avx512, se_rank_block_avx512_strided};
        se_kernels[se_kernel_count++] = kernel;
    }
    if (avx512_loads) {
        se_kernel kernel = {"avx512_loads", se_rank_block_avx512_loads,
                            se_rank_block_avx512_loads_strided};
        se_kernels[se_kernel_count++] = kernel;
    }
#else
    (void)se_kernel_kept; /* only x86 has vector kernels to leave out */
#endif
    for (int c = 0, used = 0; c < se_kernel_count; c++)
        used += snprintf(se_kernel_names + used, sizeof se_kernel_names - (size_t)used, "%s%s",
                         c ? " " : "", se_kernels[c].name);
    if (kept != NULL && *kept != '\0')
        snprintf(kept_text, sizeof kept_text, " among STUDEVAL_KERNELS=%.40s", kept);
    const char *asked = getenv("STUDEVAL_KERNEL");
    if (asked != NULL && *asked != '\0' && strcmp(asked, "auto") != 0) {
        const se_kernel *pick = &se_kernels[0];
        for (int c = 0; c < se_kernel_count; c++)
            if (strcmp(asked, se_kernels[c].name) == 0) pick = &se_kernels[c];
        se_chosen[SE_FOR_HIGH] = se_chosen[SE_FOR_LOWS] = pick;
        if (strcmp(asked, pick->name) == 0)
            snprintf(se_chosen_why, sizeof se_chosen_why, "STUDEVAL_KERNEL=%.40s", asked);
        else
            snprintf(se_chosen_why, sizeof se_chosen_why,
                     "STUDEVAL_KERNEL=%.40s: not one of the kernels run here (%s), the scalar "
                     "loop", asked, se_kernel_names);
    } else if (se_kernel_count == 1) {
        se_chosen[SE_FOR_HIGH] = se_chosen[SE_FOR_LOWS] = &se_kernels[0];
        snprintf(se_chosen_why, sizeof se_chosen_why, "auto%s: %s", kept_text,
                 kept_text[0] ? "the scalar loop alone is kept"
                              : "this CPU has neither AVX2 nor AVX-512 F/BW/VBMI/BITALG");
    } else {
        se_calibrate(kept_text);
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

const se_kernel *se_kernel_for(int want) {
    se_once(&se_kernel_once, se_choose_kernel);
    return se_chosen[want == SE_RANK_HIGH ? SE_FOR_HIGH : SE_FOR_LOWS];
}
