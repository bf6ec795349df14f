/* What se_engine.c (the betting) and se_engine_deck.c (the dealing) share of one
 * hand's state machine. Internal. */
#ifndef SE_ENGINE_H
#define SE_ENGINE_H

#include <stddef.h>

#include "studeval.h"

/* No seat. */
#define SE_NONE (-1)

/* Makes room for `count` more events first, so that a call either happens and is
 * logged whole or fails with SE_NO_MEMORY and changes nothing. */
se_status se_reserve(se_hand *h, size_t count);
/* Appends an event; the caller reserved its room. */
void se_log(se_hand *h, int kind, int seat, int64_t amount, int64_t to, const uint8_t *cards,
            int card_count);
/* Every seat has its cards for the street: the betting round starts (or, when no
 * seat can bet, the street ends). */
void se_start_betting(se_hand *h);

/* Whether the card dealt at `place` (0..6, in deal order) is dealt face down. */
static inline int se_down_place(int place) { return place < 2 || place == 6; }

/* se_hand_act with the seat's se_hand_legal already found (`legal` must be what
 * se_hand_legal gives for the hand as it is: the caller's promise, unchecked). */
se_status se_hand_act_legal(se_hand *h, se_action kind, int64_t to, const se_legal *legal);
/* The seat to act does `kind`, its street total going to `total` (a call's, a bring-in's
 * or a wager's; ignored for fold and check), which must be one se_hand_legal allows for
 * the hand as it is: the caller's promise, unchecked (Tables keep each hand's choices). */
se_status se_hand_act_known(se_hand *h, se_action kind, int64_t total);

/* The betting round's increments: 1 (the small or the big bet), or 2 (both, on a
 * 4th street with an open pair before the big bet is made). */
int se_round_increments(const se_hand *h, int64_t inc[2]);

#endif
