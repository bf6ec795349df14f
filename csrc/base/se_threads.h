/* The thread service of the core (internal): a fork/join parallel loop over
 * POSIX threads or Win32, and a run-once initialiser.
 *
 * Work is cut into chunks that the workers take in order from one shared
 * counter, so a core that is slowed down (a busy neighbour, a slower core type)
 * simply takes fewer chunks instead of holding everyone up, and the first chunk
 * that reports a stop is still preceded only by chunks that were taken. Callers
 * choose the chunk size and the least work that pays for starting a thread. */
#ifndef SE_THREADS_H
#define SE_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "studeval.h" /* SE_MAX_THREADS, the one definition of the thread cap */

/* One chunk of work: items [begin, end), on worker `worker` (0 .. workers-1,
 * worker 0 being the calling thread). Return 0 to go on, nonzero to stop every
 * worker from taking further chunks (chunks already taken still finish). */
typedef int (*se_chunk_fn)(void *context, size_t begin, size_t end, int worker);

/* Runs fn over items [0, n_items) in chunks of `chunk` items, on up to
 * `threads` workers (0 or less: every core; capped at SE_MAX_THREADS), and never
 * on more workers than n_items / min_items_per_worker (at least one). Returns
 * the number of workers that took part. When a thread cannot be started, its
 * share is done by the threads that did start, so the work is always complete. */
int se_parallel_for(size_t n_items, size_t chunk, size_t min_items_per_worker, int threads,
                    se_chunk_fn fn, void *context);

/* How many workers se_parallel_for would use; the same rule, without running. */
int se_workers_for(size_t n_items, size_t min_items_per_worker, int threads);

/* A team: worker threads kept between parallel loops, for a caller that runs many
 * short loops (a step of many tables takes a few hundred microseconds, about what
 * starting a thread and waking its core cost). Between loops a worker spins a
 * little while (SE_TEAM_SPIN_NS), then sleeps until the next loop. One caller at a
 * time per team; in a child process after fork the loop runs on the caller alone. */
typedef struct se_team se_team;
#define SE_TEAM_SPIN_NS 2000000 /* 2 ms: longer than a step's Python between loops */

/* A team of `threads` workers, the caller included (capped at SE_MAX_THREADS);
 * NULL when no thread could be started or threads < 2 (se_team_for then runs
 * alone). */
se_team *se_team_new(int threads);
/* The team's workers, the caller included (1 for NULL). */
int se_team_size(const se_team *team);
/* se_parallel_for on the team's workers: the same chunks, the same stop rule.
 * Returns the workers that took part. */
int se_team_for(se_team *team, size_t n_items, size_t chunk, se_chunk_fn fn, void *context);
/* Stops and joins the workers; NULL is fine. */
void se_team_free(se_team *team);

/* A monotonic clock in nanoseconds (for short timings: a team's spin, the batch
 * kernels' calibration). */
uint64_t se_clock_ns(void);

/* Relaxed atomic operations on a shared counter or flag. */
size_t se_fetch_add(volatile size_t *target, size_t value);
size_t se_load(volatile size_t *source);
void se_store(volatile size_t *target, size_t value);

/* Calls init exactly once per process, however many threads race to it; every
 * caller returns after it has finished. Declare the flag as
 * `static se_once_flag flag = SE_ONCE_INIT;`. */
#if defined(_WIN32)
typedef struct se_once_flag {
    void *ptr; /* laid out as Win32's INIT_ONCE, a union of one pointer */
} se_once_flag;
#define SE_ONCE_INIT {0}
#else
#include <pthread.h>
typedef pthread_once_t se_once_flag;
#define SE_ONCE_INIT PTHREAD_ONCE_INIT
#endif
void se_once(se_once_flag *flag, void (*init)(void));

#endif
