/* A solved street's spot made ready, and folds and showdowns settled against a whole
 * range at once: see se_solve.h.
 *
 * Card removal by inclusion-exclusion: the other seat's combinations that share no
 * card with a combination h are counted as sum over T subset of h of (-1)^|T| W[T],
 * W[T] the reach of those holding T, kept in arrays by T: 52 singles, 1,326 pairs and
 * 22,100 triples.
 * A sweep walks both ranges by rank, best first, adding the other seat's
 * combinations to the sums as they pass: h's better and better-or-equal reach are
 * read when its rank comes. */
#include "solve/se_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "equity/se_equity.h"
#include "rank/se_hand.h"

static int se_sd_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The combinations' indexes by `key` (a row of count), best (lowest) first; ties by
 * index, into `out`. */
static se_status se_sd_order(int count, const uint16_t *key, uint32_t *out) {
    uint64_t *keyed = (uint64_t *)malloc((size_t)count * sizeof *keyed);
    if (keyed == NULL) return SE_NO_MEMORY;
    for (int i = 0; i < count; i++) keyed[i] = (uint64_t)key[i] << 32 | (uint32_t)i;
    qsort(keyed, (size_t)count, sizeof *keyed, se_sd_cmp);
    for (int i = 0; i < count; i++) out[i] = (uint32_t)keyed[i];
    free(keyed);
    return SE_OK;
}

static uint16_t se_sd_triple(const uint8_t *c) {
    return (uint16_t)(c[2] * (c[2] - 1) * (c[2] - 2) / 6 + c[1] * (c[1] - 1) / 2 + c[0]);
}

static se_status se_sd_check_tree(const se_solve_spot *spot) {
    if (spot->n_nodes < 1 || spot->n_nodes > SE_SOLVE_MAX_NODES || spot->nodes == NULL)
        return SE_BAD_ARGUMENT;
    int *parents = (int *)calloc((size_t)spot->n_nodes, sizeof *parents);
    if (parents == NULL) return SE_NO_MEMORY;
    se_status status = SE_OK;
    for (int i = 0; i < spot->n_nodes && status == SE_OK; i++) {
        const se_solve_node *n = &spot->nodes[i];
        if (n->kind == SE_SOLVE_ACT || n->kind == SE_SOLVE_CHANCE) {
            int act = n->kind == SE_SOLVE_ACT;
            if ((act && (n->seat < 0 || n->seat > 1)) || n->tied < 0 || n->tied > act ||
                (act && (n->n_children < 2 || n->n_children > 3)) ||
                (!act && (n->n_children < 1 || n->n_children > SE_SOLVE_MAX_BOARDS)) ||
                n->first_child <= i || n->first_child > spot->n_nodes - n->n_children)
                status = SE_BAD_ARGUMENT;
            else
                for (int c = 0; c < n->n_children; c++) parents[n->first_child + c]++;
        } else if (n->kind == SE_SOLVE_FOLD || n->kind == SE_SOLVE_SHOWDOWN) {
            if ((n->kind == SE_SOLVE_FOLD && (n->seat < 0 || n->seat > 1)) || n->tied != 0 ||
                !(n->put[0] >= 0.0 && n->put[0] < (double)SE_SOLVE_MAX_CHIPS) ||
                !(n->put[1] >= 0.0 && n->put[1] < (double)SE_SOLVE_MAX_CHIPS))
                status = SE_BAD_ARGUMENT;
        } else {
            status = SE_BAD_ARGUMENT;
        }
    }
    /* A tree: the root has no parent, every other node one. */
    for (int i = 0; i < spot->n_nodes && status == SE_OK; i++)
        if (parents[i] != (i > 0)) status = SE_BAD_ARGUMENT;
    free(parents);
    return status;
}

/* Each node's boards: the root's all, an action node's children its own, a chance
 * node's children an equal share each, in order; a showdown's node one. */
static se_status se_sd_node_boards(se_sd_table *t) {
    t->first_board[0] = 0, t->n_node_boards[0] = t->n_boards;
    for (int i = 0; i < t->n_nodes; i++) {
        const se_solve_node *n = &t->nodes[i];
        int first = t->first_board[i], count = t->n_node_boards[i];
        if (n->kind == SE_SOLVE_SHOWDOWN && count != 1) return SE_BAD_ARGUMENT;
        if (n->kind != SE_SOLVE_ACT && n->kind != SE_SOLVE_CHANCE) continue;
        int chance = n->kind == SE_SOLVE_CHANCE, share = chance ? count / n->n_children : count;
        if (chance && count % n->n_children != 0) return SE_BAD_ARGUMENT;
        for (int c = 0; c < n->n_children; c++) {
            t->first_board[n->first_child + c] = first + (chance ? c * share : 0);
            t->n_node_boards[n->first_child + c] = share;
        }
    }
    return SE_OK;
}

/* Each combination's ranks with each board, and the combinations by rank. */
static se_status se_sd_seat_ranks(const se_sd_table *t, int p, se_sd_seat *s) {
    size_t cells = (size_t)t->n_boards * (size_t)s->count;
    s->hi = (uint16_t *)malloc(cells * sizeof *s->hi);
    s->lo = (uint16_t *)malloc(cells * sizeof *s->lo);
    s->by_hi = (uint32_t *)malloc(cells * sizeof *s->by_hi);
    s->by_lo = (uint32_t *)malloc(cells * sizeof *s->by_lo);
    if (!s->hi || !s->lo || !s->by_hi || !s->by_lo) return SE_NO_MEMORY;
    se_status status = SE_OK;
    for (int b = 0; b < t->n_boards && status == SE_OK; b++) {
        size_t row = (size_t)b * (size_t)s->count;
        uint8_t seven[7];
        memcpy(seven, t->board + (size_t)b * 8 + (size_t)p * 4, 4);
        for (int i = 0; i < s->count; i++) {
            uint16_t hi = SE_EQ_NONE, lo = SE_EQ_NONE; /* SE_EQ_NONE: no such half */
            if (!(s->held[i] & t->board_bits[b])) {
                memcpy(seven + 4, s->combo[i].card, 3);
                se_eq_rank(t->game, se_sum_cards(seven, 7), &hi, &lo);
            }
            s->hi[row + (size_t)i] = hi, s->lo[row + (size_t)i] = lo;
        }
        status = se_sd_order(s->count, s->hi + row, s->by_hi + row);
        if (status == SE_OK) status = se_sd_order(s->count, s->lo + row, s->by_lo + row);
    }
    return status;
}

static se_status se_sd_seat_new(const se_solve_spot *spot, int p, uint64_t up, se_sd_seat *s) {
    int count = spot->count[p];
    if (count < 1 || count > SE_SOLVE_MAX_COMBOS || spot->hidden[p] == NULL) return SE_BAD_ARGUMENT;
    s->count = count;
    s->combo = (se_sd_combo *)malloc((size_t)count * sizeof *s->combo);
    s->prior = (double *)malloc((size_t)count * sizeof *s->prior);
    s->group = (int *)malloc((size_t)count * sizeof *s->group);
    s->held = (uint64_t *)malloc((size_t)count * sizeof *s->held);
    if (s->combo == NULL || s->prior == NULL || s->group == NULL || s->held == NULL)
        return SE_NO_MEMORY;
    s->n_groups = spot->group[p] == NULL ? count : spot->n_groups[p];
    if (s->n_groups < 1 || s->n_groups > count) return SE_BAD_ARGUMENT;
    for (int i = 0; i < count; i++) {
        int g = spot->group[p] == NULL ? i : spot->group[p][i];
        if (g < 0 || g >= s->n_groups) return SE_BAD_ARGUMENT;
        s->group[i] = g;
    }
    for (int i = 0; i < count; i++) {
        se_sd_combo *c = &s->combo[i];
        const uint8_t *given = spot->hidden[p] + (size_t)i * 3;
        uint64_t held = 0;
        for (int k = 0; k < 3; k++) {
            if (given[k] >= 52) return SE_INVALID_CARD;
            if ((held | up) >> given[k] & 1) return SE_DUPLICATE_CARD;
            held |= 1ull << given[k];
        }
        uint8_t a = given[0], b = given[1], d = given[2], x;
        if (a > b) x = a, a = b, b = x;
        if (b > d) x = b, b = d, d = x;
        if (a > b) x = a, a = b, b = x;
        c->card[0] = a, c->card[1] = b, c->card[2] = d;
        c->pair[0] = (uint16_t)(b * (b - 1) / 2 + a);
        c->pair[1] = (uint16_t)(d * (d - 1) / 2 + a);
        c->pair[2] = (uint16_t)(d * (d - 1) / 2 + b);
        c->triple = se_sd_triple(c->card);
        s->held[i] = held;
        double w = spot->weights[p] == NULL ? 1.0 : spot->weights[p][i];
        if (!(w >= 0.0 && w <= 1e12)) return SE_BAD_ARGUMENT; /* sums stay finite */
        s->prior[i] = w;
        s->total += w;
    }
    /* Weights relative to their sum: the values are ratios of sums of products of the
     * two seats' weights, which tiny weights given as they are would underflow. */
    if (s->total > 0.0) {
        for (int i = 0; i < count; i++) s->prior[i] /= s->total;
        s->total = 1.0;
    }
    return SE_OK;
}

/* The boards: the spot's, or its `up` alone; each board's cards valid and distinct.
 * `up` is the cards no combination may hold: the one board's (boards are dealt with
 * the hidden cards: a combination holding a board's card is left out of it). */
static se_status se_sd_boards(const se_solve_spot *spot, se_sd_table *t, uint64_t *up) {
    if (spot->n_boards < 0 || spot->n_boards > SE_SOLVE_MAX_BOARDS ||
        (spot->n_boards > 0 && spot->boards == NULL))
        return SE_BAD_ARGUMENT;
    t->n_boards = spot->n_boards > 0 ? spot->n_boards : 1;
    t->boards_given = spot->n_boards > 0;
    t->board = (uint8_t *)malloc((size_t)t->n_boards * 8);
    t->board_bits = (uint64_t *)malloc((size_t)t->n_boards * sizeof *t->board_bits);
    if (t->board == NULL || t->board_bits == NULL) return SE_NO_MEMORY;
    if (spot->n_boards > 0) memcpy(t->board, spot->boards, (size_t)t->n_boards * 8);
    else memcpy(t->board, spot->up, 8);
    for (int b = 0; b < t->n_boards; b++) {
        uint64_t bits = 0;
        for (int k = 0; k < 8; k++) {
            uint8_t card = t->board[(size_t)b * 8 + (size_t)k];
            if (card >= 52) return SE_INVALID_CARD;
            if (bits >> card & 1) return SE_DUPLICATE_CARD;
            bits |= 1ull << card;
        }
        t->board_bits[b] = bits;
    }
    *up = spot->n_boards > 0 ? 0 : t->board_bits[0];
    return SE_OK;
}

se_status se_sd_prepare(const se_solve_spot *spot, se_sd_table *t) {
    memset(t, 0, sizeof *t);
    if (spot == NULL || (spot->game != SE_GAME_STUD && spot->game != SE_GAME_STUD8 &&
                         spot->game != SE_GAME_RAZZ) ||
        !(spot->pot >= 0.0 && spot->pot < (double)SE_SOLVE_MAX_CHIPS) ||
        !(spot->rake_rate >= 0.0 && spot->rake_rate <= 1.0) ||
        !(spot->rake_cap >= 0.0 && spot->rake_cap < (double)SE_SOLVE_MAX_CHIPS))
        return SE_BAD_ARGUMENT;
    se_status status = se_sd_check_tree(spot);
    if (status != SE_OK) return status;
    t->game = spot->game, t->pot = spot->pot, t->n_nodes = spot->n_nodes;
    t->rake_rate = spot->rake_rate, t->rake_cap = spot->rake_cap;
    uint64_t up;
    if ((status = se_sd_boards(spot, t, &up)) != SE_OK) return status;
    size_t nodes = (size_t)spot->n_nodes;
    t->nodes = (se_solve_node *)malloc(nodes * sizeof *t->nodes);
    t->offset = (size_t *)calloc(nodes, sizeof *t->offset);
    t->first_board = (int *)malloc(nodes * sizeof *t->first_board);
    t->n_node_boards = (int *)malloc(nodes * sizeof *t->n_node_boards);
    if (!t->nodes || !t->offset || !t->first_board || !t->n_node_boards) return SE_NO_MEMORY;
    memcpy(t->nodes, spot->nodes, nodes * sizeof *t->nodes);
    if ((status = se_sd_node_boards(t)) != SE_OK) return status;
    for (int p = 0; p < 2; p++) {
        if ((status = se_sd_seat_new(spot, p, up, &t->seat[p])) != SE_OK) return status;
        if ((status = se_sd_seat_ranks(t, p, &t->seat[p])) != SE_OK) return status;
    }
    for (int i = 0; i < t->n_nodes; i++) {
        const se_solve_node *n = &t->nodes[i];
        t->offset[i] = t->strategy_size;
        if (n->kind == SE_SOLVE_ACT)
            t->strategy_size += (size_t)se_sd_rows(t, i) * (size_t)n->n_children;
    }
    return status;
}

void se_sd_release(se_sd_table *t) {
    for (int p = 0; p < 2; p++) {
        free(t->seat[p].combo);
        free(t->seat[p].held);
        free(t->seat[p].hi);
        free(t->seat[p].lo);
        free(t->seat[p].prior);
        free(t->seat[p].by_hi);
        free(t->seat[p].by_lo);
        free(t->seat[p].group);
    }
    free(t->board);
    free(t->board_bits);
    free(t->nodes);
    free(t->first_board);
    free(t->n_node_boards);
    free(t->offset);
    memset(t, 0, sizeof *t);
}

se_status se_sd_work_new(const se_sd_table *t, se_sd_work *w) {
    size_t n = (size_t)(t->seat[0].count > t->seat[1].count ? t->seat[0].count : t->seat[1].count);
    memset(w, 0, sizeof *w);
    w->one = (double *)calloc(52 + 1326 + 22100, sizeof(double));
    if (w->one == NULL) return SE_NO_MEMORY;
    w->two = w->one + 52, w->three = w->two + 1326;
    w->better = (double *)malloc(n * sizeof(double));
    w->le = (double *)malloc(n * sizeof(double));
    w->compat = (double *)malloc(n * sizeof(double));
    w->masked = (double *)malloc(n * sizeof(double));
    w->share = (double *)malloc(n * sizeof(double));
    w->board_reach = (double *)malloc(n * sizeof(double));
    w->board_cfv = (double *)malloc(n * sizeof(double));
    if (!w->better || !w->le || !w->compat || !w->masked || !w->share || !w->board_reach ||
        !w->board_cfv)
        return SE_NO_MEMORY;
    return SE_OK;
}

void se_sd_work_free(se_sd_work *w) {
    free(w->one);
    free(w->better);
    free(w->le);
    free(w->compat);
    free(w->masked);
    free(w->share);
    free(w->board_reach);
    free(w->board_cfv);
}

/* ---- sweeps ----------------------------------------------------------------------- */

SE_INLINE void se_sd_add(se_sd_work *w, const se_sd_combo *c, double r) {
    w->total += r;
    w->one[c->card[0]] += r, w->one[c->card[1]] += r, w->one[c->card[2]] += r;
    w->two[c->pair[0]] += r, w->two[c->pair[1]] += r, w->two[c->pair[2]] += r;
    w->three[c->triple] += r;
}

/* The reach added so far of the other seat's combinations sharing no card with c. */
SE_INLINE double se_sd_query(const se_sd_work *w, const se_sd_combo *c) {
    return w->total - (w->one[c->card[0]] + w->one[c->card[1]] + w->one[c->card[2]]) +
           (w->two[c->pair[0]] + w->two[c->pair[1]] + w->two[c->pair[2]]) - w->three[c->triple];
}

/* Back to zero after a sweep over seat s's combinations: only their entries where
 * they are few, else the whole arrays. */
static void se_sd_clear(se_sd_work *w, const se_sd_seat *s) {
    w->total = 0.0;
    if ((size_t)s->count * 7 > (52 + 1326 + 22100) / 4) {
        memset(w->one, 0, (52 + 1326 + 22100) * sizeof(double));
        return;
    }
    for (int i = 0; i < s->count; i++) {
        const se_sd_combo *c = &s->combo[i];
        w->one[c->card[0]] = w->one[c->card[1]] = w->one[c->card[2]] = 0.0;
        w->two[c->pair[0]] = w->two[c->pair[1]] = w->two[c->pair[2]] = 0.0;
        w->three[c->triple] = 0.0;
    }
}

static void se_sd_compatible(const se_sd_table *t, int p, const double *opp_reach, double *out,
                             se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    for (int o = 0; o < op->count; o++)
        if (opp_reach[o] != 0.0) se_sd_add(w, &op->combo[o], opp_reach[o]);
    for (int h = 0; h < me->count; h++) out[h] = se_sd_query(w, &me->combo[h]);
    se_sd_clear(w, op);
}

/* A seat's row of ranks (`by_low`: the low's) and its order, with board b. */
#define SE_SD_ROW(s, field) ((s)->field + (size_t)b * (size_t)(s)->count)

/* For each of p's combinations, the other seat's reach ranked better (w->better),
 * better or equal (w->le) and in all (w->compat), among those sharing no card, with
 * board b. */
static void se_sd_sweep(const se_sd_table *t, int b, int p, int by_low, const double *reach,
                        se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    const uint32_t *mine = by_low ? SE_SD_ROW(me, by_lo) : SE_SD_ROW(me, by_hi);
    const uint32_t *theirs = by_low ? SE_SD_ROW(op, by_lo) : SE_SD_ROW(op, by_hi);
    const uint16_t *my_key = by_low ? SE_SD_ROW(me, lo) : SE_SD_ROW(me, hi);
    const uint16_t *their_key = by_low ? SE_SD_ROW(op, lo) : SE_SD_ROW(op, hi);
    int i = 0, j = 0;
    while (i < me->count) {
        uint16_t key = my_key[mine[i]];
        for (; j < op->count && their_key[theirs[j]] < key; j++)
            if (reach[theirs[j]] != 0.0) se_sd_add(w, &op->combo[theirs[j]], reach[theirs[j]]);
        int g = i;
        for (; g < me->count && my_key[mine[g]] == key; g++)
            w->better[mine[g]] = se_sd_query(w, &me->combo[mine[g]]);
        for (; j < op->count && their_key[theirs[j]] == key; j++)
            if (reach[theirs[j]] != 0.0) se_sd_add(w, &op->combo[theirs[j]], reach[theirs[j]]);
        for (int x = i; x < g; x++) w->le[mine[x]] = se_sd_query(w, &me->combo[mine[x]]);
        i = g;
    }
    for (; j < op->count; j++)
        if (reach[theirs[j]] != 0.0) se_sd_add(w, &op->combo[theirs[j]], reach[theirs[j]]);
    for (int h = 0; h < me->count; h++) w->compat[h] = se_sd_query(w, &me->combo[h]);
    se_sd_clear(w, op);
}

/* The share of the pot each of p's combinations wins (weighted by the other seat's
 * reach) into w->share, and the reach it meets into w->compat, with board b. */
static void se_sd_shares(const se_sd_table *t, int b, int p, const double *reach, se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    const uint16_t *my_lo = SE_SD_ROW(me, lo), *their_lo = SE_SD_ROW(op, lo);
    int n = me->count;
    if (t->game != SE_GAME_STUD8) {
        se_sd_sweep(t, b, p, t->game == SE_GAME_RAZZ, reach, w);
        for (int h = 0; h < n; h++)
            w->share[h] = w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]);
        return;
    }
    /* Stud8: half by the high; the other half by the low where either has one (no
     * low ranks below every low), else by the high again. */
    se_sd_sweep(t, b, p, 1, reach, w);
    for (int h = 0; h < n; h++)
        w->share[h] = my_lo[h] == SE_EQ_NONE
                          ? 0.0
                          : 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
    for (int o = 0; o < op->count; o++) w->masked[o] = their_lo[o] == SE_EQ_NONE ? reach[o] : 0.0;
    se_sd_sweep(t, b, p, 0, w->masked, w);
    for (int h = 0; h < n; h++)
        if (my_lo[h] == SE_EQ_NONE)
            w->share[h] += 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
    se_sd_sweep(t, b, p, 0, reach, w);
    for (int h = 0; h < n; h++)
        w->share[h] += 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
}

/* Seat p's values at terminal n with board b alone (its chance 1), against `reach`
 * (the other seat's combinations holding none of its cards). */
static void se_sd_settle(const se_sd_table *t, const se_solve_node *n, int b, int p,
                         const double *reach, double *cfv, se_sd_work *w) {
    /* The chips the other seat did not match (a bet folded to, or a seat all in for
     * less) go back to the seat that put them in before the rake is taken, as a
     * hand's settlement returns them: the rake is a cut of the pot contested. */
    int more = n->put[1] > n->put[0];
    double back = n->put[more] - n->put[1 - more];
    double total = t->pot + n->put[0] + n->put[1] - back;
    double put = n->put[p] - (p == more ? back : 0.0); /* what p lost into the pot */
    double rake = t->rake_rate * total;
    total -= rake < t->rake_cap ? rake : t->rake_cap; /* what the winners share */
    int count = t->seat[p].count;
    if (n->kind == SE_SOLVE_FOLD) {
        double pay = n->seat == p ? -put : total - put;
        se_sd_compatible(t, p, reach, cfv, w);
        for (int h = 0; h < count; h++) cfv[h] *= pay;
        return;
    }
    se_sd_shares(t, b, p, reach, w);
    for (int h = 0; h < count; h++) cfv[h] = total * w->share[h] - put * w->compat[h];
}

/* `settle` (a terminal's values, or the reach met: n NULL) summed over boards
 * first .. first + count - 1, each board's chance 1 / n_boards, the combinations
 * holding one of its cards left out of it on both sides. */
static void se_sd_over_boards(const se_sd_table *t, const se_solve_node *n, int first, int count,
                              int p, const double *opp_reach, double *out, se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    if (!t->boards_given) { /* the one board is `up`: no combination holds its cards */
        if (n != NULL) se_sd_settle(t, n, 0, p, opp_reach, out, w);
        else se_sd_compatible(t, p, opp_reach, out, w);
        return;
    }
    double chance = 1.0 / t->n_boards;
    memset(out, 0, (size_t)me->count * sizeof *out);
    for (int b = first; b < first + count; b++) {
        uint64_t bits = t->board_bits[b];
        for (int o = 0; o < op->count; o++)
            w->board_reach[o] = op->held[o] & bits ? 0.0 : opp_reach[o];
        if (n != NULL) se_sd_settle(t, n, b, p, w->board_reach, w->board_cfv, w);
        else se_sd_compatible(t, p, w->board_reach, w->board_cfv, w);
        for (int h = 0; h < me->count; h++)
            if (!(me->held[h] & bits)) out[h] += chance * w->board_cfv[h];
    }
}

void se_sd_terminal(const se_sd_table *t, int node, int p, const double *opp_reach, double *cfv,
                    se_sd_work *w) {
    se_sd_over_boards(t, &t->nodes[node], t->first_board[node], t->n_node_boards[node], p,
                      opp_reach, cfv, w);
}

void se_sd_met(const se_sd_table *t, int p, const double *opp_reach, double *out, se_sd_work *w) {
    se_sd_over_boards(t, NULL, 0, t->n_boards, p, opp_reach, out, w);
}
