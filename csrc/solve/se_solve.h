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
} se_sd_combo;

/* Inclusion-exclusion leaves rounding noise where the true count is 0 (a few units in
 * the last place of the whole weight): a weight met below this share of the other
 * seat's whole weight is none, and so is a spot whose weight dealt together is below
 * this share of the product of both (the noise then stays below 1e-7 of the values). */
#define SE_SD_NOISE 1e-9

typedef struct se_sd_seat {
    int count;
    se_sd_combo *combo;
    uint64_t *held;          /* each combination's cards, a bit a card */
    double *prior;           /* the weights, each a share of their sum (1 each when none) */
    double total;            /* their sum: 1, or 0 when every weight is 0 */
    /* A row of `count` a board: each combination's ranks with the board's up cards (1
     * best; the high, and the game's low, SE_EQ_NONE where none or where the
     * combination holds one of the board's cards), and the combinations by rank. */
    uint16_t *hi, *lo;
    uint32_t *by_hi, *by_lo;
    int *group;              /* each combination's group (its own when none were given) */
    int n_groups;
} se_sd_seat;

typedef struct se_sd_table {
    int game;
    double pot, rake_rate, rake_cap;
    se_sd_seat seat[2];
    int n_boards;
    int boards_given;    /* 0: the one board is the spot's `up` (none of its cards held) */
    uint8_t *board;      /* n_boards * 8 codes, as the spot gives them */
    uint64_t *board_bits; /* each board's up cards, a bit a card */
    int n_nodes;
    se_solve_node *nodes;
    int *first_board, *n_node_boards; /* each node's boards: those its path has dealt */
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
    double *board_reach, *board_cfv; /* one board's share of a node with several */
} se_sd_work;

se_status se_sd_prepare(const se_solve_spot *spot, se_sd_table *t);
void se_sd_release(se_sd_table *t);
se_status se_sd_work_new(const se_sd_table *t, se_sd_work *w);
void se_sd_work_free(se_sd_work *w);

/* Seat p's counterfactual value of each combination at fold or showdown node `node`
 * (chips won less put in, each weighted by the other seat's reach of the
 * combinations that share no card with it, over the node's boards, each by its
 * chance: 1 / n_boards). */
void se_sd_terminal(const se_sd_table *t, int node, int p, const double *opp_reach, double *cfv,
                    se_sd_work *w);

/* The other seat's reach dealt with each of p's combinations: of its combinations
 * that share no card with it, over every board neither holds a card of, each by its
 * chance. */
void se_sd_met(const se_sd_table *t, int p, const double *opp_reach, double *out, se_sd_work *w);

#endif
