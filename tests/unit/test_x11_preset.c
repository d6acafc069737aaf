/* test_x11_preset.c -- external client presets: options, transport labels, command expansion
 * (placeholders, dropped words, quotes), JSON round trip for CONFIG, the ICA file. */
#include "unit.h"

#include "common/x11_preset.h"

#include <stdlib.h>
#include <string.h>

static char err[512];

static int make(struct x11_client *c, const char *const *kv)
{
    x11_client_init(c);
    for (int i = 0; kv[i]; i += 2)
        if (x11_client_set(c, kv[i], kv[i + 1], err, sizeof err) != 0)
            return -1;
    return x11_client_finish(c, err, sizeof err);
}

static const struct x11_vars vars = { .host = "10.0.0.5", .port = "3389", .user = "u01",
                                      .width = "800", .height = "600", .cert = "ignore",
                                      .passfile = "/d/passwd", .icafile = "/d/s.ica",
                                      .display = ":7", .dir = "/d" };

static int find(char **argv, const char *word)
{
    for (int i = 0; argv[i]; i++)
        if (!strcmp(argv[i], word))
            return i;
    return -1;
}

static void test_x11_preset__xfreerdp(void)
{
    struct x11_client c;
    char *argv[X11_ARGV_MAX + 1], label[64];
    const char *kv[] = { "x11", "xfreerdp", "resolution", "800x600", "args", "/gfx '/t:a b'", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&c, kv), 0);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "tcp");
    x11_client_label(&c, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "xfreerdp");
    CU_ASSERT_EQUAL(c.secret, X11_SECRET_STDIN);
    CU_ASSERT_EQUAL(c.width, 800);
    int n = x11_client_argv(&c, &vars, argv, X11_ARGV_MAX, err, sizeof err);
    CU_ASSERT_FATAL(n > 5);
    CU_ASSERT_STRING_EQUAL(argv[0], "xfreerdp");
    CU_ASSERT(find(argv, "/v:10.0.0.5:3389") > 0);
    CU_ASSERT(find(argv, "/u:u01") > 0);
    CU_ASSERT(find(argv, "/size:800x600") > 0);
    CU_ASSERT(find(argv, "/cert:ignore") > 0);
    CU_ASSERT(find(argv, "/from-stdin:force") > 0);
    CU_ASSERT(find(argv, "/t:a b") == n - 1);          /* quoted word of args, appended */
    for (int i = 0; argv[i]; i++) {                     /* empty {domain}, {security}: dropped */
        CU_ASSERT(strncmp(argv[i], "/d:", 3) != 0);
        CU_ASSERT(strncmp(argv[i], "/sec:", 5) != 0);
        CU_ASSERT(strstr(argv[i], "pass") == NULL);     /* never a password on argv */
    }
    x11_argv_free(argv);
}

static void test_x11_preset__transports(void)
{
    struct x11_client c;
    const char *edt[] = { "x11", "citrix", "transport", "edt", NULL };
    const char *bad[] = { "x11", "xfreerdp", "transport", "udp", NULL };
    const char *udp[] = { "x11", "vmware-view", "transport", "udp", NULL };
    const char *vnc[] = { "x11", "vncviewer", NULL };
    CU_ASSERT_EQUAL(make(&c, edt), 0);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "edt");
    CU_ASSERT_EQUAL(c.secret, X11_SECRET_ICA);
    CU_ASSERT_EQUAL(make(&c, bad), -1);
    CU_ASSERT(strstr(err, "not available with xfreerdp") != NULL);
    CU_ASSERT_EQUAL(make(&c, udp), 0);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "udp");
    CU_ASSERT_EQUAL(make(&c, vnc), 0);
    CU_ASSERT_EQUAL(c.secret, X11_SECRET_VNCPASSWD);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "tcp");
}

static void test_x11_preset__command_template(void)
{
    struct x11_client c;
    char *argv[X11_ARGV_MAX + 1], label[64], prog[64];
    const char *kv[] = { "x11", "/opt/my client/bin/rdc --to {host}:{port} -d {display}",
                         "password", "none", NULL };
    CU_ASSERT_EQUAL(make(&c, kv), 0);
    x11_client_label(&c, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "x11:my");       /* unquoted: the first word is /opt/my */
    x11_client_program(&c, prog, sizeof prog);
    CU_ASSERT_STRING_EQUAL(prog, "/opt/my");
    const char *quoted[] = { "x11", "'/opt/my client/rdc' {user}", NULL };
    CU_ASSERT_EQUAL(make(&c, quoted), 0);
    x11_client_program(&c, prog, sizeof prog);
    CU_ASSERT_STRING_EQUAL(prog, "/opt/my client/rdc");
    CU_ASSERT_EQUAL(x11_client_argv(&c, &vars, argv, X11_ARGV_MAX, err, sizeof err), 2);
    CU_ASSERT_STRING_EQUAL(argv[0], "/opt/my client/rdc");
    CU_ASSERT_STRING_EQUAL(argv[1], "u01");
    x11_argv_free(argv);
}

static void test_x11_preset__refused(void)
{
    struct x11_client c;
    const char *unknown[] = { "x11", "rdc {hots}", NULL };
    const char *quote[] = { "x11", "rdc 'open", NULL };
    const char *res[] = { "x11", "xfreerdp", "resolution", "10x10", NULL };
    const char *key[] = { "x11", "xfreerdp", "colour", "red", NULL };
    const char *pw[] = { "x11", "xfreerdp", "password", "none", NULL };
    const char *wt[] = { "x11", "xfreerdp", "window_timeout", "5", NULL };
    const char *none[] = { "transport", "tcp", NULL };
    CU_ASSERT_EQUAL(make(&c, unknown), -1);
    CU_ASSERT(strstr(err, "{hots}") != NULL);
    CU_ASSERT_EQUAL(make(&c, quote), -1);
    CU_ASSERT_EQUAL(make(&c, res), -1);
    CU_ASSERT_EQUAL(make(&c, key), -1);
    CU_ASSERT(strstr(err, "colour") != NULL);
    CU_ASSERT_EQUAL(make(&c, pw), -1);
    CU_ASSERT_EQUAL(make(&c, wt), -1);                  /* a duration needs its unit */
    CU_ASSERT_EQUAL(make(&c, none), -1);
    CU_ASSERT(strstr(err, "'x11' is missing") != NULL);
}

static void test_x11_preset__json_round_trip(void)
{
    struct x11_client a, b;
    const char *kv[] = { "x11", "citrix", "transport", "edt", "resolution", "1280x720",
                         "window_timeout", "45s", "args", "-x", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&a, kv), 0);
    char *j = x11_client_to_json(&a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(x11_client_from_json(&b, j, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    free(j);
    const char *tpl[] = { "x11", "rdc {host}", "password", "stdin", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&a, tpl), 0);
    j = x11_client_to_json(&a);
    CU_ASSERT_EQUAL(x11_client_from_json(&b, j, err, sizeof err), 0);
    CU_ASSERT_EQUAL(b.secret, X11_SECRET_STDIN);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    free(j);
    CU_ASSERT_EQUAL(x11_client_from_json(&b, "vncviewer", err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(b.preset, "vncviewer");
    CU_ASSERT_EQUAL(x11_client_from_json(&b, "{\"x11\":1}", err, sizeof err), -1);
    CU_ASSERT_EQUAL(x11_client_from_json(&b, "{\"x11\":\"xfreerdp\",\"window_timeout_ms\":\"9\"}",
                                         err, sizeof err), -1);
    CU_ASSERT_EQUAL(x11_client_from_json(&b, "{\"x11\":\"xfreerdp\"", err, sizeof err), -1);
}

/* fuzz_client: a CONFIG's client text with a newline came back raw in the agent's error. */
static void test_x11_preset__errors_one_line(void)
{
    struct x11_client c;
    char err[512];
    CU_ASSERT_EQUAL(x11_client_from_json(&c, "mycli 'unclosed\nx", err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unclosed\\x0ax"));
    CU_ASSERT_EQUAL(x11_client_from_json(&c, "{\"x11\":\"xfreerdp\",\"transport\":\"t\\u0001\"}", err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, 1));
    if (x11_client_from_json(&c, "{\"x11\":\"mycli {h\\u0001ost}\"}", err, sizeof err) == 0) {
        struct x11_vars v = { 0 };
        char *argv[X11_ARGV_MAX + 1];
        CU_ASSERT_EQUAL(x11_client_argv(&c, &v, argv, X11_ARGV_MAX, err, sizeof err), -1);
    }
    CU_ASSERT_PTR_NULL(strchr(err, 1));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "h\\x01ost"));
}

static void test_x11_preset__ica_file(void)
{
    struct x11_client c;
    char ica[2048];
    const char *edt[] = { "x11", "citrix", "transport", "edt", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&c, edt), 0);
    CU_ASSERT(x11_ica_file(&c, &vars, "s3cret", ica, sizeof ica) > 0);
    CU_ASSERT(strstr(ica, "Address=10.0.0.5:3389\r\n") != NULL);
    CU_ASSERT(strstr(ica, "HDXoverUDP=Preferred\r\n") != NULL);
    CU_ASSERT(strstr(ica, "ClearPassword=s3cret\r\n") != NULL);
    const char *tcp[] = { "x11", "citrix", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&c, tcp), 0);
    CU_ASSERT(x11_ica_file(&c, &vars, "s3cret", ica, sizeof ica) > 0);
    CU_ASSERT(strstr(ica, "HDXoverUDP=Off\r\n") != NULL);
    CU_ASSERT_EQUAL(x11_ica_file(&c, &vars, "s3cret", ica, 32), -1);
    /* a line break in a value would add a key of its own (an Address, a Launcher) */
    CU_ASSERT_EQUAL(x11_ica_file(&c, &vars, "pw\r\nAddress=evil:1494", ica, sizeof ica), -2);
    struct x11_vars bad = vars;
    bad.user = "u\nInitialProgram=cmd";
    CU_ASSERT_EQUAL(x11_ica_file(&c, &bad, "s3cret", ica, sizeof ica), -2);
    bad = vars;
    bad.domain = "d\r";
    CU_ASSERT_EQUAL(x11_ica_file(&c, &bad, "s3cret", ica, sizeof ica), -2);
}

/* The transport label of vmware-view and citrix comes from the preset and reaches the client:
 * vmware-view gets the UDP switch on its command line, citrix the ICA file's HDXoverUDP; a label
 * the preset does not know is refused, from a plan or from CONFIG's JSON. */
static void test_x11_preset__transport_from_preset(void)
{
    struct x11_client c;
    char *argv[X11_ARGV_MAX + 1], label[64], ica[2048];
    const char *vdef[] = { "x11", "vmware-view", NULL };
    const char *vudp[] = { "x11", "vmware-view", "transport", "udp", NULL };
    const char *vedt[] = { "x11", "vmware-view", "transport", "edt", NULL };
    const char *cudp[] = { "x11", "citrix", "transport", "udp", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&c, vdef), 0);
    x11_client_label(&c, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "vmware-view");
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "tcp");
    CU_ASSERT_FATAL(x11_client_argv(&c, &vars, argv, X11_ARGV_MAX, err, sizeof err) > 0);
    CU_ASSERT(find(argv, "--protocol=BLAST") > 0);
    CU_ASSERT(find(argv, "--enableUDP=FALSE") > 0);
    CU_ASSERT(find(argv, "--enableUDP=TRUE") < 0);
    x11_argv_free(argv);
    CU_ASSERT_EQUAL_FATAL(make(&c, vudp), 0);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "udp");
    CU_ASSERT_FATAL(x11_client_argv(&c, &vars, argv, X11_ARGV_MAX, err, sizeof err) > 0);
    CU_ASSERT(find(argv, "--enableUDP=TRUE") > 0);
    CU_ASSERT(find(argv, "--enableUDP=FALSE") < 0);
    x11_argv_free(argv);
    CU_ASSERT_EQUAL(make(&c, vedt), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not available with vmware-view (expected one of: tcp,udp)"));
    CU_ASSERT_EQUAL(x11_client_from_json(&c, "{\"x11\":\"vmware-view\",\"transport\":\"blast\"}", err,
                                         sizeof err), -1);
    CU_ASSERT_EQUAL_FATAL(x11_client_from_json(&c, "{\"x11\":\"vmware-view\",\"transport\":\"udp\"}",
                                               err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "udp");
    /* citrix: the label decides the ICA file, never the command line */
    const char *cdef[] = { "x11", "citrix", NULL };
    CU_ASSERT_EQUAL_FATAL(make(&c, cdef), 0);
    x11_client_label(&c, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "citrix");
    CU_ASSERT_STRING_EQUAL(x11_client_transport(&c), "tcp");
    CU_ASSERT_EQUAL_FATAL(x11_client_argv(&c, &vars, argv, X11_ARGV_MAX, err, sizeof err), 4);
    CU_ASSERT_STRING_EQUAL(argv[3], "/d/s.ica");
    x11_argv_free(argv);
    CU_ASSERT(x11_ica_file(&c, &vars, "pw", ica, sizeof ica) > 0);
    CU_ASSERT_PTR_NULL(strstr(ica, "HDXoverUDP=Preferred"));
    CU_ASSERT_EQUAL(make(&c, cudp), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not available with citrix (expected one of: tcp,edt)"));
    CU_ASSERT_EQUAL_FATAL(x11_client_from_json(&c, "{\"x11\":\"citrix\",\"transport\":\"edt\"}", err,
                                               sizeof err), 0);
    CU_ASSERT(x11_ica_file(&c, &vars, "pw", ica, sizeof ica) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ica, "[WFClient]\r\nVersion=2\r\nHDXoverUDP=Preferred\r\n"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x11_preset__xfreerdp),
        UNIT_TEST(test_x11_preset__transports),
        UNIT_TEST(test_x11_preset__command_template),
        UNIT_TEST(test_x11_preset__refused),
        UNIT_TEST(test_x11_preset__json_round_trip),
        UNIT_TEST(test_x11_preset__errors_one_line),
        UNIT_TEST(test_x11_preset__ica_file),
        UNIT_TEST(test_x11_preset__transport_from_preset),
        UNIT_END,
    };
    return unit_run("x11_preset", tests, NULL, NULL);
}
