/* The only file that knows about the platform's threads (see se_threads.h). */
#include "se_threads.h"

#include "studeval.h"

#include <stdint.h>

typedef struct se_loop {
    se_chunk_fn fn;
    void *context;
    size_t n_items;
    size_t chunk;
    volatile size_t next; /* the first item no worker has taken yet */
    volatile size_t stop; /* nonzero once a chunk asked everyone to stop */
} se_loop;

typedef struct se_worker_arg {
    se_loop *loop;
    int worker;
} se_worker_arg;

/* Worker threads this process has started, for diagnostics and tests. */
static volatile size_t se_started = 0;
/* se_rank_batch's least rows per thread; see se_set_batch_min_rows_per_thread. */
static volatile size_t se_min_rows = 32768;

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

size_t se_fetch_add(volatile size_t *target, size_t value) {
#if defined(_WIN64)
    return (size_t)InterlockedExchangeAdd64((volatile LONG64 *)target, (LONG64)value);
#else
    return (size_t)InterlockedExchangeAdd((volatile LONG *)target, (LONG)value);
#endif
}

size_t se_load(volatile size_t *source) {
    return se_fetch_add(source, 0);
}

void se_store(volatile size_t *target, size_t value) {
#if defined(_WIN64)
    InterlockedExchange64((volatile LONG64 *)target, (LONG64)value);
#else
    InterlockedExchange((volatile LONG *)target, (LONG)value);
#endif
}

#else
#include <pthread.h>
#include <unistd.h>

size_t se_fetch_add(volatile size_t *target, size_t value) {
    return __atomic_fetch_add(target, value, __ATOMIC_RELAXED);
}

size_t se_load(volatile size_t *source) {
    return __atomic_load_n(source, __ATOMIC_RELAXED);
}

void se_store(volatile size_t *target, size_t value) {
    __atomic_store_n(target, value, __ATOMIC_RELAXED);
}
#endif

static void se_work(se_loop *loop, int worker) {
    while (!se_load(&loop->stop)) {
        size_t begin = se_fetch_add(&loop->next, loop->chunk);
        if (begin >= loop->n_items) {
            break;
        }
        size_t end = loop->n_items - begin < loop->chunk ? loop->n_items : begin + loop->chunk;
        if (loop->fn(loop->context, begin, end, worker) != 0) {
            /* Chunks are taken in order, so every item before this chunk is
             * already in some worker's hands; nobody needs to start another. */
            se_store(&loop->stop, 1);
            break;
        }
    }
}

#if defined(_WIN32)
static DWORD WINAPI se_thread_main(LPVOID raw) {
    se_worker_arg *arg = (se_worker_arg *)raw;
    se_work(arg->loop, arg->worker);
    return 0;
}

static int se_cpu_count_now(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (int)n : 1;
}

static BOOL CALLBACK se_once_trampoline(PINIT_ONCE once, PVOID init, PVOID *unused) {
    (void)once;
    (void)unused;
    ((void (*)(void))init)();
    return TRUE;
}

void se_once(se_once_flag *flag, void (*init)(void)) {
    InitOnceExecuteOnce((PINIT_ONCE)flag, se_once_trampoline, (PVOID)init, NULL);
}

static int se_start_and_join(se_loop *loop, int workers) {
    HANDLE handles[SE_MAX_THREADS];
    se_worker_arg args[SE_MAX_THREADS];
    int joined = 1;
    for (int i = 1; i < workers; i++) {
        args[i].loop = loop;
        args[i].worker = i;
        handles[i] = CreateThread(NULL, 0, se_thread_main, &args[i], 0, NULL);
        if (handles[i] != NULL) {
            (void)se_fetch_add(&se_started, 1);
        }
    }
    se_work(loop, 0);
    for (int i = 1; i < workers; i++) {
        if (handles[i] != NULL) {
            WaitForSingleObject(handles[i], INFINITE);
            CloseHandle(handles[i]);
            joined++;
        }
    }
    return joined;
}

#else
static void *se_thread_main(void *raw) {
    se_worker_arg *arg = (se_worker_arg *)raw;
    se_work(arg->loop, arg->worker);
    return NULL;
}

static int se_cpu_count_now(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n < SE_MAX_THREADS ? n : SE_MAX_THREADS) : 1;
}

void se_once(se_once_flag *flag, void (*init)(void)) {
    (void)pthread_once(flag, init);
}

static int se_start_and_join(se_loop *loop, int workers) {
    pthread_t threads[SE_MAX_THREADS];
    int started[SE_MAX_THREADS];
    se_worker_arg args[SE_MAX_THREADS];
    int joined = 1;
    for (int i = 1; i < workers; i++) {
        args[i].loop = loop;
        args[i].worker = i;
        started[i] = pthread_create(&threads[i], NULL, se_thread_main, &args[i]) == 0;
        if (started[i]) {
            (void)se_fetch_add(&se_started, 1);
        }
    }
    se_work(loop, 0);
    for (int i = 1; i < workers; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
            joined++;
        }
    }
    return joined;
}
#endif

/* The processor count, asked of the system once: sysconf opens a /sys file on
 * every call, which cost a small batch more than ranking it. */
static int se_cpus = 1;
static se_once_flag se_cpus_once = SE_ONCE_INIT;

static void se_count_cpus(void) {
    se_cpus = se_cpu_count_now();
}

int se_cpu_count(void) {
    se_once(&se_cpus_once, se_count_cpus);
    return se_cpus;
}

int se_workers_for(size_t n_items, size_t min_items_per_worker, int threads) {
    if (threads <= 0) {
        threads = se_cpu_count();
    }
    if (threads > SE_MAX_THREADS) {
        threads = SE_MAX_THREADS;
    }
    size_t useful = min_items_per_worker > 0 ? n_items / min_items_per_worker : n_items;
    if ((size_t)threads > useful) {
        threads = useful > 0 ? (int)useful : 1;
    }
    return threads;
}

int se_parallel_for(size_t n_items, size_t chunk, size_t min_items_per_worker, int threads,
                    se_chunk_fn fn, void *context) {
    se_loop loop;
    int workers = se_workers_for(n_items, min_items_per_worker, threads);
    loop.fn = fn;
    loop.context = context;
    loop.n_items = n_items;
    loop.chunk = chunk > 0 ? chunk : 1;
    loop.next = 0;
    loop.stop = 0;
    if (workers == 1) {
        se_work(&loop, 0);
        return 1;
    }
    return se_start_and_join(&loop, workers);
}

size_t se_threads_started(void) {
    return se_load(&se_started);
}

void se_set_batch_min_rows_per_thread(size_t rows) {
    se_store(&se_min_rows, rows > 0 ? rows : 1);
}

size_t se_batch_min_rows_per_thread(void) {
    return se_load(&se_min_rows);
}
