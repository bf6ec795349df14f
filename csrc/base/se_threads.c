/* The only file that knows about the platform's threads (see se_threads.h). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime, for a team's spin */
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE /* _SC_NPROCESSORS_ONLN, which _POSIX_C_SOURCE hides there */
#endif
#include "base/se_threads.h"

#include "studeval.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct se_loop {
    se_chunk_fn fn;
    void *context;
    size_t n_items;
    size_t chunk;
    volatile size_t next; /* the first item no worker has taken yet */
    volatile size_t stop; /* nonzero once a chunk asked everyone to stop */
} se_loop;

/* What a started thread runs, at the start of its argument's struct: one entry
 * point per platform serves a loop's workers and a team's members alike. */
typedef struct se_runner {
    void (*run)(struct se_runner *self);
} se_runner;

typedef struct se_worker_arg {
    se_runner runner; /* first: the thread's argument is this struct */
    se_loop *loop;
    int worker;
} se_worker_arg;

/* Worker threads this process has started, for diagnostics and tests. */
static volatile size_t se_started = 0;
/* se_rank_batch's least rows per thread; see se_set_batch_min_rows_per_thread. */
static volatile size_t se_min_rows = 65536;

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

/* The Interlocked functions are full barriers: acquire and release both. */
static size_t se_load_acquire(volatile size_t *source) { return se_fetch_add(source, 0); }
static void se_store_release(volatile size_t *target, size_t value) { se_store(target, value); }
static size_t se_add_release(volatile size_t *target, size_t value) {
    return se_fetch_add(target, value);
}
#define SE_RELAX() YieldProcessor()

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

/* A team's hand-overs: what the caller wrote before starting a loop, and a worker
 * before finishing it, is seen by the other side. */
static size_t se_load_acquire(volatile size_t *source) {
    return __atomic_load_n(source, __ATOMIC_ACQUIRE);
}
static void se_store_release(volatile size_t *target, size_t value) {
    __atomic_store_n(target, value, __ATOMIC_RELEASE);
}
static size_t se_add_release(volatile size_t *target, size_t value) {
    return __atomic_fetch_add(target, value, __ATOMIC_RELEASE);
}
#if defined(__x86_64__) || defined(__i386__)
#define SE_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__) || defined(__arm__)
#define SE_RELAX() __asm__ __volatile__("yield")
#else
#define SE_RELAX() ((void)0)
#endif
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

static void se_worker_run(se_runner *runner) {
    se_worker_arg *arg = (se_worker_arg *)runner;
    se_work(arg->loop, arg->worker);
}

#if defined(_WIN32)
typedef HANDLE se_thread;
static DWORD WINAPI se_thread_main(LPVOID raw) {
    ((se_runner *)raw)->run((se_runner *)raw);
    return 0;
}
static int se_thread_start(se_thread *thread, se_runner *runner) {
    *thread = CreateThread(NULL, 0, se_thread_main, runner, 0, NULL);
    return *thread != NULL;
}
static void se_thread_join(se_thread thread) {
    WaitForSingleObject(thread, INFINITE);
    CloseHandle(thread);
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

#else
typedef pthread_t se_thread;
static void *se_thread_main(void *raw) {
    ((se_runner *)raw)->run((se_runner *)raw);
    return NULL;
}
static int se_thread_start(se_thread *thread, se_runner *runner) {
    return pthread_create(thread, NULL, se_thread_main, runner) == 0;
}
static void se_thread_join(se_thread thread) { pthread_join(thread, NULL); }

static int se_cpu_count_now(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n < SE_MAX_THREADS ? n : SE_MAX_THREADS) : 1;
}

void se_once(se_once_flag *flag, void (*init)(void)) {
    (void)pthread_once(flag, init);
}
#endif

static int se_start_and_join(se_loop *loop, int workers) {
    se_thread threads[SE_MAX_THREADS];
    int started[SE_MAX_THREADS];
    se_worker_arg args[SE_MAX_THREADS];
    int joined = 1;
    for (int i = 1; i < workers; i++) {
        args[i].runner.run = se_worker_run;
        args[i].loop = loop;
        args[i].worker = i;
        started[i] = se_thread_start(&threads[i], &args[i].runner);
        if (started[i]) (void)se_fetch_add(&se_started, 1);
    }
    se_work(loop, 0);
    for (int i = 1; i < workers; i++) {
        if (started[i]) {
            se_thread_join(threads[i]);
            joined++;
        }
    }
    return joined;
}

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

static void se_loop_init(se_loop *loop, size_t n_items, size_t chunk, se_chunk_fn fn,
                         void *context) {
    loop->fn = fn;
    loop->context = context;
    loop->n_items = n_items;
    loop->chunk = chunk > 0 ? chunk : 1;
    loop->next = 0;
    loop->stop = 0;
}

int se_parallel_for(size_t n_items, size_t chunk, size_t min_items_per_worker, int threads,
                    se_chunk_fn fn, void *context) {
    se_loop loop;
    int workers = se_workers_for(n_items, min_items_per_worker, threads);
    se_loop_init(&loop, n_items, chunk, fn, context);
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

/* ---- teams ---------------------------------------------------------------------------- */

#if defined(_WIN32)
typedef CRITICAL_SECTION se_mutex;
typedef CONDITION_VARIABLE se_cond;
static void se_mutex_init(se_mutex *m) { InitializeCriticalSection(m); }
static void se_mutex_lock(se_mutex *m) { EnterCriticalSection(m); }
static void se_mutex_unlock(se_mutex *m) { LeaveCriticalSection(m); }
static void se_mutex_destroy(se_mutex *m) { DeleteCriticalSection(m); }
static void se_cond_init(se_cond *c) { InitializeConditionVariable(c); }
static void se_cond_wait(se_cond *c, se_mutex *m) { SleepConditionVariableCS(c, m, INFINITE); }
static void se_cond_broadcast(se_cond *c) { WakeAllConditionVariable(c); }
static void se_cond_destroy(se_cond *c) { (void)c; }
static unsigned long se_process_id(void) { return (unsigned long)GetCurrentProcessId(); }
uint64_t se_clock_ns(void) {
    LARGE_INTEGER now, frequency;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&frequency);
    return (uint64_t)((double)now.QuadPart * 1e9 / (double)frequency.QuadPart);
}
#else
#include <time.h>
typedef pthread_mutex_t se_mutex;
typedef pthread_cond_t se_cond;
static void se_mutex_init(se_mutex *m) { pthread_mutex_init(m, NULL); }
static void se_mutex_lock(se_mutex *m) { pthread_mutex_lock(m); }
static void se_mutex_unlock(se_mutex *m) { pthread_mutex_unlock(m); }
static void se_mutex_destroy(se_mutex *m) { pthread_mutex_destroy(m); }
static void se_cond_init(se_cond *c) { pthread_cond_init(c, NULL); }
static void se_cond_wait(se_cond *c, se_mutex *m) { pthread_cond_wait(c, m); }
static void se_cond_broadcast(se_cond *c) { pthread_cond_broadcast(c); }
static void se_cond_destroy(se_cond *c) { pthread_cond_destroy(c); }
static unsigned long se_process_id(void) { return (unsigned long)getpid(); }
uint64_t se_clock_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
#endif

typedef struct se_member {
    se_runner runner; /* first: the thread's argument is this struct */
    se_team *team;
    int worker;
} se_member;

struct se_team {
    int started;                /* threads running, the caller not counted */
    unsigned long process;      /* the process that started them (a fork's child has none) */
    se_thread threads[SE_MAX_THREADS];
    se_member members[SE_MAX_THREADS];
    se_mutex lock;              /* guards sleepers, and generation's change for them */
    se_cond wake;
    int sleepers;
    se_loop *loop;              /* the loop of the current generation */
    volatile size_t generation; /* loops begun; a worker runs each new one */
    volatile size_t finished;   /* workers done with the current loop */
    volatile size_t quit;
};

/* Waits for a generation after `seen` (or quit): spinning first, then asleep. */
static size_t se_member_wait(se_team *team, size_t seen) {
    uint64_t deadline = 0;
    for (unsigned spins = 0;; spins++) {
        size_t now = se_load_acquire(&team->generation);
        if (now != seen || se_load_acquire(&team->quit)) return now;
        if ((spins & 255) == 255) { /* the clock, read now and then */
            uint64_t time = se_clock_ns();
            if (deadline == 0) deadline = time + SE_TEAM_SPIN_NS;
            if (time > deadline) break;
        }
        SE_RELAX();
    }
    se_mutex_lock(&team->lock);
    team->sleepers++;
    size_t now;
    while ((now = se_load_acquire(&team->generation)) == seen && !se_load_acquire(&team->quit))
        se_cond_wait(&team->wake, &team->lock);
    team->sleepers--;
    se_mutex_unlock(&team->lock);
    return now;
}

static void se_member_run(se_runner *runner) {
    se_member *member = (se_member *)runner;
    se_team *team = member->team;
    size_t seen = 0;
    for (;;) {
        seen = se_member_wait(team, seen);
        if (se_load_acquire(&team->quit)) return;
        se_work(team->loop, member->worker);
        (void)se_add_release(&team->finished, 1);
    }
}

se_team *se_team_new(int threads) {
    if (threads > SE_MAX_THREADS) threads = SE_MAX_THREADS;
    if (threads < 2) return NULL;
    se_team *team = (se_team *)calloc(1, sizeof *team);
    if (team == NULL) return NULL;
    team->process = se_process_id();
    se_mutex_init(&team->lock);
    se_cond_init(&team->wake);
    for (int i = 1; i < threads; i++) {
        se_member *member = &team->members[team->started];
        member->runner.run = se_member_run;
        member->team = team;
        member->worker = team->started + 1;
        if (!se_thread_start(&team->threads[team->started], &member->runner)) break;
        team->started++;
        (void)se_fetch_add(&se_started, 1);
    }
    if (team->started == 0) {
        se_team_free(team);
        return NULL;
    }
    return team;
}

int se_team_size(const se_team *team) { return team != NULL ? team->started + 1 : 1; }

int se_team_for(se_team *team, size_t n_items, size_t chunk, se_chunk_fn fn, void *context) {
    se_loop loop;
    se_loop_init(&loop, n_items, chunk, fn, context);
    if (team == NULL || team->process != se_process_id()) {
        se_work(&loop, 0);
        return 1;
    }
    team->loop = &loop;
    se_store(&team->finished, 0);
    se_mutex_lock(&team->lock);
    se_store_release(&team->generation, team->generation + 1);
    if (team->sleepers > 0) se_cond_broadcast(&team->wake);
    se_mutex_unlock(&team->lock);
    se_work(&loop, 0);
    /* Every worker leaves the loop before the caller does: `loop` is on this stack. */
    while (se_load_acquire(&team->finished) < (size_t)team->started) SE_RELAX();
    return team->started + 1;
}

void se_team_free(se_team *team) {
    if (team == NULL) return;
    if (team->process == se_process_id()) { /* a fork's child has no threads to join */
        se_mutex_lock(&team->lock);
        se_store_release(&team->quit, 1);
        se_cond_broadcast(&team->wake);
        se_mutex_unlock(&team->lock);
        for (int i = 0; i < team->started; i++) se_thread_join(team->threads[i]);
        se_cond_destroy(&team->wake);
        se_mutex_destroy(&team->lock);
    }
    free(team);
}
