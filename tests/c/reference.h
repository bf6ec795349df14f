/*
 * A brute-force reference for the studeval rankings, written apart from the
 * core (it includes no core source and reads none of its tables) so that the
 * exhaustive test compares two independent derivations.
 *
 * Everything here is plain and slow on purpose: a 5-card hand is classified by
 * counting ranks and suits and building a sort key; the rank numbers come from
 * enumerating every 5-card hand, collecting the distinct keys and sorting them.
 * Hands of 6 and 7 cards are left to the caller as "best of the 5-card subsets".
 *
 * Cards are the core's codes (rank * 4 + suit, rank 0 = deuce .. 12 = ace).
 */
#ifndef STUDEVAL_TEST_REFERENCE_H
#define STUDEVAL_TEST_REFERENCE_H

#include <stdint.h>

/* Builds the class lists. Call once before anything else; returns 0, or -1 when
 * the class counts are not 7462 / 6175 (the reference itself is broken). */
int ref_init(void);

/* Ranks of exactly five distinct valid cards (any order); 1 = best. */
int ref_high5(const uint8_t cards[5]);   /* 1..7462, Cactus Kev numbering */
int ref_low5(const uint8_t cards[5]);    /* 1..6175, ace-to-five low */

/* The 8-or-better value of a best low rank: the rank itself when it is one of
 * the 56 lows of five distinct ranks all 8 or lower, else 65535. */
int ref_low8_of_low(int low_rank);

/* The category of a high rank in se_category numbering (0 straight flush ..
 * 8 high card), and of a low rank (0 no pair, 1 pair, 2 two pair, 3 trips,
 * 4 full house, 5 quads). -1 when the rank is out of range. */
int ref_high_category(int high_rank);
int ref_low_category(int low_rank);

/* The five ranks (0..12) of a class as se_high_class / se_low_class document
 * them: grouped ranks, larger groups first, then higher ranks first (for low,
 * ace counts lowest and is written 12); straights read down from the top card
 * with the wheel as 5-4-3-2-A. Returns the category or -1. */
int ref_high_ranks(int high_rank, int ranks_out[5]);
int ref_low_ranks(int low_rank, int ranks_out[5]);

/* Up cards: 1..4 distinct valid cards. High: quads, then trips, then two pair,
 * then one pair, then no pair; within a shape the grouped ranks compared from
 * the top, ace high. Low: no pair, then one pair, then two pair, then trips,
 * then quads; within a shape the grouped ranks from the top, ace low, lower
 * better. Ranks are dense positions among the rank multisets of that many
 * cards: 1..13, 1..91, 1..455, 1..1820. Suits never count. Returns -1 for a
 * bad count. */
int ref_up_high(const uint8_t *cards, int n);
int ref_up_low(const uint8_t *cards, int n);
/* Number of up-card classes of n cards (13, 91, 455, 1820), or -1. */
int ref_up_classes(int n);

#endif /* STUDEVAL_TEST_REFERENCE_H */
