/* test_connect_marks.c -- FreeRDP's TCP connect as the agent sees it: an armed thread hears
 * _connect() before it runs and the first getsockname() of that socket after it, once; an
 * unarmed thread hears nothing; both calls still do what libc's do. */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <winpr/winsock.h>

#include "compat/connect_marks.h"
#include "unit.h"

static int events[8], nevents;

static void on_tcp(void *arg, int connected)
{
    (void)arg;
    if (nevents < 8)
        events[nevents++] = connected;
}

/* A listening loopback socket; its address in *a. */
static int listener(struct sockaddr_in *a)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    socklen_t len = sizeof *a;
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CU_ASSERT_EQUAL_FATAL(bind(l, (struct sockaddr *)a, sizeof *a), 0);
    CU_ASSERT_EQUAL_FATAL(listen(l, 4), 0);
    CU_ASSERT_EQUAL_FATAL(getsockname(l, (struct sockaddr *)a, &len), 0);
    return l;
}

/** Armed: start, then connected at the first getsockname of that socket only. */
static void test_connect_marks__armed(void)
{
    struct sockaddr_in a, b;
    socklen_t len = sizeof b;
    int l = listener(&a), other = socket(AF_INET, SOCK_STREAM, 0), fd = socket(AF_INET, SOCK_STREAM, 0);
    nevents = 0;
    connect_marks_arm(on_tcp, NULL);
    CU_ASSERT_EQUAL(_connect((SOCKET)fd, (struct sockaddr *)&a, sizeof a), 0);
    CU_ASSERT_EQUAL(nevents, 1);
    CU_ASSERT_EQUAL(getsockname(other, (struct sockaddr *)&b, &len), 0);   /* another socket */
    CU_ASSERT_EQUAL(nevents, 1);
    len = sizeof b;
    CU_ASSERT_EQUAL(getsockname(fd, (struct sockaddr *)&b, &len), 0);
    CU_ASSERT_EQUAL(b.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
    len = sizeof b;
    CU_ASSERT_EQUAL(getsockname(fd, (struct sockaddr *)&b, &len), 0);
    connect_marks_disarm();
    CU_ASSERT_EQUAL_FATAL(nevents, 2);
    CU_ASSERT_EQUAL(events[0], 0);
    CU_ASSERT_EQUAL(events[1], 1);
    close(fd);
    close(other);
    close(l);
}

/** Unarmed (or disarmed): the calls work and tell nobody. */
static void test_connect_marks__unarmed(void)
{
    struct sockaddr_in a, b;
    socklen_t len = sizeof b;
    int l = listener(&a), fd = socket(AF_INET, SOCK_STREAM, 0);
    nevents = 0;
    CU_ASSERT_EQUAL(_connect((SOCKET)fd, (struct sockaddr *)&a, sizeof a), 0);
    CU_ASSERT_EQUAL(getsockname(fd, (struct sockaddr *)&b, &len), 0);
    CU_ASSERT_EQUAL(nevents, 0);
    close(fd);
    close(l);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_connect_marks__armed), UNIT_TEST(test_connect_marks__unarmed), UNIT_END,
    };
    return unit_run("connect_marks", tests, NULL, NULL);
}
