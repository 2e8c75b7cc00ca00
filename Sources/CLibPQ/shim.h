#ifndef LANES_CLIBPQ_SHIM_H
#define LANES_CLIBPQ_SHIM_H

/* Debian's libpq-dev puts the header in /usr/include/postgresql (pkg-config libpq says so). */
#include <postgresql/libpq-fe.h>
#include <poll.h>

#endif
