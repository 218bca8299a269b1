/* SPDX-License-Identifier: MIT */
/*
 * Lifelines: every rank holds a TCP connection to rank 0, outside MPI.
 * The kernel closes it when the rank's process ends however it ends, even
 * by SIGKILL, so rank 0 learns at once which rank died -- MPI itself (no
 * fault tolerance) does not say, and the launcher, which does, answers by
 * ending rank 0 too.  A rank that ends on purpose (a failure it has said,
 * the launcher's SIGTERM, the job's end) first writes one byte on its
 * lifeline; a lifeline that closes without it is a rank that died, and
 * rank 0 says so in one line naming the rank and its host, keeps the file
 * as incomplete and ends the job (exit 2 from the ranks; the launcher's
 * own status is its own).  Where a rank cannot reach rank 0 by TCP within
 * 2 s it has no lifeline, and its death is named by the launcher alone.
 */
#include "config.h"
#include "cluster/cluster.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CONNECT_MS 2000
#define HOST_LEN 64
#define UNREAD_WAIT_MS 5000

static int mine = -1;                  /* a rank's end of its lifeline */
static struct pollfd *lines;           /* rank 0: lines[r] is rank r's */
static char (*hosts)[HOST_LEN];        /* rank 0: each rank's host */
static _Atomic int died = -1;          /* rank 0: the rank found dead */
static _Atomic bool *said;             /* rank 0: said[r], rank r's byte came */

/* A connected socket to host:port within CONNECT_MS, or -1. */
static int dial(const char *host, int port)
{
	struct addrinfo hint = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai = NULL;
	char service[16];
	snprintf(service, sizeof service, "%d", port);
	if (getaddrinfo(host, service, &hint, &ai) != 0 || !ai)
		return -1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int rc = fd < 0 ? -1 : connect(fd, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (fd >= 0 && rc != 0 && errno == EINPROGRESS) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int err = 0;
		socklen_t len = sizeof err;
		if (poll(&p, 1, CONNECT_MS) == 1 &&
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
			rc = 0;
	}
	if (rc != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* Rank 0: the lifelines' ends; a closed one without its byte is a death. */
static void *watch_lines(void *arg)
{
	struct ptb_cl *c = arg;
	int n = c->size;
	for (;;) {
		if (poll(lines, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int r = 1; r < n; r++) {
			char buf[16];
			if (lines[r].fd < 0 || !lines[r].revents)
				continue;
			ssize_t got = read(lines[r].fd, buf, sizeof buf);
			if (got > 0) {
				atomic_store(&said[r], true);
				continue;
			}
			if (got < 0 && errno == EINTR)
				continue;
			close(lines[r].fd);
			lines[r].fd = -1;
			if (atomic_load(&said[r]))
				continue;
			atomic_store(&died, r);
			ptb_cl_fail(c, "rank %d (%s) died: its process ended without a word (killed or "
				    "crashed)%s", r, hosts[r], c->doc && c->out ?
				    "; the finished figures are kept, marked incomplete" : "");
		}
	}
	return NULL;
}

/* Rank 0 takes the connections the ranks say they made, each naming its
 * rank in its first 4 bytes. */
static void accept_lines(struct ptb_cl *c, int lsn, const int *made)
{
	for (int r = 0; r < c->size; r++)   /* (poll skips a negative fd) */
		lines[r].fd = -1;
	int want = 0;
	for (int r = 1; r < c->size; r++)
		want += made[r];
	struct pollfd p = { .fd = lsn, .events = POLLIN };
	for (int k = 0; k < want && poll(&p, 1, CONNECT_MS) == 1; k++) {
		int fd = accept4(lsn, NULL, NULL, SOCK_CLOEXEC);
		int32_t who = -1;
		struct pollfd q = { .fd = fd, .events = POLLIN };
		if (fd >= 0 && poll(&q, 1, CONNECT_MS) == 1 && read(fd, &who, sizeof who) == sizeof who &&
		    who > 0 && who < c->size && lines[who].fd < 0) {
			lines[who].fd = fd;
			lines[who].events = POLLIN;
		} else if (fd >= 0) {
			close(fd);
		}
	}
}

void ptb_cl_lifelines_open(struct ptb_cl *c)
{
	int port = 0, lsn = -1;
	char host0[HOST_LEN], me[HOST_LEN] = "";
	snprintf(me, sizeof me, "%.*s", HOST_LEN - 1, c->host);
	ptb_cl_watch_arm("opening the lifelines");
	if (c->rank == 0) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
		socklen_t len = sizeof a;
		lsn = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (lsn >= 0 && bind(lsn, (struct sockaddr *)&a, sizeof a) == 0 &&
		    listen(lsn, c->size) == 0 && getsockname(lsn, (struct sockaddr *)&a, &len) == 0)
			port = ntohs(a.sin_port);
		lines = calloc((size_t)c->size, sizeof *lines);
		hosts = calloc((size_t)c->size, sizeof *hosts);
		said = calloc((size_t)c->size, sizeof *said);
		if (!lines || !hosts || !said)
			ptb_cl_fail(c, "rank 0 (%s): out of memory", c->host);
	}
	snprintf(host0, sizeof host0, "%.*s", HOST_LEN - 1, c->host);
	MPI_Bcast(&port, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(host0, HOST_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Gather(me, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
	int made = 0, *all = c->rank == 0 ? calloc((size_t)c->size, sizeof *all) : NULL;
	if (c->rank != 0 && port > 0) {
		/* on rank 0's host, the loopback: no name to resolve */
		mine = dial(strcmp(host0, c->host) ? host0 : "127.0.0.1", port);
		int32_t who = c->rank;
		if (mine >= 0 && write(mine, &who, sizeof who) != sizeof who) {
			close(mine);
			mine = -1;
		}
		made = mine >= 0;
	}
	MPI_Gather(&made, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (c->rank == 0 && port > 0) {
		pthread_t t;
		accept_lines(c, lsn, all);
		if (pthread_create(&t, NULL, watch_lines, c) == 0)
			pthread_detach(t);
	}
	if (lsn >= 0)
		close(lsn);
	free(all);
	/* every lifeline is in place before any rank may end */
	MPI_Barrier(MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
}

void ptb_cl_lifeline_bye(void)
{
	if (mine >= 0)
		send(mine, "q", 1, MSG_NOSIGNAL);
}

/* Rank 0: a lifeline whose end came without its byte and that the
 * watcher has not yet read (peeked, not taken). */
static bool unread_end(int n)
{
	for (int r = 1; r < n; r++) {
		char b;
		int fd = lines[r].fd;
		if (fd >= 0 && !atomic_load(&said[r]) && recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
			return true;
	}
	return false;
}

bool ptb_cl_lifeline_death_pending(const struct ptb_cl *c, int wait_ms)
{
	if (!lines)
		return false;
	/* wait_ms for the watcher; longer (up to UNREAD_WAIT_MS) while a
	 * lifeline's end is there to read: a launcher ends the job only after
	 * it saw a rank die, so that rank's end is already here, and a watcher
	 * starved of CPU on a loaded machine must still be the one to name it */
	for (int i = 0; atomic_load(&died) < 0 && i < UNREAD_WAIT_MS / 10; i++) {
		if (i >= wait_ms / 10 && !unread_end(c->size))
			break;
		usleep(10000);
	}
	return atomic_load(&died) >= 0;
}
