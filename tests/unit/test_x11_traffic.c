/* test_x11_traffic.c -- another process's TCP counters read through sockets borrowed with its
 * pidfd: a child connects to a loopback listener of the test and exchanges known byte counts;
 * the sockets are found once, then read without listing /proc again until the child closes one. */
#include "unit.h"

#include "agent/x11/traffic.h"

#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENT 30000
#define ECHOED 70000
#define MORE 50000

static char buf[ECHOED];

static int listener(struct sockaddr_in *a)
{
    socklen_t len = sizeof *a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    *a = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof *a) != 0 || listen(fd, 1) != 0 ||
        getsockname(fd, (struct sockaddr *)a, &len) != 0)
        return -1;
    return fd;
}

static int read_n(int fd, size_t want)
{
    for (size_t got = 0; got < want;) {
        ssize_t n = read(fd, buf, want - got < sizeof buf ? want - got : sizeof buf);
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

static int connect_to(const struct sockaddr_in *a)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    return fd >= 0 && connect(fd, (const struct sockaddr *)a, sizeof *a) == 0 ? fd : -1;
}

/* Child: connect, send SENT bytes, read ECHOED bytes, say "k"; read MORE, say "k"; then close
 * that connection, open a second one, say "n" on it and wait to be killed. */
static void client(const struct sockaddr_in *a)
{
    int fd = connect_to(a);
    memset(buf, 'x', sizeof buf);
    if (fd < 0 || write(fd, buf, SENT) != SENT || read_n(fd, ECHOED) || write(fd, "k", 1) != 1 ||
        read_n(fd, MORE) || write(fd, "k", 1) != 1 || read_n(fd, 1))
        _exit(1);
    close(fd);
    if ((fd = connect_to(a)) < 0 || write(fd, "n", 1) != 1)
        _exit(1);
    pause();
    _exit(0);
}

static void test_x11_traffic__held_socket(void)
{
    struct sockaddr_in a;
    int lfd = listener(&a);
    CU_ASSERT_FATAL(lfd >= 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        close(lfd);
        client(&a);
    }
    int cfd = accept(lfd, NULL, NULL);
    CU_ASSERT_FATAL(cfd >= 0);
    CU_ASSERT_FATAL(read_n(cfd, SENT) == 0);
    memset(buf, 'y', sizeof buf);
    CU_ASSERT_EQUAL(write(cfd, buf, ECHOED), ECHOED);
    CU_ASSERT_EQUAL(read(cfd, buf, 1), 1);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    CU_ASSERT_FATAL(pidfd >= 0);
    struct x11_traffic h;
    x11_traffic_init(&h);
    struct rec_traffic t = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &t), 1);
    CU_ASSERT_EQUAL(h.searches, 1);
    CU_ASSERT(t.wire_out >= SENT && t.wire_out < SENT + 100);   /* acked by the test */
    CU_ASSERT(t.wire_in >= ECHOED && t.wire_in < ECHOED + 100);
    CU_ASSERT(t.data_segs_out > 0 && t.data_segs_in > 0);

    /* more traffic: read from the held socket, no second search */
    CU_ASSERT_EQUAL(write(cfd, buf, MORE), MORE);
    CU_ASSERT_EQUAL(read(cfd, buf, 1), 1);
    struct rec_traffic t2 = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &t2), 1);
    CU_ASSERT_EQUAL(h.searches, 1);
    CU_ASSERT(t2.wire_in >= ECHOED + MORE && t2.wire_in < ECHOED + MORE + 100);

    /* the child closes its connection and opens another: ours must not hold the first one up
     * (the test sees its end), and the new one is found by a second search */
    CU_ASSERT_EQUAL(write(cfd, "g", 1), 1);
    int nfd = accept(lfd, NULL, NULL);
    CU_ASSERT_FATAL(nfd >= 0);
    CU_ASSERT_EQUAL(read(nfd, buf, 1), 1);
    struct rec_traffic t3 = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &t3), 1);
    CU_ASSERT_EQUAL(h.searches, 2);
    CU_ASSERT(t3.wire_out >= 1 && t3.wire_out < 100);
    CU_ASSERT_EQUAL(read(cfd, buf, 1), 0);         /* the first connection is closed */

    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    struct rec_traffic gone = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &gone), -1);   /* reaped: no /proc entry */
    CU_ASSERT_EQUAL(gone.wire_in, 0);
    CU_ASSERT_EQUAL(h.n, 0);
    x11_traffic_close(&h);
    close(pidfd);
    close(nfd);
    close(cfd);
    close(lfd);
}

/* A process with no TCP socket: nothing read, not an error, and searched again next time. */
static void test_x11_traffic__no_socket(void)
{
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        pause();
        _exit(0);
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    struct x11_traffic h;
    x11_traffic_init(&h);
    struct rec_traffic t = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &t), 0);
    CU_ASSERT_EQUAL(x11_traffic_read(&h, pid, pidfd, &t), 0);
    CU_ASSERT_EQUAL(h.searches, 2);
    CU_ASSERT_EQUAL(t.wire_in + t.wire_out, 0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(pidfd);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x11_traffic__held_socket),
        UNIT_TEST(test_x11_traffic__no_socket),
        UNIT_END,
    };
    return unit_run("x11_traffic", tests, NULL, NULL);
}
