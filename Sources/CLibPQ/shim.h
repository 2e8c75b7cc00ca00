#ifndef LANES_CLIBPQ_SHIM_H
#define LANES_CLIBPQ_SHIM_H

/* Debian's libpq-dev puts the header in /usr/include/postgresql (pkg-config libpq says so). */
#include <postgresql/libpq-fe.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* epoll_event is packed on x86-64: set it up in C. Level-triggered, readable only. */
static inline int lanes_epoll_add(int ep, int fd) {
    struct epoll_event ev;
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static inline int lanes_epoll_del(int ep, int fd) {
    struct epoll_event ev;
    ev.events = 0;
    ev.data.fd = fd;
    return epoll_ctl(ep, EPOLL_CTL_DEL, fd, &ev);
}

/* The server's NOTICEs and WARNINGs ("already exists, skipping" during a migration) are not for
   the user: libpq's default prints them to stderr, which would write over the board's screen. */
static void lanes_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

static inline void lanes_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, lanes_ignore_notice, NULL);
}

#endif
