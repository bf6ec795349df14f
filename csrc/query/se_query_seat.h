/* What a stud player sees at a street, and what it can still get: the nuts, the
 * outs, the equity a street gives (internal to the query layer).
 *
 * From player p's seat at a street (every player holding its first 3..7 cards in
 * dealing order), the cards seen are p's own, every other player's up cards dealt
 * by then (places 2 .. min(street, 6) - 1) and the dead cards. Every other card is
 * unseen: another player's hidden cards may be any of them. */
#ifndef SE_QUERY_SEAT_H
#define SE_QUERY_SEAT_H

#include <stdint.h>

#include "base/se_random.h"
#include "studeval.h"

/* A seat's range of down cards as the core draws from it. */
typedef struct se_q_seat {
    int width; /* 0: hidden cards dealt; else a combination of the range */
    uint32_t count;
    const uint8_t *combos;
    uint64_t *mask;
    double *prob; /* NULL: every weight alike */
    uint32_t *alias;
} se_q_seat;

/* One trial as the seat functions read it. */
typedef struct se_q_view {
    const uint8_t (*cards)[7]; /* each player's seven cards, in dealing order */
    int game, players;
    uint64_t dead;             /* the dead cards, by bit */
    const se_q_seat *seats;    /* the players' ranges, or NULL: every hidden card dealt */
} se_q_view;

/* The type of cards[0..n), PQL's order (0 high card .. 8 straight flush); under
 * five cards from the ranks' multiplicities alone (no straight or flush yet). */
int se_q_paired(const uint8_t *cards, int n);
int se_q_type_of(const uint8_t *cards, int n);

/* Do p's up cards by `street` match the pattern (SE_Q_UP_IN's), in some order? */
int se_q_up_in(const uint8_t *cards, int street, double pattern);

/* The cards p has not seen by `street`, by bit. */
uint64_t se_q_unseen(const se_q_view *v, int p, int street);

/* 1 when no other player, whatever its hidden cards among those p has not seen,
 * can hold a better high (nut_hi) or low (nut_lo: the game's low, stud8's
 * qualifying one; 0 when p has none) than p at `street`. */
int se_q_nut_hi(const se_q_view *v, int p, int street);
int se_q_nut_lo(const se_q_view *v, int p, int street);

/* How many cards p has not seen would, as its next card, make its hand of type
 * `type` and better than it is at `street`: a higher type, or (from fifth street on)
 * the same type ranked higher. 0 at seventh street. */
int se_q_outs(const se_q_view *v, int p, int street, int type);

/* p's share of the pot, averaged over the rest of the deal from `street` on.
 * blind 0: given every player's cards by then (hand against hand); exact where the
 * runouts are at most SE_QUERY_EXACT_RUNOUTS, else SE_QUERY_RUNOUTS drawn.
 * blind 1: given what p sees (the others' hidden cards drawn from their ranges, or
 * from the unseen cards), SE_QUERY_RUNOUTS drawn. *failed is set to a negative
 * status when the ranges kept colliding, or no memory. */
double se_q_street_equity(const se_q_view *v, int p, int street, int blind, se_rng *rng,
                          int *failed);

#endif
