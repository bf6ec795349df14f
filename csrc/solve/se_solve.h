/* A solved street's spot made ready, and what a fold or showdown gives each
 * combination against the other seat's reach (internal to the solve layer). */
#ifndef SE_SOLVE_H
#define SE_SOLVE_H

#include <stdint.h>

#include "base/se_inline.h"
#include "studeval.h"

/* One combination of a seat's hidden cards, as the sweeps read it. */
typedef struct se_sd_combo {
    uint8_t card[3];  /* ascending */
    uint16_t pair[3]; /* each pair of its cards, indexed b * (b - 1) / 2 + a (a < b) */
    uint16_t triple;  /* its three cards, indexed as pairs are (below 22,100) */
    uint16_t hi, lo;  /* its ranks (1 best): the high, and the game's low (0xFFFF none) */
} se_sd_combo;

/* Inclusion-exclusion leaves rounding noise where the true count is 0 (a few units in
 * the last place of the whole weight): a weight met below this share of the other
 * seat's whole weight is none, and so is a spot whose weight dealt together is below
 * this share of the product of both (the noise then stays below 1e-7 of the values). */
#define SE_SD_NOISE 1e-9

typedef struct se_sd_seat {
    int count;
    se_sd_combo *combo;
    double *prior;           /* the weights, each a share of their sum (1 each when none) */
    double total;            /* their sum: 1, or 0 when every weight is 0 */
    uint32_t *by_hi, *by_lo; /* the combinations by rank, best first */
    int *group;              /* each combination's group (its own when none were given) */
    int n_groups;
} se_sd_seat;

typedef struct se_sd_table {
    int game;
    double pot, rake_rate, rake_cap;
    se_sd_seat seat[2];
    int n_nodes;
    se_solve_node *nodes;
    size_t *offset; /* an action node's first strategy value among all the nodes' rows */
    size_t strategy_size;
} se_sd_table;

/* The rows of an action node's strategy: one a group when tied, else a combination. */
SE_INLINE int se_sd_rows(const se_sd_table *t, int node) {
    const se_solve_node *n = &t->nodes[node];
    return n->tied ? t->seat[n->seat].n_groups : t->seat[n->seat].count;
}

/* The row combination h of the acting seat plays by at node n. */
SE_INLINE int se_sd_row(const se_sd_table *t, const se_solve_node *n, int h) {
    return n->tied ? t->seat[n->seat].group[h] : h;
}

/* Scratch for settling a fold or showdown: the accumulator of a sweep (its sums by
 * single card, pair and triple: zero between two uses) and vectors of the largest
 * seat's size. */
typedef struct se_sd_work {
    double total, *one, *two, *three;
    double *better, *le, *compat, *masked, *share;
} se_sd_work;

se_status se_sd_prepare(const se_solve_spot *spot, se_sd_table *t);
void se_sd_release(se_sd_table *t);
se_status se_sd_work_new(const se_sd_table *t, se_sd_work *w);
void se_sd_work_free(se_sd_work *w);

/* Seat p's counterfactual value of each combination at fold or showdown node `node`
 * (chips won less put in, each weighted by the other seat's reach of the
 * combinations that share no card with it). */
void se_sd_terminal(const se_sd_table *t, int node, int p, const double *opp_reach, double *cfv,
                    se_sd_work *w);

/* The other seat's reach of the combinations that share no card with each of p's. */
void se_sd_compatible(const se_sd_table *t, int p, const double *opp_reach, double *out,
                      se_sd_work *w);

#endif
