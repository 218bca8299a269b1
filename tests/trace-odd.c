/* SPDX-License-Identifier: MIT */
/*
 * Programs that do what a recorder must survive, for tests/trace-odd.sh:
 * each is recorded by `ptbench record` and must come out as it does
 * unrecorded (output, files, exit status) with a complete trace.
 *
 *   trace-odd closeall FILE   close every descriptor from 3 up (close() to
 *                             1023, then close_range), open FILE, put it
 *                             at number 1000 too, write "hello\n" to it
 *                             in a second thread; prints its number
 *   trace-odd vfork           two threads work 50 ms, a vfork child execs
 *                             true, two more threads work 50 ms
 *   trace-odd failexec        an exec of a missing program fails, then two
 *                             threads work 50 ms
 *   trace-odd signal NAME     ends by SIGALRM (a timer), SIGUSR1 or the
 *                             second real-time signal, unhandled
 *   trace-odd execwork        works 50 ms, then execs /bin/sh -c "exit 0"
 *   trace-odd fexecve         two threads work 50 ms, then fexecve of
 *                             /bin/sh -c "exit 4"
 *   trace-odd quickexit       quick_exit(5)
 *   trace-odd execl           execl of /bin/sh -c "exit 3"
 *   trace-odd handlers        sets SIGTERM, SIGPIPE, SIGUSR1, SIGALRM and
 *                             SIGINT to their defaults, execs itself, and
 *                             prints what sigaction, signal and
 *                             sysv_signal say of their handlers
 *   trace-odd sigread         the main thread blocks in read() of a pipe
 *                             while a SIGALRM handler posts a semaphore
 *                             that a second thread waits on before it
 *                             writes the byte the read returns
 *   trace-odd manycv N WORK   a producer works WORK and signals item i on
 *                             condition variable i of N, all kept alive; a
 *                             consumer waits on each and works WORK: a
 *                             pipeline, speed-up near 2 on 2 CPUs
 *   trace-odd threads N       N threads started and joined one at a time;
 *                             prints the process's VmSize in kB
 *   trace-odd fork N          two threads signal each other through a
 *                             condition variable while the main thread
 *                             forks N children, each of which starts and
 *                             joins a thread and waits on a condition
 *                             variable of its own (a child forked while
 *                             the recorder held a lock must not hang)
 *   trace-odd priorities      a thread of real-time priority 1 broadcasts
 *                             and yields, one of priority 2 wakes every
 *                             50 us and signals, for 0.3 s (the second
 *                             may preempt the first inside the recorder's
 *                             lock, which it must not wait for for ever);
 *                             plain threads where priorities are refused
 *   trace-odd clockwait N WORK two threads take N turns each, working WORK
 *                             at each, through pthread_mutex_clocklock and
 *                             pthread_cond_clockwait (what C++'s timed
 *                             waits call): serial, speed-up 1 on any N
 *   trace-odd pairs N         N lock and unlock pairs of one mutex, no
 *                             other thread: almost all of it the probes'
 *   trace-odd daemon          prints "before", then daemon(1, 1); the
 *                             daemon works 10 ms
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-work.h"

static int fd_out = -1;

static void *write_hello(void *arg)
{
	return write(fd_out, "hello\n", 6) == 6 ? arg : NULL;
}

static int closeall(const char *file)
{
	for (int f = 3; f < 1024; f++)
		close(f);
#ifdef SYS_close_range
	syscall(SYS_close_range, 3u, ~0u, 0u);      /* ENOSYS on an old kernel */
#endif
	fd_out = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd_out < 0)
		return perror(file), 1;
	dup2(fd_out, 1000);                         /* where a recorder's own may have been */
	pthread_t t;
	pthread_create(&t, NULL, write_hello, NULL);
	pthread_join(t, NULL);
	printf("fd %d\n", fd_out);
	fflush(stdout);
	close(1000);
	return close(fd_out) != 0;
}

static int vfork_exec(void)
{
	work_two_threads_50ms();
	pid_t p = vfork();
	if (p == 0) {
		char *argv[] = { "true", NULL };
		execvp("true", argv);
		_exit(127);
	}
	int st = 0;
	waitpid(p, &st, 0);
	work_two_threads_50ms();
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int execwork(void)
{
	work_for_ns(50e6);
	execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
	return 1;
}

static int fexec(void)
{
	work_two_threads_50ms();
	char *argv[] = { "sh", "-c", "exit 4", NULL };
	int f = open("/bin/sh", O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return 1;
	fexecve(f, argv, environ);
	return 1;
}

static int failexec(void)
{
	char *argv[] = { "program", NULL };
	execvp("/nonexistent/program", argv);
	int e = errno;
	work_two_threads_50ms();
	return e == ENOENT ? 0 : 1;
}

static int die_by(const char *name)
{
	if (!strcmp(name, "alarm")) {
		struct itimerval it = { { 0, 0 }, { 0, 20000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		for (;;)
			pause();
	}
	raise(!strcmp(name, "usr1") ? SIGUSR1 : SIGRTMIN + 1);
	return 1;
}

static void bye(void) { fputs("at_quick_exit ran\n", stdout), fflush(stdout); }

/* A signal ignored by whoever started the test stays ignored across exec
 * (a background job's SIGINT, a harness's SIGPIPE), and would read here as
 * "handled" recorded or not.  So the first image sets the five to their
 * defaults and execs itself: the second answers for the recorder alone. */
static int handlers(int argc, char **argv)
{
	static const int sigs[] = { SIGTERM, SIGPIPE, SIGUSR1, SIGALRM };
	if (argc < 3) {
		for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
			signal(sigs[i], SIG_DFL);
		signal(SIGINT, SIG_DFL);
		char self[4096];          /* (qemu's user mode names the guest's) */
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			return 1;
		self[n] = 0;
		execl(self, argv[0], "handlers", "again", (char *)NULL);
		return 1;
	}
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		sigaction(sigs[i], NULL, &old);
		printf("%d: %s\n", sigs[i], old.sa_handler == SIG_DFL ? "default" : "handled");
	}
	void (*was)(int) = signal(SIGPIPE, SIG_IGN);
	printf("SIGPIPE was %s\n", was == SIG_DFL ? "default" : "handled");
	was = sysv_signal(SIGINT, SIG_IGN);
	printf("SIGINT was %s\n", was == SIG_DFL ? "default" : "handled");
	return 0;
}

static sem_t ready;
static int pipe_fd[2];

static void on_alarm(int sig) { (void)sig; sem_post(&ready); }

static void *post_byte(void *arg)
{
	while (sem_wait(&ready) && errno == EINTR)
		;
	return write(pipe_fd[1], "x", 1) == 1 ? arg : NULL;
}

static int sigread(void)
{
	sem_init(&ready, 0, 0);
	if (pipe(pipe_fd))
		return 1;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	pthread_t t;
	pthread_create(&t, NULL, post_byte, NULL);
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	char c;
	ssize_t n = read(pipe_fd[0], &c, 1);
	pthread_join(t, NULL);
	printf("read %zd\n", n);
	return n != 1;
}

static pthread_mutex_t cv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t *cv;
static int *posted, ncv;
static long cv_work;

static void *consume(void *arg)
{
	for (int i = 0; i < ncv; i++) {
		pthread_mutex_lock(&cv_lock);
		while (!posted[i])
			pthread_cond_wait(&cv[i], &cv_lock);
		pthread_mutex_unlock(&cv_lock);
		work_spin(cv_work);
	}
	return arg;
}

static int manycv(int n, long work)
{
	cv = calloc((size_t)n, sizeof *cv);
	posted = calloc((size_t)n, sizeof *posted);
	if (!cv || !posted)
		return 1;
	ncv = n, cv_work = work;
	for (int i = 0; i < n; i++)
		pthread_cond_init(&cv[i], NULL);
	pthread_t t;
	pthread_create(&t, NULL, consume, NULL);
	for (int i = 0; i < n; i++) {
		work_spin(work);
		pthread_mutex_lock(&cv_lock);
		posted[i] = 1;
		pthread_cond_signal(&cv[i]);
		pthread_mutex_unlock(&cv_lock);
	}
	pthread_join(t, NULL);
	return 0;
}

static int turn, turns;

/* Wait for my turn with a deadline far off, work, hand the turn over. */
static void *take_turns(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < turns; i++) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += 60;
		pthread_mutex_clocklock(&cv_lock, CLOCK_MONOTONIC, &until);
		while (turn != me)
			pthread_cond_clockwait(&cv[0], &cv_lock, CLOCK_MONOTONIC, &until);
		pthread_mutex_unlock(&cv_lock);
		work_spin(cv_work);
		pthread_mutex_lock(&cv_lock);
		turn = !me;
		pthread_cond_broadcast(&cv[0]);
		pthread_mutex_unlock(&cv_lock);
	}
	return NULL;
}

static int clockwait(int n, long work)
{
	static pthread_cond_t one = PTHREAD_COND_INITIALIZER;
	cv = &one, turns = n, cv_work = work;
	pthread_t t;
	pthread_create(&t, NULL, take_turns, (void *)1L);
	take_turns((void *)0L);
	pthread_join(t, NULL);
	return 0;
}

static void *nothing(void *arg) { return arg; }

static _Atomic int stop_prio;

static void *low(void *arg)
{
	while (!stop_prio) {
		pthread_mutex_lock(&cv_lock);
		pthread_cond_broadcast(&cv[0]);
		pthread_mutex_unlock(&cv_lock);
		sched_yield();
	}
	return arg;
}

static void *high(void *arg)
{
	static const struct timespec nap = { 0, 50000 };
	while (!stop_prio) {
		nanosleep(&nap, NULL);
		pthread_cond_signal(&cv[0]);
	}
	return arg;
}

/* A thread at real-time priority prio where permitted, else a plain one. */
static void start_at(pthread_t *t, void *(*fn)(void *), int prio)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	if (pthread_create(t, &a, fn, NULL))
		pthread_create(t, NULL, fn, NULL);
	pthread_attr_destroy(&a);
}

static int priorities(void)
{
	static pthread_cond_t one = PTHREAD_COND_INITIALIZER;
	static const struct timespec run = { 0, 300000000 };
	cv = &one;
	pthread_t lo, hi;
	start_at(&lo, low, 1);
	start_at(&hi, high, 2);
	nanosleep(&run, NULL);
	stop_prio = 1;
	pthread_join(hi, NULL);
	pthread_join(lo, NULL);
	puts("done");
	return 0;
}

static _Atomic int stop_pinging;

static void *ping(void *arg)
{
	int me = (int)(long)arg;
	while (!stop_pinging) {
		pthread_mutex_lock(&cv_lock);
		turn = !me;
		pthread_cond_broadcast(&cv[0]);
		pthread_mutex_unlock(&cv_lock);
	}
	return NULL;
}

static int forks(int n)
{
	static pthread_cond_t one = PTHREAD_COND_INITIALIZER;
	cv = &one;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, ping, (void *)(long)i);
	int bad = 0;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0) {
			static pthread_cond_t mine = PTHREAD_COND_INITIALIZER;
			static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
			struct timespec until;
			pthread_t c;
			pthread_create(&c, NULL, nothing, NULL);
			pthread_join(c, NULL);
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 100000;
			if (until.tv_nsec >= 1000000000)
				until.tv_sec++, until.tv_nsec -= 1000000000;
			pthread_mutex_lock(&m);
			pthread_cond_signal(&mine);
			pthread_cond_timedwait(&mine, &m, &until);
			pthread_mutex_unlock(&m);
			_exit(0);
		}
		int st;
		bad += p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st);
	}
	stop_pinging = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("children that failed: %d\n", bad);
	return bad != 0;
}

static int threads(int n)
{
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, nothing, NULL))
			return 1;
		pthread_join(t, NULL);
	}
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmSize:", 7))
			printf("vm_kb %ld\n", strtol(line + 7, NULL, 10));
	if (f)
		fclose(f);
	return 0;
}

static int pairs(long n)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	for (long i = 0; i < n; i++)
		pthread_mutex_lock(&m), pthread_mutex_unlock(&m);
	return 0;
}

/* daemon(): the parent ends inside the C library; the daemon, keeping
 * the descriptors, works 10 ms and ends */
static int become_daemon(void)
{
	puts("before");
	fflush(stdout);
	if (daemon(1, 1))
		return 9;
	work_for_ns(10e6);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "closeall") && argc == 3)
		return closeall(argv[2]);
	if (!strcmp(m, "vfork"))
		return vfork_exec();
	if (!strcmp(m, "failexec"))
		return failexec();
	if (!strcmp(m, "execwork"))
		return execwork();
	if (!strcmp(m, "fexecve"))
		return fexec();
	if (!strcmp(m, "signal") && argc == 3)
		return die_by(argv[2]);
	if (!strcmp(m, "quickexit"))
		return at_quick_exit(bye), quick_exit(5), 1;
	if (!strcmp(m, "execl"))
		return execl("/bin/sh", "sh", "-c", "exit 3", (char *)NULL), 1;
	if (!strcmp(m, "handlers"))
		return handlers(argc, argv);
	if (!strcmp(m, "sigread"))
		return sigread();
	if (!strcmp(m, "manycv") && argc == 4)
		return manycv(atoi(argv[2]), atol(argv[3]));
	if (!strcmp(m, "threads") && argc == 3)
		return threads(atoi(argv[2]));
	if (!strcmp(m, "priorities"))
		return priorities();
	if (!strcmp(m, "fork") && argc == 3)
		return forks(atoi(argv[2]));
	if (!strcmp(m, "clockwait") && argc == 4)
		return clockwait(atoi(argv[2]), atol(argv[3]));
	if (!strcmp(m, "daemon"))
		return become_daemon();
	if (!strcmp(m, "pairs") && argc == 3)
		return pairs(atol(argv[2]));
	fprintf(stderr, "usage: trace-odd closeall FILE | vfork | failexec | execwork | fexecve |"
		" signal alarm|usr1|rt |"
		" quickexit | execl | handlers | sigread | manycv N WORK | threads N |"
		" fork N | priorities | clockwait N WORK | pairs N |"
		" daemon\n");
	return 2;
}
