/* Queries (PQL for stud): trials dealt, and on each trial a small program of
 * operations run, its chosen results written out for the caller to aggregate.
 *
 * A trial gives every player seven cards in dealing order (two down, the door
 * card, three more up, the last down). A player's given up cards take their
 * places from the door card on; a ranged player's hidden cards (a combination of
 * its range, drawn by weight) take the down places; every other place is dealt
 * from the cards no one holds. Ranged combinations that share a card are drawn
 * again, which weighs each collision-free choice by its weights' product (as
 * se_equity_sample_ranges does).
 *
 * The program is a list of operations in order, each writing one register (its
 * own index) from constants, earlier registers, or a player's cards at a street
 * (the first 3..7 cards). Each trial's ratings are computed once per player and
 * street, when first asked for. */
#include "studeval.h"

#include <stdlib.h>
#include <string.h>

#include "base/se_random.h"
#include "base/se_threads.h"
#include "equity/se_equity.h"
#include "query/se_query_seat.h"
#include "rank/se_hand.h"

/* Trials a chunk: a chunk's trials depend only on (seed, chunk index), so any
 * thread count gives the same results. */
#define SE_Q_CHUNK 4096

typedef struct se_q_run {
    const se_query_spot *spot;
    const se_query_program *program;
    se_q_seat seat[SE_QUERY_MAX_PLAYERS];
    uint8_t unseen[52];
    int n_unseen;
    uint64_t known; /* dead and up cards */
    uint64_t dead;  /* the dead cards */
    uint64_t seed, first_trial;
    size_t trials;
    const uint8_t *cards; /* se_query_eval: the trials' cards */
    double *out;
    volatile size_t failed; /* the first failing status, negated, plus one */
} se_q_run;

/* A trial's ratings and street equities, each computed when first asked for (an
 * equity drawn from runouts must be the same wherever the program reads it). */
typedef struct se_q_trial {
    const uint8_t (*cards)[7];
    int game, players;
    se_q_view view;
    se_rng *rng;
    int failed; /* a negative status from a street equity, else 0 */
    uint32_t have_hi[SE_QUERY_MAX_PLAYERS], have_lo[SE_QUERY_MAX_PLAYERS]; /* by street bit */
    uint16_t hi[SE_QUERY_MAX_PLAYERS][8], lo[SE_QUERY_MAX_PLAYERS][8];
    uint32_t have_equity[2][SE_QUERY_MAX_PLAYERS];
    double equity[2][SE_QUERY_MAX_PLAYERS][8];
} se_q_trial;

/* The high rank (1 best) of a player's first `street` cards. */
static uint16_t se_q_hi(se_q_trial *t, int p, int street) {
    if (!(t->have_hi[p] >> street & 1)) {
        se_sums s = se_sum_cards(t->cards[p], street);
        t->hi[p][street] = se_high_of(s, se_slot(s.key));
        t->have_hi[p] |= 1u << street;
    }
    return t->hi[p][street];
}

/* The low rank (1 best) of the game's low, SE_EQ_NONE for none (stud8's unqualified). */
static uint16_t se_q_lo(se_q_trial *t, int p, int street) {
    if (!(t->have_lo[p] >> street & 1)) {
        se_sums s = se_sum_cards(t->cards[p], street);
        uint16_t low = se_low_table[se_slot(s.key)];
        t->lo[p][street] = t->game == SE_GAME_STUD    ? SE_EQ_NONE /* stud has no low */
                           : t->game == SE_GAME_STUD8 ? se_low8_of(low)
                                                      : low;
        t->have_lo[p] |= 1u << street;
    }
    return t->lo[p][street];
}

/* The high hand's type, PQL's order: 0 high card .. 8 straight flush. Under five
 * cards from the ranks' multiplicities (no straight or flush yet). */
static int se_q_type(se_q_trial *t, int p, int street) {
    if (street >= 5) return SE_HIGH_CARD - se_high_class(se_q_hi(t, p, street), NULL);
    return se_q_paired(t->cards[p], street);
}

/* The game's low as a type: 0 none (stud8's unqualified), 1 a low holding a pair
 * (razz), then the highest card of a low of five ranks, from 2 king to 10 five. */
static int se_q_low_type(se_q_trial *t, int p, int street) {
    uint16_t low = se_q_lo(t, p, street);
    if (low == SE_EQ_NONE) return 0;
    int ranks[5];
    if (se_low_class(low, ranks) != 0) return 1;
    return 2 + (11 - ranks[0]); /* ranks[0]: 3 (five) .. 11 (king) */
}

static double se_q_equity_at(se_q_trial *t, int p, int street, int blind) {
    if (!(t->have_equity[blind][p] >> street & 1)) {
        t->equity[blind][p][street] =
            se_q_street_equity(&t->view, p, street, blind, t->rng, &t->failed);
        t->have_equity[blind][p] |= 1u << street;
    }
    return t->equity[blind][p][street];
}

/* What the showdown (seventh street) gives player p: its share of the pot, and
 * which halves it wins alone or ties. */
typedef struct se_q_showdown {
    double share;
    int wins_hi, ties_hi, wins_lo, ties_lo;
} se_q_showdown;

static se_q_showdown se_q_show(se_q_trial *t, int p) {
    se_q_showdown r = {0.0, 0, 0, 0, 0};
    int game = t->game, n = t->players;
    uint16_t best_hi = 0xFFFF, best_lo = 0xFFFF;
    int n_hi = 0, n_lo = 0;
    for (int i = 0; i < n; i++) {
        if (game != SE_GAME_RAZZ) {
            uint16_t h = se_q_hi(t, i, 7);
            if (h < best_hi) best_hi = h, n_hi = 0;
            n_hi += h == best_hi;
        }
        if (game != SE_GAME_STUD) {
            uint16_t l = se_q_lo(t, i, 7);
            if (l < best_lo) best_lo = l, n_lo = 0;
            n_lo += l == best_lo && l != SE_EQ_NONE;
        }
    }
    int hi_p = game != SE_GAME_RAZZ && se_q_hi(t, p, 7) == best_hi;
    int lo_p = game != SE_GAME_STUD && best_lo != SE_EQ_NONE && se_q_lo(t, p, 7) == best_lo;
    r.wins_hi = hi_p && n_hi == 1, r.ties_hi = hi_p && n_hi > 1;
    r.wins_lo = lo_p && n_lo == 1, r.ties_lo = lo_p && n_lo > 1;
    if (game == SE_GAME_STUD) r.share = hi_p ? 1.0 / n_hi : 0.0;
    else if (game == SE_GAME_RAZZ) r.share = lo_p ? 1.0 / n_lo : 0.0;
    else if (best_lo == SE_EQ_NONE) r.share = hi_p ? 1.0 / n_hi : 0.0;
    else r.share = (hi_p ? 0.5 / n_hi : 0.0) + (lo_p ? 0.5 / n_lo : 0.0);
    return r;
}

/* One trial: the program run, its outputs written to out. */
static void se_q_eval(const se_query_program *g, se_q_trial *t, double *reg, double *out) {
    for (int i = 0; i < g->n_ops; i++) {
        const se_query_op *o = &g->ops[i];
        double a = o->a >= 0 ? reg[o->a] : 0.0, b = o->b >= 0 ? reg[o->b] : 0.0, v = 0.0;
        int p = o->player, s = o->street;
        switch (o->code) {
        case SE_Q_CONST: v = o->value; break;
        case SE_Q_ADD: v = a + b; break;
        case SE_Q_SUB: v = a - b; break;
        case SE_Q_MUL: v = a * b; break;
        case SE_Q_DIV: v = a / b; break; /* by 0: inf or nan, as IEEE arithmetic */
        case SE_Q_NEG: v = -a; break;
        case SE_Q_LT: v = a < b; break;
        case SE_Q_LE: v = a <= b; break;
        case SE_Q_GT: v = a > b; break;
        case SE_Q_GE: v = a >= b; break;
        case SE_Q_EQ: v = a == b; break;
        case SE_Q_NE: v = a != b; break;
        case SE_Q_AND: v = a != 0.0 && b != 0.0; break;
        case SE_Q_OR: v = a != 0.0 || b != 0.0; break;
        case SE_Q_NOT: v = a == 0.0; break;
        case SE_Q_HI_RATING: v = 65536.0 - se_q_hi(t, p, s); break;
        case SE_Q_LO_RATING: {
            uint16_t l = se_q_lo(t, p, s);
            v = l == SE_EQ_NONE ? 0.0 : 65536.0 - l;
            break;
        }
        case SE_Q_HAND_TYPE: v = se_q_type(t, p, s); break;
        case SE_Q_BEST_HI: {
            uint16_t mine = se_q_hi(t, p, s);
            v = 1.0;
            for (int k = 0; k < t->players; k++)
                if (se_q_hi(t, k, s) < mine) v = 0.0;
            break;
        }
        case SE_Q_BEST_LO: {
            uint16_t mine = se_q_lo(t, p, s);
            v = mine != SE_EQ_NONE;
            for (int k = 0; k < t->players; k++)
                if (se_q_lo(t, k, s) < mine) v = 0.0;
            break;
        }
        case SE_Q_EQUITY: v = se_q_show(t, p).share; break;
        case SE_Q_WINS_HI: v = se_q_show(t, p).wins_hi; break;
        case SE_Q_TIES_HI: v = se_q_show(t, p).ties_hi; break;
        case SE_Q_WINS_LO: v = se_q_show(t, p).wins_lo; break;
        case SE_Q_TIES_LO: v = se_q_show(t, p).ties_lo; break;
        case SE_Q_SCOOPS: v = se_q_show(t, p).share == 1.0; break;
        case SE_Q_UP_TYPE: /* the up cards by the street: places 2 .. street - 1, to 5 */
            v = se_q_paired(t->cards[p] + 2, (s < 7 ? s : 6) - 2);
            break;
        case SE_Q_LOW_TYPE: v = se_q_low_type(t, p, s); break;
        case SE_Q_NUT_HI: v = se_q_nut_hi(&t->view, p, s); break;
        case SE_Q_NUT_LO: v = se_q_nut_lo(&t->view, p, s); break;
        case SE_Q_OUTS: v = se_q_outs(&t->view, p, s, (int)o->value); break;
        case SE_Q_HVH_EQUITY: v = se_q_equity_at(t, p, s, 0); break;
        case SE_Q_STREET_EQUITY: v = se_q_equity_at(t, p, s, 1); break;
        case SE_Q_UP_IN: v = se_q_up_in(t->cards[p], s, o->value); break;
        case SE_Q_WINNING_TYPE: {
            uint16_t best = 0xFFFF;
            for (int k = 0; k < t->players; k++) {
                uint16_t h = se_q_hi(t, k, 7);
                if (h < best) best = h;
            }
            v = SE_HIGH_CARD - se_high_class(best, NULL);
            break;
        }
        }
        reg[i] = v;
    }
    for (int k = 0; k < g->n_outputs; k++) out[k] = reg[g->outputs[k]];
}

/* Deals one trial's cards; 0, or 1 when the ranges kept colliding. */
static int se_q_deal(const se_q_run *m, se_rng *rng, uint8_t (*cards)[7]) {
    const se_query_spot *spot = m->spot;
    uint32_t chosen[SE_QUERY_MAX_PLAYERS] = {0};
    uint64_t used;
    int collisions = 0;
    for (;;) {
        used = m->known;
        int clash = 0;
        for (int p = 0; p < spot->players; p++) {
            const se_q_seat *r = &m->seat[p];
            if (r->width == 0) continue;
            uint32_t i = se_below(rng, r->count);
            if (r->prob != NULL && (double)(se_next(&rng->x) >> 11) * 0x1.0p-53 >= r->prob[i])
                i = r->alias[i];
            chosen[p] = i;
            clash |= (used & r->mask[i]) != 0;
            used |= r->mask[i];
        }
        if (!clash) break;
        if (++collisions >= 1000000) return 1;
    }
    uint8_t deck[52];
    memcpy(deck, m->unseen, (size_t)m->n_unseen);
    uint32_t j = 0, unseen = (uint32_t)m->n_unseen;
    for (int p = 0; p < spot->players; p++) {
        const se_query_player *given = &spot->player[p];
        const se_q_seat *r = &m->seat[p];
        uint8_t filled = 0; /* places set, by bit */
        for (int u = 0; u < given->n_up; u++) cards[p][2 + u] = given->up[u], filled |= 1u << (2 + u);
        if (r->width > 0) {
            const uint8_t *c = r->combos + (size_t)chosen[p] * (size_t)r->width;
            cards[p][0] = c[0], cards[p][1] = c[1], filled |= 3u;
            if (r->width == 3) cards[p][6] = c[2], filled |= 1u << 6;
        }
        for (int place = 0; place < 7; place++) {
            if (filled >> place & 1) continue;
            uint8_t card;
            do {
                card = se_eq_draw(deck, j, se_below(rng, unseen - j));
                j++;
            } while (used >> card & 1);
            cards[p][place] = card;
        }
    }
    return 0;
}

static int se_q_chunks(void *context, size_t begin, size_t end, int worker) {
    se_q_run *m = (se_q_run *)context;
    const se_query_program *g = m->program;
    double reg[SE_QUERY_MAX_OPS];
    uint8_t cards[SE_QUERY_MAX_PLAYERS][7];
    (void)worker;
    for (size_t chunk = begin; chunk < end; chunk++) {
        size_t from = chunk * SE_Q_CHUNK, to = from + SE_Q_CHUNK;
        if (to > m->trials) to = m->trials;
        uint64_t index = m->first_trial / SE_Q_CHUNK + chunk + 1;
        se_rng rng = se_rng_seeded(m->seed ^ (0x9E3779B97F4A7C15ull * index));
        for (size_t k = from; k < to; k++) {
            se_q_trial t;
            se_rng given_rng; /* given trials: each its own runouts, by its index */
            t.game = m->spot->game, t.players = m->spot->players;
            t.rng = &rng, t.failed = 0;
            memset(t.have_hi, 0, sizeof t.have_hi);
            memset(t.have_lo, 0, sizeof t.have_lo);
            memset(t.have_equity, 0, sizeof t.have_equity);
            if (m->cards != NULL) {
                t.cards = (const uint8_t(*)[7])(m->cards + k * 7 * (size_t)t.players);
                given_rng = se_rng_seeded(m->seed ^ (0xD1B54A32D192ED03ull * (k + 1)));
                t.rng = &given_rng;
            } else {
                if (se_q_deal(m, &rng, cards)) {
                    se_store(&m->failed, (size_t)(-SE_NO_DEAL) + 1);
                    return 1;
                }
                t.cards = (const uint8_t(*)[7])cards;
            }
            t.view.cards = t.cards, t.view.game = t.game, t.view.players = t.players;
            t.view.dead = m->dead;
            t.view.seats = m->cards != NULL ? NULL : m->seat;
            se_q_eval(g, &t, reg, m->out + k * (size_t)g->n_outputs);
            if (t.failed != 0) {
                se_store(&m->failed, (size_t)(-t.failed) + 1);
                return 1;
            }
        }
    }
    return 0;
}

static se_status se_q_check_program(const se_query_program *g, int players) {
    if (g == NULL || g->ops == NULL || g->outputs == NULL || g->n_ops < 1 ||
        g->n_ops > SE_QUERY_MAX_OPS || g->n_outputs < 1 || g->n_outputs > SE_QUERY_MAX_OUTPUTS)
        return SE_BAD_ARGUMENT;
    for (int i = 0; i < g->n_ops; i++) {
        const se_query_op *o = &g->ops[i];
        if (o->code < SE_Q_CONST || o->code > SE_Q_UP_IN || o->a >= i || o->b >= i ||
            o->a < -1 || o->b < -1 || o->player < 0 || o->player >= players || o->street < 3 ||
            o->street > 7)
            return SE_BAD_ARGUMENT;
        if (o->code == SE_Q_UP_IN && !(o->value >= 0.0 && o->value < 70.0 * 70 * 70 * 70 &&
                                       o->value == (double)(uint32_t)o->value))
            return SE_BAD_ARGUMENT;
        /* A low type or the nut low needs five cards. */
        if ((o->code == SE_Q_LOW_TYPE || o->code == SE_Q_NUT_LO) && o->street < 5)
            return SE_BAD_ARGUMENT;
        /* SE_Q_OUTS's hand type, a whole number (a double cast to int must fit). */
        if (o->code == SE_Q_OUTS && !(o->value >= 0.0 && o->value <= 8.0 &&
                                      o->value == (double)(int)o->value))
            return SE_BAD_ARGUMENT;
    }
    for (int k = 0; k < g->n_outputs; k++)
        if (g->outputs[k] < 0 || g->outputs[k] >= g->n_ops) return SE_BAD_ARGUMENT;
    return SE_OK;
}

static void se_q_free(se_q_run *m) {
    for (int p = 0; p < SE_QUERY_MAX_PLAYERS; p++) {
        free(m->seat[p].mask);
        free(m->seat[p].prob);
        free(m->seat[p].alias);
    }
}

/* The spot made ready to deal: cards out of play, each range's masks and alias. */
static se_status se_q_ready(se_q_run *m, const se_query_spot *spot) {
    if ((int)spot->game < 0 || (int)spot->game > SE_GAME_RAZZ || spot->players < 1 ||
        spot->players > SE_QUERY_MAX_PLAYERS || spot->n_dead < 0 || spot->n_dead > 52 ||
        (spot->n_dead > 0 && spot->dead == NULL))
        return SE_BAD_ARGUMENT;
    uint64_t known = 0;
    int needed = 0;
    for (int i = 0; i < spot->n_dead; i++) {
        if (spot->dead[i] >= 52) return SE_INVALID_CARD;
        if (known >> spot->dead[i] & 1) return SE_DUPLICATE_CARD;
        known |= 1ull << spot->dead[i];
    }
    m->dead = known;
    for (int p = 0; p < spot->players; p++) {
        const se_query_player *given = &spot->player[p];
        if (given->n_up < 0 || given->n_up > 4 || (given->width != 0 && given->width != 2 &&
                                                   given->width != 3))
            return SE_BAD_ARGUMENT;
        if (given->width == 3 && given->n_up != 4) return SE_BAD_ARGUMENT;
        for (int u = 0; u < given->n_up; u++) {
            if (given->up[u] >= 52) return SE_INVALID_CARD;
            if (known >> given->up[u] & 1) return SE_DUPLICATE_CARD;
            known |= 1ull << given->up[u];
        }
        needed += 7 - given->n_up; /* the combinations' cards are among the unseen */
    }
    m->known = known;
    m->n_unseen = 0;
    for (int c = 0; c < 52; c++)
        if (!(known >> c & 1)) m->unseen[m->n_unseen++] = (uint8_t)c;
    if (needed > m->n_unseen) return SE_NO_DEAL;
    for (int p = 0; p < spot->players; p++) {
        const se_query_player *given = &spot->player[p];
        se_q_seat *r = &m->seat[p];
        r->width = given->width;
        if (r->width == 0) continue;
        if (given->count < 1 || given->count > SE_RANGE_MAX_COMBOS || given->combos == NULL)
            return SE_BAD_ARGUMENT;
        r->count = (uint32_t)given->count;
        r->combos = given->combos;
        r->mask = (uint64_t *)malloc(r->count * sizeof *r->mask);
        if (r->mask == NULL) return SE_NO_MEMORY;
        for (uint32_t i = 0; i < r->count; i++) {
            uint64_t mask = 0;
            for (int w = 0; w < r->width; w++) {
                uint8_t c = r->combos[(size_t)i * (size_t)r->width + (size_t)w];
                if (c >= 52) return SE_INVALID_CARD;
                if ((mask | known) >> c & 1) return SE_DUPLICATE_CARD;
                mask |= 1ull << c;
            }
            r->mask[i] = mask;
        }
        se_status status = se_eq_alias_new(given->weights, r->count, &r->prob, &r->alias);
        if (status != SE_OK) return status;
    }
    return SE_OK;
}

static se_status se_q_run_all(se_q_run *m, int threads) {
    size_t chunks = (m->trials + SE_Q_CHUNK - 1) / SE_Q_CHUNK;
    se_parallel_for(chunks, 1, 1, threads, se_q_chunks, m);
    size_t failed = se_load(&m->failed);
    return failed ? (se_status)(-(int)(failed - 1)) : SE_OK;
}

se_status se_query_sample(const se_query_spot *spot, const se_query_program *program,
                          uint64_t seed, uint64_t first_trial, size_t trials, int threads,
                          double *out) {
    if (spot == NULL || out == NULL || first_trial % SE_Q_CHUNK != 0) return SE_BAD_ARGUMENT;
    se_status status = se_q_check_program(program, spot->players);
    if (status != SE_OK) return status;
    se_q_run *m = (se_q_run *)calloc(1, sizeof *m);
    if (m == NULL) return SE_NO_MEMORY;
    if ((status = se_q_ready(m, spot)) == SE_OK) {
        m->spot = spot, m->program = program, m->seed = seed, m->first_trial = first_trial;
        m->trials = trials, m->out = out;
        status = se_q_run_all(m, threads);
    }
    se_q_free(m);
    free(m);
    return status;
}

se_status se_query_eval(int game, int players, const se_query_program *program,
                        const uint8_t *dead, int n_dead, const uint8_t *cards, size_t trials,
                        int threads, double *out) {
    if (game < 0 || game > SE_GAME_RAZZ || players < 1 ||
        players > SE_QUERY_MAX_PLAYERS || out == NULL || (trials > 0 && cards == NULL) ||
        n_dead < 0 || n_dead > 52 || (n_dead > 0 && dead == NULL))
        return SE_BAD_ARGUMENT;
    se_status status = se_q_check_program(program, players);
    if (status != SE_OK) return status;
    uint64_t dead_cards = 0;
    for (int i = 0; i < n_dead; i++) {
        if (dead[i] >= 52) return SE_INVALID_CARD;
        if (dead_cards >> dead[i] & 1) return SE_DUPLICATE_CARD;
        dead_cards |= 1ull << dead[i];
    }
    /* Every card a code, none twice in a trial nor dead: the tables are indexed by them. */
    for (size_t k = 0; k < trials; k++) {
        uint64_t seen = dead_cards;
        for (int i = 0; i < 7 * players; i++) {
            uint8_t c = cards[k * 7 * (size_t)players + (size_t)i];
            if (c >= 52) return SE_INVALID_CARD;
            if (seen >> c & 1) return SE_DUPLICATE_CARD;
            seen |= 1ull << c;
        }
    }
    se_query_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = (se_game)game, spot.players = players;
    se_q_run *m = (se_q_run *)calloc(1, sizeof *m);
    if (m == NULL) return SE_NO_MEMORY;
    m->spot = &spot, m->program = program, m->cards = cards, m->trials = trials, m->out = out;
    m->dead = dead_cards;
    status = se_q_run_all(m, threads);
    free(m);
    return status;
}
