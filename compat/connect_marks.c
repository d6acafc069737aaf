/* connect_marks.c -- FreeRDP's TCP connect, start and end (contract and why: connect_marks.h). */
#include "compat/connect_marks.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sys/socket.h>

#include <winpr/winsock.h>

static _Thread_local void (*armed_cb)(void *arg, int connected);
static _Thread_local void *armed_arg;
static _Thread_local long armed_fd = -1;      /* the socket of the last _connect() */

static int (*real_connect)(SOCKET, const struct sockaddr *, int);
static int (*real_getsockname)(int, __SOCKADDR_ARG, socklen_t *__restrict);
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
    real_connect = (int (*)(SOCKET, const struct sockaddr *, int))dlsym(RTLD_NEXT, "_connect");
    real_getsockname = (int (*)(int, __SOCKADDR_ARG, socklen_t *__restrict))dlsym(RTLD_NEXT, "getsockname");
}

void connect_marks_arm(void (*on_tcp)(void *arg, int connected), void *arg)
{
    armed_cb = on_tcp;
    armed_arg = arg;
    armed_fd = -1;
}

void connect_marks_disarm(void)
{
    armed_cb = NULL;
    armed_arg = NULL;
    armed_fd = -1;
}

int _connect(SOCKET s, const struct sockaddr *name, int namelen)
{
    pthread_once(&resolve_once, resolve);
    if (armed_cb) {
        armed_fd = (long)s;
        armed_cb(armed_arg, 0);
    }
    if (real_connect)
        return real_connect(s, name, namelen);
    return connect((int)s, name, (socklen_t)namelen);
}

int getsockname(int fd, __SOCKADDR_ARG addr, socklen_t *__restrict len)
{
    pthread_once(&resolve_once, resolve);
    if (armed_cb && armed_fd >= 0 && fd == armed_fd) {
        armed_fd = -1;
        armed_cb(armed_arg, 1);
    }
    if (!real_getsockname) {
        errno = ENOSYS;
        return -1;
    }
    return real_getsockname(fd, addr, len);
}
