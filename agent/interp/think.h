/* think.h -- seeded think times: each session draws its pauses from its own generator, so the
 * same seed always gives the same sequence (runs are repeatable) while sessions differ. */
#ifndef SESSMAX_THINK_H
#define SESSMAX_THINK_H

#include <stdint.h>

struct think_rng { uint64_t state; };

void think_seed(struct think_rng *r, uint64_t seed);
/* Next 64 random bits (splitmix64). */
uint64_t think_next(struct think_rng *r);
/* Uniform in [min_us, max_us], both included, without modulo bias; min_us when max_us <= min_us. */
uint64_t think_draw_us(struct think_rng *r, uint64_t min_us, uint64_t max_us);

#endif
