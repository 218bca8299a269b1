/* SPDX-License-Identifier: MIT */
/*
 * Every benchmark, in the order of the paper's Table 1 (create.join, an
 * extra row, beside create), then the ones the paper does not list (the
 * LogP gaps).  Tables list the rows of a section in this order.
 *
 * PTB_BENCH(file, symbol): the descriptor `ptb_bench_<symbol>` defined at
 * the bottom of bench/<file>.c.  This list is also the build's list of
 * benchmark files (bench/mksources.sh makes bench/sources.am from it), so
 * adding a benchmark is a new file in bench/ plus one line here.
 */
/*        file              symbol */
PTB_BENCH(create,           create)
PTB_BENCH(create,           create_join)
PTB_BENCH(yield,            yield)
PTB_BENCH(timeslice,        timeslice)
PTB_BENCH(cond_pingpong,    cond_pingpong)
PTB_BENCH(cond_signal,      cond_signal)
PTB_BENCH(cond_wait,        cond_wait)
PTB_BENCH(mutex_pingpong,   mutex_pingpong)
PTB_BENCH(mutex_pingpong,   mutex_nocontention)
PTB_BENCH(mutex_lockunlock, mutex_lockunlock)
PTB_BENCH(mutex_lock,       mutex_lock)
PTB_BENCH(mutex_lock,       mutex_unlock)
PTB_BENCH(cond_gap,         cond_gap)
PTB_BENCH(mutex_gap,        mutex_gap)
PTB_BENCH(spin,             spin_lockunlock)
PTB_BENCH(spin,             spin_pingpong)
PTB_BENCH(sem,              sem_pingpong)
PTB_BENCH(sem,              sem_postwait)
PTB_BENCH(barrier,          barrier)
PTB_BENCH(cond_broadcast,   cond_broadcast)
PTB_BENCH(rwlock,           rwlock_lockunlock)
PTB_BENCH(rwlock,           rwlock_readers)
PTB_BENCH(rwlock,           rwlock_writer)
PTB_BENCH(cancel,           cancel)
PTB_BENCH(contention,       mutex_contention)
PTB_BENCH(contention,       spin_contention)
PTB_BENCH(contention,       rwlock_contention)
PTB_BENCH(c2c,              c2c_pair)
PTB_BENCH(wake_placement,   wake_placement)
/* Extended (not in the default suite): the cache hierarchy, user-level
 * threads and cache-line sharing. */
PTB_BENCH(cache_line,       cache_line)
PTB_BENCH(cache_latency,    cache_latency)
PTB_BENCH(uthread,          uthread_switch)
PTB_BENCH(uthread,          uthread_create)
PTB_BENCH(cacheline_share,  cacheline_share)
PTB_BENCH(corun,            corun)
/* OpenMP's directives (EPCC syncbench's method), after every Pthreads row;
 * absent from builds configured without OpenMP. */
PTB_BENCH(omp,              omp_parallel)
PTB_BENCH(omp,              omp_for)
PTB_BENCH(omp,              omp_parallel_for)
PTB_BENCH(omp,              omp_barrier)
PTB_BENCH(omp,              omp_single)
PTB_BENCH(omp,              omp_critical)
PTB_BENCH(omp,              omp_lock)
PTB_BENCH(omp,              omp_ordered)
PTB_BENCH(omp,              omp_atomic)
PTB_BENCH(omp,              omp_reduction)
