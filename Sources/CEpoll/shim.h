#ifndef LANES_CEPOLL_SHIM_H
#define LANES_CEPOLL_SHIM_H

/* The runner wakes on any board's storage reports: one epoll descriptor over them all (#27).
   Glibc's Swift module does not include <sys/epoll.h>, and struct epoll_event is packed on
   x86_64, so the descriptor is made and filled here, in C. */
#include <sys/epoll.h>

static inline int lanes_wake_epoll(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int lanes_wake_epoll_add(int ep, int fd) {
    struct epoll_event ev;
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

#endif
