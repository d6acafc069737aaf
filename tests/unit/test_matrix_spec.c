/* test_matrix_spec.c -- --vary parsing, the order of cells, cell tags and their parsing, the
 * matrix's identity, platform targets. */
#include "unit.h"

#include "controller/run/matrix_spec.h"

#include <string.h>

static char err[512];

static void test_matrix_spec__vary_errors(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL(s.repeat, 1);
    static const struct { const char *vary, *says; } bad[] = {   /* says: NULL, or part of the error */
        { "codec=a,b",           "platform, transport, client, network, sessions" },
        { "network",             NULL },
        { "network=",            NULL },
        { "network=lan,,wan",    NULL },
        { "network=lan,",        NULL },
        { "network=lan,lan",     "listed twice" },
        { "network=a b",         NULL },
        { "network={x: 1}",      NULL },
        { "client=x11@y",        NULL },
        { "sessions=0",          NULL },
        { "sessions=100001",     NULL },
        { "sessions=07",         NULL },
        { "sessions=ten",        NULL },
        { "platform=@host",      NULL },
        { "platform=ws@",        NULL },
        { "platform=ws@h:0",     NULL },
        { "platform=ws@h:70000", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(matrix_spec_add_vary(&s, bad[i].vary, err, sizeof err), -1);
        if (bad[i].says)
            CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].says));
    }
    CU_ASSERT_EQUAL(s.naxes, 0);
    CU_ASSERT_EQUAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    CU_ASSERT_EQUAL(matrix_spec_add_vary(&s, "network=lan", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "given twice"));
    CU_ASSERT_EQUAL(s.naxes, 1);
}

/* The last --vary changes fastest; tags list keys in key order whatever the --vary order. */
/* fuzz_matrix: a control character in --vary or --cell came back raw and broke the error line. */
static void test_matrix_spec__errors_one_line(void)
{
    struct matrix_spec s;
    struct matrix_tag t;
    char err[512];
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL(matrix_spec_add_vary(&s, "plat\nform=a", err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "plat\\x0aform"));
    CU_ASSERT_EQUAL(matrix_spec_add_vary(&s, "network=a,b\x7f", err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, 0x7f));
    CU_ASSERT_EQUAL(matrix_tag_parse("platform=ws,net\x7fwork=wan", &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, 0x7f));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "net\\x7fwork"));
    CU_ASSERT_EQUAL(matrix_tag_parse("network=a\r", &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, '\r'));
}

static void test_matrix_spec__cells_and_tags(void)
{
    struct matrix_spec s;
    struct matrix_cell c;
    char tag[MATRIX_TAG_LEN];
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL(matrix_spec_cells(&s), 1);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "platform=ws2022@10.0.0.5:3390,xrdp,sim@[::1]:3391", err, sizeof err), 0);
    CU_ASSERT_EQUAL(matrix_spec_cells(&s), 6);
    matrix_spec_cell(&s, 0, &c);
    matrix_cell_tag(&s, &c, tag, sizeof tag);
    CU_ASSERT_STRING_EQUAL(tag, "platform=ws2022@10.0.0.5:3390,network=lan");
    matrix_spec_cell(&s, 1, &c);
    matrix_cell_tag(&s, &c, tag, sizeof tag);
    CU_ASSERT_STRING_EQUAL(tag, "platform=xrdp,network=lan");
    matrix_spec_cell(&s, 5, &c);
    matrix_cell_tag(&s, &c, tag, sizeof tag);
    CU_ASSERT_STRING_EQUAL(tag, "platform=sim@[::1]:3391,network=wan-100ms");
    CU_ASSERT_STRING_EQUAL(matrix_cell_value(&s, &c, MATRIX_NETWORK), "wan-100ms");
    CU_ASSERT_PTR_NULL(matrix_cell_value(&s, &c, MATRIX_SESSIONS));
    /* every cell has its own tag */
    char tags[6][MATRIX_TAG_LEN];
    for (size_t i = 0; i < 6; i++) {
        matrix_spec_cell(&s, i, &c);
        CU_ASSERT_EQUAL(c.index, i);
        matrix_cell_tag(&s, &c, tags[i], sizeof tags[i]);
        for (size_t j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(tags[i], tags[j]);
    }
}

static void test_matrix_spec__tag_parse(void)
{
    struct matrix_tag t;
    CU_ASSERT_EQUAL_FATAL(matrix_tag_parse("platform=sim@[::1]:3391,network=wan-100ms,sessions=4", &t, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(t.value[MATRIX_PLATFORM], "sim@[::1]:3391");
    CU_ASSERT_STRING_EQUAL(t.value[MATRIX_NETWORK], "wan-100ms");
    CU_ASSERT_STRING_EQUAL(t.value[MATRIX_SESSIONS], "4");
    CU_ASSERT_PTR_NULL(t.value[MATRIX_TRANSPORT]);
    CU_ASSERT_PTR_NULL(t.value[MATRIX_CLIENT]);
    CU_ASSERT_EQUAL(matrix_tag_parse("", &t, err, sizeof err), 0);   /* the cell of a matrix with no axis */
    CU_ASSERT_PTR_NULL(t.value[MATRIX_NETWORK]);
    CU_ASSERT_EQUAL(matrix_tag_parse("network=lan,network=wan", &t, err, sizeof err), -1);
    CU_ASSERT_EQUAL(matrix_tag_parse("codec=rfx", &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "codec=rfx"));
    CU_ASSERT_EQUAL(matrix_tag_parse("network", &t, err, sizeof err), -1);
    CU_ASSERT_EQUAL(matrix_tag_parse("network=", &t, err, sizeof err), -1);
    CU_ASSERT_EQUAL(matrix_tag_parse("sessions=x", &t, err, sizeof err), -1);
}

static void test_matrix_spec__id_and_platform(void)
{
    struct matrix_spec s;
    char id[512], label[64], host[64];
    uint16_t port;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "sessions=2,4", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=builtin,xfreerdp", err, sizeof err), 0);
    s.repeat = 3;
    matrix_spec_id(&s, "abc123", id, sizeof id);
    CU_ASSERT_STRING_EQUAL(id, "plan=abc123 sessions=2,4 client=builtin,xfreerdp repeat=3");
    CU_ASSERT_EQUAL(matrix_platform_split("ws2022@10.0.0.5:3390", label, sizeof label, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(label, "ws2022");
    CU_ASSERT_STRING_EQUAL(host, "10.0.0.5");
    CU_ASSERT_EQUAL(port, 3390);
    CU_ASSERT_EQUAL(matrix_platform_split("sim@[::1]:3391", label, sizeof label, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(host, "::1");
    CU_ASSERT_EQUAL(port, 3391);
    CU_ASSERT_EQUAL(matrix_platform_split("xrdp@rdp01.lab", label, sizeof label, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(host, "rdp01.lab");
    CU_ASSERT_EQUAL(port, 0);
    CU_ASSERT_EQUAL(matrix_platform_split("xrdp", label, sizeof label, host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(label, "xrdp");
    CU_ASSERT_STRING_EQUAL(host, "");
    CU_ASSERT_EQUAL(matrix_platform_split("xrdp@h:x", label, sizeof label, host, sizeof host, &port), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_matrix_spec__vary_errors),
        UNIT_TEST(test_matrix_spec__errors_one_line),
        UNIT_TEST(test_matrix_spec__cells_and_tags),
        UNIT_TEST(test_matrix_spec__tag_parse),
        UNIT_TEST(test_matrix_spec__id_and_platform),
        UNIT_END,
    };
    return unit_run("matrix_spec", tests, NULL, NULL);
}
