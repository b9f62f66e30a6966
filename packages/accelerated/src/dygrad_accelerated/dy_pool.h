/* dy_pool.h: the worker threads that share one matrix product's pieces (``_linalg.pyx``).

Why not BLAS's own threads, nor OpenMP's team: both make the calling thread wait for every
thread of the team, at the end of each call. A team thread that the machine's other
processes hold off its core stalls the call by a scheduler slice, every call: a W2 step ran
20x slower with OpenBLAS's threads whenever another process took a core (``threads.py``).
Here the calling thread takes pieces too, and it waits only for pieces that a worker has
already taken: a worker that comes late finds nothing left and the call has not waited for
it. It is also quick to start: an idle worker spins (pausing, and yielding its core to any
other runnable thread) for ``DY_POOL_SPIN_NS`` after its last piece before it sleeps.

One job at a time: a job is ``fn(ctx, i)`` for each piece ``i`` < pieces. One 64-bit word
holds the job's generation (24 bits), its number of pieces (8 bits) and the next piece to
take (32 bits); a piece is taken by a compare-and-swap of that word, so a worker that read
``fn`` and ``ctx`` of a job can take a piece only while that job still has one: the caller
writes the next job's ``fn`` and ``ctx`` only after every piece of this one is done. A
second caller that finds the pool busy (another Python thread, between its GIL releases)
runs its pieces itself.

POSIX threads and C11 atomics; elsewhere ``DY_POOL`` is 0 and every job runs in the caller.
*/
#ifndef DY_POOL_H
#define DY_POOL_H

#include "dy_pool_api.h" /* Python.h first, as Python asks: it sets the POSIX feature macros */

#include <stddef.h>
#include <stdint.h>

#if (defined(__unix__) || defined(__APPLE__)) && !defined(__STDC_NO_ATOMICS__)
#define DY_POOL 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define dy_pause() _mm_pause()
#else
#define dy_pause() ((void)0)
#endif

#define DY_POOL_MAX 63
#define DY_POOL_SPIN_NS 200000L /* 0.2 ms */
#define DY_GEN(s) ((s) >> 40)
#define DY_PIECES(s) ((int)(((s) >> 32) & 0xff))
#define DY_NEXT(s) ((uint32_t)(s))

static struct {
    _Atomic uint64_t state;
    _Atomic(dy_piece_fn) fn;
    _Atomic(void *) ctx;
    atomic_int done;
    atomic_int sleepers;
    atomic_int quit;
    atomic_int busy;
    atomic_int workers; /* written by dy_pool_resize alone, read by dy_pool_run */
    pthread_t threads[DY_POOL_MAX];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_mutex_t resizing; /* one resize at a time (callers in several threads) */
} dy_pool = {0, NULL, NULL, 0, 0, 0, 0, 0, {0}, PTHREAD_MUTEX_INITIALIZER,
             PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static int64_t dy_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Take pieces of the job in ``s`` while it has some left. */
static void dy_take(uint64_t s) {
    uint64_t gen = DY_GEN(s);
    while (DY_GEN(s) == gen && (int)DY_NEXT(s) < DY_PIECES(s)) {
        dy_piece_fn fn = atomic_load_explicit(&dy_pool.fn, memory_order_relaxed);
        void *ctx = atomic_load_explicit(&dy_pool.ctx, memory_order_relaxed);
        if (atomic_compare_exchange_weak(&dy_pool.state, &s, s + 1)) {
            fn(ctx, (int)DY_NEXT(s));
            atomic_fetch_add(&dy_pool.done, 1);
            s = atomic_load(&dy_pool.state);
        } /* else s now holds the word as it is: look again */
    }
}

/* The state once its generation differs from ``seen`` (or the pool quits): spinning first,
   then asleep. */
static uint64_t dy_wait(uint64_t seen) {
    int64_t start = dy_now_ns();
    uint64_t s;
    for (unsigned spins = 1;; spins++) {
        s = atomic_load_explicit(&dy_pool.state, memory_order_acquire);
        if (DY_GEN(s) != seen || atomic_load_explicit(&dy_pool.quit, memory_order_relaxed))
            return s;
        dy_pause();
        if ((spins & 63) == 0) {
            sched_yield(); /* a runnable thread of any process gets the core first */
            if (dy_now_ns() - start > DY_POOL_SPIN_NS) break;
        }
    }
    atomic_fetch_add(&dy_pool.sleepers, 1);
    pthread_mutex_lock(&dy_pool.mu);
    s = atomic_load(&dy_pool.state);
    while (DY_GEN(s) == seen && !atomic_load(&dy_pool.quit)) {
        pthread_cond_wait(&dy_pool.cv, &dy_pool.mu);
        s = atomic_load(&dy_pool.state);
    }
    pthread_mutex_unlock(&dy_pool.mu);
    atomic_fetch_sub(&dy_pool.sleepers, 1);
    return s;
}

static void *dy_worker(void *arg) {
    uint64_t seen = (uint64_t)(uintptr_t)arg;
    while (!atomic_load(&dy_pool.quit)) {
        uint64_t s = dy_wait(seen);
        seen = DY_GEN(s);
        dy_take(s);
    }
    return NULL;
}

static void dy_wake(void) {
    if (atomic_load(&dy_pool.sleepers)) {
        pthread_mutex_lock(&dy_pool.mu);
        pthread_cond_broadcast(&dy_pool.cv);
        pthread_mutex_unlock(&dy_pool.mu);
    }
}

/* Stop every worker (each finishes the piece it holds). */
static void dy_pool_stop(void) {
    int workers = atomic_load(&dy_pool.workers);
    if (!workers) return;
    atomic_store(&dy_pool.quit, 1);
    pthread_mutex_lock(&dy_pool.mu);
    pthread_cond_broadcast(&dy_pool.cv);
    pthread_mutex_unlock(&dy_pool.mu);
    for (int i = 0; i < workers; i++) pthread_join(dy_pool.threads[i], NULL);
    atomic_store(&dy_pool.workers, 0);
    atomic_store(&dy_pool.quit, 0);
}

/* In a forked child the workers are gone and a lock may be held: start from nothing. */
static void dy_pool_after_fork(void) {
    atomic_store(&dy_pool.workers, 0);
    pthread_mutex_init(&dy_pool.mu, NULL);
    pthread_cond_init(&dy_pool.cv, NULL);
    pthread_mutex_init(&dy_pool.resizing, NULL);
    uint64_t gen = DY_GEN(atomic_load(&dy_pool.state)) + 1;
    atomic_store(&dy_pool.state, (gen & 0xffffff) << 40);
    atomic_store(&dy_pool.done, 0);
    atomic_store(&dy_pool.sleepers, 0);
    atomic_store(&dy_pool.quit, 0);
    atomic_store(&dy_pool.busy, 0);
}

/* n workers (besides the calling thread); returns how many run. Call with no job under way
   from this thread; calls from several threads take turns. */
static int dy_pool_resize(int n) {
    static int fork_handler = 0;
    if (n < 0) n = 0;
    if (n > DY_POOL_MAX) n = DY_POOL_MAX;
    pthread_mutex_lock(&dy_pool.resizing);
    if (!fork_handler) {
        pthread_atfork(NULL, NULL, dy_pool_after_fork);
        fork_handler = 1;
    }
    if (n != atomic_load(&dy_pool.workers)) {
        dy_pool_stop();
        uint64_t seen = DY_GEN(atomic_load(&dy_pool.state));
        int started = 0;
        while (started < n && !pthread_create(&dy_pool.threads[started], NULL, dy_worker,
                                              (void *)(uintptr_t)seen))
            started++;
        atomic_store(&dy_pool.workers, started);
    }
    n = atomic_load(&dy_pool.workers);
    pthread_mutex_unlock(&dy_pool.resizing);
    return n;
}

/* fn(ctx, i) for i in [0, pieces), shared with the workers; returns when all are done. */
static void dy_pool_run(dy_piece_fn fn, void *ctx, int pieces) {
    int expected = 0;
    if (pieces > 255) pieces = 255; /* (never: the callers cut at most a few per thread) */
    if (!atomic_load_explicit(&dy_pool.workers, memory_order_relaxed) || pieces < 2 || !atomic_compare_exchange_strong(&dy_pool.busy, &expected, 1)) {
        for (int i = 0; i < pieces; i++) fn(ctx, i);
        return;
    }
    atomic_store_explicit(&dy_pool.fn, fn, memory_order_relaxed);
    atomic_store_explicit(&dy_pool.ctx, ctx, memory_order_relaxed);
    atomic_store(&dy_pool.done, 0);
    uint64_t gen = (DY_GEN(atomic_load(&dy_pool.state)) + 1) & 0xffffff;
    atomic_store(&dy_pool.state, (gen << 40) | ((uint64_t)pieces << 32));
    dy_wake();
    for (;;) { /* this thread takes pieces too: a plain add, as only it starts jobs */
        uint64_t s = atomic_fetch_add(&dy_pool.state, 1);
        if ((int)DY_NEXT(s) >= pieces) break;
        fn(ctx, (int)DY_NEXT(s));
        atomic_fetch_add(&dy_pool.done, 1);
    }
    /* every piece is taken: wait for the ones the workers hold */
    for (unsigned spins = 1; atomic_load(&dy_pool.done) < pieces; spins++) {
        dy_pause();
        if ((spins & 63) == 0) sched_yield();
    }
    atomic_store(&dy_pool.busy, 0);
}

static int dy_pool_workers(void) { return atomic_load(&dy_pool.workers); }
static int dy_pool_jobs(void) { return (int)DY_GEN(atomic_load(&dy_pool.state)); }

#else
#define DY_POOL 0
static int dy_pool_resize(int n) { (void)n; return 0; }
static int dy_pool_workers(void) { return 0; }
static int dy_pool_jobs(void) { return 0; }
static void dy_pool_run(dy_piece_fn fn, void *ctx, int pieces) {
    for (int i = 0; i < pieces; i++) fn(ctx, i);
}
#endif

/* what ``_linalg`` puts in its capsule ``POOL`` for the other modules */
static const dy_pool_api dy_pool_exported = {dy_pool_run, dy_pool_workers};

#endif /* DY_POOL_H */
