/* The only file that knows about the platform's threads. */
#include "se_threads.h"

#include "studeval.h"

#include <stdlib.h>

#define SE_MAX_THREADS 256

typedef struct se_task {
    se_task_fn fn;
    void *context;
    int index;
} se_task;

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

size_t se_atomic_fetch_add(volatile size_t *target, size_t value) {
#if defined(_WIN64)
    return (size_t)InterlockedExchangeAdd64((volatile LONG64 *)target, (LONG64)value);
#else
    return (size_t)InterlockedExchangeAdd((volatile LONG *)target, (LONG)value);
#endif
}

static DWORD WINAPI se_thread_main(LPVOID arg) {
    se_task *task = (se_task *)arg;
    task->fn(task->context, task->index);
    return 0;
}

int se_cpu_count(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (int)n : 1;
}

int se_run_tasks(int n_tasks, se_task_fn fn, void *context) {
    HANDLE handles[SE_MAX_THREADS];
    se_task tasks[SE_MAX_THREADS];
    int failed = 0;
    if (n_tasks > SE_MAX_THREADS) {
        n_tasks = SE_MAX_THREADS;
    }
    for (int i = 1; i < n_tasks; i++) {
        tasks[i].fn = fn;
        tasks[i].context = context;
        tasks[i].index = i;
        handles[i] = CreateThread(NULL, 0, se_thread_main, &tasks[i], 0, NULL);
        if (handles[i] == NULL) {
            failed = 1;
            fn(context, i);
        }
    }
    fn(context, 0);
    for (int i = 1; i < n_tasks; i++) {
        if (handles[i] != NULL) {
            WaitForSingleObject(handles[i], INFINITE);
            CloseHandle(handles[i]);
        }
    }
    return failed ? -1 : 0;
}

#else
#include <pthread.h>
#include <unistd.h>

size_t se_atomic_fetch_add(volatile size_t *target, size_t value) {
    return __atomic_fetch_add(target, value, __ATOMIC_RELAXED);
}

static void *se_thread_main(void *arg) {
    se_task *task = (se_task *)arg;
    task->fn(task->context, task->index);
    return NULL;
}

int se_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int se_run_tasks(int n_tasks, se_task_fn fn, void *context) {
    pthread_t threads[SE_MAX_THREADS];
    int started[SE_MAX_THREADS];
    se_task tasks[SE_MAX_THREADS];
    int failed = 0;
    if (n_tasks > SE_MAX_THREADS) {
        n_tasks = SE_MAX_THREADS;
    }
    for (int i = 1; i < n_tasks; i++) {
        tasks[i].fn = fn;
        tasks[i].context = context;
        tasks[i].index = i;
        started[i] = pthread_create(&threads[i], NULL, se_thread_main, &tasks[i]) == 0;
        if (!started[i]) {
            failed = 1;
            fn(context, i);
        }
    }
    fn(context, 0);
    for (int i = 1; i < n_tasks; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
        }
    }
    return failed ? -1 : 0;
}
#endif
