/* How equity scores a deal (internal to se_equity.c): each player's share of the pot
 * in whole units, wins, ties and scoops, summed in an accumulator; heads-up and small
 * multiway deals counted by their outcome and scored once each at the merge. */
#ifndef SE_EQUITY_SCORE_H
#define SE_EQUITY_SCORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "equity/se_equity.h"
#include "rank/se_hand.h"
#include "studeval.h"

/* Multiway outcomes counted (se_eq_winners): 8 bits of winners. */
#define SE_EQ_WINNER_OUTCOMES 256

typedef struct se_eq_acc {
    uint64_t deals;
    uint64_t share[SE_EQ_MAX_PLAYERS], share_sq[SE_EQ_MAX_PLAYERS];
    uint64_t high_win[SE_EQ_MAX_PLAYERS], high_tie[SE_EQ_MAX_PLAYERS];
    uint64_t low_win[SE_EQ_MAX_PLAYERS], low_tie[SE_EQ_MAX_PLAYERS];
    uint64_t scoop[SE_EQ_MAX_PLAYERS];
    uint64_t low_share[SE_EQ_MAX_PLAYERS];
    /* Heads-up deals by outcome (see se_eq_outcome), scored at the merge. */
    uint64_t heads_up[SE_EQ_OUTCOMES];
    /* Multiway deals by their winners (see se_eq_winners), scored at the merge. */
    uint64_t multiway[SE_EQ_WINNER_OUTCOMES];
} se_eq_acc;

/* Splits `units` among the players whose value equals the best (lowest) of
 * `value`; returns how many share it, 0 when nobody has a value. */
SE_INLINE int se_eq_half(const uint16_t *value, int n, uint32_t units, uint32_t *got,
                         uint64_t *win, uint64_t *tie, uint64_t weight) {
    uint16_t best = SE_EQ_NONE;
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (value[i] < best) {
            best = value[i];
            count = 1;
        } else if (value[i] == best && best != SE_EQ_NONE) {
            count++;
        }
    }
    if (count == 0) return 0;
    /* units / count without a division (a whole pot or a half, 1..8 winners). */
    static const uint32_t split[2][SE_EQ_MAX_PLAYERS + 1] = {
        {0, SE_EQ_UNITS, SE_EQ_UNITS / 2, SE_EQ_UNITS / 3, SE_EQ_UNITS / 4, SE_EQ_UNITS / 5,
         SE_EQ_UNITS / 6, SE_EQ_UNITS / 7, SE_EQ_UNITS / 8},
        {0, SE_EQ_UNITS / 2, SE_EQ_UNITS / 4, SE_EQ_UNITS / 6, SE_EQ_UNITS / 8, SE_EQ_UNITS / 10,
         SE_EQ_UNITS / 12, SE_EQ_UNITS / 14, SE_EQ_UNITS / 16},
    };
    uint32_t each = split[units != SE_EQ_UNITS][count];
    for (int i = 0; i < n; i++) {
        if (value[i] == best) {
            got[i] += each;
            if (count == 1) win[i] += weight;
            else tie[i] += weight;
        }
    }
    return count;
}

/* hi[i], lo[i]: the players' high ranks and low ranks (A-5 for razz and the
 * no-qualifier game; 8-or-better with SE_EQ_NONE for no low in stud8). */
SE_INLINE void se_score_deal(int game, int n, const uint16_t *hi, const uint16_t *lo,
                             se_eq_acc *acc, uint64_t weight) {
    uint32_t got[SE_EQ_MAX_PLAYERS] = {0}, low[SE_EQ_MAX_PLAYERS] = {0};
    switch (game) {
    case SE_GAME_STUD:
        se_eq_half(hi, n, SE_EQ_UNITS, got, acc->high_win, acc->high_tie, weight);
        break;
    case SE_GAME_RAZZ:
        se_eq_half(lo, n, SE_EQ_UNITS, low, acc->low_win, acc->low_tie, weight);
        break;
    case SE_GAME_STUD8:
        if (se_eq_half(lo, n, SE_EQ_UNITS / 2, low, acc->low_win, acc->low_tie, weight)) {
            se_eq_half(hi, n, SE_EQ_UNITS / 2, got, acc->high_win, acc->high_tie, weight);
        } else {
            se_eq_half(hi, n, SE_EQ_UNITS, got, acc->high_win, acc->high_tie, weight);
        }
        break;
    default: /* SE_GAME_STUD_HILO_NOQ */
        se_eq_half(hi, n, SE_EQ_UNITS / 2, got, acc->high_win, acc->high_tie, weight);
        se_eq_half(lo, n, SE_EQ_UNITS / 2, low, acc->low_win, acc->low_tie, weight);
        break;
    }
    for (int i = 0; i < n; i++) {
        acc->low_share[i] += (uint64_t)low[i] * weight;
        got[i] += low[i];
        acc->share[i] += (uint64_t)got[i] * weight;
        acc->share_sq[i] += (uint64_t)got[i] * got[i] * weight;
        if (got[i] == SE_EQ_UNITS) acc->scoop[i] += weight;
    }
    acc->deals += weight;
}

/* 1 when a is better (lower) than b, 0 when equal, 2 when worse. */
SE_INLINE int se_eq_compare(uint16_t a, uint16_t b) {
    return 1 + (a > b) - (a < b);
}

/* A heads-up deal's outcome, one of SE_EQ_OUTCOMES: the high comparison, and
 * the low comparison or "neither has a low". Counting outcomes costs one
 * increment a deal and no branch that depends on who won (a coin flip the
 * branch predictor would lose half the time); se_eq_merge scores each outcome
 * once, through the same se_score_deal every other deal goes through. */
SE_INLINE int se_eq_outcome(const uint16_t *hi, const uint16_t *lo) {
    int neither_low = (lo[0] & lo[1]) == SE_EQ_NONE;
    return se_eq_compare(hi[0], hi[1]) + 3 * (se_eq_compare(lo[0], lo[1]) + 2 * neither_low);
}

/* Whether a multiway deal of `game` among `players` is counted by its winners (the
 * outcome fits SE_EQ_WINNER_OUTCOMES: one side's winners among up to 8 seats, or
 * both sides' among up to 4) rather than scored where it is dealt. */
SE_INLINE int se_eq_by_winners(int game, int players) {
    return players > 2 && (game == SE_GAME_STUD || game == SE_GAME_RAZZ || players <= 4);
}

/* The seats holding the best (lowest) of `value`, as bits; 0 when nobody has a value.
 * Without a branch on the values (who wins is a coin flip to the predictor). */
SE_INLINE unsigned se_eq_best_seats(const uint16_t *value, int n) {
    uint16_t best = value[0];
    for (int i = 1; i < n; i++) best = value[i] < best ? value[i] : best;
    unsigned seats = 0;
    for (int i = 0; i < n; i++) seats |= (unsigned)(value[i] == best) << i;
    return best == SE_EQ_NONE ? 0u : seats;
}

/* A multiway deal's outcome for se_eq_by_winners: the high winners' bits (stud), the
 * low winners' (razz), or the high winners' and, four bits up, the low winners' (none
 * where no low qualifies). Counting outcomes costs one increment a deal where
 * se_score_deal costs a dozen sums a seat; the merge scores each outcome once,
 * through se_score_deal, so the counts are the same to the deal. */
SE_INLINE unsigned se_eq_winners(int game, int n, const uint16_t *hi, const uint16_t *lo) {
    if (game == SE_GAME_STUD) return se_eq_best_seats(hi, n);
    if (game == SE_GAME_RAZZ) return se_eq_best_seats(lo, n);
    return se_eq_best_seats(hi, n) | se_eq_best_seats(lo, n) << 4;
}

static void se_eq_merge(se_equity_counts *out, const se_eq_acc *counted, int game, int n) {
    /* Stand-in values with the same comparisons as the outcome's. */
    static const uint16_t pair[4][2] = {{0, 1}, {0, 0}, {1, 0}, {SE_EQ_NONE, SE_EQ_NONE}};
    /* The sums, copied (se_score_deal adds the outcomes' to them); not the outcome
     * counts, which are read from `counted`. */
    se_eq_acc acc;
    memcpy(&acc, counted, offsetof(se_eq_acc, heads_up));
    for (int outcome = 0; outcome < SE_EQ_OUTCOMES; outcome++) {
        if (counted->heads_up[outcome] == 0) continue;
        se_score_deal(game, 2, pair[outcome % 3], pair[outcome / 3], &acc,
                      counted->heads_up[outcome]);
    }
    /* The outcomes n seats can have, not all SE_EQ_WINNER_OUTCOMES: a merge per
     * combination of a range's exact count walks few deals. */
    int one_sided = game == SE_GAME_STUD || game == SE_GAME_RAZZ;
    unsigned seats = se_eq_by_winners(game, n) ? 1u << n : 0u;
    for (unsigned low = 0; low < (one_sided ? 1u : seats); low++) {
        for (unsigned high = 1; high < seats; high++) {
            uint64_t count = counted->multiway[high | low << 4];
            if (count == 0) continue;
            /* Stand-ins: 0 for a winner, 1 for a loser, none for a side nobody won (a
             * one-sided game's winners stand on both sides: the other is not read). */
            unsigned low_seats = one_sided ? high : low;
            uint16_t hi[SE_EQ_MAX_PLAYERS], lo[SE_EQ_MAX_PLAYERS];
            for (int i = 0; i < n; i++) {
                hi[i] = (uint16_t)!(high >> i & 1);
                lo[i] = low_seats ? (uint16_t)!(low_seats >> i & 1) : SE_EQ_NONE;
            }
            se_score_deal(game, n, hi, lo, &acc, count);
        }
    }
    out->deals += acc.deals;
    for (int i = 0; i < n; i++) {
        out->share[i] += acc.share[i];
        out->share_sq[i] += acc.share_sq[i];
        out->high_win[i] += acc.high_win[i];
        out->high_tie[i] += acc.high_tie[i];
        out->low_win[i] += acc.low_win[i];
        out->low_tie[i] += acc.low_tie[i];
        out->scoop[i] += acc.scoop[i];
        out->low_share[i] += acc.low_share[i];
    }
}

/* Each player's card sums for one deal: cards[] holds every player's draws in
 * player order, then the community card. */
SE_INLINE void se_eq_sum_deal(const se_eq_prep *p, const uint8_t *cards, se_sums *sums,
                              const int players) {
    int at = 0;
    for (int i = 0; i < players; i++) {
        se_sums s = p->base[i];
        for (int j = 0; j < p->need[i]; j++) s = se_eq_add(s, cards[at++]);
        if (p->community && p->total_need > 0) s = se_eq_add(s, cards[p->total_need - 1]);
        sums[i] = s;
    }
}

/* Ranks and scores one deal from its sums. game and players are compile-time
 * constants where the Monte Carlo loop calls it, so each (game, players) pair
 * gets a straight-line copy. */
SE_INLINE void se_eq_score_sums(const se_sums *sums, se_eq_acc *acc, uint64_t weight,
                                const int game, const int players) {
    uint16_t hi[SE_EQ_MAX_PLAYERS], lo[SE_EQ_MAX_PLAYERS];
    for (int i = 0; i < players; i++) se_eq_rank(game, sums[i], &hi[i], &lo[i]);
    if (players == 2) acc->heads_up[se_eq_outcome(hi, lo)] += weight;
    else if (se_eq_by_winners(game, players))
        acc->multiway[se_eq_winners(game, players, hi, lo)] += weight;
    else se_score_deal(game, players, hi, lo, acc, weight);
}

SE_INLINE void se_eq_deal(const se_eq_prep *p, const uint8_t *cards, se_eq_acc *acc,
                          uint64_t weight) {
    se_sums sums[SE_EQ_MAX_PLAYERS];
    se_eq_sum_deal(p, cards, sums, p->players);
    se_eq_score_sums(sums, acc, weight, p->game, p->players);
}

#endif /* SE_EQUITY_SCORE_H */
