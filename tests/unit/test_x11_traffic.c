/* test_x11_traffic.c -- another process's TCP counters read through its pidfd: a child connects
 * to a loopback listener of the test and exchanges known byte counts. */
#include "unit.h"

#include "agent/x11_traffic.h"

#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENT 30000
#define ECHOED 70000

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

/* Child: connect, send SENT bytes, read ECHOED bytes, then wait to be killed. */
static void client(const struct sockaddr_in *a)
{
    static char buf[ECHOED];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (const struct sockaddr *)a, sizeof *a) != 0)
        _exit(1);
    memset(buf, 'x', sizeof buf);
    if (write(fd, buf, SENT) != SENT)
        _exit(1);
    for (size_t got = 0; got < ECHOED;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            _exit(1);
        got += (size_t)n;
    }
    if (write(fd, "k", 1) != 1)        /* tells the test everything arrived */
        _exit(1);
    pause();
    _exit(0);
}

static void test_x11_traffic__child_socket(void)
{
    static char buf[ECHOED];
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
    size_t got = 0;
    while (got < SENT) {
        ssize_t n = read(cfd, buf, sizeof buf);
        CU_ASSERT_FATAL(n > 0);
        got += (size_t)n;
    }
    memset(buf, 'y', sizeof buf);
    CU_ASSERT_EQUAL(write(cfd, buf, ECHOED), ECHOED);
    CU_ASSERT_EQUAL(read(cfd, buf, 1), 1);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    CU_ASSERT_FATAL(pidfd >= 0);
    struct rec_traffic t = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_sample(pid, pidfd, &t), 1);
    CU_ASSERT(t.wire_out >= SENT && t.wire_out < SENT + 100);   /* acked by the test */
    CU_ASSERT(t.wire_in >= ECHOED && t.wire_in < ECHOED + 100);
    CU_ASSERT(t.data_segs_out > 0 && t.data_segs_in > 0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    struct rec_traffic gone = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_sample(pid, pidfd, &gone), -1);   /* reaped: no /proc entry */
    CU_ASSERT_EQUAL(gone.wire_in, 0);
    close(pidfd);
    close(cfd);
    close(lfd);
}

/* A process with no TCP socket: nothing read, not an error. */
static void test_x11_traffic__no_socket(void)
{
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        pause();
        _exit(0);
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    struct rec_traffic t = { 0 };
    CU_ASSERT_EQUAL(x11_traffic_sample(pid, pidfd, &t), 0);
    CU_ASSERT_EQUAL(t.wire_in + t.wire_out, 0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(pidfd);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x11_traffic__child_socket),
        UNIT_TEST(test_x11_traffic__no_socket),
        UNIT_END,
    };
    return unit_run("x11_traffic", tests, NULL, NULL);
}
