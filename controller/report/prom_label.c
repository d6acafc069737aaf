/* prom_label.c -- an escaped label of the Prometheus text format (prom_label.h). */
#include "controller/report/prom_label.h"

void prom_label(FILE *o, int comma, const char *key, const char *value)
{
    fprintf(o, "%s%s=\"", comma ? "," : "", key);
    for (const unsigned char *p = (const unsigned char *)(value ? value : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(o, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", o);
        else
            fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, o);
    }
    fputc('"', o);
}
