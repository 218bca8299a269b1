/* SPDX-License-Identifier: MIT */
/*
 * Client threads of the symmetric benchmarks, with the protocol of the
 * paper (section 2): the main thread times, a client does the other half
 * of the action, and at the end of the point the main thread ends the
 * client with pthread_cancel and waits for it before anything else runs.
 *
 * Each client has a mutex, a release generation and an acknowledged
 * generation.  The harness bumps the release generation (with n) before it
 * starts the clock and waits for the acknowledgement after stopping it, so
 * a timing never contains work of the previous one.  Between timings the
 * client sleeps in pthread_cond_wait, a cancellation point, with a cleanup
 * handler that releases the mutex; the benchmark's fini runs from a second
 * cleanup handler in the client itself, and the join is the final
 * acknowledgement, so no thread outlives its point.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"

struct ptb_client {
	pthread_t thread;
	const struct ptb_client_ops *ops;
	void *arg;
	const struct ptb_topology *topo;
	int pu;

	pthread_mutex_t mu;
	pthread_cond_t go, ack;
	uint64_t released, started, acked;   /* generations */
	uint64_t n;                 /* iterations of the current release */
	enum { STARTING, READY, FAILED } state;
	char err[192];
	char binding[64];
};

static void unlock_mutex(void *mu)
{
	pthread_mutex_unlock(mu);
}

static void run_fini(void *arg)
{
	struct ptb_client *c = arg;
	if (c->ops->fini)
		c->ops->fini(c->arg);
}

static void report_start(struct ptb_client *c, int state)
{
	pthread_mutex_lock(&c->mu);
	c->state = state;
	pthread_cond_signal(&c->ack);
	pthread_mutex_unlock(&c->mu);
}

/* Wait for the next release; returns its n.  Cancellation lands here. */
static uint64_t wait_release(struct ptb_client *c, uint64_t *seen)
{
	uint64_t n;
	pthread_mutex_lock(&c->mu);
	pthread_cleanup_push(unlock_mutex, &c->mu);
	while (c->released == *seen)
		pthread_cond_wait(&c->go, &c->mu);
	*seen = c->released;
	n = c->n;
	c->started = *seen;
	pthread_cond_signal(&c->ack);
	pthread_cleanup_pop(1);
	return n;
}

static void acknowledge(struct ptb_client *c, uint64_t gen)
{
	pthread_mutex_lock(&c->mu);
	c->acked = gen;
	pthread_cond_signal(&c->ack);
	pthread_mutex_unlock(&c->mu);
}

static void *client_main(void *arg)
{
	struct ptb_client *c = arg;
	uint64_t seen = 0;

	/* Binding and init are not interruptible: the starter is waiting. */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);
	if (ptb_bind_self(c->topo, c->pu, c->err, sizeof c->err) < 0) {
		report_start(c, FAILED);
		return NULL;
	}
	ptb_binding_self(c->topo, c->binding, sizeof c->binding);
	if (!ptb_binding_is(c->binding, c->pu)) {
		snprintf(c->err, sizeof c->err, "bound to PU %d but reads back '%s'", c->pu,
			 c->binding);
		report_start(c, FAILED);
		return NULL;
	}
	if (c->ops->init)
		c->ops->init(c->arg);
	report_start(c, READY);

	pthread_cleanup_push(run_fini, c);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	for (;;) {
		uint64_t n = wait_release(c, &seen);
		if (c->ops->body)
			c->ops->body(c->arg, n);
		acknowledge(c, seen);
	}
	pthread_cleanup_pop(0);   /* not reached: the loop ends by cancellation */
	return NULL;
}

static void client_free(struct ptb_client *c)
{
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->go);
	pthread_cond_destroy(&c->ack);
	free(c);
}

static struct ptb_client *client_new(struct ptb_point *p, int pu,
				     const struct ptb_client_ops *ops, void *arg)
{
	struct ptb_client *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->ops = ops;
	c->arg = arg;
	c->topo = p->sys ? p->sys->topo : NULL;
	c->pu = pu;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->go, NULL);
	pthread_cond_init(&c->ack, NULL);
	return c;
}

int ptb_client_start(struct ptb_point *p, const struct ptb_client_ops *ops, void *arg)
{
	return ptb_client_start_on(p, p->pu_client, ops, arg);
}

int ptb_client_start_on(struct ptb_point *p, int pu, const struct ptb_client_ops *ops,
			void *arg)
{
	struct ptb_client *c;
	int rc;

	if (p->nclients >= PTB_MAX_CLIENTS) {
		ptb_point_error(p, "more than %d client threads", PTB_MAX_CLIENTS);
		return -1;
	}
	if (!p->sys || !p->sys->topo) {
		ptb_point_error(p, "client thread: no topology to bind it with");
		return -1;
	}
	if (!(c = client_new(p, pu, ops, arg))) {
		ptb_point_error(p, "client thread: out of memory");
		return -1;
	}
	if ((rc = pthread_create(&c->thread, NULL, client_main, c)) != 0) {
		ptb_point_error(p, "client thread: pthread_create: %s", strerror(rc));
		client_free(c);
		return -1;
	}
	pthread_mutex_lock(&c->mu);
	while (c->state == STARTING)
		pthread_cond_wait(&c->ack, &c->mu);
	pthread_mutex_unlock(&c->mu);
	if (c->state == FAILED) {
		pthread_join(c->thread, NULL);
		ptb_point_error(p, "binding a client thread: %s", c->err);
		client_free(c);
		return -1;
	}
	p->clients[p->nclients++] = c;
	if (p->nclient_bindings < PTB_MAX_CLIENTS)
		snprintf(p->binding_client[p->nclient_bindings++],
			 sizeof p->binding_client[0], "%s", c->binding);
	return 0;
}

const char *ptb_client_binding(const struct ptb_client *c)
{
	return c->binding;
}

void ptb_client_testcancel_slow(void)
{
	pthread_testcancel();
}

/* Returns once every client is awake and on its way into its body, so
 * that waking a sleeping thread -- tens of microseconds across PUs on a
 * VM -- happens before the clock starts, not inside the timing. */
void ptb_clients_release(struct ptb_point *p, uint64_t n)
{
	for (int i = 0; i < p->nclients; i++) {
		struct ptb_client *c = p->clients[i];
		pthread_mutex_lock(&c->mu);
		c->n = n;
		c->released++;
		pthread_cond_signal(&c->go);
		pthread_mutex_unlock(&c->mu);
	}
	for (int i = 0; i < p->nclients; i++) {
		struct ptb_client *c = p->clients[i];
		pthread_mutex_lock(&c->mu);
		while (c->started != c->released)
			pthread_cond_wait(&c->ack, &c->mu);
		pthread_mutex_unlock(&c->mu);
	}
}

void ptb_clients_wait(struct ptb_point *p)
{
	for (int i = 0; i < p->nclients; i++) {
		struct ptb_client *c = p->clients[i];
		pthread_mutex_lock(&c->mu);
		while (c->acked != c->released)
			pthread_cond_wait(&c->ack, &c->mu);
		pthread_mutex_unlock(&c->mu);
	}
}

void ptb_clients_cancel(struct ptb_point *p)
{
	for (int i = 0; i < p->nclients; i++) {
		struct ptb_client *c = p->clients[i];
		pthread_cancel(c->thread);
		pthread_join(c->thread, NULL);
		client_free(c);
		p->clients[i] = NULL;
	}
	p->nclients = 0;
}

int ptb_thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}
