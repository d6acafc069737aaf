/* summary_evidence.c -- failed and stuck sessions with their evidence, logon counts (see .h). */
#include "controller/score/summary_evidence.h"
#include "controller/score/textesc.h"
#include "controller/score/summary_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"

#define SCREEN_MARK "; screen "

void summary_split_screen(char *detail, char *screen, size_t len)
{
    char *m = strstr(detail, SCREEN_MARK);
    if (!m)
        return;
    snprintf(screen, len, "%s", m + strlen(SCREEN_MARK));
    *m = '\0';
}

static void split_screen(struct summary_failure *f)
{
    summary_split_screen(f->detail, f->screen, sizeof f->screen);
}

static void count_logon(const struct store_session_row *r, struct summary *s)
{
    unsigned repaints = 0, retries = 0;
    if (r->logon_us < 0)
        return;
    const char *d = strstr(r->detail, "repaint requests: ");
    if (d)
        sscanf(d, "repaint requests: %u, logon retries: %u", &repaints, &retries);
    s->repaint_requests += repaints;
    if (retries)
        s->logon_retried++;
    else if (repaints)
        s->logon_repainted++;
    else
        s->logon_first_try++;
}

int summary_evidence(const struct summary_input *in, struct summary *s)
{
    s->failures = calloc(in->session_count ? in->session_count : 1, sizeof *s->failures);
    if (!s->failures)
        return -1;
    for (size_t i = 0; i < in->session_count; i++) {
        const struct store_session_row *r = &in->sessions[i];
        count_logon(r, s);
        int failed = !strcmp(r->state, "failed"), never = r->logon_us < 0 && r->active_us == 0;
        if (!failed && !never)
            continue;
        if (failed && never && !strcmp(r->reason, "aborted"))
            continue;                  /* cut short by the end of the run, not stuck */
        struct summary_failure *f = &s->failures[s->failure_count++];
        f->session = r->index;
        f->stuck = never;
        f->t_us = r->end_us ? r->end_us : r->launch_us;
        snprintf(f->user, sizeof f->user, "%s", r->user);
        snprintf(f->reason, sizeof f->reason, "%s", failed ? r->reason : "never active");
        snprintf(f->detail, sizeof f->detail, "%s", r->detail);
        split_screen(f);
    }
    return 0;
}

void summary_evidence_print(FILE *o, const struct summary *s, const char *shots)
{
    if (!s->failure_count)
        return;
    fprintf(o, "\nfailed or stuck sessions (%zu)%s%s\n", s->failure_count, shots[0] ? "; screens in " : "", shots);
    for (size_t i = 0; i < s->failure_count; i++) {
        const struct summary_failure *f = &s->failures[i];
        char when[32] = "-";
        if (f->t_us)
            clock_format_utc(f->t_us, "%H:%M:%S UTC", when, sizeof when);
        char user[256], reason[256], screen[512], detail[1024];
        fprintf(o, "  %-16s %-16s %s%s  screen: %s  (%s)\n", textesc(user, sizeof user, f->user, TEXTESC_LINE),
                textesc(reason, sizeof reason, f->reason, TEXTESC_LINE), when, f->stuck ? " stuck" : "",
                textesc(screen, sizeof screen, f->screen[0] ? f->screen : "none", TEXTESC_LINE),
                textesc(detail, sizeof detail, f->detail, TEXTESC_LINE));
    }
}
