/* test_rxstamp.c -- the kernel's receive time of a socket's first unread buffer
 * (agent/driver/rxstamp.h), on a loopback TCP pair: never later than now, now when nothing is
 * unread, and the peek consumes nothing. */
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/driver/rxstamp.h"
#include "common/clock.h"

static void test_rxstamp__from_age(void)
{
    CU_ASSERT_EQUAL(rxstamp_from_age(1000, 300), 700);
    CU_ASSERT_EQUAL(rxstamp_from_age(1000, 0), 1000);
    CU_ASSERT_EQUAL(rxstamp_from_age(1000, -5), 1000);      /* a stamp after now: a clock step */
    CU_ASSERT_EQUAL(rxstamp_from_age(1000, 5000), 0);
}

static void test_rxstamp__loopback(void)
{
    int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), a;
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof sa;
    CU_ASSERT_EQUAL_FATAL(bind(l, (struct sockaddr *)&sa, sizeof sa), 0);
    CU_ASSERT_EQUAL_FATAL(listen(l, 1), 0);
    CU_ASSERT_EQUAL_FATAL(getsockname(l, (struct sockaddr *)&sa, &len), 0);
    CU_ASSERT_EQUAL_FATAL(connect(c, (struct sockaddr *)&sa, sizeof sa), 0);
    CU_ASSERT_FATAL((a = accept(l, NULL, NULL)) >= 0);
    CU_ASSERT_EQUAL(rxstamp_enable(c), 0);
    uint64_t now = clock_now_us();
    CU_ASSERT_EQUAL(rxstamp_ready_us(c, now), now);          /* nothing unread */
    uint64_t before = clock_now_us();
    CU_ASSERT_EQUAL(write(a, "hello", 5), 5);
    usleep(2000);
    now = clock_now_us();
    uint64_t ready = rxstamp_ready_us(c, now);
    CU_ASSERT(ready <= now);
    CU_ASSERT(ready < now && ready + 1000 >= before);        /* stamped: older than now, not before the write (1 ms slack for clocks) */
    char buf[8];
    CU_ASSERT_EQUAL(read(c, buf, sizeof buf), 5);             /* the peek consumed nothing */
    CU_ASSERT_EQUAL(rxstamp_ready_us(-1, now), now);
    close(a);
    close(c);
    close(l);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_rxstamp__from_age),
        UNIT_TEST(test_rxstamp__loopback),
        UNIT_END,
    };
    return unit_run("rxstamp", tests, NULL, NULL);
}
