/* main.c -- placeholder */
#include <stdio.h>
int main(void) { fprintf(stderr, "not built yet\n"); return 70; }
