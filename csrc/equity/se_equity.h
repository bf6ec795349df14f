/* Equity internals shared by the Monte Carlo, enumeration and counting code. */
#ifndef SE_EQUITY_H
#define SE_EQUITY_H

#include <stdint.h>

#include "rank/se_hand.h"
#include "base/se_threads.h"
#include "studeval.h"

/* A player's low when there is none (stud high, or no qualifying 8-or-better). */
#define SE_EQ_NONE 0xFFFFu

/* Heads-up outcomes: 3 high comparisons times 3 low ones or no low. */
#define SE_EQ_OUTCOMES 12

typedef struct se_eq_prep {
    int game, players, community;
    int need[SE_EQ_MAX_PLAYERS]; /* cards each player still draws (own cards only) */
    int total_need;              /* all draws, the community card included */
    se_sums base[SE_EQ_MAX_PLAYERS];
    uint8_t unseen[52];
    int n_unseen;
} se_eq_prep;

/* Checks a spot and works out the unseen cards, the draws and the community card. */
se_status se_eq_prepare(const se_equity_spot *spot, se_eq_prep *p);

uint64_t se_binomial(int n, int k);

/* The Walker alias table of a range's weights w[0..n-1], for drawing by weight:
 * *prob and *alias malloc'ed (the caller frees them, whatever the status), both
 * NULL when w is NULL or every weight is alike (draw uniformly). SE_BAD_ARGUMENT for
 * a weight that is NaN, negative or infinite, or a sum that is 0 or infinite. */
se_status se_eq_alias_new(const double *w, uint32_t n, double **prob, uint32_t **alias);

/* The card at deck[j + offset], swapped to deck[j]: one step of a partial
 * Fisher-Yates shuffle. */
SE_INLINE uint8_t se_eq_draw(uint8_t *deck, uint32_t j, uint32_t offset) {
    uint8_t card = deck[j + offset];
    deck[j + offset] = deck[j];
    deck[j] = card;
    return card;
}

/* Exact, by walking every deal on the calling thread alone (for callers that
 * spread many small spots over threads themselves). */
se_status se_eq_walk_spot(const se_equity_spot *spot, se_equity_counts *out);

/* A caller's se_progress, which may be NULL: has it asked to stop? */
SE_INLINE int se_eq_stopped(se_progress *progress) {
    return progress != NULL && se_load(&progress->stop) != 0;
}

SE_INLINE void se_eq_advance(se_progress *progress, size_t units) {
    if (progress != NULL && units > 0) se_fetch_add(&progress->done, units);
}

SE_INLINE void se_eq_plan(se_progress *progress, size_t total) {
    if (progress != NULL) se_store(&progress->total, total);
}

/* A showdown hand's ranks: every hand equity ranks (dealt out, counted, walked, or
 * a solver's and a query's seven cards) holds seven cards, so it reads the
 * seven-card tables, a quarter of the general ones' size. */
SE_INLINE void se_eq_rank(int game, se_sums s, uint16_t *hi, uint16_t *lo) {
    uint32_t slot = se_slot7(s.key);
    if (game == SE_GAME_STUD) {
        *hi = se_high_in(s, se_high7_table, slot);
        *lo = SE_EQ_NONE;
    } else if (game == SE_GAME_RAZZ) {
        *hi = SE_EQ_NONE;
        *lo = se_low7_table[slot];
    } else { /* hi/lo: both from one entry */
        uint16_t low;
        *hi = se_hilo7_of(s, slot, &low);
        *lo = game == SE_GAME_STUD8 ? se_low8_of(low) : low;
    }
}

SE_INLINE se_sums se_eq_add(se_sums s, uint8_t card) {
    s.key += se_card_table[card].key;
    s.mask += se_card_table[card].mask;
    return s;
}

#endif
