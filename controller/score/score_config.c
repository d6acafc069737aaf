/* score_config.c -- the plan's `score:` and `thresholds:` sections, and their JSON form. */
#include "controller/score/score_config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/score_rule_plan.h"
#include "controller/score/jsonv.h"

void score_config_init(struct score_config *c)
{
    memset(c, 0, sizeof *c);
    score_params_default(&c->params);
}

void score_config_free(struct score_config *c)
{
    free(c->thresholds);
    c->thresholds = NULL;
    c->threshold_count = 0;
}

static int add_threshold(struct score_config *c, const struct threshold *t)
{
    struct threshold *n = realloc(c->thresholds, (c->threshold_count + 1) * sizeof *n);
    if (!n)
        return -1;
    c->thresholds = n;
    c->thresholds[c->threshold_count++] = *t;
    return 0;
}

static int known_timer(const char *const *timers, const char *name)
{
    for (size_t i = 0; timers[i]; i++)
        if (!strcmp(timers[i], name))
            return 1;
    return 0;
}

static int parse_thresholds(const struct ydoc *doc, const struct ydoc_node *seq,
                            const char *const *timers, struct score_config *c, char *err, size_t errlen)
{
    if (ydoc_expect(doc, seq, YDOC_SEQ, "thresholds (a list of \"metric op value\" strings)", err, errlen) < 0)
        return -1;
    for (size_t i = 0; i < seq->n; i++) {
        const char *text;
        struct threshold t;
        char why[400];
        if (ydoc_str(doc, seq->items[i], &text, err, errlen) < 0)
            return -1;
        if (threshold_parse(text, &t, why, sizeof why) < 0)
            return ydoc_error(doc, seq->items[i], err, errlen, "%s", why);
        if (timers && t.timer[0] && !known_timer(timers, t.timer))
            return ydoc_error(doc, seq->items[i], err, errlen,
                              "threshold \"%s\": the workload has no timer or measure named '%s'",
                              text, t.timer);
        if (add_threshold(c, &t) < 0)
            return ydoc_error(doc, seq->items[i], err, errlen, "out of memory");
    }
    return 0;
}

int score_config_parse(const struct ydoc *doc, const struct ydoc_node *score,
                       const struct ydoc_node *thresholds, const char *const *timers,
                       struct score_config *out, char *err, size_t errlen)
{
    score_config_init(out);
    if (score && score_rule_plan_read(doc, score, &out->params, err, errlen) < 0)
        return -1;
    if (thresholds && parse_thresholds(doc, thresholds, timers, out, err, errlen) < 0)
        return -1;
    return 0;
}

json_t *score_config_json(const struct score_config *c)
{
    json_t *o = json_object(), *th = json_array();
    int bad = !o || !th;
    if (!bad) {
        bad |= jsonv_set(o, "version", jsonv_string(SCORE_VERSION));
        bad |= jsonv_set(o, "measure", jsonv_string(c->params.measure));
        for (size_t i = 0; i < score_rule_plan_nfields; i++) {
            const struct score_rule_plan_field *f = &score_rule_plan_fields[i];
            bad |= jsonv_set(o, f->key, jsonv_number(score_rule_plan_get(&c->params, f)));
        }
        for (size_t i = 0; i < c->threshold_count; i++)
            bad |= json_array_append_new(th, jsonv_string(c->thresholds[i].text));
        bad |= jsonv_set(o, "thresholds", th);
        th = NULL;
        if (c->focus[0])
            bad |= jsonv_set(o, "focus", jsonv_string(c->focus));
    }
    json_decref(th);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *score_config_to_json(const struct score_config *c)
{
    return jsonv_take_text(score_config_json(c), JSONV_EXACT, 0);
}

static int from_json_value(struct score_config *c, const char *key, json_t *v, char *err, size_t errlen)
{
    if (!strcmp(key, "version"))
        return json_is_string(v) ? 0 : -1;
    if (!strcmp(key, "measure")) {
        const char *m = json_string_value(v);
        if (!m || !m[0] || strlen(m) >= sizeof c->params.measure)
            return -1;
        snprintf(c->params.measure, sizeof c->params.measure, "%s", m);
        return 0;
    }
    if (!strcmp(key, "focus")) {
        const char *m = json_string_value(v);
        if (!m || strlen(m) >= sizeof c->focus)
            return -1;
        snprintf(c->focus, sizeof c->focus, "%s", m);
        return 0;
    }
    if (!strcmp(key, "thresholds")) {
        size_t i;
        json_t *item;
        if (!json_is_array(v))
            return -1;
        json_array_foreach(v, i, item) {
            struct threshold t;
            if (!json_is_string(item))
                return -1;
            if (threshold_parse(json_string_value(item), &t, err, errlen) < 0 ||
                add_threshold(c, &t) < 0)
                return -2;
        }
        return 0;
    }
    for (size_t i = 0; i < score_rule_plan_nfields; i++)
        if (!strcmp(score_rule_plan_fields[i].key, key)) {
            const struct score_rule_plan_field *f = &score_rule_plan_fields[i];
            double x = json_number_value(v);
            if (!json_is_number(v) || !(x >= f->min && x <= f->max))
                return -1;
            score_rule_plan_set(&c->params, f, x);
            return 0;
        }
    return -1;
}

int score_config_from_json(const char *json, struct score_config *out, char *err, size_t errlen)
{
    score_config_init(out);
    if (!json || !*json)
        return 0;
    json_error_t jerr;
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &jerr);
    if (!root) {
        snprintf(err, errlen, "score_params: not valid JSON at line %d column %d: %s", jerr.line, jerr.column,
                 jerr.text);
        return -1;
    }
    int rc = -1;
    const char *key;
    json_t *v;
    if (!json_is_object(root)) {
        snprintf(err, errlen, "score_params: expected a JSON object");
        goto done;
    }
    json_object_foreach(root, key, v) {
        int r = from_json_value(out, key, v, err, errlen);
        if (r == -1)
            snprintf(err, errlen, "score_params: bad or unknown key \"%.64s\"", key);
        if (r < 0)
            goto done;
    }
    if (score_params_check(&out->params, err, errlen) < 0)
        goto done;
    rc = 0;
done:
    json_decref(root);
    return rc;
}
