/* test_hostport.c -- the one HOST:PORT splitter used by the agent, the link, plans and simhost;
 * the free loopback port of demo and the benches. */
#include "unit.h"

#include "common/hostport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void test_hostport__split(void)
{
    char host[16];
    uint16_t port = 1;
    CU_ASSERT_EQUAL(hostport_split("127.0.0.1:3390", 0, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(host, "127.0.0.1");
    CU_ASSERT_EQUAL(port, 3390);
    CU_ASSERT_EQUAL(hostport_split("[::1]:0", 0, host, sizeof host, &port), 0);   /* last colon */
    CU_ASSERT_STRING_EQUAL(host, "[::1]");
    CU_ASSERT_EQUAL(port, 0);
}

static void test_hostport__default_port(void)
{
    char host[16];
    uint16_t port = 0;
    CU_ASSERT_EQUAL(hostport_split("rds01", 3389, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(host, "rds01");
    CU_ASSERT_EQUAL(port, 3389);
    CU_ASSERT_EQUAL(hostport_split("rds01", 0, host, sizeof host, &port), -1);
}

static void test_hostport__refused(void)
{
    char host[8];
    uint16_t port;
    const char *bad[] = { ":3389", "h:", "h:x", "h:65536", "h:-1", "h:12a", "longerthan8:1", NULL };
    for (int i = 0; bad[i]; i++)
        CU_ASSERT_EQUAL(hostport_split(bad[i], 3389, host, sizeof host, &port), -1);
    CU_ASSERT_EQUAL(hostport_split(NULL, 3389, host, sizeof host, &port), -1);
    CU_ASSERT_EQUAL(hostport_split("h:65535", 0, host, sizeof host, &port), 0);
    CU_ASSERT_EQUAL(port, 65535);
}

/* The free loopback port is one a listener can take right after. */
static void test_hostport__free_loopback(void)
{
    int port = hostport_free_loopback();
    CU_ASSERT_TRUE(port > 0 && port <= 65535);
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CU_ASSERT_EQUAL(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
    close(fd);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_hostport__split), UNIT_TEST(test_hostport__default_port),
        UNIT_TEST(test_hostport__refused), UNIT_TEST(test_hostport__free_loopback), UNIT_END,
    };
    return unit_run("hostport", tests, NULL, NULL);
}
