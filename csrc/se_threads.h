/* A minimal thread pool-less fork/join (internal): POSIX threads or Win32. */
#ifndef SE_THREADS_H
#define SE_THREADS_H

#include <stddef.h>

typedef void (*se_task_fn)(void *context, int index);

/* Runs fn(context, i) for i in 0..n_tasks-1, task 0 on the calling thread and
 * the others on new threads, and waits for all of them. Returns 0, or -1 when a
 * thread could not be started (the tasks that could not start are run on the
 * calling thread instead, so the work is still done). */
int se_run_tasks(int n_tasks, se_task_fn fn, void *context);

/* Atomically adds value to *target and returns the previous value. */
size_t se_atomic_fetch_add(volatile size_t *target, size_t value);

#endif
