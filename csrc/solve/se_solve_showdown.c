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

/* The combinations' indexes by key, best (lowest) first; ties by index. */
static se_status se_sd_order(const se_sd_seat *s, int by_low, uint32_t **out) {
    uint64_t *keyed = (uint64_t *)malloc((size_t)s->count * sizeof *keyed);
    *out = (uint32_t *)malloc((size_t)s->count * sizeof **out);
    if (keyed == NULL || *out == NULL) {
        free(keyed);
        return SE_NO_MEMORY;
    }
    for (int i = 0; i < s->count; i++) {
        uint16_t key = by_low ? s->combo[i].lo : s->combo[i].hi;
        keyed[i] = (uint64_t)key << 32 | (uint32_t)i;
    }
    qsort(keyed, (size_t)s->count, sizeof *keyed, se_sd_cmp);
    for (int i = 0; i < s->count; i++) (*out)[i] = (uint32_t)keyed[i];
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
        if (n->kind == SE_SOLVE_ACT) {
            if (n->seat < 0 || n->seat > 1 || n->n_children < 2 || n->n_children > 3 ||
                n->tied < 0 || n->tied > 1 ||
                n->first_child <= i || n->first_child > spot->n_nodes - n->n_children)
                status = SE_BAD_ARGUMENT;
            else
                for (int c = 0; c < n->n_children; c++) parents[n->first_child + c]++;
        } else if (n->kind == SE_SOLVE_FOLD || n->kind == SE_SOLVE_SHOWDOWN) {
            if ((n->kind == SE_SOLVE_FOLD && (n->seat < 0 || n->seat > 1)) || n->tied != 0 ||
                !(n->put[0] >= 0.0 && n->put[0] < 1e15) || !(n->put[1] >= 0.0 && n->put[1] < 1e15))
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

static se_status se_sd_seat_new(const se_solve_spot *spot, int p, uint64_t up, se_sd_seat *s) {
    int count = spot->count[p];
    if (count < 1 || count > SE_SOLVE_MAX_COMBOS || spot->hidden[p] == NULL) return SE_BAD_ARGUMENT;
    s->count = count;
    s->combo = (se_sd_combo *)malloc((size_t)count * sizeof *s->combo);
    s->prior = (double *)malloc((size_t)count * sizeof *s->prior);
    s->group = (int *)malloc((size_t)count * sizeof *s->group);
    if (s->combo == NULL || s->prior == NULL || s->group == NULL) return SE_NO_MEMORY;
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
        uint8_t seven[7];
        memcpy(seven, spot->up[p], 4);
        memcpy(seven + 4, c->card, 3);
        uint16_t hi, lo; /* SE_EQ_NONE where the game has no such half */
        se_eq_rank((int)spot->game, se_sum_cards(seven, 7), &hi, &lo);
        c->hi = hi, c->lo = lo;
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
    se_status status = se_sd_order(s, 0, &s->by_hi);
    if (status == SE_OK) status = se_sd_order(s, 1, &s->by_lo);
    return status;
}

se_status se_sd_prepare(const se_solve_spot *spot, se_sd_table *t) {
    memset(t, 0, sizeof *t);
    if (spot == NULL || (spot->game != SE_GAME_STUD && spot->game != SE_GAME_STUD8 &&
                         spot->game != SE_GAME_RAZZ) ||
        !(spot->pot >= 0.0 && spot->pot < 1e15) ||
        !(spot->rake_rate >= 0.0 && spot->rake_rate <= 1.0) ||
        !(spot->rake_cap >= 0.0 && spot->rake_cap < 1e15))
        return SE_BAD_ARGUMENT;
    se_status status = se_sd_check_tree(spot);
    if (status != SE_OK) return status;
    uint64_t up = 0;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 4; k++) {
            if (spot->up[p][k] >= 52) return SE_INVALID_CARD;
            if (up >> spot->up[p][k] & 1) return SE_DUPLICATE_CARD;
            up |= 1ull << spot->up[p][k];
        }
    t->game = spot->game, t->pot = spot->pot, t->n_nodes = spot->n_nodes;
    t->rake_rate = spot->rake_rate, t->rake_cap = spot->rake_cap;
    t->nodes = (se_solve_node *)malloc((size_t)spot->n_nodes * sizeof *t->nodes);
    t->offset = (size_t *)calloc((size_t)spot->n_nodes, sizeof *t->offset);
    if (t->nodes == NULL || t->offset == NULL) return SE_NO_MEMORY;
    memcpy(t->nodes, spot->nodes, (size_t)spot->n_nodes * sizeof *t->nodes);
    for (int p = 0; p < 2; p++)
        if ((status = se_sd_seat_new(spot, p, up, &t->seat[p])) != SE_OK) return status;
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
        free(t->seat[p].prior);
        free(t->seat[p].by_hi);
        free(t->seat[p].by_lo);
        free(t->seat[p].group);
    }
    free(t->nodes);
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
    if (!w->better || !w->le || !w->compat || !w->masked || !w->share) return SE_NO_MEMORY;
    return SE_OK;
}

void se_sd_work_free(se_sd_work *w) {
    free(w->one);
    free(w->better);
    free(w->le);
    free(w->compat);
    free(w->masked);
    free(w->share);
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

void se_sd_compatible(const se_sd_table *t, int p, const double *opp_reach, double *out,
                      se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    for (int o = 0; o < op->count; o++)
        if (opp_reach[o] != 0.0) se_sd_add(w, &op->combo[o], opp_reach[o]);
    for (int h = 0; h < me->count; h++) out[h] = se_sd_query(w, &me->combo[h]);
    se_sd_clear(w, op);
}

#define SE_SD_KEY(c) (by_low ? (c).lo : (c).hi)

/* For each of p's combinations, the other seat's reach ranked better (w->better),
 * better or equal (w->le) and in all (w->compat), among those sharing no card. */
static void se_sd_sweep(const se_sd_table *t, int p, int by_low, const double *reach,
                        se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    const uint32_t *mine = by_low ? me->by_lo : me->by_hi, *theirs = by_low ? op->by_lo : op->by_hi;
    int i = 0, j = 0;
    while (i < me->count) {
        uint16_t key = SE_SD_KEY(me->combo[mine[i]]);
        for (; j < op->count && SE_SD_KEY(op->combo[theirs[j]]) < key; j++)
            if (reach[theirs[j]] != 0.0) se_sd_add(w, &op->combo[theirs[j]], reach[theirs[j]]);
        int g = i;
        for (; g < me->count && SE_SD_KEY(me->combo[mine[g]]) == key; g++)
            w->better[mine[g]] = se_sd_query(w, &me->combo[mine[g]]);
        for (; j < op->count && SE_SD_KEY(op->combo[theirs[j]]) == key; j++)
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
 * reach) into w->share, and the reach it meets into w->compat. */
static void se_sd_shares(const se_sd_table *t, int p, const double *reach, se_sd_work *w) {
    const se_sd_seat *me = &t->seat[p], *op = &t->seat[1 - p];
    int n = me->count;
    if (t->game != SE_GAME_STUD8) {
        se_sd_sweep(t, p, t->game == SE_GAME_RAZZ, reach, w);
        for (int h = 0; h < n; h++)
            w->share[h] = w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]);
        return;
    }
    /* Stud8: half by the high; the other half by the low where either has one (no
     * low ranks below every low), else by the high again. */
    se_sd_sweep(t, p, 1, reach, w);
    for (int h = 0; h < n; h++)
        w->share[h] = me->combo[h].lo == SE_EQ_NONE
                          ? 0.0
                          : 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
    for (int o = 0; o < op->count; o++)
        w->masked[o] = op->combo[o].lo == SE_EQ_NONE ? reach[o] : 0.0;
    se_sd_sweep(t, p, 0, w->masked, w);
    for (int h = 0; h < n; h++)
        if (me->combo[h].lo == SE_EQ_NONE)
            w->share[h] += 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
    se_sd_sweep(t, p, 0, reach, w);
    for (int h = 0; h < n; h++)
        w->share[h] += 0.5 * (w->compat[h] - w->le[h] + 0.5 * (w->le[h] - w->better[h]));
}

void se_sd_terminal(const se_sd_table *t, int node, int p, const double *opp_reach, double *cfv,
                    se_sd_work *w) {
    const se_solve_node *n = &t->nodes[node];
    double total = t->pot + n->put[0] + n->put[1], put = n->put[p];
    double rake = t->rake_rate * total;
    total -= rake < t->rake_cap ? rake : t->rake_cap; /* what the winners share */
    int count = t->seat[p].count;
    if (n->kind == SE_SOLVE_FOLD) {
        double pay = n->seat == p ? -put : total - put;
        se_sd_compatible(t, p, opp_reach, cfv, w);
        for (int h = 0; h < count; h++) cfv[h] *= pay;
        return;
    }
    se_sd_shares(t, p, opp_reach, w);
    for (int h = 0; h < count; h++) cfv[h] = total * w->share[h] - put * w->compat[h];
}
