/* SPDX-License-Identifier: MIT */
/*
 * The client-thread protocol on the live machine: clients bind and read
 * their binding back, run their body once per release with the released n,
 * are waited for, and are cancelled -- also from inside a body that only
 * has ptb_client_testcancel -- with their fini run and no thread left.
 * An alarm turns a protocol deadlock into a failure instead of a hang.
 * Threads are followed by their own task ids, never by counting: an
 * emulator (qemu-user) or a sanitizer runs helper threads of its own.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptbench.h"
#include "machine/system.h"
#include "tap.h"

struct probe {
	atomic_int inits, bodies, finis;
	atomic_ullong last_n;
	atomic_int slow;          /* body sleeps, then sets done */
	atomic_int done;
	atomic_int spinning;
	atomic_long tid;          /* the client thread's task id, set by init */
};

static void p_init(void *arg)
{
	struct probe *pr = arg;
	pr->tid = syscall(SYS_gettid);
	atomic_fetch_add(&pr->inits, 1);
}
static void p_fini(void *arg) { atomic_fetch_add(&((struct probe *)arg)->finis, 1); }

static void p_body(void *arg, uint64_t n)
{
	struct probe *pr = arg;
	if (pr->slow) {
		usleep(20000);
		pr->done = 1;
	}
	pr->last_n = n;
	atomic_fetch_add(&pr->bodies, 1);
}

/* No cancellation point: only ptb_client_testcancel ends it. */
static void spin_body(void *arg, uint64_t n)
{
	struct probe *pr = arg;
	pr->spinning = 1;
	for (uint64_t i = 0;; i++) {
		__asm__ __volatile__("" ::: "memory");   /* keep the loop a loop */
		ptb_client_testcancel(i);
	}
}

static const struct ptb_client_ops probe_ops = { p_init, p_body, p_fini };
static const struct ptb_client_ops spin_ops = { p_init, spin_body, p_fini };
static const struct ptb_bench bench = { .name = "test.client" };

static bool task_alive(long tid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld", tid);
	return tid > 0 && access(path, F_OK) == 0;
}

/* A joined thread may linger in /proc for a moment: poll briefly. */
static bool task_gone(long tid)
{
	for (int i = 0; i < 200 && task_alive(tid); i++)
		usleep(5000);
	return tid > 0 && !task_alive(tid);
}

/* No new thread remains beyond the `before` threads there were. */
static int threads_settle(int before)
{
	int n = ptb_thread_count();
	for (int i = 0; i < 200 && n > before; i++) {
		usleep(5000);
		n = ptb_thread_count();
	}
	return n;
}

static void on_alarm(int sig)
{
	static const char msg[] = "Bail out! client protocol deadlocked\n";
	(void)sig;
	(void)!write(1, msg, sizeof msg - 1);
	_exit(1);
}

static void rounds(struct ptb_system *sys)
{
	const struct ptb_pair *pair = &sys->pairs[PTB_SAME_PU];
	struct probe a = { 0 }, b = { 0 };
	struct ptb_point p = { .bench = &bench, .sys = sys, .pu_main = -1 };
	char want[16];

	p.pu_client = pair->pu[1];
	tap_ok(ptb_client_start(&p, &probe_ops, &a) == 0, "client A starts bound to PU %d",
	       p.pu_client);
	p.pu_client = -1;
	tap_ok(ptb_client_start(&p, &probe_ops, &b) == 0, "client B starts unbound");
	tap_ok(a.inits == 1 && b.inits == 1, "init ran before ptb_client_start returned");
	snprintf(want, sizeof want, "%d", pair->pu[1]);
	tap_ok(strcmp(ptb_client_binding(p.clients[0]), want) == 0,
	       "A's binding read back: '%s'", ptb_client_binding(p.clients[0]));
	tap_ok(strcmp(ptb_client_binding(p.clients[1]), sys->counts.allowed) == 0,
	       "B may run on every allowed PU: '%s' (allowed %s)",
	       ptb_client_binding(p.clients[1]), sys->counts.allowed);
	tap_ok(p.nclient_bindings == 2 && strcmp(p.binding_client[0], want) == 0,
	       "the point keeps the clients' bindings");
	tap_ok(task_alive(a.tid) && task_alive(b.tid) && a.tid != b.tid,
	       "both clients are threads of their own while they live (tasks %ld, %ld)",
	       (long)a.tid, (long)b.tid);

	int good = 1;
	for (int r = 1; r <= 5; r++) {
		ptb_clients_release(&p, 10 * r);
		ptb_clients_wait(&p);
		good &= a.bodies == r && b.bodies == r && a.last_n == 10u * r && b.last_n == 10u * r;
	}
	tap_ok(good, "5 rounds: each body ran once per release with the released n");

	a.slow = 1;
	ptb_clients_release(&p, 1);
	ptb_clients_wait(&p);
	tap_ok(a.done == 1, "wait returns only after a slow body acknowledged");

	ptb_clients_cancel(&p);
	tap_ok(a.finis == 1 && b.finis == 1, "cancel: fini ran in both clients");
	tap_ok(p.nclients == 0 && p.nclient_bindings == 2, "no clients left; bindings kept");
	tap_ok(task_gone(a.tid) && task_gone(b.tid), "no client thread outlives the point");
	ptb_clients_cancel(&p);
	ptb_clients_release(&p, 1);
	ptb_clients_wait(&p);
	tap_ok(p.verdict == PTB_OK, "without clients release/wait/cancel do nothing");
}

static void spinning(struct ptb_system *sys)
{
	struct probe s = { 0 };
	struct ptb_point p = { .bench = &bench, .sys = sys, .pu_main = -1, .pu_client = -1 };

	tap_ok(ptb_client_start(&p, &spin_ops, &s) == 0, "a spinning client starts");
	ptb_clients_release(&p, 1);
	while (!s.spinning)
		usleep(1000);
	ptb_clients_cancel(&p);
	tap_ok(s.finis == 1, "a body with only ptb_client_testcancel is cancelled, fini ran");
	tap_ok(task_gone(s.tid), "... and its thread is gone");
}

static void bind_failure(struct ptb_system *sys)
{
	struct probe f = { 0 };
	struct ptb_point p = { .bench = &bench, .sys = sys, .pu_main = -1,
			       .pu_client = sys->counts.machine_pus + 1000 };
	int before = ptb_thread_count();

	tap_ok(ptb_client_start(&p, &probe_ops, &f) == -1, "binding to a PU we may not use fails");
	tap_ok(p.verdict == PTB_ERROR && strstr(p.reason, "binding a client thread") != NULL,
	       "... the point is an error saying why: %s", p.reason);
	tap_ok(f.inits == 0 && p.nclients == 0, "... init never ran, no client recorded");
	tap_ok(threads_settle(before) <= before, "... and no thread is left (%d before)", before);
}

int main(void)
{
	char err[256];
	struct ptb_system sys;

	if (ptb_system_init(&sys, err, sizeof err) < 0)
		tap_skip_all(err);
	signal(SIGALRM, on_alarm);
	alarm(20);
	rounds(&sys);
	spinning(&sys);
	bind_failure(&sys);
	ptb_system_fini(&sys);
	tap_done();
	return tap_exit();
}
